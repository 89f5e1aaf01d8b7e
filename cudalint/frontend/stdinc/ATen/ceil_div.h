/* A stand-in for PyTorch's ATen/ceil_div.h. */
#pragma once
#pragma clang system_header
#include <type_traits>
namespace at {
template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
__host__ __device__ constexpr T ceil_div(T a, T b) { return (a + b - 1) / b; }
}  // namespace at
