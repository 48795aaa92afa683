#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (or reuse) PAPI with its perfctr component, from Debian's papi
# source package, on libperfctr's perfctr 2.6 view, for the test VM:
#
#   build-papi.sh
#
# Nothing of PAPI is kept in this tree: its source is fetched with apt
# (the deb-src list of tests/kernel/build-userland.sh, in the cache, not
# the system's), unpacked once into $PERFCTR_CACHE (default
# ~/.cache/perfctr)/src, and built in a copy under $PERFCTR_CACHE/papi,
# keyed by PAPI's version, this script and libperfctr's sources, so a
# change to any rebuilds it.
#
# The guest is a busybox initramfs without shared libraries, and QEMU's
# TCG raises #UD on RDPMC: every program is static, and linked with the
# simulated-PMU build of libperfctr (tests/user/Makefile's
# libperfctr-sim.a, -DPERFCTR_SIM), installed as the 2.6 view's prefix
# (tools/lib/perfctr/Makefile: $(LIBDIR)/perfctr-2.6) that PAPI's
# --with-perfctr-prefix takes. PAPI copies that archive's objects into
# libpapi.a.
#
# Prints the directory on the last line of stdout: ctests/ (the PAPI C
# tests below, attach_target beside them), tests.txt (their names, in
# order) and bin/ (the utilities below).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${PERFCTR_CACHE:-$HOME/.cache/perfctr}

# PAPI's C tests the guest runs (tests/vm/plans/papi), in this order:
# counting; threads and processes; overflow; attach.
CTESTS="low-level first case2 destroy remove_events reset zero_named cmpinfo
	hwinfo zero_pthreads fork exec forkexec overflow overflow_twoevents
	overflow_index overflow_single_event overflow_allcounters
	overflow_pthreads fork_overflow attach2 zero_attach"
UTILS="papi_component_avail papi_avail papi_native_avail papi_command_line
	papi_cost"

mkdir -p "$cache"
exec 9>"$cache/papi.lock"
flock -n 9 || { echo ">> waiting for another build of PAPI" >&2; flock 9; }

# Debian's source packages, through the cache's own deb-src list (as
# tests/kernel/build-userland.sh's).
# shellcheck source=tests/lib/apt-src.sh
. "$here/../lib/apt-src.sh"
apt_src_init "$cache"

version=$(apt-cache "${apt_opts[@]}" showsrc papi |
	sed -n 's/^Version: //p' | sort -V | tail -n 1)
[ -n "$version" ] || { echo "build-papi: no papi source package" >&2; exit 1; }

# The orig tarball, unpacked once: src/ is PAPI's build directory.
src=$cache/src/papi-$version
if [ ! -f "$src/.unpacked" ]; then
	echo ">> fetching papi $version (Debian source)" >&2
	rm -rf "$src"
	fetch_source "papi=$version" "$src"
	touch "$src/.unpacked"
fi

# What the build depends on here: the library, its headers, the events
# and the simulated view it is built with (their tracked files in a git
# checkout, where a build in the tree leaves its own files beside them).
deps="tools/lib/perfctr tools/pmu-events include/uapi tests/sim/user
      tests/user/Makefile VERSION"
key=$( (echo "$version"; cat "$0"
	cd "$root"
	# shellcheck disable=SC2086 # the paths
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -- $deps
	else
		find $deps -type f
	fi | LC_ALL=C sort | xargs cat) | sha256sum | cut -c1-12)
out=$cache/papi/$version-$key
if [ -f "$out/.built" ]; then
	echo "$out"
	exit 0
fi
# An older build (other sources) is 150 MB of programs no one runs.
rm -rf "$cache"/papi/*-*/
mkdir -p "$out"
log=$out/build.log
fail() {
	echo "build-papi: $1 failed; the end of $log:" >&2
	tail -n 30 "$log" >&2
	exit 1
}

# libperfctr installed in a prefix of its own, its static archive
# replaced by the simulated-PMU build: perfctr-2.6/lib/libperfctr.a
# links to it.
echo ">> libperfctr's 2.6 view (simulated PMU) for PAPI" >&2
inst=$out/libperfctr
make -s -C "$root/tools/lib/perfctr" O="$out/lib-build" PREFIX="$inst" \
	install >>"$log" 2>&1 || fail "libperfctr's install"
make -s -C "$root/tests/user" O="$out/user" "$out/user/obj/libperfctr-sim.a" \
	>>"$log" 2>&1 || fail "libperfctr-sim.a"
cp "$out/user/obj/libperfctr-sim.a" "$inst/lib/libperfctr.a"
prefix=$inst/lib/perfctr-2.6

echo ">> building PAPI $version with its perfctr component (static)" >&2
cp -a "$src/src" "$out/src"
# PAPI 7.0.0's PAPI_library_init starts every component but perf_event
# before the main thread's record (_papi_hwi_my_thread) exists, and the
# preset table's loader, which the perfctr component runs from its init
# (_papi_libpfm_init), keeps the event code it translates in that
# record: every program dies of a NULL dereference. Here, in the build's
# copy, no record means no code saved.
f=$out/src/papi_internal.c
sed -i -e '/^_papi_hwi_set_papi_event_code (unsigned int event_code, int update_flag) {$/a\
	if (!_papi_hwi_my_thread) return;' \
	-e '/^_papi_hwi_get_papi_event_code () {$/a\
	if (!_papi_hwi_my_thread) return -1;' \
	-e 's/^  if (_papi_hwi_my_thread->tls_papi_event_code_changed > 0) {$/  if (_papi_hwi_my_thread \&\& _papi_hwi_my_thread->tls_papi_event_code_changed > 0) {/' \
	"$f"
[ "$(grep -c '_papi_hwi_my_thread) return\|_papi_hwi_my_thread &&' "$f")" = 3 ] ||
	fail "the fix of papi_internal.c (PAPI's source changed)"
(
	cd "$out/src"
	# --with-perfctr takes the perfctr component and libpfm 3 (no
	# --with(out)-perf-events: configure takes either as forcing
	# perf_event). Static: libpapi.a only, and the tests and
	# utilities linked -static. Only the C tests: no Fortran.
	./configure --with-perfctr --with-perfctr-prefix="$prefix" \
		--with-static-lib=yes --with-shared-lib=no --with-static-tools \
		--with-libsde=no --with-tests=ctests
	# POST_BUILD copies a libperfctr.so PAPI does not need, from a
	# path it does not have.
	make -j"$(nproc)" POST_BUILD=
) >>"$log" 2>&1 || fail "PAPI's build"
grep -q '^checking platform\.\.\. linux-perfctr-x86$' "$log" ||
	fail "configure's choice of the perfctr component"

# The programs the guest runs (tests/vm/plans/papi reads tests.txt),
# stripped: each carries libperfctr's event tables, 5 MB. Static, every
# one: the guest has no dynamic loader (a static program has no program
# interpreter).
take() {	# take SRC DIR
	readelf -l "$out/src/$1" >/dev/null 2>&1 || fail "PAPI's $1"
	readelf -l "$out/src/$1" | grep -q 'program interpreter' &&
		fail "static linking ($1 is dynamic)"
	install -D -s -m 755 "$out/src/$1" "$out/$2/${1##*/}"
}
for t in $CTESTS attach_target; do
	take "ctests/$t" ctests
done
for u in $UTILS; do
	take "utils/$u" bin
done
# shellcheck disable=SC2086 # one name a line
printf '%s\n' $CTESTS >"$out/tests.txt"
rm -rf "$out/src" "$out/lib-build" "$out/user"
touch "$out/.built"
echo "$out"
