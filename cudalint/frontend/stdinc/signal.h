#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
typedef int sig_atomic_t;
typedef void (*sighandler_t)(int);
typedef struct { unsigned long __val[16]; } sigset_t;
struct sigaction { sighandler_t sa_handler; sigset_t sa_mask; int sa_flags; void (*sa_restorer)(void); };
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
_CL_BEGIN_C
sighandler_t signal(int, sighandler_t);
int raise(int);
int kill(pid_t, int);
int sigaction(int, const struct sigaction* __restrict, struct sigaction* __restrict);
int sigemptyset(sigset_t*);
int sigaddset(sigset_t*, int);
_CL_END_C
