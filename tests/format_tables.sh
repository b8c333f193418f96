#!/usr/bin/env bash
# format_tables.sh — `make check-format`: replays/FORMAT.md §B.7 must hold
# exactly what build/format_tables prints (the card pools, presets and
# outcome reasons version-2 files index), and the independent reader
# replays/tcgr_dump.py (which reads those tables from FORMAT.md) must read
# every v2 golden replay and an archive, agreeing with `arbiter info` on
# every deck's card IDs and every outcome.
set -uo pipefail
cd "$(dirname "$0")/.."
TABLES=${TABLES:-build/format_tables}
ARBITER=${ARBITER:-build/arbiter}
fail=0
want=$(mktemp) got=$(mktemp) tmp=$(mktemp -d)
trap 'rm -rf "$want" "$got" "$tmp"' EXIT
"$TABLES" >"$want"
sed -n '/^<!-- tables: begin/,/^<!-- tables: end/p' replays/FORMAT.md | sed '1d;$d' >"$got"
if ! diff -u "$got" "$want" >"$tmp/diff"; then
    echo "format: replays/FORMAT.md §B.7 differs from build/format_tables (regenerate it; tables only grow):"
    head -40 "$tmp/diff"
    fail=1
fi
"$TABLES" --primers >"$want"
sed -n '/^<!-- primers: begin/,/^<!-- primers: end/p' replays/FORMAT.md | sed '1d;$d' >"$got"
if ! diff -u "$got" "$want" >"$tmp/diff"; then
    echo "format: replays/FORMAT.md §D.8's primer table differs from build/format_tables --primers (primers are frozen):"
    head -20 "$tmp/diff"
    fail=1
fi
# §13: the verb tables of every game, as `arbiter verbs --markdown` prints them
for g in $("$ARBITER" games --json | tr '{' '\n' | sed -n 's/^"id":"\([^"]*\)".*/\1/p'); do
    "$ARBITER" verbs --game "$g" --markdown; echo
done >"$want"
sed -n '/^<!-- verbs: begin/,/^<!-- verbs: end/p' replays/FORMAT.md | sed '1d;$d' >"$got"
if ! diff -u "$got" "$want" >"$tmp/diff"; then
    echo "format: replays/FORMAT.md §13 differs from arbiter verbs --markdown (regenerate it; verbs only grow):"
    head -20 "$tmp/diff"
    fail=1
fi
command -v python3 >/dev/null || { echo "format: python3 missing: tcgr_dump.py not checked"; exit $fail; }
# §14 and §B.4: the worked examples reproduce (recorded with the commands the
# text gives, printed by tests/format_examples.py through tcgr_dump.py)
SOURCE_DATE_EPOCH=1700000000 "$ARBITER" play --game naramo --seed 1 --agents greedy --format 1 -o "$tmp/ex1.tcgr" >/dev/null
SOURCE_DATE_EPOCH=1700000000 "$ARBITER" play --game naramo --seed 1 -o "$tmp/ex2.tcgr" >/dev/null
python3 tests/format_examples.py "$tmp/ex1.tcgr" "$tmp/ex2.tcgr" >"$want"
sed -n '/^<!-- example-v[12]: begin/,/^<!-- example-v[12]: end/p' replays/FORMAT.md >"$got"
if ! diff -u "$got" "$want" >"$tmp/diff"; then
    echo "format: replays/FORMAT.md §14 / §B.4 examples no longer reproduce (regenerate with tests/format_examples.py):"
    head -20 "$tmp/diff"
    fail=1
fi
# §D.8's primer data: each block inflates to the bytes the table names
python3 - "$want" <<'PY' || fail=1
import hashlib, re, sys
sys.path.insert(0, 'replays')
import tcgr_dump   # the independent reader's own loader of the data blocks
bad = 0
for line in open(sys.argv[1]):
    m = re.match(r'\| (\d+) \| `([^`]+)` \| (\d+) \| `([0-9a-f]{64})` \|', line)
    if not m: continue
    pid, n, h = int(m.group(1)), int(m.group(3)), m.group(4)
    raw = tcgr_dump.primer_bytes(pid) or b''
    if len(raw) != n or hashlib.blake2b(raw, digest_size=32).hexdigest() != h:
        print('format: FORMAT.md primer %d data is not the %d bytes of the table (BLAKE2b-256 %s)' % (pid, n, h)); bad = 1
sys.exit(bad)
PY
# Every replay in replays/, every version: v1 files, v2/ (range-coded from the
# primers, FORMAT.md Part D), v2-rc0/ (range-coded from empty models, the older
# flush), v2-zlib/ (zlib bodies), every rules version's corpus.
# One tcgr_dump.py process reads them all (a line per file: name, tab, summary),
# then each line is compared with `arbiter info --json` of the same file.
files=()
while IFS= read -r f; do files+=("$f"); done < <(find replays/golden -name '*.tcgr' | LC_ALL=C sort)   # replays/sealed: tests/seal/run.sh
python3 replays/tcgr_dump.py --summary "${files[@]}" >"$tmp/py.tsv" 2>"$tmp/py.err" ||
    { echo "format: tcgr_dump.py fails: $(grep -v $'\t\[' "$tmp/py.tsv" "$tmp/py.err" | head -5)"; fail=1; }
for f in "${files[@]}"; do printf '%s\t' "$f"; "$ARBITER" info --json "$f"; done >"$tmp/c.tsv"
n=$(python3 - "$tmp/py.tsv" "$tmp/c.tsv" <<'PY'
import json, sys
py = dict(l.rstrip('\n').split('\t', 1) for l in open(sys.argv[1]) if '\t' in l)
n = bad = 0
for line in open(sys.argv[2]):
    f, j = line.rstrip('\n').split('\t', 1)
    d = json.loads(j); o = d.get('outcome', {})
    exp = json.dumps([[p.get('deck', []) for p in d.get('players', [])], o.get('winner'), o.get('reason'), d.get('actions')])
    got = py.get(f, '(nothing)')
    # one outcome-reason spelling (FORMAT.md §5.3): v1's power_orders is power-orders
    if got.replace('_', '-') != exp.replace('_', '-'):
        print('format: %s: tcgr_dump.py reads %s, arbiter info %s' % (f, got[:200], exp[:200]), file=sys.stderr); bad = 1
    n += 1
print(n)
sys.exit(bad)
PY
) || fail=1
SOURCE_DATE_EPOCH=1764000000 "$ARBITER" play --game naramo --games 6 --seed 9 --archive -o "$tmp/a.tcgr" >/dev/null
python3 replays/tcgr_dump.py --summary "$tmp/a.tcgr#4" >"$tmp/m4" || { echo "format: tcgr_dump.py fails on an archive member"; fail=1; }
"$ARBITER" extract "$tmp/a.tcgr#4" -o "$tmp/m4.tcgr"
python3 replays/tcgr_dump.py --summary "$tmp/m4.tcgr" | cmp -s - "$tmp/m4" || { echo "format: archive member and extracted file read differently"; fail=1; }
# a range-coded single file cut inside its body: truncated, never "complete"
f=replays/golden/catalyst/v2/s1000-p2-random.tcgr
head -c $(( $(stat -c %s "$f") / 2 )) "$f" >"$tmp/half.tcgr"
python3 replays/tcgr_dump.py "$tmp/half.tcgr" >"$tmp/half.out" 2>&1 && { echo "format: a cut range-coded file reads as complete"; fail=1; }
grep -q "truncated after" "$tmp/half.out" || { echo "format: tcgr_dump.py does not report a cut range-coded body"; fail=1; }
py_n=$(sed -n 's/.*truncated after \([0-9]*\) complete records.*/\1/p' "$tmp/half.out" | head -n 1)
c_n=$("$ARBITER" verify "$tmp/half.tcgr" 2>&1 | sed -n 's/.* \([0-9]*\) complete record(s) read.*/\1/p' | head -n 1)
[ -n "$py_n" ] && [ "$py_n" -gt 0 ] && [ "$py_n" = "$c_n" ] ||
    { echo "format: a half range-coded file: tcgr_dump.py reads ${py_n:-no} complete records, arbiter ${c_n:-none}"; fail=1; }
head -c 700 "$tmp/a.tcgr" >"$tmp/cut.tcgr"
python3 replays/tcgr_dump.py "$tmp/cut.tcgr" >"$tmp/cut.out" 2>&1 && { echo "format: a cut archive reads as complete"; fail=1; }
grep -q "cut" "$tmp/cut.out" || { echo "format: tcgr_dump.py does not name the cut member"; fail=1; }
[ $fail -eq 0 ] && echo "format: FORMAT.md tables match the engines; tcgr_dump.py reads $n replays and an archive like arbiter"
exit $fail
