#pragma once
#pragma clang system_header
#include <netinet/in.h>
_CL_BEGIN_C
in_addr_t inet_addr(const char*);
int inet_aton(const char*, struct in_addr*);
char* inet_ntoa(struct in_addr);
int inet_pton(int, const char*, void*);
const char* inet_ntop(int, const void*, char*, socklen_t);
_CL_END_C
