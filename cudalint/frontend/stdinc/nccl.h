#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
typedef enum { ncclSuccess = 0, ncclUnhandledCudaError = 1, ncclSystemError = 2, ncclInternalError = 3,
  ncclInvalidArgument = 4, ncclInvalidUsage = 5, ncclRemoteError = 6, ncclInProgress = 7 } ncclResult_t;
typedef enum { ncclInt8 = 0, ncclChar = 0, ncclUint8 = 1, ncclInt32 = 2, ncclInt = 2, ncclUint32 = 3, ncclInt64 = 4,
  ncclUint64 = 5, ncclFloat16 = 6, ncclHalf = 6, ncclFloat32 = 7, ncclFloat = 7, ncclFloat64 = 8, ncclDouble = 8,
  ncclBfloat16 = 9 } ncclDataType_t;
typedef enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4 } ncclRedOp_t;
typedef struct ncclComm* ncclComm_t;
#define NCCL_UNIQUE_ID_BYTES 128
typedef struct { char internal[NCCL_UNIQUE_ID_BYTES]; } ncclUniqueId;
#define _CL_N(name) _CL_STUB_FN(ncclResult_t, name)
_CL_N(ncclGetUniqueId) _CL_N(ncclCommInitRank) _CL_N(ncclCommInitAll) _CL_N(ncclCommDestroy) _CL_N(ncclCommCount)
_CL_N(ncclAllReduce) _CL_N(ncclBroadcast) _CL_N(ncclReduce) _CL_N(ncclAllGather) _CL_N(ncclReduceScatter)
_CL_N(ncclSend) _CL_N(ncclRecv) _CL_N(ncclGroupStart) _CL_N(ncclGroupEnd) _CL_N(ncclCommUserRank) _CL_N(ncclGetVersion)
#undef _CL_N
_CL_STUB_FN(const char*, ncclGetErrorString)
