#!/usr/bin/env python3
"""state_tables.py — every game's conformance/<game>/STATE.md refusal tables
and setup section checked against the engine, row by row and cell by cell.

STATE.md's "Refusal precedence" section holds two tables this script reads:

  | # | check | decision | action | code | rule |       one refusal a row
  | action \\ decision | KIND | KIND | … |               verb x decision matrix

`decision` (and each matrix column) names the state the action is tried in:
a decision kind (`action`), optionally with a condition on the full state
tree (`clear:pending.deployed=2`, several joined by `&`; `owner` in the path
is the owing seat), or `any` (the state after setup). The
`action` column is `SEAT VERB[/N] ARG…`: SEAT `owner` (the seat that owes
the decision), `other` (the next seat, which does not), `arbiter` or a
number; VERB a verb name or `#N` (a verb number, past the table for a
malformed action); ARG an integer, `L` (that argument of a legal action of
the verb in this state, N arguments long, N defaulting to the pattern's
length; with `/N` the state must have such a legal action even when no
argument is `L`) or `H` (the UID of the first card in the owing seat's hand; `H:Tactic,Cell` the
first of those types, as `hello` gives them). A
matrix cell is the rule ID the row's action is refused with (code
`illegal`), or `ok` where the decision takes the verb (not tried here: the
verb's own checks then decide).

The states come from the engine itself: `arbiter engine-serve --game G`
plays seeded random matches (seed 1, 2, … with the game's preset decks)
and each row is tried, by `probe`, in the first state reached that fits it.
A row whose state no match reaches within the budget fails (the table
promises something nobody checked), and so does a rule ID that is not an
entry of the game's catalog (conformance/<game>/rules.xml).

The setup section ("Setup and the PRNG") is checked by replaying the order
it describes with this script's own xoshiro256** (Rng, model_setup): the
first player (where setup draws it), every hand, every deck and the four
`rng` words after setup must be the engine's, for 14 seeds and every
player count.

  state_tables.py ARBITER [GAME…]   (run from the checkout's root)
"""
import json, os, random, re, subprocess, sys

arbiter = sys.argv[1]
only = sys.argv[2:]
SEEDS, STEPS = 40, 3000
fails = []


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(text):
    """Every markdown table of text: (header cells, [row cells])."""
    out, cur = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            c = cells(line)
            if cur is None:
                cur = (c, [])
                out.append(cur)
            elif not all(re.fullmatch(r":?-+:?", x) for x in c):
                cur[1].append(c)
        else:
            cur = None
    return out


def unquote(s):
    return s.replace("`", "").strip()


class Engine:
    def __init__(self, game):
        self.game = game
        self.p = subprocess.Popen([arbiter, "engine-serve", "--game", game], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.n = 0
        self.hello = self.rq("hello", protocol=2, game=game)
        self.verbs = [v["name"] for v in self.hello["verbs"]]
        self.types = {c["id"]: c["type"] for c in self.hello["cards"]}

    def rq(self, op, **kw):
        kw.update(id=self.n, op=op)
        self.n += 1
        self.p.stdin.write(json.dumps(kw) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit("state_tables: %s: engine-serve died at %s" % (self.game, op))
        return json.loads(line)

    def close(self):
        self.rq("bye")
        self.p.wait()

    def setup(self, seed, players=None, offset=0):
        pr = self.hello["presets"]
        players = players or self.hello["min_players"]
        decks = [{"name": pr[(offset + i) % len(pr)]["name"], "cards": pr[(offset + i) % len(pr)]["cards"],
                  "attrs": pr[(offset + i) % len(pr)].get("attrs", {})} for i in range(players)]
        r = self.rq("setup", seed=str(seed), players=players, decks=decks, options={})
        if not r["ok"]:
            sys.exit("state_tables: %s: setup refused: %s" % (self.game, r))
        return r["state"]


def get_path(tree, path):
    node = tree
    for k in path.split("."):
        if isinstance(node, list):
            if not k.isdigit() or int(k) >= len(node):
                return None
            node = node[int(k)]
        elif isinstance(node, dict):
            if k not in node:
                return None
            node = node[k]
        else:
            return None
    return node


def fits(where, dec, tree, first):
    """Does the state (decision dec, tree) fit the row's `decision` cell?"""
    if where == "any":
        return first
    kind, _, cond = where.partition(":")
    if dec["kind"] != kind:
        return False
    for c in cond.split("&") if cond else []:
        path, _, want = c.partition("=")
        v = get_path(tree, path.replace("owner", str(dec["seat"])))
        if v is None or str(v).lower() != want.lower():
            return False
    return True


def build(pattern, dec, legal, tree, eng, nplayers):
    """The action a pattern names in this state, or None when the state
    cannot give it (no legal action of the verb, no card in hand)."""
    toks = pattern.split()
    seat_t, verb_t, args_t = toks[0], toks[1], toks[2:]
    owner = dec["seat"] if isinstance(dec["seat"], int) else 0
    if seat_t == "owner":
        seat = owner
    elif seat_t == "other":
        seat = (owner + 1) % nplayers
    elif seat_t == "arbiter":
        seat = "arbiter"
    else:
        seat = int(seat_t)
    want_n = None
    if "/" in verb_t:
        verb_t, want_n = verb_t.split("/")
        want_n = int(want_n)
    verb = int(verb_t[1:]) if verb_t.startswith("#") else verb_t
    base = None
    if "L" in args_t or want_n is not None:
        n = want_n if want_n is not None else len(args_t)
        base = next((a for a in legal if a["verb"] == verb and len(a["args"]) == n and
                     (seat == "arbiter" or a["seat"] == seat)), None)
        if base is None:
            return None
    args = []
    for i, t in enumerate(args_t):
        if t == "L":
            if i >= len(base["args"]):
                return None
            args.append(base["args"][i])
        elif t == "H" or t.startswith("H:"):
            types = t[2:].split(",") if t.startswith("H:") else None
            hand = [c for c in get_path(tree, "players.%d.hand" % owner) or []
                    if types is None or eng.types.get(c.get("card", c.get("id")) if isinstance(c, dict) else None) in types]
            if not hand:
                return None
            c = hand[0]
            args.append(c["uid"] if isinstance(c, dict) else c)
        else:
            args.append(int(t))
    return {"seat": seat, "verb": verb, "args": args, "ms": 0}


# ---- the setup's PRNG order, as each STATE.md's "Setup and the PRNG" says
M64 = (1 << 64) - 1


class Rng:
    """xoshiro256** seeded by SplitMix64, below() and shuffle() as
    include/arbiter/rng.h describes them."""
    def __init__(self, seed):
        z, self.s = seed & M64, []
        for _ in range(4):
            z = (z + 0x9e3779b97f4a7c15) & M64
            x = z
            x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & M64
            x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & M64
            self.s.append(x ^ (x >> 31))

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        r = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
        s[3] = rotl(s[3], 45)
        return r

    def below(self, n):
        m = (self.next() >> 32) * n
        if (m & 0xffffffff) < n:
            t = ((1 << 32) - n) % n
            while (m & 0xffffffff) < t:
                m = (self.next() >> 32) * n
        return m >> 32

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]

    def words(self):
        return ["%016x" % w for w in self.s]


def model_setup(game, seed, decks, types):
    """(first seat or None, [hand uids per seat], [deck uids top first per
    seat], rng words) after setup, following STATE.md's order."""
    r, n = Rng(seed), len(decks)
    kind = [[types[c] for c in d] for d in decks]
    apart = {"brainstorm": "Generator", "catalyst": "Catalyst", "operator": "Personality"}.get(game)
    piles = [[u for u in range(len(d)) if kind[i][u] != apart] for i, d in enumerate(decks)]
    hands = [[] for _ in decks]
    first = None

    def draw(seat, k):
        for _ in range(k):
            if piles[seat]:
                hands[seat].append(piles[seat].pop())

    if game == "catalyst":
        first = r.below(n)
    for i in range(n):
        r.shuffle(piles[i])
        if game == "catalyst":
            draw(i, 6)
    if game == "brainstorm":
        first = r.below(n)
        for k in range(n):
            draw((first + k) % n, 5)
        for k in range(n):
            draw((first + k) % n, 1)
    elif game == "naramo":
        for i in range(n):
            draw(i, 6)
    elif game == "operator":
        for i in range(n):
            draw(i, 4)
    # the tree lists a pile top first, except operator's (bottom to top)
    return first, hands, [p if game == "operator" else p[::-1] for p in piles], r.words()


def check_setup_model(eng, path):
    game, pr, checked = eng.game, eng.hello["presets"], 0
    for seed in list(range(1, 13)) + [0, 2 ** 64 - 1]:
        players = eng.hello["min_players"] + seed % (eng.hello["max_players"] - eng.hello["min_players"] + 1)
        decks = [pr[(seed + i) % len(pr)]["cards"] for i in range(players)]
        first, hands, piles, words = model_setup(game, seed, decks, eng.types)
        st = eng.setup(seed, players, offset=seed)
        tree = eng.rq("state", state=st, view="all")["tree"]
        eng.rq("free", state=st)
        uid = lambda c: c["uid"] if isinstance(c, dict) else c
        pile_key = "vault" if game == "catalyst" else "deck"
        got = (tree.get("lead", tree.get("first")) if first is not None else None,
               [[uid(c) for c in p["hand"]] for p in tree["players"]],
               [[uid(c) for c in p[pile_key]] for p in tree["players"]], tree["rng"])
        checked += 1
        if got != (first, hands, piles, words):
            fails.append("%s: setup seed %d, %d players: the PRNG order STATE.md describes gives first %s, hands %s, "
                         "rng %s; the engine: first %s, hands %s, rng %s" % (
                             path, seed, players, first, hands, words, got[0], got[1], got[3]))
    return checked


def check_game(game):
    path = os.path.join("conformance", game, "STATE.md")
    text = open(path, encoding="utf-8").read()
    rows, matrix = [], []
    for head, body in tables(text):
        h = [unquote(x) for x in head]
        if h == ["#", "check", "decision", "action", "code", "rule"]:
            for r in body:
                if len(r) == 6:
                    rows.append({"what": "row %s (%s)" % (r[0], unquote(r[1])), "where": unquote(r[2]),
                                 "action": unquote(r[3]), "code": unquote(r[4]), "rule": unquote(r[5])})
        elif h and h[0] == "action \\ decision":
            for r in body:
                for k, cell in zip(h[1:], r[1:]):
                    cell = unquote(cell)
                    if cell != "ok":
                        matrix.append({"what": "matrix %s at %s" % (unquote(r[0]), k), "where": k,
                                       "action": unquote(r[0]), "code": "illegal", "rule": cell})
    eng = Engine(game)
    checked = check_setup_model(eng, path)
    if not rows or not matrix:
        fails.append("%s: STATE.md has no refusal table or no verb x decision matrix" % path)
        eng.close()
        return checked
    todo = rows + matrix
    catalog = set(re.findall(r'<entry id="([^"]+)"', open(os.path.join("conformance", game, "rules.xml"),
                                                          encoding="utf-8").read()))
    for t in todo:
        t["rule"] = "" if t["rule"] in ("—", "none", "") else t["rule"]
        if t["rule"] and t["rule"] not in catalog:
            fails.append("%s: %s: %s is not an entry of conformance/%s/rules.xml" % (path, t["what"], t["rule"], game))
    nplayers = eng.hello["min_players"]
    for seed in range(1, SEEDS + 1):
        if not todo:
            break
        rnd = random.Random(seed)
        st = eng.setup(seed, offset=seed)
        first = True
        for step in range(STEPS):
            r = eng.rq("step", state=st, legal=True, views=["all"])
            dec, legal, tree = r["decision"], r.get("legal", []), r["trees"][0]
            batch = []
            for t in todo:
                if fits(t["where"], dec, tree, first):
                    a = build(t["action"], dec, legal, tree, eng, nplayers)
                    if a is not None:
                        batch.append((t, a))
            for i in range(0, len(batch), 64):
                part = batch[i:i + 64]
                v = eng.rq("probe", state=st, actions=[a for _, a in part])
                for (t, a), got in zip(part, v["verdicts"]):
                    todo.remove(t)
                    checked += 1
                    if got["ok"] or got["code"] != t["code"] or got["rule"] != t["rule"]:
                        fails.append("%s: %s: %s in seed %d step %d: STATE.md says %s %s, the engine %s" % (
                            path, t["what"], json.dumps(a), seed, step, t["code"], t["rule"] or "(no rule)",
                            "accepts it" if got["ok"] else "%s %s (%s)" % (got["code"], got["rule"] or "(no rule)",
                                                                          got["message"])))
            first = False
            if dec["seat"] == "none" or not legal or not todo:
                break
            # a random walk that prefers acting to passing (odd seeds) or
            # passing to acting (even seeds: hands fill up), so rare decisions come up
            quiet = [a for a in legal if a["verb"] in ("pass", "done", "end", "noblock", "decline", "keep")]
            busy = [a for a in legal if a not in quiet]
            pref = (busy if seed % 2 else quiet) or legal
            a = rnd.choice(pref if rnd.random() < 0.7 else legal)
            r = eng.rq("apply", state=st, action=a)
            if not r["ok"]:
                fails.append("%s: the engine refused its own legal action %s: %s" % (game, a, r))
                break
        eng.rq("free", state=st)
    for t in todo:
        fails.append("%s: %s: no state that fits '%s' with '%s' reached in %d seeded matches" % (
            path, t["what"], t["where"], t["action"], SEEDS))
    eng.close()
    return checked


games = only or sorted(g for g in os.listdir("conformance")
                       if os.path.exists(os.path.join("conformance", g, "STATE.md")))
total = 0
for g in games:
    total += check_game(g)
if fails:
    print("\n".join("state_tables: FAIL " + f for f in fails[:40]))
    if len(fails) > 40:
        print("state_tables: … and %d more" % (len(fails) - 40))
    sys.exit(1)
print("state_tables: %d rows and cells of %d games' STATE.md refusal and setup tables agree with the engines" % (
    total, len(games)))
