#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# perf-tables.sh CACHEDIR: prints the directory of perf's own x86 event
# tables (tools/perf/pmu-events/arch/x86 of a Linux source), or nothing,
# and says on stderr which. Newer CPUs are only in newer tables, so of
# every Linux source found the newest is taken:
#   $PERFCTR_PERF_TABLES   that directory ("none": do without), alone
#   /usr/src/linux-source-X.Y/ and /usr/src/linux-source-X.Y.tar.xz
#       (Debian's linux-source-X.Y; a tarball is unpacked once, its
#       tables only, into CACHEDIR/perf-tables-X.Y)
#   $PERFCTR_CACHE/src/linux-source-X.Y-*/ (default ~/.cache/perfctr):
#       the trees make check unpacks to build kernels, sid's newest too
# perfctr commits no copy of them (Documentation/perfctr/events.rst).
set -eu

cache=$1
sub=tools/perf/pmu-events/arch/x86
trees=${PERFCTR_CACHE:-${HOME:-/root}/.cache/perfctr}/src

found() {
	echo "jevents: with perf's tables from $1" >&2
	echo "$1"
	exit 0
}

if [ -n "${PERFCTR_PERF_TABLES:-}" ]; then
	[ "$PERFCTR_PERF_TABLES" = none ] || found "$PERFCTR_PERF_TABLES"
	exit 0
fi

# "VERSION PATH" for each candidate, newest last.
candidates() {
	for p in /usr/src/linux-source-*.tar.xz /usr/src/linux-source-*/ \
		 "$trees"/linux-source-*/; do
		v=${p##*/linux-source-}
		v=${v%.tar.xz}
		v=${v%/}
		v=${v%%-*}
		case $p in
		*.tar.xz) [ -f "$p" ] || continue ;;
		"$trees"/*) if [ ! -f "$p/.unpacked" ] ||
			       [ ! -f "$p/$sub/mapfile.csv" ]; then
				continue
			    fi ;;
		*) [ -f "$p/$sub/mapfile.csv" ] || continue ;;
		esac
		echo "$v $p"
	done | sort -V -k1,1
}

best=$(candidates | tail -n 1)
if [ -n "$best" ]; then
	ver=${best%% *}
	path=${best#* }
	case $path in
	*.tar.xz)
		dir=$cache/perf-tables-$ver
		# shellcheck disable=SC3013 # dash and bash have -nt
		if [ ! -f "$dir/$sub/mapfile.csv" ] || [ "$path" -nt "$dir/.stamp" ]; then
			rm -rf "$dir"
			mkdir -p "$dir"
			tar -xJf "$path" -C "$dir" --strip-components=1 \
				--wildcards "*/$sub/*"
			touch "$dir/.stamp"
		fi
		found "$dir/$sub" ;;
	*)	found "${path%/}/$sub" ;;
	esac
fi
echo "jevents: without perf's tables: modern Intel and AMD Zen CPUs get" \
	"the architectural catch-alls only (apt-get install linux-source-6.12," \
	"or a newer linux-source, for the rest)" >&2
