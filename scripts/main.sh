#!/usr/bin/env bash
# The README's main command: set up, build, and run the bundled example guest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
echo "== zkrv run guest/programs/fibonacci (input: n = 90) =="
set +e
./build/default/tools/zkrv/zkrv run build/default/guest/programs/fibonacci.elf \
  --input guest/programs/fibonacci.input --stats
rc=$?
set -e
echo "== guest exit code: $rc =="
exit "$rc"
