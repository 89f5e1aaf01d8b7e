// Access patterns for the bank map snapshots (tests/test_bankmap.py).
__global__ void patterns(float *out) {
    __shared__ float f[32 * 32];
    __shared__ double d[32 * 16];
    __shared__ float4 v[64];
    unsigned l = threadIdx.x;
    out[l] = f[l];
    __syncthreads();
    out[l] = f[2 * l];
    __syncthreads();
    out[l] = f[32 * l];
    __syncthreads();
    out[l] = f[l / 4];
    __syncthreads();
    out[l] = d[32 * (l % 16) + l / 16];
    __syncthreads();
    float4 x = v[2 * l];
    out[l] = x.x;
    f[l % 8] = 1.0f;
    __syncthreads();
    out[l] = f[32 * (l / 16)];
}

void launch(float *out) {
    patterns<<<1, 32>>>(out);
}

// A column walk of a 32 x 32 tile that a pad of one word fixes (the before/after SVG):
// lane l of warp 0 (threadIdx.y = 0) reads tile[l][0], byte 128 l, word 32 l: all in
// bank 0, 32 wavefronts. With tile[32][33]: byte 132 l, word 33 l, bank l: 1 wavefront.
__global__ void columns(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch_columns(float *out) {
    columns<<<1, dim3(32, 32)>>>(out);
}
