#pragma once
#pragma clang system_header
#include <sys/socket.h>
_CL_BEGIN_C
struct sockaddr_un { sa_family_t sun_family; char sun_path[108]; };
_CL_END_C
