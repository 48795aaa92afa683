# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets results
# check.sh's install part: user space installed as a package would be
# (tests/install.sh), on the host, in seconds: no module, no VM.

if want install; then
	section "install: the library, headers, tools and pages, installed"
	bash "$ROOT/tests/install.sh" "$BUILD/install" >"$BUILD/install.log" 2>&1
	sed -n 's/^RESULT \(PASS\|FAIL\) \(.*\)/\1 \2/p' "$BUILD/install.log" >>"$results"
	grep -vE '^RESULT ' "$BUILD/install.log" | head -n 40
	grep -q '^RESULT ' "$BUILD/install.log" ||
		record FAIL install:ran "see $BUILD/install.log"
fi
