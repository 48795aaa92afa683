#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lint.sh KBUILD OUTDIR [PPC32-KBUILD]: checkpatch.pl --strict on every
# C file and header, then the module (with its KUnit tests and simulated
# PMU) built with sparse (C=2) and with W=1, for x86_64 and, given its
# kernel, for ppc32. Any finding fails. Prints RESULT lines.
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
kb=$1 out=$2 ppc_kb=${3:-}
mkdir -p "$out"

result() {	# result NAME FINDINGS-FILE
	if [ -s "$2" ]; then
		echo "RESULT FAIL $1"
		sed 's/^/    /' "$2" | head -n 30
	else
		echo "RESULT PASS $1"
	fi
}

cd "$ROOT" || exit 1
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h')
perl "$kb/source/scripts/checkpatch.pl" --strict --no-tree --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "${files[@]}" 2>&1 |
	grep -E '(ERROR|WARNING|CHECK):' |
	# Check's API has CamelCase type names (Suite, TCase, SRunner).
	grep -vE '^tests/(user|vp)/[^:]+:[0-9]+: CHECK: Avoid CamelCase: <(Suite|TCase|SRunner)>' |
	# User space has no noinline or __cold macros: it spells the attributes.
	grep -vE '^tools/lib/perfctr/[^:]+:[0-9]+: WARNING: Prefer (noinline|__cold) over' |
	# The fast suite's fake kernel defines the kernel's own loop and
	# per-CPU macros, typedefs and version, with the kernel's shapes.
	grep -vE '^tests/vp/shim/kernel.h:[0-9]+: (CHECK: Macro argument reuse|CHECK: No space is necessary after a cast|ERROR: Macros with complex values|WARNING: LINUX_VERSION_CODE|WARNING: do not add new typedefs)' |
	# Out of tree, one header must name the kernel versions it spans.
	grep -vE '^include/perfctr/compat.h:[0-9]+: WARNING: (LINUX_VERSION_CODE should be avoided|Comparisons should place the constant)' \
	>"$out/checkpatch.txt"
result checkpatch "$out/checkpatch.txt"

# The documentation as docutils reads it: a malformed table, a broken
# reference or an unknown role is a finding. toctree is Sphinx's own.
python3 - Documentation/perfctr/*.rst Documentation/man/*.rst \
	>"$out/docs.txt" 2>&1 <<'EOF'
import io
import sys

import docutils.core
from docutils.parsers.rst import Directive, directives


class TocTree(Directive):
    has_content = True
    option_spec = {"maxdepth": directives.unchanged}

    def run(self):
        return []


directives.register_directive("toctree", TocTree)
# From the top, where the manual pages' includes start.
for path in sys.argv[1:]:
    report = io.StringIO()
    with open(path, encoding="utf-8") as f:
        docutils.core.publish_doctree(
            f.read(), source_path=path,
            settings_overrides={"report_level": 2, "halt_level": 5,
                                "warning_stream": report})
    sys.stdout.write(report.getvalue())
EOF
result docs "$out/docs.txt"

# Findings are the compiler's or sparse's diagnostics on our files.
compile_lint() {	# compile_lint KBUILD SUFFIX [make args...]
	local k=$1 sfx=$2 dir
	shift 2
	dir=$out/build$sfx
	build_module "$k" "$dir-sparse" "$dir-sparse.log" C=2 PERFCTR_TESTS=1 "$@"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$dir-sparse.log" \
		>"$dir-sparse.txt"
	grep -q 'CHECK ' "$dir-sparse.log" ||
		echo "sparse did not run" >>"$dir-sparse.txt"
	result "sparse$sfx" "$dir-sparse.txt"

	build_module "$k" "$dir-w1" "$dir-w1.log" W=1 PERFCTR_TESTS=1 "$@"
	grep -E '(warning|error):' "$dir-w1.log" >"$dir-w1.txt"
	ls "$dir-w1/perfctr.ko" >/dev/null 2>>"$dir-w1.txt"
	result "W=1$sfx" "$dir-w1.txt"
}

compile_lint "$kb" ""
[ -n "$ppc_kb" ] && compile_lint "$ppc_kb" -ppc32 "${PPC_MAKE[@]}"
exit 0
