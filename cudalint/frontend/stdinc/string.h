#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
_CL_BEGIN_C
_CL_HD void* memcpy(void* __restrict, const void* __restrict, size_t);
_CL_HD void* memset(void*, int, size_t);
void* memmove(void*, const void*, size_t);
int memcmp(const void*, const void*, size_t);
void* memccpy(void* __restrict, const void* __restrict, int, size_t);
size_t strlen(const char*);
size_t strnlen(const char*, size_t);
char* strcpy(char* __restrict, const char* __restrict);
char* strncpy(char* __restrict, const char* __restrict, size_t);
char* strcat(char* __restrict, const char* __restrict);
char* strncat(char* __restrict, const char* __restrict, size_t);
int strcmp(const char*, const char*);
int strncmp(const char*, const char*, size_t);
int strcoll(const char*, const char*);
size_t strxfrm(char* __restrict, const char* __restrict, size_t);
size_t strspn(const char*, const char*);
size_t strcspn(const char*, const char*);
char* strtok(char* __restrict, const char* __restrict);
char* strtok_r(char* __restrict, const char* __restrict, char** __restrict);
char* strdup(const char*);
char* strndup(const char*, size_t);
char* strerror(int);
int strcasecmp(const char*, const char*);
int strncasecmp(const char*, const char*, size_t);
char* strsep(char** __restrict, const char* __restrict);
char* strsignal(int);
_CL_END_C
#ifdef __cplusplus
/* C++ const-correct overloads, as glibc declares them for C++. */
extern "C++" {
void* memchr(void*, int, size_t);
const void* memchr(const void*, int, size_t);
char* strchr(char*, int);
const char* strchr(const char*, int);
char* strrchr(char*, int);
const char* strrchr(const char*, int);
char* strpbrk(char*, const char*);
const char* strpbrk(const char*, const char*);
char* strstr(char*, const char*);
const char* strstr(const char*, const char*);
}
#else
void* memchr(const void*, int, size_t);
char* strchr(const char*, int);
char* strrchr(const char*, int);
char* strpbrk(const char*, const char*);
char* strstr(const char*, const char*);
#endif
