#pragma once
#pragma clang system_header
#include <string.h>
