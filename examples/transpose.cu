// Matrix transpose through shared memory: out = in^T for an n x n matrix of
// floats, n a multiple of TILE_DIM.
//
// Each block copies a TILE_DIM x TILE_DIM tile of `in` into shared memory with
// coalesced row reads, then writes it out as a row of the transposed matrix.
// The block is TILE_DIM x BLOCK_ROWS threads, so each thread moves
// TILE_DIM / BLOCK_ROWS elements.
//
//   cudalint examples/transpose.cu
//
// reports the column read in transpose_naive: all 32 lanes of a warp read
// tile[threadIdx.x][...], 32 words that are 32 words apart, so they fall into
// one bank and the read takes 32 wavefronts instead of 1. transpose_padded adds
// one column of padding, which moves each row to the next bank: no conflict.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(float *out, const float *in, int n) {
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in, int n) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int n, bool padded) {
    dim3 grid(n / TILE_DIM, n / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    if (padded)
        transpose_padded<<<grid, block>>>(out, in, n);
    else
        transpose_naive<<<grid, block>>>(out, in, n);
}
