#!/usr/bin/env bash
# Installs every Debian package that zkrv's build, guests and tests need, then builds the guests'
# C++ standard library (guest/stdcxx/build.sh: libstdc++ from gcc-12-source, cached in
# ~/.cache/zkrv; about 50 s on two cores, once).
# Idempotent: apt-get runs only when a package is missing, and the library is built only when
# its cache is missing or stale. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build git
  clang lld llvm libclang-rt-14-dev          # host fuzz/asan builds and the riscv64 guest toolchain
  picolibc-riscv64-unknown-elf               # guest C library (guest SDK)
  gcc-riscv64-unknown-elf                    # libgcc.a for rv64im/lp64, GNU ld to check the linker script, the compiler of guest/stdcxx
  gcc-12-source                              # the libstdc++ source for C++ guests (guest/stdcxx/build.sh)
  qemu-user                                  # qemu-riscv64: the independent oracle
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libboost-dev libcli11-dev libssl-dev nlohmann-json3-dev
  libz3-dev                                  # zkrv-air-solve asks Z3 about the constraint system
  libdw-dev                                  # zkrv profile reads the guest's DWARF (source lines, inlined frames)
  lcov
  python3 python3-pycryptodome               # an independent Keccak-256 for the transcript's known answers
  gnuplot-nox                                # zkrv-prove-bench draws its plot
  libopenmpi-dev openmpi-bin                 # zkrv-prove-mpi: one run's segments proven by the ranks of an MPI job
)
# ZKRV_SETUP_NO_MPI=1 leaves Open MPI out (not installed if it is missing): the project then builds
# without zkrv-prove-mpi and its tests skip, saying why. It does not remove an installed MPI.
if [ "${ZKRV_SETUP_NO_MPI:-0}" = 1 ]; then
  kept=()
  for p in "${packages[@]}"; do
    case "$p" in libopenmpi-dev | openmpi-bin) ;; *) kept+=("$p") ;; esac
  done
  packages=("${kept[@]}")
  echo "setup: ZKRV_SETUP_NO_MPI=1: Open MPI left out"
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Not fatal: without it everything else still builds and tests, and CMake says what is missing.
# Under sudo it is built for the user who asked (their ~/.cache), not for root.
stdcxx=(bash "$(dirname "$0")/../guest/stdcxx/build.sh")
if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
  stdcxx=(sudo -u "$SUDO_USER" -H "${stdcxx[@]}")
fi
"${stdcxx[@]}" ||
  echo "setup: WARNING: the guests' C++ standard library was not built (see above); C++ guests that use it are left out"
