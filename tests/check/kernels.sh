# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets kb, ppc_kb, results; stock.sh stock_trees
# check.sh's compile-only pass: perfctr.ko built with W=1 and sparse (C=2)
# against every kernel tree the run has, oldest to newest: the kernel
# versions an out-of-tree module must keep building on. One PASS or FAIL
# each, kernels:TREE; any warning or error, or sparse not running, fails.
# Sourced by check.sh after the other parts, whose trees it takes; with
# the stock part, which builds the module on Debian's trees checked.

want stock || return 0
declare -gA matrix_kb	# empty if the matrix part did not run
section "kernels: perfctr.ko, W=1 and sparse, on every kernel tree"

# kernels_verdict NAME DIR LOG KDIR: the record of one tree's build.
kernels_verdict() {
	local n=$1 dir=$2 log=$3 rel
	rel=$(cat "$4/include/config/kernel.release" 2>/dev/null)
	module_findings "$dir" "$log" >"$log.findings"
	if [ -s "$log.findings" ]; then
		record FAIL "kernels:$n" "$rel, see $log:"
		head -n 10 "$log.findings" | sed 's/^/      /'
	else
		record PASS "kernels:$n"
		echo "  $n: $rel"
	fi
}

# kernels_build NAME KDIR [make args...]
kernels_build() {
	local n=$1 k=$2
	shift 2
	build_module_checked "$k" "$BUILD/kernels-$n" "$BUILD/kernels-$n.log" "$@"
	kernels_verdict "$n" "$BUILD/kernels-$n" "$BUILD/kernels-$n.log" "$k"
}

# The test kernels: the x86_64 one always; the others where their part
# ran and built them.
kernels_build x86_64-6.1 "$kb"
if want rt; then
	if rt_tree=$(build_kernel x86_64-rt); then
		kernels_build x86_64-rt-6.12 "$rt_tree"
	else
		record FAIL "kernels:x86_64-rt-6.12" "no tree"
	fi
fi
[ "${matrix_kb[i386]:-failed}" != failed ] &&
	kernels_build i386-6.1 "${matrix_kb[i386]}"
[ -n "$ppc_kb" ] && kernels_build ppc32-6.1 "$ppc_kb" "${PPC_MAKE[@]}"
# Debian's: the stock part built the module checked.
for n in stock:debian-6.1 stock612:debian-6.12 stocksid:debian-sid; do
	tree=${stock_trees[${n%%:*}]:-}
	[ -n "$tree" ] || { record FAIL "kernels:${n#*:}" "no tree"; continue; }
	kernels_verdict "${n#*:}" "$BUILD/${n%%:*}" "$BUILD/${n%%:*}.build.log" "$tree"
done
