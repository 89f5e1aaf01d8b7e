/* A stand-in for PyTorch's torch/serialize/tensor.h: saving and loading tensors. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
