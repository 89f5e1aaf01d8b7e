#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#define LC_ALL 6
#define LC_NUMERIC 1
struct lconv { char* decimal_point; char* thousands_sep; };
_CL_BEGIN_C
char* setlocale(int, const char*);
struct lconv* localeconv(void);
_CL_END_C
