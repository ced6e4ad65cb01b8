#pragma once
// Plain C API of the CUDA toolchain smoke test; no CUDA headers needed to call it.
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
// Number of usable CUDA devices; 0 when there is no device or no driver.
int zkrv_cuda_device_count(void);
// Adds 1 to every element on the device; 0 on success, negative on a CUDA error.
int zkrv_cuda_add_one(uint64_t* host, int n);
#ifdef __cplusplus
}
#endif
