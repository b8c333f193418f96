#!/usr/bin/env python3
"""check.py — `make check-hash`: the engine-neutral state hash agrees with
the engine on every checkpoint of the golden corpus.

For every *.tcgr under replays/golden/<game>/ (recursively, every game and
rules-version directory), `arbiter log --json` lists the records; at each
checkpoint (and at the outcome record, whose final hash is the same
function) `arbiter state FILE --at N,M,… --json` gives the full state tree, and
tests/hash/statehash.py computes the hash from that tree alone. It must
equal the engine's "hash" and the hash recorded in the file (all 64 bits,
or the low 8 bits a version-2 file keeps for most checkpoints). Any
disagreement fails with the game, file, record and both hashes.

    ARBITER=build/arbiter check.py [--jobs N] [--sample K [--unsampled]] [DIR...]

--sample K checks every Kth file (in name order) of each directory, the
first included, so every game and rules version is still checked (`make
check`: K=10); --unsampled checks exactly the files --sample K leaves out
(`make check-heavy`), so the two together are the whole corpus once.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import statehash  # noqa: E402

ARBITER = os.environ.get("ARBITER", "build/arbiter")
# `log` prints a full hash as 0x and 16 digits, a checkpoint that keeps only
# its low bits as "0xe8 (low 8 bits)".
RECORDED = re.compile(r"hash (?:0x)?([0-9a-f]{16}\b|[0-9a-f]{1,15} \(low (\d+) bits\))")


def hexval(s):
    """A hash as arbiter spells it ("0x" + 16 hex digits, or bare) -> int."""
    return int(s[2:] if s.startswith("0x") else s, 16)


def run_json(*args):
    p = subprocess.run([ARBITER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("arbiter %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                        p.stderr.decode(errors="replace").strip()))
    return json.loads(p.stdout)


def recorded_agrees(mine, recorded):
    """A version-2 file records most checkpoints' low 8 bits only (FORMAT.md,
    version 2 records), shown by `log` as "0xe8 (low 8 bits)"; version 1 all 64."""
    r, m = hexval(recorded), hexval(mine)
    return r == m or (r <= 0xFF and r == m & 0xFF)


def check_file(path):
    """Returns (game, checkpoints checked, [failure lines]); the outcome
    record's final hash is checked too but not counted."""
    log = run_json("log", path, "--json")
    game = log.get("game", "?")
    marks = [e for e in log["entries"] if e["kind"] in ("checkpoint", "outcome")]
    if not marks:
        return game, 0, []
    # One `state --at N,M,…` per file: one JSON document a line, in order.
    p = subprocess.run([ARBITER, "state", path, "--at", ",".join(str(e["record"]) for e in marks), "--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("arbiter state: exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace").strip()))
    docs = [json.loads(line) for line in p.stdout.splitlines()]
    if len(docs) != len(marks):
        raise RuntimeError("arbiter state gave %d documents for %d records" % (len(docs), len(marks)))
    fails, checked = [], 0
    for e, doc in zip(marks, docs):
        rec = e["record"]
        m = RECORDED.search(e.get("text", ""))
        recorded = m.group(1).split(" ")[0] if m else None
        if doc["record"] != rec:
            fails.append("%s %s record %d: arbiter state answered for record %s" % (game, path, rec, doc["record"]))
            continue
        try:
            mine = "%016x" % statehash.state_hash(doc)
        except statehash.HashError as err:
            fails.append("%s %s record %d (%s): statehash.py: %s" % (game, path, rec, e["kind"], err))
            continue
        checked += e["kind"] == "checkpoint"
        if e["kind"] == "checkpoint" and recorded is None:
            fails.append("%s %s record %d: no recorded hash in the log line %r" % (game, path, rec, e.get("text")))
            continue
        if hexval(mine) != hexval(doc["hash"]) or (recorded is not None and not recorded_agrees(mine, recorded)):
            fails.append("%s %s record %d (%s): statehash.py %s, engine %s, recorded %s"
                         % (game, path, rec, e["kind"], mine, doc["hash"], recorded))
    return game, checked, fails


def sampled(files, k, unsampled):
    """Every kth file of each directory (index 0 first), or the others."""
    out, index = [], {}
    for f in files:
        d = os.path.dirname(f)
        i = index.get(d, 0)
        index[d] = i + 1
        if (i % k == 0) != unsampled:
            out.append(f)
    return out


def main(argv):
    jobs, sample, unsampled = 2, 1, False
    dirs = []
    it = iter(argv[1:])
    for a in it:
        if a == "--jobs":
            jobs = int(next(it))
        elif a == "--sample":
            sample = int(next(it))
            if sample < 1:
                print("check-hash: FAIL: --sample takes a count 1 or more")
                return 2
        elif a == "--unsampled":
            unsampled = True
        else:
            dirs.append(a)
    whole = not dirs
    if whole:
        dirs = ["replays/golden"]
    files = []
    for d in dirs:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith(".tcgr")]
    files.sort()
    if not files:
        print("check-hash: FAIL: no *.tcgr under %s" % " ".join(dirs))
        return 1
    total = len(files)
    files = sampled(files, sample, unsampled)
    scope = "every file" if sample == 1 else "%d of %d files (%severy %dth of each directory)" % (
        len(files), total, "all but " if unsampled else "", sample)
    if not files:
        print("check-hash: ok: nothing left to check (%s)" % scope)
        return 0
    t0 = time.time()
    counts, nfiles, fails = {}, {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for path, fut in zip(files, [ex.submit(check_file, f) for f in files]):
            try:
                game, n, fl = fut.result()
            except Exception as err:  # an arbiter failure is a test failure
                fails.append("%s: %s" % (path, err))
                continue
            counts[game] = counts.get(game, 0) + n
            nfiles[game] = nfiles.get(game, 0) + 1
            fails += fl
    for f in fails[:50]:
        print("check-hash: MISMATCH " + f)
    if len(fails) > 50:
        print("check-hash: ... and %d more" % (len(fails) - 50))
    summary = ", ".join("%s %d in %d files" % (g, counts[g], nfiles[g]) for g in sorted(counts))
    status = "FAIL" if fails else "ok"
    print("check-hash: %s: %s on %d checkpoints%s (%s; %s) in %.1f s"
          % (status, "%d disagreements" % len(fails) if fails else "statehash.py agrees with the engine",
             sum(counts.values()), "" if fails else " and every final hash", summary, scope, time.time() - t0))
    for g in ("brainstorm", "catalyst", "naramo", "operator"):
        if whole and not unsampled and not counts.get(g) and not fails:
            print("check-hash: FAIL: no %s checkpoint was checked" % g)
            return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
