#!/usr/bin/env python3
"""A misbehaving engine adapter for the tests: it forwards every request to
`ARBITER engine-serve --game GAME` and, at request number N (0-based),
misbehaves as MODE instead of answering:
  die      exit at once (no answer)
  slow     sleep 30 s before answering
  babble   write an endless line of garbage
  wrongid  answer with another request's id
  notjson  answer with a line that is not JSON
Usage: bad_adapter.py ARBITER GAME MODE N"""
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
