#pragma once
#pragma clang system_header
/* The system-call numbers host code passes to syscall() (x86-64 Linux numbering). */
#define SYS_read 0
#define SYS_write 1
#define SYS_getpid 39
#define SYS_gettid 186
#define SYS_futex 202
#define __NR_read SYS_read
#define __NR_write SYS_write
#define __NR_getpid SYS_getpid
#define __NR_gettid SYS_gettid
#define __NR_futex SYS_futex
