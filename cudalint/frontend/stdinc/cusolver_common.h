#pragma once
#pragma clang system_header
#include <cusolverDn.h>
