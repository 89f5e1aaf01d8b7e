// vendored code: excluded by the project's exclude = ["vendor"]
__global__ void vendored(float *out)
{
    __shared__ float t[32][32];
    t[threadIdx.x][0] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[0][threadIdx.x];
}

void launch_vendored(float *out)
{
    vendored<<<1, 32>>>(out);
}
