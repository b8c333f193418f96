# round3.sh — the verdict and reader findings of issue #27 (hostile input,
# round 3), one named case each (sourced by run.sh after round2.sh, whose
# expect CODE PATTERN ANTIPATTERN STDIN ARGS… it uses; $ARBITER, $here, $tmp,
# $asan and the fail/n counters come from run.sh).
r3=$tmp/r3
mkdir -p "$r3"
# flip FILE OFFSET XOR OUT — OUT is FILE with byte OFFSET xor'ed with XOR.
flip() {
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    { head -c "$2" "$1"; printf "\\$(printf %03o $((b ^ $3)))"; tail -c +$(($2 + 2)) "$1"; } >"$4"
}
"$ARBITER" keygen -o "$r3/k.key" --label r3 >/dev/null
pub=$r3/k.key.pub
"$ARBITER" play --game naramo --seed 1 --agents greedy --sign "$r3/k.key" -o "$r3/s.tcgr" >/dev/null
"$ARBITER" play --game naramo --games 3 --seed 1 --agents greedy --archive --sign "$r3/k.key" -o "$r3/a.tcgr" >/dev/null

# --- N1 a verdict counts matches. The archive flag of a signed single file
# (byte 5, bit 1) made it "an archive of 0 complete members", exit 0: now the
# file is refused as a single match whose flags say archive, alone, in a
# directory and as NDJSON; so is a zlib file (its body follows the envelope).
flip "$r3/s.tcgr" 5 2 "$r3/n1-flag.tcgr"
expect 3 'n1-flag.tcgr: offset 5: the flags byte says archive, but .*a single-match replay whose flags were changed' \
    ': OK|archive of 0' - verify --key "$pub" "$r3/n1-flag.tcgr"
mkdir -p "$r3/n1dir" && cp "$r3/n1-flag.tcgr" "$r3/n1dir/"
expect 3 'n1-flag.tcgr: UNREADABLE' '' - verify --key "$pub" --quiet "$r3/n1dir"
expect 3 '"status":"unreadable","ok":false' '"members":0' - verify --json --key "$pub" "$r3/n1-flag.tcgr"
flip "$root/replays/golden/naramo/v2-zlib/s1000-p2-random.tcgr" 5 2 "$r3/n1-zflag.tcgr"
expect 3 'n1-zflag.tcgr: offset 8: the flags byte says archive, but no member or index frame follows' '' - \
    verify "$r3/n1-zflag.tcgr"
# ... an archive envelope alone holds no match: "no match", exit 1
head -c 8 "$r3/a.tcgr" >"$r3/n1-empty.tcgr"
expect 1 'n1-empty.tcgr: NO MATCH: .*no match: the archive holds no complete member' '' - verify "$r3/n1-empty.tcgr"
expect 1 '"status":"no match".*"ok":false' '' - verify --json "$r3/n1-empty.tcgr"
# ... garbage after the trailer, after the members of an index-less archive,
# or an impossible frame header: the bytes nobody read fail the file (exit 3)
{ cat "$r3/a.tcgr"; printf 'garbage'; } >"$r3/n1-tail.tcgr"
expect 3 'n1-tail.tcgr: CORRUPT: .*byte\(s\) from here to the end of the file are neither a member frame nor a valid index' \
    '' - verify --key "$pub" "$r3/n1-tail.tcgr"
ioff=$(od -An -tu4 -j $(($(wc -c <"$r3/a.tcgr") - 16)) -N4 "$r3/a.tcgr" | tr -d ' ')
{ head -c "$ioff" "$r3/a.tcgr"; printf 'M\377\377\377\377\377\377\377\377\377\377\001'; } >"$r3/n1-frame.tcgr"
expect 3 "n1-frame.tcgr: offset $ioff: 12 byte\\(s\\) from here" '' - verify --key "$pub" "$r3/n1-frame.tcgr"
# ... and the archive envelope itself, which no seal covers, is exact
flip "$r3/a.tcgr" 7 1 "$r3/n1-env7.tcgr"
expect 3 'n1-env7.tcgr: offset 7: an archive.s envelope is exactly TCGR 02 02 00 00' '' - verify --key "$pub" "$r3/n1-env7.tcgr"

# --- N2 appends never lose a match. Member 2's 'M' byte changed, in an
# archive without its index (a .part) and with it: verify names the unread
# bytes (it used to say "2 members", exit 0); record --archive refuses to
# append (it used to truncate 363 → 337 bytes, destroying members 2 and 3)
# and leaves the file byte for byte as it was; `archive repair` writes a
# new archive of what verifies and names what it leaves.
"$ARBITER" play --game naramo --games 4 --seed 1 --agents greedy --archive --sign "$r3/k.key" -o "$r3/a4.tcgr" >/dev/null
sz=$(wc -c <"$r3/a4.tcgr")
ioff=$(od -An -tu4 -j $((sz - 16)) -N4 "$r3/a4.tcgr" | tr -d ' ')
m2=$("$ARBITER" info --json "$r3/a4.tcgr" | tr '{' '\n' | sed -n 's/^"member":2,"offset":\([0-9]*\).*/\1/p')
head -c "$ioff" "$r3/a4.tcgr" >"$r3/a4-part.tcgr"
flip "$r3/a4-part.tcgr" "$m2" 1 "$r3/n2-part.tcgr"
flip "$r3/a4.tcgr" "$m2" 1 "$r3/n2-index.tcgr"
for f in n2-part n2-index; do
    cp "$r3/$f.tcgr" "$r3/$f.orig"
    expect 3 "$f.tcgr: CORRUPT: .*offset $m2" '' - verify --key "$pub" "$r3/$f.tcgr"
    printf '0 keep\n' >"$r3/keep.txt"
    expect 3 "$f.tcgr: offset $m2: cannot append: .*would destroy them, so nothing was written \(.arbiter archive repair. copies" '' \
        "$r3/keep.txt" record --game naramo --seed 1 --archive -o "$r3/$f.tcgr"
    if ! cmp -s "$r3/$f.tcgr" "$r3/$f.orig"; then echo "hostile (#27): N2: record --archive changed $f.tcgr"; fail=1; fi
    expect 0 "dropped the bytes from offset $m2 to the end.*2 of 2 complete member\\(s\\) kept in .*$f-fixed.tcgr" '' - \
        archive repair "$r3/$f.tcgr" -o "$r3/$f-fixed.tcgr"
    expect 0 "$f-fixed.tcgr: archive of 2 complete member\\(s\\); index ok.*#1: OK.*signed by" 'DIVERGES|CORRUPT' - \
        verify --key "$pub" "$r3/$f-fixed.tcgr"
done
expect 2 'exists: repair writes a new file' '' - archive repair "$r3/n2-part.tcgr" -o "$r3/n2-part-fixed.tcgr"
expect 1 'no member reads and verifies' '' - archive repair "$r3/n1-empty.tcgr" -o "$r3/n2-none.tcgr"

# --- N11/N12 cut files: state --at 2 of a truncated file said "truncated":
# false, exit 0; stats counted the cut file in the win-rate denominators.
"$ARBITER" play --game naramo --seed 3 --agents greedy -o "$r3/g.tcgr" >/dev/null
sz=$(wc -c <"$r3/g.tcgr")
head -c $((sz * 2 / 3)) "$r3/g.tcgr" >"$r3/n11-cut.tcgr"
expect 3 'state: .*n11-cut.tcgr: truncated replay.*"truncated": true' '"truncated": false' - state "$r3/n11-cut.tcgr" --at 2 --json
expect 3 'state: .*truncated replay.*after record #2' '' - state "$r3/n11-cut.tcgr" --at 2
expect 3 'stats: .*n11-cut.tcgr: offset [0-9]+: truncated: .*not counted.*2 matches, 1 finished.*win rate by seat:  P1 [0-9.]+% \([01]/1\)  P2 [0-9.]+% \([01]/1\)' \
    '\([0-9]/2\)' - stats "$r3/n11-cut.tcgr" "$r3/g.tcgr"
