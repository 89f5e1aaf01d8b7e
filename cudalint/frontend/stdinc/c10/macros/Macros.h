/* A stand-in for PyTorch's c10/macros/Macros.h: the portability macros extension kernels use. */
#pragma once
#pragma clang system_header
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#define C10_HIP_HOST_DEVICE
#define C10_WARP_SIZE 32
#define C10_MAX_THREADS_PER_BLOCK(val) (((val) <= 1024) ? (val) : 1024)
#define C10_MIN_BLOCKS_PER_SM(threads_per_block, blocks_per_sm) (blocks_per_sm)
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads_per_block) __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))))
#define C10_LAUNCH_BOUNDS_2(max_threads_per_block, min_blocks_per_sm) __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))), (C10_MIN_BLOCKS_PER_SM((max_threads_per_block), (min_blocks_per_sm))))
#define C10_LIKELY(expr) (expr)
#define C10_UNLIKELY(expr) (expr)
#define C10_ALWAYS_INLINE inline __attribute__((always_inline))
#define C10_NOINLINE __attribute__((noinline))
#define C10_API
#define C10_EXPORT
#define C10_IMPORT
#define TORCH_API
#define C10_DEPRECATED
#define C10_DEPRECATED_MESSAGE(message)
#define C10_UNUSED __attribute__((__unused__))
#define C10_RESTRICT __restrict
#define C10_CONCATENATE_IMPL(s1, s2) s1##s2
#define C10_CONCATENATE(s1, s2) C10_CONCATENATE_IMPL(s1, s2)
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
