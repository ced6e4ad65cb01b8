#!/usr/bin/env bash
# Builds GCC 12's libstdc++ for zkrv guests (riscv64-unknown-elf, rv64im, lp64, medany) against
# picolibc, from the source that Debian's gcc-12-source ships, with the installed cross compiler
# (gcc-riscv64-unknown-elf, the same 12.2.0). Only libstdc++-v3 is configured (host =
# riscv64-unknown-elf); gcc itself is not rebuilt. See guest/README.md for why.
#
#   guest/stdcxx/build.sh [PREFIX]
#
# PREFIX defaults to ${ZKRV_STDCXX_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zkrv/stdcxx-12.2.0-rv64im}.
# Idempotent: PREFIX/zkrv-stdcxx.stamp holds the hash of this script, the versions of the source,
# compiler and picolibc packages; when it matches, nothing is done (about 50 s otherwise, on two
# cores). The build runs in a temporary folder beside PREFIX and is moved into place only when
# it is complete, so an interrupted run leaves nothing half-written. A PREFIX that exists, is not
# empty and holds no stamp is refused: it is not this script's to replace.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cache="${XDG_CACHE_HOME:-}"
[ -n "$cache" ] || cache="$HOME/.cache"
prefix="${1:-${ZKRV_STDCXX_DIR:-$cache/zkrv/stdcxx-12.2.0-rv64im}}"
prefix="$(realpath -m "$prefix")"
tarball=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
picolibc=/usr/lib/picolibc/riscv64-unknown-elf
for need in "$tarball" "$picolibc/picolibc.specs"; do
  [ -e "$need" ] || { echo "stdcxx: $need is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
command -v riscv64-unknown-elf-g++ >/dev/null || { echo "stdcxx: riscv64-unknown-elf-g++ is missing" >&2; exit 1; }

versions="$(dpkg-query -W -f='${Package}=${Version} ' gcc-12-source gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf 2>/dev/null || true)"
stamp="$(sha256sum < "$0" | cut -c1-16) $versions"
if [ -f "$prefix/zkrv-stdcxx.stamp" ] && [ "$(cat "$prefix/zkrv-stdcxx.stamp")" = "$stamp" ]; then
  echo "stdcxx: up to date in $prefix"
  exit 0
fi
if [ -e "$prefix" ] && [ ! -f "$prefix/zkrv-stdcxx.stamp" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
  echo "stdcxx: $prefix exists and is not a library this script built; refusing to replace it" >&2
  exit 1
fi

start=$(date +%s)
parent="$(dirname "$prefix")"
mkdir -p "$parent"
work="$(mktemp -d "$parent/.stdcxx-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "stdcxx: building libstdc++ 12.2.0 for rv64im/lp64 in $work (about a minute)"

# The parts of the gcc tree that libstdc++-v3's configure and build read: the top-level scripts,
# libstdc++-v3 without its testsuite, libgcc (the gthr headers), include, libiberty (the
# demangler), config, and gcc's version files.
cd "$work"
tar -tf "$tarball" | grep -E '^gcc-12\.2\.0/[^/]+$' > sel
printf 'gcc-12.2.0/%s\n' libstdc++-v3 libgcc include libiberty config gcc/BASE-VER gcc/DATESTAMP gcc/DEV-PHASE >> sel
tar -xf "$tarball" -T sel --exclude='gcc-12.2.0/libstdc++-v3/testsuite' --exclude='gcc-12.2.0/libstdc++-v3/doc'
tar -xf "$tarball" gcc-12.2.0/libstdc++-v3/doc/Makefile.in gcc-12.2.0/libstdc++-v3/doc/xsl/customization.xsl.in \
  gcc-12.2.0/libstdc++-v3/testsuite/Makefile.in  # configure writes these Makefiles
src="$work/gcc-12.2.0"

# The target flags go into CC and CXX: some configure probes replace CFLAGS/CXXFLAGS, and rv64im
# has no atomics (the default multilib would say it has). --with-newlib: no link tests against a
# bare-metal libc; picolibc follows newlib's interfaces. stdio_pure: file I/O through FILE* only
# (picolibc has no POSIX read/write). getentropy and arc4random exist in picolibc's headers but
# nothing defines getentropy, so std::random_device must not use them. No std::stacktrace
# (libbacktrace) and no filesystem TS: there is no file system; the two probes that the
# backtrace check still links (fcntl, getexecname) are answered.
target="-march=rv64im -mabi=lp64 -mcmodel=medany -specs=$picolibc/picolibc.specs"
flags="-O2 -g -ffunction-sections -fdata-sections"
mkdir build install
cd build
"$src/libstdc++-v3/configure" --build="$("$src/config.guess")" --host=riscv64-unknown-elf \
  --prefix="$prefix" --with-gxx-include-dir="$prefix/include/c++/12.2.0" \
  --with-newlib --disable-multilib --disable-shared --enable-static --disable-nls \
  --disable-libstdcxx-pch --disable-libstdcxx-verbose --enable-cstdio=stdio_pure --disable-tls \
  --disable-libstdcxx-filesystem-ts --disable-libstdcxx-backtrace \
  glibcxx_cv_getentropy=no glibcxx_cv_arc4random=no ac_cv_func_fcntl=no ac_cv_func_getexecname=no \
  CC="riscv64-unknown-elf-gcc $target" CXX="riscv64-unknown-elf-g++ $target" \
  CFLAGS="$flags" CXXFLAGS="$flags" > "$work/configure.log" 2>&1 ||
  { tail -30 "$work/configure.log" >&2; echo "stdcxx: configure failed (log above)" >&2; exit 1; }
make -j"$(nproc)" > "$work/make.log" 2>&1 || { tail -30 "$work/make.log" >&2; echo "stdcxx: build failed" >&2; exit 1; }
make install DESTDIR="$work/install" > "$work/install.log" 2>&1 ||
  { tail -30 "$work/install.log" >&2; echo "stdcxx: install failed" >&2; exit 1; }

# Into place: the installed tree under DESTDIR mirrors $prefix.
staged="$work/install$prefix"
echo "$stamp" > "$staged/zkrv-stdcxx.stamp"
cp "$src/COPYING.RUNTIME" "$src/COPYING3" "$staged/"
old="$work/old"
if [ -e "$prefix" ]; then mv -T "$prefix" "$old"; fi
mv -T "$staged" "$prefix"
echo "stdcxx: installed in $prefix ($(( $(date +%s) - start )) s)"
