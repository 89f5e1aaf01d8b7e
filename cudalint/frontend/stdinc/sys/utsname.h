#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
_CL_BEGIN_C
struct utsname {
  char sysname[65];
  char nodename[65];
  char release[65];
  char version[65];
  char machine[65];
  char domainname[65];
};
int uname(struct utsname*);
_CL_END_C
