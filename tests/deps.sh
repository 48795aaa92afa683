#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs, with apt-get, only the Debian packages that are missing.
# Usage: deps.sh [ppc]   (ppc adds the ppc32 cross tools and QEMU)
# linux-source-6.12 is for perf's event tables, which libperfctr's build
# reads from it (Documentation/perfctr/events.rst); python3-docutils
# (rst2man) makes the manual pages, man-db checks them.
set -euo pipefail

pkgs="make gcc libc6-dev bc flex bison libelf-dev libssl-dev dwarves cpio
      xz-utils gzip kmod pkg-config perl linux-source-6.1 linux-headers-amd64
      qemu-system-x86 busybox-static check libsubunit-dev sparse python3
      linux-source-6.12 python3-docutils man-db"
# The papi part (tests/papi/build-papi.sh) fetches Debian's papi source
# with apt and needs nothing more: gcc, make and libc6-dev's static libc
# build it, with its C tests only (no gfortran).
# The pkg part (tests/check/pkg.sh): the Debian packages, lintian, and a
# bookworm system to install them in.
pkgs="$pkgs debootstrap dkms debhelper dh-dkms lintian"
# The ppc32 guest: kernel and user space cross-built, Check and busybox
# from Debian's sources (tests/kernel/build-userland.sh).
if [ "${1:-}" = ppc ]; then
	pkgs="$pkgs gcc-powerpc-linux-gnu libc6-dev-powerpc-cross qemu-system-ppc"
fi

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages:$missing (run as root to install)" >&2
		exit 1
	fi
	echo ">> installing:$missing" >&2
	apt-get update -q >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >&2
fi
