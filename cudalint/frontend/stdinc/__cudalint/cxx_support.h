/* Small helpers the C headers' C++ overloads need (no <type_traits> dependency). */
#pragma once
#pragma clang system_header
#ifdef __cplusplus
extern "C++" {
template <bool B, class T = void> struct __cl_enable_if {};
template <class T> struct __cl_enable_if<true, T> { typedef T type; };
template <class T, bool = __is_integral(T)> struct __cl_promote1 { typedef T type; };
template <class T> struct __cl_promote1<T, true> { typedef double type; };
template <class T, class U, bool = __is_arithmetic(T) && __is_arithmetic(U)>
struct __cl_promote2 {};
template <class T, class U> struct __cl_promote2<T, U, true> {
  typedef decltype(typename __cl_promote1<T>::type() + typename __cl_promote1<U>::type()) type;
};
template <class T, class U, class V,
          bool = __is_arithmetic(T) && __is_arithmetic(U) && __is_arithmetic(V)>
struct __cl_promote3 {};
template <class T, class U, class V> struct __cl_promote3<T, U, V, true> {
  typedef decltype(typename __cl_promote1<T>::type() + typename __cl_promote1<U>::type() +
                   typename __cl_promote1<V>::type()) type;
};
}
#endif
