// 2-D and 3-D tiles: row and column accesses to float t[32][32], padded
// t[32][33] and XOR-swizzled tiles, with block shapes (32,8), (32,32), (16,16),
// (8,32), (64,4) and 3-D blocks (32,4,2), (8,8,4).
//
// One launch per kernel; every warp of a block performs the same access up to a
// rotation of the banks, so the measured average per warp is the per-warp cost.
// Load kernels fill their array with stores first; store kernels read one element
// back with one thread. Each kernel holds exactly one measured shared instruction.

constexpr int GRID = 132;

// ---------------------------------------------------------------- block (32, 8)

__global__ void t2d_row_st_32x8(float *out, const float *in) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[ty][tx] = in[blockIdx.x * 256 + ty * 32 + tx];  // measure: t2d_row_st_32x8 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = t[blockIdx.x % 8][(blockIdx.x * 7u) % 32];
}

__global__ void t2d_col_ld_32x8(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 32 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = t[tx][ty];  // measure: t2d_col_ld_32x8 load.4
}

__global__ void t2d_pad_col_ld_32x8(float *out) {
    __shared__ float t[32][33];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 32 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = t[tx][ty];  // measure: t2d_pad_col_ld_32x8 load.4
}

__global__ void t2d_xor_col_ld_32x8(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 32 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = t[tx][ty ^ tx];  // measure: t2d_xor_col_ld_32x8 load.4
}

__global__ void t2d_dbl_col_ld_32x8(double *out) {
    __shared__ double t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 32 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (double)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = t[tx][ty];  // measure: t2d_dbl_col_ld_32x8 load.8
}

__global__ void t2d_dbl_pad_col_ld_32x8(double *out) {
    __shared__ double t[32][33];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 32 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (double)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = t[tx][ty];  // measure: t2d_dbl_pad_col_ld_32x8 load.8
}

// --------------------------------------------------------------- block (32, 32)

__global__ void t2d_col_st_32x32(float *out, const float *in) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[tx][ty] = in[blockIdx.x * 1024 + ty * 32 + tx];  // measure: t2d_col_st_32x32 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = t[blockIdx.x % 32][(blockIdx.x * 7u) % 32];
}

__global__ void t2d_pad_col_st_32x32(float *out, const float *in) {
    __shared__ float t[32][33];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[tx][ty] = in[blockIdx.x * 1024 + ty * 32 + tx];  // measure: t2d_pad_col_st_32x32 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = t[blockIdx.x % 32][(blockIdx.x * 7u) % 32];
}

__global__ void t2d_xor_row_st_32x32(float *out, const float *in) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[ty][tx ^ ty] = in[blockIdx.x * 1024 + ty * 32 + tx];  // measure: t2d_xor_row_st_32x32 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = t[blockIdx.x % 32][(blockIdx.x * 7u) % 32];
}

__global__ void t2d_row_ld_32x32(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[(tx * 5 + ty) % 32][ty] = (float)(tx + ty);
    __syncthreads();
    out[blockIdx.x * 1024 + ty * 32 + tx] = t[ty][tx];  // measure: t2d_row_ld_32x32 load.4
}

__global__ void t2d_xor_col_ld_32x32(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[ty][tx] = (float)(tx + ty);
    __syncthreads();
    out[blockIdx.x * 1024 + ty * 32 + tx] = t[tx][tx ^ ty];  // measure: t2d_xor_col_ld_32x32 load.4
}

// --------------------------------------------------------------- block (16, 16)

__global__ void t2d_row_ld_16x16(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 16 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 16 + tx] = t[ty][tx];  // measure: t2d_row_ld_16x16 load.4
}

__global__ void t2d_col_ld_16x16(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 16 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 16 + tx] = t[tx][ty];  // measure: t2d_col_ld_16x16 load.4
}

__global__ void t2d_pad_col_ld_16x16(float *out) {
    __shared__ float t[32][33];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 16 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 16 + tx] = t[tx][ty];  // measure: t2d_pad_col_ld_16x16 load.4
}

__global__ void t2d_xor_col_ld_16x16(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 16 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 16 + tx] = t[tx][ty ^ tx];  // measure: t2d_xor_col_ld_16x16 load.4
}

__global__ void t2d_tile16_row_ld_16x16(float *out) {
    __shared__ float q[16][16];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    q[tx][ty] = (float)(tx + ty);
    __syncthreads();
    out[blockIdx.x * 256 + ty * 16 + tx] = q[ty][tx];  // measure: t2d_tile16_row_ld_16x16 load.4
}

__global__ void t2d_tile16_pad_col_st_16x16(float *out, const float *in) {
    __shared__ float q[16][17];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    q[tx][ty] = in[blockIdx.x * 256 + ty * 16 + tx];  // measure: t2d_tile16_pad_col_st_16x16 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = q[blockIdx.x % 16][(blockIdx.x * 7u) % 16];
}

// --------------------------------------------------------------- block (8, 32)

__global__ void t2d_row_ld_8x32(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 8 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 8 + tx] = t[ty][tx];  // measure: t2d_row_ld_8x32 load.4
}

__global__ void t2d_col_ld_8x32(float *out) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 8 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 8 + tx] = t[tx][ty];  // measure: t2d_col_ld_8x32 load.4
}

__global__ void t2d_pad_col_ld_8x32(float *out) {
    __shared__ float t[32][33];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 8 + tx; i < 32 * 32; i += 256)
        t[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 8 + tx] = t[tx][ty];  // measure: t2d_pad_col_ld_8x32 load.4
}

__global__ void t2d_row_st_8x32(float *out, const float *in) {
    __shared__ float t[32][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    t[ty][tx] = in[blockIdx.x * 256 + ty * 8 + tx];  // measure: t2d_row_st_8x32 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = t[blockIdx.x % 32][(blockIdx.x * 7u) % 8];
}

// --------------------------------------------------------------- block (64, 4)

__global__ void t2d_row_ld_64x4(float *out) {
    __shared__ float w[4][64];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    w[(ty + 1) % 4][tx] = (float)(tx + ty);
    __syncthreads();
    out[blockIdx.x * 256 + ty * 64 + tx] = w[ty][tx];  // measure: t2d_row_ld_64x4 load.4
}

__global__ void t2d_col_ld_64x4(float *out) {
    __shared__ float c[64][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 64 + tx; i < 64 * 32; i += 256)
        c[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 64 + tx] = c[tx][ty];  // measure: t2d_col_ld_64x4 load.4
}

__global__ void t2d_pad_col_st_64x4(float *out, const float *in) {
    __shared__ float c[64][33];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    c[tx][ty] = in[blockIdx.x * 256 + ty * 64 + tx];  // measure: t2d_pad_col_st_64x4 store.4
    __syncthreads();
    if (tx == 0 && ty == 0)
        out[blockIdx.x] = c[blockIdx.x % 64][(blockIdx.x * 7u) % 4];
}

__global__ void t2d_xor_col_ld_64x4(float *out) {
    __shared__ float c[64][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (unsigned i = ty * 64 + tx; i < 64 * 32; i += 256)
        c[i / 32][i % 32] = (float)i;
    __syncthreads();
    out[blockIdx.x * 256 + ty * 64 + tx] = c[tx][ty ^ (tx % 32)];  // measure: t2d_xor_col_ld_64x4 load.4
}

// ---------------------------------------------------------- 3-D block (32, 4, 2)

__global__ void t3d_row_ld_32x4x2(float *out) {
    __shared__ float v[2][4][32];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    v[1 - tz][ty][tx] = (float)(tx + ty + tz);
    __syncthreads();
    out[blockIdx.x * 256 + (tz * 4 + ty) * 32 + tx] = v[tz][ty][tx];  // measure: t3d_row_ld_32x4x2 load.4
}

__global__ void t3d_mid_ld_32x4x2(float *out) {
    __shared__ float u[2][32][4];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    u[1 - tz][(tx + 1) % 32][ty] = (float)(tx + ty + tz);
    __syncthreads();
    out[blockIdx.x * 256 + (tz * 4 + ty) * 32 + tx] = u[tz][tx][ty];  // measure: t3d_mid_ld_32x4x2 load.4
}

__global__ void t3d_col_st_32x4x2(float *out, const float *in) {
    __shared__ float c[32][2][4];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    c[tx][tz][ty] = in[blockIdx.x * 256 + (tz * 4 + ty) * 32 + tx];  // measure: t3d_col_st_32x4x2 store.4
    __syncthreads();
    if (tx == 0 && ty == 0 && tz == 0)
        out[blockIdx.x] = c[blockIdx.x % 32][blockIdx.x % 2][(blockIdx.x * 7u) % 4];
}

// ----------------------------------------------------------- 3-D block (8, 8, 4)

__global__ void t3d_row_ld_8x8x4(float *out) {
    __shared__ float v[4][8][8];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    v[3 - tz][ty][tx] = (float)(tx + ty + tz);
    __syncthreads();
    out[blockIdx.x * 256 + (tz * 8 + ty) * 8 + tx] = v[tz][ty][tx];  // measure: t3d_row_ld_8x8x4 load.4
}

__global__ void t3d_col_ld_8x8x4(float *out) {
    __shared__ float c[8][8][4];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    c[7 - tx][ty][tz] = (float)(tx + ty + tz);
    __syncthreads();
    out[blockIdx.x * 256 + (tz * 8 + ty) * 8 + tx] = c[tx][ty][tz];  // measure: t3d_col_ld_8x8x4 load.4
}

__global__ void t3d_pad_ld_8x8x4(float *out) {
    __shared__ float c[8][8][5];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    c[7 - tx][ty][tz] = (float)(tx + ty + tz);
    __syncthreads();
    out[blockIdx.x * 256 + (tz * 8 + ty) * 8 + tx] = c[tx][ty][tz];  // measure: t3d_pad_ld_8x8x4 load.4
}

__global__ void t3d_st_8x8x4(float *out, const float *in) {
    __shared__ float v[8][4][8];
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    v[tx][tz][ty] = in[blockIdx.x * 256 + (tz * 8 + ty) * 8 + tx];  // measure: t3d_st_8x8x4 store.4
    __syncthreads();
    if (tx == 0 && ty == 0 && tz == 0)
        out[blockIdx.x] = v[blockIdx.x % 8][blockIdx.x % 4][(blockIdx.x * 7u) % 8];
}

__global__ void init_input(unsigned *in, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        in[i] = i * 2654435761u;
}

int main() {
    float *out = 0, *in = 0;
    const unsigned bytes = 1u << 22;
    cudaMalloc((void **)&out, bytes);
    cudaMalloc((void **)&in, bytes);
    init_input<<<64, 256>>>((unsigned *)in, bytes / 4);
    t2d_row_st_32x8<<<GRID, dim3(32, 8)>>>(out, in);
    t2d_col_ld_32x8<<<GRID, dim3(32, 8)>>>(out);
    t2d_pad_col_ld_32x8<<<GRID, dim3(32, 8)>>>(out);
    t2d_xor_col_ld_32x8<<<GRID, dim3(32, 8)>>>(out);
    t2d_dbl_col_ld_32x8<<<GRID, dim3(32, 8)>>>((double *)out);
    t2d_dbl_pad_col_ld_32x8<<<GRID, dim3(32, 8)>>>((double *)out);
    t2d_col_st_32x32<<<GRID, dim3(32, 32)>>>(out, in);
    t2d_pad_col_st_32x32<<<GRID, dim3(32, 32)>>>(out, in);
    t2d_xor_row_st_32x32<<<GRID, dim3(32, 32)>>>(out, in);
    t2d_row_ld_32x32<<<GRID, dim3(32, 32)>>>(out);
    t2d_xor_col_ld_32x32<<<GRID, dim3(32, 32)>>>(out);
    t2d_row_ld_16x16<<<GRID, dim3(16, 16)>>>(out);
    t2d_col_ld_16x16<<<GRID, dim3(16, 16)>>>(out);
    t2d_pad_col_ld_16x16<<<GRID, dim3(16, 16)>>>(out);
    t2d_xor_col_ld_16x16<<<GRID, dim3(16, 16)>>>(out);
    t2d_tile16_row_ld_16x16<<<GRID, dim3(16, 16)>>>(out);
    t2d_tile16_pad_col_st_16x16<<<GRID, dim3(16, 16)>>>(out, in);
    t2d_row_ld_8x32<<<GRID, dim3(8, 32)>>>(out);
    t2d_col_ld_8x32<<<GRID, dim3(8, 32)>>>(out);
    t2d_pad_col_ld_8x32<<<GRID, dim3(8, 32)>>>(out);
    t2d_row_st_8x32<<<GRID, dim3(8, 32)>>>(out, in);
    t2d_row_ld_64x4<<<GRID, dim3(64, 4)>>>(out);
    t2d_col_ld_64x4<<<GRID, dim3(64, 4)>>>(out);
    t2d_pad_col_st_64x4<<<GRID, dim3(64, 4)>>>(out, in);
    t2d_xor_col_ld_64x4<<<GRID, dim3(64, 4)>>>(out);
    t3d_row_ld_32x4x2<<<GRID, dim3(32, 4, 2)>>>(out);
    t3d_mid_ld_32x4x2<<<GRID, dim3(32, 4, 2)>>>(out);
    t3d_col_st_32x4x2<<<GRID, dim3(32, 4, 2)>>>(out, in);
    t3d_row_ld_8x8x4<<<GRID, dim3(8, 8, 4)>>>(out);
    t3d_col_ld_8x8x4<<<GRID, dim3(8, 8, 4)>>>(out);
    t3d_pad_ld_8x8x4<<<GRID, dim3(8, 8, 4)>>>(out);
    t3d_st_8x8x4<<<GRID, dim3(8, 8, 4)>>>(out, in);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
