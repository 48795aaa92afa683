#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The AMD tables against AMD's own event lists.

    test_amd_tables.py
        for each file in tests/pmu-events/amd/, one AMD CodeXL event
        file typed as (code, unit mask bits) and the perfctr table it
        describes: the set of (code, bit) pairs of our table must equal
        AMD's, less the pairs the file lists as MISSING and plus those
        it lists as EXTRA, each with its verdict and source (the same
        ones as the table's SOURCES). Counters are compared too where
        AMD's file gives them. Then a broken copy of one table is
        compared, to show that a dropped, added or moved row is caught.
        Prints RESULT lines.

AMD's lists are typed in the test, never read from our tables, so a row
changed in a table by mistake shows here. A pair is (code, bit) for a
unit mask bit, (code, None) for an event without a unit mask, and
(code, "=value") for an event whose unit mask is a number (ENCODED).
"""

import copy
import glob
import importlib.util
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "pmu-events"))
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import jevents  # noqa: E402

X86 = os.path.join(ROOT, "tools", "pmu-events", "arch", "x86")


def load(path):
    spec = importlib.util.spec_from_file_location(
        "amd_" + os.path.basename(path)[:-3].replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, default in (("LEFT_OUT", {}), ("ENCODED", {}),
                          ("MISSING", {}), ("EXTRA", {}),
                          ("COUNTERS", {})):
        if not hasattr(mod, name):
            setattr(mod, name, default)
    return mod


def left_out(mod, code, unit):
    """Why AMD's event is not in our table (a unit perfctr does not
    drive, say), or None."""
    if code > 0xFFF:
        # CodeXL's own numbers for IBS sample fields (F000h on) and the
        # L2I unit (D0xxh): no 12-bit PERF_CTL event select.
        return "not a PERF_CTL event select"
    return mod.LEFT_OUT.get(code) or mod.LEFT_OUT.get(unit)


def amd_pairs(mod):
    pairs = set()
    for code, (unit, _, bits) in mod.EVENTS.items():
        if left_out(mod, code, unit):
            continue
        if code in mod.ENCODED:
            pairs |= {(code, "=0x%x" % v) for v in mod.ENCODED[code]}
        elif bits:
            pairs |= {(code, b) for b in bits}
        else:
            pairs.add((code, None))
    return pairs


def our_events(table):
    path = os.path.join(X86, table)
    layout = jevents.DIR_LAYOUT["x86"].get(table)
    if layout is None or not os.path.isdir(path):
        return [], ["%s: no such table" % table]
    err = jevents.Errors()
    std = jevents.read_std(X86, False, err)
    events = jevents.read_table(path, layout, {}, False, "", std, err)
    return [ev for ev in events if not ev.why], err.list


def our_pairs(mod, events):
    pairs = set()
    for ev in events:
        if ev.code in mod.ENCODED:
            pairs.add((ev.code, "=0x%x" % ev.umask))
        elif ev.umask:
            pairs |= {(ev.code, b) for b in range(8) if ev.umask >> b & 1}
        else:
            pairs.add((ev.code, None))
    return pairs


def fmt(pair):
    code, bit = pair
    if bit is None:
        return "%03Xh" % code
    if isinstance(bit, str):
        return "%03Xh umask %s" % (code, bit[1:])
    return "%03Xh bit %d" % (code, bit)


def compare(mod, events):
    """The differences, as a list of sentences; [] when the table is
    AMD's file plus and minus the listed verdicts."""
    amd, ours = amd_pairs(mod), our_pairs(mod, events)
    out = []
    for p in sorted(set(mod.MISSING) - amd, key=str):
        out.append("MISSING %s is not in AMD's file: stale entry" % fmt(p))
    for p in sorted(set(mod.EXTRA) & amd, key=str):
        out.append("EXTRA %s is in AMD's file: stale entry" % fmt(p))
    want = (amd - set(mod.MISSING)) | set(mod.EXTRA)
    for p in sorted(want - ours, key=str):
        out.append("%s: in %s, not in our table" %
                   (fmt(p), "the EXTRA list" if p in mod.EXTRA
                    else mod.FILE))
    for p in sorted(ours - want, key=str):
        out.append("%s: in our table, not in %s%s" %
                   (fmt(p), mod.FILE, " (listed MISSING)"
                    if p in mod.MISSING else ""))
    out += compare_counters(mod, events)
    return out


def compare_counters(mod, events):
    """Each event on the counters AMD's file allows (all four of the
    legacy PERF_CTL0-3 where the file names none), or on those COUNTERS
    gives, with its reason, for an event or for (code, unit mask)."""
    out = []
    for ev in events:
        entry = mod.EVENTS.get(ev.code)
        if entry is None or left_out(mod, ev.code, entry[0]):
            continue
        allowed = entry[1] if entry[1] is not None else 0xF
        for key in ((ev.code, ev.umask), ev.code):
            if key in mod.COUNTERS:
                allowed = mod.COUNTERS[key][0]
                break
        if ev.gp != allowed:
            out.append("%s (%03Xh umask 0x%02x): counters 0x%x, want 0x%x"
                       % (ev.name, ev.code, ev.umask, ev.gp, allowed))
    return out


def result(ok, name, why=()):
    print("RESULT %s amd-tables:%s" % ("PASS" if ok else "FAIL", name))
    for line in why:
        print("  " + line)


def self_test(mod, events):
    """A broken table must not compare equal: a row dropped, one added,
    one moved to other counters."""
    if not events:
        return False
    dropped = events[1:]
    added = events + [copy.copy(events[0])]
    added[-1].code = 0xFFF
    moved = [copy.copy(ev) for ev in events]
    moved[0].gp ^= 1
    return all(compare(mod, evs) for evs in (dropped, added, moved))


def main():
    files = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "amd",
                                          "*.py")))
    failed = 0
    for path in files:
        name = os.path.basename(path)[:-3]
        mod = load(path)
        events, errors = our_events(mod.TABLE)
        diffs = errors + compare(mod, events)
        result(not diffs, "%s-as-%s" % (mod.TABLE, name), diffs)
        failed += bool(diffs)
    # The rejecting case: each way a table can go wrong is seen.
    mod = load(files[0])
    events, _ = our_events(mod.TABLE)
    ok = self_test(mod, events)
    result(ok, "catches-a-broken-table")
    failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
