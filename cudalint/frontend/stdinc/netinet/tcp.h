#pragma once
#pragma clang system_header
#define TCP_NODELAY 1
