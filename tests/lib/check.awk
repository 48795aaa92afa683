# SPDX-License-Identifier: GPL-2.0-only
# Check (CK_VERBOSITY=verbose) output -> "PASS|FAIL check:tcase:test:iter".
# Every summary line must agree with the per-test lines before it.
{
	sub(/\r$/, "")
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "")
}
/^[^ :]+:[0-9]+:[PFE]:[^:]+:[^:]+:[0-9]+:/ {
	split($0, f, ":")
	print (f[3] == "P" ? "PASS" : "FAIL") " check:" f[4] ":" f[5] ":" f[6]
	seen++
	next
}
/^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
	summaries++
	n = $3
	sub(/,/, "", n)
	if (n + 0 != seen)
		print "FAIL check:summary-mismatch:" n "-vs-" seen
	seen = 0
}
END {
	if (summaries < expect)
		print "FAIL check:missing-summary:" summaries "-of-" expect
}
