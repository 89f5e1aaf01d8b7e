/* CUB is device code with __shared__ TempStorage of its own: cudalint cannot model it
   from a stub. This stand-in keeps the names (BlockReduce, WarpReduce, BlockScan, ...)
   parseable so that the rest of the file is analyzed; CUB's own shared memory is not. */
#pragma once
#pragma clang system_header
namespace cub {
struct Sum { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; } };
struct Max { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
struct Min { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE };
template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm A = BLOCK_REDUCE_WARP_REDUCTIONS, int Y = 1, int Z = 1, int P = 0>
class BlockReduce {
 public:
  struct TempStorage { T __data[BLOCK_DIM_X * Y * Z / 32 + 1]; };
  __device__ BlockReduce(); __device__ BlockReduce(TempStorage&);
  template <class Op> __device__ T Reduce(T, Op); template <class Op> __device__ T Reduce(T, Op, int);
  __device__ T Sum(T); __device__ T Sum(T, int);
  template <int N> __device__ T Sum(T (&)[N]);
};
template <class T, int THREADS = 32, int P = 0> class WarpReduce {
 public:
  struct TempStorage { T __data[THREADS]; };
  __device__ WarpReduce(TempStorage&);
  template <class Op> __device__ T Reduce(T, Op); __device__ T Sum(T); __device__ T Sum(T, int);
};
template <class T, int BLOCK_DIM_X, BlockScanAlgorithm A = BLOCK_SCAN_RAKING, int Y = 1, int Z = 1, int P = 0>
class BlockScan {
 public:
  struct TempStorage { T __data[BLOCK_DIM_X * Y * Z + 1]; };
  __device__ BlockScan(); __device__ BlockScan(TempStorage&);
  __device__ void ExclusiveSum(T, T&); __device__ void ExclusiveSum(T, T&, T&); __device__ void InclusiveSum(T, T&);
  template <class Op> __device__ void InclusiveScan(T, T&, Op); template <class Op> __device__ void ExclusiveScan(T, T&, T, Op);
  template <int N> __device__ void ExclusiveSum(T (&)[N], T (&)[N]); template <int N> __device__ void InclusiveSum(T (&)[N], T (&)[N]);
};
template <class T, int THREADS = 32, int P = 0> class WarpScan {
 public:
  struct TempStorage { T __data[THREADS]; };
  __device__ WarpScan(TempStorage&);
  __device__ void ExclusiveSum(T, T&); __device__ void InclusiveSum(T, T&);
};
template <class T, int BLOCK_DIM_X, int ITEMS, BlockLoadAlgorithm A = BLOCK_LOAD_DIRECT, int Y = 1, int Z = 1, int P = 0>
class BlockLoad { public: struct TempStorage { T __data[BLOCK_DIM_X * ITEMS]; }; __device__ BlockLoad(); __device__ BlockLoad(TempStorage&);
  template <class I> __device__ void Load(I, T (&)[ITEMS]); template <class I> __device__ void Load(I, T (&)[ITEMS], int); };
template <class T, int BLOCK_DIM_X, int ITEMS, BlockStoreAlgorithm A = BLOCK_STORE_DIRECT, int Y = 1, int Z = 1, int P = 0>
class BlockStore { public: struct TempStorage { T __data[BLOCK_DIM_X * ITEMS]; }; __device__ BlockStore(); __device__ BlockStore(TempStorage&);
  template <class I> __device__ void Store(I, T (&)[ITEMS]); template <class I> __device__ void Store(I, T (&)[ITEMS], int); };
struct DeviceReduce {
  template <class... A> __host__ static cudaError_t Sum(A&&...); template <class... A> __host__ static cudaError_t Max(A&&...);
  template <class... A> __host__ static cudaError_t Min(A&&...); template <class... A> __host__ static cudaError_t Reduce(A&&...);
};
struct DeviceScan { template <class... A> __host__ static cudaError_t ExclusiveSum(A&&...); template <class... A> __host__ static cudaError_t InclusiveSum(A&&...); };
struct DeviceRadixSort { template <class... A> __host__ static cudaError_t SortKeys(A&&...); template <class... A> __host__ static cudaError_t SortPairs(A&&...); };
template <class T> struct Uninitialized { T __data; __host__ __device__ T& Alias() { return __data; } };
}  // namespace cub
