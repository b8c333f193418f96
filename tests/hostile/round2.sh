# round2.sh — the findings of issue #20 (hostile input, round 2), each one a
# case here (sourced by run.sh, which provides $ARBITER, $here, $tmp, $asan
# and the fail/n counters). Every case runs under the same memory limit and
# a timeout: a hang or a quadratic blow-up fails like a wrong exit code.
#
# expect CODE PATTERN ANTIPATTERN STDIN ARGS... — run arbiter ARGS with STDIN
# (a file, or - for /dev/null); the exit must be CODE, stdout+stderr must
# match PATTERN (grep -E, across lines) and must not match ANTIPATTERN
# (grep -E; '' for none).
expect() {
    local code=$1 pat=$2 anti=$3 in=$4 out rc
    shift 4
    [ "$in" = - ] && in=/dev/null
    n=$((n + 1))
    if [ $asan -eq 1 ]; then
        out=$(cd "$here" && timeout 60 "$ARBITER" "$@" 2>&1 <"$in")
    else
        out=$(cd "$here" && ulimit -v 262144 && timeout 60 "$ARBITER" "$@" 2>&1 <"$in")
    fi
    rc=$?
    if [ $rc -ne "$code" ] || ! grep -Ezq -- "$pat" <<<"$out" || { [ -n "$anti" ] && grep -Eq -- "$anti" <<<"$out"; }; then
        echo "hostile (#20): arbiter $*: expected exit $code, /$pat/${anti:+ and not /$anti/}, got exit $rc:"
        head -c 800 <<<"$out" | sed 's/^/    /'
        fail=1
    fi
}
ESC=$(printf '\033')
r2=$tmp/r2
mkdir -p "$r2"

# --- F1 record: a line of exactly 4096 bytes is read (it used to be "too
# long" and the next line was swallowed), and so is 4095 bytes + CRLF; a
# 4097-byte line is rejected whole and the next line is read normally.
{ printf '# '; head -c 4094 /dev/zero | tr '\0' x; printf '\n0 keep\n'; } >"$r2/l4096.txt"
{ printf '# '; head -c 4093 /dev/zero | tr '\0' x; printf '\r\n0 keep\r\n'; } >"$r2/l4095crlf.txt"
{ printf '# '; head -c 4095 /dev/zero | tr '\0' x; printf '\n0 keep\n'; } >"$r2/l4097.txt"
expect 3 'ok 0: P1 keep' 'longer than|error:' "$r2/l4096.txt" record --game naramo --seed 1 -o "$r2/a.tcgr"
expect 3 'ok 0: P1 keep' 'longer than|error:' "$r2/l4095crlf.txt" record --game naramo --seed 1 -o "$r2/a.tcgr"
expect 3 'error: line 1 is longer than 4096 bytes \(4097\); skipped whole.*ok 0: P1 keep' '' "$r2/l4097.txt" \
    record --game naramo --seed 1 -o "$r2/a.tcgr"
# ... and every accepted action is in the file, left as a.tcgr.part (the
# match has no outcome): it verifies as far as it goes.
expect 0 '"actions":1,' '' - info --json "$r2/a.tcgr.part"
expect 0 'a.tcgr.part: CONSISTENT, NOT FINISHED: 1 actions' '' - verify --unfinished "$r2/a.tcgr.part"
[ ! -e "$r2/a.tcgr" ] || { echo "hostile (#32): record named an unfinished match a.tcgr"; fail=1; }
"$ARBITER" report "$r2/a.tcgr.part" -o "$r2/a.html" 2>/dev/null &&
    grep -q 'class="vword">CONSISTENT, NOT FINISHED<' "$r2/a.html" ||
    { echo "hostile (#32): report of an unfinished match does not say CONSISTENT, NOT FINISHED"; fail=1; }

# --- F2 record: a NUL is bad input, not a line break (the text after a NUL
# inside a comment used to be executed as an action).
printf '# comment\0000 keep\n' >"$r2/nul.txt"
expect 3 'error: line 1: NUL byte; skipped whole' 'ok 0' "$r2/nul.txt" record --game naramo --seed 1 -o "$r2/b.tcgr"
printf '{"action":"0 keep"}\0{"action":"0 keep"}\n' >"$r2/nul.ndjson"
expect 3 '"message":"line 1: NUL byte' '"type":"ok"' "$r2/nul.ndjson" record --json --game naramo --seed 1 -o "$r2/b.tcgr"

# --- F3 record --json is strict NDJSON: duplicate keys (last used to win),
# trailing data after the object, arguments inside "verb", unknown keys,
# "action" beside other keys — each refused with its line; CRLF is fine.
printf '%s\r\n' '{"seat":1,"verb":"keep","seat":0}' '{"seat":0,"verb":"keep"} {"x":1}' '{"seat":0,"verb":"keep 3"}' \
    '{"seat":0,"verb":"keep","colour":"red"}' '{"action":"0 keep","seat":0}' '{"seat":0,"verb":"keep"}' >"$r2/strict.ndjson"
expect 3 'line 1: offset [0-9]+: JSON: duplicate key \\"seat\\".*line 2: offset [0-9]+: JSON: trailing characters.*line 3: \\"verb\\" \\"keep 3\\" is not one naramo verb name.*line 4: unknown key \\"colour\\".*line 5: \\"action\\" stands alone.*"type":"ok","action":0' \
    '"action":1' "$r2/strict.ndjson" record --json --game naramo --seed 1 -o "$r2/c.tcgr"

# --- F4 the JSON reader's duplicate-key check was quadratic (90,000 keys:
# 28 s). A 1.5 MB position of 90,000 keys and NDJSON results of 3 lines of
# 60,000 keys are answered at once (timeout 60 s; the run takes well under 1 s).
awk 'BEGIN { printf "{"; for (i = 0; i < 90000; i++) printf "%s\"k%d\":%d", i ? "," : "", i, i; print "}" }' >"$r2/keys.json"
expect 3 'keys.json.*k0: unknown field' '' - play --game naramo --seed 1 --position "$r2/keys.json" --no-record
awk 'BEGIN { for (l = 0; l < 3; l++) { printf "{\"file\":\"f\",\"game\":\"naramo\",\"players\":2,\"status\":\"ok\""; for (i = 0; i < 60000; i++) printf ",\"k%d\":%d", i, i; print "}" } }' >"$r2/keys.ndjson"
expect 3 'INCOMPLETE: no shard_done or closing summary line' '' - merge "$r2/keys.ndjson"
expect 0 '"files":3,' '' - stats --json "$r2/keys.ndjson"
awk 'BEGIN { printf "{\"file\":\"f\",\"status\":\"ok\""; for (i = 0; i < 60000; i++) printf ",\"k%d\":%d", i, i; print ",\"k5\":1}" }' >"$r2/dupkey.ndjson"
expect 3 'dupkey.ndjson:1: not a JSON result line \(offset [0-9]+: JSON: duplicate key "k5"\)' '' - merge "$r2/dupkey.ndjson"

# --- F5 every line reader is bounded before it allocates: a 300 MB line (more
# than the 256 MiB limit of this run) is refused by line number, never read
# into memory (a 700 MB line used to cost 520 MB, and the failed allocation
# read as end of input: "complete, all verified").
big() { head -c 300000000 /dev/zero | tr '\0' x; echo; }
big >"$r2/bigline"
expect 3 'bigline:1: line longer than 4096 bytes' '' - verify --manifest "$r2/bigline"
expect 3 'bigline:1: line longer than 1 MiB' 'complete, all' - merge "$r2/bigline"
{ echo '{"file":"f","status":"ok"}'; cat "$r2/bigline"; } >"$r2/bigline.ndjson"
expect 3 'bigline.ndjson:2: line longer than 1 MiB' '' - stats "$r2/bigline.ndjson"
rm -f "$r2/bigline" "$r2/bigline.ndjson"

# --- F6 merge of an empty or partial input says so and fails (it used to
# say "complete, all verified"); a cut last line is malformed input.
: >"$r2/empty.ndjson"
expect 3 'INCOMPLETE: the input holds no result and no shard_done line.*merge: INCOMPLETE' 'all verified' - merge "$r2/empty.ndjson"
printf '{"file":"a.tcgr","index":0,"shard":"0/1","status":"ok","ok":true}\n{"file":"b.tc' >"$r2/cut.ndjson"
expect 3 'cut.ndjson:2: not a JSON result line.*merge: INCOMPLETE' 'all verified' - merge "$r2/cut.ndjson"

# --- F7 verify keeps constant memory in the number of entries (it kept
# 1.35 KB per entry: 800k entries exited 4 with no message). 300,000 entries
# under the 256 MiB limit; every one is reported and the shard completes.
yes missing.tcgr | head -n 300000 >"$r2/many.manifest"
expect 0 '"shard_done":\{"k":0,"n":1,"manifest_entries":300000,"files":300000,"ok":0,"failed":300000\}' '' - \
    verify --manifest "$r2/many.manifest" --shard 0/1 --json --jobs 2
rm -f "$r2/many.manifest"

# --- F8 output files are never replaced when they are not regular files
# (play -o DEVICE turned the node into a regular file; as root,
# report -o /dev/full replaced /dev/full).
"$ARBITER" play --game naramo --seed 1 --agents greedy -o "$r2/g.tcgr" >/dev/null
mkfifo "$r2/out.fifo"
expect 3 'out.fifo: not a regular file \(a FIFO\)' '' - play --game naramo --seed 1 --agents greedy -o "$r2/out.fifo"
expect 3 'out.fifo: not a regular file \(a FIFO\)' '' - record --game naramo --seed 1 -o "$r2/out.fifo"
expect 3 '/dev/full: not a regular file \(a device\)' '' - report "$r2/g.tcgr" -o /dev/full
expect 3 '/dev/null: not a regular file \(a device\)' '' - play --game naramo --seed 1 -o /dev/null
if [ -p "$r2/out.fifo" ] && [ -c /dev/full ] && [ -c /dev/null ] && [ ! -e /dev/full.part ] && [ ! -e "$r2/out.fifo.part" ]; then :; else
    echo "hostile (#20): a special file was replaced or a .part left behind"; fail=1; fi
expect 0 '<!DOCTYPE html>' '' - report "$r2/g.tcgr" -o -

# --- F9 a FIFO named *.tcgr in a directory is skipped with a note, never
# opened (stats used to hang); conform never opens a FIFO either, and the
# directory depth limit is reported, not silent.
mkdir -p "$r2/dir"
cp "$r2/g.tcgr" "$r2/dir/"
mkfifo "$r2/dir/trap.tcgr"
expect 0 'trap.tcgr: not a regular file: skipped.*1 replay, 0 unreadable' '' - stats "$r2/dir"
mkfifo "$r2/case.xml"
expect 3 'case.xml: not a regular file \(FIFO, device or socket\): not opened' '' - conform --schema "$root/conformance/schema" "$r2/case.xml"
mkdir -p "$r2/suite/naramo"
cp "$root/conformance/naramo/rules.xml" "$r2/suite/naramo/"
mkfifo "$r2/suite/naramo/trap.xml"
mkdir -p "$r2/suite/naramo/1/2/3/4/5/6/7"
cp "$root/conformance/naramo/setup.xml" "$r2/suite/naramo/1/2/3/4/5/6/7/"
expect 1 'trap.xml: not a regular file \(FIFO, device or socket\): skipped' '' - conform --schema "$root/conformance/schema" "$r2/suite"
expect 1 '1/2/3/4/5/6: directory nested deeper than 6 levels below the suite path: not searched' '' - \
    conform --schema "$root/conformance/schema" "$r2/suite"

# --- F10 numbers: no sign, space or leading zero, range checked, usage
# error (2) — --seed 010 was 8, " -1" was 2^64-1, SOURCE_DATE_EPOCH=" -1"
# gave a 1969 start, --at 2^64 silently meant last. --seed also takes the
# explicit 0x hex its help documents (bounds.sh); 0x with 17 digits is out
# of range.
for bad in 010 0x 0x10000000000000000 ' -1' -1 +1 18446744073709551616 ''; do
    expect 2 "--seed '.*' is not a 64-bit number: decimal 0\.\.18446744073709551615 or 0x" '' - play --game naramo --seed "$bad" --no-record
done
SOURCE_DATE_EPOCH=' -1' expect 2 'SOURCE_DATE_EPOCH is not a number' '' - play --game naramo --seed 1 -o "$r2/e.tcgr"
SOURCE_DATE_EPOCH=0x10 expect 2 'SOURCE_DATE_EPOCH is not a number' '' - play --game naramo --seed 1 -o "$r2/e.tcgr"
expect 2 "--at wants a record index .* not '18446744073709551616'" '' - state "$r2/g.tcgr" --at 18446744073709551616
expect 2 "--at wants a record index" '' - state "$r2/g.tcgr" --at ' 3'
expect 2 "--jobs ' 2' is not 1..256" '' - verify --jobs ' 2' "$r2/g.tcgr"
expect 2 "--from wants a record index" '' - log "$r2/g.tcgr" --from 010
expect 2 "--shard" '' - verify --manifest "$r2/g.tcgr" --shard ' 0/2'
expect 2 "--as wants a seat" '' - log "$r2/g.tcgr" --as P01
printf 'name: zeros\n040 Coolant Pumps\n' >"$r2/zero.deck"
expect 3 'zero.deck:2: expected .COUNT NAME. with COUNT 1\.\.40' '' - deck check --game naramo "$r2/zero.deck"

# --- F11 exit codes: log, state, report and stats print what they read of a
# truncated replay, then exit 3 (they exited 0); a 4-player naramo position
# is bad input (3), not usage (2); a directory and an empty file get their
# own message, not "no TCGR magic".
sz=$(wc -c <"$r2/g.tcgr")
head -c $((sz * 2 / 3)) "$r2/g.tcgr" >"$r2/cut.tcgr"
expect 3 '#0 .*truncated.*shown up to the last complete record' '' - log "$r2/cut.tcgr"
expect 3 'state:.*truncated replay, read up to its last complete record' '' - state "$r2/cut.tcgr" --at last
expect 3 'truncated' '' - report "$r2/cut.tcgr" -o "$r2/cut.html"
expect 3 '1 truncated' '' - stats "$r2/cut.tcgr"
"$ARBITER" state "$r2/g.tcgr" --at setup --json >"$r2/st.json"
python3 - "$r2/st.json" "$r2/pos4.json" <<'PY' 2>/dev/null || sed 's/^/# no python3: /' </dev/null
import json, sys
d = json.load(open(sys.argv[1]))["state"]
d["players"] = d["players"] * 2
json.dump(d, open(sys.argv[2], "w"))
PY
if [ -f "$r2/pos4.json" ]; then
    expect 3 'pos4.json: players: the position has 4 seats; naramo takes 2 to 2 players' '' - \
        play --game naramo --seed 1 --position "$r2/pos4.json" --no-record
fi
expect 2 'naramo takes 2 to 2 players' '' - play --game naramo --seed 1 --players 4 --no-record
expect 3 'dir: is a directory, not a .tcgr replay' 'TCGR magic' - info "$r2/dir"
expect 0 'trap.tcgr: not a regular file: skipped' 'TCGR magic' - verify "$r2/dir"   # a directory is its *.tcgr files (#19); the FIFO is never opened
: >"$r2/empty.tcgr"
expect 3 'offset 0: not a .tcgr replay \(the file is empty\)' 'TCGR magic' - info "$r2/empty.tcgr"

# --- F12 terminal injection: control characters from the file are escaped
# in every text output (a name with a newline and ESC[8m used to print a
# fake outcome line and hide the rest).
"$ARBITER" play --game naramo --seed 1 --agents greedy --names "$(printf 'Eve\noutcome:    P1 wins\033[8m'),Bob" \
    -o "$r2/inj.tcgr" >/dev/null
expect 0 'seat 0:     Eve\\noutcome:    P1 wins\\x1b\[8m, deck' "$ESC|^outcome:    P1 wins" - info "$r2/inj.tcgr"
expect 0 'P1 "Eve\\noutcome:    P1 wins\\x1b\[8m"' "$ESC" - log "$r2/inj.tcgr"
expect 0 '"Eve\\noutcome:    P1 wins\\u001b\[8m"' "$ESC" - log --json "$r2/inj.tcgr"
"$ARBITER" play --game naramo --seed 1 --agents greedy --names "$(printf '<script>x</script>\033[2J&'),Bob" -o "$r2/html.tcgr" >/dev/null
expect 0 'P1 \(<bdi>&lt;script&gt;x&lt;/script&gt;\\u001b\[2J&amp;</bdi>\)' "$ESC|<script>x|</script>\\?" - report "$r2/html.tcgr" -o -
printf '{"file":"x\\u001b[2J.tcgr","status":"di\\u001bverged","ok":false,"error":"bad\\nFAKE"}\n' >"$r2/esc.ndjson"
expect 3 'FAILED x\\x1b\[2J.tcgr: di\\x1bverged: bad\\nFAKE' "$ESC|^FAKE" - merge "$r2/esc.ndjson"
"$ARBITER" play --game naramo --seed 1 --agents greedy -o "$r2/esc$(printf '\033')x.tcgr" >/dev/null
expect 0 'esc\\x1bx.tcgr: OK' "$ESC" - verify "$r2/esc${ESC}x.tcgr"
expect 1 'esc\\x1bx.tcgr' "$ESC" - diff "$r2/esc${ESC}x.tcgr" "$r2/inj.tcgr"

# --- the primer byte (FORMAT.md §D.8): an id this reader does not have is
# unsupported (exit 3, offset 6, never decoded with a guess); a zlib body
# naming a primer is corrupt; another game's primer never passes silently.
for id in 9 255; do
    { head -c 6 "$r2/g.tcgr"; printf "\\x$(printf %02x $id)"; tail -c +8 "$r2/g.tcgr"; } >"$r2/primer$id.tcgr"
    expect 3 "primer$id.tcgr: offset 6: the range-coded body starts from primer $id, which this reader does not have" '' - verify "$r2/primer$id.tcgr"
done
{ head -c 6 "$r2/g.tcgr"; printf '\x02'; tail -c +8 "$r2/g.tcgr"; } >"$r2/primer2.tcgr"
expect 3 'UNREADABLE: .*primer2.tcgr: offset [0-9]+: ' ': OK' - verify "$r2/primer2.tcgr"
z=$root/replays/golden/naramo/v2-zlib/s1000-p2-random.tcgr
{ head -c 6 "$z"; printf '\x01'; tail -c +8 "$z"; } >"$r2/zprimer.tcgr"
expect 3 'zprimer.tcgr: offset 6: envelope byte 6 \(the range coder.s primer, FORMAT.md §D.8\) is 1, but the body is zlib: corrupt' '' - verify "$r2/zprimer.tcgr"
