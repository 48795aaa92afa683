#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (or reuse) a test kernel from Debian's linux-source package.
#
#   build-kernel.sh ARCH     (ARCH: x86_64, i386, ppc32, or x86_64-rt)
#
# x86_64-rt is the x86_64 test kernel from linux-source-6.12 with
# PREEMPT_RT: x86_64.config, then x86_64-rt.config over it.
#
# The build lives outside the work tree, in $PERFCTR_CACHE (default
# ~/.cache/perfctr), in a directory keyed by the source package version
# and a hash of the config fragment, so a warm run rebuilds nothing.
# Prints the build directory on the last line of stdout.
set -euo pipefail

arch=${1:-x86_64}
here=$(cd "$(dirname "$0")" && pwd)
cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
case $arch in
x86_64-rt) frags=("$here/x86_64.config" "$here/x86_64-rt.config")
	srcver=${PERFCTR_KSRC:-6.12} ;;
*) frags=("$here/$arch.config"); srcver=${PERFCTR_KSRC:-6.1} ;;
esac
tarball=/usr/src/linux-source-$srcver.tar.xz

[ -f "$tarball" ] || { echo "missing $tarball (apt-get install linux-source-$srcver)" >&2; exit 1; }
for frag in "${frags[@]}"; do
	[ -f "$frag" ] || { echo "no config fragment $frag for $arch" >&2; exit 1; }
done

debver=$(dpkg-query -W -f='${Version}' "linux-source-$srcver")
# Bump when the build steps below change in a way that matters.
recipe=1
key=$( (cat "${frags[@]}"; echo "recipe=$recipe") | sha256sum | cut -c1-12)
src=$cache/src/linux-source-$srcver-$debver
out=$cache/build/$arch-$srcver-$debver-$key

cross=
case $arch in
x86_64|x86_64-rt) karch=x86_64; image=arch/x86/boot/bzImage ;;
i386) karch=i386; image=arch/x86/boot/bzImage ;;
# QEMU's OpenBIOS loads the ELF image itself.
ppc32) karch=powerpc; image=vmlinux; cross=powerpc-linux-gnu- ;;
*) echo "unsupported arch $arch" >&2; exit 1 ;;
esac

# One unpacking per source and one build per directory: a second caller
# (make check builds the later parts' kernels in the background) waits
# for the first.
mkdir -p "$cache/src" "$cache/build"
(
	flock -n 8 || { echo ">> waiting for another unpacking of $src" >&2; flock 8; }
	if [ ! -f "$src/.unpacked" ]; then
		echo ">> unpacking linux-source-$srcver ($debver)" >&2
		rm -rf "$src"
		mkdir -p "$src"
		tar -xJf "$tarball" -C "$src" --strip-components=1
		touch "$src/.unpacked"
	fi
) 8>"$src.lock"

exec 9>"$out.lock"
flock -n 9 || { echo ">> waiting for another build of $out" >&2; flock 9; }

if [ -f "$out/.built" ]; then
	echo "$out"
	exit 0
fi

echo ">> building $arch test kernel in $out" >&2
mkdir -p "$out"
kmake() { make -s -C "$src" O="$out" ARCH="$karch" CROSS_COMPILE="$cross" "$@"; }
kmake tinyconfig >&2
(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m .config "${frags[@]}") >/dev/null
kmake olddefconfig >&2

# Fail loudly if Kconfig dropped something the tests rely on: each
# symbol as the last fragment that names it sets it.
missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		if ! grep -qx "$line" "$out/.config"; then
			echo "config: $line did not stick" >&2
			missing=1
		fi ;;
	esac
done < <(awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s) }
	      s ~ /^CONFIG_/ { last[s] = $0; if (!(s in seen)) { seen[s] = 1; order[++n] = s } }
	      END { for (i = 1; i <= n; i++) print last[order[i]] }' "${frags[@]}")
[ "$missing" = 0 ] || exit 1

kmake -j"$(nproc)" >&2
kmake -j"$(nproc)" modules_prepare >&2
[ -f "$out/$image" ] || { echo "no $image after build" >&2; exit 1; }
ln -sf "$image" "$out/kernel-image"
touch "$out/.built"
echo "$out"
