/* A stand-in for PyTorch's torch/script.h (TorchScript's custom-op registration): its
   tensors and ops come with torch/extension.h. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
