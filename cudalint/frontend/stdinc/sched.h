#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
_CL_BEGIN_C
int sched_yield(void);
_CL_END_C
