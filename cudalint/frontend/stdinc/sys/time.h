#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
struct timezone { int tz_minuteswest, tz_dsttime; };
_CL_BEGIN_C
int gettimeofday(struct timeval* __restrict, void* __restrict);
int settimeofday(const struct timeval*, const struct timezone*);
_CL_END_C
#define timersub(a, b, r) \
  do { (r)->tv_sec = (a)->tv_sec - (b)->tv_sec; (r)->tv_usec = (a)->tv_usec - (b)->tv_usec; \
       if ((r)->tv_usec < 0) { --(r)->tv_sec; (r)->tv_usec += 1000000; } } while (0)
