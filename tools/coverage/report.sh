#!/usr/bin/env bash
# Runs the test suite on a coverage build and reports line coverage.
#   usage: report.sh SOURCE_DIR BUILD_DIR
# Writes BUILD_DIR/coverage/index.html and prints line coverage per top-level folder.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
out="$build/coverage"
mkdir -p "$out"
lcov --quiet --zerocounters --directory "$build"
(cd "$build" && ctest -j"$(nproc)" -LE long --output-on-failure) || echo "coverage: some tests failed; the report covers what ran"
lcov --quiet --capture --directory "$build" --output-file "$out/all.info" --ignore-errors mismatch,gcov,source 2>/dev/null \
  || lcov --quiet --capture --directory "$build" --output-file "$out/all.info"
lcov --quiet --extract "$out/all.info" "$src/*" --output-file "$out/project.info"
lcov --quiet --remove "$out/project.info" "$build/*" --output-file "$out/project.info"
genhtml --quiet "$out/project.info" --output-directory "$out" --title "zkrv line coverage"
echo "line coverage per folder:"
for d in spec core reference optimized api guest conformance fuzz tests tools; do
  if lcov --quiet --extract "$out/project.info" "$src/$d/*" --output-file "$out/$d.info" 2>/dev/null && [ -s "$out/$d.info" ]; then
    pct=$(lcov --summary "$out/$d.info" 2>&1 | sed -n 's/.*lines\.*: *\([0-9.]*%\).*(\(.*\))/\1 (\2)/p')
    printf "  %-12s %s\n" "$d" "${pct:-no data}"
  else
    printf "  %-12s %s\n" "$d" "no instrumented code"
  fi
done
total=$(lcov --summary "$out/project.info" 2>&1 | sed -n 's/.*lines\.*: *\([0-9.]*%\).*(\(.*\))/\1 (\2)/p')
echo "  total        $total"
echo "report: $out/index.html"
