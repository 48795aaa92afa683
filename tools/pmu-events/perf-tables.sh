#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# perf-tables.sh CACHEDIR: prints the directory of perf's own x86 event
# tables (tools/perf/pmu-events/arch/x86 of a Linux 6.12 source), or
# nothing, and says on stderr which. Looked for, in order:
#   $PERFCTR_PERF_TABLES   that directory ("none": do without)
#   /usr/src/linux-source-6.12/tools/perf/pmu-events/arch/x86
#   /usr/src/linux-source-6.12.tar.xz (Debian's linux-source-6.12),
#       unpacked once into CACHEDIR/perf-tables
# perfctr commits no copy of them (Documentation/perfctr/events.rst).
set -eu

cache=$1
sub=tools/perf/pmu-events/arch/x86
tarball=/usr/src/linux-source-6.12.tar.xz

found() {
	echo "jevents: with perf's tables from $1" >&2
	echo "$1"
	exit 0
}

if [ -n "${PERFCTR_PERF_TABLES:-}" ]; then
	[ "$PERFCTR_PERF_TABLES" = none ] || found "$PERFCTR_PERF_TABLES"
elif [ -f "/usr/src/linux-source-6.12/$sub/mapfile.csv" ]; then
	found "/usr/src/linux-source-6.12/$sub"
elif [ -f "$tarball" ]; then
	dir=$cache/perf-tables
	if [ ! -f "$dir/$sub/mapfile.csv" ] || [ "$tarball" -nt "$dir/.stamp" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" --strip-components=1 \
			--wildcards "*/$sub/*"
		touch "$dir/.stamp"
	fi
	found "$dir/$sub"
fi
echo "jevents: without perf's tables: modern Intel and AMD Zen CPUs get" \
	"the architectural catch-alls only (apt-get install linux-source-6.12" \
	"for the rest)" >&2
