#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# stock-kernel.sh [6.1|6.12|sid]: Debian's stock amd64 kernel of that
# series, to build the module against and boot. Prints "HEADERS_DIR
# VMLINUZ" (for sid, a prepared tree in place of the headers).
#
# 6.1 (the default) is bookworm's own kernel: the headers are the
# installed linux-headers-amd64, the image package is downloaded once
# into the cache (not installed: only vmlinuz is needed).
# 6.12 is bookworm's newer kernel (from its security archive): its
# headers package would pull the kernel itself onto this machine, so the
# newest headers, their common and kbuild parts and the image are
# downloaded and unpacked side by side in the cache instead.
# sid is the newest kernel of Debian's unstable suite (7.2 as written),
# from apt lists of its own in the cache: the machine's sources stay
# bookworm's. Its kbuild tools need a newer glibc than bookworm's, so
# the module is built against a tree prepared here from its
# linux-source with the stock image's config and release string, and
# the stock headers' Module.symvers; sid's sparse is built beside it
# (sparse/sparse), for C=2 there. Fetched and prepared once, under a
# lock: make check starts it in the background (tests/check.sh prebuild).
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

# sid's apt state, apart from the machine's: its own sources, lists and
# package caches (without one, each query parses the lists again: 10 s).
# The source packages' lists (sparse's) apart, as every query reads all
# the lists it has.
for x in '' -src; do
	opts=(-o Dir::Etc::SourceList=/dev/null
	      -o "Dir::Etc::SourceParts=$cache/apt-sid/sources$x"
	      -o "Dir::State::Lists=$cache/apt-sid/lists$x"
	      -o "Dir::Cache::pkgcache=$cache/apt-sid/pkgcache$x.bin"
	      -o "Dir::Cache::srcpkgcache=$cache/apt-sid/srcpkgcache$x.bin")
	if [ -z "$x" ]; then sid_apt=("${opts[@]}"); else sid_src_apt=("${opts[@]}"); fi
done

# sid_lists [-src]: sid's package (or source package) lists, fetched
# again once a day, as sid moves on and the mirror drops what it
# replaced; offline, the old ones do.
sid_lists() {
	local d=$cache/apt-sid x=${1:-} type=deb name=sid_apt
	[ -n "$x" ] && { type=deb-src; name=sid_src_apt; }
	local -n apt_opts=$name
	mkdir -p "$d/sources$x" "$d/lists$x/partial"
	printf '%s\n' "Types: $type" 'URIs: http://deb.debian.org/debian' \
		'Suites: sid' 'Components: main' \
		'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
		>"$d/sources$x/sid.sources"
	# Its own stamp: apt keeps an unchanged list's old time. Under a
	# lock: two callers at once (make check's background build and a
	# part) would meet on apt's lock of the lists, and one would fail.
	(
		flock 7
		[ -n "$(find "$d" -maxdepth 1 -name "updated$x" -mmin -1440)" ] &&
			exit 0
		if apt-get "${apt_opts[@]}" update -q >&2; then
			touch "$d/updated$x"
		else
			[ -n "$(find "$d/lists$x" -maxdepth 1 -name '*_sid_InRelease')" ]
		fi
	) 7>"$d/lists$x.lock"
}

# sid_fetch DIR SRC FLAVOUR VERSION SERIES: the stock headers and
# vmlinuz into DIR, linux-source-SERIES unpacked into SRC.
sid_fetch() {
	local dir=$1 src=$2 flavour=$3 version=$4 ksrc=$5 tmp d
	local pkgs=("linux-headers-$flavour=$version" "linux-image-$flavour=$version")
	# sid's image package is a meta package now: the kernel itself is
	# in linux-binary-*.
	apt-cache "${sid_apt[@]}" show "linux-binary-$flavour" >/dev/null 2>&1 &&
		pkgs+=("linux-binary-$flavour=$version")
	[ -f "$src/.unpacked" ] || pkgs+=("linux-source-$ksrc=$version")
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get "${sid_apt[@]}" download -q "${pkgs[@]}" >&2) ||
		{ rm -rf "$tmp"; return 1; }
	mkdir -p "$dir/boot"
	dpkg-deb -x "$tmp"/linux-headers-*.deb "$dir"
	for d in "$tmp"/linux-image-*.deb "$tmp"/linux-binary-*.deb; do
		[ -f "$d" ] || continue
		dpkg-deb --fsys-tarfile "$d" | tar -x -C "$tmp" --wildcards \
			'./boot/vmlinuz-*' "./usr/lib/modules/$flavour/vmlinuz" 2>/dev/null
	done
	mv "$tmp/boot/vmlinuz-$flavour" "$dir/boot/" 2>/dev/null ||
		mv "$tmp/usr/lib/modules/$flavour/vmlinuz" "$dir/boot/vmlinuz-$flavour" ||
		{ rm -rf "$tmp"; return 1; }
	if [ ! -f "$src/.unpacked" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		dpkg-deb --fsys-tarfile "$tmp"/linux-source-*.deb |
			tar -xO "./usr/src/linux-source-$ksrc.tar.xz" |
			tar -xJ -C "$src" --strip-components=1
		touch "$src/.unpacked"
	fi
	rm -rf "$tmp"
}

# sid_prepare DIR SRC FLAVOUR: DIR/build, SRC configured as the stock
# image and prepared for modules with this machine's compiler. Kconfig
# drops what that compiler or its tools cannot do (Rust, the newest
# compiler flags: see config.diff); the module's vermagic and symbols
# still match the image, and so must every option that shapes struct
# module, which the loader takes from the module as it is (checked).
sid_prepare() {
	local dir=$1 src=$2 flavour=$3 hdrs=$1/usr/src/linux-headers-$3
	local out=$1/build
	rm -rf "$out"
	mkdir -p "$out"
	cp "$hdrs/.config" "$out/.config"
	make -s -C "$src" O="$out" KERNELRELEASE="$flavour" olddefconfig >&2
	diff "$hdrs/.config" "$out/.config" >"$dir/config.diff"
	sid_same_module_layout "$src" "$hdrs/.config" "$out/.config" || return 1
	make -s -C "$src" O="$out" KERNELRELEASE="$flavour" -j"$(nproc)" \
		modules_prepare >&2
	cp "$hdrs/Module.symvers" "$out/"
	[ "$(cat "$out/include/config/kernel.release")" = "$flavour" ]
}

# sid_same_module_layout SRC STOCK PREPARED: the CONFIG_ options that
# struct module's layout depends on (<linux/module.h>) are as the stock
# image has them.
sid_same_module_layout() {
	local o bad=0
	for o in $(grep -E '^#\s*(if|elif|ifdef|ifndef)' "$1/include/linux/module.h" |
		   grep -oE 'CONFIG_[A-Z0-9_]+' | sort -u); do
		if [ "$(grep -E "^$o=" "$2")" != "$(grep -E "^$o=" "$3")" ]; then
			echo "$o differs from the stock image's" >&2
			bad=1
		fi
	done
	return "$bad"
}

# sid_sparse DIR: sid's sparse in DIR/sparse/sparse. Bookworm's 0.6.4
# cannot parse what the newest kernels' headers use (__typeof_unqual__),
# and their Makefile then skips C=2 with a warning.
sid_sparse() {
	local dir=$1/sparse tmp
	sid_lists -src || return 1
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get "${sid_src_apt[@]}" source --download-only -q sparse >&2) ||
		{ rm -rf "$tmp"; return 1; }
	rm -rf "$dir"
	mkdir -p "$dir/src"
	tar -xzf "$tmp"/sparse_*.orig.tar.gz -C "$dir/src" --strip-components=1
	rm -rf "$tmp"
	make -s -C "$dir/src" -j"$(nproc)" HAVE_LLVM=no HAVE_SQLITE=no \
		HAVE_GTK=no sparse >&2
	mv "$dir/src/sparse" "$dir/sparse"
	rm -rf "$dir/src"
}

# sid_kernel: the newest kernel in sid, fetched and prepared once.
sid_kernel() {
	local hdrpkg flavour version ksrc dir src t0 t1
	sid_lists || { echo "no apt lists for sid" >&2; return 1; }
	hdrpkg=$(apt-cache "${sid_apt[@]}" search --names-only \
		 '^linux-headers-[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+-amd64$' |
		 awk '{ print $1 }' | sort -V | tail -n1)
	[ -n "$hdrpkg" ] || { echo "no linux-headers-*-amd64 in sid" >&2; return 1; }
	flavour=${hdrpkg#linux-headers-}	# 7.2.13+deb14-amd64
	ksrc=${flavour%%+*}
	ksrc=${ksrc%.*}				# 7.2
	version=$(apt-cache "${sid_apt[@]}" show "$hdrpkg" |
		  sed -n 's/^Version: //p' | sort -V | tail -n1)
	dir=$cache/stock/$flavour-$version
	src=$cache/src/linux-source-$ksrc-$version
	mkdir -p "$cache/stock" "$cache/src"
	exec 9>"$dir.lock"
	flock -n 9 || { echo ">> waiting for another preparation of $dir" >&2; flock 9; }
	if [ ! -f "$dir/.prepared" ]; then
		rm -rf "$dir"
		t0=$(date +%s)
		echo ">> fetching sid's $flavour $version" >&2
		(
			flock 8
			sid_fetch "$dir" "$src" "$flavour" "$version" "$ksrc"
		) 8>"$src.lock" || { echo "fetching $flavour failed" >&2; return 1; }
		t1=$(date +%s)
		echo ">> preparing $dir/build" >&2
		sid_prepare "$dir" "$src" "$flavour" ||
			{ echo "preparing $flavour failed" >&2; return 1; }
		sid_sparse "$dir" || { echo "building sid's sparse failed" >&2; return 1; }
		echo ">> sid $flavour: fetched in $((t1 - t0)) s, prepared in $(($(date +%s) - t1)) s" >&2
		touch "$dir/.prepared"
	fi
	echo "$dir/build $dir/boot/vmlinuz-$flavour"
}

# stock_lock DIR: held until this script exits, as sid's: make check's
# stock part and its pkg part may fetch one kernel at once.
stock_lock() {
	mkdir -p "$cache/stock"
	exec 9>"$1.lock"
	flock -n 9 || { echo ">> waiting for another fetch of $1" >&2; flock 9; }
}

if [ "$series" = 6.1 ]; then
	hdrpkg=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
		 tr ',' '\n' | sed -n 's/^ *\(linux-headers-[0-9][^ ]*\).*/\1/p' | head -n1)
	flavour=${hdrpkg#linux-headers-}
	version=$(dpkg-query -W -f='${Version}' "$hdrpkg")
	dir=$cache/stock/$flavour-$version
	vmlinuz=$dir/boot/vmlinuz-$flavour
	stock_lock "$dir"
	if [ ! -f "$vmlinuz" ]; then
		echo ">> fetching linux-image-$flavour $version" >&2
		fetch "$dir" "linux-image-$flavour=$version"
	fi
	echo "/usr/src/linux-headers-$flavour $vmlinuz"
	exit 0
fi

if [ "$series" = sid ]; then
	sid_kernel
	exit
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
stock_lock "$dir"
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
