/* A stand-in for PyTorch's C++ extension API: the names host code of CUDA extension
   kernels uses (torch::Tensor, TORCH_CHECK, AT_DISPATCH_*, PYBIND11_MODULE), so that the
   file parses. Kernels instantiated through AT_DISPATCH_* are seen with scalar_t = float. */
#pragma once
#pragma clang system_header
#include <cstdint>
#include <vector>
#include <string>
#include <initializer_list>
#include <utility>
#include <tuple>
#include <optional>
#include <ostream>
#include <limits>
#include <stdexcept>
/* torch's headers bring most of the standard library with them */
#include <functional>
#include <memory>
#include <map>
#include <unordered_map>
#include <algorithm>
#include <cmath>
#include <cfloat>
#include <climits>
#include <type_traits>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace c10 {
/* host and device, and to and from CUDA's own types, as c10's are under nvcc */
struct Half { unsigned short x; Half() = default; __host__ __device__ Half(float);
  __host__ __device__ Half(const __half&); __host__ __device__ operator float() const;
  __host__ __device__ operator __half() const; };
struct BFloat16 { unsigned short x; BFloat16() = default; __host__ __device__ BFloat16(float);
  __host__ __device__ BFloat16(const __nv_bfloat16&); __host__ __device__ operator float() const;
  __host__ __device__ operator __nv_bfloat16() const; };
/* c10's arithmetic on them (Half-inl.h): Half op Half is Half, with float or double the
   wider type, with an integer Half */
/* with a number on one side c10 compares through float (nvcc sees no __half operators in a
   PyTorch build); here the comparisons above would make `h >= 0` ambiguous, so take any
   arithmetic type exactly */
#define _CL_C10_CMP(H, OP)                                                                \
  template <class _N, class = typename std::enable_if<std::is_arithmetic<_N>::value>::type> \
  __host__ __device__ bool operator OP(const H& a, _N b) { return float(a) OP b; }         \
  template <class _N, class = typename std::enable_if<std::is_arithmetic<_N>::value>::type> \
  __host__ __device__ bool operator OP(_N a, const H& b) { return a OP float(b); }
#define _CL_C10_OPS(H)                                                                    \
  __host__ __device__ H operator+(const H&, const H&); __host__ __device__ H operator-(const H&, const H&); \
  __host__ __device__ H operator*(const H&, const H&); __host__ __device__ H operator/(const H&, const H&); \
  __host__ __device__ H operator-(const H&);                                               \
  __host__ __device__ H& operator+=(H&, const H&); __host__ __device__ H& operator-=(H&, const H&); \
  __host__ __device__ H& operator*=(H&, const H&); __host__ __device__ H& operator/=(H&, const H&); \
  __host__ __device__ float operator+(H, float); __host__ __device__ float operator-(H, float); \
  __host__ __device__ float operator*(H, float); __host__ __device__ float operator/(H, float); \
  __host__ __device__ float operator+(float, H); __host__ __device__ float operator-(float, H); \
  __host__ __device__ float operator*(float, H); __host__ __device__ float operator/(float, H); \
  __host__ __device__ float& operator+=(float&, const H&); __host__ __device__ float& operator-=(float&, const H&); \
  __host__ __device__ float& operator*=(float&, const H&); __host__ __device__ float& operator/=(float&, const H&); \
  __host__ __device__ double operator+(H, double); __host__ __device__ double operator-(H, double); \
  __host__ __device__ double operator*(H, double); __host__ __device__ double operator/(H, double); \
  __host__ __device__ double operator+(double, H); __host__ __device__ double operator-(double, H); \
  __host__ __device__ double operator*(double, H); __host__ __device__ double operator/(double, H); \
  __host__ __device__ H operator+(H, int); __host__ __device__ H operator-(H, int);       \
  __host__ __device__ H operator*(H, int); __host__ __device__ H operator/(H, int);       \
  __host__ __device__ H operator+(int, H); __host__ __device__ H operator-(int, H);       \
  __host__ __device__ H operator*(int, H); __host__ __device__ H operator/(int, H);       \
  __host__ __device__ H operator+(H, int64_t); __host__ __device__ H operator-(H, int64_t); \
  __host__ __device__ H operator*(H, int64_t); __host__ __device__ H operator/(H, int64_t); \
  __host__ __device__ bool operator==(const H&, const H&); __host__ __device__ bool operator!=(const H&, const H&); \
  __host__ __device__ bool operator<(const H&, const H&); __host__ __device__ bool operator>(const H&, const H&); \
  __host__ __device__ bool operator<=(const H&, const H&); __host__ __device__ bool operator>=(const H&, const H&); \
  _CL_C10_CMP(H, ==) _CL_C10_CMP(H, !=) _CL_C10_CMP(H, <) _CL_C10_CMP(H, >) _CL_C10_CMP(H, <=) _CL_C10_CMP(H, >=)
_CL_C10_OPS(Half) _CL_C10_OPS(BFloat16)
#undef _CL_C10_OPS
#undef _CL_C10_CMP
enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat,
  ComplexDouble, Bool, QInt8, QUInt8, QInt32, BFloat16, Float8_e5m2 = 23, Float8_e4m3fn = 24 };
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
size_t elementSize(ScalarType);
struct Device { Device(DeviceType, int = -1); Device(const std::string&); bool is_cuda() const; int index() const;
  DeviceType type() const; bool is_cpu() const; bool has_index() const; std::string str() const;
  bool operator==(const Device&) const; bool operator!=(const Device&) const; };
struct IntArrayRef { IntArrayRef(); IntArrayRef(std::initializer_list<int64_t>); IntArrayRef(const std::vector<int64_t>&);
  int64_t operator[](size_t) const; size_t size() const; const int64_t* begin() const; const int64_t* end() const;
  std::vector<int64_t> vec() const; };
bool operator==(IntArrayRef, IntArrayRef); bool operator!=(IntArrayRef, IntArrayRef);
std::string DeviceTypeName(DeviceType, bool lower_case = false);
struct TensorOptions { TensorOptions(); TensorOptions(ScalarType); TensorOptions(Device);
  ScalarType dtype() const; Device device() const;
  TensorOptions dtype(ScalarType) const; TensorOptions device(Device) const; TensorOptions device(DeviceType, int = -1) const;
  TensorOptions requires_grad(bool = true) const; TensorOptions layout(int) const; };
std::ostream& operator<<(std::ostream&, const TensorOptions&);
/* at::dtype(kInt32).device(...), torch::device(kCUDA): the options' free-standing starts */
TensorOptions dtype(ScalarType); TensorOptions device(Device); TensorOptions device(DeviceType, int = -1);
TensorOptions requires_grad(bool = true);
/* the pointer traits of packed accessors */
template <typename T> struct DefaultPtrTraits { typedef T* PtrType; };
template <typename T> struct RestrictPtrTraits { typedef T* __restrict__ PtrType; };
std::ostream& operator<<(std::ostream&, ScalarType);
struct Scalar { template <class T> Scalar(T); template <class T> T to() const; };
template <class T> using optional = std::optional<T>;
namespace impl {
template <ScalarType> struct __cpp_type { typedef float type; };
template <> struct __cpp_type<ScalarType::Byte> { typedef uint8_t type; };
template <> struct __cpp_type<ScalarType::Char> { typedef int8_t type; };
template <> struct __cpp_type<ScalarType::Short> { typedef int16_t type; };
template <> struct __cpp_type<ScalarType::Int> { typedef int type; };
template <> struct __cpp_type<ScalarType::Long> { typedef int64_t type; };
template <> struct __cpp_type<ScalarType::Half> { typedef Half type; };
template <> struct __cpp_type<ScalarType::Double> { typedef double type; };
template <> struct __cpp_type<ScalarType::Bool> { typedef bool type; };
template <> struct __cpp_type<ScalarType::BFloat16> { typedef BFloat16 type; };
template <ScalarType S> using ScalarTypeToCPPTypeT = typename __cpp_type<S>::type;
}  // namespace impl
namespace cuda { struct CUDAStream { operator cudaStream_t() const; cudaStream_t stream() const; };
  CUDAStream getCurrentCUDAStream(int = -1); CUDAStream getStreamFromPool(bool = false, int = -1);
  CUDAStream getDefaultCUDAStream(int = -1); void setCurrentCUDAStream(CUDAStream); struct CUDAGuard { explicit CUDAGuard(int); explicit CUDAGuard(Device); };
  struct OptionalCUDAGuard { explicit OptionalCUDAGuard(Device); explicit OptionalCUDAGuard(std::optional<Device>); }; }
}  // namespace c10
namespace at {
using c10::Half; using c10::BFloat16; using c10::ScalarType; using c10::Device; using c10::DeviceType;
using c10::IntArrayRef; using c10::TensorOptions; using c10::Scalar; using c10::MemoryFormat;
using IntList = c10::IntArrayRef;  /* its name before PyTorch 1.0 */
using c10::elementSize; using c10::optional; using c10::dtype; using c10::device; using c10::requires_grad;
using c10::DefaultPtrTraits; using c10::RestrictPtrTraits; using c10::DeviceTypeName;
namespace indexing { struct Slice { Slice(); template <class A> Slice(A); template <class A, class B> Slice(A, B); };
  struct EllipsisIndexType {}; extern const EllipsisIndexType Ellipsis; extern const int None;
  struct TensorIndex { template <class A> TensorIndex(A&&); }; }
constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float, kHalf = ScalarType::Half,
  kFloat16 = ScalarType::Half, kBFloat16 = ScalarType::BFloat16, kDouble = ScalarType::Double,
  kInt = ScalarType::Int, kInt32 = ScalarType::Int, kLong = ScalarType::Long, kInt64 = ScalarType::Long,
  kBool = ScalarType::Bool, kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte, kChar = ScalarType::Char,
  kInt8 = ScalarType::Char, kShort = ScalarType::Short, kFloat8_e5m2 = ScalarType::Float8_e5m2,
  kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;
constexpr DeviceType kCUDA = DeviceType::CUDA, kCPU = DeviceType::CPU;
/* TensorAccessor.h: element access through accessors (host and device, global memory) */
template <typename T, size_t N, template <typename> class P = DefaultPtrTraits, typename I = int64_t>
class TensorAccessor { public:
  __host__ __device__ TensorAccessor<T, N - 1, P, I> operator[](I) const;
  __host__ __device__ I size(I) const; __host__ __device__ I stride(I) const; __host__ __device__ T* data() const; };
template <typename T, template <typename> class P, typename I>
class TensorAccessor<T, 1, P, I> { public:
  __host__ __device__ T& operator[](I) const;
  __host__ __device__ I size(I) const; __host__ __device__ I stride(I) const; __host__ __device__ T* data() const; };
template <typename T, size_t N, template <typename> class P = DefaultPtrTraits, typename I = int64_t>
class GenericPackedTensorAccessor { public:
  __host__ __device__ TensorAccessor<T, N - 1, P, I> operator[](I) const;
  __host__ __device__ I size(I) const; __host__ __device__ I stride(I) const; __host__ __device__ T* data() const; };
template <typename T, template <typename> class P, typename I>
class GenericPackedTensorAccessor<T, 1, P, I> { public:
  __host__ __device__ T& operator[](I) const;
  __host__ __device__ I size(I) const; __host__ __device__ I stride(I) const; __host__ __device__ T* data() const; };
template <typename T, size_t N, template <typename> class P = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, P, int32_t>;
template <typename T, size_t N, template <typename> class P = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, P, int64_t>;
class Tensor {
  void* __impl;
 public:
  Tensor();
  template <class T> T* data_ptr() const;
  template <class T> T* data() const;
  Tensor data() const;
  void* data_ptr() const;
  template <class T> const T* const_data_ptr() const;
  template <class T> T* mutable_data_ptr() const;
  template <class T, size_t N> TensorAccessor<T, N> accessor() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, P> packed_accessor32() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, P> packed_accessor64() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits, class I = int64_t>
  GenericPackedTensorAccessor<T, N, P, I> generic_packed_accessor() const;
  int64_t size(int64_t) const; IntArrayRef sizes() const; int64_t stride(int64_t) const; IntArrayRef strides() const;
  int64_t numel() const; int64_t dim() const; int64_t ndimension() const; int64_t element_size() const;
  int64_t nbytes() const; bool defined() const; bool is_cuda() const; bool is_cpu() const; bool is_contiguous() const;
  bool is_contiguous(MemoryFormat) const; Tensor contiguous(MemoryFormat) const;
  ScalarType scalar_type() const; ScalarType dtype() const; Device device() const; TensorOptions options() const;
  int get_device() const; bool requires_grad() const;
  /* the deprecated type() (DeprecatedTypeProperties): older extensions read scalarType() */
  struct __type_properties { ScalarType scalarType() const; bool is_cuda() const; };
  __type_properties type() const;
  Tensor contiguous() const; Tensor clone() const; Tensor detach() const; Tensor cpu() const; Tensor cuda() const;
  Tensor t() const; Tensor flatten(int64_t = 0, int64_t = -1) const; Tensor sum() const; Tensor mean() const;
  Tensor sum(int64_t, bool = false) const; Tensor mean(int64_t, bool = false) const;
  template <class... A> Tensor to(A&&...) const; template <class... A> Tensor view(A&&...) const;
  /* a braced size deduces no template: `t.view({b, n})`, `t.reshape({-1, c})` */
  Tensor view(IntArrayRef) const; Tensor reshape(IntArrayRef) const; Tensor expand(IntArrayRef) const;
  Tensor permute(IntArrayRef) const; Tensor repeat(IntArrayRef) const;
  Tensor new_zeros(IntArrayRef, TensorOptions = {}) const; Tensor new_ones(IntArrayRef, TensorOptions = {}) const;
  Tensor new_empty(IntArrayRef, TensorOptions = {}) const;
  Tensor new_full(IntArrayRef, Scalar, TensorOptions = {}) const;
  const Tensor& resize_(IntArrayRef, std::optional<MemoryFormat> = {}) const;
  Tensor nonzero() const; bool is_non_overlapping_and_dense() const; template <class V> Tensor masked_fill(const Tensor&, V) const;
  template <class V> Tensor& masked_fill_(const Tensor&, V); template <class V> Tensor& index_put_(std::initializer_list<Tensor>, V);
  Tensor index(std::initializer_list<Tensor>) const; Tensor index(std::initializer_list<indexing::TensorIndex>) const;
  MemoryFormat suggest_memory_format(bool = false) const;
  Tensor to(TensorOptions, bool = false, bool = false) const; /* `t.to({torch::kCPU})` */
  template <class... A> Tensor reshape(A&&...) const; template <class... A> Tensor transpose(A&&...) const;
  template <class... A> Tensor permute(A&&...) const; template <class... A> Tensor select(A&&...) const;
  template <class... A> Tensor slice(A&&...) const; template <class... A> Tensor narrow(A&&...) const;
  template <class... A> Tensor index(A&&...) const; template <class... A> Tensor expand(A&&...) const;
  template <class... A> Tensor squeeze(A&&...) const; template <class... A> Tensor unsqueeze(A&&...) const;
  template <class... A> Tensor& zero_(A&&...); template <class... A> Tensor& fill_(A&&...);
  template <class... A> Tensor& copy_(A&&...); template <class T> T item() const; Scalar item() const;
  /* in-place forms return the tensor */
  template <class... A> Tensor& unsqueeze_(A&&...); template <class... A> Tensor& squeeze_(A&&...);
  template <class... A> Tensor& transpose_(A&&...); template <class... A> Tensor& add_(A&&...);
  template <class... A> Tensor& sub_(A&&...); template <class... A> Tensor& mul_(A&&...);
  template <class... A> Tensor& div_(A&&...); template <class... A> Tensor& clamp_(A&&...);
  template <class... A> Tensor& addmm_(A&&...); template <class... A> Tensor& resize_as_(A&&...);
  template <class... A> Tensor view_as(A&&...) const; template <class... A> Tensor& t_(A&&...);
  Tensor operator[](int64_t) const;
  template <class... A> Tensor index_select(A&&...) const; template <class... A> Tensor masked_select(A&&...) const;
  std::tuple<Tensor, Tensor> sort(int64_t = -1, bool = false) const;
  std::tuple<Tensor, Tensor> sort(bool, int64_t, bool = false) const;
  std::tuple<Tensor, Tensor> max(int64_t, bool = false) const; Tensor max() const;
  std::tuple<Tensor, Tensor> min(int64_t, bool = false) const; Tensor min() const;
  std::tuple<Tensor, Tensor> topk(int64_t, int64_t = -1, bool = true, bool = true) const;
  Tensor operator+(const Tensor&) const; Tensor operator-(const Tensor&) const; Tensor operator*(const Tensor&) const;
  Tensor operator/(const Tensor&) const; Tensor operator*(double) const; Tensor operator-() const;
  Tensor& operator+=(const Tensor&); Tensor& operator*=(double);
};
#define _CL_TF(name) template <class... A> Tensor name(A&&...);
_CL_TF(empty) _CL_TF(zeros) _CL_TF(ones) _CL_TF(full) _CL_TF(randn) _CL_TF(rand) _CL_TF(arange) _CL_TF(empty_like)
_CL_TF(zeros_like) _CL_TF(ones_like) _CL_TF(full_like) _CL_TF(matmul) _CL_TF(mm) _CL_TF(bmm) _CL_TF(cat) _CL_TF(stack)
_CL_TF(allclose) _CL_TF(softmax) _CL_TF(exp) _CL_TF(sum) _CL_TF(from_blob) _CL_TF(tensor) _CL_TF(einsum)
_CL_TF(mm_out) _CL_TF(matmul_out) _CL_TF(addmm) _CL_TF(baddbmm) _CL_TF(where) _CL_TF(cumsum) _CL_TF(sqrt)
_CL_TF(abs) _CL_TF(clamp) _CL_TF(relu) _CL_TF(sigmoid) _CL_TF(tanh) _CL_TF(log) _CL_TF(pow) _CL_TF(cat_out)
_CL_TF(nonzero) _CL_TF(linspace) _CL_TF(randint) _CL_TF(zeros_out) _CL_TF(empty_strided) _CL_TF(gather)
#undef _CL_TF
/* reductions over a dimension return (values, indices) */
Tensor max(const Tensor&); Tensor min(const Tensor&); Tensor max(const Tensor&, const Tensor&);
std::tuple<Tensor, Tensor> max(const Tensor&, int64_t, bool = false);
std::tuple<Tensor, Tensor> min(const Tensor&, int64_t, bool = false);
std::tuple<Tensor, Tensor> sort(const Tensor&, int64_t = -1, bool = false);
std::tuple<Tensor, Tensor> sort(const Tensor&, bool, int64_t, bool = false);
std::tuple<Tensor, Tensor> topk(const Tensor&, int64_t, int64_t = -1, bool = true, bool = true);
/* unique values, (inverse indices), (counts) */
std::tuple<Tensor, Tensor> _unique(const Tensor&, bool = true, bool = false);
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor&, bool = true, bool = false, bool = false);
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor&, int64_t, bool = true, bool = false, bool = false);
/* the factories' own signature, for a braced size (`torch::empty({m, n}, options)`) */
Tensor empty(IntArrayRef, TensorOptions = {}); Tensor zeros(IntArrayRef, TensorOptions = {});
Tensor ones(IntArrayRef, TensorOptions = {}); Tensor rand(IntArrayRef, TensorOptions = {});
Tensor randn(IntArrayRef, TensorOptions = {}); Tensor full(IntArrayRef, Scalar, TensorOptions = {});
Tensor from_blob(void*, IntArrayRef, TensorOptions = {}); Tensor from_blob(void*, IntArrayRef, IntArrayRef, TensorOptions = {});
std::optional<Device> device_of(const Tensor&);
namespace cuda { using c10::cuda::getCurrentCUDAStream; using c10::cuda::CUDAStream; using c10::cuda::CUDAGuard;
  using c10::cuda::getStreamFromPool; using c10::cuda::getDefaultCUDAStream; using c10::cuda::setCurrentCUDAStream;
  using c10::cuda::OptionalCUDAGuard; cudaDeviceProp* getCurrentDeviceProperties(); }
}  // namespace at
namespace torch {
using namespace at;
using at::Tensor;
namespace indexing = at::indexing;
}  // namespace torch
namespace pybind11 {
struct arg { explicit arg(const char*); template <class T> arg& operator=(T&&); arg& none(bool = true); arg& noconvert(bool = true); };
struct module_ {
  template <class... A> module_& def(A&&...) { return *this; }
  template <class... A> module_ def_submodule(A&&...);
  template <class T> module_& attr(T&&);
};
typedef module_ module;
}  // namespace pybind11
namespace py = pybind11;
#define PYBIND11_MODULE(name, m) void __cudalint_pybind11_##name(pybind11::module_& m)
#define TORCH_EXTENSION_NAME cudalint_torch_extension
#define TORCH_LIBRARY(ns, m) void __cudalint_torch_library_##ns(pybind11::module_& m)
#define TORCH_LIBRARY_IMPL(ns, k, m) void __cudalint_torch_library_impl_##ns##_##k(pybind11::module_& m)
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define AT_ASSERTM(cond, ...) ((void)(cond))
#define AT_ERROR(...) ((void)0)
#define C10_CUDA_CHECK(e) ((void)(e))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define _CL_DISPATCH_ONE(T, ...) [&] { using scalar_t = T; return __VA_ARGS__(); }()
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) _CL_DISPATCH_ONE(float, __VA_ARGS__)
/* the building blocks of custom dispatch macros (vLLM's VLLM_DISPATCH_FLOATING_TYPES):
   each case runs with its own scalar_t */
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...) \
  [&] { switch ((c10::ScalarType)(TYPE)) { __VA_ARGS__ default: break; } }()
#define AT_DISPATCH_CASE(enum_type, ...) \
  case enum_type: { using scalar_t = c10::impl::ScalarTypeToCPPTypeT<enum_type>; __VA_ARGS__(); break; }
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) _CL_DISPATCH_ONE(float, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(A, B, TYPE, NAME, ...) _CL_DISPATCH_ONE(float, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(A, TYPE, NAME, ...) _CL_DISPATCH_ONE(float, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) _CL_DISPATCH_ONE(float, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) _CL_DISPATCH_ONE(int, __VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) _CL_DISPATCH_ONE(c10::Half, __VA_ARGS__)
