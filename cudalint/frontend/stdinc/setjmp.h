#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
typedef long jmp_buf[25];
_CL_BEGIN_C
int setjmp(jmp_buf);
void longjmp(jmp_buf, int) __attribute__((noreturn));
_CL_END_C
