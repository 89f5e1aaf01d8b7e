/* abs() overloads: <stdlib.h> and <math.h> both bring them in C++ (libstdc++'s
   bits/std_abs.h). CUDA provides them on both sides. */
#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
_CL_BEGIN_C
_CL_HD int abs(int);
_CL_HD long labs(long);
_CL_HD long long llabs(long long);
_CL_END_C
#ifdef __cplusplus
extern "C++" {
_CL_HD inline long abs(long x) { return x < 0 ? -x : x; }
_CL_HD inline long long abs(long long x) { return x < 0 ? -x : x; }
_CL_HD inline float abs(float x) { return __builtin_fabsf(x); }
_CL_HD inline double abs(double x) { return __builtin_fabs(x); }
inline long double abs(long double x) { return __builtin_fabsl(x); }
}
#endif
