#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
struct stat {
  dev_t st_dev; ino_t st_ino; nlink_t st_nlink; mode_t st_mode; uid_t st_uid; gid_t st_gid;
  int __pad0; dev_t st_rdev; off_t st_size; blksize_t st_blksize; blkcnt_t st_blocks;
  struct timespec st_atim, st_mtim, st_ctim; long __unused[3];
};
#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_IRWXU 0700
#define S_IRUSR 0400
#define S_IWUSR 0200
#define S_IXUSR 0100
_CL_BEGIN_C
int stat(const char* __restrict, struct stat* __restrict);
int fstat(int, struct stat*);
int lstat(const char* __restrict, struct stat* __restrict);
int mkdir(const char*, mode_t);
int chmod(const char*, mode_t);
mode_t umask(mode_t);
_CL_END_C
