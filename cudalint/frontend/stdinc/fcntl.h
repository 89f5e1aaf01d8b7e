#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 0100
#define O_TRUNC 01000
#define O_APPEND 02000
_CL_BEGIN_C
int open(const char*, int, ...);
int creat(const char*, mode_t);
int fcntl(int, int, ...);
_CL_END_C
