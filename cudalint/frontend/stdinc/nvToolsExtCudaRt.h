#pragma once
#pragma clang system_header
#include <nvtx3/nvToolsExtCudaRt.h>
