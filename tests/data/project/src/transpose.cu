#include "tile.h"

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE_DIM + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * TILE_DIM + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch_transpose(float *out, const float *in)
{
    transpose<<<1, dim3(TILE_DIM, TILE_DIM)>>>(out, in);
}
