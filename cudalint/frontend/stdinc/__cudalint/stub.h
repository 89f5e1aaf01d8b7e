/* Host-only library stubs: the names real code uses (handles, enums, macros, functions),
   enough for host code to parse. A function stub takes any arguments. */
#pragma once
#pragma clang system_header
/* extern "C++": a header may be included inside extern "C" (freeglut_std.h includes
   <GL/gl.h> so), where a template is an error. */
#define _CL_STUB_FN(R, name) \
  extern "C++" { template <class... _A> inline R name(_A&&...) { return static_cast<R>(0); } }
#define _CL_STUB_HANDLE(name) typedef struct name##_st* name
