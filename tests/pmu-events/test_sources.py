#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every event table says where its rows were read.

    test_sources.py
        for each table directory under tools/pmu-events/arch/<arch>/ (a
        directory holding *.json), its SOURCES must
          - open with a non-empty paragraph and name a manual or a
            vendor's transcription (manual, data sheet, BKDG, ...);
          - have one "Third-party only" section: the heading alone on a
            line, then indented lines listing, comma-separated, the
            EventNames of the rows read from a third party alone, or the
            single word "none". Every name must be an EventName of that
            table.
        Then two broken copies of a table (an unknown name in the
        section; no section) must be refused. Prints RESULT lines.

The section is what issue 31 asks of every table: a reader sees which
rows rest on no vendor document.
"""

import glob
import json
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ARCH = os.path.join(ROOT, "tools", "pmu-events", "arch")

HEADING = "Third-party only"
# Words that show a SOURCES names the vendor document its rows rest on.
DOCUMENT = re.compile(r"manual|transcription|data ?sheet|data ?book|"
                      r"\bBKDG\b|\bPPR\b|guide", re.I)


def tables(arch_root):
    """Each directory below arch_root/<arch>/ that holds *.json."""
    out = []
    for arch in sorted(os.listdir(arch_root)):
        top = os.path.join(arch_root, arch)
        if not os.path.isdir(top):
            continue
        for path, dirs, files in os.walk(top):
            dirs.sort()
            if path != top and any(f.endswith(".json") for f in files):
                out.append(path)
    return out


def event_names(table):
    names = set()
    for path in glob.glob(os.path.join(table, "*.json")):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for ev in data if isinstance(data, list) else []:
            if isinstance(ev, dict) and "EventName" in ev:
                names.add(ev["EventName"])
    return names


def third_party(text):
    """The names listed under the heading: a list (empty for "none"),
    or a string saying what is wrong with the section."""
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if line.rstrip() == HEADING]
    if not at:
        return "no \"%s\" section" % HEADING
    if len(at) > 1:
        return "%d \"%s\" sections" % (len(at), HEADING)
    body = []
    for line in lines[at[0] + 1:]:
        if not line.strip() or not line[0].isspace():
            break
        body.append(line.strip())
    items = [n.strip() for n in " ".join(body).split(",")]
    items = [n for n in items if n]
    if not items:
        return "the \"%s\" section is empty (say none)" % HEADING
    if items == ["none"]:
        return []
    if "none" in items:
        return "\"none\" together with names"
    return items


def check(table):
    """What is wrong with a table's SOURCES: a list of sentences."""
    path = os.path.join(table, "SOURCES")
    if not os.path.exists(path):
        return ["no SOURCES"]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    errors = []
    paras = [p for p in re.split(r"\n\s*\n",
                                 "\n".join(l for l in text.splitlines()
                                           if not l.startswith("#")))
             if p.strip()]
    if not paras:
        errors.append("SOURCES has no first paragraph")
    if not DOCUMENT.search(text):
        errors.append("SOURCES names no manual or vendor transcription")
    listed = third_party(text)
    if isinstance(listed, str):
        errors.append(listed)
        return errors
    names = event_names(table)
    unknown = [n for n in listed if n not in names]
    if unknown:
        errors.append("not an EventName of this table: %s" %
                      ", ".join(unknown[:10]) +
                      (" (and %d more)" % (len(unknown) - 10)
                       if len(unknown) > 10 else ""))
    dups = sorted({n for n in listed if listed.count(n) > 1})
    if dups:
        errors.append("listed twice: %s" % ", ".join(dups))
    return errors


def result(ok, name, why=()):
    print("RESULT %s sources:%s" % ("PASS" if ok else "FAIL", name))
    for line in why:
        print("  " + line)


def rejecting(table):
    """Broken copies of a table that check() must refuse."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "t")
        shutil.copytree(table, copy)
        src = os.path.join(copy, "SOURCES")
        with open(src, encoding="utf-8") as f:
            good = f.read()
        out.append(("good-copy-passes", not check(copy)))
        # An unknown name in the section.
        lines = good.splitlines()
        i = lines.index(HEADING) + 1
        lines[i] = "  NO_SUCH_EVENT_NAME, " + lines[i].strip()
        if lines[i].endswith(", none"):
            lines[i] = "  NO_SUCH_EVENT_NAME"
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        errs = check(copy)
        out.append(("rejects-unknown-name",
                    any("NO_SUCH_EVENT_NAME" in e for e in errs)))
        # No section at all.
        lines = good.splitlines()
        i = lines.index(HEADING)
        j = i + 1
        while j < len(lines) and lines[j][:1].isspace():
            j += 1
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:i] + lines[j:]) + "\n")
        errs = check(copy)
        out.append(("rejects-missing-section",
                    any(HEADING in e and "no" in e for e in errs)))
    return out


def main():
    failed = []
    found = tables(ARCH)
    for table in found:
        name = os.path.relpath(table, ARCH)
        errors = check(table)
        result(not errors, name, errors)
        if errors:
            failed.append(name)
    # The rejecting cases, on the first table whose SOURCES is good.
    good = [t for t in found if not check(t)]
    if good:
        for name, ok in rejecting(good[0]):
            result(ok, name)
            if not ok:
                failed.append(name)
    else:
        result(False, "rejecting-cases", ["no good table to copy"])
        failed.append("rejecting-cases")
    if failed:
        print("failing: %s" % " ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
