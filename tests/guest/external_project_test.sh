#!/usr/bin/env bash
# Installs this build into a temporary prefix, builds tests/guest/external_project against it
# with find_package(zkrv), and runs the guest with the installed zkrv and natively.
set -euo pipefail
build="$1"
src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src" -B "$work/ext" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/ext" >/dev/null
echo world > "$work/input"
got=$("$work/prefix/bin/zkrv" run "$work/ext/hello.elf" --input "$work/input")
[ "$got" = "hello, world" ] || { echo "guest printed: '$got'"; exit 1; }
native=$("$work/ext/hello_native" < "$work/input")
[ "$native" = "hello, world" ] || { echo "native build printed: '$native'"; exit 1; }
echo "external project: guest and native build both print '$got'"
