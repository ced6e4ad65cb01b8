#!/usr/bin/env bash
# The linker script also works with GNU ld: links the fibonacci guest's objects with
# riscv64-unknown-elf-ld and checks the ELF runs in zkrv with the expected output.
set -euo pipefail
build="$1"; src="$2"; zkrv="$3"
ld=$(command -v riscv64-unknown-elf-ld) || { echo "riscv64-unknown-elf-ld missing (binutils-riscv64-unknown-elf)"; exit 1; }
out=$(mktemp --suffix=.elf)
# fibonacci's one object, the newest (a build folder may keep objects of older flags beside it)
obj=$(ls -t "$build"/guest/programs/obj_fibonacci/*.o | head -n 1)
trap 'rm -f "$out"' EXIT
"$ld" -T "$src/guest/zkrv.ld" --gc-sections --no-relax -u _start -u memcpy -u memmove -u memset -u memcmp -u strlen -u strcmp -o "$out" "$obj" \
  --start-group "$build/guest/lib/libzkrv_alloc_bump.a" "$build/guest/lib/libzkrv_guest.a" \
  /usr/lib/picolibc/riscv64-unknown-elf/lib/rv64im/lp64/libc.a \
  /usr/lib/gcc/riscv64-unknown-elf/12.2.0/rv64im/lp64/libgcc.a --end-group
got=$("$zkrv" run "$out" --input "$src/guest/programs/fibonacci.input")
[ "$got" = "$(cat "$src/guest/programs/fibonacci.expected")" ] || { echo "GNU-ld-linked guest printed '$got'"; exit 1; }
echo "GNU ld: $got"
