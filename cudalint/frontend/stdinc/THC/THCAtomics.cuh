/* A stand-in for PyTorch's THC/THCAtomics.cuh: since PyTorch 1.11 only ATen/cuda/Atomic.cuh
   under its old name (mmcv's pytorch_cuda_helper.hpp includes it). */
#pragma once
#pragma clang system_header
#include <ATen/cuda/Atomic.cuh>
