#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (or reuse) what a ppc32 guest's user space needs and Debian has
# no powerpc package of: a static busybox and a static Check library,
# cross-compiled from Debian's own source packages.
#
#   build-userland.sh ppc32
#
# Cached in $PERFCTR_CACHE (default ~/.cache/perfctr) under a key of the
# source versions and this script. Prints the directory on the last line
# of stdout: bin/busybox, lib/libcheck.a, include/check.h.
set -euo pipefail

arch=${1:-ppc32}
[ "$arch" = ppc32 ] || { echo "unsupported arch $arch" >&2; exit 1; }
cross=powerpc-linux-gnu-
cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
here=$(cd "$(dirname "$0")" && pwd)

# One build at a time: a second caller (make check builds this in the
# background) waits for the first, then finds it built.
mkdir -p "$cache"
exec 9>"$cache/user.lock"
flock -n 9 || { echo ">> waiting for another build of the $arch user space" >&2; flock 9; }

# Debian's source packages, through the cache's own deb-src list.
# shellcheck source=tests/lib/apt-src.sh
. "$here/../lib/apt-src.sh"
apt_src_init "$cache"

key=$( (cat "$0"; apt-cache "${apt_opts[@]}" showsrc busybox check |
	sed -n 's/^Version: //p') | sha256sum | cut -c1-12)
out=$cache/user/$arch-$key
if [ -f "$out/.built" ]; then
	echo "$out"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/src"

echo ">> building static busybox for $arch" >&2
fetch_source busybox "$out/src/busybox"
(
	cd "$out/src/busybox"
	make -s CROSS_COMPILE=$cross allnoconfig >&2
	# Static, with the shell and the applets the guest init and plans use
	# (insmod with module parameters: perfctr_simpmu.ko model=...).
	for opt in STATIC BUSYBOX FEATURE_INSTALLER SH_IS_ASH ASH ASH_OPTIMIZE_FOR_SIZE \
		ASH_BASH_COMPAT ASH_ECHO ASH_PRINTF ASH_TEST ASH_GETOPTS \
		ASH_CMDCMD FEATURE_SH_MATH MOUNT UMOUNT INSMOD RMMOD CAT ECHO \
		SLEEP FEATURE_FANCY_SLEEP AWK SED GREP EGREP UNAME DMESG LS \
		MKDIR TEST TEST1 TEST2 TR HALT POWEROFF REBOOT SYNC TRUE FALSE \
		HEAD TAIL WC FEATURE_CMDLINE_MODULE_OPTIONS; do
		sed -i "s/^# CONFIG_$opt is not set/CONFIG_$opt=y/" .config
	done
	make -s CROSS_COMPILE=$cross oldconfig </dev/null >/dev/null
	make -s -j"$(nproc)" CROSS_COMPILE=$cross busybox >&2
)
cp "$out/src/busybox/busybox" "$out/bin/busybox"

echo ">> building static Check for $arch" >&2
fetch_source check "$out/src/check"
(
	cd "$out/src/check"
	./configure -q --host=powerpc-linux-gnu --prefix="$out" \
		--disable-shared --enable-static --enable-subunit=no \
		--disable-build-docs >&2
	make -s -j"$(nproc)" -C lib >&2
	make -s -j"$(nproc)" -C src >&2
	make -s -C src install >&2
)
rm -rf "$out/src"
touch "$out/.built"
echo "$out"
