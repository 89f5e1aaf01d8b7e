#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#define RTLD_LAZY 1
#define RTLD_NOW 2
#define RTLD_GLOBAL 0x100
_CL_BEGIN_C
void* dlopen(const char*, int);
void* dlsym(void* __restrict, const char* __restrict);
int dlclose(void*);
char* dlerror(void);
_CL_END_C
