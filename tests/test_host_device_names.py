"""Names nvcc declares for host and device code alike, and the comparisons PyTorch's
``c10::Half`` takes: code that nvcc compiles must parse without a CL004 (NVIDIA/apex's
``layer_norm_cuda_kernel.cu``: ``template <> float rsqrt(float v) { return rsqrtf(v); }``
in a host function, ``if (curr_gamma >= 0)`` on a ``c10::Half``)."""

from __future__ import annotations

import pathlib

import pytest

from cudalint.frontend import parse_file
from cudalint.options import Options


@pytest.mark.parametrize(
    "use",
    [
        # math_functions.h declares these __host__ __device__
        "template <typename U> U rs(U v) { return U(1) / v; }\n"
        "template <> float rs(float v) { return rsqrtf(v) + sinpif(v) + normcdff(v)"
        " + erfinvf(v) + rcbrtf(v); }\n"
        "template <> double rs(double v) { return rsqrt(v) + cospi(v) + erfcx(v); }\n"
        "unsigned m(unsigned a, unsigned b) { return umin(a, b) + umax(a, b); }",
        # c10::Half and c10::BFloat16 against any arithmetic type, either side
        "#include <torch/extension.h>\n"
        "template <typename T> __host__ __device__ bool f(T v) {"
        " return v >= 0 && 1.0f < v && v != 2.0 && v == (long)3 && v > 4u && v <= v"
        " && 0.5 >= v; }\n"
        "bool g(c10::Half h, at::BFloat16 b) { return f(h) && f(b) && h < h && b == 1; }\n"
        "__device__ bool d(c10::Half h) { return f(h) && h > 0.0f; }",
        # ATen/cuda/CUDAContext.h brings Exceptions.h (apex's fused_weight_gradient_dense)
        "#include <ATen/cuda/CUDAContext.h>\n"
        "void f(float* a) { TORCH_CUDABLAS_CHECK(cublasSetStream("
        "at::cuda::getCurrentCUDABlasHandle(), 0)); AT_CUDA_CHECK(cudaFree(a)); }",
        # cuda_fp16.h / cuda_bf16.h conversions with every rounding, rounded arithmetic,
        # comparison masks (DeepSpeed's conversion_utils.h)
        "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
        "__device__ unsigned long long f(__half h, __nv_bfloat16 b, __half2 p,"
        " __nv_bfloat162 q) { return __half2ull_rn(h) + __bfloat162ll_rz(b)"
        " + __half2char_rz(h) + __heq2_mask(p, p) + __hlt2_mask(q, q)"
        " + (unsigned long long)__half2float(__hmul_rn(h, __ull2half_rd(3ull)))"
        " + (unsigned long long)__bfloat162float(__double2bfloat16(1.0)); }",
        # DeepSpeed's lamb and cuBLAS wrappers: torch/version.h, ATen/TensorUtils.h,
        # IndexUtils.cuh, the deprecated Tensor::type(), a coalesced group's shuffles
        "#include <torch/version.h>\n#include <ATen/TensorUtils.h>\n"
        "#include <ATen/cuda/detail/IndexUtils.cuh>\n#include <cooperative_groups.h>\n"
        'static_assert(TORCH_VERSION_MAJOR >= 2, "");\n'
        'bool f(const at::Tensor& p) { at::TensorArg a(p, "p", 1);'
        ' at::checkAllSameGPU("f", {a, a});'
        " return p.type().scalarType() == at::ScalarType::Float"
        " && at::cuda::detail::canUse32BitIndexMath(p); }\n"
        # DeepSpeed's deepcompile.h: side streams from the pool
        "cudaStream_t side() { at::cuda::CUDAStream s = at::cuda::getStreamFromPool();"
        " at::cuda::setCurrentCUDAStream(at::cuda::getDefaultCUDAStream()); return s; }\n"
        "__device__ float g(float v) { auto c = cooperative_groups::coalesced_threads();"
        " return c.shfl_down(v, 1) + c.shfl_up(v, 1) + c.any(1) + c.meta_group_rank(); }",
        # mmcv's pytorch_cuda_helper.hpp and ops: old THC atomics, apply utilities,
        # accessors, braced sizes, options, indexing
        "#include <ATen/cuda/CUDAApplyUtils.cuh>\n#include <THC/THCAtomics.cuh>\n"
        "#include <torch/script.h>\n#include <torch/serialize/tensor.h>\n"
        "__global__ void k(at::PackedTensorAccessor32<float, 3, at::RestrictPtrTraits> a,"
        " at::Half* h) { atomicAdd(h, at::Half(1.0f)); a[0][1][2] = FLT_MAX;"
        " int n = at::cuda::ATenCeilDiv(7, 2) + at::ceil_div(7, 2); (void)n; }\n"
        "void f(at::Tensor t, at::Tensor m) { using namespace at::indexing;"
        " auto v = t.view({2, -1}).reshape({-1}).new_empty({0}, torch::kInt32);"
        " auto o = torch::zeros({3}, torch::dtype(torch::kInt32).device(t.device()));"
        " auto u = torch::_unique(t); auto c = t.to({torch::kCPU});"
        ' bool same = t.sizes() == m.sizes() && DeviceTypeName(t.device().type()) == "cuda";'
        " t.index_put_({m}, 0); auto w = t.masked_fill(m, 0).nonzero();"
        " k<<<1, 32>>>(t.packed_accessor32<float, 3, at::RestrictPtrTraits>(),"
        " (at::Half*)t.data_ptr()); (void)v; (void)o; (void)u; (void)c; (void)same; (void)w; }",
        # detectron2's ops: older names and in-place forms
        "#include <ATen/TensorUtils.h>\n"
        'void f(at::Tensor t, at::IntList sizes) { at::TensorArg a(t, "t", 1);'
        ' at::checkAllSameType("f", {a, a}); t.unsqueeze_(0).add_(t).view_as(t);'
        " (void)sizes; }",
    ],
    ids=[
        "math-host-device",
        "c10-half-compare",
        "aten-cuda-context",
        "fp16-conversions",
        "deepspeed-lamb",
        "mmcv-ops",
        "detectron2-ops",
    ],
)
def test_parses_as_nvcc_does(tmp_path: pathlib.Path, use: str) -> None:
    src = tmp_path / "unit.cu"
    src.write_text(f"{use}\n__global__ void k() {{}}\n")
    unit = parse_file(str(src), Options())
    assert [n.message for n in unit.notes if n.severity != "warning"] == []
