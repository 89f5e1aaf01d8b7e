#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
typedef unsigned int wint_t;
typedef struct { int __count; union { unsigned int __wch; char __wchb[4]; } __value; } mbstate_t;
#define WEOF (0xffffffffu)
_CL_BEGIN_C
size_t wcslen(const wchar_t*);
int wcscmp(const wchar_t*, const wchar_t*);
wchar_t* wcscpy(wchar_t* __restrict, const wchar_t* __restrict);
int swprintf(wchar_t* __restrict, size_t, const wchar_t* __restrict, ...);
int wprintf(const wchar_t* __restrict, ...);
size_t mbstowcs(wchar_t* __restrict, const char* __restrict, size_t);
size_t wcstombs(char* __restrict, const wchar_t* __restrict, size_t);
_CL_END_C
