#!/usr/bin/env bash
# The SDK's public headers compile cleanly as C11/C17 and C++11/C++17 with gcc and clang under
# -Wall -Wextra -pedantic -Werror (host compilers: the headers are plain C/C++).
set -euo pipefail
inc="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
headers=(zkvm.h zkvm_io.h zkvm_accelerators.h zkvm_arena.h zkvm_alloc_core.h zkvm_typed.h)
{
  for h in "${headers[@]}"; do echo "#include \"$h\""; done
  echo 'int zkvm_headers_probe(void) { zkvm_bytes_32 b; (void)b; return (int)sizeof(zkvm_bytes_32) + ZKVM_EOK; }'
} > "$tmp/probe.c"
cp "$tmp/probe.c" "$tmp/probe.cpp"
checked=0
# probe FILE COMPILERS STANDARDS: each compiler at each standard, warnings as errors
probe() {
  local file=$1 c s
  for c in $2; do
    command -v "$c" >/dev/null || { echo "missing $c"; exit 1; }
    for s in $3; do
      "$c" -std="$s" -Wall -Wextra -pedantic -Werror -I"$inc" -fsyntax-only "$file"
      checked=$((checked + 1))
    done
  done
}
probe "$tmp/probe.c" "gcc clang" "c11 c17"
probe "$tmp/probe.cpp" "g++ clang++" "c++11 c++17"
# the C++ typed IO header (if constexpr: C++17 and later)
echo '#include "zkvm_typed.hpp"
int probe() { zkvm::Writer w; w.put(1u).put(std::string("a")).put(std::vector<int>{1}); zkvm::Reader r(w.data()); unsigned v; return r.get(v) ? 0 : 1; }' > "$tmp/typed.cpp"
probe "$tmp/typed.cpp" "g++ clang++" "c++17 c++20"
# alignment promise of the fixed-size byte types
echo '#include "zkvm_accelerators.h"
_Static_assert(_Alignof(zkvm_bytes_32) == 8, "zkvm_bytes_N is aligned to 8");
_Static_assert(sizeof(zkvm_bytes_20) == 24, "padded to the alignment");' > "$tmp/align.c"
gcc -std=c11 -I"$inc" -fsyntax-only "$tmp/align.c"
echo "headers compile cleanly in $checked configurations"
