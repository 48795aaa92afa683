#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# install.sh ROOTFS OUT DEBDIR KERNEL... : installs the packages of DEBDIR
# into a copy of ROOTFS (tests/pkg/rootfs.sh) in OUT/root, as an installer
# would (dpkg -i in a chroot: DKMS builds the module there), and packs
# that system into OUT/pkg.cpio, for tests/check/pkg.sh to boot on each
# kernel. Each KERNEL is RELEASE:BUILD:WHEN. BUILD is its headers or
# prepared tree ("-": the root file system's own, from apt); WHEN is
# "now" (there before perfctr is installed: DKMS builds for it at
# install) or "later" (installed after, as a new kernel: its headers'
# link, then the kernel postinst hook /etc/kernel/postinst.d/dkms).
# Prints RESULT lines; the chroot's output goes to OUT/install.log.
set -euo pipefail

rootfs=$1 out=$2 debs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
root=$out/root
log=$out/install.log

result() {	# result NAME COMMAND...: its output to the log
	local n=$1
	shift
	if "$@" >>"$log" 2>&1; then
		echo "RESULT PASS $n"
	else
		echo "RESULT FAIL $n"
	fi
}

rm -rf "$root"
mkdir -p "$out"
cp -a "$rootfs" "$root"
: >"$log"
mounted=()
cleanup() {
	local m
	for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
	mounted=()
}
trap cleanup EXIT
mount -t proc proc "$root/proc"
mounted=("$root/proc")
# The headers and prepared trees in the cache keep their paths, which
# their own files name.
mkdir -p "$root$cache"
mount --bind -o ro "$cache" "$root$cache"
mount -o remount,ro,bind "$root$cache"
mounted=("$root$cache" "${mounted[@]}")

link_kernel() {	# link_kernel RELEASE BUILD
	[ "$2" = - ] && return 0
	mkdir -p "$root/lib/modules/$1"
	ln -sfn "$2" "$root/lib/modules/$1/build"
}

built() {	# built RELEASE: DKMS installed perfctr.ko for it
	[ -f "$root/lib/modules/$1/updates/dkms/perfctr.ko" ]
}

kernels=("$@")
for k in "${kernels[@]}"; do
	IFS=: read -r rel build when <<<"$k"
	[ "$when" = now ] && link_kernel "$rel" "$build"
done

mkdir -p "$root/tmp/debs"
cp "$debs"/*.deb "$root/tmp/debs/"
rm -f "$root"/tmp/debs/*-dbgsym_*.deb
echo "== dpkg -i" >>"$log"
result dpkg-install chroot "$root" sh -c 'dpkg -i /tmp/debs/*.deb'
for k in "${kernels[@]}"; do
	IFS=: read -r rel build when <<<"$k"
	if [ "$when" = now ]; then
		result "dkms-at-install-$rel" built "$rel"
	else
		link_kernel "$rel" "$build"
		echo "== new kernel $rel: its postinst hook" >>"$log"
		chroot "$root" /etc/kernel/postinst.d/dkms "$rel" >>"$log" 2>&1 || true
		result "dkms-new-kernel-$rel" built "$rel"
	fi
	# DKMS signs with its MOK key when the kernel checks signatures.
	if grep -q '^CONFIG_MODULE_SIG=y' "$root/lib/modules/$rel/build/.config" 2>/dev/null; then
		result "dkms-signed-$rel" sh -c "tail -c 28 '$root/lib/modules/$rel/updates/dkms/perfctr.ko' |
			grep -q '~Module signature appended~'"
	fi
done
chroot "$root" dkms status >>"$log" 2>&1 || true
result dkms-mok-key test -f "$root/var/lib/dkms/mok.pub"

# A user's programs against libperfctr-dev: plain cc, and pkg-config.
cp "$here/guest/prog.c" "$root/tmp/prog.c"
result build-cc chroot "$root" cc -o /usr/local/bin/prog-cc /tmp/prog.c -lperfctr
# shellcheck disable=SC2016 # expanded in the chroot
result build-pkgconfig chroot "$root" sh -c \
	'cc -o /usr/local/bin/prog-pkgconfig /tmp/prog.c $(pkg-config --cflags --libs libperfctr)'
cleanup

# The guest: systemd as /init from the initramfs (the stock kernels' own
# modules are not needed: no disk), the test run as the boot's last
# unit, no login prompt.
install -m 755 "$here/guest/perfctr-pkgtest" "$root/usr/local/sbin/"
install -m 644 "$here/guest/perfctr-pkgtest.service" "$root/etc/systemd/system/"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf ../perfctr-pkgtest.service \
	"$root/etc/systemd/system/multi-user.target.wants/perfctr-pkgtest.service"
for u in serial-getty@ttyS0.service getty@tty1.service systemd-timesyncd.service \
	 apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service; do
	ln -sf /dev/null "$root/etc/systemd/system/$u"
done
ln -sf /lib/systemd/systemd "$root/init"
echo perfctr-pkg >"$root/etc/hostname"
rm -rf "$root/tmp/debs" "$root/tmp/prog.c"
# What the boot needs: not the compiler, the headers or the docs.
(cd "$root" && find . \( -path ./usr/src -o -path ./usr/share/doc \
	-o -path ./usr/share/man -o -path ./usr/share/locale \
	-o -path ./usr/share/info -o -path ./usr/lib/gcc -o -path ./usr/libexec/gcc \
	-o -path ./usr/include -o -path ./var/cache/apt -o -path ./var/lib/apt \
	-o -path ./var/lib/dkms -o -path ./root/.cache -o -path ./usr/share/perl \
	-o -path ./usr/lib/x86_64-linux-gnu/perl -o -path './usr/lib/linux-kbuild-*' \
	-o -path './usr/bin/*lto-dump*' -o -path './usr/lib/x86_64-linux-gnu/lib*san.so*' \
	-o -path './usr/lib/x86_64-linux-gnu/*.a' -o -path ./usr/lib/x86_64-linux-gnu/gconv \
	\) -prune -o -print |
	cpio -o -H newc --quiet) >"$out/pkg.cpio"
