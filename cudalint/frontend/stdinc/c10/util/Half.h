/* A stand-in for PyTorch's c10/util/Half.h: its names come with torch/extension.h. */
#pragma once
#pragma clang system_header
#include <torch/extension.h>
