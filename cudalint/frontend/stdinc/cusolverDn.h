#pragma once
#pragma clang system_header
/* cuSOLVER (generated: tools/gen_cudart_types.py --api cusolver). */
#include <__cudalint/cusolver.h>
