/* A stand-in for PyTorch's ATen/cuda/detail/IndexUtils.cuh (with TensorInfo.cuh): the
   index-width check and the strided view extensions hand their kernels. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
namespace at { namespace cuda { namespace detail {
bool maybeOverlappingIndices(const at::Tensor& t);
bool canUse32BitIndexMath(const at::Tensor& t, int64_t max_elem = 2147483647);
#define MAX_TENSORINFO_DIMS 25
template <typename T, typename IndexType>
struct TensorInfo {
  T* data; IndexType sizes[MAX_TENSORINFO_DIMS]; IndexType strides[MAX_TENSORINFO_DIMS];
  int dims;
  TensorInfo();
  TensorInfo(T* p, int dim, IndexType sz[MAX_TENSORINFO_DIMS],
             IndexType st[MAX_TENSORINFO_DIMS]);
  void reduceDim(int dim);
  int collapseDims(const int excludeDim = -1);
  __host__ __device__ inline bool isContiguous() const { return dims == 1 && strides[0] == 1; }
};
template <typename scalar, typename IndexType>
TensorInfo<scalar, IndexType> getTensorInfo(const at::Tensor& t);
} } }  // namespace at::cuda::detail
