#pragma once
#pragma clang system_header
#include <torch/extension.h>
