#pragma once
#pragma clang system_header
#include <cub/cub.cuh>
