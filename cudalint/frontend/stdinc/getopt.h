#pragma once
#pragma clang system_header
#include <unistd.h>
struct option { const char* name; int has_arg; int* flag; int val; };
#define no_argument 0
#define required_argument 1
#define optional_argument 2
_CL_BEGIN_C
int getopt_long(int, char* const[], const char*, const struct option*, int*);
_CL_END_C
