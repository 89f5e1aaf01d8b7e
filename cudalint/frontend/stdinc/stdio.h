#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#include <stdarg.h>
typedef struct _IO_FILE FILE;
typedef struct { long __pos; char __state[8]; } fpos_t;
#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define L_tmpnam 20
#define TMP_MAX 238328
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
_CL_BEGIN_C
extern FILE* stdin;
extern FILE* stdout;
extern FILE* stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr
_CL_HD int printf(const char* __restrict, ...);
_CL_HD int vprintf(const char* __restrict, va_list);
int fprintf(FILE* __restrict, const char* __restrict, ...);
int sprintf(char* __restrict, const char* __restrict, ...);
int snprintf(char* __restrict, size_t, const char* __restrict, ...);
int vfprintf(FILE* __restrict, const char* __restrict, va_list);
int vsprintf(char* __restrict, const char* __restrict, va_list);
int vsnprintf(char* __restrict, size_t, const char* __restrict, va_list);
int asprintf(char**, const char* __restrict, ...);
int dprintf(int, const char* __restrict, ...);
int scanf(const char* __restrict, ...);
int fscanf(FILE* __restrict, const char* __restrict, ...);
int sscanf(const char* __restrict, const char* __restrict, ...);
int vscanf(const char* __restrict, va_list);
int vfscanf(FILE* __restrict, const char* __restrict, va_list);
int vsscanf(const char* __restrict, const char* __restrict, va_list);
FILE* fopen(const char* __restrict, const char* __restrict);
FILE* freopen(const char* __restrict, const char* __restrict, FILE* __restrict);
FILE* fdopen(int, const char*);
FILE* popen(const char*, const char*);
int pclose(FILE*);
int fclose(FILE*);
int fflush(FILE*);
size_t fread(void* __restrict, size_t, size_t, FILE* __restrict);
size_t fwrite(const void* __restrict, size_t, size_t, FILE* __restrict);
int fgetc(FILE*);
int getc(FILE*);
int getchar(void);
int ungetc(int, FILE*);
char* fgets(char* __restrict, int, FILE* __restrict);
char* gets(char*);
int fputc(int, FILE*);
int putc(int, FILE*);
int putchar(int);
int fputs(const char* __restrict, FILE* __restrict);
int puts(const char*);
ssize_t getline(char** __restrict, size_t* __restrict, FILE* __restrict);
ssize_t getdelim(char** __restrict, size_t* __restrict, int, FILE* __restrict);
int fseek(FILE*, long, int);
int fseeko(FILE*, off_t, int);
long ftell(FILE*);
off_t ftello(FILE*);
void rewind(FILE*);
int fgetpos(FILE* __restrict, fpos_t* __restrict);
int fsetpos(FILE*, const fpos_t*);
void clearerr(FILE*);
int feof(FILE*);
int ferror(FILE*);
int fileno(FILE*);
void perror(const char*);
int remove(const char*);
int rename(const char*, const char*);
FILE* tmpfile(void);
char* tmpnam(char*);
void setbuf(FILE* __restrict, char* __restrict);
int setvbuf(FILE* __restrict, char* __restrict, int, size_t);
_CL_END_C
