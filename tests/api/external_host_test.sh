#!/usr/bin/env bash
# Installs this build into a temporary prefix and builds tests/api/external_host against it with
# find_package(zkrv) under both CMake generators (Ninja and Unix Makefiles). The outside project
# proves and verifies its guest in-process with zkrv::prover, and verifies the proof again with a
# program that links zkrv::verifier alone (no prover code in it: checked on its libraries); a
# tampered proof is rejected. The installed headers are the API's and the guest SDK's only.
set -euo pipefail
build="$1"
src="$2"
flags="${3:-}"  # compile and link flags the outside project needs (the build's sanitizers)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
inc="$work/prefix/include/zkrv"
for h in verifier.h prover.h; do [ -f "$inc/$h" ] || { echo "not installed: include/zkrv/$h"; exit 1; }; done
# Nothing but the API and the guest SDK's headers, and the API includes nothing of zkrv's but itself.
extra=$(cd "$inc" && ls | grep -v -x -e verifier.h -e prover.h -e 'zkvm.*\.h' -e 'zkvm.*\.hpp' || true)
[ -z "$extra" ] || { echo "installed headers beyond the API and the SDK: $extra"; exit 1; }
if grep -h '#include "' "$inc/verifier.h" "$inc/prover.h" | grep -v '"zkrv/verifier.h"'; then
  echo "the API headers include a project header"; exit 1
fi
printf '12345\n' > "$work/input"
for gen in Ninja "Unix Makefiles"; do
  ext="$work/ext-${gen// /-}"
  cmake -S "$src" -B "$ext" -G "$gen" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="$flags" \
        -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
  cmake --build "$ext" >/dev/null
  out=$("$ext/prove_host" "$ext/square.elf" "$work/input" "$work/square.proof")
  echo "$gen: $(echo "$out" | head -1)"
  case "$out" in *"12345^2 = 152399025"*) ;; *) echo "$gen: prove_host printed: '$out'"; exit 1 ;; esac
  got=$("$ext/verify_host" "$ext/square.elf" "$work/square.proof")
  [ "$got" = "12345^2 = 152399025" ] || { echo "$gen: verify_host printed: '$got'"; exit 1; }
  libs=$(ldd "$ext/verify_host")
  case "$libs" in *libzkrv_verifier.so*) ;; *) echo "$gen: verify_host does not load libzkrv_verifier: $libs"; exit 1 ;; esac
  case "$libs" in *libzkrv_prover*) echo "$gen: verify_host loads the prover: $libs"; exit 1 ;; esac
  if nm -DC "$work/prefix/lib"*/libzkrv_verifier.so | grep -q -e 'zkrv::prove' -e 'zkrv::execute'; then
    echo "libzkrv_verifier exports prover symbols"; exit 1
  fi
  # One byte changed in the middle of the proof: rejected, exit 1.
  python3 - "$work/square.proof" "$work/tampered.proof" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[len(b) // 2] ^= 1; open(sys.argv[2], 'wb').write(b)
PY
  set +e
  rejected=$("$ext/verify_host" "$ext/square.elf" "$work/tampered.proof"); rc=$?
  set -e
  [ $rc -eq 1 ] || { echo "$gen: a tampered proof gave exit $rc: $rejected"; exit 1; }
  echo "$gen: verify_host (zkrv::verifier alone) gives the proven output; a tampered proof: $rejected"
done
