#!/usr/bin/env python3
"""Malformed protocol-2 requests (step, probe) to the reference adapter:
each gets a refusal naming the field, the state stays as it was, and the
adapter goes on answering. Usage:
  python3 tests/adapter/malformed_p2.py [ARBITER]   (exit 1 on a failure)"""
import json
import subprocess
import sys

arbiter = sys.argv[1] if len(sys.argv) > 1 else "build/arbiter"
p = subprocess.Popen([arbiter, "engine-serve", "--game", "operator"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
fail = 0


def rq(o):
    p.stdin.write(json.dumps(o) + "\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def refused(o, code, where):
    global fail
    r = rq(o)
    if r.get("ok") is not False or r.get("code") != code or r.get("where") != where:
        print("malformed_p2.py: %s: want a refusal (%s, where %r), got %s" % (json.dumps(o)[:80], code, where, r))
        fail = 1


h = rq({"id": 0, "op": "hello", "protocol": 2})
rq({"id": 1, "op": "setup", "seed": "7", "players": 2, "decks": h["presets"][:2], "options": {}})
h0 = rq({"id": 2, "op": "hash", "state": 0})["hash"]
act = {"seat": 0, "verb": "pass", "args": [], "ms": 0}
refused({"id": 3, "op": "step", "state": 0, "legal": 1}, "invalid", "legal")
refused({"id": 4, "op": "step", "state": 0, "views": ["all", 9]}, "invalid", "views.1")
refused({"id": 5, "op": "step", "state": 0, "views": "all"}, "invalid", "views")
refused({"id": 6, "op": "step", "state": 0, "views": ["all"] * 6}, "invalid", "views")
refused({"id": 7, "op": "step", "state": 0, "action": {"seat": 0, "verb": "nosuch", "args": [], "ms": 0}},
        "invalid", "action.verb")
refused({"id": 8, "op": "step", "state": 9}, "notfound", "state")
refused({"id": 9, "op": "probe", "state": 0, "actions": [act] * 65}, "invalid", "actions")
refused({"id": 10, "op": "probe", "state": 0, "actions": {}}, "invalid", "actions")
refused({"id": 11, "op": "probe", "state": 0}, "invalid", "actions")
v = rq({"id": 12, "op": "probe", "state": 0, "actions": [3, {"seat": 0}, act]})
if [x["ok"] for x in v.get("verdicts", [])] != [False, False, False] or v.get("hash") != h0:
    print("malformed_p2.py: malformed probes: %s" % v)
    fail = 1
if rq({"id": 13, "op": "hash", "state": 0})["hash"] != h0:
    print("malformed_p2.py: a malformed request changed the state")
    fail = 1
rq({"id": 14, "op": "bye"})
p.wait(timeout=10)
sys.exit(fail)
