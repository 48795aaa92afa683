# SPDX-License-Identifier: GPL-2.0-only
# Check (CK_VERBOSITY=verbose) output -> "PASS|FAIL check:tcase:test:iter".
# The summary lines must add up to the per-test lines, and every test
# binary must have printed one.
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
	total += n
}
END {
	if (summaries < expect)
		print "FAIL check:missing-summary:" summaries "-of-" expect
	if (total != seen)
		print "FAIL check:summary-mismatch:" total "-vs-" seen
}
