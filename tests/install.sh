#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# install.sh OUTDIR: user space as a package would have it. Builds tools/
# into OUTDIR/build, installs it under OUTDIR/dest (PREFIX=/usr, LIBDIR
# as Debian's), and checks what was installed: the library's exports
# against libperfctr.rst's list, its soname, no text relocations, no
# RUNPATH, the event tables in the library only, the tools running on
# the installed library, programs and a shared object built against the
# installed headers (plain cc and pkg-config), the manual pages, the
# tools' --help, --version and usage errors, and make uninstall. Where a
# check has a cheap refusing case (a library linked without the map,
# the build tree's tools, a static perfex), it is run too and must fail.
# Prints RESULT PASS|FAIL lines; needs no module and no VM. (pipefail:
# no grep -q after a pipe, whose early exit would fail the writer.)
set -uo pipefail
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
out=$1
B=$out/build D=$out/dest T=$out/tmp
PREFIX=/usr
LIBDIR=$PREFIX/lib/$(${CC:-cc} -dumpmachine)
L=$D$LIBDIR
VERSION=$(cat "$ROOT/VERSION")
rm -rf "$out"
mkdir -p "$T"
vars=(O="$B" DESTDIR="$D" PREFIX="$PREFIX" LIBDIR="$LIBDIR")

result() {	# result NAME OK? [why]
	if [ "$2" = 0 ]; then
		echo "RESULT PASS install:$1"
	else
		echo "RESULT FAIL install:$1${3:+: $3}"
	fi
}

refused() {	# refused NAME CMD...: passes if CMD fails
	if "${@:2}" >/dev/null 2>&1; then
		result "$1" 1 "accepted what it must refuse"
	else
		result "$1" 0
	fi
}

# The functions libperfctr.rst documents: the terms of its definition
# lists (a line starting with `` followed by an indented one), each
# identifier before a "(" there. Read from the doc, not from the code.
documented() {
	awk 'prev ~ /^``/ && /^  [^ ]/ { print prev } { prev = $0 }' \
		"$ROOT/Documentation/perfctr/libperfctr.rst" |
		grep -oE '[a-z_][a-z0-9_]*\(' | tr -d '(' | sort -u
}

# exports_ok LIB: its dynamic symbols are exactly the documented ones
# (the version node's own symbol aside). Prints the difference.
exports_ok() {
	nm -D --defined-only "$1" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
		sort -u >"$T/exported"
	documented >"$T/documented"
	[ -s "$T/documented" ] || { echo "no function found in libperfctr.rst"; return 1; }
	diff "$T/documented" "$T/exported" | sed -n 's/^</  documented, not exported:/p; s/^>/  exported, not documented:/p'
	cmp -s "$T/documented" "$T/exported"
}

soname_ok() {	# soname_ok LIB
	readelf -d "$1" | grep 'Library soname: \[libperfctr\.so\.1\]' >/dev/null
}

# A file readelf cannot read fails these too, rather than passing.
no_textrel() {	# no_textrel ELF
	readelf -d "$1" >"$T/dynamic" && ! grep TEXTREL "$T/dynamic"
}

no_runpath() {	# no_runpath ELF
	readelf -d "$1" >"$T/dynamic" && ! grep -E '\((RPATH|RUNPATH)\)' "$T/dynamic"
}

# tables_elsewhere PROG: PROG holds none of the event tables (they take
# about 3 MB in libperfctr.so): no pe_events symbol, under 1 MB.
tables_elsewhere() {
	! nm "$1" 2>/dev/null | grep -w pe_events >/dev/null &&
		[ "$(stat -c %s "$1")" -lt 1048576 ]
}

step_install() {
	if make -C "$ROOT/tools" "${vars[@]}" install >"$out/install.log" 2>&1; then
		result install 0
	else
		result install 1 "see $out/install.log"
		tail -n 20 "$out/install.log"
		exit 0
	fi
	# The layout tools/Makefile documents, file by file.
	local f missing=
	for f in "$L/libperfctr.so.1.${VERSION#*.}" "$L/libperfctr.so.1" \
		"$L/libperfctr.so" "$L/libperfctr.a" "$L/pkgconfig/libperfctr.pc" \
		"$D$PREFIX/include/libperfctr.h" "$D$PREFIX/include/libperfctr26.h" \
		"$L"/perfctr-2.6/include/{libperfctr.h,perfctr/perfctr.h} \
		"$L"/perfctr-2.6/lib/libperfctr.{so,a} \
		"$D$PREFIX"/include/perfctr/{perfctr,ibs,perfmon,asm-x86,asm-powerpc}.h \
		"$D$PREFIX"/bin/{perfex,vself,gperfctr} \
		"$D$PREFIX"/share/man/man1/{perfex,vself,gperfctr}.1 \
		"$D$PREFIX"/share/man/man3/{libperfctr,vperfctr_open}.3 \
		"$D$PREFIX"/share/man/man4/{perfctr,perfmon}.4 \
		"$D$PREFIX"/share/doc/perfctr/examples/perfmon-example.c; do
		[ -e "$f" ] || missing="$missing ${f#"$D"}"
	done
	result layout "$([ -z "$missing" ]; echo $?)" "missing:$missing"
}

step_library() {
	local so=$L/libperfctr.so.1 bad
	exports_ok "$so"
	result exports-documented-only $?
	# Refusing: the same objects linked without the version script.
	${CC:-cc} -shared -o "$T/libperfctr-nomap.so" "$B"/pic/*.o "$B/pmu-events.o"
	refused exports-refuses-unmapped exports_ok "$T/libperfctr-nomap.so"
	soname_ok "$so"
	result soname $?
	refused soname-refuses-none soname_ok "$T/libperfctr-nomap.so"
	[ "$(readlink "$L/libperfctr.so")" = libperfctr.so.1 ] &&
		[ "$(readlink "$L/libperfctr.so.1")" = "libperfctr.so.1.${VERSION#*.}" ]
	result symlinks $?
	no_textrel "$so" >/dev/null
	result no-textrel $?
	# Refusing: position-dependent code in a shared object (x86_64's
	# large model makes absolute references; -z notext lets them in).
	printf 'int g;\nint f(void) { return g; }\n' >"$T/textrel.c"
	${CC:-cc} -fno-pic -mcmodel=large -c -o "$T/textrel.o" "$T/textrel.c" &&
		${CC:-cc} -shared -Wl,-z,notext -o "$T/textrel.so" "$T/textrel.o" &&
		! no_textrel "$T/textrel.so" >/dev/null
	result no-textrel-refuses-textrel $?
	bad=
	for f in "$so" "$D$PREFIX"/bin/*; do
		no_runpath "$f" >/dev/null || bad="$bad ${f##*/}"
	done
	result no-runpath "$([ -z "$bad" ]; echo $?)" "in$bad"
	refused no-runpath-refuses-build-tree no_runpath "$B/perfex"
}

step_tables() {
	tables_elsewhere "$D$PREFIX/bin/perfex" &&
		nm "$L/libperfctr.so.1" | grep -w pe_events >/dev/null
	result tables-in-library-only $?
	# Refusing: perfex linked with libperfctr.a holds them.
	${CC:-cc} -o "$T/perfex-static" "$B"/obj/perfex/*.o "$B/libperfctr.a" -lm
	refused tables-refuses-static-perfex tables_elsewhere "$T/perfex-static"
	echo "  sizes: libperfctr.so.1 $(stat -L -c %s "$L/libperfctr.so.1"), perfex $(stat -c %s "$D$PREFIX/bin/perfex"), perfex with libperfctr.a $(stat -c %s "$T/perfex-static")"
}

# The installed tools on the installed library: ldd must find it in $L.
step_run() {
	local env=(env LD_LIBRARY_PATH="$L") n
	"${env[@]}" ldd "$D$PREFIX/bin/perfex" |
		grep "libperfctr.so.1 => $L/libperfctr.so.1 " >/dev/null
	result runs-on-installed-library $?
	n=$("${env[@]}" "$D$PREFIX/bin/perfex" --cpuid=GenuineIntel-6-7-3 -l | wc -l)
	[ "$n" -gt 10 ]
	result perfex-lists-events $? "$n lines"
	"$B/perfex" --version >/dev/null
	result build-tree-runs $?
}

# A program of the API: a table, an encoding, the perfmon header.
write_prog() {
	cat >"$T/prog.c" <<'EOF'
#include <stdio.h>
#include <libperfctr.h>
#include <perfctr/perfmon.h>

int use_perfctr(void)
{
	const struct perfctr_event_table *t;
	struct perfctr_event_set set;
	struct vperfctr_control ctl;

	t = perfctr_event_table("GenuineIntel-6-7-3");
	if (!t || perfctr_event_encode(t, "cycles", PERFCTR_EVENT_USER, &ctl, &set))
		return 1;
	return ctl.cpu_control.nractrs == 0 || PMIOSETUP == 0;
}

#ifndef PLUGIN
int main(void)
{
	return use_perfctr();
}
#endif
EOF
	cat >"$T/main.c" <<'EOF'
int use_perfctr(void);

int main(void)
{
	return use_perfctr();
}
EOF
}

# build_ok NAME CMD...: CMD builds, and every perfctr header it read
# came from the installed tree (cc -H lists them).
build_ok() {
	local name=$1 hdrs
	shift
	if ! "$@" -H >"$T/$name.log" 2>&1; then
		result "$name" 1 "$(grep -m1 -E 'error|undefined' "$T/$name.log")"
		return 1
	fi
	hdrs=$(grep -E '^\.+ .*(perfctr|perfmon)' "$T/$name.log" | grep -v " $D/" || true)
	result "$name" "$([ -z "$hdrs" ]; echo $?)" "headers from outside: $hdrs"
}

# $cc is split on purpose: CC may carry flags (CC="gcc -m32").
# shellcheck disable=SC2086
step_programs() {
	local pc cc=${CC:-cc}
	write_prog
	build_ok build-plain-cc $cc -I"$D$PREFIX/include" -o "$T/prog" "$T/prog.c" \
		-L"$L" -lperfctr &&
		LD_LIBRARY_PATH=$L "$T/prog"
	result run-plain-cc $?
	pc=(env PKG_CONFIG_PATH="$L/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" pkg-config)
	# shellcheck disable=SC2046
	build_ok build-pkg-config $cc $("${pc[@]}" --cflags libperfctr) \
		-o "$T/prog-pc" "$T/prog.c" $("${pc[@]}" --libs libperfctr) &&
		LD_LIBRARY_PATH=$L "$T/prog-pc"
	result run-pkg-config $?
	# shellcheck disable=SC2046
	build_ok build-pkg-config-static $cc -static $("${pc[@]}" --cflags libperfctr) \
		-o "$T/prog-static" "$T/prog.c" $("${pc[@]}" --static --libs libperfctr) &&
		"$T/prog-static" &&
		! readelf -d "$T/prog-static" 2>/dev/null | grep NEEDED >/dev/null
	result run-pkg-config-static $?
	# A shared object that uses libperfctr, and a program that uses it.
	# shellcheck disable=SC2046
	build_ok build-shared-object $cc -shared -fPIC -DPLUGIN -I"$D$PREFIX/include" \
		-o "$T/libplugin.so" "$T/prog.c" -L"$L" -lperfctr &&
		$cc -o "$T/main" "$T/main.c" -L"$T" -lplugin -Wl,-rpath-link,"$L" &&
		LD_LIBRARY_PATH=$L:$T "$T/main"
	result run-shared-object $?
}

# A perfctr 2.6 program, as PAPI's perfctr component and its configure
# test are: 2.6's calls and types, and 2.6's ABI version.
write_prog26() {
	cat >"$T/prog26.c" <<'EOF'
#include <stdlib.h>
#include <unistd.h>
#include "libperfctr.h"

int main(int argc, char **argv)
{
	struct perfctr_info info;
	struct vperfctr_control ctl = { 0 };
	struct rvperfctr *rv;
	int fd;

	if ((PERFCTR_ABI_VERSION >> 24) != 5)
		exit(1);
	if (argc < 2)
		exit(0);
	/* Never run: it need only build and link. */
	fd = _vperfctr_open(0);
	if (perfctr_info(fd, &info) || !perfctr_info_cpu_name(&info) ||
	    !perfctr_info_nrctrs(&info) || info.driver_version[0] == 0)
		return 1;
	ctl.cpu_control.p4.escr[0] = ctl.cpu_control.p4.pebs_enable = 1;
	rv = rvperfctr_open(atoi(argv[1]));
	if (!rv || rvperfctr_control(rv, &ctl) || rvperfctr_stop(rv))
		return 1;
	rvperfctr_close(rv);
	return vperfctr_stop(vperfctr_open()) || close(fd);
}
EOF
}

# $cc is split on purpose, as in step_programs.
# shellcheck disable=SC2086
step_compat26() {
	local v=$L/perfctr-2.6 cc=${CC:-cc}
	write_prog26
	build_ok build-2.6-view $cc -I"$v/include" -o "$T/prog26" \
		"$T/prog26.c" -L"$v/lib" -lperfctr &&
		LD_LIBRARY_PATH=$L "$T/prog26"
	result run-2.6-view $?
	# PAPI's configure: the same test program, static.
	build_ok build-2.6-view-static $cc -static -I"$v/include" \
		-o "$T/prog26-static" "$T/prog26.c" -L"$v/lib" -lperfctr &&
		"$T/prog26-static"
	result run-2.6-view-static $?
	# Refusing: this project's own API is not 2.6's.
	! $cc -I"$D$PREFIX/include" -c -o "$T/prog26.o" "$T/prog26.c" \
		>"$T/prog26-own.log" 2>&1
	result 2.6-program-refused-by-own-api $?
}

# The installed perfmon example: a FreeBSD program, built with plain cc
# and the installed header alone (strict C99, every warning an error);
# without its arguments it prints its usage and exits 2 (no /dev/perfmon
# needed). Refusing: the same file with the include directory left out.
# shellcheck disable=SC2086
step_example() {
	local cc=${CC:-cc} ex=$D$PREFIX/share/doc/perfctr/examples/perfmon-example.c
	local flags=(-std=c99 -pedantic -Wall -Wextra -Werror)
	build_ok build-perfmon-example $cc "${flags[@]}" -I"$D$PREFIX/include" \
		-o "$T/perfmon-example" "$ex" || return 0
	"$T/perfmon-example" >"$T/out" 2>"$T/err"
	[ $? = 2 ] && grep -q '^usage: .* WORD0 WORD1 LOOPS$' "$T/err"
	result perfmon-example-usage $?
	if [ -e /usr/include/perfctr/perfmon.h ]; then
		echo "  (a perfctr header in /usr/include: the refusing build skipped)"
	else
		refused perfmon-example-needs-header $cc -o "$T/pe-bad" "$ex"
	fi
}

# page_ok PAGE: man renders it without a warning.
page_ok() {
	local w
	w=$(cd "$(dirname "$(dirname "$1")")" && LC_ALL=C.UTF-8 MANROFFSEQ='' \
		MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null)
	[ -z "$w" ] || { echo "$w" | head -n 3; return 1; }
}

step_man() {
	local p bad='' nso=0 nfn
	for p in "$D$PREFIX"/share/man/man[134]/*; do
		page_ok "$p" || bad="$bad ${p##*/}"
		if grep -q '^\.so ' "$p"; then
			nso=$((nso + 1))
		else
			lexgrog "$p" >/dev/null || bad="$bad ${p##*/}(NAME)"
		fi
	done
	result man-pages-clean "$([ -z "$bad" ]; echo $?)" "$bad"
	# Refusing: a page with a broken request.
	printf '.TH BAD 1\n.SH NAME\nbad \\- page\n.BOGUS\n\\f(XX\n' >"$T/bad.1"
	refused man-refuses-bad-page page_ok "$T/bad.1"
	nfn=$(documented | wc -l)
	[ "$nso" = "$nfn" ]
	result man-page-per-function $? "$nso .so pages, $nfn functions"
}

# tool_ok TOOL: --help and -h on stdout with status 0, --version says
# "TOOL (perfctr) VERSION", an unknown option exits 2 pointing to --help.
tool_ok() {
	local t=$1 p=$D$PREFIX/bin/$1 o e
	local -x LD_LIBRARY_PATH=$L
	for o in --help -h; do
		if ! "$p" "$o" >"$T/out" 2>"$T/err" || [ ! -s "$T/out" ] ||
		   [ -s "$T/err" ]; then
			echo "$t $o"
			return 1
		fi
	done
	[ "$("$p" --version 2>&1)" = "$t (perfctr) $VERSION" ] ||
		{ echo "$t --version"; return 1; }
	"$p" --no-such-option >"$T/out" 2>"$T/err"
	e=$?
	if [ "$e" != 2 ] || [ -s "$T/out" ] || ! grep -q -- "--help" "$T/err"; then
		echo "$t --no-such-option: exit $e"
		return 1
	fi
}

step_tools() {
	local t
	for t in perfex vself gperfctr; do
		tool_ok "$t"
		result "tool-options:$t" $?
	done
}

step_uninstall() {
	local left
	make -C "$ROOT/tools" "${vars[@]}" uninstall >"$out/uninstall.log" 2>&1
	left=$(find "$D" ! -type d | sed "s|^$D||" | tr '\n' ' ')
	result uninstall "$([ -z "$left" ]; echo $?)" "left: $left"
}

step_install
step_library
step_tables
step_run
step_programs
step_compat26
step_example
step_man
step_tools
step_uninstall
exit 0
