/* No include guard: NDEBUG may change between two inclusions, as in C. */
#pragma clang system_header
#include <__cudalint/config.h>
#ifndef __CL_ASSERT_FAIL_DECLARED
#define __CL_ASSERT_FAIL_DECLARED
_CL_BEGIN_C
_CL_HD void __assert_fail(const char*, const char*, unsigned int, const char*);
_CL_END_C
#endif
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) \
  (static_cast<bool>(e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
