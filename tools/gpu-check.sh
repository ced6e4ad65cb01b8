#!/usr/bin/env bash
# The device script for the CUDA backend (issue 7): on a machine with an NVIDIA GPU (sm_90:
# H100/H200) and nvcc, CMake and ninja — nothing else, no network — in well under 5 minutes:
#   1. builds the core libraries and zkrv-gpu-check for sm_90 (ZKRV_CORE_ONLY: no GoogleTest,
#      OpenSSL or other Debian packages needed),
#   2. runs the GPU correctness checks: the CUDA backend in lockstep with the CPU backend, every
#      output compared byte for byte (awkward shapes, 2^24 columns, FRI proofs that must equal
#      the CPU proof and pass the reference verifier),
#   3. times device copy bandwidth (the ceiling), LDE of 64 columns x 2^20 -> 2^21, the Merkle
#      commitment of that LDE, and FRI over a degree-2^22 polynomial, each beside its floor
#      (bytes that must move / measured bandwidth) and beside the CPU backend on that machine.
# Usage: bash tools/gpu-check.sh [build-dir]     (output also in $OUT/gpu-check.log when set)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/gpu}"
log="${OUT:-/tmp}/gpu-check.log"
nvcc_bin="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
{
  echo "== machine"
  nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not available"
  "$nvcc_bin" --version | tail -1
  nproc
  echo "== build (sm_90, Release, core only)"
  start=$(date +%s)
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZKRV_CORE_ONLY=ON -DZKRV_CUDA=ON \
        -DCMAKE_CUDA_COMPILER="$nvcc_bin" -DCMAKE_CUDA_ARCHITECTURES=90 > "$build.configure.log" 2>&1 \
    || { cat "$build.configure.log"; exit 1; }
  cmake --build "$build" --target zkrv-gpu-check -j "$(nproc)"
  echo "build took $(( $(date +%s) - start )) s"
  echo "== correctness and timing"
  "$build/tools/gpu-check/zkrv-gpu-check" --require-gpu
} 2>&1 | tee "$log"
