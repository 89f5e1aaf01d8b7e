#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#define GLOB_ERR 1
#define GLOB_MARK 2
#define GLOB_NOSORT 4
#define GLOB_NOCHECK 16
#define GLOB_NOESCAPE 64
#define GLOB_APPEND 32
#define GLOB_NOSPACE 1
#define GLOB_ABORTED 2
#define GLOB_NOMATCH 3
_CL_BEGIN_C
typedef struct {
  size_t gl_pathc;
  char** gl_pathv;
  size_t gl_offs;
  int gl_flags;
  void* __unused[5];
} glob_t;
int glob(const char*, int, int (*)(const char*, int), glob_t*);
void globfree(glob_t*);
_CL_END_C
