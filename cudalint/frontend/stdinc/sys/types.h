#pragma once
#pragma clang system_header
#include <__cudalint/config.h>
#include <__cudalint/types.h>
#include <stdint.h>
