# SPDX-License-Identifier: GPL-2.0-only
# KTAP (console log) -> "PASS|FAIL|SKIP kunit:suite:case[:param]" per leaf
# test. A result line is a leaf when no deeper result came before it.
{
	sub(/\r$/, "")
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "")
}
/^ *# Subtest: / {
	match($0, /^ */)
	d = RLENGTH / 4
	name[d] = $0
	sub(/^ *# Subtest: /, "", name[d])
	next
}
/^ *(not ok|ok) [0-9]+ / {
	match($0, /^ */)
	d = RLENGTH / 4
	line = substr($0, RLENGTH + 1)
	status = (line ~ /^not ok/) ? "FAIL" : "PASS"
	sub(/^(not ok|ok) [0-9]+ /, "", line)
	if (line ~ /# SKIP/) {
		status = "SKIP"
		sub(/ *# SKIP.*/, "", line)
	}
	leaf = !child[d]
	child[d] = 0
	if (d > 0)
		child[d - 1] = 1
	if (d == 0) {
		suite_status[line] = status
		next
	}
	if (!leaf)
		next
	path = name[1]
	for (i = 2; i <= d; i++)
		path = path ":" name[i]
	print status " kunit:" path ":" line
	if (status == "FAIL")
		failed[name[1]] = 1
}
END {
	# A suite whose own line is missing died half-way (or never ran).
	n = split(suites, want, " ")
	for (i = 1; i <= n; i++) {
		s = want[i]
		if (!(s in suite_status))
			print "FAIL kunit:" s ":suite-incomplete"
		else if (suite_status[s] == "FAIL" && !(s in failed))
			print "FAIL kunit:" s ":suite"
	}
}
