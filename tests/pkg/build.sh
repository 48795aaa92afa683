#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build.sh OUT: the Debian packages, built as a user would
# (dpkg-buildpackage -us -uc) from a clean copy of the tree (its
# files that git tracks or would, so nothing of .build/ goes in), in
# OUT/perfctr-VERSION; the .debs and .changes land in OUT. Then lintian
# on the .changes, at its default level, into OUT/lintian.txt. Prints
# RESULT lines; the build's output is in OUT/build.log.
set -uo pipefail

out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(cat "$root/VERSION")
src=$out/perfctr-$version

rm -rf "$out"
mkdir -p "$src"
# (A file deleted but not yet committed is still in git's index.)
(cd "$root" && git ls-files -co --exclude-standard -z |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | tar -xf - -C "$src"
if (cd "$src" && dpkg-buildpackage -us -uc -Jauto) >"$out/build.log" 2>&1; then
	echo "RESULT PASS deb-build"
else
	echo "RESULT FAIL deb-build"
	tail -n 20 "$out/build.log" | sed 's/^/    /'
	exit 0
fi
# Errors and warnings fail; information and overrides are shown only.
lintian --fail-on none "$out"/perfctr_"$version"_*.changes >"$out/lintian.txt" 2>&1
if grep -qE '^[EW]: ' "$out/lintian.txt"; then
	echo "RESULT FAIL lintian"
	grep -E '^[EW]: ' "$out/lintian.txt" | head -n 20 | sed 's/^/    /'
else
	echo "RESULT PASS lintian"
fi
