// A 300-line CUDA file for bench/lsp_latency.py: a dozen kernels of the kinds a
// CUDA project holds (transposes, reductions, tiled GEMM, stencils, scans, histograms,
// softmax), each with its launch, some conflicting and some clean. Written for the
// benchmark; not measured on hardware.
#include <cstdint>

#define TILE 32
#define ROWS 8
#define BLOCK 256
#define RADIUS 4

__global__ void transpose_naive(float *out, const float *in, int n) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void reduce_interleaved(const float *in, float *out, int n) {
    __shared__ float partial[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK + tid;
    partial[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        if (tid % (2 * s) == 0)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

__global__ void reduce_strided_index(const float *in, float *out, int n) {
    __shared__ float partial[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK + tid;
    partial[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < BLOCK)
            partial[index] += partial[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

__global__ void reduce_sequential(const float *in, float *out, int n) {
    __shared__ float partial[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK * 2 + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    partial[tid] = v;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

template <int BM, int BN, int BK>
__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BM + ty;
    int col = blockIdx.x * BN + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

__global__ void sgemm_column_major_tile(const float *A, float *C, int K) {
    __shared__ float As[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[tx][ty] = A[(k0 + ty) * K + tx];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[tx][k];
        __syncthreads();
    }
    C[blockIdx.x * TILE + tx] = acc;
}

__global__ void stencil_1d(const float *in, float *out, int n) {
    __shared__ float window[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    window[l] = in[g];
    if (threadIdx.x < RADIUS) {
        window[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
        window[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int o = -RADIUS; o <= RADIUS; ++o)
        sum += window[l + o];
    out[g] = sum;
}

__global__ void stencil_2d(const float *in, float *out, int w) {
    __shared__ float halo[16 + 2][16 + 2];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    halo[threadIdx.y + 1][threadIdx.x + 1] = in[y * w + x];
    __syncthreads();
    float c = halo[threadIdx.y + 1][threadIdx.x + 1];
    float n = halo[threadIdx.y][threadIdx.x + 1];
    float s = halo[threadIdx.y + 2][threadIdx.x + 1];
    float e = halo[threadIdx.y + 1][threadIdx.x + 2];
    float o = halo[threadIdx.y + 1][threadIdx.x];
    out[y * w + x] = 4.0f * c - n - s - e - o;
}

__global__ void scan_blelloch(float *data) {
    __shared__ float temp[2 * BLOCK];
    int tid = threadIdx.x;
    temp[2 * tid] = data[2 * tid];
    temp[2 * tid + 1] = data[2 * tid + 1];
    int offset = 1;
    for (int d = BLOCK; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0)
        temp[2 * BLOCK - 1] = 0.0f;
    __syncthreads();
    data[2 * tid] = temp[2 * tid];
    data[2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void histogram_256(const unsigned char *in, unsigned *bins, int n) {
    __shared__ unsigned local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void softmax_rows(const float *in, float *out, int cols) {
    __shared__ float row_max[32];
    __shared__ float row_sum[32];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    const float *x = in + blockIdx.x * cols;
    float m = -1e30f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, x[c]);
    for (int o = 16; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0)
        row_max[warp] = m;
    __syncthreads();
    m = row_max[0];
    for (int w = 1; w < blockDim.x / 32; ++w)
        m = fmaxf(m, row_max[w]);
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        s += __expf(x[c] - m);
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0)
        row_sum[warp] = s;
    __syncthreads();
    s = row_sum[0];
    for (int w = 1; w < blockDim.x / 32; ++w)
        s += row_sum[w];
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        out[blockIdx.x * cols + c] = __expf(x[c] - m) / s;
}

__global__ void double_column(double *out, int n) {
    __shared__ double cells[32][16];
    cells[threadIdx.x][threadIdx.y] = threadIdx.x * 1.0;
    __syncthreads();
    out[blockIdx.x * n + threadIdx.x] = cells[threadIdx.x][0];
}

__global__ void vector_rows(float4 *out) {
    __shared__ float4 rows[64][8];
    rows[threadIdx.x][threadIdx.y] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    __syncthreads();
    out[threadIdx.y * 64 + threadIdx.x] = rows[threadIdx.x][threadIdx.y];
}

__global__ void byte_matrix(unsigned char *out) {
    __shared__ unsigned char bytes[32][32];
    bytes[threadIdx.y][threadIdx.x] = (unsigned char)threadIdx.x;
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = bytes[threadIdx.x][threadIdx.y];
}

struct Launch {
    int n;
    float *a;
    float *b;
    float *c;
};

static void run_transposes(const Launch &l) {
    dim3 grid(l.n / TILE, l.n / TILE);
    dim3 block(TILE, ROWS);
    transpose_naive<<<grid, block>>>(l.b, l.a, l.n);
    transpose_padded<<<grid, block>>>(l.b, l.a, l.n);
}

static void run_reductions(const Launch &l) {
    int blocks = (l.n + BLOCK - 1) / BLOCK;
    reduce_interleaved<<<blocks, BLOCK>>>(l.a, l.c, l.n);
    reduce_strided_index<<<blocks, BLOCK>>>(l.a, l.c, l.n);
    reduce_sequential<<<blocks / 2, BLOCK>>>(l.a, l.c, l.n);
}

static void run_gemms(const Launch &l) {
    dim3 grid(l.n / TILE, l.n / TILE);
    sgemm_tiled<32, 32, 32><<<grid, dim3(32, 32)>>>(l.a, l.b, l.c, l.n, l.n, l.n);
    sgemm_column_major_tile<<<l.n / TILE, dim3(TILE, TILE)>>>(l.a, l.c, l.n);
}

static void run_stencils(const Launch &l) {
    stencil_1d<<<l.n / BLOCK, BLOCK>>>(l.a, l.b, l.n);
    stencil_2d<<<dim3(l.n / 16, l.n / 16), dim3(16, 16)>>>(l.a, l.b, l.n);
}

static void run_misc(const Launch &l, const unsigned char *bytes, unsigned *bins) {
    scan_blelloch<<<1, BLOCK>>>(l.a);
    histogram_256<<<64, 256>>>(bytes, bins, l.n);
    softmax_rows<<<l.n, 256>>>(l.a, l.b, l.n);
    double_column<<<1, dim3(32, 16)>>>((double *)l.c, l.n);
    vector_rows<<<1, dim3(64, 8)>>>((float4 *)l.c);
    byte_matrix<<<1, dim3(32, 32)>>>((unsigned char *)l.c);
}

void run_all(int n, float *a, float *b, float *c, const unsigned char *bytes,
             unsigned *bins) {
    Launch l{n, a, b, c};
    run_transposes(l);
    run_reductions(l);
    run_gemms(l);
    run_stencils(l);
    run_misc(l, bytes, bins);
}

int main() {
    const int n = 1 << 12;
    float *a = nullptr, *b = nullptr, *c = nullptr;
    unsigned char *bytes = nullptr;
    unsigned *bins = nullptr;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * n * sizeof(float));
    cudaMalloc(&c, n * n * sizeof(float));
    cudaMalloc(&bytes, n);
    cudaMalloc(&bins, 256 * sizeof(unsigned));
    run_all(n, a, b, c, bytes, bins);
    cudaDeviceSynchronize();
    return 0;
}
