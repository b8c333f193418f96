#!/usr/bin/env python3
"""segments.py - write conformance/<game>/segments.xml: stretches of golden
matches replayed from an explicit position, with the state hash pinned.

Each case starts from the full state after record S of a golden replay of
the game's newest rules version (`arbiter state --at S --json`, converted to
the position vocabulary of conformance/README.md), plays the next actions of
that replay and asserts the canonical state hash every few actions and at
the end (`<hash equals>`). The hash is part of the replay format (every
checkpoint records it), so a case pins both the hash function and every rule
the stretch exercises: any change to either fails the suite, exactly as it
would fail the golden corpus, but in `arbiter conform` and from the middle
of a match. Each case pins its rules version (`<setup rules>`), so a later
version of the rules leaves it valid.

  ARBITER=build/arbiter python3 tests/mutation/segments.py GAME...
"""
import json
import os
import re
import subprocess
import sys
from xml.sax.saxutils import quoteattr, escape

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ARBITER = os.environ.get("ARBITER", os.path.join(ROOT, "build", "arbiter"))

# game: (covers, [(golden file, start record, actions)])
PLAN = {
    "naramo": ("NAR-MATCH-ALTERNATE NAR-P1-AUTO", [
        ("s1000-p2-random.tcgr", 20, 40), ("s1001-p2-greedy.tcgr", 8, 30),
        ("s1003-p2-random.tcgr", 30, 34), ("s1006-p2-random.tcgr", 40, 40),
        ("s1011-p2-greedy-random-timed-disconnect.tcgr", 2, 16)]),
    "catalyst": ("CAT-TURN-CLOCKWISE CAT-TURN-PHASES", [
        ("s1000-p2-random.tcgr", 20, 40), ("s1001-p3-random.tcgr", 30, 40),
        ("s1002-p4-random-timed.tcgr", 40, 40), ("s1004-p3-greedy.tcgr", 30, 40)]),
    "operator": ("OPS-TURN-ORDER", [
        ("s1000-p2-random.tcgr", 20, 40), ("s1001-p3-random.tcgr", 30, 40),
        ("s1002-p4-random-timed.tcgr", 40, 40), ("s1004-p3-greedy.tcgr", 30, 40)]),
    "brainstorm": ("BRN-CYCLE-PHASES BRN-CYCLE-SIMULTANEOUS", [
        ("s1000-p2-random.tcgr", 40, 40), ("s1001-p2-greedy.tcgr", 60, 40),
        ("s1003-p2-random.tcgr", 100, 40), ("s1004-p2-greedy.tcgr", 150, 40)]),
}
HASH_EVERY = 8


def arb(*args):
    p = subprocess.run([ARBITER] + list(args), stdout=subprocess.PIPE, check=True)
    return json.loads(p.stdout.decode())


def scalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    return '"%s"' % s if re.fullmatch(r"-?[0-9]+|true|false|null", s) else s


def element(name, val, ind):
    pad = "  " * ind
    if isinstance(val, list):
        if not val:
            return "%s<%s/>\n" % (pad, name)
        if all(not isinstance(x, (list, dict)) for x in val):
            return "%s<%s>%s</%s>\n" % (pad, name, escape(json.dumps(val)), name)
        if not all(isinstance(x, dict) for x in val):
            raise SystemExit("segments.py: mixed list under %s" % name)
        return "%s<%s>\n%s%s</%s>\n" % (pad, name, "".join(element("item", x, ind + 1) for x in val), pad, name)
    if isinstance(val, dict):
        attrs = "".join(" %s=%s" % (k, quoteattr(scalar(v))) for k, v in val.items()
                        if not isinstance(v, (list, dict)))
        kids = "".join(element(k, v, ind + 1) for k, v in val.items()
                       if isinstance(v, (list, dict)) and not (isinstance(v, dict) and not v))
        if not kids:
            return "%s<%s%s/>\n" % (pad, name, attrs)
        return "%s<%s%s>\n%s%s</%s>\n" % (pad, name, attrs, kids, pad, name)
    raise SystemExit("segments.py: scalar element %s" % name)


def golden_dirs(game):
    """[(dir, rules)]: the newest version's corpus, then the older one kept
    in replays/golden/GAME/ when the newest lives in GAME@RULES/."""
    g = arb("games", "--json")
    rules = [x for x in g if x["id"] == game][0]["rules"]
    base = os.path.join(ROOT, "replays", "golden", game)
    d = os.path.join(ROOT, "replays", "golden", "%s@%s" % (game, rules))
    if not os.path.isdir(d):
        return [(base, rules)]
    with open(os.path.join(base, "MANIFEST"), encoding="utf-8") as fh:
        old = re.search(r", rules (\S+), ", fh.read()).group(1)
    return [(d, rules), (base, old)]


def case(game, rules, covers, path, start, count, tag):
    st = arb("state", path, "--at", str(start), "--json")
    log = arb("log", path, "--json")
    acts = [e for e in log["entries"] if e.get("kind") == "action" and e["record"] > start][:count]
    evs = {}
    for e in log["entries"]:
        if e.get("kind") == "event":
            evs.setdefault(e["record"], []).append(e)
    if not acts:
        raise SystemExit("segments.py: %s has no actions after record %d" % (path, start))
    state = dict(st["state"])
    # decision stays: some engines read whose move it is from it
    name = os.path.basename(path)[:-5]
    rel = os.path.relpath(path, ROOT)
    out = ['  <test-case id="segment-%s%s-r%d" covers="%s">\n' % (tag, name, start, covers),
           "    <description>%s, records %d to %d: the state after record %d as a position, then the "
           "replay's next %d actions, each with every event it emits (name, seat, hidden, a, b, c); the state "
           "hash pinned every %d actions.</description>\n"
           % (escape(rel), start + 1, acts[-1]["record"], start, len(acts), HASH_EVERY),
           '    <setup rules="%s" players="%d">\n' % (rules, len(log["players"])),
           element("position", state, 3), "    </setup>\n"]
    for i, e in enumerate(acts):
        seat = "arbiter" if e["seat"] < 0 else str(e["seat"])
        do = ("+%d " % e["elapsed_ms"] if e.get("elapsed_ms") else "") + " ".join(
            [seat, e["verb"]] + [str(a) for a in e.get("args") or []])
        inner = ""
        ev = evs.get(e["record"], [])
        if ev:   # every event the action emitted, in order, with its seat, visibility and arguments
            inner += '<events exact="true">%s</events>' % "".join(
                '<event name=%s seat="%d" hidden="%s"%s/>' % (
                    quoteattr(x["event"]), x["seat"] if x.get("seat") is not None else -1,
                    "true" if x.get("hidden") else "false",
                    "".join(' %s="%d"' % (k, x[k]) for k in ("a", "b", "c") if k in x)) for x in ev)
        if (i + 1) % HASH_EVERY == 0 or i == len(acts) - 1:
            h = arb("state", path, "--at", str(e["record"]), "--json")["hash"]
            inner += '<hash equals="0x%s"/>' % h.lower().replace("0x", "")
        if inner:
            out.append("    <act do=%s>%s</act>\n" % (quoteattr(do), inner))
        else:
            out.append("    <act do=%s/>\n" % quoteattr(do))
    out.append("  </test-case>\n")
    return "".join(out)


def main():
    games = sys.argv[1:] or sorted(PLAN)
    for g in games:
        covers, plan = PLAN[g]
        body = []
        for k, (d, rules) in enumerate(golden_dirs(g)):
            tag = "" if k == 0 else rules + "-"
            body += [case(g, rules, covers, os.path.join(d, f), s, n, tag) for f, s, n in plan
                     if os.path.exists(os.path.join(d, f))]
        text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                "<!-- Generated by tests/mutation/segments.py from replays/golden: do not edit by hand;\n"
                "     rerun it after an intended rules change (with a new rules version the old cases stay valid). -->\n"
                '<test-set xmlns="urn:arbiter:conformance:1" game="%s" name="segments">\n'
                "  <description>Stretches of golden matches from an explicit position, state hash pinned: the hash\n"
                "  function and every rule these stretches exercise.</description>\n%s</test-set>\n") % (g, "".join(body))
        out = os.path.join(ROOT, "conformance", g, "segments.xml")
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
        print("segments: %s: %d cases -> %s" % (g, len(body), os.path.relpath(out, ROOT)))


if __name__ == "__main__":
    main()
