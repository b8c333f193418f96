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
command -v python3 >/dev/null || { echo "format: python3 missing: tcgr_dump.py not checked"; exit $fail; }
# §D.8's primer data: each block inflates to the bytes the table names
python3 - "$want" <<'PY' || fail=1
import base64, hashlib, re, sys, zlib
text = open('replays/FORMAT.md', encoding='utf-8').read()
bad = 0
for line in open(sys.argv[1]):
    m = re.match(r'\| (\d+) \| `([^`]+)` \| (\d+) \| `([0-9a-f]{64})` \|', line)
    if not m: continue
    pid, n, h = int(m.group(1)), int(m.group(3)), m.group(4)
    b = re.search(r'```primer-%d\n(.*?)```' % pid, text, re.S)
    raw = zlib.decompress(base64.b64decode(''.join(b.group(1).split()))) if b else b''
    if len(raw) != n or hashlib.blake2b(raw, digest_size=32).hexdigest() != h:
        print('format: FORMAT.md primer %d data is not the %d bytes of the table (BLAKE2b-256 %s)' % (pid, n, h)); bad = 1
sys.exit(bad)
PY
n=0
# v2/: range-coded bodies from the primers (FORMAT.md Part D); the first 6 of each v2-rc0/
# (range-coded from empty models); naramo's v2-zlib/: zlib bodies; naramo's v1 files
rc0=()
for d in replays/golden/*/v2-rc0; do mapfile -t -O ${#rc0[@]} rc0 < <(ls "$d"/*.tcgr | head -n 6); done
for f in replays/golden/*/v2/*.tcgr "${rc0[@]}" replays/golden/naramo/v2-zlib/*.tcgr replays/golden/naramo/*.tcgr; do
    [ -e "$f" ] || continue
    out=$(python3 replays/tcgr_dump.py --summary "$f") || { echo "format: tcgr_dump.py fails on $f: $out"; fail=1; continue; }
    exp=$("$ARBITER" info --json "$f" | python3 -c '
import json,sys
d=json.load(sys.stdin); h=d["header"] if "header" in d else d
o=d.get("outcome",{})
print(json.dumps([[p.get("deck",[]) for p in d.get("players",[])], o.get("winner"), o.get("reason"), d.get("actions")]))' 2>/dev/null)
    # one outcome-reason spelling (FORMAT.md §5.3): v1's power_orders is power-orders
    if [ "${out//_/-}" != "${exp//_/-}" ]; then echo "format: $f: tcgr_dump.py reads $out, arbiter info $exp"; fail=1; fi
    n=$((n + 1))
done
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
