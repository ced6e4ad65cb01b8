#!/usr/bin/env bash
# Times zkrv verify with the ELF and with the program's key (zkrv key), side by side, for two
# guests that differ only in a constant table in their image: 1 MiB and 4 KiB. The ELF's verifier
# builds the program tree itself (an LDE and a Merkle tree of the image's columns per proof); the
# key's does not, so its time should not depend on the image.
#   tools/bench/verify_key/run.sh [BUILD_DIR]   (default build/default; prints a table)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../../build/default}" && pwd)
zkrv="$build/tools/zkrv/zkrv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here" -B "$work/b" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/b" >/dev/null
printf 'seed\n' > "$work/input"
secs() { local t0=$EPOCHREALTIME; "$@" >/dev/null; awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
printf '%-9s %12s %12s %12s %12s %10s\n' guest "image rows" "key (s)" "verify ELF" "verify key" "ELF/key"
for g in table_4k table_1m; do
  elf="$work/b/$g.elf"
  "$zkrv" prove -q "$elf" --input "$work/input" -o "$work/$g.proof"
  key_s=$(secs "$zkrv" key "$elf" -o "$work/$g.vk")
  rows=$("$zkrv" inspect "$work/$g.proof" | grep -o 'image 2^[0-9]*')
  best_elf=999; best_key=999
  for _ in 1 2 3; do  # the best of three, alternating
    e=$(secs "$zkrv" verify "$work/$g.proof" --program "$elf")
    k=$(secs "$zkrv" verify "$work/$g.proof" --key "$work/$g.vk")
    best_elf=$(less "$e" "$best_elf")
    best_key=$(less "$k" "$best_key")
  done
  printf '%-9s %12s %12.2f %12.2f %12.2f %10.1f\n' "$g" "$rows" "$key_s" "$best_elf" "$best_key" \
    "$(awk -v a="$best_elf" -v b="$best_key" 'BEGIN { print a / b }')"
done
