#!/usr/bin/env bash
# zkrv-abba end to end, deterministically: every run reports its own figure (--measure), so the
# verdict cannot depend on how loaded the machine is. A counter file makes the figures vary a
# little from run to run, as timings do.
#   usage: abba_test.sh ZKRV_ABBA
set -euo pipefail
abba="$1"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
echo 0 > "$d/n"
# each run prints "took X.Y" with a fresh digit Y; A near 3, B near 1
cat > "$d/run" <<'SH'
n=$(cat "$1/n"); echo $(( (n + 1) % 10 )) > "$1/n"; echo "took $2.$n"
SH
out=$("$abba" --pairs 6 --warmup 1 --measure 'took ([0-9.]+)' --a "sh $d/run $d 3" --b "sh $d/run $d 1" 2>/dev/null)
grep -qE "verdict +real improvement" <<<"$out" || { echo "B at a third of A is not an improvement:"; echo "$out"; exit 1; }
out=$("$abba" --pairs 6 --warmup 0 --measure 'took ([0-9.]+)' --a "sh $d/run $d 1" --b "sh $d/run $d 3" 2>/dev/null)
grep -qE "verdict +real regression" <<<"$out" || { echo "B at three times A is not a regression:"; echo "$out"; exit 1; }
out=$("$abba" --pairs 4 --warmup 0 --measure 'took ([0-9.]+)' --a "echo took 2" --b "echo took 2" 2>/dev/null)
grep -qE "verdict +inconclusive" <<<"$out" || { echo "equal figures are not inconclusive:"; echo "$out"; exit 1; }
if "$abba" --pairs 2 --warmup 0 --measure 'took ([0-9.]+)' --a "echo nothing" --b "echo took 1" >/dev/null 2>&1; then
  echo "a run without a figure was accepted"; exit 1
fi
# the wall-clock path runs and reports (no verdict asserted: timing on a shared machine is noise)
"$abba" --pairs 2 --warmup 0 --a true --b true 2>/dev/null | grep -q "Wilcoxon exact p"
echo "zkrv-abba: improvement, regression, inconclusive and a missing figure all as expected"
