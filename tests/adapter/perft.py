#!/usr/bin/env python3
"""Perft reference values (conformance/<game>/perft.md).

  perft.py check ARBITER [--engine]   run every row of every perft.md and compare
                                      (with --engine: rows up to depth 3 also
                                      through `ARBITER engine-serve`)
  perft.py write ARBITER GAME         regenerate conformance/GAME/perft.md after
                                      an intended rules change

A row is `| START | SEED | PLAYERS | DEPTH | NODES |` where START is `setup`
(the seeded setup with the game's preset decks) or a position file in the
game's directory."""
import json
import os
import re
import subprocess
import sys

ROW = re.compile(r"^\| (\S+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$")


def perft(arbiter, game, start, seed, players, depth, engine=None):
    cmd = [arbiter, "perft", "--game", game, "--seed", str(seed), "--depth", str(depth)]
    if start == "setup":
        cmd += ["--players", str(players)]
    else:
        cmd += ["--position", os.path.join("conformance", game, start)]
    if engine:
        cmd += ["--engine", engine]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), out.returncode, out.stderr.strip()))
    return int(out.stdout.strip().split()[-1])


def check(arbiter, engine):
    bad = rows = 0
    for game in sorted(os.listdir("conformance")):
        path = os.path.join("conformance", game, "perft.md")
        if not os.path.exists(path):
            continue
        for line in open(path):
            m = ROW.match(line.strip())
            if not m:
                continue
            start, seed, players, depth, nodes = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
            rows += 1
            got = perft(arbiter, game, start, seed, players, depth)
            if got != nodes:
                print("perft: FAIL %s %s seed %d players %d depth %d: %d, perft.md says %d" % (game, start, seed, players, depth, got, nodes))
                bad += 1
            if engine and depth <= 3:
                eng = "%s engine-serve --game %s" % (arbiter, game)
                got = perft(arbiter, game, start, seed, players, depth, eng)
                if got != nodes:
                    print("perft: FAIL --engine %s %s depth %d: %d, perft.md says %d" % (game, start, depth, got, nodes))
                    bad += 1
    if rows == 0:
        print("perft: FAIL no perft.md rows found")
        return 1
    print("perft: %d reference values of %s reproduced%s" % (rows - bad, "every perft.md", " (depth <= 3 also through the adapter)" if engine else ""))
    return 1 if bad else 0


def write(arbiter, game):
    games = json.loads(subprocess.run([arbiter, "games", "--json"], capture_output=True, text=True).stdout)
    g = [x for x in games if x["id"] == game][0]
    rows = []
    for seed in (1, 2):
        for players in range(g["min_players"], g["max_players"] + 1):
            if seed == 2 and players != g["min_players"]:
                continue
            for depth in range(1, 7):
                rows.append(("setup", seed, players, depth, perft(arbiter, game, "setup", seed, players, depth)))
    pos = os.path.join("conformance", game, "perft-position.json")
    src = json.load(open(pos)).get("source", "")
    npl = len(json.load(open(pos))["state"]["players"])
    for depth in range(1, 6):
        rows.append(("perft-position.json", 1, npl, depth, perft(arbiter, game, "perft-position.json", 1, npl, depth)))
    with open(os.path.join("conformance", game, "perft.md"), "w") as f:
        f.write("# %s perft reference values\n\n" % game)
        f.write("`arbiter perft --game %s --depth N` counts the legal action sequences of\n"
                "length N: every action `legal()` lists, applied, recursively; a sequence\n"
                "that ends the match before N actions is not counted. Random events\n"
                "(shuffles, draws) follow the match's seeded PRNG, so a count belongs to its\n"
                "seed. `setup` is the seeded setup with the game's preset decks in seat\n"
                "order (`--seed S --players P`); `perft-position.json` is the position beside\n"
                "this file (%s of the golden corpus, read with `--position`,\n"
                "later random events from seed 1). An engine's move generator agrees with\n"
                "the reference when it reproduces every row, also through an adapter:\n"
                "`arbiter perft ... --engine CMD`. `make check` reproduces the table\n"
                "(`tests/adapter/perft.py check`); after an intended rules change,\n"
                "`python3 tests/adapter/perft.py write build/arbiter %s` rewrites it.\n\n" % (game, src, game))
        f.write("| start | seed | players | depth | nodes |\n|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %d | %d | %d | %d |\n" % r)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], "--engine" in sys.argv[3:]))
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
        sys.exit(0)
    print(__doc__)
    sys.exit(2)
