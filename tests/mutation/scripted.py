#!/usr/bin/env python3
"""scripted.py - write conformance/<game>/scripted.xml: hand-written scripts
with every step pinned.

The input, tests/mutation/scripts/<game>.xml, is an ordinary test set whose
cases (a position or a setup, then actions) are written by hand for paths
the other sets leave unpinned. Every self-closing `<act do="…"/>` in it is
pinned here: the case is run once (`arbiter conform --save-failing`), and
the act gets every event it emitted, in order, with its seat, visibility
and arguments (`<events exact="true">`), and after it the canonical state
hash (`<hash equals>`), who owes the next decision (`<decision>`) and every
action legal() lists (`<legal present="true">`, from `arbiter state
--json`); every `<check/>` gets the same pins for its point (the first,
before any act, the setup's events too). Acts with content, `<reject>` and
other `<check>`s are kept as written. So a script pins the whole behaviour
of its path - what the
engine did, and the state it left - the way segments.py does for golden
matches, from positions chosen to reach corners matches rarely do.

Regenerate only after an intended rules change, like the golden corpus:

  ARBITER=build/arbiter python3 tests/mutation/scripted.py GAME...
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from xml.sax.saxutils import quoteattr

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ARBITER = os.environ.get("ARBITER", os.path.join(ROOT, "build", "arbiter"))
CASE = re.compile(r'(<test-case\b[^>]*\bid="([^"]+)"[^>]*>)(.*?)(</test-case>)', re.S)
ACT = re.compile(r'<act\b([^>]*?)(/?)>|<check/>')
ATTR = re.compile(r'(\w+)="([^"]*)"')


def arb(*args, ok=(0,)):
    p = subprocess.run([ARBITER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in ok:
        raise SystemExit("scripted.py: arbiter %s: exit %d\n%s" % (" ".join(args), p.returncode,
                                                                    p.stderr.decode("utf-8", "replace")))
    return p.stdout.decode()


def pins(replay):
    """([(events, hash)] per action record of the replay in order, the hash before the first)."""
    log = json.loads(arb("log", replay, "--json"))
    recs = [e["record"] for e in log["entries"] if e.get("kind") == "action"]
    evs = {}
    for e in log["entries"]:
        if e.get("kind") == "event":
            evs.setdefault(e["record"], []).append(e)
    # one JSON object per --at point (one per line; a single point prints it indented)
    out, states, dec = arb("state", replay, "--at", ",".join(str(r) for r in [0] + recs), "--json"), [], json.JSONDecoder()
    i = 0
    while True:
        while i < len(out) and out[i].isspace():
            i += 1
        if i == len(out):
            break
        st, i = dec.raw_decode(out, i)
        states.append(st)
    if len(states) != len(recs) + 1:
        raise SystemExit("scripted.py: %s: %d states for %d actions" % (replay, len(states), len(recs)))
    return [(evs.get(r, []), st) for r, st in zip(recs, states[1:])], (evs.get(-1, []), states[0])


def hash_el(st):
    """The state hash, who owes what, and every action legal() lists there."""
    d = st["decision"]
    seat = {-1: "arbiter", -2: "none"}.get(d["seat"], str(d["seat"]))
    out = '<hash equals="0x%s"/>' % st["hash"].lower().replace("0x", "")
    out += '<decision seat="%s"%s/>' % (seat, ' kind=%s' % quoteattr(d["kind"]) if d.get("kind") else "")
    if st.get("legal_truncated"):
        raise SystemExit("scripted.py: legal() lists more actions than `arbiter state` shows")
    out += "".join('<legal do=%s present="true"/>' % quoteattr(x) for x in st.get("legal", []))
    return out


def events_el(events):
    if not events:
        return ""
    return '<events exact="true">%s</events>' % "".join(
        '<event name=%s seat="%d" hidden="%s" a="%d" b="%d" c="%d"/>' % (
            quoteattr(x["event"]), x["seat"] if x.get("seat") is not None else -1,
            "true" if x.get("hidden") else "false", x["a"], x["b"], x["c"]) for x in events)


def pinned(do_attrs, events, h):
    return "<act%s>%s%s</act>" % (do_attrs, events_el(events), hash_el(h))


def generate(game):
    src = os.path.join(ROOT, "tests", "mutation", "scripts", "%s.xml" % game)
    with open(src, encoding="utf-8") as fh:
        text = fh.read()
    tmp = tempfile.mkdtemp(prefix="scripted-")
    try:
        # Run every case once with a hash nobody has, so each is saved with all its actions.
        probe = CASE.sub(lambda m: m.group(1) + m.group(3) +
                         '<check><hash equals="0x0000000000000000"/></check>' + m.group(4),
                         text.replace("<check/>", ""))
        pf = os.path.join(tmp, "probe.xml")
        with open(pf, "w", encoding="utf-8") as fh:
            fh.write(probe)
        saved = os.path.join(tmp, "saved")
        out = arb("conform", pf, "--schema", os.path.join(ROOT, "conformance", "schema"), "--no-invariants",
                  "--save-failing", saved, ok=(0, 1))

        def fill(m):
            cid, body = m.group(2), m.group(3)
            replay = os.path.join(saved, "%s-%s.tcgr" % (game, cid))
            if not os.path.exists(replay):
                raise SystemExit("scripted.py: case %s did not run to its end:\n%s" % (cid, out))
            steps, (setup_events, h0) = pins(replay)
            k = [0]
            first_check = [True]

            def act(a):
                if a.group(0) == "<check/>":   # the pins at this point
                    # the first <check> of a case sees the setup's events too (conformance/README.md)
                    ev = setup_events if first_check[0] and not k[0] else []
                    first_check[0] = False
                    return "<check>%s%s</check>" % (events_el(ev), hash_el(steps[k[0] - 1][1] if k[0] else h0))
                attrs = dict(ATTR.findall(a.group(1)))
                n = int(attrs.get("repeat", "1"))
                i = k[0]
                k[0] += n
                if a.group(2) != "/" or n != 1:
                    return a.group(0)
                if i >= len(steps):
                    raise SystemExit("scripted.py: case %s: more acts than recorded actions" % cid)
                ev, h = steps[i]
                return pinned(a.group(1), ev, h)

            new = ACT.sub(act, body)
            if k[0] != len(steps):
                raise SystemExit("scripted.py: case %s: %d acts, %d recorded actions" % (cid, k[0], len(steps)))
            return m.group(1) + new + m.group(4)

        result = CASE.sub(fill, text)
    finally:
        shutil.rmtree(tmp)
    result = result.replace('name="scripts"', 'name="scripted"', 1)
    head = ("<!-- Generated by tests/mutation/scripted.py from tests/mutation/scripts/%s.xml: do not edit by\n"
            "     hand; edit the script and rerun it (after an intended rules change too). -->\n" % game)
    result = re.sub(r"(<\?xml[^>]*\?>\n)", lambda m: m.group(1) + head, result, count=1)
    dst = os.path.join(ROOT, "conformance", game, "scripted.xml")
    with open(dst, "w", encoding="utf-8") as fh:
        fh.write(result)
    print("scripted: %s: %d cases -> %s" % (game, len(CASE.findall(text)), os.path.relpath(dst, ROOT)))


def main():
    games = sys.argv[1:]
    if not games:
        games = sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "tests", "mutation", "scripts"))
                       if f.endswith(".xml"))
    for g in games:
        generate(g)


if __name__ == "__main__":
    main()
