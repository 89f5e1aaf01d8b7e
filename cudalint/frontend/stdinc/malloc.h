#pragma once
#pragma clang system_header
#include <stdlib.h>
