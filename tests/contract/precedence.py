#!/usr/bin/env python3
"""precedence.py — the refusal-precedence table of conformance/ADAPTER.md
("Refusal precedence", one rule ID per game and row) checked against the
engines: for each row a fresh setup can show (2 an unknown verb number,
4a an arbiter action in a game without a clock, 4c a seat outside the
match), a case is generated with the table's code and rule ID and run by
`arbiter conform`. A table that says one thing while an engine does
another fails, naming the row and the game.

  precedence.py ARBITER   (run from the checkout's root)
"""
import os, re, subprocess, sys, tempfile

arbiter = sys.argv[1]
text = open("conformance/ADAPTER.md", encoding="utf-8").read()
head = re.search(r"\| # \| the action \|.*rule \(([^)]*)\) \|", text)
if not head:
    sys.exit("precedence: ADAPTER.md has no refusal-precedence table")
games = [g.strip() for g in head.group(1).split("·")]
rows = {}
for m in re.finditer(r"^\| (\w+) \| [^|]* \| `(\w+)` \| [^|]* \| ([^|]*) \|$", text, re.M):
    cells = [c.strip() for c in m.group(3).split("·")]
    if len(cells) == len(games):
        rows[m.group(1)] = (m.group(2), dict(zip(games, cells)))
for need in ("2", "4a", "4c"):
    if need not in rows:
        sys.exit("precedence: row %s of the table is missing or not one cell per game" % need)

def verbs(game):
    out = subprocess.run([arbiter, "verbs", "--game", game], capture_output=True, text=True, check=True).stdout
    vs = []
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+(\S+)\s+(\d+)", line)
        if m: vs.append((m.group(2), int(m.group(3))))
    return vs

def rule_id(cell):
    return cell if re.fullmatch(r"[A-Z]+(-[A-Z0-9]+)+", cell) else None

fails = checked = 0
with tempfile.TemporaryDirectory() as tmp:
    os.symlink(os.path.abspath("conformance/schema"), os.path.join(tmp, "schema"))
    for g in games:
        if not os.path.isdir(os.path.join("conformance", g)):
            continue
        os.makedirs(os.path.join(tmp, g))
        for f in ("rules.xml", "views.xml"):
            src = os.path.abspath(os.path.join("conformance", g, f))
            if os.path.exists(src): os.symlink(src, os.path.join(tmp, g, f))
        vs = verbs(g)
        first = next(v for v in vs if v[0] not in ("timeout", "disconnect", "reconnect"))
        acts = []
        code2, r2 = rows["2"][0], rule_id(rows["2"][1][g])
        if r2:
            acts.append(('<reject malformed="true" do="0 verb#%d" rule="%s" code="%s"/>' % (len(vs), r2, code2), "2"))
        code4a, r4a = rows["4a"][0], rule_id(rows["4a"][1][g])
        if r4a:
            acts.append(('<reject do="arbiter timeout" rule="%s" code="%s"/>' % (r4a, code4a), "4a"))
        code4c, r4c = rows["4c"][0], rule_id(rows["4c"][1][g])
        if r4c:
            args = " 0" * first[1]
            acts.append(('<reject malformed="true" do="3 %s%s" rule="%s" code="%s"/>' % (first[0], args, r4c, code4c), "4c"))
        for k, (xml, row) in enumerate(acts):
            case = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<test-set xmlns="urn:arbiter:conformance:1" game="%s" name="precedence-%d">\n'
                    '  <description>ADAPTER.md refusal precedence, row %s</description>\n'
                    '  <test-case id="precedence-row-%s" covers="%s">\n'
                    '    <setup seed="1" players="2"/>\n    %s\n  </test-case>\n</test-set>\n'
                    % (g, k, row, row, re.search(r'rule="([^"]*)"', xml).group(1), xml))
            path = os.path.join(tmp, g, "precedence-%d.xml" % k)
            open(path, "w").write(case)
            r = subprocess.run([arbiter, "conform", "-q", path], capture_output=True, text=True)
            checked += 1
            if r.returncode != 0:
                fails += 1
                print("precedence: FAIL row %s, %s: the table says %s; %s" % (row, g, xml,
                      (r.stdout + r.stderr).strip().replace("\n", " | ")[:600]))
if fails:
    sys.exit(1)
print("precedence: %d cells of ADAPTER.md's refusal-precedence table agree with the engines" % checked)
