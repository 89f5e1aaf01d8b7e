/* <math.h> as glibc + libstdc++ give it to nvcc's host compiler, with CUDA's rule that the
   standard math functions exist on both sides (__host__ __device__). In C++ the float and
   long double overloads, the integer overloads (promoted to double) and the
   classification functions are global, as libstdc++'s <math.h> makes them. */
#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/cxx_support.h>
#include <__cudalint/abs.h>

#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define M_El 2.718281828459045235360287471352662498L
#define M_PIl 3.141592653589793238462643383279502884L
#define M_PI_2l 1.570796326794896619231321691639751442L
#define M_PI_4l 0.785398163397448309615660845819875721L
#define M_1_PIl 0.318309886183790671537767526745028724L
#define M_2_PIl 0.636619772367581343075535053490057448L
#define M_SQRT2l 1.414213562373095048801688724209698079L
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VALL (__builtin_huge_vall())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling (MATH_ERRNO | MATH_ERREXCEPT)
typedef float float_t;
typedef double double_t;

#ifdef __cplusplus
#define _CL_MATH_CXX(...) extern "C++" { __VA_ARGS__ }
#else
#define _CL_MATH_CXX(...)
#endif

/* name(x) for double, float (namef) and long double (namel, host only: the GPU has none). */
#define _CL_M1R(n, R)                                                                     \
  _CL_BEGIN_C _CL_HD R n(double); _CL_HD R n##f(float); R n##l(long double); _CL_END_C      \
  _CL_MATH_CXX(                                                                           \
    _CL_HD inline R n(float x) { return n##f(x); }                                        \
    inline R n(long double x) { return n##l(x); }                                         \
    template <class T> _CL_HD inline typename __cl_enable_if<__is_integral(T), R>::type   \
    n(T x) { return n((double)x); })
#define _CL_M1(n)                                                                         \
  _CL_BEGIN_C _CL_HD double n(double); _CL_HD float n##f(float);                          \
  long double n##l(long double); _CL_END_C                                                \
  _CL_MATH_CXX(                                                                           \
    _CL_HD inline float n(float x) { return n##f(x); }                                    \
    inline long double n(long double x) { return n##l(x); }                               \
    template <class T> _CL_HD inline typename __cl_enable_if<__is_integral(T), double>::type \
    n(T x) { return n((double)x); })
#define _CL_M2(n)                                                                         \
  _CL_BEGIN_C _CL_HD double n(double, double); _CL_HD float n##f(float, float);           \
  long double n##l(long double, long double); _CL_END_C                                   \
  _CL_MATH_CXX(                                                                           \
    _CL_HD inline float n(float x, float y) { return n##f(x, y); }                        \
    inline long double n(long double x, long double y) { return n##l(x, y); }             \
    template <class T, class U> _CL_HD inline typename __cl_promote2<T, U>::type         \
    n(T x, U y) {                                                                         \
      typedef typename __cl_promote2<T, U>::type P; return n((P)x, (P)y); })
/* name(x, extra) -> same floating type, e.g. ldexp(x, int). */
#define _CL_MX(n, A)                                                                      \
  _CL_BEGIN_C _CL_HD double n(double, A); _CL_HD float n##f(float, A);                    \
  long double n##l(long double, A); _CL_END_C                                             \
  _CL_MATH_CXX(                                                                           \
    _CL_HD inline float n(float x, A a) { return n##f(x, a); }                            \
    inline long double n(long double x, A a) { return n##l(x, a); }                       \
    template <class T> _CL_HD inline typename __cl_enable_if<__is_integral(T), double>::type \
    n(T x, A a) { return n((double)x, a); })
/* name(x, T*) with a pointer to the same floating type (modf). */
#define _CL_MP(n)                                                                         \
  _CL_BEGIN_C _CL_HD double n(double, double*); _CL_HD float n##f(float, float*);         \
  long double n##l(long double, long double*); _CL_END_C                                  \
  _CL_MATH_CXX(                                                                           \
    _CL_HD inline float n(float x, float* p) { return n##f(x, p); }                       \
    inline long double n(long double x, long double* p) { return n##l(x, p); })

_CL_M1(acos) _CL_M1(asin) _CL_M1(atan) _CL_M1(cos) _CL_M1(sin) _CL_M1(tan)
_CL_M1(acosh) _CL_M1(asinh) _CL_M1(atanh) _CL_M1(cosh) _CL_M1(sinh) _CL_M1(tanh)
_CL_M1(exp) _CL_M1(exp2) _CL_M1(expm1) _CL_M1(exp10) _CL_M1(log) _CL_M1(log10)
_CL_M1(log1p) _CL_M1(log2) _CL_M1(logb) _CL_M1(cbrt) _CL_M1(sqrt) _CL_M1(ceil)
_CL_M1(floor) _CL_M1(trunc) _CL_M1(round) _CL_M1(rint) _CL_M1(nearbyint) _CL_M1(fabs)
_CL_M1(erf) _CL_M1(erfc) _CL_M1(lgamma) _CL_M1(tgamma) _CL_M1(j0) _CL_M1(j1)
_CL_M1(y0) _CL_M1(y1) _CL_M1(significand)
_CL_M1R(ilogb, int) _CL_M1R(lrint, long) _CL_M1R(lround, long)
_CL_M1R(llrint, long long) _CL_M1R(llround, long long)
_CL_M2(atan2) _CL_M2(pow) _CL_M2(fmod) _CL_M2(remainder) _CL_M2(copysign) _CL_M2(fmax)
_CL_M2(fmin) _CL_M2(fdim) _CL_M2(hypot) _CL_M2(nextafter)
_CL_MX(ldexp, int) _CL_MX(scalbn, int) _CL_MX(scalbln, long) _CL_MX(frexp, int*)
_CL_MP(modf)

_CL_BEGIN_C
_CL_HD double fma(double, double, double);
_CL_HD float fmaf(float, float, float);
long double fmal(long double, long double, long double);
_CL_HD double remquo(double, double, int*);
_CL_HD float remquof(float, float, int*);
long double remquol(long double, long double, int*);
_CL_HD double nan(const char*);
_CL_HD float nanf(const char*);
long double nanl(const char*);
_CL_HD void sincos(double, double*, double*);
_CL_HD void sincosf(float, float*, float*);
void sincosl(long double, long double*, long double*);
_CL_HD double jn(int, double);
_CL_HD float jnf(int, float);
_CL_HD double yn(int, double);
_CL_HD float ynf(int, float);
_CL_END_C

#ifdef __cplusplus
extern "C++" {
_CL_HD inline float fma(float x, float y, float z) { return fmaf(x, y, z); }
inline long double fma(long double x, long double y, long double z) { return fmal(x, y, z); }
template <class T, class U, class V>
_CL_HD inline typename __cl_promote3<T, U, V>::type fma(T x, U y, V z) {
  typedef typename __cl_promote3<T, U, V>::type P;
  return fma((P)x, (P)y, (P)z);
}
_CL_HD inline float remquo(float x, float y, int* q) { return remquof(x, y, q); }

#define _CL_CLASSIFY(n, builtin)                                                          \
  _CL_HD constexpr inline bool n(float x) { return builtin(x); }                          \
  _CL_HD constexpr inline bool n(double x) { return builtin(x); }                         \
  constexpr inline bool n(long double x) { return builtin(x); }                           \
  template <class T> _CL_HD constexpr inline                                              \
  typename __cl_enable_if<__is_integral(T), bool>::type n(T x) { return builtin((double)x); }
_CL_CLASSIFY(isnan, __builtin_isnan)
_CL_CLASSIFY(isinf, __builtin_isinf)
_CL_CLASSIFY(isfinite, __builtin_isfinite)
_CL_CLASSIFY(isnormal, __builtin_isnormal)
_CL_CLASSIFY(signbit, __builtin_signbit)
#undef _CL_CLASSIFY
#define _CL_FPCLASSIFY(x) \
  __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
_CL_HD constexpr inline int fpclassify(float x) { return _CL_FPCLASSIFY(x); }
_CL_HD constexpr inline int fpclassify(double x) { return _CL_FPCLASSIFY(x); }
constexpr inline int fpclassify(long double x) { return _CL_FPCLASSIFY(x); }
template <class T> _CL_HD constexpr inline
typename __cl_enable_if<__is_integral(T), int>::type fpclassify(T x) {
  return _CL_FPCLASSIFY((double)x);
}
#undef _CL_FPCLASSIFY
#define _CL_COMPARE(n, builtin)                                                           \
  template <class T, class U> _CL_HD constexpr inline                                     \
  typename __cl_enable_if<__is_arithmetic(T) && __is_arithmetic(U), bool>::type           \
  n(T x, U y) { return builtin(x, y); }
_CL_COMPARE(isgreater, __builtin_isgreater)
_CL_COMPARE(isgreaterequal, __builtin_isgreaterequal)
_CL_COMPARE(isless, __builtin_isless)
_CL_COMPARE(islessequal, __builtin_islessequal)
_CL_COMPARE(islessgreater, __builtin_islessgreater)
_CL_COMPARE(isunordered, __builtin_isunordered)
#undef _CL_COMPARE
}
#else
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf_sign(x)
#define isfinite(x) __builtin_isfinite(x)
#define isnormal(x) __builtin_isnormal(x)
#define signbit(x) __builtin_signbit(x)
#define fpclassify(x) \
  __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
#endif
#undef _CL_M1
#undef _CL_M1R
#undef _CL_M2
#undef _CL_MX
#undef _CL_MP
#undef _CL_MATH_CXX
