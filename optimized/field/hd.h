#pragma once
// ZKRV_HD marks functions shared by host and device code: __host__ __device__ under nvcc,
// nothing elsewhere, so the same arithmetic is written once.
#if defined(__CUDACC__)
#define ZKRV_HD __host__ __device__ __forceinline__
#else
#define ZKRV_HD inline
#endif
