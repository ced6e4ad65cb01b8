#!/usr/bin/env bash
# The README's test command: set up, build, and run the whole default test suite with ctest.
# Extra arguments go to ctest (e.g. -L long, -R isa).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
ctest --preset default "$@"
