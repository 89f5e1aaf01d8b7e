#pragma once
#pragma clang system_header
#include <thrust/__cudalint_thrust.h>
