#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
_CL_BEGIN_C
int strcasecmp(const char*, const char*);
int strncasecmp(const char*, const char*, size_t);
void bzero(void*, size_t);
void bcopy(const void*, void*, size_t);
int bcmp(const void*, const void*, size_t);
int ffs(int);
_CL_END_C
