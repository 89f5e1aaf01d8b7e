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
