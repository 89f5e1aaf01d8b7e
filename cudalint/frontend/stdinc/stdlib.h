#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#include <__cudalint/abs.h>
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define MB_CUR_MAX 1
typedef struct { int quot, rem; } div_t;
typedef struct { long quot, rem; } ldiv_t;
typedef struct { long long quot, rem; } lldiv_t;
_CL_BEGIN_C
_CL_HD void* malloc(size_t);
_CL_HD void free(void*);
void* calloc(size_t, size_t);
void* realloc(void*, size_t);
void* aligned_alloc(size_t, size_t);
int posix_memalign(void**, size_t, size_t);
void* valloc(size_t);
void* memalign(size_t, size_t);
_CL_HD void abort(void) __attribute__((noreturn));
void exit(int) __attribute__((noreturn));
void _Exit(int) __attribute__((noreturn));
void quick_exit(int) __attribute__((noreturn));
int atexit(void (*)(void));
int at_quick_exit(void (*)(void));
char* getenv(const char*);
char* secure_getenv(const char*);
int setenv(const char*, const char*, int);
int unsetenv(const char*);
int putenv(char*);
int system(const char*);
char* realpath(const char* __restrict, char* __restrict);
int mkstemp(char*);
char* mkdtemp(char*);
double atof(const char*);
int atoi(const char*);
long atol(const char*);
long long atoll(const char*);
double strtod(const char* __restrict, char** __restrict);
float strtof(const char* __restrict, char** __restrict);
long double strtold(const char* __restrict, char** __restrict);
long strtol(const char* __restrict, char** __restrict, int);
long long strtoll(const char* __restrict, char** __restrict, int);
unsigned long strtoul(const char* __restrict, char** __restrict, int);
unsigned long long strtoull(const char* __restrict, char** __restrict, int);
int rand(void);
void srand(unsigned int);
int rand_r(unsigned int*);
long random(void);
void srandom(unsigned int);
double drand48(void);
long lrand48(void);
void srand48(long);
double erand48(unsigned short[3]);
void qsort(void*, size_t, size_t, int (*)(const void*, const void*));
void* bsearch(const void*, const void*, size_t, size_t, int (*)(const void*, const void*));
div_t div(int, int);
ldiv_t ldiv(long, long);
lldiv_t lldiv(long long, long long);
int mblen(const char*, size_t);
_CL_END_C
#ifdef __cplusplus
extern "C++" {
inline ldiv_t div(long a, long b) { return ldiv(a, b); }
inline lldiv_t div(long long a, long long b) { return lldiv(a, b); }
}
#endif
