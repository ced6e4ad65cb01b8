#!/usr/bin/env bash
# The coverage target must build everything its ctest run needs: configures a coverage tree
# (Ninja, nothing built) and checks, by dry runs, that building `coverage` runs every build step
# that building `all` (the test programs, guests and tools) runs.
#   usage: depends_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
cmake -S "$src" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DZKRV_COVERAGE=ON -DZKRV_CUDA=OFF >/dev/null
steps() { ninja -C "$tree" -n "$1" | sed -n 's/^\[[0-9]*\/[0-9]*\] //p' | sort; }
all=$(steps all)
cov=$(steps coverage)
[ "$(wc -l <<<"$all")" -gt 100 ] || { echo "a dry run of 'all' shows only $(wc -l <<<"$all") steps"; exit 1; }
missing=$(comm -23 <(echo "$all") <(echo "$cov"))
if [ -n "$missing" ]; then
  echo "building 'coverage' skips $(wc -l <<<"$missing") step(s) of 'all', e.g.:"
  head -5 <<<"$missing"
  exit 1
fi
echo "building 'coverage' runs all $(wc -l <<<"$all") build steps of 'all' first"
