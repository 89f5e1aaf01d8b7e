/* A stand-in for PyTorch's ATen/AccumulateType.h: at::acc_type<T, is_cuda>, the type a
   reduction over T accumulates in (float for the half types, int64_t for integers). */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
namespace at {
template <class T, bool is_cuda> struct AccumulateType { using type = T; };
template <bool c> struct AccumulateType<c10::Half, c> { using type = float; };
template <bool c> struct AccumulateType<c10::BFloat16, c> { using type = float; };
template <bool c> struct AccumulateType<__half, c> { using type = float; };
template <bool c> struct AccumulateType<__nv_bfloat16, c> { using type = float; };
template <bool c> struct AccumulateType<float, c> { using type = float; };
template <> struct AccumulateType<float, false> { using type = double; };
template <bool c> struct AccumulateType<double, c> { using type = double; };
template <bool c> struct AccumulateType<int8_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<uint8_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<int16_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<int32_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<int64_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<bool, c> { using type = bool; };
template <class T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;
}  // namespace at
