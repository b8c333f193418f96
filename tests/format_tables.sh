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
command -v python3 >/dev/null || { echo "format: python3 missing: tcgr_dump.py not checked"; exit $fail; }
n=0
for f in replays/golden/*/v2/*.tcgr replays/golden/naramo/*.tcgr; do
    [ -e "$f" ] || continue
    out=$(python3 replays/tcgr_dump.py --summary "$f") || { echo "format: tcgr_dump.py fails on $f: $out"; fail=1; continue; }
    exp=$("$ARBITER" info --json "$f" | python3 -c '
import json,sys
d=json.load(sys.stdin); h=d["header"] if "header" in d else d
o=d.get("outcome",{})
print(json.dumps([[p.get("deck",[]) for p in d.get("players",[])], o.get("winner"), o.get("reason"), d.get("actions")]))' 2>/dev/null)
    # v1 naramo files say deck_out / power_orders; arbiter reads the one spelling (deck-out).
    out=$(python3 -c 'import json,sys; v=json.loads(sys.argv[1]); v[2]=v[2].replace("_","-") if isinstance(v[2],str) else v[2]; print(json.dumps(v))' "$out")
    if [ "$out" != "$exp" ]; then echo "format: $f: tcgr_dump.py reads $out, arbiter info $exp"; fail=1; fi
    n=$((n + 1))
done
SOURCE_DATE_EPOCH=1764000000 "$ARBITER" play --game naramo --games 6 --seed 9 --archive -o "$tmp/a.tcgr" >/dev/null
python3 replays/tcgr_dump.py --summary "$tmp/a.tcgr#4" >"$tmp/m4" || { echo "format: tcgr_dump.py fails on an archive member"; fail=1; }
"$ARBITER" extract "$tmp/a.tcgr#4" -o "$tmp/m4.tcgr"
python3 replays/tcgr_dump.py --summary "$tmp/m4.tcgr" | cmp -s - "$tmp/m4" || { echo "format: archive member and extracted file read differently"; fail=1; }
head -c 700 "$tmp/a.tcgr" >"$tmp/cut.tcgr"
python3 replays/tcgr_dump.py "$tmp/cut.tcgr" >"$tmp/cut.out" 2>&1 && { echo "format: a cut archive reads as complete"; fail=1; }
grep -q "cut" "$tmp/cut.out" || { echo "format: tcgr_dump.py does not name the cut member"; fail=1; }
[ $fail -eq 0 ] && echo "format: FORMAT.md tables match the engines; tcgr_dump.py reads $n replays and an archive like arbiter"
exit $fail
