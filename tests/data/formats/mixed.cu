#include "missing_header.cuh"

// A stride known only at run time (CL002), an index read from memory (CL003), two
// volatile float loads one float2 load could serve (CL005; each is a 2-way conflict,
// suppressed), and a suppression that suppresses nothing (CL100).
__global__ void mixed(float* out, const int* idx, int stride) {
    __shared__ float s[1024];
    __shared__ volatile float pairs[64];
    int t = threadIdx.x;
    s[t] = out[t];
    pairs[t] = out[t];
    __syncthreads();
    float a = s[t * stride];
    float b = s[idx[t] % 1024];  // cudalint: ignore[CL001]
    float c = pairs[2 * t] + pairs[2 * t + 1];  // cudalint: ignore[CL001]
    out[t] = a + b + c;
}

void run(float* out, const int* idx, int stride) {
    mixed<<<1, 32>>>(out, idx, stride);
}
