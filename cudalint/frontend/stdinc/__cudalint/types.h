/* The POSIX/glibc scalar types of x86_64 Linux (LP64), shared by several headers. */
#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
typedef long ssize_t;
typedef long off_t;
typedef long off64_t;
typedef long time_t;
typedef long clock_t;
typedef long suseconds_t;
typedef unsigned int useconds_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef unsigned long dev_t;
typedef unsigned long ino_t;
typedef unsigned long nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
typedef int clockid_t;
typedef void* timer_t;
typedef int key_t;
typedef unsigned long u_long;
typedef unsigned int u_int;
typedef unsigned short u_short;
typedef unsigned char u_char;
/* <sys/types.h> under _GNU_SOURCE (cuda_runtime.h brings it through <stdlib.h>). */
typedef unsigned long int ulong;
typedef unsigned short int ushort;
typedef unsigned int uint;
struct timespec { time_t tv_sec; long tv_nsec; };
struct timeval { time_t tv_sec; suseconds_t tv_usec; };
/* glibc's <sys/types.h> (which <stdlib.h> brings) declares the signed exact-width types. */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
