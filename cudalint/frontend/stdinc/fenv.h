#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
typedef unsigned short fexcept_t;
typedef struct { unsigned short __cw, __sw, __tw, __ip; unsigned int __data[6]; } fenv_t;
#define FE_TONEAREST 0
#define FE_DOWNWARD 0x400
#define FE_UPWARD 0x800
#define FE_TOWARDZERO 0xc00
#define FE_INVALID 0x01
#define FE_DIVBYZERO 0x04
#define FE_OVERFLOW 0x08
#define FE_UNDERFLOW 0x10
#define FE_INEXACT 0x20
#define FE_ALL_EXCEPT 0x3d
_CL_BEGIN_C
int fegetround(void);
int fesetround(int);
int feclearexcept(int);
int fetestexcept(int);
int feraiseexcept(int);
int fegetenv(fenv_t*);
int fesetenv(const fenv_t*);
_CL_END_C
