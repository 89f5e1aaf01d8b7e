// kernels300.cu: a realistic, self-contained CUDA source of about 300 lines used by
// bench/speed.py as the single-file corpus. It mixes the shared-memory patterns a CUDA
// engineer writes every day (transposes, a tree reduction, a halo stencil, a tiled
// SGEMM, a shared-atomic histogram and a separable row filter) with the host code
// that launches them. Written for the benchmark; it must build with
//   nvcc -O3 -arch=sm_90 -cubin bench/corpus/kernels300.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define STENCIL_BLOCK 16
#define STENCIL_RADIUS 2
#define GEMM_TILE 16
#define HIST_BINS 256
#define ROW_RADIUS 8
#define ROW_TILE_W 128

constexpr int kReduceBlock = 256;
constexpr int kHistBlock = 256;
constexpr int kRowTaps = 2 * ROW_RADIUS + 1;

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,  \
                         #call, cudaGetErrorString(err_));                      \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

__constant__ float c_row_taps[kRowTaps];

// ---------------------------------------------------------------------------------
// Matrix transpose: each block moves one TILE_DIM x TILE_DIM tile with a
// TILE_DIM x BLOCK_ROWS thread block, so every thread handles TILE_DIM / BLOCK_ROWS
// elements. The naive tile reads a column on the way out; the padded tile adds one
// float per row so that the column walk spreads over all banks.
// ---------------------------------------------------------------------------------
__global__ void transpose_naive(float *out, const float *in, int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

__global__ void transpose_padded(float *out, const float *in, int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

// ---------------------------------------------------------------------------------
// Sum reduction: each thread adds two elements while loading, then the block halves
// the active range in shared memory until one partial sum per block is left.
// ---------------------------------------------------------------------------------
template <int BLOCK>
__global__ void reduce_sum(const float *__restrict__ in, float *__restrict__ partial, int n) {
    __shared__ float sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK * 2) + tid;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}

// ---------------------------------------------------------------------------------
// 2-D stencil (radius STENCIL_RADIUS, cross-shaped) over a tile with a halo: the
// block loads its interior plus the halo rows and columns, then every thread reads
// its neighbours from shared memory.
// ---------------------------------------------------------------------------------
__global__ void stencil_2d(float *out, const float *in, int nx, int ny, float c0, float c1,
                           float c2) {
    constexpr int kW = STENCIL_BLOCK + 2 * STENCIL_RADIUS;
    __shared__ float s[kW][kW];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int gx = blockIdx.x * STENCIL_BLOCK + tx;
    const int gy = blockIdx.y * STENCIL_BLOCK + ty;
    const int lx = tx + STENCIL_RADIUS;
    const int ly = ty + STENCIL_RADIUS;

    auto fetch = [&](int x, int y) -> float {
        x = min(max(x, 0), nx - 1);
        y = min(max(y, 0), ny - 1);
        return in[y * nx + x];
    };

    s[ly][lx] = fetch(gx, gy);
    if (tx < STENCIL_RADIUS) {
        s[ly][lx - STENCIL_RADIUS] = fetch(gx - STENCIL_RADIUS, gy);
        s[ly][lx + STENCIL_BLOCK] = fetch(gx + STENCIL_BLOCK, gy);
    }
    if (ty < STENCIL_RADIUS) {
        s[ly - STENCIL_RADIUS][lx] = fetch(gx, gy - STENCIL_RADIUS);
        s[ly + STENCIL_BLOCK][lx] = fetch(gx, gy + STENCIL_BLOCK);
    }
    __syncthreads();

    if (gx < nx && gy < ny) {
        float acc = c0 * s[ly][lx];
        acc += c1 * (s[ly][lx - 1] + s[ly][lx + 1] + s[ly - 1][lx] + s[ly + 1][lx]);
        acc += c2 * (s[ly][lx - 2] + s[ly][lx + 2] + s[ly - 2][lx] + s[ly + 2][lx]);
        out[gy * nx + gx] = acc;
    }
}

// ---------------------------------------------------------------------------------
// Tiled SGEMM, C = alpha * A * B + beta * C, row-major, GEMM_TILE x GEMM_TILE tiles.
// ---------------------------------------------------------------------------------
__global__ void sgemm_tiled(int M, int N, int K, float alpha, const float *A, const float *B,
                            float beta, float *C) {
    __shared__ float As[GEMM_TILE][GEMM_TILE];
    __shared__ float Bs[GEMM_TILE][GEMM_TILE];
    const int row = blockIdx.y * GEMM_TILE + threadIdx.y;
    const int col = blockIdx.x * GEMM_TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + GEMM_TILE - 1) / GEMM_TILE; ++t) {
        const int ak = t * GEMM_TILE + threadIdx.x;
        const int bk = t * GEMM_TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < GEMM_TILE; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

// ---------------------------------------------------------------------------------
// 256-bin byte histogram: a private histogram per block in shared memory, built with
// shared atomics, then merged into the global one with one atomic per bin.
// ---------------------------------------------------------------------------------
__global__ void histogram256(const unsigned char *data, size_t n, unsigned int *hist) {
    __shared__ unsigned int bins[HIST_BINS];
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&bins[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x) {
        const unsigned int v = bins[b];
        if (v) atomicAdd(&hist[b], v);
    }
}

// ---------------------------------------------------------------------------------
// Separable convolution, row pass: each block filters ROW_TILE_W pixels of one row,
// loading the tile plus a ROW_RADIUS apron on each side.
// ---------------------------------------------------------------------------------
__global__ void conv_row(float *dst, const float *src, int width, int height) {
    __shared__ float line[ROW_TILE_W + 2 * ROW_RADIUS];
    const int y = blockIdx.y;
    const int x0 = blockIdx.x * ROW_TILE_W;
    if (y >= height) return;
    const float *row = src + static_cast<size_t>(y) * width;
    for (int i = threadIdx.x; i < ROW_TILE_W + 2 * ROW_RADIUS; i += blockDim.x) {
        int x = x0 + i - ROW_RADIUS;
        x = x < 0 ? 0 : (x >= width ? width - 1 : x);
        line[i] = row[x];
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    if (threadIdx.x < ROW_TILE_W && x < width) {
        float sum = 0.0f;
#pragma unroll
        for (int k = -ROW_RADIUS; k <= ROW_RADIUS; ++k) {
            sum += c_row_taps[ROW_RADIUS + k] * line[threadIdx.x + ROW_RADIUS + k];
        }
        dst[static_cast<size_t>(y) * width + x] = sum;
    }
}

// ---------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------
static float *device_floats(size_t count, float value) {
    float *host = static_cast<float *>(std::malloc(count * sizeof(float)));
    for (size_t i = 0; i < count; ++i) host[i] = value + static_cast<float>(i % 7);
    float *dev = nullptr;
    CUDA_CHECK(cudaMalloc(&dev, count * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dev, host, count * sizeof(float), cudaMemcpyHostToDevice));
    std::free(host);
    return dev;
}

static int div_up(int a, int b) { return (a + b - 1) / b; }

int main(int argc, char **argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
    const size_t elems = static_cast<size_t>(n) * n;
    float *a = device_floats(elems, 1.0f);
    float *b = device_floats(elems, 2.0f);
    float *c = device_floats(elems, 0.0f);

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    float ms = 0.0f;

    dim3 tgrid(div_up(n, TILE_DIM), div_up(n, TILE_DIM));
    CUDA_CHECK(cudaEventRecord(start));
    transpose_naive<<<tgrid, dim3(TILE_DIM, BLOCK_ROWS)>>>(c, a, n, n);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("transpose_naive   %8.3f ms\n", ms);

    CUDA_CHECK(cudaEventRecord(start));
    transpose_padded<<<tgrid, dim3(TILE_DIM, BLOCK_ROWS)>>>(c, a, n, n);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("transpose_padded  %8.3f ms\n", ms);

    const int rblocks = div_up(static_cast<int>(elems), kReduceBlock * 2);
    float *partial = nullptr;
    CUDA_CHECK(cudaMalloc(&partial, rblocks * sizeof(float)));
    reduce_sum<kReduceBlock><<<rblocks, dim3(kReduceBlock)>>>(a, partial, static_cast<int>(elems));
    CUDA_CHECK(cudaGetLastError());

    dim3 sgrid(div_up(n, STENCIL_BLOCK), div_up(n, STENCIL_BLOCK));
    stencil_2d<<<sgrid, dim3(STENCIL_BLOCK, STENCIL_BLOCK)>>>(c, a, n, n, 0.5f, 0.1f, 0.025f);
    CUDA_CHECK(cudaGetLastError());

    dim3 ggrid(div_up(n, GEMM_TILE), div_up(n, GEMM_TILE));
    CUDA_CHECK(cudaEventRecord(start));
    sgemm_tiled<<<ggrid, dim3(GEMM_TILE, GEMM_TILE)>>>(n, n, n, 1.0f, a, b, 0.0f, c);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("sgemm_tiled       %8.3f ms (%.1f GFLOP/s)\n", ms,
                2.0 * n * n * n / (ms * 1.0e6));

    unsigned char *bytes = nullptr;
    unsigned int *hist = nullptr;
    CUDA_CHECK(cudaMalloc(&bytes, elems));
    CUDA_CHECK(cudaMemset(bytes, 7, elems));
    CUDA_CHECK(cudaMalloc(&hist, HIST_BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(hist, 0, HIST_BINS * sizeof(unsigned int)));
    histogram256<<<264, dim3(kHistBlock)>>>(bytes, elems, hist);
    CUDA_CHECK(cudaGetLastError());

    float taps[kRowTaps];
    for (int k = 0; k < kRowTaps; ++k) taps[k] = 1.0f / kRowTaps;
    CUDA_CHECK(cudaMemcpyToSymbol(c_row_taps, taps, sizeof(taps)));
    dim3 rgrid(div_up(n, ROW_TILE_W), n);
    conv_row<<<rgrid, dim3(ROW_TILE_W + 2 * ROW_RADIUS)>>>(c, a, n, n);
    CUDA_CHECK(cudaDeviceSynchronize());

    unsigned int h0 = 0;
    CUDA_CHECK(cudaMemcpy(&h0, hist + 7, sizeof(h0), cudaMemcpyDeviceToHost));
    std::printf("histogram bin 7   %u of %zu\n", h0, elems);

    CUDA_CHECK(cudaFree(hist));
    CUDA_CHECK(cudaFree(bytes));
    CUDA_CHECK(cudaFree(partial));
    CUDA_CHECK(cudaFree(c));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return 0;
}
