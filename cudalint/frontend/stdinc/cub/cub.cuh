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
  __device__ void InclusiveSum(T, T&, T&);  /* with the block aggregate */
  template <class Op> __device__ void InclusiveScan(T, T&, Op); template <class Op> __device__ void ExclusiveScan(T, T&, T, Op);
  template <class Op> __device__ void InclusiveScan(T, T&, Op, T&); template <class Op> __device__ void ExclusiveScan(T, T&, T, Op, T&);
  template <int N> __device__ void ExclusiveSum(T (&)[N], T (&)[N]); template <int N> __device__ void InclusiveSum(T (&)[N], T (&)[N]);
  /* with a block prefix callback (a functor the first warp calls with the aggregate) */
  template <class Op, class Cb> __device__ void InclusiveScan(T, T&, Op, Cb&);
  template <class Op, class Cb> __device__ void ExclusiveScan(T, T&, Op, Cb&);
  template <int N, class Op> __device__ void InclusiveScan(T (&)[N], T (&)[N], Op);
  template <int N, class Op, class Cb> __device__ void InclusiveScan(T (&)[N], T (&)[N], Op, Cb&);
  template <int N, class Op, class Cb> __device__ void ExclusiveScan(T (&)[N], T (&)[N], Op, Cb&);
};
template <class T, int THREADS = 32, int P = 0> class WarpScan {
 public:
  struct TempStorage { T __data[THREADS]; };
  __device__ WarpScan(TempStorage&);
  __device__ void ExclusiveSum(T, T&); __device__ void InclusiveSum(T, T&);
};
template <class T, int BLOCK_DIM_X, int ITEMS, BlockLoadAlgorithm A = BLOCK_LOAD_DIRECT, int Y = 1, int Z = 1, int P = 0>
class BlockLoad { public: struct TempStorage { T __data[BLOCK_DIM_X * ITEMS]; }; __device__ BlockLoad(); __device__ BlockLoad(TempStorage&);
  template <class I> __device__ void Load(I, T (&)[ITEMS]); template <class I> __device__ void Load(I, T (&)[ITEMS], int);
  /* with a default for the items past the valid ones */
  template <class I, class D> __device__ void Load(I, T (&)[ITEMS], int, D); };
template <class T, int BLOCK_DIM_X, int ITEMS, BlockStoreAlgorithm A = BLOCK_STORE_DIRECT, int Y = 1, int Z = 1, int P = 0>
class BlockStore { public: struct TempStorage { T __data[BLOCK_DIM_X * ITEMS]; }; __device__ BlockStore(); __device__ BlockStore(TempStorage&);
  template <class I> __device__ void Store(I, T (&)[ITEMS]); template <class I> __device__ void Store(I, T (&)[ITEMS], int); };
struct DeviceReduce {
  template <class... A> __host__ static cudaError_t Sum(A&&...); template <class... A> __host__ static cudaError_t Max(A&&...);
  template <class... A> __host__ static cudaError_t Min(A&&...); template <class... A> __host__ static cudaError_t Reduce(A&&...);
  template <class... A> __host__ static cudaError_t ArgMax(A&&...); template <class... A> __host__ static cudaError_t ArgMin(A&&...);
  template <class... A> __host__ static cudaError_t ReduceByKey(A&&...);
};
/* The device-wide algorithms: host entry points taking any arguments. */
#define _CL_CUB_HOST(name) template <class... A> __host__ static cudaError_t name(A&&...);
#define _CL_CUB_SORTS _CL_CUB_HOST(SortKeys) _CL_CUB_HOST(SortPairs) \
  _CL_CUB_HOST(SortKeysDescending) _CL_CUB_HOST(SortPairsDescending)
struct DeviceScan { _CL_CUB_HOST(ExclusiveSum) _CL_CUB_HOST(InclusiveSum) _CL_CUB_HOST(ExclusiveScan)
  _CL_CUB_HOST(InclusiveScan) _CL_CUB_HOST(ExclusiveSumByKey) _CL_CUB_HOST(InclusiveSumByKey) };
struct DeviceRadixSort { _CL_CUB_SORTS };
struct DeviceSegmentedRadixSort { _CL_CUB_SORTS };
struct DeviceSegmentedSort { _CL_CUB_SORTS _CL_CUB_HOST(StableSortKeys) _CL_CUB_HOST(StableSortPairs)
  _CL_CUB_HOST(StableSortKeysDescending) _CL_CUB_HOST(StableSortPairsDescending) };
struct DeviceMergeSort { _CL_CUB_HOST(SortKeys) _CL_CUB_HOST(SortPairs) _CL_CUB_HOST(StableSortKeys)
  _CL_CUB_HOST(StableSortPairs) };
struct DeviceSegmentedReduce { _CL_CUB_HOST(Sum) _CL_CUB_HOST(Max) _CL_CUB_HOST(Min)
  _CL_CUB_HOST(Reduce) _CL_CUB_HOST(ArgMax) _CL_CUB_HOST(ArgMin) };
struct DeviceSelect { _CL_CUB_HOST(If) _CL_CUB_HOST(Flagged) _CL_CUB_HOST(Unique) };
struct DevicePartition { _CL_CUB_HOST(If) _CL_CUB_HOST(Flagged) };
struct DeviceHistogram { _CL_CUB_HOST(HistogramEven) _CL_CUB_HOST(HistogramRange)
  _CL_CUB_HOST(MultiHistogramEven) _CL_CUB_HOST(MultiHistogramRange) };
struct DeviceRunLengthEncode { _CL_CUB_HOST(Encode) _CL_CUB_HOST(NonTrivialRuns) };
#undef _CL_CUB_SORTS
#undef _CL_CUB_HOST
template <class T> struct Uninitialized { T __data; __host__ __device__ T& Alias() { return __data; } };
}  // namespace cub
