#!/usr/bin/env python3
"""Print an example session of conformance/ADAPTER.md section 9: a short,
complete conversation with the reference adapter for operator, in protocol
1 (the default) or 2 (step and probe). Protocol 2's session also asserts
what section 3.2 promises: a probe leaves the state unchanged and answers
each action as apply would; a refused step is answered exactly like apply.
Usage:
  python3 tests/adapter/transcript.py [ARBITER] [--protocol 1|2]
  (default build/arbiter, protocol 1); exit 1 when a promise is broken."""
import json
import subprocess
import sys

args = [a for a in sys.argv[1:]]
proto = 1
if "--protocol" in args:
    k = args.index("--protocol")
    proto = int(args[k + 1])
    del args[k:k + 2]
arbiter = args[0] if args else "build/arbiter"
p = subprocess.Popen([arbiter, "engine-serve", "--game", "operator"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
out = []


def rq(o):
    line = json.dumps(o, separators=(",", ":"))
    p.stdin.write(line + "\n")
    p.stdin.flush()
    r = p.stdout.readline().rstrip("\n")
    out.append((line, r))
    return json.loads(r)


def need(cond, what):
    if not cond:
        sys.stderr.write("transcript.py: protocol %d: %s\n" % (proto, what))
        sys.exit(1)


h = rq({"id": 1, "op": "hello", "protocol": proto, "game": "operator"})
pre = h["presets"]
rq({"id": 2, "op": "setup", "seed": "7", "players": 2, "decks": [pre[0], pre[1]], "options": {}})
if proto == 1:
    rq({"id": 3, "op": "decision", "state": 0})
    leg = rq({"id": 4, "op": "legal", "state": 0})["actions"]
    bad = dict(leg[0])
    bad["seat"] = 1 - bad["seat"]
    rq({"id": 5, "op": "apply", "state": 0, "action": bad})
    rq({"id": 6, "op": "apply", "state": 0, "action": {"seat": 0, "verb": "nosuchverb", "args": [], "ms": 0}})
    rq({"id": 7, "op": "apply", "state": 0, "action": leg[0]})
    rq({"id": 8, "op": "events", "state": 0})
    rq({"id": 9, "op": "clone", "state": 0})
    rq({"id": 10, "op": "state", "state": 1, "view": 1})
    rq({"id": 11, "op": "hash", "state": 1})
    rq({"id": 12, "op": "outcome", "state": 1})
    rq({"id": 13, "op": "describe", "state": 0, "action": leg[0]})
    rq({"id": 14, "op": "free", "state": 1})
    rq({"id": 15, "op": "deck-check", "deck": {"name": "short", "cards": ["viper", "sidearm"], "attrs": {}}})
    rq({"id": 16, "op": "bye"})
else:
    need(h["protocol"] == 2, "hello offering 2 is not answered with protocol 2")
    s0 = rq({"id": 3, "op": "step", "state": 0, "legal": True})
    leg = s0["legal"]
    bad = dict(leg[0])
    bad["seat"] = 1 - bad["seat"]
    pr = rq({"id": 4, "op": "probe", "state": 0,
             "actions": [bad, leg[0], {"seat": 0, "verb": "nosuchverb", "args": [], "ms": 0}]})
    need(pr["hash"] == s0["hash"], "probe changed the state")
    v = pr["verdicts"]
    need([x["ok"] for x in v] == [False, True, False], "probe verdicts %r" % v)
    app = rq({"id": 5, "op": "apply", "state": 0, "action": bad})
    need((v[0]["code"], v[0]["rule"], v[0]["message"]) == (app["code"], app["rule"], app["message"]),
         "a probe's verdict differs from apply's")
    s1 = rq({"id": 6, "op": "step", "state": 0, "action": leg[0], "legal": False, "views": [1]})
    need(s1["hash"] != s0["hash"] and len(s1["trees"]) == 1 and "legal" not in s1, "step answer %r" % s1.keys())
    ref = rq({"id": 7, "op": "step", "state": 0, "action": bad})
    app = rq({"id": 8, "op": "apply", "state": 0, "action": bad})
    need(ref["ok"] is False and {k: ref[k] for k in ref if k != "id"} == {k: app[k] for k in app if k != "id"},
         "a refused step is not answered like apply")
    need(rq({"id": 9, "op": "hash", "state": 0})["hash"] == s1["hash"], "a refused step changed the state")
    rq({"id": 10, "op": "bye"})
p.wait(timeout=10)
for line, r in out:
    print("> " + line)
    print("< " + r)
