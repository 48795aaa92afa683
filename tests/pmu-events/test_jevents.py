#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The generator's validation, one case per class of bad input.

    test_jevents.py
        builds a small valid table tree, checks that jevents.py takes it
        (and that its C compiles), then breaks it one way at a time and
        checks that jevents.py refuses each, naming the file and event;
        and that it takes the project's own tables. Prints RESULT lines.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
JEVENTS = os.path.join(ROOT, "tools", "pmu-events", "jevents.py")

GOOD_EVENT = {"EventName": "INST_RETIRED", "EventCode": "0xC0",
              "BriefDescription": "Instructions retired.", "Counter": "0,1",
              "Generic": "instructions"}
MAPFILE = ("Family-model,Version,Filename,EventType\n"
           "GenuineIntel-6-7,v1,pentium3,core\n# perfctr-import\n")
ESCRS = "ESCR,Select,Counters\nCRU_ESCR0,4,12 13 16\n"


PPC_EVENT = {"EventName": "CYC", "EventCode": "0x1", "Counter": "1,2",
             "BriefDescription": "Cycles."}


def tree(tmp, events=None, mapfile=MAPFILE, sources=True, extra=None,
         ppc_events=None):
    """A tools/pmu-events-like tree under tmp with one x86 table."""
    base = os.path.join(tmp, "arch", "x86")
    table = os.path.join(base, "pentium3")
    os.makedirs(table)
    os.makedirs(os.path.join(tmp, "arch", "powerpc", "750"))
    with open(os.path.join(tmp, "arch", "powerpc", "mapfile.csv"), "w") as f:
        f.write("h\n0x0008[[:xdigit:]]{4},v1,750,core\n")
    with open(os.path.join(tmp, "arch", "powerpc", "750", "SOURCES"), "w") as f:
        f.write("x\n")
    with open(os.path.join(tmp, "arch", "powerpc", "750", "p.json"), "w") as f:
        json.dump(ppc_events or [PPC_EVENT], f)
    with open(os.path.join(base, "mapfile.csv"), "w") as f:
        f.write(mapfile)
    with open(os.path.join(base, "p4-escrs.csv"), "w") as f:
        f.write(ESCRS)
    if sources:
        with open(os.path.join(table, "SOURCES"), "w") as f:
            f.write("# the manual\n")
    with open(os.path.join(table, "pipeline.json"), "w") as f:
        if isinstance(events, str):
            f.write(events)
        else:
            json.dump(events if events is not None else [GOOD_EVENT], f)
    for name, text in (extra or {}).items():
        path = os.path.join(base, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return tmp


def run(root, *args):
    p = subprocess.run([sys.executable, JEVENTS] + list(args) + [root],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def changed(**kv):
    e = copy.deepcopy(GOOD_EVENT)
    for k, v in kv.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return [e]


# Architecture standard events, in the arch folder's *.json (STD_FILES
# is tree()'s extra= for them), and a table event that takes one.
STD_EVENT = {"EventName": "INST_RETIRED", "EventCode": "0xC0",
             "BriefDescription": "Standard.", "Counter": "0,1"}


def std_files(events, sources=True):
    files = {"std.json": events if isinstance(events, str)
             else json.dumps(events)}
    if sources:
        files["SOURCES"] = "# where the standard events come from\n"
    return files


TAKES_STD = [{"ArchStdEvent": "inst_retired", "Counter": "1",
              "BriefDescription": "Local."}]


# (name, tree() arguments, what the error must say: a string, or a
# tuple of strings it must all say)
BAD = [
    ("not-json", {"events": "[{"}, "pipeline.json: not valid JSON"),
    ("not-an-array", {"events": "{}"}, "want a JSON array"),
    ("unknown-key", {"events": changed(Colour="red")},
     "INST_RETIRED: unknown key Colour"),
    ("duplicate-name", {"events": [GOOD_EVENT, dict(GOOD_EVENT,
                                                    Generic="")]},
     "INST_RETIRED: duplicate name"),
    ("duplicate-name-case", {"events": [GOOD_EVENT, dict(
        GOOD_EVENT, EventName="inst_retired", Generic="")]},
     "duplicate name"),
    ("code-not-hex", {"events": changed(EventCode="192")},
     "EventCode '192' is not a hex"),
    ("code-malformed", {"events": changed(EventCode="0xC0G")},
     "is not a hex"),
    ("code-too-wide", {"events": changed(EventCode="0x1C0")},
     "wider than this family's 8 bits"),
    ("umask-too-wide", {"events": changed(UMask="0x100")},
     "UMask 0x100 is out of range"),
    ("cmask-too-big", {"events": changed(CounterMask="256")},
     "CounterMask 256 is out of range"),
    ("cmask-not-decimal", {"events": changed(CounterMask="0x2")},
     "is not a decimal"),
    ("flag-not-bool", {"events": changed(Invert="yes")},
     "Invert 'yes'"),
    ("counter-not-ours", {"events": changed(Counter="0,2")},
     "'2' is not a counter of this family"),
    ("fixed-not-ours", {"events": changed(Counter="Fixed counter 0")},
     "no such fixed counter"),
    ("no-counter", {"events": changed(Counter=None)}, "no Counter"),
    ("no-code", {"events": changed(EventCode=None)}, "no EventCode"),
    ("no-description", {"events": changed(BriefDescription=None)},
     "no BriefDescription"),
    ("bad-name", {"events": changed(EventName="INST RETIRED")},
     "EventName 'INST RETIRED'"),
    ("not-a-string", {"events": changed(Counter=1)},
     "Counter must be a string"),
    ("bad-generic", {"events": changed(Generic="instrs")},
     "Generic 'instrs' is not one of"),
    ("generic-twice", {"events": [GOOD_EVENT, dict(
        GOOD_EVENT, EventName="X", EventCode="0xC1")]},
     "Generic instructions on INST_RETIRED, X"),
    ("extension-of-another-family", {"events": changed(ESCR="CRU_ESCR0")},
     "unknown key ESCR"),
    ("mapfile-nowhere", {"mapfile": MAPFILE + "GenuineIntel-6-8,v1,nope,core\n"},
     "directory 'nope' does not exist"),
    ("mapfile-bad-regex", {"mapfile": MAPFILE + "GenuineIntel-6-(8,v1,pentium3,core\n"},
     "bad regular expression"),
    ("mapfile-fields", {"mapfile": MAPFILE + "GenuineIntel-6-8,v1,pentium3\n"},
     "want 4 fields"),
    ("mapfile-empty-version",
     {"mapfile": MAPFILE + "GenuineIntel-6-8,,pentium3,core\n"},
     "mapfile.csv:4: empty Version"),
    ("mapfile-dir-outside",
     {"mapfile": MAPFILE + "GenuineIntel-6-8,v1,../x86/pentium3,core\n"},
     "want a directory or vendor/directory"),
    ("mapfile-uncore", {"mapfile": MAPFILE + "GenuineIntel-6-8,v1,pentium3,uncore\n"},
     "perfctr drives core counters only"),
    ("directory-unnamed", {"extra": {"orphan/x.json": "[]"}},
     "orphan: no mapfile row points here"),
    ("no-sources", {"sources": False}, "no SOURCES file"),
    # A vendor folder (sub-directories, no JSON of its own) is looked
    # into: its tables need rows too.
    ("vendor-table-unnamed", {"extra": {"intel/orphan/x.json": "[]"}},
     "x86/intel/orphan: no mapfile row points here"),
    ("vendor-folder-with-json", {
        "mapfile": MAPFILE + "GenuineIntel-6-8,v1,intel/p3v,core\n",
        "extra": {"intel/x.json": "[]", "intel/p3v/SOURCES": "x\n",
                  "intel/p3v/p.json": json.dumps([GOOD_EVENT])}},
     "a vendor folder holds table directories only"),
    # DIR_LAYOUT is keyed by the whole Dir: pentium3's is not intel/'s.
    ("vendor-dir-no-layout", {
        "mapfile": MAPFILE + "GenuineIntel-6-8,v1,intel/pentium3,core\n",
        "extra": {"intel/pentium3/SOURCES": "x\n",
                  "intel/pentium3/p.json": json.dumps([GOOD_EVENT])}},
     "directory 'intel/pentium3' has no layout"),
    ("arch-std-unknown", {"events": [{"ArchStdEvent": "NOPE"}],
                          "extra": std_files([STD_EVENT])},
     "pipeline.json[0]: NOPE: ArchStdEvent: no standard event"),
    ("arch-std-not-a-string", {"events": [{"ArchStdEvent": 7}],
                               "extra": std_files([STD_EVENT])},
     "pipeline.json[0]: ArchStdEvent 7: want a standard event's EventName"),
    ("arch-std-file-not-json", {"extra": std_files("[{")},
     "x86/std.json: not valid JSON"),
    ("arch-std-file-not-array", {"extra": std_files({"EventName": "X"})},
     "x86/std.json: want a JSON array"),
    ("arch-std-file-not-objects", {"extra": std_files(["X"])},
     "x86/std.json[0]: a standard event must be a JSON object"),
    ("arch-std-file-no-name", {"extra": std_files([{"EventCode": "0x1"}])},
     "x86/std.json[0]: EventName None"),
    ("arch-std-duplicate", {"extra": std_files([STD_EVENT, dict(
        STD_EVENT, EventName="inst_retired")])},
     "x86/std.json[1]: inst_retired: duplicate standard event"),
    ("arch-std-takes-another", {"extra": std_files([dict(
        STD_EVENT, ArchStdEvent="X")])},
     "INST_RETIRED: a standard event cannot take another"),
    ("arch-std-no-sources", {"extra": std_files([STD_EVENT],
                                                sources=False)},
     "no SOURCES file naming where they come from"),
    # Checked by the using table's layout: 9 bits are too many for a P6.
    ("arch-std-out-of-range", {"events": TAKES_STD, "extra": std_files([
        dict(STD_EVENT, EventCode="0x1C0")])},
     ("pipeline.json[0]: ArchStdEvent from ",
      "x86/std.json[0]: INST_RETIRED: EventCode 0x1C0 is wider")),
    ("arch-std-unknown-key", {"events": [dict(TAKES_STD[0], Colour="red")],
                              "extra": std_files([STD_EVENT])},
     "INST_RETIRED: unknown key Colour"),
    ("no-events", {"events": []}, "no events"),
    ("ppc-code-too-wide-for-pmc", {"ppc_events": [dict(
        PPC_EVENT, EventCode="0x40", Counter="1,2")]},
     "does not fit PMC2's 6-bit select"),
    ("ppc-same-name-same-counter", {"ppc_events": [PPC_EVENT, dict(
        PPC_EVENT, EventCode="0x2", Counter="2,3")]},
     "CYC: duplicate name"),
    ("ppc-no-such-pmc", {"ppc_events": [dict(PPC_EVENT, Counter="5")]},
     "'5' is not a counter of this family"),
]
# Metric objects (events.rst, "Metrics"): perf's keys, an expression
# over the table's events. METRIC_FILES is tree()'s extra= for them.
GOOD_METRIC = {"MetricName": "IPC", "MetricGroup": "Summary",
               "MetricExpr": "INST_RETIRED / duration_time",
               "BriefDescription": "Per second."}


def metric_files(**kv):
    m = dict(GOOD_METRIC)
    m.update(kv)
    m = {k: v for k, v in m.items() if v is not None}
    return {"pentium3/metrics.json": json.dumps([m])}


# Each rule of the expression grammar and of its names: a case that
# must be refused (the accepting twin of each is in METRIC_GOOD).
BAD += [
    ("metric-unknown-event", {"extra": metric_files(
        MetricExpr="INST_RETIRED / CPU_CLK_UNHALTED")},
     "IPC: MetricExpr 'INST_RETIRED / CPU_CLK_UNHALTED': CPU_CLK_UNHALTED "
     "is not an event of this table"),
    ("metric-trailing-operator", {"extra": metric_files(
        MetricExpr="INST_RETIRED /")},
     "IPC: MetricExpr 'INST_RETIRED /': want a number, a name or '('"),
    ("metric-unbalanced", {"extra": metric_files(
        MetricExpr="(INST_RETIRED / 2")}, "want ')', found 'the end'"),
    ("metric-bad-character", {"extra": metric_files(
        MetricExpr="INST_RETIRED $ 2")}, "unexpected character '$'"),
    ("metric-two-operands", {"extra": metric_files(
        MetricExpr="INST_RETIRED 2")}, "unexpected '2'"),
    ("metric-if-no-else", {"extra": metric_files(
        MetricExpr="1 if INST_RETIRED > 0")}, "want 'else'"),
    ("metric-min-one-argument", {"extra": metric_files(
        MetricExpr="min(INST_RETIRED)")}, "want ',', found ')'"),
    ("metric-unknown-function", {"extra": metric_files(
        MetricExpr="source_count(INST_RETIRED)")},
     "function source_count(): perfctr has min, max and d_ratio"),
    ("metric-unknown-literal", {"extra": metric_files(
        MetricExpr="INST_RETIRED / #num_packages")},
     "#num_packages: perfex knows"),
    ("metric-pmu-qualified", {"extra": metric_files(
        MetricExpr="cpu@INST_RETIRED@")}, "'@' (a PMU-qualified"),
    ("metric-too-deep", {"extra": metric_files(
        MetricExpr="(" * 70 + "1" + ")" * 70)}, "nested deeper than 64"),
    ("metric-uses-metric", {"extra": {"pentium3/metrics.json": json.dumps(
        [GOOD_METRIC, dict(GOOD_METRIC, MetricName="twice",
                           MetricExpr="2 * IPC")])}},
     "twice: MetricExpr '2 * IPC': uses metric IPC"),
    ("metric-unknown-key", {"extra": metric_files(MetricThreshold="1")},
     "IPC: unknown key MetricThreshold"),
    ("metric-no-description", {"extra": metric_files(
        BriefDescription=None)}, "IPC: no BriefDescription"),
    ("metric-bad-scale-unit", {"extra": metric_files(ScaleUnit="%")},
     "ScaleUnit '%': want a number and a unit"),
    ("metric-duplicate", {"extra": {"pentium3/metrics.json": json.dumps(
        [GOOD_METRIC, dict(GOOD_METRIC, MetricName="ipc")])}},
     "ipc: duplicate metric name"),
]
# The accepting twins: each rule above taken when the input keeps it.
METRIC_GOOD = [
    "INST_RETIRED / duration_time",
    "inst_retired * 2",			# names: case ignored, as perf
    "instructions / 2",			# perf's generic name of an event
    "(INST_RETIRED + 1) / -(2 - 3.5e1)",
    "1 if INST_RETIRED > 0 else 2 if INST_RETIRED < 5 else 3",
    "min(INST_RETIRED, 1) + max(1, 2) + d_ratio(INST_RETIRED, 0)",
    "INST_RETIRED * #smt_on / #num_cpus + #SMT_on + #num_cpus_online",
    "(" * 60 + "1" + ")" * 60,
]


def check_metrics(results):
    """Our metrics kept; perf's kept, unsupported where they name what
    perfex cannot count; and the C compiles with them."""
    j = jevents_module()
    for i, expr in enumerate(METRIC_GOOD):
        with tempfile.TemporaryDirectory() as tmp:
            err = load(tree(tmp, extra=dict(metric_files(
                MetricExpr=expr, ScaleUnit="100%"))))
            t = err[1].get("pentium3")
            got = [(m.name, m.expr, m.unit, m.why)
                   for m in t[3].metrics] if t else []
            results.append(("metric-accepts-%d" % i, not err[0] and got == [
                ("IPC", expr, "100%", "")], "%r: %s %s" % (expr, err[0],
                                                           got)))
    imported = [ev("INST_RETIRED.ANY", "0xC0"),
                {"MetricName": "ipc_like", "MetricExpr":
                 "INST_RETIRED.ANY / cycles", "BriefDescription": "x",
                 "MetricGroup": "A;B", "MetricThreshold": "> 1"},
                {"MetricName": "on_metric", "MetricExpr": "ipc_like * 2",
                 "BriefDescription": "y"},
                {"MetricName": "qualified", "MetricExpr":
                 "msr@tsc@ / INST_RETIRED.ANY", "BriefDescription": "z"}]
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "oldintel"))
        with open(os.path.join(tmp, "oldintel", "e.json"), "w") as f:
            json.dump(imported, f)
        with open(os.path.join(tmp, "oldintel", "metricgroups.json"),
                  "w") as f:
            json.dump({"A": "a group"}, f)
        with open(os.path.join(tmp, "mapfile.csv"), "w") as f:
            f.write(IMPORT_MAP.splitlines()[0] + "\n" +
                    IMPORT_MAP.splitlines()[1] + "\n")
        errs, tables, _ = load(os.path.join(ROOT, "tools", "pmu-events"),
                               tmp)
    t = tables.get("oldintel", (0, 0, 0, j.EventList()))
    got = {m.name: m.why for m in t[3].metrics}
    want = {"ipc_like": "",
            "on_metric": "MetricExpr: uses metric ipc_like: perfctr "
                         "evaluates events only",
            "qualified": "MetricExpr: '@' (a PMU-qualified or escaped "
                         "event): perfctr takes plain event names"}
    results.append(("metric-imported", not errs and got == want,
                    "%s\ngot %s\nwant %s" % (errs, got, want)))
    _, ours, _ = load(os.path.join(ROOT, "tools", "pmu-events"))
    k7 = {m.name: m.expr for m in ours["k7"][3].metrics}
    results.append(("metric-ours-k7", k7.get("IPC") ==
                    "RETIRED_INSTRUCTIONS / CPU_CLK_UNHALTED", str(k7)))


# One name, two codes on disjoint PMCs, is the ppc32 exception: taken.
GOOD_PPC_SPLIT = [PPC_EVENT, dict(PPC_EVENT, EventCode="0x2", Counter="3,4")]


def check_good(results):
    with tempfile.TemporaryDirectory() as tmp:
        root = tree(tmp)
        rc, out = run(root, "--check")
        results.append(("accepts-valid", rc == 0, out))
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = run(tree(tmp, ppc_events=GOOD_PPC_SPLIT), "--check")
        results.append(("accepts-ppc-name-per-code", rc == 0, out))
    with tempfile.TemporaryDirectory() as tmp:
        root = tree(tmp)
        c = os.path.join(tmp, "pe.c")
        rc, out = run(root, "--arch", "x86", "-o", c)
        ok = rc == 0
        if ok:
            p = subprocess.run(["cc", "-c", "-Wall", "-Werror", "-I",
                                os.path.join(ROOT, "tools", "lib", "perfctr"),
                                "-o", os.path.join(tmp, "pe.o"), c],
                               capture_output=True, text=True)
            ok, out = p.returncode == 0, p.stderr
        results.append(("emits-c-that-compiles", ok, out))
    rc, out = run(os.path.join(ROOT, "tools", "pmu-events"), "--check")
    results.append(("project-tables", rc == 0, out))
    check_layouts(results)


# Field widths typed from the manuals: AMD BKDG PERF_CTL: EventSelect 12
# bits (7:0 and 35:32), UnitMask 8, CntMask 8, up to six core counters
# (family 15h); P4 ESCR event select 6 bits, event mask 16, CCCR
# threshold 4, 18 counters; MPC7450 PMC1 select 7 bits, PMC1-6; WinChip:
# no user/kernel bits; P6: CMASK 8 bits, two counters.
LAYOUT_PROGRAM = r"""
#include <stdio.h>
#include "pmu-events.h"
int main(void)
{
	static const int ids[] = { PE_LAYOUT_AMD10H, PE_LAYOUT_AMDZEN,
				   PE_LAYOUT_P4, PE_LAYOUT_PPC7450,
				   PE_LAYOUT_WINCHIP, PE_LAYOUT_P6 };
	unsigned int i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct pe_layout_info *l = &pe_layouts[ids[i]];

		printf("%u %u %u %#x %u %u\n", l->code_bits, l->umask_bits,
		       l->cmask_max, l->counters, l->nfixed, l->modes);
	}
	return 0;
}
"""
LAYOUT_WANT = ("12 8 255 0x3f 0 1\n12 8 255 0x3f 0 1\n"
               "6 16 15 0x3ffff 0 1\n7 0 0 0x3f 0 1\n"
               "8 0 0 0x3 0 0\n8 8 255 0x3 0 1\n")


def check_layouts(results):
    """pe_layouts[] carries the widths; a header whose enum is out of
    jevents.py's order does not compile against it."""
    inc = os.path.join(ROOT, "tools", "lib", "perfctr")
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "pe.c")
        main = os.path.join(tmp, "main.c")
        exe = os.path.join(tmp, "layouts")
        rc, out = run(tree(tmp), "--arch", "x86", "-o", c)
        with open(main, "w") as f:
            f.write(LAYOUT_PROGRAM)
        ok = rc == 0
        if ok:
            p = subprocess.run(["cc", "-Wall", "-Werror", "-I", inc, "-o",
                                exe, main, c], capture_output=True, text=True)
            ok, out = p.returncode == 0, p.stderr
        if ok:
            p = subprocess.run([exe], capture_output=True, text=True)
            ok = p.stdout == LAYOUT_WANT
            out = "got:\n%swant:\n%s" % (p.stdout, LAYOUT_WANT)
        results.append(("emits-layout-widths", ok, out))
        hdr = os.path.join(tmp, "inc")
        os.makedirs(hdr)
        with open(os.path.join(inc, "pmu-events.h")) as f:
            text = f.read()
        swapped = text.replace("PE_LAYOUT_P6, PE_LAYOUT_ARCH",
                               "PE_LAYOUT_ARCH, PE_LAYOUT_P6")
        with open(os.path.join(hdr, "pmu-events.h"), "w") as f:
            f.write(swapped)
        p = subprocess.run(["cc", "-c", "-I", hdr, "-o",
                            os.path.join(tmp, "x.o"), c],
                           capture_output=True, text=True)
        results.append(("rejects-enum-out-of-order",
                        swapped != text and p.returncode != 0 and
                        "LAYOUTS order" in p.stderr,
                        "rc %d:\n%s" % (p.returncode, p.stderr)))


def jevents_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("jevents", JEVENTS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ev(name, code, umask="0x00", counter="0,1,2,3", **kv):
    e = {"EventName": name, "EventCode": code, "UMask": umask,
         "Counter": counter, "BriefDescription": name}
    e.update(kv)
    return e


# perf-style imported tables: an old Intel one numbering its fixed
# counters from 1 (as perf's bonnell, nehalem*, westmere* and silvermont
# do), and a Zen one lacking cache-references.
IMPORTS = {
    "oldintel": [
        ev("INST_RETIRED.ANY", "0x00", counter="Fixed counter 1"),
        ev("CPU_CLK_UNHALTED.CORE", "0x00", counter="Fixed counter 2"),
        ev("CPU_CLK_UNHALTED.REF", "0x00", counter="Fixed counter 3"),
        ev("CPU_CLK_UNHALTED.CORE_P", "0x3C"),
        ev("BR_ANY", "0xC4"),
        ev("BR_MISP_CMASK", "0xC5", CounterMask="1"),
    ],
    "atomish": [
        ev("INST_RETIRED.ANY", "0x00", counter="Fixed counter 0"),
        ev("CPU_CLK_UNHALTED.REF", "0x3C", "0x01"),
    ],
    "zenx": [
        ev("ls_not_halted_cyc", "0x76"), ev("ex_ret_instr", "0xC0"),
        ev("ex_ret_brn", "0xC2"), ev("ex_ret_brn_misp", "0xC3"),
        ev("l2_miss_by_another_name", "0x64", "0x09"),
    ],
    "zen4x": [
        ev("ls_not_halted_cyc", "0x76"), ev("p0_cycles", "0x120", "0x01"),
        ev("l2_request_g1.all", "0x60", "0xFF"),
    ],
}
IMPORT_MAP = ("Family-model,Version,Filename,EventType\n"
              "GenuineIntel-6-1C,v1,oldintel,core\n"
              "GenuineIntel-6-5C,v1,atomish,core\n"
              "AuthenticAMD-23-[[:xdigit:]]+,v1,zenx,core\n"
              "AuthenticAMD-25-[[:xdigit:]]+,v1,zen4x,core\n")

# What each table's generic names must be (perf's kernel maps: Intel's
# architectural encodings and fixed counter 2 for ref-cycles; the Zen
# maps' FF60h/0964h, and zen4's 100000120h), and where the fixed events count (SDM vol. 3B,
# "Fixed-Function Performance Counters": IA32_FIXED_CTR0 counts
# INST_RETIRED.ANY, CTR1 CPU_CLK_UNHALTED.CORE/THREAD, CTR2 REF_TSC).
IMPORT_WANT = {
    "oldintel": {"instructions": ("INST_RETIRED.ANY", 1),
                 "cycles": ("CPU_CLK_UNHALTED.CORE", 2),
                 "ref-cycles": ("CPU_CLK_UNHALTED.REF", 4),
                 "branches": ("BR_ANY", 0),
                 # a counter-mask event is no plain 0xC5: the catch-all's
                 "branch-misses": ("BRANCH_MISSES_RETIRED", 0),
                 "cache-references": ("LLC_REFERENCE", 0),
                 "cache-misses": ("LLC_MISSES", 0)},
    # a general CPU_CLK_UNHALTED.REF is not ref-cycles: the catch-all's
    "atomish": {"ref-cycles": ("UNHALTED_REFERENCE_CYCLES", 0),
                "cycles": ("UNHALTED_CORE_CYCLES", 0)},
    "zenx": {"cycles": ("ls_not_halted_cyc", 0),
             "cache-misses": ("l2_miss_by_another_name", 0),
             "cache-references": ("l2_request_g1.all", 0),
             "ref-cycles": None},	# Zen 1-3 have none
    "zen4x": {"ref-cycles": ("p0_cycles", 0),
              "cache-references": ("l2_request_g1.all", 0)},
}


def check_imports(results):
    """Generic names and fixed counters of imported tables."""
    j = jevents_module()
    with tempfile.TemporaryDirectory() as tmp:
        for d, events in IMPORTS.items():
            os.makedirs(os.path.join(tmp, d))
            with open(os.path.join(tmp, d, "e.json"), "w") as f:
                json.dump(events, f)
        with open(os.path.join(tmp, "mapfile.csv"), "w") as f:
            f.write(IMPORT_MAP)
        err, notes = j.Errors(), []
        _, tables, _ = j.load_arch(os.path.join(ROOT, "tools", "pmu-events"),
                                   "x86", tmp, err, notes)
    results.append(("imports-load", not err.list, "\n".join(err.list)))
    got = {}
    for d, _, imported, events in tables:
        if imported:
            got[d] = {g: (e.name, e.fixed) for e in events
                      for i, g in enumerate(j.GENERIC) if e.generic & 1 << i}
    for d, want in IMPORT_WANT.items():
        for g, w in want.items():
            have = got.get(d, {}).get(g)
            results.append(("import-%s-%s" % (d, g), have == w,
                            "%s %s: got %s, want %s" % (d, g, have, w)))


def load(root, import_dir=None):
    """jevents.py's load_arch on x86: (errors, {dir: table}, mapping)."""
    j = jevents_module()
    err, notes = j.Errors(), []
    mapping, tables, _ = j.load_arch(root, "x86", import_dir, err, notes)
    return err.list, {t[0]: t for t in tables}, mapping


def check_arch_std(results):
    """A table event takes a standard event from the arch folder's
    *.json; its own keys win."""
    with tempfile.TemporaryDirectory() as tmp:
        errs, tables, _ = load(tree(tmp, events=TAKES_STD,
                                    extra=std_files([STD_EVENT])))
    evs = tables["pentium3"][3] if "pentium3" in tables else []
    e = evs[0] if len(evs) == 1 else None
    results.append(("accepts-arch-std", not errs and e is not None and
                    (e.name, e.code) == ("INST_RETIRED", 0xC0),
                    "\n".join(errs) or "got %s" % [x.name for x in evs]))
    # Counter "0,1" and the description are the standard event's; the
    # table's "1" and "Local." replace them (bit n: counter n).
    results.append(("arch-std-local-wins", e is not None and
                    (e.gp, e.desc) == (0x2, "Local."),
                    "got %s" % ((e.gp, e.desc) if e else None,)))


def check_vendor(results):
    """A table in a vendor sub-folder (mapfile Dir intel/p3v), its
    layout keyed by that path; an unnamed sibling is still refused."""
    j = jevents_module()
    extra = {"intel/p3v/SOURCES": "x\n",
             "intel/p3v/p.json": json.dumps([GOOD_EVENT])}
    row = "GenuineIntel-6-8,v1,intel/p3v,core\n"
    for name, more, want in (("accepts-vendor-folder", {}, None),
                             ("rejects-vendor-sibling-unnamed",
                              {"intel/orphan/p.json": "[]"},
                              "intel/orphan: no mapfile row points here")):
        j.DIR_LAYOUT["x86"]["intel/p3v"] = "p6"
        with tempfile.TemporaryDirectory() as tmp:
            root = tree(tmp, mapfile=MAPFILE + row, extra=dict(extra, **more))
            err, notes = j.Errors(), []
            mapping, tables, _ = j.load_arch(root, "x86", None, err, notes)
        t = [x for x in tables if x[0] == "intel/p3v"]
        if want is None:
            ok = not err.list and len(t) == 1 and t[0][1] == "p6" and \
                len(t[0][3]) == 1 and mapping[-1][3] == tables.index(t[0])
        else:
            ok = len(err.list) == 1 and want in err.list[0]
        results.append((name, ok, "\n".join(err.list) or "tables %s"
                        % [x[0] for x in tables]))


MAP_PROGRAM = r"""
#include <stdio.h>
#include "pmu-events.h"
int main(void)
{
	unsigned int i;

	for (i = 0; i < pe_nr_map; i++)
		printf("%s %s %s %s\n", pe_strings + pe_map[i].cpuid,
		       pe_strings + pe_map[i].version,
		       pe_strings + pe_map[i].type,
		       pe_strings + pe_tables[pe_map[i].table].name);
	return 0;
}
"""


def check_version(results):
    """The mapfile's Version and Type reach pe_map in the C."""
    inc = os.path.join(ROOT, "tools", "lib", "perfctr")
    want = "GenuineIntel-6-7 v7.42 core pentium3\n"
    with tempfile.TemporaryDirectory() as tmp:
        c, main = os.path.join(tmp, "pe.c"), os.path.join(tmp, "main.c")
        exe = os.path.join(tmp, "map")
        mapfile = MAPFILE.replace(",v1,", ",v7.42,")
        rc, out = run(tree(tmp, mapfile=mapfile), "--arch", "x86", "-o", c)
        with open(main, "w") as f:
            f.write(MAP_PROGRAM)
        ok = rc == 0
        if ok:
            p = subprocess.run(["cc", "-Wall", "-Werror", "-I", inc, "-o",
                                exe, main, c], capture_output=True, text=True)
            ok, out = p.returncode == 0, p.stderr
        if ok:
            p = subprocess.run([exe], capture_output=True, text=True)
            ok = p.stdout == want
            out = "got:\n%swant:\n%s" % (p.stdout, want)
        results.append(("emits-version-and-type", ok, out))


# perf-style tables whose events take standard events from the import
# root's *.json: there (resolved, the table's Counter winning), or not.
IMPORT_STD = [{"ArchStdEvent": "STD_CYC", "Counter": "0"},
              {"ArchStdEvent": "GONE"}]
IMPORT_STD_FILE = [{"EventName": "STD_CYC", "EventCode": "0x3C",
                    "BriefDescription": "Cycles.", "Counter": "0,1,2,3"},
                   {"MetricName": "m", "MetricExpr": "STD_CYC"}]


def check_import_std(results):
    """perf's ArchStdEvent references are kept: resolved against the
    import root's standard files, else Unsupported; a broken standard
    file of perf's is no error."""
    for case, root_files in (("resolved", {"std.json": IMPORT_STD_FILE}),
                             ("no-std-file", {}),
                             ("broken-std-file", {"std.json": "[{"})):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "stdish"))
            with open(os.path.join(tmp, "stdish", "e.json"), "w") as f:
                json.dump(IMPORT_STD, f)
            with open(os.path.join(tmp, "mapfile.csv"), "w") as f:
                f.write("h\nGenuineIntel-6-99,v1,stdish,core\n")
            for fn, data in root_files.items():
                with open(os.path.join(tmp, fn), "w") as f:
                    f.write(data if isinstance(data, str)
                            else json.dumps(data))
            errs, tables, _ = load(os.path.join(ROOT, "tools", "pmu-events"),
                                   tmp)
        evs = {e.name: e for e in tables.get("stdish", (0, 0, 0, []))[3]}
        cyc, gone = evs.get("STD_CYC"), evs.get("GONE")
        if case == "resolved":
            ok = cyc is not None and not cyc.why and \
                (cyc.code, cyc.gp, cyc.desc) == (0x3C, 0x1, "Cycles.")
        else:
            ok = cyc is not None and "ArchStdEvent STD_CYC" in cyc.why
        ok = ok and not errs and gone is not None and \
            "ArchStdEvent GONE: no standard event" in gone.why
        results.append(("import-arch-std-" + case, ok, "\n".join(errs) or
                        "got %s" % {n: (hex(e.code), e.gp, e.why)
                                    for n, e in evs.items()}))


# perf's generic names every CPU of perf's own tables must resolve (the
# ones its kernel maps give; ref-cycles on every Intel, and on AMD from
# Zen 4, in tables that have its event: Linux 7.x's, not 6.12's).
REQUIRED = ["cycles", "instructions", "branches", "branch-misses",
            "cache-references", "cache-misses"]


def check_real_imports(results):
    """perf's newest tables found (perf-tables.sh), imported whole."""
    j = jevents_module()
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run(["sh", os.path.join(ROOT, "tools", "pmu-events",
                                               "perf-tables.sh"), tmp],
                           capture_output=True, text=True)
        imp = p.stdout.strip()
        results.append(("perf-tables-found", bool(imp),
                         p.stderr + " (make check installs linux-source)"))
        if not imp:
            return
        err, notes = j.Errors(), []
        _, tables, _ = j.load_arch(os.path.join(ROOT, "tools", "pmu-events"),
                                   "x86", imp, err, notes)
    results.append(("perf-tables-import", not err.list and
                    any(t[2] for t in tables), "\n".join(err.list[:10])))
    for d, _, imported, events in tables:
        if not imported:
            continue
        want = list(REQUIRED)
        # On AMD where the table has perf's Zen 4 reference-cycle event.
        if not d.startswith("amd") or any(
                (e.code, e.umask) == (0x120, 0x01) for e in events):
            want.append("ref-cycles")
        have = {g for e in events for i, g in enumerate(j.GENERIC)
                if e.generic & 1 << i}
        results.append(("perf-%s-generic" % d, set(want) <= have,
                        "%s lacks %s" % (d, sorted(set(want) - have))))


def main():
    results = []
    check_good(results)
    check_imports(results)
    check_arch_std(results)
    check_vendor(results)
    check_version(results)
    check_import_std(results)
    check_real_imports(results)
    check_metrics(results)
    for name, args, says in BAD:
        with tempfile.TemporaryDirectory() as tmp:
            rc, out = run(tree(tmp, **args), "--check")
            says = says if isinstance(says, tuple) else (says,)
            results.append(("rejects-" + name,
                            rc == 1 and all(x in out for x in says),
                            "rc %d, want 1 and %s in:\n%s"
                            % (rc, " and ".join(map(repr, says)), out)))
    for name, ok, why in results:
        print("RESULT %s jevents:%s" % ("PASS" if ok else "FAIL", name))
        if not ok:
            print("    " + why.strip().replace("\n", "\n    "))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
