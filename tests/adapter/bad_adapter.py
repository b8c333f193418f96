#!/usr/bin/env python3
"""A misbehaving engine adapter for the tests: it forwards every request to
`ARBITER engine-serve --game GAME` and, at request number N (0-based),
misbehaves as MODE instead of answering:
  die      exit at once (no answer)
  slow     sleep 30 s before answering
  babble   write an endless line of garbage
  wrongid  answer with another request's id
  notjson  answer with a line that is not JSON
  fork     start a child that keeps the socket open and writes its pid to
           $BAD_ADAPTER_PIDFILE (it must not outlive arbiter), then answer
  stderr   write 4 MB of ESC bytes and control sequences to stderr, answer
  badutf8  answer with invalid UTF-8 in an unknown field
  nodecision  answer request N without its "decision" member (a step
           answer that lacks a field)
  snake    from request N on, spell event types with '_' for '-' (an old
           spelling: "draw_empty"), which must still be understood
Usage: bad_adapter.py ARBITER GAME MODE N"""
import json
import subprocess
import sys
import time

arbiter, game, mode, at = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
srv = subprocess.Popen([arbiter, "engine-serve", "--game", game], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, text=True)
out = sys.stdout
def serve():
    for n, line in enumerate(sys.stdin):
        step(n, line)


def step(n, line):
    if mode == "snake" and n >= at:
        srv.stdin.write(line)
        srv.stdin.flush()
        ans = json.loads(srv.stdout.readline())
        for e in ans.get("events", []):
            e["type"] = e["type"].replace("-", "_")
        out.write(json.dumps(ans, separators=(",", ":")) + "\n")
        out.flush()
        return
    if n == at:
        if mode == "die":
            sys.exit(3)
        if mode == "slow":
            time.sleep(30)
        if mode == "babble":
            try:
                while True:
                    out.write("x" * 65536)
                    out.flush()
            except (BrokenPipeError, ConnectionResetError):
                sys.exit(0)
        if mode == "wrongid":
            out.write('{"id":999999,"ok":true}\n')
            out.flush()
            return
        if mode == "fork":
            import os
            child = subprocess.Popen(["sleep", "300"], stdin=sys.stdin, stdout=sys.stdout)
            with open(os.environ["BAD_ADAPTER_PIDFILE"], "w") as f:
                f.write("%d\n" % child.pid)
        if mode == "stderr":
            for _ in range(64):
                sys.stderr.buffer.write(b"\x1b[2J\x1b]0;pwned\x07\xc2\x9b" * 4096)
            sys.stderr.flush()
        if mode == "badutf8":
            srv.stdin.write(line)
            srv.stdin.flush()
            ans = srv.stdout.readline().rstrip("\n")
            sys.stdout.flush()
            sys.stdout.buffer.write(ans[:-1].encode() + b',"x-note":"\xff\xfe"}\n')
            sys.stdout.buffer.flush()
            return
        if mode == "nodecision":
            srv.stdin.write(line)
            srv.stdin.flush()
            ans = json.loads(srv.stdout.readline())
            ans.pop("decision", None)
            out.write(json.dumps(ans, separators=(",", ":")) + "\n")
            out.flush()
            return
        if mode == "notjson":
            out.write("hello? \x1b[31m\n")
            out.flush()
            return
    srv.stdin.write(line)
    srv.stdin.flush()
    out.write(srv.stdout.readline())
    out.flush()


try:
    serve()
except (BrokenPipeError, ConnectionResetError):
    pass
