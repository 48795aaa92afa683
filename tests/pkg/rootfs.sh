#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rootfs.sh: a Debian bookworm root file system for the package tests
# (tests/check/pkg.sh), made once with debootstrap and cached in
# ~/.cache/perfctr/pkg-rootfs/<key>, where the key is a hash of what goes
# in: this script, the package list and the 6.1 headers' version (that
# of tests/stock-kernel.sh 6.1: the machine's linux-headers-amd64). It
# holds what a user's machine would have before installing perfctr:
# systemd, dkms with gcc and make, pkg-config, and the headers of
# bookworm's kernel from apt, with dwarves (pahole), which Debian's 6.12
# headers bring (the module's BTF) and the 6.12 tree tests/stock-kernel.sh
# unpacks does not. Prints its directory. Runs under a lock,
# so make check's background run and the part itself never make it twice.
set -euo pipefail

cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
mirror=http://deb.debian.org/debian
pkgs=systemd,systemd-sysv,dbus,kmod,dkms,gcc,make,libc6-dev,pkg-config,openssl,mokutil

hdrpkg=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
	 tr ',' '\n' | sed -n 's/^ *\(linux-headers-[0-9][^ ]*\).*/\1/p' | head -n1)
hdrver=$(dpkg-query -W -f='${Version}' "$hdrpkg")
key=$( { cat "$0"; echo "$pkgs $hdrpkg=$hdrver"; } | sha256sum | cut -c1-12)
dir=$cache/pkg-rootfs/bookworm-$key

mkdir -p "$cache/pkg-rootfs"
exec 9>"$dir.lock"
flock -n 9 || { echo ">> waiting for another debootstrap of $dir" >&2; flock 9; }
if [ ! -f "$dir/.done" ]; then
	command -v debootstrap >/dev/null || {
		echo "rootfs: debootstrap is missing (tests/deps.sh installs it)" >&2
		exit 1
	}
	t0=$(date +%s)
	rm -rf "$dir"
	echo ">> debootstrap bookworm into $dir" >&2
	debootstrap --variant=minbase --include="$pkgs" bookworm "$dir" \
		"$mirror" >"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; exit 1; }
	# The machine's suites, security updates too (the kernel headers
	# come from there), for the chroot only.
	printf '%s\n' "Types: deb" "URIs: $mirror" \
		"Suites: bookworm bookworm-updates" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" "" \
		"Types: deb" "URIs: http://deb.debian.org/debian-security" \
		"Suites: bookworm-security" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
		>"$dir/etc/apt/sources.list.d/debian.sources"
	rm -f "$dir/etc/apt/sources.list"
	mount -t proc proc "$dir/proc"
	trap 'umount "$dir/proc"' EXIT
	# No daemon starts in the chroot.
	printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
	chmod 755 "$dir/usr/sbin/policy-rc.d"
	{
		chroot "$dir" apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive chroot "$dir" apt-get install -y -q \
			--no-install-recommends "$hdrpkg=$hdrver" dwarves
	} >>"$dir.log" 2>&1 || { tail -n 20 "$dir.log" >&2; exit 1; }
	chroot "$dir" apt-get clean
	rm -rf "$dir"/var/lib/apt/lists/*_Packages "$dir"/var/lib/apt/lists/*_InRelease
	echo ">> rootfs made in $(($(date +%s) - t0)) s" >&2
	touch "$dir/.done"
fi
echo "$dir"
