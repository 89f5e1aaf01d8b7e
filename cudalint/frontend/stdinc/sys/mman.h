#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define MAP_SHARED 1
#define MAP_PRIVATE 2
#define MAP_ANONYMOUS 0x20
#define MAP_ANON MAP_ANONYMOUS
#define MAP_FIXED 0x10
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MS_SYNC 4
#define MAP_FAILED ((void*)-1)
_CL_BEGIN_C
void* mmap(void*, size_t, int, int, int, off_t);
int munmap(void*, size_t);
int mlock(const void*, size_t);
_CL_END_C
