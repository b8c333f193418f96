#!/usr/bin/env bash
# organizer.sh — the organizer's day (issue #32), run by `make
# check-organizer` (part of `make check`): a day of matches recorded into
# files, packed into an archive and unpacked again, losslessly (pack →
# unpack → pack gives the same bytes, seals kept and still valid); the
# archive where a file goes (stats of it and of `verify --json` of it,
# merge of a sharded manifest holding it, the result lines' schema and
# closing summary); and the refusals that keep a pack from losing a match
# (format 1, a corrupt or cut input: nothing written). $ARBITER is the CLI.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ARBITER=${ARBITER:-build/arbiter}
case $ARBITER in /*) ;; *) ARBITER="$root/$ARBITER" ;; esac
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0 n=0

# expect CODE PATTERN ARGS... — arbiter ARGS exits CODE and prints PATTERN
# (grep -E over stdout and stderr together, newlines included).
expect() {
    local code=$1 pat=$2 out rc
    shift 2
    n=$((n + 1))
    out=$(cd "$t" && timeout 120 "$ARBITER" "$@" 2>&1 </dev/null)
    rc=$?
    if [ $rc -ne "$code" ] || ! grep -Ezq -- "$pat" <<<"$out"; then
        echo "organizer: arbiter $*: expected exit $code and /$pat/, got exit $rc:"
        head -c 800 <<<"$out" | sed 's/^/    /'
        fail=1
    fi
}
same() { cmp -s "$t/$1" "$t/$2" || { echo "organizer: $1 and $2 differ"; fail=1; }; }

# A day in two games, one match signed.
expect 0 '' play --game naramo --games 6 --seed 40 -o day
expect 0 '' play --game catalyst --games 3 --seed 7 -o day
expect 0 '' keygen -o k
expect 0 'sealed by' sign --key k day/naramo-000002.tcgr

# --- pack: every file, in path order, each member verifying as its file
expect 0 'day/catalyst-000000.tcgr: [0-9]+ actions.*packed 9 matches \([0-9]+ actions\) into day.tcgr' \
    pack day -o day.tcgr
expect 0 'archive of 9 complete member\(s\); index ok' verify day.tcgr
expect 0 'day.tcgr#5: OK: .*signed by [0-9a-f]{16}' verify --key k.pub day.tcgr#5
expect 1 'day.tcgr#0: DIVERGES \(signature\)' verify --key k.pub day.tcgr
# the same verdict line for the member as for its file, seal included
v_file=$(cd "$t" && "$ARBITER" verify day/naramo-000002.tcgr | sed 's/^[^:]*: //')
v_mem=$(cd "$t" && "$ARBITER" verify day.tcgr#5 | sed 's/^[^:]*: //')
[ -n "$v_file" ] && [ "$v_file" = "$v_mem" ] || { echo "organizer: member and file verdicts differ: '$v_file' / '$v_mem'"; fail=1; }

# --- unpack, and pack again: the same archive, byte for byte
expect 0 'day.tcgr#8 -> out/0008.tcgr.*unpacked 9 of 9 members of day.tcgr into out' unpack day.tcgr -o out
expect 0 'out/0005.tcgr: OK: .*signed by' verify --key k.pub out/0005.tcgr
expect 0 'packed 9 matches' pack -q out -o again.tcgr
same day.tcgr again.tcgr
# an archive given to pack contributes its members (a day from two halves)
expect 0 'packed 4 matches' pack -q out/0000.tcgr out/0001.tcgr out/0002.tcgr out/0003.tcgr -o h1.tcgr
expect 0 'packed 5 matches' pack -q out/0004.tcgr out/0005.tcgr out/0006.tcgr out/0007.tcgr out/0008.tcgr -o h2.tcgr
expect 0 'h1.tcgr#3: [0-9]+ actions.*packed 9 matches' pack h1.tcgr h2.tcgr -o joined.tcgr
same day.tcgr joined.tcgr

# --- the archive everywhere a file goes: stats of the archive, of verify
# --json of it (its archive line is no match), merge of a sharded manifest
# holding it; the same figures as stats of the files
expect 0 '9 replays, 0 unreadable.*CATALYST \(catalyst\): 3 matches.*NARAMO TCG \(naramo\): 6 matches, 6 finished' stats day.tcgr
(cd "$t" && "$ARBITER" stats day | sed 1d >stats-files.txt && "$ARBITER" stats day.tcgr | sed 1d >stats-archive.txt)
same stats-files.txt stats-archive.txt
(cd "$t" && "$ARBITER" verify --json day.tcgr >day.ndjson)
expect 0 '"kind":"archive","status":"ok"' verify --json day.tcgr
expect 0 '"file":"day.tcgr#8","member":8,.*\{"summary":\{"schema":"arbiter-results-1","command":"verify","matches":9,"ok":9,"failed":0\}\}' \
    verify --json day.tcgr
expect 0 '9 replays, 0 unreadable.*NARAMO TCG \(naramo\): 6 matches.*\(6 counted from verification results' stats day.ndjson
expect 0 'first player wins: not known \(no replay read\)' stats day.ndjson
# a plain verify --json run is whole when its closing summary counts the
# matches before it; cut short, tampered or run on, it is incomplete
expect 0 '9 results, 9 ok, 0 failed.*merge: complete, all verified' merge day.ndjson
(cd "$t" && head -n -1 day.ndjson >day-cut.ndjson && sed 's/"matches":9,/"matches":8,/' day.ndjson >day-8.ndjson &&
    cat day.ndjson day.ndjson >day-twice.ndjson)
expect 3 'no shard_done or closing summary line.*merge: INCOMPLETE' merge day-cut.ndjson
expect 3 'day-8.ndjson:11: the closing summary counts 8 matches, the input holds 9.*merge: INCOMPLETE' merge day-8.ndjson
expect 3 'day-twice.ndjson:12: a line after the closing summary.*merge: INCOMPLETE' merge day-twice.ndjson
expect 0 'verify: 9 matches, 9 verified, 0 failed' verify day.tcgr
expect 0 '' play --game naramo --seed 99 -o extra.tcgr
printf 'day.tcgr\nextra.tcgr\n' >"$t/m.txt"
(cd "$t" && "$ARBITER" verify --manifest m.txt --shard 0/2 --json >s0.ndjson && "$ARBITER" verify --manifest m.txt --shard 1/2 --json >s1.ndjson)
expect 0 '10 results, 10 ok, 0 failed.*manifest entries: 2 expected, 2 reported.*merge: complete, all verified' merge s0.ndjson s1.ndjson
expect 0 '"file":"day.tcgr#3","member":3,"index":0,"shard":"0/2"' verify --manifest m.txt --shard 0/2 --json
# a match that is both a file and a member of the archive is one match:
# the later one fails as a duplicate (#27 N6), in merge too
printf 'day.tcgr\nday/naramo-000000.tcgr\n' >"$t/md.txt"
(cd "$t" && "$ARBITER" verify --manifest md.txt --shard 0/1 --json >d0.ndjson)
expect 1 'FAILED day/naramo-000000.tcgr: duplicate: the same match \(setup and actions\) as day.tcgr#3' merge d0.ndjson
# a cut archive: its complete members count, the cut is named, exit 3
head -c 500 "$t/day.tcgr" >"$t/cut.tcgr"
expect 3 'stats: .*cut.tcgr: offset [0-9]+: truncated: member [0-9]+ is cut short.*: not counted' stats cut.tcgr

# --jobs: the same figures and the same selection, in the same order
(cd "$t" && "$ARBITER" stats -j 2 day day.tcgr >stats-j2.txt && "$ARBITER" stats day day.tcgr >stats-j1.txt)
same stats-j1.txt stats-j2.txt
(cd "$t" && "$ARBITER" select -j 2 --winner P2 day day.tcgr >sel-j2.txt && "$ARBITER" select --winner P2 day day.tcgr >sel-j1.txt)
same sel-j1.txt sel-j2.txt

# --- the engine named for a format-2 file (which leaves it out); a v1
# header's engine as recorded
expect 0 'rules naramo-2, engine not recorded \(this build.s: naramo-engine-1\.0\)' info day/naramo-000001.tcgr
expect 0 '"engine":"","engine_here":"catalyst-engine-1\.0\.0"' info --json day.tcgr#0
v1=$(find "$root/replays/golden/operator" -name '*.tcgr' | head -n 200 | while read -r f; do
    "$ARBITER" info "$f" | grep -q 'format: *tcgr-1' && { echo "$f"; break; }; done)
expect 0 'rules ops-1, engine 1\.0\.0
rng' info "$v1"

# --- diff between members and files
expect 0 'identical: day.tcgr#5 and day/naramo-000002.tcgr' diff day.tcgr#5 day/naramo-000002.tcgr
expect 1 'first difference: header' diff day.tcgr#5 day.tcgr#6

# --- report of an archive: a page per member and an index whose links
# open them; report DIR with an archive inside names its members' pages
expect 0 '9 pages in pages, listed in pages/index.html' report day.tcgr -o pages
[ "$(ls "$t/pages" | wc -l)" = 10 ] && [ -f "$t/pages/day.tcgr%235.html" ] ||
    { echo "organizer: report day.tcgr wrote $(ls "$t/pages" | tr '\n' ' ')"; fail=1; }
[ "$(grep -c '<td><b>VERIFIED</b>' "$t/pages/index.html")" = 9 ] || { echo "organizer: the index does not list 9 verified matches"; fail=1; }
for h in $(grep -o 'href="[^"]*"' "$t/pages/index.html" | sed 's/href="\(.*\)"/\1/'); do
    f=$(printf '%b' "${h//%/\\x}")  # the URL decoded: the page's file name
    [ -f "$t/pages/$f" ] || { echo "organizer: the index links $h, no such page"; fail=1; }
done
grep -q 'day.tcgr#5' "$t/pages/day.tcgr%235.html" || { echo "organizer: member 5's page does not name day.tcgr#5"; fail=1; }
mkdir -p "$t/mixed"
cp "$t/day.tcgr" "$t/mixed/"
cp "$root/tests/hostile/replay-trailing-record.tcgr" "$t/mixed/div.tcgr"
expect 1 '10 pages in mpages' report mixed -o mpages
[ -f "$t/mpages/day.tcgr%233.html" ] && grep -q 'div.tcgr</bdi></a></td><td><b>DOES NOT VERIFY</b>' "$t/mpages/index.html" ||
    { echo "organizer: report DIR of an archive and a diverging file: $(ls "$t/mpages" | head -3 | tr '\n' ' ')"; fail=1; }
expect 2 'an archive needs -o OUTDIR' report day.tcgr -o -

# --- select: each criterion against an answer read another way (verify
# --json, info --json, stats --json of one file)
(cd "$t" && "$ARBITER" verify --json day >v.ndjson)
count() { grep -c -- "$1" "$t/v.ndjson"; }
nsel() { (cd "$t" && "$ARBITER" select --paths "$@" | wc -l); }
check_n() { local want=$1; shift; local got; got=$(nsel "$@");
    [ "$got" = "$want" ] || { echo "organizer: select $*: $got matches, expected $want"; fail=1; }; }
check_n 3 --game catalyst day
check_n 6 --game naramo --players 2 day.tcgr
check_n "$(count '"winner":0')" --winner P1 day
check_n "$(count '"winner":1')" --winner 1 day.tcgr
check_n 0 --winner draw day
check_n 9 --player P2 day
check_n 0 --player nobody day
check_n "$(count '"reason":"power-orders"')" --reason power-orders day
t0=$(sed -n 's/.*"turns":\([0-9]*\).*/\1/p' "$t/v.ndjson" | sort -n | sed -n 5p)
check_n "$(sed -n 's/.*"turns":\([0-9]*\).*/\1/p' "$t/v.ndjson" | awk -v m="$t0" '$1 >= m' | wc -l)" --min-turns "$t0" day
check_n "$(sed -n 's/.*"actions":\([0-9]*\).*/\1/p' "$t/v.ndjson" | awk '$1 <= 50' | wc -l)" --max-actions 50 day
# cards: held = in a deck list (info --json), played ⊂ held; a card the
# one file's stats lists as played selects that file
card=$(cd "$t" && "$ARBITER" stats --json day/naramo-000000.tcgr | sed -n 's/.*"top_cards":\[{"card":"\([^"]*\)".*/\1/p')
holders=$(cd "$t" && for f in day/*.tcgr; do "$ARBITER" info --json "$f" | grep -q "\"$card\"" && echo "$f"; done)
[ "$(cd "$t" && "$ARBITER" select --paths --holds "$card" day)" = "$holders" ] ||
    { echo "organizer: select --holds $card differs from the deck lists"; fail=1; }
played=$(cd "$t" && "$ARBITER" select --paths --played "$card" day)
grep -qx 'day/naramo-000000.tcgr' <<<"$played" || { echo "organizer: select --played $card misses naramo-000000"; fail=1; }
[ -z "$(comm -23 <(sort <<<"$played") <(sort <<<"$holders"))" ] || { echo "organizer: a played $card is held by nobody"; fail=1; }
# signer and verification; the selection as an archive and as files
kid=$(cd "$t" && "$ARBITER" verify day/naramo-000002.tcgr | sed -n 's/.*signed by key \([0-9a-f]*\).*/\1/p')
check_n 2 --signer "$kid" day day.tcgr
check_n 9 --verified day
check_n 0 --unverified day
# duplicates: the archive repeats every file of the day (same setup and
# actions), the files alone repeat nothing
check_n 9 --duplicates day day.tcgr
check_n 0 --duplicates day
expect 0 'day.tcgr#5: naramo.*duplicate \(match\): the same match \(setup and actions\) as day/naramo-000002.tcgr' \
    select --duplicates day day.tcgr
expect 0 'day.tcgr#5: naramo.*verified.*select: 1 of 9 matches selected, written to the archive' \
    select --verified --signer "$kid" day.tcgr -o signed.tcgr
expect 0 'signed.tcgr#0: OK: .*signed by' verify --key k.pub signed.tcgr
expect 0 'select: 6 of 18 matches selected' select --game catalyst day out --files picked
[ "$(cd "$t/picked" && ls | tr '\n' ' ')" = "day%2Fcatalyst-000000.tcgr day%2Fcatalyst-000001.tcgr day%2Fcatalyst-000002.tcgr out%2F0000.tcgr out%2F0001.tcgr out%2F0002.tcgr " ] ||
    { echo "organizer: select --files wrote: $(ls "$t/picked" | tr '\n' ' ')"; fail=1; }
same day/catalyst-000001.tcgr picked/day%2Fcatalyst-000001.tcgr
expect 0 'picked/out%2F0002.tcgr: OK' verify picked/out%2F0002.tcgr
expect 0 '"command":"select","matches":9,"selected":3,"unreadable":0' select --json --game catalyst day.tcgr
expect 2 "no card of naramo is called 'nosuch'" select --game naramo --played nosuch day
# unreadable input is named and the walk goes on (exit 3)
printf 'not a replay' >"$t/junk.tcgr"
expect 3 'UNREADABLE: junk.tcgr: offset 0: not a .tcgr replay.*select: 3 of 10 matches selected, some unreadable' \
    select --game catalyst junk.tcgr day.tcgr

# --- '-' for stdin and stdout: every command that reads a replay, an
# archive or results takes '-', every one that writes one takes '-o -'
# (its own lines then go to stderr); messages name stdin '-'
pipe() { (cd "$t" && eval "$1") 2>&1; }
want() { grep -Eq -- "$2" <<<"$(pipe "$1")" || { echo "organizer: $1: no /$2/ in: $(pipe "$1" | head -c 300)"; fail=1; }; }
want "cat day.tcgr | '$ARBITER' verify -" '^-#8: OK: '
want "cat day.tcgr | '$ARBITER' verify -" '^verify: 9 matches, 9 verified, 0 failed'
want "cat day/naramo-000001.tcgr | '$ARBITER' info -" '^file: +-$'
want "cat day/naramo-000001.tcgr | '$ARBITER' log - --to 1" '^-: NARAMO TCG'
want "cat day/naramo-000001.tcgr | '$ARBITER' state - --at 2" '^-: after record #2'
want "cat day/naramo-000001.tcgr | '$ARBITER' diff - day/naramo-000001.tcgr" '^identical: - and day/naramo-000001.tcgr'
want "cat day/naramo-000001.tcgr | '$ARBITER' report - -o - | head -c 15" '^<!DOCTYPE html>'
want "cat day.tcgr | '$ARBITER' stats -" '^9 replays, 0 unreadable'
want "cat day.ndjson | '$ARBITER' stats -" '6 counted from verification results'
want "cat s0.ndjson | '$ARBITER' merge - s1.ndjson" 'merge: complete, all verified'
want "cat day.tcgr | '$ARBITER' select --game catalyst -" '^-#2: catalyst'
want "cat day.tcgr | '$ARBITER' select --game catalyst -" '^select: 3 of 9 matches selected'
want "cat day.tcgr | '$ARBITER' unpack - -o piped" 'unpacked 9 of 9 members of - into piped'
want "cat day.tcgr | '$ARBITER' archive repair - -o repaired.tcgr" '^-: 9 of 9 complete member\(s\) kept in repaired.tcgr'
want "printf 'junk' | '$ARBITER' verify -" '^-: UNREADABLE: -: offset 0: not a .tcgr replay'
want "'$ARBITER' play --game naramo --seed 3 -o - 2>/dev/null | '$ARBITER' verify -" '^-: OK: '
want "'$ARBITER' play --game naramo --seed 3 -o - 2>&1 >/dev/null" '^-: naramo seed 3, '
(cd "$t" && "$ARBITER" play --game naramo --seed 3 -o - 2>/dev/null >p3-pipe.tcgr && "$ARBITER" play --game naramo --seed 3 -o p3.tcgr >/dev/null)
same p3.tcgr p3-pipe.tcgr
want "printf '0 keep\\n' | '$ARBITER' record --game naramo --seed 1 -o - 2>/dev/null | '$ARBITER' verify --unfinished -" \
    '^-: CONSISTENT, NOT FINISHED: 1 actions'
want "'$ARBITER' pack day -o - 2>/dev/null | '$ARBITER' verify -" 'verify: 9 matches, 9 verified, 0 failed'
(cd "$t" && "$ARBITER" pack day -o - 2>/dev/null >packed-pipe.tcgr)
same day.tcgr packed-pipe.tcgr
want "'$ARBITER' select --game catalyst day -o - 2>/dev/null | '$ARBITER' info -" '^members: +3$'
want "'$ARBITER' extract day.tcgr#5 -o - 2>/dev/null | '$ARBITER' verify -" '^-: OK: .*signed by key'
want "'$ARBITER' archive repair day.tcgr -o - 2>/dev/null | '$ARBITER' info -" '^members: +9$'
want "'$ARBITER' merge s0.ndjson s1.ndjson -o - 2>/dev/null | '$ARBITER' stats -" 'NARAMO TCG \(naramo\): 7 matches'

# --- play --games -j N: the same files, archive and lines as one thread
for j in 1 3; do
    mkdir -p "$t/j$j"
    (cd "$t/j$j" && export SOURCE_DATE_EPOCH=1700000000 &&
        "$ARBITER" play --game operator --games 12 --seed 5 --json -o d -j $j >d.out 2>&1 &&
        "$ARBITER" play --game brainstorm --games 9 --seed 5 --timed -o d --jobs $j >>d.out 2>&1 &&
        "$ARBITER" play --game naramo --games 40 --seed 5 --archive -o a.tcgr -j $j >a.out 2>&1) ||
        { echo "organizer: play --games -j $j failed"; fail=1; }
done
for f in d.out a.out a.tcgr $(cd "$t/j1" && ls -d d/*); do same "j1/$f" "j3/$f"; done
[ "$(ls "$t/j1/d" | wc -l)" = 21 ] || { echo "organizer: play --games wrote $(ls "$t/j1/d" | wc -l) files, not 21"; fail=1; }
# report DIR -j N: the same pages, index and messages as one thread (an
# archive, a cut copy and an unreadable file among them)
cp "$t/j1/a.tcgr" "$t/j1/d/day.tcgr" && head -c 900 "$t/j1/a.tcgr" >"$t/j1/d/cut.tcgr" &&
    printf 'TCGR\2\4\1\0garbage' >"$t/j1/d/bad.tcgr"
for j in 1 3; do (cd "$t/j1" && "$ARBITER" report d -o r$j -j $j >r$j.out 2>&1; echo "exit $?" >>r$j.out); done
sed -i 's/r1/rN/g' "$t/j1/r1.out" "$t/j1/r1/index.html"; sed -i 's/r3/rN/g' "$t/j1/r3.out" "$t/j1/r3/index.html"
grep -q '^exit 3$' "$t/j1/r1.out" || { echo "organizer: report d (a cut archive, a bad file) did not exit 3"; fail=1; }
diff -r "$t/j1/r1" "$t/j1/r3" >/dev/null || { echo "organizer: report -j 3 pages differ from -j 1"; fail=1; }
same j1/r1.out j1/r3.out
[ "$(ls "$t/j1/r1" | wc -l)" -gt 60 ] || { echo "organizer: report d wrote $(ls "$t/j1/r1" | wc -l) pages"; fail=1; }
expect 2 "--jobs '0' is not 1..256" play --game naramo --games 2 --seed 1 -o pj0 -j 0

# --- refusals: nothing is written, nothing is lost
expect 3 'offset 4: a format-1 replay cannot be an archive member.*x.tcgr not written' \
    pack "$root/replays/golden/naramo/s1000-p2-random.tcgr" -o x.tcgr
cp "$t/out/0001.tcgr" "$t/bad.tcgr"
printf '\x55' | dd of="$t/bad.tcgr" bs=1 seek=40 conv=notrunc status=none
expect 3 'bad.tcgr: offset [0-9]+: .*x.tcgr not written' pack out/0000.tcgr bad.tcgr -o x.tcgr
expect 3 'cut.tcgr: not every byte of it is a complete member.*x.tcgr not written' pack cut.tcgr -o x.tcgr
[ ! -e "$t/x.tcgr" ] && [ ! -e "$t/x.tcgr.part" ] || { echo "organizer: a refused pack left x.tcgr or x.tcgr.part"; fail=1; }
expect 3 'out: the directory is not empty' unpack day.tcgr -o out
expect 3 'offset 4: a single-match replay, not an archive' unpack out/0000.tcgr -o y
expect 2 '-o DIR is required' unpack day.tcgr
expect 2 '-o OUT is required' pack day

[ $fail -eq 0 ] && echo "organizer: $n commands: pack, unpack, stats and merge over archives, refusals: ok"
exit $fail
