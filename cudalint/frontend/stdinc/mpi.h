#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef struct { int MPI_SOURCE, MPI_TAG, MPI_ERROR; } MPI_Status;
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_SUCCESS 0
#define MPI_INT ((MPI_Datatype)0x4c000405)
#define MPI_FLOAT ((MPI_Datatype)0x4c00040a)
#define MPI_DOUBLE ((MPI_Datatype)0x4c00080b)
#define MPI_CHAR ((MPI_Datatype)0x4c000101)
#define MPI_BYTE ((MPI_Datatype)0x4c00010d)
#define MPI_LONG ((MPI_Datatype)0x4c000807)
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x4c000819)
#define MPI_SUM ((MPI_Op)0x58000003)
#define MPI_MAX ((MPI_Op)0x58000001)
#define MPI_MIN ((MPI_Op)0x58000002)
#define MPI_STATUS_IGNORE ((MPI_Status*)1)
#define MPI_IN_PLACE ((void*)-1)
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x0c000000)
#define MPI_COMM_NULL ((MPI_Comm)0x04000000)
#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_MAX_ERROR_STRING 512
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_UNSIGNED ((MPI_Datatype)0x4c000406)
#define MPI_INT64_T ((MPI_Datatype)0x4c00083a)
#define _CL_M(name) _CL_STUB_FN(int, name)
_CL_M(MPI_Init) _CL_M(MPI_Finalize) _CL_M(MPI_Comm_rank) _CL_M(MPI_Comm_size) _CL_M(MPI_Barrier) _CL_M(MPI_Bcast)
_CL_M(MPI_Allreduce) _CL_M(MPI_Reduce) _CL_M(MPI_Allgather) _CL_M(MPI_Send) _CL_M(MPI_Recv) _CL_M(MPI_Isend)
_CL_M(MPI_Irecv) _CL_M(MPI_Wait) _CL_M(MPI_Waitall) _CL_M(MPI_Abort) _CL_M(MPI_Gather) _CL_M(MPI_Scatter)
_CL_M(MPI_Error_string) _CL_M(MPI_Get_processor_name) _CL_M(MPI_Comm_split) _CL_M(MPI_Comm_free)
_CL_M(MPI_Allgatherv) _CL_M(MPI_Gatherv) _CL_M(MPI_Sendrecv) _CL_M(MPI_Alltoall) _CL_M(MPI_Initialized)
_CL_M(MPI_Finalized) _CL_M(MPI_Init_thread) _CL_M(MPI_Comm_dup) _CL_M(MPI_Get_count) _CL_M(MPI_Probe)
#undef _CL_M
_CL_STUB_FN(double, MPI_Wtime)
