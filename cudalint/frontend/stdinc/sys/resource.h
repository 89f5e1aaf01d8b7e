#pragma once
#pragma clang system_header
#include <sys/time.h>
typedef unsigned long rlim_t;
struct rlimit { rlim_t rlim_cur, rlim_max; };
struct rusage { struct timeval ru_utime, ru_stime; long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss,
  ru_minflt, ru_majflt, ru_nswap, ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals,
  ru_nvcsw, ru_nivcsw; };
#define RUSAGE_SELF 0
#define RLIMIT_STACK 3
_CL_BEGIN_C
int getrusage(int, struct rusage*);
int getrlimit(int, struct rlimit*);
int setrlimit(int, const struct rlimit*);
_CL_END_C
