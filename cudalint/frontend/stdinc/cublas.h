#pragma once
#pragma clang system_header
#include <cublas_v2.h>
