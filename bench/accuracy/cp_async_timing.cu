// Timing probe for the shared-side bank cost of 16-byte cp.async (sm_90).
// Nsight Compute counts the shared-side wavefronts of LDGSTS.E.128 (.ca) but reads 0
// for LDGSTS.E.BYPASS.128 (.cg), so the .cg cost is inferred from time: every warp of
// a 32-warp block issues ITERS x 8 copies of 16 bytes per lane to one fixed per-lane
// destination pattern, and the block's clock64 span is divided by the instructions
// the SM executed (cycles per instruction per SM). With the shared side as the
// bottleneck this is the wavefronts per instruction (the pipe writes one wavefront
// per clock).
//
// Table (argv[2]): one pattern per line "TAG a0 .. a31" (byte offsets, 16-aligned).
// Modes:
//   probe time  TABLE GRIDS ITERS REPS  -> "TAG OP SRC GRID cyc_med cyc_min cyc_max nsm"
//   probe calib TABLE                   -> every (pattern, op, src) once, grid 1, 2
//                                          iterations (for ncu: launch order = table order
//                                          x OPS x SRC, printed as "LAUNCH i TAG OP SRC")
// OP: 0 cp.async.ca 16 (LDGSTS.E.128), 1 cp.async.cg 16 (LDGSTS.E.BYPASS.128),
//     2 st.volatile.shared.v4.u32 (STS.128, the reference; volatile, else ptxas drops
//     the repeated stores). SRC: 0 lanes read 16 consecutive bytes each (512 B per
//     warp), 1 all lanes read the same 16 bytes (32 B per warp), 2 four lanes per
//     64-byte row segment, rows 2048 bytes apart (a tile of 32 halfs per row).
// Source data: 512 B per warp (2 MiB at 132 blocks): L1- (.ca) and L2- (.cg) resident.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define WARPS 32
#define UNROLL 8
#define CAP 16384

template <int OP, int SRC>
__global__ void __launch_bounds__(WARPS * 32, 1)
probe(const int* __restrict__ tab, const uint4* __restrict__ src, long long* out, int iters) {
    __shared__ __align__(1024) unsigned char buf[CAP];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned dst = (unsigned)__cvta_generic_to_shared(buf) + (unsigned)tab[lane];
    const uint4* g = src + ((size_t)blockIdx.x * WARPS + warp) * 32
                   + (SRC == 0 ? lane : SRC == 1 ? 0 : (lane / 4) * 128 + lane % 4);
    const unsigned v0 = lane, v1 = warp, v2 = blockIdx.x, v3 = 7;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            if (OP == 0) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(g) : "memory");
            if (OP == 1) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(g) : "memory");
            if (OP == 2) asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" :: "r"(dst), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
        }
        if (OP < 2) {
            asm volatile("cp.async.commit_group;" ::: "memory");
            asm volatile("cp.async.wait_group 4;" ::: "memory");
        }
    }
    if (OP < 2) asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        out[2 * blockIdx.x] = t1 - t0;
        out[2 * blockIdx.x + 1] = sm;
    }
}

typedef void (*Kern)(const int*, const uint4*, long long*, int);
static Kern kern(int op, int srcm) {
    if (op == 0) return srcm == 2 ? probe<0, 2> : srcm ? probe<0, 1> : probe<0, 0>;
    if (op == 1) return srcm == 2 ? probe<1, 2> : srcm ? probe<1, 1> : probe<1, 0>;
    return probe<2, 0>;
}

static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e)); exit(3); }
}

int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s time|calib TABLE [GRIDS ITERS REPS]\n", argv[0]); return 2; }
    const bool calib = strcmp(argv[1], "calib") == 0;
    FILE* f = fopen(argv[2], "r");
    if (!f) { perror(argv[2]); return 1; }
    std::vector<std::string> tags;
    std::vector<std::vector<int>> tabs;
    char tag[128];
    while (fscanf(f, "%127s", tag) == 1) {
        std::vector<int> a(32);
        for (int i = 0; i < 32; i++)
            if (fscanf(f, "%d", &a[i]) != 1 || a[i] < 0 || a[i] > CAP - 16 || a[i] % 16) { fprintf(stderr, "bad row %s\n", tag); return 2; }
        tags.push_back(tag);
        tabs.push_back(a);
    }
    std::vector<int> grids;
    int iters = 2, reps = 1;
    if (!calib) {
        for (char* p = strtok(argv[3], ","); p; p = strtok(nullptr, ",")) grids.push_back(atoi(p));
        iters = atoi(argv[4]);
        reps = atoi(argv[5]);
    } else {
        grids.push_back(1);
    }
    for (int op = 0; op < 3; op++)
        for (int s = 0; s < 3; s++)
            check(cudaFuncSetAttribute(kern(op, s), cudaFuncAttributePreferredSharedMemoryCarveout, 50), "carveout");
    int *d_tab;
    uint4* d_src;
    long long* d_out;
    const size_t src_bytes = (size_t)256 * WARPS * 512 + 65536;
    check(cudaMalloc(&d_tab, 32 * sizeof(int)), "malloc");
    check(cudaMalloc(&d_src, src_bytes), "malloc");
    check(cudaMalloc(&d_out, 2 * 256 * sizeof(long long)), "malloc");
    check(cudaMemset(d_src, 7, src_bytes), "memset");
    std::vector<long long> h(2 * 256);
    int launch = 0;
    for (size_t t = 0; t < tabs.size(); t++) {
        check(cudaMemcpy(d_tab, tabs[t].data(), 32 * sizeof(int), cudaMemcpyHostToDevice), "copy");
        for (int grid : grids)
            for (int op = 0; op < 3; op++)
                for (int s = 0; s < (op < 2 ? 3 : 1); s++) {
                    if (calib) {
                        kern(op, s)<<<1, WARPS * 32>>>(d_tab, d_src, d_out, iters);
                        check(cudaDeviceSynchronize(), "calib launch");
                        printf("LAUNCH %d %s %d %d\n", launch++, tags[t].c_str(), op, s);
                        continue;
                    }
                    kern(op, s)<<<grid, WARPS * 32>>>(d_tab, d_src, d_out, 4);  // warm-up
                    check(cudaDeviceSynchronize(), "warm-up");
                    std::vector<double> med;
                    double lo = 1e30, hi = 0;
                    int nsm = 0;
                    for (int r = 0; r < reps; r++) {
                        kern(op, s)<<<grid, WARPS * 32>>>(d_tab, d_src, d_out, iters);
                        check(cudaDeviceSynchronize(), "launch");
                        check(cudaMemcpy(h.data(), d_out, 2 * grid * sizeof(long long), cudaMemcpyDeviceToHost), "copy back");
                        std::vector<double> c;
                        std::vector<long long> sms;
                        for (int b = 0; b < grid; b++) {
                            c.push_back((double)h[2 * b] / ((double)WARPS * iters * UNROLL));
                            sms.push_back(h[2 * b + 1]);
                        }
                        std::sort(c.begin(), c.end());
                        std::sort(sms.begin(), sms.end());
                        nsm = (int)(std::unique(sms.begin(), sms.end()) - sms.begin());
                        med.push_back(c[c.size() / 2]);
                        lo = std::min(lo, c.front());
                        hi = std::max(hi, c.back());
                    }
                    std::sort(med.begin(), med.end());
                    printf("%s %d %d %d %.3f %.3f %.3f %d\n", tags[t].c_str(), op, s, grid, med[med.size() / 2], lo, hi, nsm);
                    fflush(stdout);
                }
    }
    return 0;
}
