#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define _SC_NPROCESSORS_ONLN 84
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
_CL_BEGIN_C
int access(const char*, int);
int close(int);
ssize_t read(int, void*, size_t);
ssize_t write(int, const void*, size_t);
off_t lseek(int, off_t, int);
int unlink(const char*);
int rmdir(const char*);
int chdir(const char*);
char* getcwd(char*, size_t);
unsigned int sleep(unsigned int);
int usleep(useconds_t);
pid_t getpid(void);
pid_t getppid(void);
pid_t fork(void);
int execvp(const char*, char* const[]);
int pipe(int[2]);
int dup(int);
int dup2(int, int);
long sysconf(int);
int gethostname(char*, size_t);
int isatty(int);
int getopt(int, char* const[], const char*);
int ftruncate(int, off_t);
int fsync(int);
long syscall(long, ...);
extern char* optarg;
extern int optind, opterr, optopt;
_CL_END_C
