// Constructs that a later cudalint version will support: dynamic extern
// __shared__ arrays, arrays of structs, vector casts and pointer aliases, a
// template kernel instantiated at two strides, block-stride loops, a runtime
// stride, and a pair of accesses that nvcc merges into one 8-byte load.
// Their markers carry `later`: misses here are expected for now.
//
// Every warp of a launch performs the same access, so the measured average per
// warp is the per-warp cost (the loops: every iteration costs the same).

constexpr int GRID = 132;

// --------------------------------------------------------- dynamic shared memory

__global__ void dyn_ld_s33(float *out) {
    extern __shared__ float dyn[];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 33 * 32; i += 32)
        dyn[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 32 + t] = dyn[33 * t];  // measure: dyn_ld_s33 load.4 later
}

__global__ void dyn_st_s2(float *out, const float *in) {
    extern __shared__ float dyn[];
    const unsigned t = threadIdx.x;
    dyn[2 * t] = in[blockIdx.x * 32 + t];  // measure: dyn_st_s2 store.4 later
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = dyn[(blockIdx.x * 7u) % 64u];
}

// ------------------------------------------------------------- arrays of structs

struct Pair {
    float a;
    float b;
};

struct Vec3 {
    float x, y, z;
};

__global__ void struct_pair_a(float *out) {
    __shared__ Pair pr[32];
    const unsigned t = threadIdx.x;
    pr[31 - t].b = (float)t;
    pr[t].a = (float)(t + 1);
    __syncthreads();
    out[blockIdx.x * 32 + t] = pr[t].a;  // measure: struct_pair_a load.4 later
}

__global__ void struct_vec3_y(float *out) {
    __shared__ Vec3 v[32];
    const unsigned t = threadIdx.x;
    v[31 - t].y = (float)t;
    __syncthreads();
    out[blockIdx.x * 32 + t] = v[t].y;  // measure: struct_vec3_y load.4 later
}

// -------------------------------------------------------- vector casts, aliases

__global__ void cast_f4(float4 *out) {
    __shared__ float s[128];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 128; i += 32)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 32 + t] = reinterpret_cast<float4 *>(s)[t];  // measure: cast_f4 load.16 later
}

__global__ void cast_f2_s2(float2 *out) {
    __shared__ float s[128];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 128; i += 32)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 32 + t] = reinterpret_cast<float2 *>(s)[2 * t];  // measure: cast_f2_s2 load.8 later
}

__global__ void alias_ptr_s3(float *out) {
    __shared__ float s[160];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 160; i += 32)
        s[i] = (float)i;
    __syncthreads();
    const float *p = s + 32;
    out[blockIdx.x * 32 + t] = p[3 * t];  // measure: alias_ptr_s3 load.4 later
}

// ---------------------------------------------------------------------- template

template <int S>
__global__ void tmpl_stride(float *out) {
    __shared__ float s[32 * S];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 32 * S; i += 32)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 32 + t] = s[S * t];  // measure: tmpl_s2 load.4 targs=2 inst=S=2 later ;; tmpl_s32 load.4 targs=32 inst=S=32 later
}

// ------------------------------------------------------------------------- loops

__global__ void loop_ld_s2(float *out, int n) {
    __shared__ float s[512];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 512; i += 64)
        s[i] = (float)i;
    __syncthreads();
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += s[2 * i];  // measure: loop_ld_s2 load.4 later
    out[blockIdx.x * 64 + t] = acc;
}

__global__ void loop_st_s4(float *out, const float *in, int n) {
    __shared__ float s[512];
    const unsigned t = threadIdx.x;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[4 * i] = in[i];  // measure: loop_st_s4 store.4 later
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[(blockIdx.x * 4u) % 512u];
}

// ---------------------------------------------------------------- runtime stride
// k = 32 at the launch: cudalint can only say "32-way when k % 32 == 0".

__global__ void param_stride_k(float *out, int k) {
    __shared__ float s[1024];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1024; i += 32)
        s[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * 32 + t] = s[(t * k) % 1024];  // measure: param_stride_k load.4 later
}

// ------------------------------------------------------ compiler-merged accesses
// nvcc -O3 turns s[2t] + s[2t+1] into one LDS.64 (see issue 4).

__global__ void merged_pair(float *out) {
    __shared__ float s[64];
    const unsigned t = threadIdx.x;
    s[t] = (float)t;
    s[t + 32] = (float)(t + 32);
    __syncthreads();
    out[blockIdx.x * 32 + t] = s[2 * t] + s[2 * t + 1];  // measure: merged_pair load.8 later
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
    dyn_ld_s33<<<GRID, 32, 33 * 32 * sizeof(float)>>>((float *)out);
    dyn_st_s2<<<GRID, 32, 64 * sizeof(float)>>>((float *)out, (const float *)in);
    struct_pair_a<<<GRID, 32>>>((float *)out);
    struct_vec3_y<<<GRID, 32>>>((float *)out);
    cast_f4<<<GRID, 32>>>((float4 *)out);
    cast_f2_s2<<<GRID, 32>>>((float2 *)out);
    alias_ptr_s3<<<GRID, 32>>>((float *)out);
    tmpl_stride<2><<<GRID, 32>>>((float *)out);
    tmpl_stride<32><<<GRID, 32>>>((float *)out);
    loop_ld_s2<<<GRID, 64>>>((float *)out, 256);
    loop_st_s4<<<GRID, 32>>>((float *)out, (const float *)in, 128);
    param_stride_k<<<GRID, 32>>>((float *)out, 32);
    merged_pair<<<GRID, 32>>>((float *)out);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
