// Multicast-heavy 8- and 16-byte loads, guards, partial last warps, uniform
// offsets from kernel parameters, and 32-bit shared atomics.
//
// Unless a marker says `warps=...`, every warp of a launch performs the same
// access, so the measured average per warp is the per-warp cost. Kernels whose
// block ends in a partial warp list the cost of each warp of the block in their
// marker (`warps=W/I,...`: wavefronts/ideal per warp, derived by hand from the
// bank rule in docs/bank-model.md); the hardware's average must equal the mean
// of that list, and cudalint's worst warp must equal its maximum.

constexpr int GRID = 132;

// ------------------------------------------------- multicast 8- and 16-byte loads
// Lane l = threadIdx.x, one warp per block.

__global__ void mc_dbl_half(double *out) {
    __shared__ double d[64];
    const unsigned l = threadIdx.x;
    d[l] = (double)l;
    d[l + 32] = (double)(l + 32);
    __syncthreads();
    out[blockIdx.x * 32 + l] = d[l / 2];  // measure: mc_dbl_half load.8
}

__global__ void mc_dbl_mod16(double *out) {
    __shared__ double d[64];
    const unsigned l = threadIdx.x;
    d[l] = (double)l;
    d[l + 32] = (double)(l + 32);
    __syncthreads();
    out[blockIdx.x * 32 + l] = d[l % 16];  // measure: mc_dbl_mod16 load.8
}

__global__ void mc_dbl_quarter(double *out) {
    __shared__ double d[64];
    const unsigned l = threadIdx.x;
    d[l] = (double)l;
    d[l + 32] = (double)(l + 32);
    __syncthreads();
    out[blockIdx.x * 32 + l] = d[l / 4];  // measure: mc_dbl_quarter load.8
}

__global__ void mc_dbl_pairs_s2(double *out) {
    __shared__ double d[64];
    const unsigned l = threadIdx.x;
    d[l] = (double)l;
    d[l + 32] = (double)(l + 32);
    __syncthreads();
    out[blockIdx.x * 32 + l] = d[2 * (l / 2)];  // measure: mc_dbl_pairs_s2 load.8
}

__global__ void mc_dbl_xor1(double *out) {
    __shared__ double d[64];
    const unsigned l = threadIdx.x;
    d[l] = (double)l;
    d[l + 32] = (double)(l + 32);
    __syncthreads();
    out[blockIdx.x * 32 + l] = d[l ^ 1];  // measure: mc_dbl_xor1 load.8
}

__global__ void mc_dbl_col16(double *out) {
    __shared__ double d[512];
    const unsigned l = threadIdx.x;
    for (unsigned i = l; i < 512; i += 32)
        d[i] = (double)i;
    __syncthreads();
    out[blockIdx.x * 32 + l] = d[32 * (l % 16) + l / 16];  // measure: mc_dbl_col16 load.8
}

__global__ void mc_f2_half(float2 *out) {
    __shared__ float2 h[64];
    const unsigned l = threadIdx.x;
    h[l] = make_float2((float)l, 1.0f);
    h[l + 32] = make_float2((float)l, 2.0f);
    __syncthreads();
    out[blockIdx.x * 32 + l] = h[l / 2];  // measure: mc_f2_half load.8
}

__global__ void mc_f4_quarter(float4 *out) {
    __shared__ float4 q[64];
    const unsigned l = threadIdx.x;
    q[l] = make_float4((float)l, 1.0f, 2.0f, 3.0f);
    q[l + 32] = make_float4((float)l, 4.0f, 5.0f, 6.0f);
    __syncthreads();
    out[blockIdx.x * 32 + l] = q[l / 4];  // measure: mc_f4_quarter load.16
}

__global__ void mc_f4_half(float4 *out) {
    __shared__ float4 q[64];
    const unsigned l = threadIdx.x;
    q[l] = make_float4((float)l, 1.0f, 2.0f, 3.0f);
    q[l + 32] = make_float4((float)l, 4.0f, 5.0f, 6.0f);
    __syncthreads();
    out[blockIdx.x * 32 + l] = q[l / 2];  // measure: mc_f4_half load.16
}

__global__ void mc_f4_mod8(float4 *out) {
    __shared__ float4 q[64];
    const unsigned l = threadIdx.x;
    q[l] = make_float4((float)l, 1.0f, 2.0f, 3.0f);
    q[l + 32] = make_float4((float)l, 4.0f, 5.0f, 6.0f);
    __syncthreads();
    out[blockIdx.x * 32 + l] = q[l % 8];  // measure: mc_f4_mod8 load.16
}

__global__ void mc_f4_quads_s8(float4 *out) {
    __shared__ float4 q[64];
    const unsigned l = threadIdx.x;
    q[l] = make_float4((float)l, 1.0f, 2.0f, 3.0f);
    q[l + 32] = make_float4((float)l, 4.0f, 5.0f, 6.0f);
    __syncthreads();
    out[blockIdx.x * 32 + l] = q[8 * (l / 4)];  // measure: mc_f4_quads_s8 load.16
}

// Two warps per block; lane = threadIdx.x % 32.
__global__ void mc_dbl_lanemod_2w(double *out) {
    __shared__ double d[64];
    const unsigned t = threadIdx.x;
    d[t] = (double)t;
    __syncthreads();
    out[blockIdx.x * 64 + t] = d[(t % 32) / 2 + 16 * (t / 32)];  // measure: mc_dbl_lanemod_2w load.8
}

// ------------------------------------------------------------------------ guards

__global__ void g_lt16_s2(float *out) {
    __shared__ float s[64];
    const unsigned t = threadIdx.x;
    s[t] = (float)t;
    s[t + 32] = (float)(t + 32);
    __syncthreads();
    if (threadIdx.x < 16)
        out[blockIdx.x * 32 + t] = s[2 * t];  // measure: g_lt16_s2 load.4
}

__global__ void g_even_s16(float *out) {
    __shared__ float s[512];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 512; i += 32)
        s[i] = (float)i;
    __syncthreads();
    const unsigned lane = t % 32;
    if (lane % 2 == 0)
        out[blockIdx.x * 32 + t] = s[16 * t];  // measure: g_even_s16 load.4
}

__global__ void g_lt16_dbl(double *out) {
    __shared__ double d[32];
    const unsigned t = threadIdx.x;
    d[31 - t] = (double)t;
    __syncthreads();
    if (t < 16)
        out[blockIdx.x * 32 + t] = d[t];  // measure: g_lt16_dbl load.8
}

__global__ void g_lt8_f4(float4 *out) {
    __shared__ float4 q[32];
    const unsigned t = threadIdx.x;
    q[31 - t] = make_float4((float)t, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    if (t < 8)
        out[blockIdx.x * 32 + t] = q[t];  // measure: g_lt8_f4 load.16
}

__global__ void g_ge16_st_s32(float *out, const float *in) {
    __shared__ float s[1024];
    const unsigned t = threadIdx.x;
    const float v = in[blockIdx.x * 32 + t];
    if (t >= 16)
        s[32 * t] = v;  // measure: g_ge16_st_s32 store.4
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[(blockIdx.x * 7u) % 1024u];
}

__global__ void g_odd_st_dbl(double *out, const double *in) {
    __shared__ double d[32];
    const unsigned t = threadIdx.x;
    const double v = in[blockIdx.x * 32 + t];
    if (t % 2 == 1)
        d[t] = v;  // measure: g_odd_st_dbl store.8
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = d[(blockIdx.x * 7u) % 32u];
}

// ------------------------------------------------------------ partial last warps

// blockDim 48: warp 0 has 32 lanes, warp 1 has 16 (threads 32..47).
__global__ void pw48_ld_s2(float *out) {
    __shared__ float s[96];
    const unsigned t = threadIdx.x;
    s[t] = (float)t;
    s[t + 48] = (float)(t + 48);
    __syncthreads();
    out[blockIdx.x * 48 + t] = s[2 * t];  // measure: pw48_ld_s2 load.4 warps=2/1,1/1
}

__global__ void pw48_ld_mod16_s32(float *out) {
    __shared__ float s[512];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 512; i += 48)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 48 + t] = s[32 * (t % 16)];  // measure: pw48_ld_mod16_s32 load.4
}

__global__ void pw48_ld_f4(float4 *out) {
    __shared__ float4 q[48];
    const unsigned t = threadIdx.x;
    q[47 - t] = make_float4((float)t, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    out[blockIdx.x * 48 + t] = q[t];  // measure: pw48_ld_f4 load.16 warps=4/4,2/2
}

// blockDim 100: warps 0..2 are full, warp 3 has 4 lanes (threads 96..99).
__global__ void pw100_ld_dbl(double *out) {
    __shared__ double d[100];
    const unsigned t = threadIdx.x;
    d[99 - t] = (double)t;
    __syncthreads();
    out[blockIdx.x * 100 + t] = d[t];  // measure: pw100_ld_dbl load.8 warps=2/2,2/2,2/2,1/1
}

__global__ void pw100_ld_s4(float *out) {
    __shared__ float s[400];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 400; i += 100)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 100 + t] = s[4 * t];  // measure: pw100_ld_s4 load.4 warps=4/1,4/1,4/1,1/1
}

__global__ void pw100_st_s33(float *out, const float *in) {
    __shared__ float s[3300];
    const unsigned t = threadIdx.x;
    s[33 * t] = in[blockIdx.x * 100 + t];  // measure: pw100_st_s33 store.4
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[(blockIdx.x * 7u) % 3300u];
}

// ------------------------------------------------ uniform offsets (kernel params)
// The host passes k = 5, 3, 3, 3, 7, 1 below; the cost does not depend on k.

__global__ void u_f32_k(float *out, int k) {
    __shared__ float s[64];
    const unsigned t = threadIdx.x;
    s[t] = (float)t;
    s[t + 32] = (float)(t + 32);
    __syncthreads();
    out[blockIdx.x * 32 + t] = s[threadIdx.x + k];  // measure: u_f32_k load.4
}

__global__ void u_char_k(unsigned char *out, int k) {
    __shared__ unsigned char c[64];
    const unsigned t = threadIdx.x;
    c[t] = (unsigned char)t;
    c[t + 32] = (unsigned char)(t + 32);
    __syncthreads();
    out[blockIdx.x * 32 + t] = c[threadIdx.x + k];  // measure: u_char_k load.1
}

__global__ void u_char_st_k(unsigned char *out, const unsigned char *in, int k) {
    __shared__ unsigned char c[160];
    const unsigned t = threadIdx.x;
    c[4 * t + k] = in[blockIdx.x * 32 + t];  // measure: u_char_st_k store.1
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = c[(blockIdx.x * 7u) % 160u];
}

__global__ void u_dbl_k(double *out, int k) {
    __shared__ double d[64];
    const unsigned t = threadIdx.x;
    d[t] = (double)t;
    d[t + 32] = (double)(t + 32);
    __syncthreads();
    out[blockIdx.x * 32 + t] = d[t + k];  // measure: u_dbl_k load.8
}

__global__ void u_f32_s32_k(float *out, int k) {
    __shared__ float s[1056];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1056; i += 32)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 32 + t] = s[32 * t + k];  // measure: u_f32_s32_k load.4
}

__global__ void u_short_k(unsigned short *out, int k) {
    __shared__ unsigned short h[96];
    const unsigned t = threadIdx.x;
    h[t] = (unsigned short)t;
    h[t + 32] = (unsigned short)(t + 32);
    h[t + 64] = (unsigned short)(t + 64);
    __syncthreads();
    out[blockIdx.x * 32 + t] = h[2 * t + k];  // measure: u_short_k load.2
}

// -------------------------------------------------------- 32-bit shared atomics
// No other shared instruction in these kernels but the read-back by one lane
// (at_s1, at_same) or none at all (the others write the atomic's result out).

__global__ void at_s1(unsigned *out) {
    __shared__ unsigned h[32];
    const unsigned t = threadIdx.x;
    atomicAdd(&h[t], 1u);  // measure: at_s1 atomic.4
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = h[blockIdx.x % 32];
}

__global__ void at_same(unsigned *out) {
    __shared__ unsigned h[32];
    const unsigned t = threadIdx.x;
    atomicAdd(&h[0], 1u);  // measure: at_same atomic.4
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = h[blockIdx.x % 32];
}

__global__ void at_s2(unsigned *out, const unsigned *in) {
    __shared__ unsigned h[64];
    const unsigned t = threadIdx.x;
    out[blockIdx.x * 32 + t] = atomicAdd(&h[2 * t], in[t]);  // measure: at_s2 atomic.4
}

__global__ void at_mod4_s32(unsigned *out) {
    __shared__ unsigned h[128];
    const unsigned t = threadIdx.x;
    out[blockIdx.x * 32 + t] = atomicAdd(&h[32 * (t % 4)], 1u);  // measure: at_mod4_s32 atomic.4
}

__global__ void at_s32(unsigned *out) {
    __shared__ unsigned h[1024];
    const unsigned t = threadIdx.x;
    out[blockIdx.x * 32 + t] = atomicAdd(&h[32 * t], 1u);  // measure: at_s32 atomic.4
}

__global__ void init_input(unsigned *in, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        in[i] = i * 2654435761u;
}

int main() {
    void *out = 0, *in = 0;
    const unsigned bytes = 1u << 22;
    cudaMalloc(&out, bytes);
    cudaMalloc(&in, bytes);
    init_input<<<64, 256>>>((unsigned *)in, bytes / 4);
    mc_dbl_half<<<GRID, 32>>>((double *)out);
    mc_dbl_mod16<<<GRID, 32>>>((double *)out);
    mc_dbl_quarter<<<GRID, 32>>>((double *)out);
    mc_dbl_pairs_s2<<<GRID, 32>>>((double *)out);
    mc_dbl_xor1<<<GRID, 32>>>((double *)out);
    mc_dbl_col16<<<GRID, 32>>>((double *)out);
    mc_f2_half<<<GRID, 32>>>((float2 *)out);
    mc_f4_quarter<<<GRID, 32>>>((float4 *)out);
    mc_f4_half<<<GRID, 32>>>((float4 *)out);
    mc_f4_mod8<<<GRID, 32>>>((float4 *)out);
    mc_f4_quads_s8<<<GRID, 32>>>((float4 *)out);
    mc_dbl_lanemod_2w<<<GRID, 64>>>((double *)out);
    g_lt16_s2<<<GRID, 32>>>((float *)out);
    g_even_s16<<<GRID, 32>>>((float *)out);
    g_lt16_dbl<<<GRID, 32>>>((double *)out);
    g_lt8_f4<<<GRID, 32>>>((float4 *)out);
    g_ge16_st_s32<<<GRID, 32>>>((float *)out, (const float *)in);
    g_odd_st_dbl<<<GRID, 32>>>((double *)out, (const double *)in);
    pw48_ld_s2<<<GRID, 48>>>((float *)out);
    pw48_ld_mod16_s32<<<GRID, 48>>>((float *)out);
    pw48_ld_f4<<<GRID, 48>>>((float4 *)out);
    pw100_ld_dbl<<<GRID, 100>>>((double *)out);
    pw100_ld_s4<<<GRID, 100>>>((float *)out);
    pw100_st_s33<<<GRID, 100>>>((float *)out, (const float *)in);
    u_f32_k<<<GRID, 32>>>((float *)out, 5);
    u_char_k<<<GRID, 32>>>((unsigned char *)out, 3);
    u_char_st_k<<<GRID, 32>>>((unsigned char *)out, (const unsigned char *)in, 3);
    u_dbl_k<<<GRID, 32>>>((double *)out, 3);
    u_f32_s32_k<<<GRID, 32>>>((float *)out, 7);
    u_short_k<<<GRID, 32>>>((unsigned short *)out, 1);
    at_s1<<<GRID, 32>>>((unsigned *)out);
    at_same<<<GRID, 32>>>((unsigned *)out);
    at_s2<<<GRID, 32>>>((unsigned *)out, (const unsigned *)in);
    at_mod4_s32<<<GRID, 32>>>((unsigned *)out);
    at_s32<<<GRID, 32>>>((unsigned *)out);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
