// Probe for the shared-memory cost of ldmatrix / stmatrix / cp.async (sm_90).
// One warp per block, 132 blocks; each launch executes exactly ONE measured
// instruction per warp on the shared buffer (no other shared loads or stores).
// Table (argv[1]): one pattern per line: "KIND MASK a0 .. a31", where KIND is
//   1 2 4     ldmatrix .x1/.x2/.x4          11 12 14   ldmatrix .x1/.x2/.x4 .trans
//   21 22 24  stmatrix .x1/.x2/.x4          104 108 116 cp.async 4/8 (.ca) / 16 (.cg) bytes
//   216       cp.async.ca 16 bytes
// and a_i is lane i's shared byte offset (row address for ld/stmatrix, destination
// for cp.async); MASK selects the executing lanes for cp.async (ld/stmatrix: all).
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CAP 32768
__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

template <int KIND>
__global__ void ldsm(const int* __restrict__ off, unsigned* out) {
    __shared__ __align__(128) unsigned char s[CAP];
    int l = threadIdx.x & 31;
    unsigned a = sa(s + off[l]);
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (KIND == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (KIND == 2) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    if (KIND == 4) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    if (KIND == 11) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (KIND == 12) asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    if (KIND == 14) asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[blockIdx.x * 32 + l] = r0 ^ r1 ^ r2 ^ r3;
}

template <int KIND>
__global__ void stsm(const int* __restrict__ off, unsigned* out) {
    __shared__ __align__(128) unsigned char s[CAP];
    int l = threadIdx.x & 31;
    unsigned a = sa(s + off[l]);
    unsigned v = l * 0x01010101u + blockIdx.x;
    if (KIND == 21) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(v) : "memory");
    if (KIND == 22) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(v), "r"(v + 1) : "memory");
    if (KIND == 24) asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
    // keep the buffer live without a shared load: write the address out
    out[blockIdx.x * 32 + l] = a;
}

template <int KIND>
__global__ void cpa(const int* __restrict__ off, const uint4* __restrict__ src, unsigned* out, unsigned mask) {
    __shared__ __align__(128) unsigned char s[CAP];
    int l = threadIdx.x & 31;
    unsigned a = sa(s + off[l]);
    const void* g = src + (blockIdx.x * 32 + l);
    if ((mask >> l) & 1u) {
        if (KIND == 104) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(a), "l"(g) : "memory");
        if (KIND == 108) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(a), "l"(g) : "memory");
        if (KIND == 116) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(g) : "memory");
        if (KIND == 216) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(a), "l"(g) : "memory");
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[blockIdx.x * 32 + l] = a;
}

int main(int argc, char** argv) {
    FILE* f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    int* d_off; unsigned* d_out; uint4* d_src;
    cudaMalloc(&d_off, 32 * sizeof(int)); cudaMalloc(&d_out, 1 << 20); cudaMalloc(&d_src, 1 << 20);
    cudaMemset(d_src, 7, 1 << 20);
    int kind, off[32], n = 0; unsigned mask;
    while (fscanf(f, "%d %u", &kind, &mask) == 2) {
        for (int i = 0; i < 32; i++) if (fscanf(f, "%d", &off[i]) != 1) return 2;
        cudaMemcpy(d_off, off, sizeof off, cudaMemcpyHostToDevice);
        switch (kind) {
            case 1: ldsm<1><<<132, 32>>>(d_off, d_out); break;
            case 2: ldsm<2><<<132, 32>>>(d_off, d_out); break;
            case 4: ldsm<4><<<132, 32>>>(d_off, d_out); break;
            case 11: ldsm<11><<<132, 32>>>(d_off, d_out); break;
            case 12: ldsm<12><<<132, 32>>>(d_off, d_out); break;
            case 14: ldsm<14><<<132, 32>>>(d_off, d_out); break;
            case 21: stsm<21><<<132, 32>>>(d_off, d_out); break;
            case 22: stsm<22><<<132, 32>>>(d_off, d_out); break;
            case 24: stsm<24><<<132, 32>>>(d_off, d_out); break;
            case 104: cpa<104><<<132, 32>>>(d_off, d_src, d_out, mask); break;
            case 108: cpa<108><<<132, 32>>>(d_off, d_src, d_out, mask); break;
            case 116: cpa<116><<<132, 32>>>(d_off, d_src, d_out, mask); break;
            case 216: cpa<216><<<132, 32>>>(d_off, d_src, d_out, mask); break;
            default: fprintf(stderr, "bad kind %d\n", kind); return 2;
        }
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) { fprintf(stderr, "launch %d: %s\n", n, cudaGetErrorString(e)); return 3; }
        n++;
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%d launches, %s\n", n, cudaGetErrorString(e));
    return e != cudaSuccess;
}
