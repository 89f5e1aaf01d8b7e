/* cuRAND's device API: the generator states with CUDA 13's layouts (curand_kernel.h,
   curand_philox4x32_x.h, curand_mtgp32.h; a state array in __shared__ memory is laid out by
   these sizes) and the calls kernels make. */
#pragma once
#pragma clang system_header
#include <curand.h>
struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStateSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateScrambledSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateSobol64 {
  unsigned long long i, x, c;
  unsigned long long direction_vectors[64];
};
struct curandStateScrambledSobol64 {
  unsigned long long i, x, c;
  unsigned long long direction_vectors[64];
};
struct curandStateMtgp32 { unsigned int s[1024]; int offset; int pIdx; void* k; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
typedef struct curandStateSobol64 curandStateSobol64_t;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];
/* The pseudo-random generators: curand_init(seed, subsequence, offset, state). */
template <class S> __device__ void curand_init(unsigned long long seed,
    unsigned long long subsequence, unsigned long long offset, S* state);
/* The quasi-random ones: curand_init(direction_vectors, [scramble,] offset, state). */
__device__ void curand_init(unsigned int* direction_vectors, unsigned int offset,
                            curandStateSobol32_t* state);
__device__ void curand_init(unsigned int* direction_vectors, unsigned int scramble_c,
                            unsigned int offset, curandStateScrambledSobol32_t* state);
__device__ void curand_init(unsigned long long* direction_vectors, unsigned long long offset,
                            curandStateSobol64_t* state);
__device__ void curand_init(unsigned long long* direction_vectors,
                            unsigned long long scramble_c, unsigned long long offset,
                            curandStateScrambledSobol64_t* state);
template <class S> __device__ unsigned int curand(S* state);
__device__ unsigned long long curand(curandStateSobol64_t* state);
__device__ unsigned long long curand(curandStateScrambledSobol64_t* state);
template <class S> __device__ uint4 curand4(S* state);
template <class S> __device__ float curand_uniform(S* state);
template <class S> __device__ double curand_uniform_double(S* state);
template <class S> __device__ float4 curand_uniform4(S* state);
template <class S> __device__ double2 curand_uniform2_double(S* state);
template <class S> __device__ float curand_normal(S* state);
template <class S> __device__ double curand_normal_double(S* state);
template <class S> __device__ float2 curand_normal2(S* state);
template <class S> __device__ double2 curand_normal2_double(S* state);
template <class S> __device__ float4 curand_normal4(S* state);
template <class S> __device__ float curand_log_normal(S* state, float mean, float stddev);
template <class S> __device__ double curand_log_normal_double(S* state, double mean,
                                                             double stddev);
template <class S> __device__ unsigned int curand_poisson(S* state, double lambda);
template <class S> __device__ void skipahead(unsigned long long n, S* state);
template <class S> __device__ void skipahead_sequence(unsigned long long n, S* state);
template <class S> __device__ void skipahead_subsequence(unsigned long long n, S* state);
