#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
_CL_BEGIN_C
int isalnum(int); int isalpha(int); int isblank(int); int iscntrl(int); int isdigit(int);
int isgraph(int); int islower(int); int isprint(int); int ispunct(int); int isspace(int);
int isupper(int); int isxdigit(int); int tolower(int); int toupper(int); int isascii(int);
int toascii(int);
_CL_END_C
