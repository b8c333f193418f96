#!/usr/bin/env python3
"""Print the example session of conformance/ADAPTER.md §9: a short, complete
conversation with the reference adapter for operator. Usage:
  python3 tests/adapter/transcript.py [ARBITER]   (default build/arbiter)"""
import json
import subprocess
import sys

arbiter = sys.argv[1] if len(sys.argv) > 1 else "build/arbiter"
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


h = rq({"id": 1, "op": "hello", "protocol": 1, "game": "operator"})
pre = h["presets"]
rq({"id": 2, "op": "setup", "seed": "7", "players": 2, "decks": [pre[0], pre[1]], "options": {}})
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
p.wait(timeout=10)
for line, r in out:
    print("> " + line)
    print("< " + r)
