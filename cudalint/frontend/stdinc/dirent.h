#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
typedef struct __dirstream DIR;
struct dirent { ino_t d_ino; off_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[256]; };
#define DT_DIR 4
#define DT_REG 8
_CL_BEGIN_C
DIR* opendir(const char*);
struct dirent* readdir(DIR*);
int closedir(DIR*);
_CL_END_C
