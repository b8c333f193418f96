# flood.sh — bounded work by file size (issue #27 N3): a `00` byte is a
# valid version-2 action op, so a real header plus N zero bytes claims N
# actions. verify refuses such a file at record 1; log, state, report and
# diff used to walk every record (a 164-byte file gave a 14 MB log). Now
# each shows the file up to the first record verify refuses and no further
# (exit 1 naming the record and offset; report writes its page and exits 1),
# and every reader refuses the action past the game's bound (FORMAT.md
# §8.1). Output sizes are asserted in bytes, never time. Sourced by run.sh
# (expect(), $ARBITER, $root, $tmp, fail).
fl=$tmp/flood
mkdir -p "$fl"
# flood SRC N OUT [full] — OUT: SRC's header (or its whole content with
# "full") followed by N zero bytes, as an untimed zlib version-2 file.
flood() {
    python3 - "$root" "$@" <<'PY'
import sys, zlib
sys.path.insert(0, sys.argv[1] + '/replays')
import tcgr_dump as t
src, n, out = sys.argv[2], int(sys.argv[3]), sys.argv[4]
content = t.file_content(open(src, 'rb').read())
keep = len(content) if len(sys.argv) > 5 else t.unpack(content, 0)[1]
open(out, 'wb').write(b'TCGR\x02\x00\x00\x00' + zlib.compress(content[:keep] + b'\0' * n, 9))
PY
}
# bytes FILE MAX WHAT — FILE holds at most MAX bytes
bytes() {
    local sz
    sz=$(wc -c <"$1")
    [ "$sz" -le "$2" ] || { echo "hostile (#27 N3): $3: $sz bytes of output, more than $2"; fail=1; }
}
z=$root/replays/golden/naramo/v2-zlib/s1000-p2-random.tcgr
flood "$z" 1000000 "$fl/n1m.tcgr"
cp "$fl/n1m.tcgr" "$fl/n1m-b.tcgr"
bytes "$fl/n1m.tcgr" 2000 "the flood file itself"
expect 1 'n1m.tcgr: DIVERGES \(illegal-action\) at record 1' '' - verify "$fl/n1m.tcgr"
at='n1m.tcgr: record 1 \(decompressed offset [0-9]+\): NAR-SETUP-REVIEW-EACH: illegal-action: '
expect 1 "$at.*shown up to record 1, which .arbiter verify. refuses; nothing after it is read" '' - log "$fl/n1m.tcgr"
"$ARBITER" log "$fl/n1m.tcgr" >"$fl/log.out" 2>/dev/null
bytes "$fl/log.out" 4096 "log of a 1,000,000-record flood"
grep -q '^-- not shown past record #1, which `verify` refuses' "$fl/log.out" ||
    { echo "hostile (#27 N3): the log does not say where it stops"; fail=1; }
"$ARBITER" log --json "$fl/n1m.tcgr" >"$fl/log.json" 2>/dev/null
bytes "$fl/log.json" 8192 "log --json of the flood"
grep -q '"diverged":true,"divergence":"[^"]*n1m.tcgr: record 1 (decompressed offset' "$fl/log.json" ||
    { echo "hostile (#27 N3): log --json does not name the divergence"; fail=1; }
expect 1 "$at" '' - state --at last "$fl/n1m.tcgr"
"$ARBITER" state --at last --json "$fl/n1m.tcgr" >"$fl/state.json" 2>/dev/null
grep -q '"diverged": {' "$fl/state.json" || { echo "hostile (#27 N3): state of the last record shown lacks \"diverged\""; fail=1; }
expect 1 'record 5 is not shown: the replay diverges at record 1 and nothing after it is read' '' - \
    state --at 5 "$fl/n1m.tcgr"
# (state --at 0 reads the rest without the engine, as it does to find a
# cut: past the game's bound the file is corrupt, exit 3 naming the record)
expect 3 'record 66560 is action 66561: a naramo match holds at most 66560 actions' '' - state --at 0 "$fl/n1m.tcgr"
expect 1 "$at" '' - report "$fl/n1m.tcgr" -o "$fl/n1m.html"
bytes "$fl/n1m.html" 131072 "report of the flood"
grep -q 'id="diverged">record #1, the first the verifier refuses' "$fl/n1m.html" ||
    { echo "hostile (#27 N3): the report does not say where it stops"; fail=1; }
grep -q 'id="r2"' "$fl/n1m.html" && { echo "hostile (#27 N3): the report shows record 2"; fail=1; }
expect 1 'compared up to record 1, which .arbiter verify. refuses' 'identical' - diff "$fl/n1m.tcgr" "$fl/n1m-b.tcgr"
expect 0 '1 do not verify \(not counted\)' '' - stats "$fl/n1m.tcgr"
# ... a real match followed by the flood: shown to its outcome, then one
# record more (the first after the outcome), and no further
flood "$z" 1000000 "$fl/tail.tcgr" full
last=$("$ARBITER" verify --json "$z" | sed -n 's/.*"records":\([0-9]*\).*/\1/p')
expect 1 "tail.tcgr: record $last \\(decompressed offset [0-9]+\\): after-outcome: a record follows the outcome" '' - \
    log "$fl/tail.tcgr"
"$ARBITER" log "$fl/tail.tcgr" >"$fl/tail.out" 2>/dev/null
"$ARBITER" log "$z" >"$fl/real.out" 2>/dev/null
bytes "$fl/tail.out" $(($(wc -c <"$fl/real.out") + 512)) "log of a real match plus a flood"
# ... the game's bound: a reader that walks records without the engine
# (info) stops at the action past it (naramo: 66560), and so does every
# file past its bound, whatever the engine would say
expect 3 'record 66560 is action 66561: a naramo match holds at most 66560 actions \(the game.s bound' '' - \
    info "$fl/n1m.tcgr"
flood "$z" 66560 "$fl/at-bound.tcgr"
expect 0 '' 'holds at most' - info "$fl/at-bound.tcgr"
# No replay of the corpus comes near its game's bound.
"$ARBITER" games --json | tr '{' '\n' | sed -n 's/^"id":"\([a-z]*\)".*"max_actions":\([0-9]*\).*/\1 \2/p' >"$fl/bounds"
[ "$(wc -l <"$fl/bounds")" -ge 4 ] || { echo "hostile (#27 N3): games --json names no max_actions"; fail=1; }
"$ARBITER" verify --json -j2 "$root/replays" | sed -n 's/.*"game":"\([a-z]*\)".*"actions":\([0-9]*\).*/\1 \2/p' >"$fl/corpus"
while read -r g max; do
    most=$(awk -v g="$g" '$1 == g && $2 > m { m = $2 } END { print m + 0 }' "$fl/corpus")
    [ "$most" -gt 0 ] && [ $((most * 20)) -lt "$max" ] ||
        { echo "hostile (#27 N3): $g: the corpus's longest match has $most actions, bound $max"; fail=1; }
done <"$fl/bounds"
