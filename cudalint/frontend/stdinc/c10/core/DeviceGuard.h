/* A stand-in for PyTorch's c10/core/DeviceGuard.h: its names come with torch/extension.h. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
