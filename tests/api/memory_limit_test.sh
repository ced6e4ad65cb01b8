#!/usr/bin/env bash
# zkrv prove under a memory budget: refused with exit 71 and one line naming the budget, after the
# guest's execution and before any table is built (within seconds), never killed by a signal. The
# budget from --max-memory, from ulimit -v (prlimit --as: what it leaves past the executor's 4 GiB
# guest map), and from a cgroup's memory limit where this machine lets the test make one (root with
# a writable cgroup v1 or v2 memory controller; it says so otherwise). Then a budget the estimate
# passes but the address space does not: the executor runs, the prover's allocation fails, and zkrv
# still exits 71 with a message, not a signal.
set -uo pipefail
zkrv="$1"
programs="$2"  # the example guests' ELFs
sources="$3"   # and their inputs
work=$(mktemp -d)
cg=""
cleanup() {
  if [ -n "$cg" ] && [ -d "$cg" ]; then rmdir "$cg" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
# expect NAME PATTERN MAX_SECONDS CMD...: exit 71, the last stderr line matching PATTERN, no proof.
expect() {
  local name="$1" pattern="$2" max_s="$3"
  shift 3
  local t0=$(date +%s%N)
  "$@" >"$work/out" 2>"$work/err"
  local rc=$? t1=$(date +%s%N)
  local ms=$(( (t1 - t0) / 1000000 ))
  local line=$(tail -1 "$work/err")
  if [ $rc -ne 71 ]; then
    echo "FAIL $name: exit $rc (want 71; 128+N is a signal): $line"; fails=$((fails + 1)); return
  fi
  case "$line" in zkrv:\ error:\ *$pattern*) ;; *) echo "FAIL $name: the error line: '$line'"; fails=$((fails + 1)); return ;; esac
  if [ $ms -gt $((max_s * 1000)) ]; then echo "FAIL $name: took $ms ms"; fails=$((fails + 1)); return; fi
  if [ -e "$work/p.proof" ]; then echo "FAIL $name: a proof was written"; fails=$((fails + 1)); return; fi
  echo "ok   $name ($ms ms): $line"
}
small=("$zkrv" prove "$programs/fibonacci.elf" --input "$sources/fibonacci.input" -o "$work/p.proof")
big=("$zkrv" prove "$programs/quicksort.elf" --input "$sources/quicksort.input" -o "$work/p.proof")  # about 3 GB
expect "--max-memory 1M" "needs about * to prove; the budget (max_memory) is 1 MB" 10 "${small[@]}" --max-memory 1M
as=$(( (4 << 30) + 1500000000 ))  # the guest's 4 GiB map and 1.5 GB
expect "ulimit -v 4 GiB + 1.5 GB" "needs about * to prove; the address-space limit (ulimit -v) leaves" 20 prlimit --as=$as "${big[@]}"
# The estimate passes (--max-memory 1T); the address space (5.8 GB once the executor's map is gone)
# does not hold the proof with its LDE held (7.8 GB).
expect "allocation fails" "out of memory" 120 prlimit --as=$as "${big[@]}" --max-memory 1T --lde hold
grep -q "zkrv: execute" "$work/err" || { echo "FAIL allocation fails: not after the execution"; fails=$((fails + 1)); }
# A cgroup: v2 (memory.max) or v1 (memory.limit_in_bytes), a child of this process's own.
v2=$(awk -F: '$1 == "0" && $2 == "" {print $3}' /proc/self/cgroup)
v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
if [ -n "$v1" ] && [ -w "/sys/fs/cgroup/memory$v1" ]; then
  cg="/sys/fs/cgroup/memory${v1%/}/zkrv-test-$$"; limit_file=memory.limit_in_bytes
elif [ -n "$v2" ] && [ -w "/sys/fs/cgroup$v2" ] && grep -qw memory "/sys/fs/cgroup$v2/cgroup.controllers" 2>/dev/null; then
  cg="/sys/fs/cgroup${v2%/}/zkrv-test-$$"; limit_file=memory.max
fi
if [ -n "$cg" ] && mkdir "$cg" 2>/dev/null && echo 2000000000 > "$cg/$limit_file" 2>/dev/null; then
  expect "cgroup limit 2 GB" "needs about * to prove; the cgroup's memory limit is 2.0 GB" 20 \
    sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "${big[@]}"
else
  echo "note: no cgroup could be made here (not root, or no writable memory controller): the cgroup case was not run"
  if [ -n "$cg" ] && [ -d "$cg" ]; then rmdir "$cg" 2>/dev/null; fi
  cg=""
fi
[ $fails -eq 0 ] || exit 1
