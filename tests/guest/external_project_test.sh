#!/usr/bin/env bash
# Installs this build into a temporary prefix, builds tests/guest/external_project against it
# with find_package(zkrv) under both CMake generators (Ninja and Unix Makefiles), runs the guest
# with the installed zkrv and natively, and checks its trace with the installed `zkrv check`
# while the source tree is out of reach (the constraint spec is built into zkrv). With a third
# argument ON (the build has the guests' C++ standard library), the installed SDK must carry it:
# a C++ guest using it is built with HOME pointing at an empty folder (so no cached copy can
# stand in), run, and compared with its native build.
set -euo pipefail
build="$1"
src="$2"
stdcxx="${3:-OFF}"
root=$(cd "$src/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
echo world > "$work/input"
printf 'ada bob ada cy ada\n' > "$work/names"
mkdir "$work/home"
for gen in Ninja "Unix Makefiles"; do
  ext="$work/ext-${gen// /-}"
  HOME="$work/home" XDG_CACHE_HOME= cmake -S "$src" -B "$ext" -G "$gen" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
  HOME="$work/home" cmake --build "$ext" >/dev/null
  got=$("$work/prefix/bin/zkrv" run "$ext/hello.elf" --input "$work/input")
  [ "$got" = "hello, world" ] || { echo "$gen: guest printed: '$got'"; exit 1; }
  native=$("$ext/hello_native" < "$work/input")
  [ "$native" = "hello, world" ] || { echo "$gen: native build printed: '$native'"; exit 1; }
  echo "external project ($gen): guest and native build both print '$got'"
  if [ "$stdcxx" = ON ]; then
    [ -f "$ext/greet.elf" ] || { echo "$gen: the installed SDK has no C++ standard library (greet.elf not built)"; exit 1; }
    got=$("$work/prefix/bin/zkrv" run "$ext/greet.elf" --input "$work/names")
    [ "$got" = "hello, ada x3, bob, cy (3 names)" ] || { echo "$gen: C++ guest printed: '$got'"; exit 1; }
    native=$("$ext/greet_native" < "$work/names")
    [ "$native" = "$got" ] || { echo "$gen: native C++ build printed: '$native'"; exit 1; }
    echo "external project ($gen): the C++ guest (standard library from the installed SDK) and its native build print '$got'"
  fi
done

# The installed zkrv check, with the source tree hidden behind an empty tmpfs in a private mount
# namespace (as root, or in a user namespace where the kernel allows one).
check="\"$work/prefix/bin/zkrv\" check -q \"$ext/hello.elf\" --input \"$work/input\""
hidden="mount -t tmpfs tmpfs \"$root\" && [ ! -e \"$root/spec\" ] && $check"
if unshare -m --propagation private true 2>/dev/null; then
  out=$(unshare -m --propagation private sh -c "$hidden")
elif unshare -rm --propagation private true 2>/dev/null; then
  out=$(unshare -rm --propagation private sh -c "$hidden")
else
  echo "note: no mount namespace here (not root, no user namespaces): checking with the source tree in place"
  out=$(sh -c "$check")
fi
case "$out" in
  *"tables hold;"*"buses balance"*) echo "installed zkrv check without the source tree: $out" ;;
  *) echo "installed zkrv check printed: '$out'"; exit 1 ;;
esac
