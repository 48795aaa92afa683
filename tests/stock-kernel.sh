#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# stock-kernel.sh [6.1|6.12]: Debian's stock amd64 kernel of that series,
# to build the module against and boot. Prints "HEADERS_DIR VMLINUZ".
#
# 6.1 (the default) is bookworm's own kernel: the headers are the
# installed linux-headers-amd64, the image package is downloaded once
# into the cache (not installed: only vmlinuz is needed).
# 6.12 is bookworm's newer kernel (from its security archive): its
# headers package would pull the kernel itself onto this machine, so the
# newest headers, their common and kbuild parts and the image are
# downloaded and unpacked side by side in the cache instead.
set -euo pipefail

series=${1:-6.1}
cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}

# fetch DIR PACKAGE=VERSION...: download and unpack into DIR; of a kernel
# image package only the kernel itself, not its modules.
fetch() {
	local dir=$1 tmp d
	shift
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q "$@" >&2)
	mkdir -p "$dir"
	for d in "$tmp"/*.deb; do
		case ${d##*/} in
		linux-image-*) dpkg-deb --fsys-tarfile "$d" |
				tar -x -C "$dir" --wildcards './boot/vmlinuz-*' ;;
		*) dpkg-deb -x "$d" "$dir" ;;
		esac
	done
	rm -rf "$tmp"
}

if [ "$series" = 6.1 ]; then
	hdrpkg=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
		 tr ',' '\n' | sed -n 's/^ *\(linux-headers-[0-9][^ ]*\).*/\1/p' | head -n1)
	flavour=${hdrpkg#linux-headers-}
	version=$(dpkg-query -W -f='${Version}' "$hdrpkg")
	dir=$cache/stock/$flavour-$version
	vmlinuz=$dir/boot/vmlinuz-$flavour
	if [ ! -f "$vmlinuz" ]; then
		echo ">> fetching linux-image-$flavour $version" >&2
		fetch "$dir" "linux-image-$flavour=$version"
	fi
	echo "/usr/src/linux-headers-$flavour $vmlinuz"
	exit 0
fi

newest() {
	apt-cache search --names-only "^linux-headers-$series\.[0-9]+\+deb12-amd64\$" |
		awk '{ print $1 }' | sort -V | tail -n1
}
hdrpkg=$(newest)
if [ -z "$hdrpkg" ] && [ "$(id -u)" = 0 ]; then
	apt-get update -q >&2
	hdrpkg=$(newest)
fi
[ -n "$hdrpkg" ] || { echo "no linux-headers-$series.*-amd64 in apt" >&2; exit 1; }
flavour=${hdrpkg#linux-headers-}		# 6.12.117+deb12-amd64
abi=${flavour%-amd64}				# 6.12.117+deb12
version=$(apt-cache policy "$hdrpkg" | sed -n 's/^ *Candidate: //p')
dir=$cache/stock/$flavour-$version
hdrs=$dir/usr/src/linux-headers-$flavour
vmlinuz=$dir/boot/vmlinuz-$flavour
if [ ! -f "$dir/.unpacked" ]; then
	echo ">> fetching $hdrpkg and linux-image-$flavour $version" >&2
	rm -rf "$dir"
	fetch "$dir" "$hdrpkg=$version" "linux-headers-$abi-common=$version" \
		"linux-kbuild-$abi=$version" "linux-image-$flavour=$version"
	# Its Makefile names the common part by absolute path; the
	# scripts and tools links are relative and land in $dir already.
	sed -i "s|^include /usr/src/|include $dir/usr/src/|" "$hdrs/Makefile"
	touch "$dir/.unpacked"
fi
echo "$hdrs $vmlinuz"
