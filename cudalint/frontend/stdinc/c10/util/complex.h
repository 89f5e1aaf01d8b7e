/* A stand-in for PyTorch's c10/util/complex.h: c10::complex<T>, two T's aligned to their
   sum (8 bytes for float, 16 for double), with its arithmetic, host and device. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
namespace c10 {
template <typename T> struct alignas(sizeof(T) * 2) complex {
  using value_type = T;
  T real_ = T(0);
  T imag_ = T(0);
  constexpr complex() = default;
  __host__ __device__ constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  template <typename U>
  __host__ __device__ explicit constexpr complex(const complex<U>& o)
      : real_(static_cast<T>(o.real())), imag_(static_cast<T>(o.imag())) {}
  __host__ __device__ constexpr T real() const { return real_; }
  __host__ __device__ constexpr T imag() const { return imag_; }
  __host__ __device__ constexpr void real(T v) { real_ = v; }
  __host__ __device__ constexpr void imag(T v) { imag_ = v; }
  __host__ __device__ constexpr complex& operator+=(const complex& o) { real_ += o.real_; imag_ += o.imag_; return *this; }
  __host__ __device__ constexpr complex& operator-=(const complex& o) { real_ -= o.real_; imag_ -= o.imag_; return *this; }
  __host__ __device__ constexpr complex& operator*=(const complex& o) {
    T r = real_ * o.real_ - imag_ * o.imag_; imag_ = real_ * o.imag_ + imag_ * o.real_; real_ = r; return *this; }
  __host__ __device__ constexpr complex& operator*=(const T& s) { real_ *= s; imag_ *= s; return *this; }
  __host__ __device__ constexpr complex& operator/=(const T& s) { real_ /= s; imag_ /= s; return *this; }
  __host__ __device__ complex& operator/=(const complex& o) {
    T d = o.real_ * o.real_ + o.imag_ * o.imag_;
    T r = (real_ * o.real_ + imag_ * o.imag_) / d; imag_ = (imag_ * o.real_ - real_ * o.imag_) / d;
    real_ = r; return *this; }
};
template <typename T> __host__ __device__ constexpr complex<T> operator+(const complex<T>& a) { return a; }
template <typename T> __host__ __device__ constexpr complex<T> operator-(const complex<T>& a) { return complex<T>(-a.real(), -a.imag()); }
#define _CL_CX_OP(op)                                                                              \
  template <typename T> __host__ __device__ constexpr complex<T> operator op(complex<T> a, const complex<T>& b) { return a op##= b; } \
  template <typename T> __host__ __device__ constexpr complex<T> operator op(complex<T> a, const T& b) { return a op##= complex<T>(b); } \
  template <typename T> __host__ __device__ constexpr complex<T> operator op(const T& a, const complex<T>& b) { return complex<T>(a) op##= b; }
_CL_CX_OP(+) _CL_CX_OP(-) _CL_CX_OP(*)
#undef _CL_CX_OP
template <typename T> __host__ __device__ complex<T> operator/(complex<T> a, const complex<T>& b) { return a /= b; }
template <typename T> __host__ __device__ complex<T> operator/(complex<T> a, const T& b) { return a /= b; }
template <typename T> __host__ __device__ constexpr bool operator==(const complex<T>& a, const complex<T>& b) { return a.real() == b.real() && a.imag() == b.imag(); }
template <typename T> __host__ __device__ constexpr bool operator!=(const complex<T>& a, const complex<T>& b) { return !(a == b); }
template <typename T> struct scalar_value_type { using type = T; };
template <typename T> struct scalar_value_type<complex<T>> { using type = T; };
}  // namespace c10
/* PyTorch overloads the std functions for c10::complex (c10/util/complex_math.h,
   complex_utils.h) */
namespace std {
template <typename T> __host__ __device__ constexpr c10::complex<T> conj(const c10::complex<T>& z) { return c10::complex<T>(z.real(), -z.imag()); }
template <typename T> __host__ __device__ constexpr T real(const c10::complex<T>& z) { return z.real(); }
template <typename T> __host__ __device__ constexpr T imag(const c10::complex<T>& z) { return z.imag(); }
template <typename T> __host__ __device__ T abs(const c10::complex<T>& z);
template <typename T> __host__ __device__ T arg(const c10::complex<T>& z);
template <typename T> __host__ __device__ constexpr T norm(const c10::complex<T>& z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <typename T> __host__ __device__ c10::complex<T> exp(const c10::complex<T>& z);
template <typename T> __host__ __device__ c10::complex<T> log(const c10::complex<T>& z);
template <typename T> __host__ __device__ c10::complex<T> sqrt(const c10::complex<T>& z);
template <typename T> __host__ __device__ c10::complex<T> polar(const T& r, const T& theta);
}  // namespace std
