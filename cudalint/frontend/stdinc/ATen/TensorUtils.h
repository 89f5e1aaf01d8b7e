/* A stand-in for PyTorch's ATen/TensorUtils.h: the argument checks extensions call on
   their tensors (names only; nothing here reaches a kernel's shared memory). */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
namespace at {
struct TensorArg {
  const Tensor& tensor; const char* name; int pos;
  TensorArg(const Tensor& t, const char* n, int p) : tensor(t), name(n), pos(p) {}
  const Tensor* operator->() const { return &tensor; }
  const Tensor& operator*() const { return tensor; }
};
using CheckedFrom = const char*;
void checkAllSameGPU(CheckedFrom c, std::initializer_list<TensorArg> tensors);
void checkSameGPU(CheckedFrom c, const TensorArg& t1, const TensorArg& t2);
void checkContiguous(CheckedFrom c, const TensorArg& t);
void checkAllContiguous(CheckedFrom c, std::initializer_list<TensorArg> ts);
void checkDim(CheckedFrom c, const TensorArg& t, int64_t dim);
void checkSize(CheckedFrom c, const TensorArg& t, IntArrayRef sizes);
void checkSameSize(CheckedFrom c, const TensorArg& t1, const TensorArg& t2);
void checkSameType(CheckedFrom c, const TensorArg& t1, const TensorArg& t2);
void checkAllSameType(CheckedFrom c, std::initializer_list<TensorArg> tensors);
void checkAllDefined(CheckedFrom c, std::initializer_list<TensorArg> tensors);
void checkDeviceType(CheckedFrom c, std::initializer_list<Tensor> tensors, DeviceType t);
void checkScalarType(CheckedFrom c, const TensorArg& t, ScalarType s);
void checkNumel(CheckedFrom c, const TensorArg& t, int64_t numel);
void checkSameNumel(CheckedFrom c, const TensorArg& t1, const TensorArg& t2);
}  // namespace at
