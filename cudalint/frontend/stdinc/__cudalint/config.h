/* cudalint's hermetic standard library: internal configuration.
   These headers stand in for the host compiler's C and C++ standard libraries that nvcc
   parses a .cu file with. Host code needs the names to parse; device code needs exact
   sizes and alignments (they decide bank conflicts), which these headers take from the
   target through clang's predefined macros. */
#pragma once
#pragma clang system_header
/* Functions CUDA provides on both sides (math, printf, malloc, memcpy, ...). */
#define _CL_HD __attribute__((host, device))
#define _CL_H __attribute__((host))
#ifdef __cplusplus
#define _CL_BEGIN_C extern "C" {
#define _CL_END_C }
#define _CL_NOTHROW noexcept(true)
#else
#define _CL_BEGIN_C
#define _CL_END_C
#define _CL_NOTHROW
#endif
#ifndef __CL_SIZE_T_DEFINED
#define __CL_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#ifndef NULL
#ifdef __cplusplus
#define NULL __null
#else
#define NULL ((void*)0)
#endif
#endif
/* glibc's feature macros, as g++ (which nvcc runs as host compiler) predefines _GNU_SOURCE. */
#ifndef __GLIBC__
#define __GLIBC__ 2
#define __GLIBC_MINOR__ 36
#endif
#ifndef __THROW
#define __THROW
#endif
