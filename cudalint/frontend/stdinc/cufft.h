#pragma once
#pragma clang system_header
/* cuFFT (generated: tools/gen_cudart_types.py --api cufft). */
#include <__cudalint/cufft.h>
