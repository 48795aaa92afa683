# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Debian's source packages for the test builds (tests/kernel/build-
# userland.sh, tests/papi/build-papi.sh), through a deb-src list of the
# cache's own: the system's apt lists are never read or changed.
#   . apt-src.sh; apt_src_init CACHE
# sets apt_opts (apt-get's and apt-cache's options) and updates the
# lists once, under a lock, for every caller; fetch_source then unpacks
# a package's orig tarball.

apt_opts=()

apt_src_init() {	# apt_src_init CACHE
	local dir=$1/apt-src
	apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list"
		  -o Dir::Etc::SourceParts=/dev/null
		  -o "Dir::State::Lists=$dir/lists")
	mkdir -p "$dir"
	(
		flock 8
		if [ ! -d "$dir/lists" ]; then
			mkdir -p "$dir/lists/partial"
			echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
				>"$dir/sources.list"
			apt-get "${apt_opts[@]}" update -q >&2
		fi
	) 8>"$dir.lock"
}

fetch_source() {	# fetch_source PKG[=VERSION] DIR: orig tarball into DIR
	local pkg=$1 dir=$2 tmp f
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get "${apt_opts[@]}" source --download-only "$pkg" >&2)
	mkdir -p "$dir"
	# The tarball, not its signature (.asc) where one comes with it.
	for f in "$tmp"/"${pkg%%=*}"_*.orig.tar.*; do
		case $f in
		*.asc) ;;
		*) tar -xf "$f" -C "$dir" --strip-components=1 ;;
		esac
	done
	rm -rf "$tmp"
}
