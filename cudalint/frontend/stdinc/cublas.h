#pragma once
#pragma clang system_header
/* cuBLAS (generated: tools/gen_cudart_types.py --api cublas). */
#include <__cudalint/cublas_api.h>
