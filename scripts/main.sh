#!/usr/bin/env bash
# The README's main command: set up, build, then prove and verify the bundled example guest
# (Fibonacci, input n = 90) and print the prover's summary and the verifier's verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
z=./build/default/tools/zkrv/zkrv
elf=build/default/guest/programs/fibonacci.elf
in=guest/programs/fibonacci.input
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== zkrv run: the guest's public output =="
"$z" run "$elf" --input "$in" --output "$work/fibonacci.out"
cat "$work/fibonacci.out"; echo
echo "== zkrv prove =="
"$z" prove "$elf" --input "$in" -o build/default/fibonacci.proof
echo "== zkrv verify (exit code 0, the output above) =="
"$z" verify build/default/fibonacci.proof --program "$elf" --output "$work/fibonacci.out"
