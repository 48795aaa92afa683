#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compile perfctr's pmu-events tables into C for libperfctr.

    jevents.py --check ROOT
        validate every table of every arch under ROOT/arch; print each
        error as FILE: EVENT: what is wrong; exit 1 if there was one
    jevents.py --arch ARCH [--import DIR] -o OUT.c ROOT
        validate ARCH's tables and write them as C; DIR is perf's own
        arch/x86 directory (Debian's linux-source-6.12), whose tables are
        read too, marked imported

The format and our extensions: Documentation/perfctr/events.rst.
Python 3 standard library only.
"""

import argparse
import copy
import csv
import json
import os
import re
import sys

# Each table's encoding, and so the ranges its fields must respect. A
# new CPU family with a new register layout adds a row here, its name to
# enum pe_layout (tools/lib/perfctr/pmu-events.h) and its encoder in
# tools/lib/perfctr/events-*.c. This is the one copy: emit() writes it
# into the generated C as pe_layouts[], which libperfctr bounds its
# fields with.
LAYOUTS = {
    # name: (code bits, umask bits, cmask max, counters, fixed, keys,
    #        mode bits)
    # counters: those a Counter key may name (ppc32: PMC numbers); on
    # the P4, where the ESCRs decide, the 18 CCCR/counter pairs.
    # mode bits: whether the family can count user and kernel apart.
    "p5": (6, 0, 0, range(2), 0, {"Duration"}, True),
    "mii": (7, 0, 0, range(2), 0, {"Duration"}, True),
    "winchip": (8, 0, 0, range(2), 0, set(), False),
    "c3": (9, 0, 0, [1], 0, set(), False),
    "p6": (8, 8, 255, range(2), 0, set(), True),
    "arch": (8, 8, 255, range(16), 4, set(), True),
    "k7": (8, 8, 255, range(4), 0, set(), True),
    "amd10h": (12, 8, 255, range(6), 0, set(), True),
    # Family 17h on (Zen, Hygon 18h): amd10h's, and large-increment
    # events counted by a pair with the Merge event (amd.rst).
    "amdzen": (12, 8, 255, range(6), 0, set(), True),
    "p4": (6, 16, 15, range(18), 0, {"ESCR", "PebsEnable",
                                     "PebsMatrixVert"}, True),
    "ppc604": (7, 0, 0, [1, 2], 0, {"Threshold"}, True),
    "ppc604e": (7, 0, 0, [1, 2, 3, 4], 0, {"Threshold"}, True),
    "ppc750": (7, 0, 0, [1, 2, 3, 4], 0, {"Threshold"}, True),
    "ppc7400": (7, 0, 0, [1, 2, 3, 4], 0, {"Threshold"}, True),
    "ppc7450": (7, 0, 0, [1, 2, 3, 4, 5, 6], 0, {"Threshold"}, True),
}
# The C enum's order (tools/lib/perfctr/pmu-events.h); the generated C
# asserts that each name has its index here.
LAYOUT_IDS = list(LAYOUTS)


def layout_counters(layout):
    """The layout's counters as a pmu-events counters bitmask (bit n:
    pmc_map n; ppc32: PMC n+1)."""
    mask = sum(1 << c for c in LAYOUTS[layout][3])
    return mask >> 1 if layout.startswith("ppc") else mask


# Our directories' layouts, keyed by the mapfile's Dir: a table in a
# vendor folder is "vendor/dir" (table_layout).
DIR_LAYOUT = {
    "x86": {
        "p5": "p5", "p5mmx": "p5", "cyrix-mii": "mii", "winchip": "winchip",
        "winchip-c6": "winchip",
        "c3": "c3", "pentiumpro": "p6", "pentium2": "p6", "pentium3": "p6",
        "pentium-m": "p6", "core": "arch", "core2": "arch", "arch": "arch",
        "netburst": "p4", "k7": "k7", "k8": "k7", "fam10h": "amd10h",
        "fam11h": "amd10h", "fam12h": "amd10h", "fam14h": "amd10h",
        "fam15h": "amd10h", "fam15h-m10h": "amd10h",
        "fam15h-m30h": "amd10h", "fam15h-m60h": "amd10h", "fam16h": "amd10h",
        # The catch-all for Zen on: family 10h's PERF_CTL, with pairs.
        "amd": "amdzen",
    },
    "powerpc": {
        "604": "ppc604", "604e": "ppc604e", "750": "ppc750",
        "7400": "ppc7400", "7450": "ppc7450",
    },
}
# PMCnSEL widths of PMC1-PMC6 (ppc32.rst).
PPC_SEL_BITS = {1: 7, 2: 6, 3: 5, 4: 5, 5: 5, 6: 6}

GENERIC = ["cycles", "instructions", "branches", "branch-misses",
           "cache-references", "cache-misses", "bus-cycles", "ref-cycles"]

PERF_KEYS = {"EventName", "EventCode", "UMask", "BriefDescription",
             "PublicDescription", "Counter", "CounterMask", "Invert",
             "EdgeDetect", "Errata", "SampleAfterValue"}
OUR_KEYS = {"Generic", "Duration", "ESCR", "PebsEnable", "PebsMatrixVert",
            "Threshold", "Unsupported"}
FLAG_KEYS = ("Invert", "EdgeDetect", "Duration", "Threshold")

# Which imported event implements each of perf's generic names, from
# perf's own kernel event maps (arch/x86/events/intel/core.c's
# intel_perfmon_event_map; amd/core.c's amd_zen1/zen2/zen4 maps: perf's
# AMD tables are Zen's). Per name: the event names to take, first found
# first; else the first plain event of that exact (code, unit mask);
# else the vendor's catch-all table's event (IMPORT_FILL).
IMPORT_GENERIC = {
    "GenuineIntel": {
        "cycles": (["CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.CORE"],
                   (0x3C, 0x00)),
        "instructions": (["INST_RETIRED.ANY"], (0xC0, 0x00)),
        "ref-cycles": (["CPU_CLK_UNHALTED.REF_TSC", "CPU_CLK_UNHALTED.REF"],
                       None),
        "branches": (["BR_INST_RETIRED.ALL_BRANCHES"], (0xC4, 0x00)),
        "branch-misses": (["BR_MISP_RETIRED.ALL_BRANCHES"], (0xC5, 0x00)),
        "cache-references": (["LONGEST_LAT_CACHE.REFERENCE"], (0x2E, 0x4F)),
        "cache-misses": (["LONGEST_LAT_CACHE.MISS"], (0x2E, 0x41)),
    },
    "AuthenticAMD": {
        "cycles": (["ls_not_halted_cyc"], (0x76, 0x00)),
        "instructions": (["ex_ret_instr"], (0xC0, 0x00)),
        "branches": (["ex_ret_brn"], (0xC2, 0x00)),
        "branch-misses": (["ex_ret_brn_misp"], (0xC3, 0x00)),
        "cache-references": (["l2_request_g1.all"], (0x60, 0xFF)),
        "cache-misses": (["l2_cache_req_stat.ic_dc_miss_in_l2"],
                         (0x64, 0x09)),
        # Zen 4 on: perf's 100000120h, event 120h unit mask 01h.
        "ref-cycles": (["ls_not_halted_p0_cyc.p0_freq_cyc"], (0x120, 0x01)),
    },
}
# The catch-all whose events fill an imported table's missing generic
# names: the architectural events, and those of every Zen.
IMPORT_FILL = {"GenuineIntel": "arch", "AuthenticAMD": "amd"}
# Intel's fixed counters by what they count, for perf's older tables
# that number them from 1 (bonnell, nehalem*, westmere*, silvermont).
FIXED_BY_NAME = {"INST_RETIRED.ANY": 0, "CPU_CLK_UNHALTED.THREAD": 1,
                 "CPU_CLK_UNHALTED.CORE": 1, "CPU_CLK_UNHALTED.REF": 2,
                 "CPU_CLK_UNHALTED.REF_TSC": 2}

HEX = re.compile(r"0[xX][0-9a-fA-F]+\Z")
NAME = re.compile(r"[A-Za-z0-9_.\-]+\Z")
DEC = re.compile(r"[0-9]+\Z")

# A metric object's keys (perf's metric files); the rest of perf's
# (MetricThreshold, MetricConstraint, ...) are dropped on import.
METRIC_KEYS = {"MetricName", "MetricExpr", "MetricGroup",
               "BriefDescription", "PublicDescription", "ScaleUnit"}
# What an expression may name besides its table's events: perfex knows
# these values (perfex.rst, "Metrics"); perf's other #literals and tool
# events have no meaning for one thread's counters.
METRIC_LITERALS = {"#smt_on", "#num_cpus", "#num_cpus_online"}
METRIC_TOOLS = {"duration_time"}
METRIC_FUNCS = {"min", "max", "d_ratio"}
SCALE_UNIT = re.compile(r"[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?[^0-9]*\Z")
# The evaluator's limit (tools/perfex/metric.c): deeper is refused.
EXPR_DEPTH = 64
EXPR_TOKEN = re.compile(r"\s*(?:(?P<num>(?:[0-9]+\.?[0-9]*|\.[0-9]+)"
                        r"(?:[eE][-+]?[0-9]+)?)|"
                        r"(?P<name>#?[A-Za-z_][A-Za-z0-9_.]*)|"
                        r"(?P<op>[-+*/(),<>])|(?P<bad>\S))")


class ExprError(Exception):
    """A MetricExpr perfctr cannot take; unsupported: well-formed but
    naming what perfex cannot count, rather than malformed."""

    def __init__(self, msg, unsupported=False):
        Exception.__init__(self, msg)
        self.unsupported = unsupported


class ExprParser:
    """perf's MetricExpr subset, as tools/perfex/metric.c evaluates it:
    numbers, names, + - * /, unary minus, parentheses, < >, min(), max(),
    d_ratio() and A if COND else B. Collects the names used."""

    def __init__(self, text):
        self.toks, self.pos, self.names = [], 0, []
        for m in EXPR_TOKEN.finditer(text):
            if m.group("bad"):
                c = m.group("bad")
                if c in "@\\":
                    raise ExprError("'%s' (a PMU-qualified or escaped "
                                    "event): perfctr takes plain event "
                                    "names" % c, True)
                raise ExprError("unexpected character %r" % c)
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind)))
        self.toks.append(("end", ""))

    def peek(self, value=None):
        kind, v = self.toks[self.pos]
        return v if value is None else (kind != "num" and v == value)

    def take(self, value):
        if not self.peek(value):
            got = self.peek() or "the end"
            raise ExprError("want '%s', found '%s'" % (value, got))
        self.pos += 1

    def parse(self):
        self.expr(0)
        if self.toks[self.pos][0] != "end":
            raise ExprError("unexpected '%s'" % self.peek())
        return self.names

    def expr(self, depth):
        if depth > EXPR_DEPTH:
            raise ExprError("nested deeper than %d" % EXPR_DEPTH)
        self.binary(0, depth)
        if self.peek("if"):
            self.pos += 1
            self.binary(0, depth)
            self.take("else")
            self.expr(depth + 1)

    LEVELS = (("<", ">"), ("+", "-"), ("*", "/"))

    def binary(self, level, depth):
        if level == len(self.LEVELS):
            return self.unary(depth)
        self.binary(level + 1, depth)
        while self.toks[self.pos][0] == "op" and \
                self.peek() in self.LEVELS[level]:
            self.pos += 1
            self.binary(level + 1, depth)

    def unary(self, depth):
        if depth > EXPR_DEPTH:
            raise ExprError("nested deeper than %d" % EXPR_DEPTH)
        kind, v = self.toks[self.pos]
        self.pos += 1
        if kind == "num":
            return
        if v == "-":
            return self.unary(depth + 1)
        if v == "(":
            self.expr(depth + 1)
            return self.take(")")
        if kind != "name" or v in ("if", "else"):
            raise ExprError("want a number, a name or '(', found '%s'"
                            % (v or "the end"))
        if self.peek("("):
            if v.lower() not in METRIC_FUNCS:
                raise ExprError("function %s(): perfctr has min, max and "
                                "d_ratio" % v, True)
            self.pos += 1
            self.expr(depth + 1)
            self.take(",")
            self.expr(depth + 1)
            return self.take(")")
        self.names.append(v)


def expr_names(text):
    """The names a MetricExpr uses, in order; ExprError if malformed."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError("empty")
    return ExprParser(text).parse()


class Errors:
    """Collects errors; each names the file and, where there is one,
    the event."""

    def __init__(self):
        self.list = []

    def __call__(self, where, what):
        self.list.append("%s: %s" % (where, what))


def posix_to_python(regex):
    """POSIX bracket classes, which Python's re lacks."""
    for name, chars in (("xdigit", "0-9A-Fa-f"), ("digit", "0-9"),
                        ("alpha", "A-Za-z"), ("alnum", "0-9A-Za-z"),
                        ("upper", "A-Z"), ("lower", "a-z")):
        regex = regex.replace("[:%s:]" % name, chars)
    return regex


def read_mapfile(path, err):
    """[(cpuid regex, version, dir, type, line)] and the import marker's
    position (None without one)."""
    rows, marker = [], None
    try:
        with open(path, newline="") as f:
            lines = f.read().splitlines()
    except OSError as e:
        err(path, "cannot read: %s" % e.strerror)
        return rows, marker
    for n, line in enumerate(lines[1:], 2):
        if line.strip() == "# perfctr-import":
            marker = len(rows)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        where = "%s:%d" % (path, n)
        if len(fields) != 4:
            err(where, "want 4 fields CPUID,Version,Dir,Type, got %d"
                % len(fields))
            continue
        try:
            re.compile(posix_to_python(fields[0]))
        except re.error as e:
            err(where, "bad regular expression %r: %s" % (fields[0], e))
            continue
        problem = row_problem(fields)
        if problem:
            err(where, problem)
            continue
        rows.append((fields[0], fields[1], os.path.normpath(fields[2]),
                     fields[3], where))
    return rows, marker


def row_problem(fields):
    """What is wrong with a mapfile row's Version, Dir or Type, or ''."""
    _, version, d, kind = fields
    # The version is emitted into pe_map; an empty one says nothing.
    if not version.strip():
        return "empty Version: want the table's version, e.g. v1"
    # Dir is DIR/ or VENDOR/DIR/ under the mapfile's directory, no
    # further: the dead-directory check only looks there.
    parts = d.split("/")
    if not d or os.path.isabs(d) or ".." in parts or "." in parts or \
            "" in parts[:-1]:
        return ("Dir %r: want a directory or vendor/directory relative "
                "to the mapfile's" % d)
    if len([p for p in parts if p]) > 2:
        return "Dir %r: at most one vendor folder above a table" % d
    if kind != "core":
        return ("Type %r: perfctr drives core counters only, so every "
                "row is core (no uncore or other units)" % kind)
    return ""


def read_escrs(path, err):
    """The P4's ESCRs: {name: (index, select, [counters])}."""
    escrs = {}
    try:
        with open(path, newline="") as f:
            lines = [l for l in f if not l.startswith("#")]
    except OSError as e:
        err(path, "cannot read: %s" % e.strerror)
        return escrs
    for row in list(csv.reader(lines))[1:]:
        escrs[row[0]] = (len(escrs), int(row[1]),
                         [int(c) for c in row[2].split()])
    return escrs


def number(where, key, text, pattern, base, err):
    if not isinstance(text, str) or not pattern.match(text):
        err(where, "%s %r is not a %s number"
            % (key, text, "hex (0x...)" if base == 16 else "decimal"))
        return None
    return int(text, base)


def parse_counters(where, text, layout, err):
    """(general counter bitmask, fixed counter bitmask) or None."""
    _, _, _, legal, nfixed, _, _ = LAYOUTS[layout]
    gp = fixed = 0
    m = re.match(r"Fixed counter ([0-9]+)\Z", text)
    if m:
        n = int(m.group(1))
        if n >= nfixed:
            err(where, "Counter %r: no such fixed counter here" % text)
            return None
        return 0, 1 << n
    for part in text.split(","):
        part = part.strip()
        if not DEC.match(part) or int(part) not in legal:
            err(where, "Counter %r: %r is not a counter of this family "
                "(%s)" % (text, part, ",".join(map(str, legal))))
            return None
        gp |= 1 << int(part)
    return gp, fixed


class Event:
    __slots__ = ("name", "desc", "code", "umask", "gp", "fixed", "cmask",
                 "flags", "generic", "escrs", "pebs", "why")


class Metric:
    __slots__ = ("name", "group", "desc", "expr", "unit", "why")


class EventList(list):
    """A table's events; .metrics: its metrics, [Metric]."""

    def __init__(self):
        list.__init__(self)
        self.metrics = []


def metric_fields(where, m, imported, err):
    """A Metric from one object, its names not yet checked; or None
    after reporting why not."""
    name = m.get("MetricName")
    if not isinstance(name, str) or not NAME.match(name):
        err(where, "MetricName %r: want letters, digits, '_', '.', '-'"
            % (name,))
        return None
    where = "%s: %s" % (where, name)
    bad = sorted(k for k in m if k not in METRIC_KEYS)
    if bad and not imported:
        err(where, "unknown key%s %s" % ("s" if len(bad) > 1 else "",
                                         ", ".join(bad)))
        return None
    for k in METRIC_KEYS:
        if k in m and not isinstance(m[k], str):
            err(where, "%s must be a string" % k)
            return None
    met = Metric()
    met.name, met.expr = name, m.get("MetricExpr", "")
    met.group = m.get("MetricGroup", "")
    met.desc = m.get("BriefDescription", "")
    met.unit = m.get("ScaleUnit", "")
    met.why = ""
    if not met.desc and not imported:
        err(where, "no BriefDescription")
        return None
    if met.unit and not SCALE_UNIT.match(met.unit):
        err(where, "ScaleUnit %r: want a number and a unit, e.g. 100%%"
            % met.unit)
        return None
    return met


def name_problem(n, events, metrics):
    """Why an expression may not use the name @n, or ''."""
    low = n.lower()
    if low in METRIC_LITERALS or low in METRIC_TOOLS:
        return ""
    if n.startswith("#"):
        return "%s: perfex knows %s" % (n, ", ".join(sorted(
            METRIC_LITERALS)))
    ev = events.get(low)
    if ev is not None:
        return ("%s cannot be counted: %s" % (n, ev.why)) if ev.why else ""
    if low in metrics:
        return "uses metric %s: perfctr evaluates events only" % n
    return "%s is not an event of this table" % n


def check_metric(where, m, events, metrics, imported, err):
    """A Metric whose expression is checked against the table's @events
    ({lower name: Event}) and @metrics (lower names); ours refused on a
    problem, perf's kept unsupported with it. None after reporting."""
    met = metric_fields(where, m, imported, err)
    if met is None:
        return None
    where = "%s: %s" % (where, met.name)
    try:
        names = expr_names(met.expr)
        problems = [p for p in (name_problem(n, events, metrics)
                                for n in names) if p]
        if problems:
            raise ExprError(problems[0], True)
    except ExprError as e:
        if not imported:
            err(where, "MetricExpr %r: %s" % (met.expr, e))
            return None
        met.why = "MetricExpr: %s" % e
    return met


def check_event(where, e, layout, escrs, imported, err):
    """An Event from one JSON object, or None after reporting why."""
    code_bits, umask_bits, cmask_max, _, _, extra, _ = LAYOUTS[layout]
    if not isinstance(e, dict):
        err(where, "an event must be a JSON object")
        return None
    name = e.get("EventName")
    if not isinstance(name, str) or not NAME.match(name):
        err(where, "EventName %r: want letters, digits, '_', '.', '-'"
            % (name,))
        return None
    where = "%s: %s" % (where, name)
    allowed = PERF_KEYS | (OUR_KEYS & (extra | {"Generic", "Unsupported"}))
    bad = [k for k in e if k not in allowed]
    if bad and not imported:
        err(where, "unknown key%s %s" % ("s" if len(bad) > 1 else "",
                                         ", ".join(sorted(bad))))
        return None
    for k, v in e.items():
        if not isinstance(v, str) and not imported:
            err(where, "%s must be a string" % k)
            return None
    ev = Event()
    ev.name = name
    ev.desc = e.get("BriefDescription", "")
    ev.why = e.get("Unsupported", "")
    if not ev.desc and not imported:
        err(where, "no BriefDescription")
        return None
    if "EventCode" not in e:
        err(where, "no EventCode")
        return None
    # perf's Intel files give two codes ("0xB7,0xBB") for offcore pairs.
    code_text = e["EventCode"].split(",")[0] if imported else e["EventCode"]
    ev.code = number(where, "EventCode", code_text, HEX, 16, err)
    ev.umask = number(where, "UMask", e.get("UMask", "0x0"), HEX, 16, err)
    ev.cmask = number(where, "CounterMask", e.get("CounterMask", "0"), DEC,
                      10, err)
    if None in (ev.code, ev.umask, ev.cmask):
        return None
    if ev.code >> code_bits:
        err(where, "EventCode %s is wider than this family's %d bits"
            % (e["EventCode"], code_bits))
        return None
    if ev.umask and ev.umask >> umask_bits:
        err(where, "UMask %s is out of range for this family (%d bits)"
            % (e["UMask"], umask_bits))
        return None
    if ev.cmask > cmask_max:
        err(where, "CounterMask %d is out of range for this family "
            "(at most %d)" % (ev.cmask, cmask_max))
        return None
    ev.flags = 0
    for bit, key in enumerate(FLAG_KEYS):
        v = e.get(key, "0")
        if v not in ("0", "1"):
            err(where, "%s %r: want \"0\" or \"1\"" % (key, v))
            return None
        if v == "1":
            ev.flags |= 1 << bit
    ev.generic = 0
    for g in filter(None, (x.strip() for x in e.get("Generic", "").split(","))):
        if g not in GENERIC:
            err(where, "Generic %r is not one of %s" % (g, ", ".join(GENERIC)))
            return None
        ev.generic |= 1 << GENERIC.index(g)
    ev.escrs, ev.pebs = 0, (0, 0)
    if layout == "p4":
        if "Counter" in e:
            err(where, "Counter: on the P4 the ESCRs decide the counters")
            return None
        names = [x.strip() for x in e.get("ESCR", "").split(",") if x.strip()]
        if not names:
            err(where, "no ESCR")
            return None
        for n in names:
            if n not in escrs:
                err(where, "ESCR %r is not a P4 ESCR (p4-escrs.csv)" % n)
                return None
            ev.escrs |= 1 << escrs[n][0]
        pe = number(where, "PebsEnable", e.get("PebsEnable", "0x0"), HEX,
                    16, err)
        pm = number(where, "PebsMatrixVert", e.get("PebsMatrixVert", "0x0"),
                    HEX, 16, err)
        if pe is None or pm is None:
            return None
        ev.pebs = (pe, pm)
        ev.gp = ev.fixed = 0
        return ev
    if "Counter" not in e:
        if not imported:
            err(where, "no Counter")
            return None
        ev.gp, ev.fixed = layout_counters(layout), 0
        return ev
    counters = parse_counters(where, e["Counter"], layout, err)
    if counters is None:
        return None
    ev.gp, ev.fixed = counters
    if layout.startswith("ppc"):
        for pmc in range(1, 7):
            if ev.gp & (1 << pmc) and ev.code >> PPC_SEL_BITS[pmc]:
                err(where, "EventCode %s does not fit PMC%d's %d-bit select"
                    % (e["EventCode"], pmc, PPC_SEL_BITS[pmc]))
                return None
        ev.gp >>= 1		# bit n: PMC n+1, as pmc_map numbers it
    return ev


def import_reason(e):
    """Why perfctr cannot program an imported event, or ''."""
    unit = e.get("Unit", "")
    if unit and unit.lower() not in ("cpu", "core", "cpu_core", "cpu_atom",
                                     "cpu_lowpower"):
        return "a %s event: perfctr drives core counters only" % unit
    msr = e.get("MSRIndex", "0")
    if msr not in ("0", "0x00", "0x0", ""):
        return "needs MSR %s as well" % msr
    if e.get("AnyThread", "0") != "0":
        return "counts both hyperthreads (AnyThread), which perfctr refuses"
    if e.get("EventCode", "").count(","):
        return "needs two event codes"
    return ""


def json_files(path):
    """The *.json regular files directly in a directory, sorted."""
    return [os.path.join(path, fn) for fn in sorted(os.listdir(path))
            if fn.endswith(".json") and
            os.path.isfile(os.path.join(path, fn))]


def read_json(fpath, err):
    """A JSON file's array, or None after reporting why not."""
    try:
        with open(fpath) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        err(fpath, "not valid JSON: %s" % e)
        return None
    if not isinstance(data, list):
        err(fpath, "want a JSON array of events")
        return None
    return data


def read_std(base, imported, err):
    """The architecture standard events: those of the *.json files
    directly in an arch root, {lower-case EventName: (where, object)}.
    They are not a table; an event is checked when a table takes it, by
    that table's layout. perf's (imported) are read leniently."""
    std = {}
    for fpath in json_files(base):
        if imported and "metric" in os.path.basename(fpath):
            continue
        for i, e in enumerate(read_json(fpath, err) or []):
            where = "%s[%d]" % (fpath, i)
            if imported and isinstance(e, dict) and "EventName" not in e:
                continue	# perf's metrics and the like
            if not isinstance(e, dict):
                err(where, "a standard event must be a JSON object")
                continue
            name = e.get("EventName")
            if not isinstance(name, str) or not NAME.match(name):
                err(where, "EventName %r: want letters, digits, '_', '.', "
                    "'-'" % (name,))
                continue
            if "ArchStdEvent" in e:
                err("%s: %s" % (where, name), "a standard event cannot "
                    "take another (ArchStdEvent)")
            elif name.lower() in std:
                err("%s: %s" % (where, name), "duplicate standard event "
                    "(first in %s)" % std[name.lower()][0])
            else:
                std[name.lower()] = (where, e)
    return std


def take_std(where, e, std, err):
    """An event object that names a standard event (ArchStdEvent): the
    standard event's keys with the object's own over them, as perf does,
    and where to report its errors; (None, where) after reporting why
    not."""
    ref = e["ArchStdEvent"]
    if not isinstance(ref, str):
        err(where, "ArchStdEvent %r: want a standard event's EventName"
            % (ref,))
        return None, where
    found = std.get(ref.lower())
    if found is None:
        err("%s: %s" % (where, ref), "ArchStdEvent: no standard event of "
            "that name in the arch folder's *.json")
        return None, where
    merged = dict(found[1])
    merged.update((k, v) for k, v in e.items() if k != "ArchStdEvent")
    return merged, "%s: ArchStdEvent from %s" % (where, found[0])


def import_event(e, std):
    """One of perf's event objects as we check ours, or None to skip it:
    keys we do not use dropped, one we cannot program Unsupported."""
    if "MetricName" in e:
        return None
    if "ArchStdEvent" in e:
        ref = e["ArchStdEvent"]
        name = e.get("EventName", ref)
        if not isinstance(name, str) or not NAME.match(name):
            return None
        if not isinstance(ref, str) or ref.lower() not in std:
            # perf's data, not ours: kept, refused with the reason.
            return {"EventName": name, "EventCode": "0x0",
                    "Unsupported": "ArchStdEvent %s: no standard event of "
                    "that name in perf's arch folder" % (ref,)}
        e, _ = take_std("", e, std, Errors())
    if "EventName" not in e:
        return None
    e = dict(e)
    if "EventCode" not in e:
        # perf gives fixed-counter events no code.
        if not e.get("Counter", "").startswith("Fixed"):
            return None
        e["EventCode"] = "0x00"
    why = import_reason(e)
    for k in list(e):
        if k not in PERF_KEYS:
            e.pop(k)
    if why:
        return {"EventName": e["EventName"], "EventCode": "0x0",
                "Unsupported": why}
    if e["EventName"] in FIXED_BY_NAME and \
            e.get("Counter", "").startswith("Fixed"):
        e["Counter"] = "Fixed counter %d" % FIXED_BY_NAME[e["EventName"]]
    return e


def read_table(path, layout, escrs, imported, vendor, std, err):
    """The events of one directory: an EventList, its metrics too.
    std: the arch's standard events (read_std)."""
    events, seen, metric_objs = EventList(), {}, []
    for fpath in json_files(path):
        # perf's group descriptions: an object, not a table.
        if imported and os.path.basename(fpath) == "metricgroups.json":
            continue
        data = read_json(fpath, err)
        if data is None:
            continue
        for i, e in enumerate(data):
            where = "%s[%d]" % (fpath, i)
            if isinstance(e, dict) and "MetricName" in e:
                metric_objs.append((where, e))
                continue
            if imported and isinstance(e, dict):
                e = import_event(e, std)
                if e is None:
                    continue
            elif isinstance(e, dict) and "ArchStdEvent" in e:
                e, where = take_std(where, e, std, err)
                if e is None:
                    continue
            ev = check_event(where, e, layout, escrs, imported,
                             Errors() if imported else err)
            if ev is None and imported and isinstance(e, dict):
                # perf's data, not ours: an event we cannot take is kept,
                # refused with the reason.
                why = Errors()
                check_event(fpath, e, layout, escrs, True, why)
                ev = check_event(fpath, {"EventName": e["EventName"],
                                         "EventCode": "0x0",
                                         "Unsupported": why.list[0]},
                                 layout, escrs, True, err)
            if ev is None:
                continue
            key = ev.name.lower()
            prev = seen.setdefault(key, [])
            # One name once per code, on disjoint counters (ppc32).
            if any(imported or p.gp & ev.gp or p.code == ev.code or
                   not (p.gp | ev.gp) for p in prev):
                if not imported:
                    err("%s: %s" % (fpath, ev.name), "duplicate name")
                continue
            prev.append(ev)
            events.append(ev)
    if not events and not imported:
        err(path, "no events")
    if imported:
        mark_generic(events, vendor)
    for g in range(len(GENERIC)):
        owners = [ev.name for ev in events if ev.generic & (1 << g)]
        if len(owners) > 1:
            err(path, "Generic %s on %s: one event per name"
                % (GENERIC[g], ", ".join(owners)))
    events.metrics = read_metrics(metric_objs, events, imported, err)
    return events


def read_metrics(objs, events, imported, err):
    """A table's metrics from their (where, object): [Metric]. Names in
    expressions are its events' and perf's generic names it has (the
    generic names of an imported table are final only after
    fill_generic, which adds the rest from the catch-all table)."""
    by_name = {}
    for ev in events:
        by_name.setdefault(ev.name.lower(), ev)
        for g in range(len(GENERIC)):
            if ev.generic & (1 << g):
                by_name.setdefault(GENERIC[g], ev)
    if imported:
        # fill_generic gives each generic name an event later.
        filled = Event()
        filled.why = ""
        for g in GENERIC:
            by_name.setdefault(g, filled)
    names = {o.get("MetricName", "").lower() for _, o in objs
             if isinstance(o.get("MetricName"), str)}
    metrics, seen = [], set()
    for where, o in objs:
        met = check_metric(where, o, by_name, names, imported,
                           Errors() if imported else err)
        if met is None:
            continue
        if met.name.lower() in seen:
            if not imported:
                err("%s: %s" % (where, met.name), "duplicate metric name")
            continue
        seen.add(met.name.lower())
        metrics.append(met)
    return metrics


def plain(ev):
    """A programmable event with no counter mask, INV or EDGE."""
    return not ev.why and not ev.cmask and not ev.flags


def mark_generic(events, vendor):
    """An imported table's events get perf's generic names
    (IMPORT_GENERIC): by name, else by encoding."""
    by_name = {ev.name: ev for ev in events if not ev.why}
    for g, (names, code) in IMPORT_GENERIC.get(vendor, {}).items():
        bit = 1 << GENERIC.index(g)
        # perf's ref-cycles is fixed counter 2 (its pseudo-code 0300h);
        # some Atoms' CPU_CLK_UNHALTED.REF is a general bus-clock event.
        found = [by_name[n] for n in names if n in by_name and
                 (g != "ref-cycles" or by_name[n].fixed)]
        if not found and code:
            found = [ev for ev in events if plain(ev) and not ev.fixed and
                     (ev.code, ev.umask) == code]
        if found:
            found[0].generic |= bit


def fill_generic(tables, vendors, notes):
    """Generic names an imported table still lacks come from its
    vendor's catch-all (IMPORT_FILL), whose events every such CPU has.
    vendors: {imported directory: vendor}."""
    fills = {d: evs for (d, _, imp, evs) in tables if not imp}
    for d, _, imported, events in tables:
        vendor = vendors.get(d)
        if not imported or IMPORT_FILL.get(vendor) not in fills:
            continue
        names = {ev.name.lower() for ev in events}
        for g in IMPORT_GENERIC[vendor]:
            bit = 1 << GENERIC.index(g)
            if any(ev.generic & bit for ev in events):
                continue
            src = [ev for ev in fills[IMPORT_FILL[vendor]] if ev.generic & bit]
            if not src or src[0].name.lower() in names:
                notes.append("%s: no %s" % (d, g))
                continue
            ev = copy.copy(src[0])
            ev.generic = bit
            events.append(ev)
            names.add(ev.name.lower())


def vendor_of(regex):
    m = re.match(r"\(?([A-Za-z]+)", regex)
    return m.group(1) if m else ""


def table_dirs(base):
    """The table directories an arch folder holds, relative to it: each
    directory, except that one with sub-directories and no JSON of its
    own is a vendor folder, whose sub-directories are the tables."""
    found = []
    for d in sorted(os.listdir(base)):
        path = os.path.join(base, d)
        if not os.path.isdir(path):
            continue
        subs = [x for x in sorted(os.listdir(path))
                if os.path.isdir(os.path.join(path, x))]
        if subs and not json_files(path):
            found += [d + "/" + x for x in subs]
        else:
            found.append(d)
    return found


def table_layout(arch, base, d, where, err):
    """The layout of one of our directories, or None after reporting
    why not. DIR_LAYOUT is keyed by the mapfile's Dir, vendor folder
    included ("intel/pentium3"): two vendors may use one model name."""
    if "/" in d and json_files(os.path.join(base, d.split("/")[0])):
        err(where, "%r: a vendor folder holds table directories only, "
            "and %s has JSON files of its own" % (d, d.split("/")[0]))
        return None
    layout = DIR_LAYOUT.get(arch, {}).get(d)
    if layout is None:
        err(where, "directory %r has no layout in jevents.py's DIR_LAYOUT"
            % d)
    return layout


def read_arch_std(base, err):
    """Our arch folder's standard events; their files need a SOURCES
    beside them, as a table does."""
    if json_files(base) and not os.path.isfile(os.path.join(base,
                                                            "SOURCES")):
        err(base, "standard event files (*.json) but no SOURCES file "
            "naming where they come from")
    return read_std(base, False, err)


def load_arch(root, arch, import_dir, err, notes):
    """[(regex, version, type, table index)],
    [(dir, layout, imported, [Event])], the P4's ESCRs."""
    base = os.path.join(root, "arch", arch)
    rows, marker = read_mapfile(os.path.join(base, "mapfile.csv"), err)
    escrs = read_escrs(os.path.join(base, "p4-escrs.csv"), err) \
        if arch == "x86" else {}
    std = {False: read_arch_std(base, err)}
    imp_rows = []
    if import_dir:
        imp_rows, _ = read_mapfile(os.path.join(import_dir, "mapfile.csv"),
                                   err)
        imp_rows = [r + (True,) for r in imp_rows]
        # perf's data: a bad standard file must not stop the build; its
        # events' users become Unsupported instead.
        std[True] = read_std(import_dir, True, Errors())
    rows = [r + (False,) for r in rows]
    if marker is None:
        marker = len(rows)
    rows = rows[:marker] + imp_rows + rows[marker:]
    tables, index, mapping, vendors = [], {}, [], {}
    for regex, version, d, kind, where, imported in rows:
        key = (imported, d)
        if key not in index:
            path = os.path.join(import_dir if imported else base, d)
            if not os.path.isdir(path):
                err(where, "directory %r does not exist" % d)
                continue
            if imported:
                vendor = vendors[d] = vendor_of(regex)
                # perf's AMD tables are Zen's (amdzen1 on).
                layout = "amdzen" if vendor == "AuthenticAMD" else "arch"
            else:
                vendor = ""
                layout = table_layout(arch, base, d, where, err)
                if layout is None:
                    continue
            if not imported and not os.path.isfile(os.path.join(path,
                                                                "SOURCES")):
                err(path, "no SOURCES file naming the manual")
            events = read_table(path, layout, escrs, imported, vendor,
                                std[imported], err)
            index[key] = len(tables)
            tables.append((d, layout, imported, events))
        mapping.append((regex, version, kind, index[key]))
    # Directories no mapfile row names are an error too: dead tables.
    named = {d for (d, _, imp, _) in tables if not imp}
    for d in table_dirs(base):
        if d not in named:
            err(os.path.join(base, d), "no mapfile row points here")
    if import_dir:
        fill_generic(tables, vendors, notes)
        n = sum(len(t[3]) for t in tables if t[2])
        nm = sum(len(t[3].metrics) for t in tables if t[2])
        notes.append("%s: imported %d events and %d metrics of %d tables "
                     "from %s" % (arch, n, nm, sum(1 for t in tables if t[2]),
                                  import_dir))
    return mapping, tables, escrs


class Strings:
    """One string table, each string once."""

    def __init__(self):
        self.offsets, self.parts, self.size = {}, [], 0

    def add(self, s):
        if s not in self.offsets:
            self.offsets[s] = self.size
            data = s.encode("utf-8") + b"\0"
            self.parts.append(data)
            self.size += len(data)
        return self.offsets[s]

    def c(self):
        out, line = [], ""
        for data in self.parts:
            for b in data:
                if b == 0:
                    piece = "\\000"
                elif b in (0x22, 0x5c):
                    piece = "\\" + chr(b)
                elif 0x20 <= b < 0x7f and b != 0x3f:
                    piece = chr(b)
                else:
                    piece = "\\%03o" % b
                line += piece
                if len(line) > 70 and b == 0:
                    out.append('\t"%s"' % line)
                    line = ""
        if line:
            out.append('\t"%s"' % line)
        return "\n".join(out) if out else '\t""'


def emit(out, arch, mapping, tables, escrs, notes):
    s = Strings()
    s.add("")
    ev_rows, aux_rows, tab_rows, met_rows = [], [(0, 0, 0, 0)], [], []
    for d, layout, imported, events in tables:
        first = len(ev_rows)
        for ev in events:
            aux = 0
            if ev.escrs or ev.why or ev.pebs != (0, 0):
                aux = len(aux_rows)
                aux_rows.append((ev.escrs, ev.pebs[0], ev.pebs[1],
                                 s.add(ev.why)))
            ev_rows.append("\t{ %d, %d, 0x%x, 0x%x, 0x%x, 0x%x, %d, 0x%x, "
                           "0x%x, %d },"
                           % (s.add(ev.name), s.add(ev.desc), ev.code,
                              ev.umask, ev.gp, ev.fixed, ev.cmask, ev.flags,
                              ev.generic, aux))
        mfirst = len(met_rows)
        for m in getattr(events, "metrics", []):
            met_rows.append("\t{ %d, %d, %d, %d, %d, %d },"
                            % (s.add(m.name), s.add(m.group), s.add(m.desc),
                               s.add(m.expr), s.add(m.unit), s.add(m.why)))
        tab_rows.append("\t{ %d, %d, %d, PE_LAYOUT_%s, %d, %d, %d },"
                        % (s.add(d), first, len(ev_rows) - first,
                           layout.upper(), int(imported), mfirst,
                           len(met_rows) - mfirst))
    map_rows = ["\t{ %d, %d, %d, %d }," % (s.add(r), t, s.add(v), s.add(k))
                for r, v, k, t in mapping]
    escr_rows = ["\t{ %d, %d, 0x%x }," % (s.add(n), sel,
                                          sum(1 << c for c in ctrs))
                 for n, (_, sel, ctrs) in sorted(escrs.items(),
                                                 key=lambda x: x[1][0])]
    aux_c = ["\t{ 0x%xULL, 0x%x, 0x%x, %d }," % a for a in aux_rows]
    lay_rows, lay_asserts = [], []
    for i, name in enumerate(LAYOUT_IDS):
        code_bits, umask_bits, cmask_max, _, nfixed, _, modes = \
            LAYOUTS[name]
        lay_rows.append("\t[PE_LAYOUT_%s] = { %d, %d, %d, 0x%x, %d, %d },"
                        % (name.upper(), code_bits, umask_bits, cmask_max,
                           layout_counters(name), nfixed, int(modes)))
        lay_asserts.append('_Static_assert(PE_LAYOUT_%s == %d, "enum '
                           'pe_layout is jevents.py\'s LAYOUTS order");'
                           % (name.upper(), i))
    # perfctr's own tables are LGPL, as is the library they go into;
    # tables imported from Linux's perf carry the kernel's licence.
    spdx = "LGPL-2.1-or-later"
    if any(t[2] for t in tables):
        spdx += " AND GPL-2.0-only"
    with open(out, "w") as f:
        f.write("/* SPDX-License-Identifier: %s */\n"
                "/* Generated by tools/pmu-events/jevents.py for %s: do not "
                "edit. */\n" % (spdx, arch))
        for n in notes:
            f.write("/* %s */\n" % n)
        f.write('#include "pmu-events.h"\n\n')
        f.write("const char pe_strings[] =\n%s;\n\n" % s.c())
        f.write("const struct pe_event pe_events[] = {\n%s\n};\n\n"
                % "\n".join(ev_rows or ["\t{ 0 },"]))
        f.write("const struct pe_aux pe_aux[] = {\n%s\n};\n\n"
                % "\n".join(aux_c))
        f.write("const struct pe_metric pe_metrics[] = {\n%s\n};\n\n"
                % "\n".join(met_rows or ["\t{ 0 },"]))
        f.write("%s\n_Static_assert(PE_NR_LAYOUTS == %d, \"enum pe_layout "
                "has jevents.py's LAYOUTS\");\n"
                "const struct pe_layout_info pe_layouts[PE_NR_LAYOUTS] = {\n%s\n"
                "};\n\n" % ("\n".join(lay_asserts), len(LAYOUT_IDS),
                             "\n".join(lay_rows)))
        f.write("const struct pe_table pe_tables[] = {\n%s\n};\n"
                "const unsigned int pe_nr_tables = %d;\n\n"
                % ("\n".join(tab_rows), len(tab_rows)))
        f.write("const struct pe_map pe_map[] = {\n%s\n};\n"
                "const unsigned int pe_nr_map = %d;\n\n"
                % ("\n".join(map_rows), len(map_rows)))
        f.write("const struct pe_escr pe_escrs[] = {\n%s\n};\n"
                "const unsigned int pe_nr_escrs = %d;\n"
                % ("\n".join(escr_rows or ["\t{ 0, 0, 0 },"]), len(escr_rows)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--arch", choices=sorted(DIR_LAYOUT))
    ap.add_argument("--import", dest="import_dir")
    ap.add_argument("-o", dest="out")
    args = ap.parse_args()
    if not args.check and not (args.arch and args.out):
        ap.error("want --check, or --arch and -o")
    err, notes = Errors(), []
    arches = sorted(DIR_LAYOUT) if args.check else [args.arch]
    loaded = {}
    for arch in arches:
        imp = args.import_dir if arch == "x86" else None
        loaded[arch] = load_arch(args.root, arch, imp, err, notes)
    for e in err.list:
        print("jevents: " + e, file=sys.stderr)
    if err.list:
        print("jevents: %d error%s" % (len(err.list),
                                       "s" if len(err.list) > 1 else ""),
              file=sys.stderr)
        return 1
    if args.check:
        for arch, (mapping, tables, _) in loaded.items():
            print("jevents: %s: %d tables, %d events, %d metrics, %d "
                  "mapfile rows"
                  % (arch, len(tables), sum(len(t[3]) for t in tables),
                     sum(len(t[3].metrics) for t in tables), len(mapping)))
        return 0
    mapping, tables, escrs = loaded[args.arch]
    emit(args.out, args.arch, mapping, tables, escrs, notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
