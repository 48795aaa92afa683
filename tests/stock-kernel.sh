#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Finds Debian's stock kernel matching the installed linux-headers-amd64:
# downloads its image package once into the cache (not installed: only
# vmlinuz is needed) and prints "HEADERS_DIR VMLINUZ".
set -euo pipefail

cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
hdrpkg=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
	 tr ',' '\n' | sed -n 's/^ *\(linux-headers-[0-9][^ ]*\).*/\1/p' | head -n1)
flavour=${hdrpkg#linux-headers-}
version=$(dpkg-query -W -f='${Version}' "$hdrpkg")
dir=$cache/stock/$flavour-$version
vmlinuz=$dir/boot/vmlinuz-$flavour

if [ ! -f "$vmlinuz" ]; then
	echo ">> fetching linux-image-$flavour $version" >&2
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q "linux-image-$flavour=$version" >&2)
	mkdir -p "$dir"
	dpkg-deb -x "$tmp"/linux-image-*.deb "$dir"
	rm -rf "$tmp"
fi
echo "/usr/src/linux-headers-$flavour $vmlinuz"
