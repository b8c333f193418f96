#!/usr/bin/env python3
"""mutate.py - mutation testing of the engines' rules sources.

For each game it lists every mutation site of the game's rules sources (see
TARGETS; README.md says why the other files are left out), draws a
deterministic sample (random.Random keyed by the seed and the game id),
and for each mutant: writes the mutated file, compiles that one object,
links a private `arbiter` from the already-built objects, runs the
conformance suite of that game alone (`arbiter conform --game G`), and, when
the suite does not notice, links and runs the game's unit tests
(tests/check_G.c). Mutants that do not compile are excluded; mutants listed
in tests/mutation/equivalent.txt (keyed by file, function, the line's text,
the mutation and its occurrence, so the key survives edits elsewhere) are
reported but not scored. A hang (timeout) or a crash counts as killed.

Only the Python standard library is used. Invoked by `make mutation`, which
passes the compiler, flags and libraries of the main build.
"""
import argparse
import concurrent.futures
import hashlib
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# The rules sources of each engine. Left out everywhere: agent.c (the greedy
# agent is not a rule), narrate.c (narration text), export.c (the state tree
# and the position loader: a mutant there changes what is shown or which
# positions load, not a rule of play). cards.c is mutated inside functions
# only (the deck check); its card tables are data, one mutant per number
# would swamp the sample. game.c holds vtables only except in catalyst
# (power, health, distance, hash).
TARGETS = {
    "naramo": ["rules.c", "cards.c"],
    "catalyst": ["rules.c", "game.c", "cards.c"],
    "operator": ["rules.c", "cards.c"],
    "brainstorm": ["rules.c", "pulse.c", "stack.c", "cards.c"],
}

TOKEN_RE = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])+')
  | (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?[fF]?|[0-9]+[uUlL]*)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[-+*/%<>=!&|^~?:;,.(){}\[\]#])
""", re.S | re.X)

REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGIC = {"&&": "||", "||": "&&"}
ARITH = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "+=": "-=", "-=": "+=", "++": "--", "--": "++"}
VALUE_END = {"num", "id"}
KEYWORDS = {"return", "case", "sizeof", "if", "while", "for", "switch", "else", "do"}
TYPE_WORDS = {"int", "unsigned", "char", "const", "void", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
              "int8_t", "int16_t", "int32_t", "int64_t", "size_t", "static", "struct", "long", "short"}


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line


def tokenize(src):
    toks, pos, line = [], 0, 1
    line_start_pp = True
    while pos < len(src):
        # Preprocessor lines are skipped whole (with continuations).
        if line_start_pp and src[pos] == "#":
            end = pos
            while True:
                nl = src.find("\n", end)
                if nl < 0:
                    end = len(src)
                    break
                if src[nl - 1] == "\\":
                    end = nl + 1
                    continue
                end = nl
                break
            line += src.count("\n", pos, end)
            pos = end
            continue
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise SystemExit("mutate.py: cannot tokenize at offset %d (line %d)" % (pos, line))
        kind = m.lastgroup
        text = m.group()
        if kind not in ("ws", "comment"):
            toks.append(Tok(kind, text, pos, m.end(), line))
            line_start_pp = False
        nls = text.count("\n")
        if nls:
            line += nls
            line_start_pp = True if kind == "ws" else line_start_pp
        pos = m.end()
    return toks


def functions(toks):
    """Yield (name, first_tok_index, last_tok_index) of each function body
    ('{' .. '}' at file level whose '{' follows a ')')."""
    depth, i, n = 0, 0, len(toks)
    out = []
    while i < n:
        t = toks[i]
        if t.text == "{" and depth == 0:
            # function body when the previous token is ')' (or a ')' followed by attributes)
            if i > 0 and toks[i - 1].text == ")":
                # name: the identifier before the matching '(' of that ')'
                j, d = i - 1, 0
                while j >= 0:
                    if toks[j].text == ")":
                        d += 1
                    elif toks[j].text == "(":
                        d -= 1
                        if d == 0:
                            break
                    j -= 1
                name = toks[j - 1].text if j > 0 and toks[j - 1].kind == "id" else "?"
                k, d = i, 0
                while k < n:
                    if toks[k].text == "{":
                        d += 1
                    elif toks[k].text == "}":
                        d -= 1
                        if d == 0:
                            break
                    k += 1
                out.append((name, i, k))
                i = k + 1
                continue
            depth += 1
        elif t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
        i += 1
    return out


def match_paren(toks, i):
    d = 0
    for k in range(i, len(toks)):
        if toks[k].text == "(":
            d += 1
        elif toks[k].text == ")":
            d -= 1
            if d == 0:
                return k
    return -1


def sites(path, src):
    """Every mutant of one file: dicts with start/end (byte range), new text,
    line, op, orig, func."""
    toks = tokenize(src)
    out = []
    for fname, lo, hi in functions(toks):
        for i in range(lo + 1, hi):
            t = toks[i]
            prev = toks[i - 1]
            nxt = toks[i + 1] if i + 1 < len(toks) else None

            def add(op, new, start=t.start, end=t.end, orig=None):
                out.append(dict(start=start, end=end, new=new, line=t.line, op=op,
                                orig=orig if orig is not None else t.text, func=fname))

            binary = prev.kind in VALUE_END and prev.text not in KEYWORDS and prev.text not in TYPE_WORDS \
                or prev.text in (")", "]")
            if t.kind == "op":
                if t.text in REL:
                    add("rel", REL[t.text])
                elif t.text in LOGIC:
                    add("logic", LOGIC[t.text])
                elif t.text in ("++", "--"):
                    add("arith", ARITH[t.text])
                elif t.text in ("+=", "-="):
                    add("arith", ARITH[t.text])
                elif t.text in ("+", "-", "*", "/", "%") and binary:
                    if t.text == "*" and prev.kind == "id" and nxt is not None and nxt.kind == "id" \
                            and toks[i - 2].text in ("(", ",", ";", "{", "}"):
                        continue  # `T *p` declaration
                    add("arith", ARITH[t.text])
            elif t.kind == "num" and "." not in t.text:
                if prev.text == "[" and nxt is not None and nxt.text == "]" and toks[i - 2].kind == "id" \
                        and toks[i - 3].text in TYPE_WORDS | {"(", ","}:
                    continue  # array dimension in a declaration
                base = 16 if t.text.lower().startswith("0x") else 10
                digits = re.match(r"0[xX][0-9a-fA-F]+|[0-9]+", t.text).group()
                suffix = t.text[len(digits):]
                v = int(digits, base)
                for d in (1, -1):
                    nv = v + d
                    if nv < 0:
                        continue
                    txt = (hex(nv) if base == 16 else str(nv)) + suffix
                    add("lit%+d" % d, txt)
            elif t.kind == "id" and t.text == "break" and nxt is not None and nxt.text == ";":
                add("break", ";", start=t.start, end=nxt.end, orig="break;")
            elif t.kind == "id" and t.text == "if" and nxt is not None and nxt.text == "(":
                close = match_paren(toks, i + 1)
                if close < 0 or close + 1 >= len(toks):
                    continue
                body = toks[close + 1]
                guard = body.text == "return" or (body.text == "{" and close + 2 < len(toks)
                                                  and toks[close + 2].text == "return")
                if guard:
                    cond = src[toks[i + 1].start:toks[close].end]
                    add("guard", "(0)", start=toks[i + 1].start, end=toks[close].end,
                        orig="if %s return" % " ".join(cond.split()))
    return out


def mutant_key(rel, src, m, occurrence):
    line_text = " ".join(src.splitlines()[m["line"] - 1].split())
    h = hashlib.sha1(("%s|%s|%s|%s|%s|%d" % (rel, m["func"], line_text, m["op"], m["new"], occurrence))
                     .encode()).hexdigest()[:10]
    return "%s:%s:%s" % (rel, m["func"], h)


# cards.c: only the deck check is rules code (see TARGETS).
FUNC_FILTER = {"cards.c": re.compile(r"deck_check|^issue$|bloc")}


def enumerate_game(game):
    muts = []
    for f in TARGETS[game]:
        rel = "src/games/%s/%s" % (game, f)
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        seen = {}
        filt = FUNC_FILTER.get(f)
        for m in sites(rel, src):
            if filt and not filt.search(m["func"]):
                continue
            line_text = " ".join(src.splitlines()[m["line"] - 1].split())
            k = (m["func"], line_text, m["op"], m["new"])
            occ = seen.get(k, 0)
            seen[k] = occ + 1
            m["file"] = rel
            m["key"] = mutant_key(rel, src, m, occ)
            m["desc"] = "%s '%s' -> '%s'" % (m["op"], m["orig"], m["new"] if m["op"] != "guard" else "if (0) return")
            muts.append(m)
    return muts


# A bound clamp: `if (v > MAX) v = MAX;` or `v > MAX ? MAX : v` (and the
# < / lower-bound forms). Flipping > to >= (or < to <=) there changes nothing:
# at the bound both branches give the same value.
CLAMP_RES = [re.compile(r"if \((?P<v>[\w.>\[\]-]+) (?P<op>[<>]=?) (?P<k>[\w.]+)\) (?P=v) = (?P=k);"),
             re.compile(r"(?P<v>[\w.>\[\]-]+) (?P<op>[<>]=?) (?P<k>[\w.]+) \? (?P=k) : (?P=v)\b"),
             # min/max: `a < b ? a : b` picks the same value when a == b
             re.compile(r"(?P<v>[\w.>\[\]-]+) (?P<op>[<>]=?) (?P<k>[\w.>\[\]-]+) \? (?P=v) : (?P=k)\b")]


def clamp_equivalent(src, m):
    line = src.splitlines()[m["line"] - 1]
    if m["op"] in ("lit+1", "lit-1"):
        # `if (v < K) v = K` -> `v < K+1`: for integers the extra value v == K
        # is set to K, which it already is (and `v > K` -> `v > K-1` alike).
        col = m["start"] - (src.rfind("\n", 0, m["start"]) + 1)
        for rx in CLAMP_RES:
            for cm in rx.finditer(line):
                if cm.start("k") == col and ((m["op"] == "lit+1" and cm.group("op") == "<") or
                                             (m["op"] == "lit-1" and cm.group("op") == ">")):
                    return True
        return False
    if m["op"] != "rel" or m["orig"] not in ("<", ">", "<=", ">="):
        return False
    for rx in CLAMP_RES:
        for cm in rx.finditer(line):
            if cm.group("op") == m["orig"] and {cm.group("op"), m["new"]} in ({"<", "<="}, {">", ">="}):
                return True
    return False


DECL_BUF_RE = re.compile(r"^\s*(?:const\s+)?[a-z_][a-z_0-9]*\s+\w+\[(?P<dim>[^\]]*)\];")


def other_equivalent(src, m):
    """A reason string when the mutant is equivalent by construction, else
    None: a local buffer made one larger, or a `break` whose removal falls
    through into `default: break;` or the end of the switch."""
    line = src.splitlines()[m["line"] - 1]
    col = m["start"] - (src.rfind("\n", 0, m["start"]) + 1)
    if m["op"] == "lit+1":
        dm = DECL_BUF_RE.match(line)
        if dm and dm.start("dim") <= col < dm.end("dim"):
            return "buffer: a local array one element larger changes nothing"
    if m["op"] in ("lit+1", "lit-1"):
        # an argument past nargs of an action built by legal(): never read
        toks = tokenize(src)
        i = next((k for k, t in enumerate(toks) if t.start == m["start"]), None)
        call = enclosing_call(toks, i) if i is not None else None
        if call:
            fn, args, idx = call
            layout = {"PUSH": (1, 2), "cand": (2, 3), "push": (2, 3), "act": (2, 3)}.get(fn)
            if layout and len(args) > layout[0] and re.fullmatch(r"[0-9]+", args[layout[0]]) and \
                    idx >= layout[1] + int(args[layout[0]]):
                return "unused argument: past the action's nargs (%s), which apply() never reads" % args[layout[0]]
    if m["op"] == "lit+1" and m["orig"] == "1":
        # the hidden flag of an event: engines store (hidden != 0), so 1 -> 2
        # is the same flag
        toks = tokenize(src)
        i = next((k for k, t in enumerate(toks) if t.start == m["start"]), None)
        d, commas, k = 0, 0, (i or 0) - 1
        while i is not None and k >= 0:
            t = toks[k].text
            if t in (")", "]"):
                d += 1
            elif t in ("(", "["):
                if d == 0:
                    break
                d -= 1
            elif t == "," and d == 0:
                commas += 1
            elif t in (";", "{", "}"):
                k = -1
                break
            k -= 1
        if i is not None and k > 0 and toks[k].text == "(":
            fn = toks[k - 1].text
            if (fn in ("arb_events_push", "ev_push") and commas == 3) or (fn == "EV" and commas == 2):
                return "hidden flag: events store hidden != 0, so 1 and 2 are the same flag"
    if m["op"] == "break":
        toks = tokenize(src)
        i = next((k for k, t in enumerate(toks) if t.start == m["start"]), None)
        if i is None or i + 2 >= len(toks):
            return None
        j = i + 2                      # after "break ;"
        if [t.text for t in toks[j:j + 4]] == ["default", ":", "break", ";"]:
            return "break: falls through only into 'default: break;'"
        if toks[j].text == "}" and closes_switch(toks, j):
            return "break: the last statement of the switch; falling off its end does the same"
    return None


def enclosing_call(toks, i):
    """(function name, argument texts, index of the argument holding
    toks[i]) of the call whose argument list contains toks[i], or None."""
    d, k = 0, i - 1
    while k >= 0:
        t = toks[k].text
        if t in (")", "]"):
            d += 1
        elif t in ("(", "["):
            if d == 0:
                break
            d -= 1
        elif t in (";", "{", "}"):
            return None
        k -= 1
    if k <= 0 or toks[k].text != "(" or toks[k - 1].kind != "id":
        return None
    close = match_paren(toks, k)
    args, cur, d, idx = [], [], 0, None
    for q in range(k + 1, close):
        t = toks[q].text
        if t in ("(", "["):
            d += 1
        elif t in (")", "]"):
            d -= 1
        if t == "," and d == 0:
            args.append(" ".join(cur))
            cur = []
            continue
        if q == i:
            idx = len(args)
        cur.append(t)
    args.append(" ".join(cur))
    return toks[k - 1].text, args, idx


def closes_switch(toks, j):
    """toks[j] is '}': does it close a `switch (...) {`?"""
    d = 0
    for k in range(j, -1, -1):
        if toks[k].text == "}":
            d += 1
        elif toks[k].text == "{":
            d -= 1
            if d == 0:
                if k == 0 or toks[k - 1].text != ")":
                    return False
                c = match_paren_back(toks, k - 1)
                return c > 0 and toks[c - 1].text == "switch"
    return False


def match_paren_back(toks, k):
    d = 0
    for q in range(k, -1, -1):
        if toks[q].text == ")":
            d += 1
        elif toks[q].text == "(":
            d -= 1
            if d == 0:
                return q
    return -1
    return None


def load_equivalent():
    eq = {}
    path = os.path.join(HERE, "equivalent.txt")
    if not os.path.exists(path):
        return eq
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition(" ")
            if not reason.strip():
                raise SystemExit("tests/mutation/equivalent.txt:%d: '%s' has no reason" % (n, key))
            eq[key] = reason.strip()
    return eq


def run(cmd, timeout, env=None, cwd=ROOT):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


class Builder:
    def __init__(self, args, tag="main", shared=None):
        self.a = args
        self.cc = args.cc
        self.cflags = args.cflags.split()
        self.libs = args.libs.split()
        self.obj = os.path.join(ROOT, args.build, "obj")
        # one directory per run: two runs (or CI next to a developer's run)
        # never share a mutant's source, object or binary
        self.root = os.path.join(ROOT, args.build, "mutation", "run-%d" % os.getpid())
        self.work = os.path.join(self.root, tag)
        os.makedirs(self.work, exist_ok=True)
        if args.lib_objs:   # the Makefile's lists: no stale object of a renamed source
            self.lib_objs = sorted(os.path.join(ROOT, o) for o in args.lib_objs.split())
            self.cli_objs = sorted(os.path.join(ROOT, o) for o in args.cli_objs.split())
        else:
            self.lib_objs = []
            for d, _, files in os.walk(self.obj):
                for f in files:
                    if f.endswith(".o") and "/src/cli" not in os.path.join(d, f).replace(self.obj, ""):
                        self.lib_objs.append(os.path.join(d, f))
            self.lib_objs.sort()
            self.cli_objs = sorted(os.path.join(self.obj, "src", "cli", f)
                                   for f in os.listdir(os.path.join(self.obj, "src", "cli")) if f.endswith(".o"))
        # the unit tests' objects are compiled once and shared by the workers
        self.test_objs, self.test_lock = shared if shared else ({}, threading.Lock())

    def worker(self, n):
        """A builder for worker n: its own directory, the same test objects."""
        return Builder(self.a, "w%d" % n, (self.test_objs, self.test_lock))

    def test_obj(self, game):
        with self.test_lock:
            return self._test_obj(game)

    def _test_obj(self, game):
        if game not in self.test_objs:
            src = os.path.join(ROOT, "tests", "check_%s.c" % game)
            if not os.path.exists(src):
                self.test_objs[game] = None
            else:
                o = os.path.join(self.work, "check_%s.o" % game)
                cmd = [self.cc] + self.cflags + self.a.check_cflags.split() + ["-Itests", "-c", src, "-o", o]
                rc, out = run(cmd, 300)
                if rc != 0:
                    raise SystemExit("mutate.py: cannot compile %s:\n%s" % (src, out))
                self.test_objs[game] = o
        return self.test_objs[game]

    def build(self, m, src):
        """Compile the mutant and link arbiter; returns (ok, objs) or (False, msg)."""
        rel = m["file"]
        mdir = os.path.join(self.work, os.path.dirname(rel))
        os.makedirs(mdir, exist_ok=True)
        base = os.path.basename(rel)[:-2]
        msrc = os.path.join(mdir, base + ".c")
        with open(msrc, "w", encoding="utf-8") as fh:
            fh.write(src[:m["start"]] + m["new"] + src[m["end"]:])
        mobj = os.path.join(mdir, base + ".o")
        orig_obj = os.path.join(self.obj, rel[:-2] + ".o")
        cmd = [self.cc] + [f for f in self.cflags if not f.startswith("-O")] + \
              ["-O1", "-I" + os.path.dirname(os.path.join(ROOT, rel)), "-w", "-c", msrc, "-o", mobj]
        rc, out = run(cmd, 120)
        if rc != 0:
            return False, None
        objs = [mobj if o == orig_obj else o for o in self.lib_objs]
        if mobj not in objs:
            raise SystemExit("mutate.py: %s is not among the built objects" % orig_obj)
        exe = os.path.join(self.work, "arbiter")
        rc, out = run([self.cc] + self.a.san.split() + ["-o", exe + ".new"] + self.cli_objs + objs + self.libs, 120)
        if rc != 0:
            return False, None
        os.replace(exe + ".new", exe)
        return True, objs

    def link_base(self):
        """Link arbiter from the unmutated objects (the baseline)."""
        exe = os.path.join(self.work, "arbiter")
        rc, out = run([self.cc] + self.a.san.split() + ["-o", exe + ".new"] + self.cli_objs + self.lib_objs + self.libs, 120)
        if rc != 0:
            raise SystemExit("mutate.py: cannot link the unmutated arbiter:\n%s" % out)
        os.replace(exe + ".new", exe)

    def unit(self, game, objs):
        to = self.test_obj(game)
        if to is None:
            return None
        exe = os.path.join(self.work, "check_%s" % game)
        rc, out = run([self.cc] + self.a.san.split() + ["-o", exe + ".new", to] + objs + self.a.check_libs.split() +
                      self.libs, 120)
        if rc != 0:
            raise SystemExit("mutate.py: cannot link the unit tests of %s:\n%s" % (game, out))
        os.replace(exe + ".new", exe)
        env = dict(os.environ, ARBITER=os.path.join(self.work, "arbiter"), CK_VERBOSITY="silent")
        rc, _ = run([exe], self.a.unit_timeout, env=env)
        return rc != 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every target game built)")
    ap.add_argument("--mutants", type=int, default=20, help="mutants sampled per game (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build", default="build")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--libs", default="")
    ap.add_argument("--check-cflags", default="")
    ap.add_argument("--check-libs", default="")
    ap.add_argument("--san", default="")
    ap.add_argument("--lib-objs", default="", help="the library's objects (make passes LIB_OBJ)")
    ap.add_argument("--cli-objs", default="", help="the CLI's objects (make passes CLI_OBJ)")
    ap.add_argument("--floor-conform", type=float, default=0.0, help="fail when a game's conformance-alone score is below (percent)")
    ap.add_argument("--floor-unit", type=float, default=0.0, help="fail when a game's with-unit-tests score is below (percent)")
    ap.add_argument("--conform-timeout", type=int, default=20)
    ap.add_argument("--unit-timeout", type=int, default=300)
    ap.add_argument("--no-unit", action="store_true", help="conformance only (survivors are not given to the unit tests)")
    ap.add_argument("--list", action="store_true", help="list the sampled mutants (key, file:line, mutation) and stop")
    ap.add_argument("--suggest-clamps", action="store_true",
                    help="print equivalent.txt lines for mutants equivalent by construction: bound clamps, larger local buffers, a break before default: break; (review, then append)")
    ap.add_argument("--only", default="", help="run only the mutants whose key starts with this (a comma list: any of them)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants tested at once (each in its own directory); "
                    "the output is in sample order whatever N is")
    args = ap.parse_args()

    games = [g for g in (args.games.split(",") if args.games else sorted(TARGETS)) if g]
    for g in games:
        if g not in TARGETS:
            raise SystemExit("mutate.py: unknown game '%s' (known: %s)" % (g, ", ".join(sorted(TARGETS))))
    equivalent = load_equivalent()
    if args.suggest_clamps:
        for g in games:
            for m in enumerate_game(g):
                with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as fh:
                    src = fh.read()
                if m["key"] in equivalent:
                    continue
                if clamp_equivalent(src, m):
                    print("%s clamp: '%s' -> '%s' at line %d gives the same value at the bound" %
                          (m["key"], m["orig"], m["new"], m["line"]))
                elif other_equivalent(src, m):
                    print("%s %s (line %d)" % (m["key"], other_equivalent(src, m), m["line"]))
        return 0
    builder = None if args.list else Builder(args)
    sources = {}
    summary = []
    failed = False
    all_keys = set()
    for g in games:
        muts = enumerate_game(g)
        all_keys.update(m["key"] for m in muts)
        rng = random.Random("%d:%s" % (args.seed, g))
        sample = muts if args.mutants <= 0 or args.mutants >= len(muts) else rng.sample(muts, args.mutants)
        sample.sort(key=lambda m: (m["file"], m["start"], m["new"]))
        if args.only:
            sample = [m for m in sample if m["key"].startswith(tuple(args.only.split(",")))]
        print("== %s: %d mutation sites, %d sampled (seed %d)" % (g, len(muts), len(sample), args.seed), flush=True)
        if args.list:
            for m in sample:
                print("  %s  %s:%d  %s" % (m["key"], m["file"], m["line"], m["desc"]))
            continue
        n_tested = n_conf = n_unit = n_eq = n_nc = 0
        survivors = []
        t0 = time.time()
        # The baseline: the unmutated engine must pass the suite and its unit
        # tests, else every mutant would count as killed.
        builder.link_base()
        rc, out = run([os.path.join(builder.work, "arbiter"), "conform", "--game", g, "--quiet"],
                      args.conform_timeout * 3)
        if rc != 0:
            raise SystemExit("mutate.py: %s: the conformance suite fails without any mutation (exit %s), so every "
                             "mutant would count as killed; fix the suite first:\n%s" % (g, rc, out[-3000:]))
        if not args.no_unit and sample and builder.unit(g, builder.lib_objs):
            raise SystemExit("mutate.py: %s: the unit tests (tests/check_%s.c) fail without any mutation, so every "
                             "survivor would count as killed; fix them first" % (g, g))
        for m in sample:
            if m["file"] not in sources:
                with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as fh:
                    sources[m["file"]] = fh.read()

        def test(b, m):
            """One mutant on builder b: its verdict and report line."""
            where = "%s:%d" % (m["file"], m["line"])
            if m["key"] in equivalent:
                return "equiv", "  EQUIV     %s  %s  (%s)" % (where, m["desc"], equivalent[m["key"]])
            ok, objs = b.build(m, sources[m["file"]])
            if not ok:
                return "nocompile", "  NOCOMPILE %s  %s" % (where, m["desc"])
            rc, out = run([os.path.join(b.work, "arbiter"), "conform", "--game", g, "--quiet"],
                          args.conform_timeout)
            if rc != 0:
                return "conform", "  KILLED    %s  %s  (conformance%s)" % (where, m["desc"],
                                                                       ", timeout" if rc == "timeout" else "")
            if not args.no_unit and b.unit(g, objs):
                return "unit", "  KILLED    %s  %s  (unit tests only)" % (where, m["desc"])
            return "survived", "  SURVIVED  %s  %s  key %s" % (where, m["desc"], m["key"])

        workers = [builder.worker(i) for i in range(max(1, args.jobs))]
        free = queue.Queue()
        for w in workers:
            free.put(w)

        def on_worker(m):
            b = free.get()
            try:
                return test(b, m)
            finally:
                free.put(b)

        with concurrent.futures.ThreadPoolExecutor(max_workers=len(workers)) as pool:
            for m, (verdict, line) in zip(sample, pool.map(on_worker, sample)):
                print(line, flush=True)
                if verdict == "equiv":
                    n_eq += 1
                elif verdict == "nocompile":
                    n_nc += 1
                else:
                    n_tested += 1
                    n_conf += verdict == "conform"
                    n_unit += verdict in ("conform", "unit")
                    if verdict in ("unit", "survived"):
                        survivors.append((m, "unit" if verdict == "unit" else "none"))
        pc = 100.0 * n_conf / n_tested if n_tested else 100.0
        pu = 100.0 * n_unit / n_tested if n_tested else 100.0
        summary.append((g, n_tested, n_conf, pc, n_unit, pu, n_eq, n_nc, time.time() - t0))
        if pc < args.floor_conform or pu < args.floor_unit:
            failed = True
    if args.list:
        return 0
    shutil.rmtree(builder.root, ignore_errors=True)
    stale = [k for k in equivalent if k not in all_keys and k.split(":")[0].split("/")[2] in games]
    print()
    print("%-11s %7s %22s %22s %6s %10s %7s" % ("game", "tested", "killed by conformance", "with unit tests",
                                               "equiv", "no-compile", "time"))
    for g, nt, nc, pc, nu, pu, ne, nn, dt in summary:
        print("%-11s %7d %13d (%5.1f%%) %13d (%5.1f%%) %6d %10d %6.0fs" % (g, nt, nc, pc, nu, pu, ne, nn, dt))
    print("seed %d, %s mutants per game; floors: conformance %.0f%%, with unit tests %.0f%%"
          % (args.seed, args.mutants if args.mutants > 0 else "all", args.floor_conform, args.floor_unit))
    for k in stale:
        print("note: equivalent.txt key %s matches no mutant any more (the line changed): review it" % k)
    if failed:
        print("mutation: FAILED: a game scored below the floor")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
