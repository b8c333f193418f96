#!/usr/bin/env python3
"""catalog2xml.py - generate conformance/<game>/rules.xml from rules-catalog.md.

The markdown catalog (conformance/catalog/rules-catalog.md, beside the four
rulebooks it analyses in conformance/catalog/seeds/) is the source of truth for
rule IDs; this script turns each game's section into the XML rule catalog the
conformance runner reads (schema: conformance/schema/rules.xsd). Every catalog
row becomes one <entry>; every gap-list row becomes one <interpretation>.
Verbatim rulebook text for each entry's source lines is copied from the seed
files so a judge sees the text next to the ID. Rule IDs born from an
interpretation (catalyst's CAT-DECK-*) come from the table under the heading
"## Interpretation rules" of OUT_DIR/<game>/interpretations.md, when there is
one, and become kind="interpretation" entries after the catalog's own.
Python 3 standard library only.

usage: catalog2xml.py [CATALOG.md SEEDS_DIR OUT_DIR]
  without arguments: the catalog, rulebooks and suite of the checkout this
  script is in (conformance/catalog/rules-catalog.md, conformance/catalog/seeds,
  conformance), so `python3 conformance/tools/catalog2xml.py` regenerates the
  committed catalogs from a clone.
"""
import os
import re
import sys
from xml.sax.saxutils import escape, quoteattr

GAMES = {
    # prefix: (game id, rulebook file, file with numbered units, unit letter)
    "NAR": ("naramo", "000_8507781feb854d2d.txt", "000_8507781feb854d2d.txt", "L"),
    "CAT": ("catalyst", "001_16ffb307529fc31a.txt", "001_16ffb307529fc31a.txt", "L"),
    "OPS": ("operator", "003_b1064af7a671db4e.txt", "003_sentences.txt", "S"),
    "BRN": ("brainstorm", "004_650fd47449376b34.txt", "004_650fd47449376b34.txt", "L"),
}
EXPECTED = {"NAR": 131, "CAT": 67, "OPS": 138, "BRN": 50}
KINDS = {"R": "rule", "R*": "rule-needing-interpretation", "I": "informational"}


def load_interp_rules(path, prefix):
    """Rows | ID | Gap | Rule | Check | under '## Interpretation rules'."""
    rows = []
    if not os.path.exists(path):
        return rows
    inside = False
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if line.startswith("## "):
                inside = line.startswith("## Interpretation rules")
                continue
            if inside and line.startswith("| " + prefix + "-"):
                cells = split_row(line)
                if len(cells) != 4:
                    raise SystemExit("%s:%d: expected 4 cells (ID, Gap, Rule, Check)" % (path, lineno))
                gap = cells[1] if re.match(r"^G\d\d$", cells[1]) else None
                rows.append(dict(id=cells[0], gap=gap, rule=cells[2], check=cells[3], line=lineno))
    return rows


def load_units(path, letter):
    """Numbered source units: lines (L) or tab-separated sentences (S)."""
    units = {}
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if letter == "S":
                m = re.match(r"S(\d+)\t(.*)", line)
                if m:
                    units[int(m.group(1))] = m.group(2)
            else:
                units[i] = line
    return units


def unit_numbers(ref, letter):
    """'L2, L31' / 'S2–S3' / 'L25–L51' -> sorted unit numbers."""
    nums = set()
    for a, b in re.findall(letter + r"(\d+)(?:\s*[–-]\s*" + letter + r"?(\d+))?", ref):
        lo = int(a)
        hi = int(b) if b else lo
        if hi - lo > 60:  # a whole-document span: cite its ends only
            nums.update((lo, hi))
        else:
            nums.update(range(lo, hi + 1))
    return sorted(nums)


def split_row(line):
    cells = line.strip().split("|")
    return [c.strip() for c in cells[1:-1]]


def gap_ids(text):
    return sorted(set(re.findall(r"\bG(\d\d)(?![0-9])", text)))


def main(argv):
    if len(argv) == 1:
        suite = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        catalog = os.path.join(suite, "catalog", "rules-catalog.md")
        seeds = os.path.join(suite, "catalog", "seeds")
        outdir = suite
    elif len(argv) == 4:
        catalog, seeds, outdir = argv[1:]
    else:
        sys.stderr.write(__doc__)
        return 2
    with open(catalog, encoding="utf-8") as f:
        lines = f.read().split("\n")

    entries = {p: [] for p in GAMES}
    gaps = {p: [] for p in GAMES}
    prefix = None
    section = ""
    in_gaps = False
    for lineno, line in enumerate(lines, 1):
        m = re.match(r"^# Game \d+: .*prefix `(\w+)`", line)
        if m:
            prefix, section, in_gaps = m.group(1), "", False
            continue
        if re.match(r"^# ", line):
            prefix = None
            continue
        if prefix is None:
            continue
        m = re.match(r"^### (2\.[A-Z]) (.*)$", line)
        if m:
            section = m.group(1) + " " + m.group(2)
            continue
        if re.match(r"^## 3\. Gaps", line):
            in_gaps = True
            continue
        if re.match(r"^## [^3]", line):
            in_gaps = False
            continue
        if line.startswith("| " + prefix + "-"):
            cells = split_row(line)
            if len(cells) != 5:
                raise SystemExit("%s:%d: expected 5 cells, got %d" % (catalog, lineno, len(cells)))
            eid, src, kind, rule, check = cells
            if kind not in KINDS:
                raise SystemExit("%s:%d: unknown kind %r" % (catalog, lineno, kind))
            entries[prefix].append(dict(id=eid, src=src, kind=kind, rule=rule, check=check,
                                        section=section, line=lineno))
        elif in_gaps and re.match(r"^\| G\d\d \|", line):
            cells = split_row(line)
            if len(cells) != 3:
                raise SystemExit("%s:%d: expected 3 gap cells" % (catalog, lineno))
            gaps[prefix].append(dict(id=cells[0], question=cells[1], interp=cells[2], line=lineno))

    status = 0
    for prefix, (game, rulebook, unitfile, letter) in GAMES.items():
        es = entries[prefix]
        if len(es) != EXPECTED[prefix]:
            sys.stderr.write("%s: %d entries, expected %d\n" % (prefix, len(es), EXPECTED[prefix]))
            status = 1
        ids = [e["id"] for e in es]
        if len(set(ids)) != len(ids):
            sys.stderr.write("%s: duplicate entry IDs\n" % prefix)
            status = 1
        units = load_units(os.path.join(seeds, unitfile), letter)
        interp_path = os.path.join(outdir, game, "interpretations.md")
        irules = load_interp_rules(interp_path, prefix)
        for r in irules:
            if r["id"] in ids:
                sys.stderr.write("%s: interpretation rule %s is also a catalog entry\n" % (prefix, r["id"]))
                status = 1
        known_gaps = {g["id"] for g in gaps[prefix]}
        out = []
        w = out.append
        w('<?xml version="1.0" encoding="UTF-8"?>')
        w("<!-- GENERATED by conformance/tools/catalog2xml.py from rules-catalog.md: do not edit;")
        w("     change the markdown catalog and regenerate. -->")
        w('<rules xmlns="urn:arbiter:conformance:1" game=%s prefix=%s rulebook=%s source="rules-catalog.md">'
          % (quoteattr(game), quoteattr(prefix), quoteattr(rulebook)))
        counts = {k: sum(1 for e in es if e["kind"] == k) for k in KINDS}
        icount = ' interpretation="%d"' % len(irules) if irules else ""
        w('  <counts entries="%d" rule="%d" rule-needing-interpretation="%d" informational="%d"%s interpretations="%d"/>'
          % (len(es) + len(irules), counts["R"], counts["R*"], counts["I"], icount, len(gaps[prefix])))
        for e in es:
            gs = gap_ids(e["rule"] + " " + e["check"])
            for g in gs:
                if "G" + g not in known_gaps:
                    sys.stderr.write("%s: %s cites unknown gap G%s\n" % (prefix, e["id"], g))
                    status = 1
            if e["kind"] == "R*" and not gs:
                sys.stderr.write("%s: R* entry %s cites no gap\n" % (prefix, e["id"]))
                status = 1
            attrs = 'id=%s kind=%s section=%s' % (quoteattr(e["id"]), quoteattr(KINDS[e["kind"]]),
                                                 quoteattr(e["section"]))
            if gs:
                attrs += ' gaps=%s' % quoteattr(" ".join("%s-G%s" % (prefix, g) for g in gs))
            w("  <entry %s>" % attrs)
            w('    <source file=%s ref=%s catalog-line="%d">' % (quoteattr(rulebook), quoteattr(e["src"]), e["line"]))
            for n in unit_numbers(e["src"], letter):
                if n in units and units[n].strip():
                    w('      <unit n="%s%d">%s</unit>' % (letter, n, escape(units[n].strip())))
            w("    </source>")
            w("    <text>%s</text>" % escape(e["rule"]))
            w("    <check>%s</check>" % escape(e["check"]))
            w("  </entry>")
        known_gap_ids = {g["id"] for g in gaps[prefix]}
        ifile = "conformance/%s/interpretations.md" % game
        for r in irules:
            if r["gap"] and r["gap"] not in known_gap_ids:
                sys.stderr.write("%s: interpretation rule %s cites unknown gap %s\n" % (prefix, r["id"], r["gap"]))
                status = 1
            attrs = 'id=%s kind="interpretation" section=%s' % (quoteattr(r["id"]), quoteattr("Interpretation rules (%s)" % ifile))
            if r["gap"]:
                attrs += ' gaps=%s' % quoteattr("%s-%s" % (prefix, r["gap"]))
            w("  <entry %s>" % attrs)
            w('    <source file=%s ref=%s/>' % (quoteattr(ifile), quoteattr(r["gap"] or "added")))
            w("    <text>%s</text>" % escape(r["rule"]))
            w("    <check>%s</check>" % escape(r["check"]))
            w("  </entry>")
        for g in gaps[prefix]:
            w('  <interpretation id=%s gap=%s catalog-line="%d">'
              % (quoteattr("%s-%s" % (prefix, g["id"])), quoteattr(g["id"]), g["line"]))
            w("    <reason>%s</reason>" % escape(g["question"]))
            w("    <adopted>%s</adopted>" % escape(g["interp"]))
            users = [e["id"] for e in es if g["id"][1:] in gap_ids(e["rule"] + " " + e["check"])]
            users += [r["id"] for r in irules if r["gap"] == g["id"]]
            if users:
                w("    <used-by>%s</used-by>" % " ".join(users))
            w("  </interpretation>")
        w("</rules>")
        os.makedirs(os.path.join(outdir, game), exist_ok=True)
        path = os.path.join(outdir, game, "rules.xml")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
        print("%s: %d entries (R %d, R* %d, I %d, interpretation %d), %d interpretations -> %s"
              % (prefix, len(es) + len(irules), counts["R"], counts["R*"], counts["I"], len(irules),
                 len(gaps[prefix]), path))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
