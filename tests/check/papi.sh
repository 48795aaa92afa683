# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets kb and results
# check.sh's papi part: PAPI's perfctr component, built from Debian's
# papi source on libperfctr's perfctr 2.6 view (tests/papi/build-papi.sh),
# and PAPI's own tests and utilities run in the x86_64 test VM on the
# module over simulated PMUs (tests/vm/plans/papi, which says why the
# guest's CPU is QEMU's core2duo and which event table each model gets).

# The failures known not to be perfctr's: TEST, MODELS (a regular
# expression), what the test's output says (an extended regular
# expression), why. Such a failure is recorded as skipped, with its
# reason; a test that fails otherwise fails.
papi_known() {
	cat <<'KNOWN'
overflow_twoevents	.*	a (batch|interleaved) counter had no overflows	the simulated counters count cycles whatever the event: two counters of one threshold always overflow together, never one alone as the test needs
overflow_allcounters	.*	Overflow value differs from expected	the simulated PMU sees an overflow at its 1 ms tick: the last one, within a tick of PAPI_stop, is counted but never signalled
.*	.*	Out of tolerance range|(Cycle|FLOP) Col[0-9]!=([0-9]\*)?Col2	the simulated counters count cycles whatever the event, as the guest's clock has them: under TCG two runs of one loop differ with the host's load, by more than the test allows (first: 20% for cycles, 10% for FLOPs; reset: 20%)
case2	arch-v2	Error in PAPI_add_event: Unknown error code	PAPI 7 answers a component's failed counter allocation with PAPI_EMISC (papi_internal.c, add_native_events), not the PAPI_ECNFLCT case2 allows: its third event on the Core table's two counters
.*	zen4	r?vperfctr_control\(\) returned < 0	PAPI_FP_INS in libpfm 3's family 15h table is RETIRED_SSE_OPS, event 0x003, which Zen counts only on a merged counter pair (the module refuses it alone: EINVAL); PAPI's perfctr component knows no pairs
KNOWN
}

# papi_results LOG MODELS: records LOG's tests as papi-MODEL:TEST, known
# failures as skipped.
papi_results() {
	local log=$1 models=$2
	papi_known >"$BUILD/papi-known.txt"
	awk -v models="$models" -v known="$BUILD/papi-known.txt" '
	BEGIN {
		FS = "\t"
		while ((getline line < known) > 0) {
			split(line, f, "\t")
			nk++; kt[nk] = f[1]; km[nk] = f[2]; kp[nk] = f[3]; kr[nk] = f[4]
		}
		FS = " "
		n = split(models, ms, " ")
	}
	function flush(   i) {
		if (name == "")
			return
		if (verdict == "PASS") {
			print "PASS " name
		} else {
			for (i = 1; i <= nk; i++)
				if (t ~ ("^(" kt[i] ")$") && m ~ ("^(" km[i] ")$") &&
				    out ~ kp[i]) {
					print "SKIP " name " known: " kr[i]
					name = ""
					return
				}
			print "FAIL " name
		}
		name = ""
	}
	/^RESULT (PASS|FAIL) papi-/ {
		flush()
		verdict = $2; full = substr($3, 6); out = ""
		for (i = 1; i <= n; i++)
			if (index(full, ms[i] "-") == 1) {
				m = ms[i]; t = substr(full, length(m) + 2)
				name = "papi-" m ":" t
			}
		next
	}
	/^    / && name != "" { out = out "\n" $0; next }
	{ flush() }
	END { flush() }' "$log"
}

if want papi; then
	section "PAPI: its perfctr component and tests (Debian's papi, static)"
	t0=$(date +%s)
	log=$BUILD/vm-papi.log
	if papi=$(bash "$ROOT/tests/papi/build-papi.sh" 2>"$BUILD/papi-build.log" |
		tail -n 1) && [ -d "$papi/ctests" ]; then
		record PASS papi:build
		echo "  $papi ($(($(date +%s) - t0)) s)"
		files=(--file "/bin/vm-exit=$BUILD/user/vm-exit"
		       --file "/papi/tests.txt=$papi/tests.txt")
		for f in "$papi"/ctests/* "$papi"/bin/*; do
			files+=(--file "/papi/${f#"$papi"/}=$f")
		done
		if boot_plan --cpu core2duo --timeout 1500 "${files[@]}" papi \
			"$kb" papi "$log" "$BUILD/x86_64/perfctr_simpmu.ko"; then
			record PASS papi:plan-completed
		else
			record FAIL papi:plan-completed "see $log"
		fi
		papi_results "$log" "k7 zen4 arch-v2 skylake alder-lake" |
			while read -r v name why; do
				echo "$v $name" >>"$results"
				case $v in
				FAIL) echo "  FAIL $name: see $log" ;;
				SKIP) echo "  SKIP $name: ${why#known: }" ;;
				esac
			done
		sed -n 's/^== papi tally /  /p' "$log"
		log_clean papi:guest-log-clean "$log"
	else
		record FAIL papi:build "see $BUILD/papi-build.log"
		tail -n 20 "$BUILD/papi-build.log"
	fi
	echo "  the papi part took $(($(date +%s) - t0)) s"
fi
