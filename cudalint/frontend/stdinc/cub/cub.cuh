/* CUB is device code with __shared__ TempStorage of its own: cudalint cannot model it
   from a stub. This stand-in keeps the names (BlockReduce, WarpReduce, BlockScan, ...)
   parseable so that the rest of the file is analyzed; CUB's own algorithms are not.
   What a kernel indexes through is exact: each TempStorage has the size and alignment of
   CUB's (CCCL 2.x/3.x: the members of BlockExchange, BlockScanWarpScans, BlockScanRaking,
   BlockReduceWarpReductions/Raking, WarpScanShfl/Smem, WarpReduceShfl/Smem, Uninitialized),
   and BlockRakingLayout's grid, padding and PlacementPtr/RakingPtr are CUB's own code
   (mamba's reverse scan rakes through them). */
#pragma once
#pragma clang system_header
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#define CUB_PTX_WARP_THREADS 32
#define CUB_PTX_LOG_WARP_THREADS 5
#define CUB_PTX_SMEM_BANKS 32
#define CUB_PTX_LOG_SMEM_BANKS 5
#define CUB_WARP_THREADS(unused) 32
#define CUB_LOG_WARP_THREADS(unused) 5
#define CUB_SMEM_BANKS(unused) 32
#define CUB_LOG_SMEM_BANKS(unused) 5
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_QUOTIENT_FLOOR(x, y) ((x) / (y))
#define CUB_QUOTIENT_CEILING(x, y) (((x) + (y) - 1) / (y))
#define CUB_ROUND_UP_NEAREST(x, y) ((((x) + (y) - 1) / (y)) * (y))
#define CUB_ROUND_DOWN_NEAREST(x, y) (((x) / (y)) * y)
#define CUB_RUNTIME_FUNCTION __host__ __device__
#define CUB_STATIC_ASSERT(cond, msg) static_assert(cond, #msg)
namespace cub {
namespace detail {
constexpr int warp_threads = 32;
constexpr int log2_warp_threads = 5;
constexpr int smem_banks = 32;
constexpr int log2_smem_banks = 5;
template <bool C, class A, class B> struct _cl_if { using type = A; };
template <class A, class B> struct _cl_if<false, A, B> { using type = B; };
template <bool C, class A, class B> using _If = typename _cl_if<C, A, B>::type;
constexpr int _cl_min(int a, int b) { return b < a ? b : a; }
constexpr int _cl_max(int a, int b) { return a < b ? b : a; }
}  // namespace detail
template <int N, int CURRENT_VAL = N, int COUNT = 0>
struct Log2 { enum { VALUE = Log2<N, (CURRENT_VAL >> 1), COUNT + 1>::VALUE }; };
template <int N, int COUNT>
struct Log2<N, 0, COUNT> { enum { VALUE = (1 << (COUNT - 1) < N) ? COUNT : COUNT - 1 }; };
template <int N> struct PowerOfTwo { enum { VALUE = ((N & (N - 1)) == 0) }; };
struct NullType {};
template <class T> struct UnitWord {
  template <int S> struct _fits { enum { VALUE = sizeof(T) % S == 0 && alignof(T) % S == 0 }; };
  using ShuffleWord = detail::_If<_fits<4>::VALUE, unsigned int,
                                  detail::_If<_fits<2>::VALUE, unsigned short, unsigned char>>;
  using VolatileWord = detail::_If<_fits<8>::VALUE, unsigned long long, ShuffleWord>;
  using DeviceWord = detail::_If<_fits<16>::VALUE, ulonglong2, VolatileWord>;
};
/* CUB's Uninitialized is an array of the biggest device word (up to 16 bytes) that T's
   size and alignment are multiples of: T's size, and T's alignment up to 16. A T member
   has both where T's alignment is at most 16, and keeps the alias a plain member. */
template <class T, bool = (alignof(T) <= 16)> struct Uninitialized {
  T __data;
  __host__ __device__ __forceinline__ T& Alias() { return __data; }
};
template <class T> struct Uninitialized<T, false> {
  using DeviceWord = typename UnitWord<T>::DeviceWord;
  DeviceWord storage[sizeof(T) / sizeof(DeviceWord)];
  __host__ __device__ __forceinline__ T& Alias() { return reinterpret_cast<T&>(*this); }
};
/* util_ptx.cuh */
__device__ __forceinline__ int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z) {
  return ((block_dim_z == 1) ? 0 : (threadIdx.z * block_dim_x * block_dim_y))
       + ((block_dim_y == 1) ? 0 : (threadIdx.y * block_dim_x)) + threadIdx.x;
}
__device__ unsigned int LaneId();
__device__ unsigned int WarpId();
__device__ unsigned int LaneMaskLt();
__device__ unsigned int LaneMaskLe();
__device__ unsigned int LaneMaskGt();
__device__ unsigned int LaneMaskGe();
template <int LOGICAL_WARP_THREADS>
__host__ __device__ __forceinline__ unsigned int WarpMask(unsigned int warp_id) {
  unsigned int member_mask = 0xFFFFFFFFu >> (32 - LOGICAL_WARP_THREADS);
  if (PowerOfTwo<LOGICAL_WARP_THREADS>::VALUE && LOGICAL_WARP_THREADS != 32)
    member_mask <<= warp_id * LOGICAL_WARP_THREADS;
  return member_mask;
}
template <int LOGICAL_WARP_THREADS, class T>
__device__ T ShuffleUp(T input, int src_offset, int first_thread, unsigned int member_mask);
template <int LOGICAL_WARP_THREADS, class T>
__device__ T ShuffleDown(T input, int src_offset, int last_thread, unsigned int member_mask);
template <int LOGICAL_WARP_THREADS, class T>
__device__ T ShuffleIndex(T input, int src_lane, unsigned int member_mask);
__device__ void CTA_SYNC();
__device__ void WARP_SYNC(unsigned int member_mask);
/* block_raking_layout.cuh: CUB's own code */
template <class T, int BLOCK_THREADS>
struct BlockRakingLayout {
  enum {
    SHARED_ELEMENTS = BLOCK_THREADS,
    MAX_RAKING_THREADS = detail::_cl_min(BLOCK_THREADS, detail::warp_threads),
    SEGMENT_LENGTH = (SHARED_ELEMENTS + MAX_RAKING_THREADS - 1) / MAX_RAKING_THREADS,
    RAKING_THREADS = (SHARED_ELEMENTS + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH,
    HAS_CONFLICTS = (detail::smem_banks % SEGMENT_LENGTH == 0),
    CONFLICT_DEGREE = (HAS_CONFLICTS) ? (MAX_RAKING_THREADS * SEGMENT_LENGTH) / detail::smem_banks : 1,
    USE_SEGMENT_PADDING = ((SEGMENT_LENGTH & 1) == 0) && (SEGMENT_LENGTH > 2),
    GRID_ELEMENTS = RAKING_THREADS * (SEGMENT_LENGTH + USE_SEGMENT_PADDING),
    UNGUARDED = (SHARED_ELEMENTS % RAKING_THREADS == 0),
  };
  struct alignas(16) _TempStorage { T buff[BlockRakingLayout::GRID_ELEMENTS]; };
  struct TempStorage : Uninitialized<_TempStorage> {};
  static __device__ __forceinline__ T* PlacementPtr(TempStorage& temp_storage, unsigned int linear_tid) {
    unsigned int offset = linear_tid;
    if (USE_SEGMENT_PADDING > 0) { offset += offset / SEGMENT_LENGTH; }
    return temp_storage.Alias().buff + offset;
  }
  static __device__ __forceinline__ T* RakingPtr(TempStorage& temp_storage, unsigned int linear_tid) {
    return temp_storage.Alias().buff + (linear_tid * (SEGMENT_LENGTH + USE_SEGMENT_PADDING));
  }
};
/* The shared-memory layouts of CUB's algorithms (their code is not here). */
namespace detail {
template <class T, int N> struct _cl_warp_reduce_smem {
  enum { ELEMENTS = N + (1 << (Log2<N>::VALUE - 1)) };
  struct _TempStorage { T reduce[ELEMENTS]; unsigned char flags[ELEMENTS]; };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
struct _cl_empty {};
template <class T, int N> using _cl_warp_scan_temp =
    _If<((N & (N - 1)) == 0), _cl_empty, T[N + (1 << (Log2<N>::VALUE - 1))]>;
template <class T, int N> using _cl_warp_reduce_internal_temp =
    _If<PowerOfTwo<N>::VALUE, NullType, typename _cl_warp_reduce_smem<T, N>::TempStorage>;
template <class T, int BLOCK_THREADS, int ITEMS, bool TIME_SLICING>
struct _cl_exchange {
  enum {
    TIME_SLICED_THREADS = TIME_SLICING ? _cl_min(BLOCK_THREADS, warp_threads) : BLOCK_THREADS,
    TIME_SLICED_ITEMS = TIME_SLICED_THREADS * ITEMS,
    INSERT_PADDING = ITEMS > 4 && PowerOfTwo<ITEMS>::VALUE,
    PADDING_ITEMS = INSERT_PADDING ? (TIME_SLICED_ITEMS >> log2_smem_banks) : 0,
  };
  struct alignas(16) _TempStorage { T buff[TIME_SLICED_ITEMS + PADDING_ITEMS]; };
  using TempStorage = Uninitialized<_TempStorage>;
};
template <class T, int BLOCK_THREADS> struct _cl_scan_warp_scans {
  enum { WARPS = (BLOCK_THREADS + warp_threads - 1) / warp_threads };
  struct alignas(32) _TempStorage {
    T warp_aggregates[WARPS];
    Uninitialized<_cl_warp_scan_temp<T, warp_threads>> warp_scan[WARPS];
    T block_prefix;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
template <class T, int BLOCK_THREADS> struct _cl_scan_raking {
  using Layout = BlockRakingLayout<T, BLOCK_THREADS>;
  struct _TempStorage {
    Uninitialized<_cl_warp_scan_temp<T, Layout::RAKING_THREADS>> warp_scan;
    typename Layout::TempStorage raking_grid;
    T block_aggregate;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
template <class T, int BLOCK_THREADS> struct _cl_reduce_warp_reductions {
  enum { WARPS = (BLOCK_THREADS + warp_threads - 1) / warp_threads,
         LOGICAL_WARP_SIZE = _cl_min(BLOCK_THREADS, warp_threads) };
  struct _TempStorage {
    _cl_warp_reduce_internal_temp<T, LOGICAL_WARP_SIZE> warp_reduce[WARPS];
    T warp_aggregates[WARPS];
    T block_prefix;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
template <class T, int BLOCK_THREADS> struct _cl_reduce_raking {
  using Layout = BlockRakingLayout<T, BLOCK_THREADS>;
  union _TempStorage {
    _cl_warp_reduce_internal_temp<T, Layout::RAKING_THREADS> warp_storage;
    typename Layout::TempStorage raking_grid;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
template <class T, int BLOCK_THREADS> struct _cl_reduce_raking_commutative {
  enum { SHARING_THREADS = _cl_max(1, BLOCK_THREADS - warp_threads) };
  union _TempStorage {
    struct DefaultStorage {
      Uninitialized<_cl_warp_reduce_internal_temp<T, warp_threads>> warp_storage;
      typename BlockRakingLayout<T, SHARING_THREADS>::TempStorage raking_grid;
    } default_storage;
    typename _cl_reduce_raking<T, BLOCK_THREADS>::TempStorage fallback_storage;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
}  // namespace detail
struct Sum { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; } };
struct Max { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
struct Min { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm A = BLOCK_REDUCE_WARP_REDUCTIONS, int Y = 1, int Z = 1, int P = 0>
class BlockReduce {
  using _Internal = detail::_If<A == BLOCK_REDUCE_WARP_REDUCTIONS,
      detail::_cl_reduce_warp_reductions<T, BLOCK_DIM_X * Y * Z>,
      detail::_If<A == BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
                  detail::_cl_reduce_raking_commutative<T, BLOCK_DIM_X * Y * Z>,
                  detail::_cl_reduce_raking<T, BLOCK_DIM_X * Y * Z>>>;
 public:
  struct TempStorage : Uninitialized<typename _Internal::TempStorage> {};
  __device__ BlockReduce(); __device__ BlockReduce(TempStorage&);
  template <class Op> __device__ T Reduce(T, Op); template <class Op> __device__ T Reduce(T, Op, int);
  template <int N, class Op> __device__ T Reduce(T (&)[N], Op);
  __device__ T Sum(T); __device__ T Sum(T, int);
  template <int N> __device__ T Sum(T (&)[N]);
};
template <class T, int THREADS = 32, int P = 0> class WarpReduce {
 public:
  struct TempStorage : Uninitialized<detail::_cl_warp_reduce_internal_temp<T, THREADS>> {};
  __device__ WarpReduce(TempStorage&);
  template <class Op> __device__ T Reduce(T, Op); template <class Op> __device__ T Reduce(T, Op, int);
  __device__ T Sum(T); __device__ T Sum(T, int);
};
template <class T, int BLOCK_DIM_X, BlockScanAlgorithm A = BLOCK_SCAN_RAKING, int Y = 1, int Z = 1, int P = 0>
class BlockScan {
  /* CUB falls back to raking where warp scans would need a partial warp */
  using _Internal = detail::_If<A == BLOCK_SCAN_WARP_SCANS && (BLOCK_DIM_X * Y * Z) % 32 == 0,
      detail::_cl_scan_warp_scans<T, BLOCK_DIM_X * Y * Z>, detail::_cl_scan_raking<T, BLOCK_DIM_X * Y * Z>>;
 public:
  struct TempStorage : Uninitialized<typename _Internal::TempStorage> {};
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
  struct TempStorage : Uninitialized<detail::_cl_warp_scan_temp<T, THREADS>> {};
  __device__ WarpScan(TempStorage&);
  __device__ void ExclusiveSum(T, T&); __device__ void InclusiveSum(T, T&);
  __device__ void ExclusiveSum(T, T&, T&); __device__ void InclusiveSum(T, T&, T&);
  template <class Op> __device__ void InclusiveScan(T, T&, Op); template <class Op> __device__ void ExclusiveScan(T, T&, T, Op);
  __device__ T Broadcast(T, unsigned int);
};
template <class T, int BLOCK_DIM_X, int ITEMS, bool WARP_TIME_SLICING = false, int Y = 1, int Z = 1, int P = 0>
class BlockExchange {
 public:
  using TempStorage = typename detail::_cl_exchange<T, BLOCK_DIM_X * Y * Z, ITEMS, WARP_TIME_SLICING>::TempStorage;
  __device__ BlockExchange(); __device__ BlockExchange(TempStorage&);
  template <class O> __device__ void StripedToBlocked(const T (&)[ITEMS], O (&)[ITEMS]);
  template <class O> __device__ void BlockedToStriped(const T (&)[ITEMS], O (&)[ITEMS]);
  template <class O> __device__ void WarpStripedToBlocked(const T (&)[ITEMS], O (&)[ITEMS]);
  template <class O> __device__ void BlockedToWarpStriped(const T (&)[ITEMS], O (&)[ITEMS]);
  __device__ void StripedToBlocked(T (&)[ITEMS]); __device__ void BlockedToStriped(T (&)[ITEMS]);
};
/* BlockLoad/BlockStore: no storage (a NullType) for the direct, striped and vectorized
   algorithms; a BlockExchange's for the transposes (BlockStore's with a valid-items int) */
template <class T, int BLOCK_DIM_X, int ITEMS, BlockLoadAlgorithm A = BLOCK_LOAD_DIRECT, int Y = 1, int Z = 1, int P = 0>
class BlockLoad {
  using _Exchange = detail::_cl_exchange<T, BLOCK_DIM_X * Y * Z, ITEMS, A == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>;
  using _Internal = detail::_If<(A == BLOCK_LOAD_TRANSPOSE || A == BLOCK_LOAD_WARP_TRANSPOSE
                                 || A == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED),
                                Uninitialized<typename _Exchange::TempStorage>, NullType>;
 public:
  using TempStorage = Uninitialized<_Internal>;
  __device__ BlockLoad(); __device__ BlockLoad(TempStorage&);
  template <class I> __device__ void Load(I, T (&)[ITEMS]); template <class I> __device__ void Load(I, T (&)[ITEMS], int);
  /* with a default for the items past the valid ones */
  template <class I, class D> __device__ void Load(I, T (&)[ITEMS], int, D); };
namespace detail {
template <class Exchange> struct _cl_store_transpose {
  struct _TempStorage : Exchange::TempStorage { volatile int valid_items; };
  struct TempStorage : Uninitialized<_TempStorage> {};
};
}  // namespace detail
template <class T, int BLOCK_DIM_X, int ITEMS, BlockStoreAlgorithm A = BLOCK_STORE_DIRECT, int Y = 1, int Z = 1, int P = 0>
class BlockStore {
  using _Exchange = detail::_cl_exchange<T, BLOCK_DIM_X * Y * Z, ITEMS, A == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>;
  using _Internal = detail::_If<(A == BLOCK_STORE_TRANSPOSE || A == BLOCK_STORE_WARP_TRANSPOSE
                                 || A == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED),
                                typename detail::_cl_store_transpose<_Exchange>::TempStorage, NullType>;
 public:
  struct TempStorage : Uninitialized<_Internal> {};
  __device__ BlockStore(); __device__ BlockStore(TempStorage&);
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
}  // namespace cub
