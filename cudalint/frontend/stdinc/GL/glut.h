#pragma once
#pragma clang system_header
#include <GL/freeglut.h>
