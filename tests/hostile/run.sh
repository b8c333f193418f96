#!/usr/bin/env bash
# run.sh — the hostile-input check (`make check-hostile`): every input below
# is handed to the command that parses it, and must get exactly its
# documented exit code (3 bad input, 1 verification failure / invalid suite
# file) and an error naming the file and offset or line, under a 256 MiB
# address-space limit (ulimit -v; under ASan, whose shadow memory needs a
# huge address space, ASan's own hard_rss_limit_mb instead), with no crash
# or signal. The small inputs are checked in (make_corpus.py wrote them);
# the few large ones (over-size files, over-long lines, deep XML) are
# written here at run time so the tree stays small.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ARBITER=${ARBITER:-build/arbiter}
case $ARBITER in /*) ;; *) ARBITER="$root/$ARBITER" ;; esac
SCHEMA="$root/conformance/schema"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Large inputs, written at run time.
{ echo "name: huge"; for _ in $(seq 4500); do echo "1 Coolant Pumps"; done; } >"$tmp/deck-huge.deck"
{ printf 'name: '; head -c 60000 /dev/zero | tr '\0' x; echo; } >"$tmp/deck-long-line.deck"
{ echo '<?xml version="1.0"?>'; for _ in $(seq 5000); do printf '<a>'; done; for _ in $(seq 5000); do printf '</a>'; done; echo; } >"$tmp/xml-deep.xml"
{ printf '0 '; head -c 70000 /dev/zero | tr '\0' x; echo; echo '0 keep'; } >"$tmp/actions-long-line.txt"

asan=0
# (no `| grep -q` here: under pipefail, grep leaving early kills nm with
# SIGPIPE and the test would think the build is not ASan)
case "$(ldd "$ARBITER" 2>/dev/null)" in *libasan*) asan=1 ;; esac
if [ $asan -eq 0 ] && [ "$(nm "$ARBITER" 2>/dev/null | grep -c '__asan_init')" != 0 ]; then asan=1; fi
# quarantine_size_mb: the limit measures the program, not the freed memory ASan keeps
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=256:quarantine_size_mb=16"

fail=0 n=0
# check CODE PATTERN FILE ARGS... — run arbiter ARGS (FILE is named in the
# output), expect exit CODE and PATTERN (grep -E) in stdout+stderr.
check() {
    local code=$1 pat=$2 file=$3 out rc
    shift 3
    n=$((n + 1))
    if [ $asan -eq 1 ]; then
        out=$(cd "$here" && timeout 60 "$ARBITER" "$@" 2>&1 </dev/null)
    else
        out=$(cd "$here" && ulimit -v 262144 && timeout 60 "$ARBITER" "$@" 2>&1 </dev/null)
    fi
    rc=$?
    if [ $rc -ne "$code" ] || ! grep -Ezq -- "$pat" <<<"$out"; then
        echo "hostile: $file: expected exit $code and /$pat/, got exit $rc:"
        head -c 600 <<<"$out" | sed 's/^/    /'
        fail=1
    fi
}
# feed CODE PATTERN FILE ARGS... — the same with FILE on stdin.
feed() {
    local code=$1 pat=$2 file=$3 out rc
    shift 3
    n=$((n + 1))
    if [ $asan -eq 1 ]; then
        out=$(cd "$here" && timeout 60 "$ARBITER" "$@" 2>&1 <"$file")
    else
        out=$(cd "$here" && ulimit -v 262144 && timeout 60 "$ARBITER" "$@" 2>&1 <"$file")
    fi
    rc=$?
    if [ $rc -ne "$code" ] || ! grep -Ezq -- "$pat" <<<"$out"; then
        echo "hostile: $file: expected exit $code and /$pat/, got exit $rc:"
        head -c 600 <<<"$out" | sed 's/^/    /'
        fail=1
    fi
}

# --- replays: verify, info, log, state, stats (3 = bad input, 1 = diverges)
for cmd in verify info log stats; do
    check 3 'offset 0: not a .tcgr replay' replay-empty.tcgr $cmd replay-empty.tcgr
    check 3 'offset 0: not a .tcgr replay \(no TCGR magic\)' replay-bad-magic.tcgr $cmd replay-bad-magic.tcgr
    check 3 'offset 4: format version 9 is not supported' replay-future-version.tcgr $cmd replay-future-version.tcgr
    check 3 'offset 6: truncated' replay-truncated-envelope.tcgr $cmd replay-truncated-envelope.tcgr
    check 3 'limit on map entries' replay-forged-map32.tcgr $cmd replay-forged-map32.tcgr
    check 3 'limit on array entries' replay-forged-array32.tcgr $cmd replay-forged-array32.tcgr
    check 3 'limit on string length' replay-forged-str32.tcgr $cmd replay-forged-str32.tcgr
    check 3 'limit on nesting depth' replay-deep-nesting.tcgr $cmd replay-deep-nesting.tcgr
    check 3 'limit on string length' replay-bomb-header.tcgr $cmd replay-bomb-header.tcgr
done
check 3 'offset 533: truncated: the file ends inside the zlib stream' replay-truncated-half.tcgr verify replay-truncated-half.tcgr
check 3 'offset [0-9]+: corrupt zlib stream' replay-bitflip.tcgr verify replay-bitflip.tcgr
check 3 'offset [0-9]+: corrupt zlib stream: incorrect data check' replay-bad-adler.tcgr verify replay-bad-adler.tcgr
check 3 'record 99 is larger than max_record' replay-bomb-record.tcgr verify replay-bomb-record.tcgr
check 3 'record 100 is malformed' replay-record-bin32.tcgr verify replay-record-bin32.tcgr
check 1 'DIVERGES \(after-outcome\) at record 100' replay-trailing-record.tcgr verify replay-trailing-record.tcgr
# Every file that is there gets a page (issue #31 item 4), and report's
# exit says what verify's would: 1 for a page of a diverging file, 3 for
# the UNREADABLE page of a corrupt one (which names the offset).
check 1 'does not verify \(after-outcome' replay-trailing-record.tcgr report replay-trailing-record.tcgr -o "$tmp/div.html"
grep -q 'class="vword">DOES NOT VERIFY<' "$tmp/div.html" ||
    { echo "hostile (#31): report of a diverging file: no DOES NOT VERIFY page"; fail=1; }
check 3 'wrote a page that says the file is unreadable.*offset [0-9]+: corrupt zlib stream' replay-bitflip.tcgr \
    report replay-bitflip.tcgr -o "$tmp/flip.html"
grep -Eq 'class="vword">UNREADABLE<.*offset [0-9]+: corrupt zlib stream' "$tmp/flip.html" ||
    { echo "hostile (#31): report of a corrupt file: no UNREADABLE page naming the offset"; fail=1; }
check 3 'record 99 is larger than max_record' replay-bomb-record.tcgr log replay-bomb-record.tcgr
check 3 'corrupt zlib stream' replay-bitflip.tcgr state replay-bitflip.tcgr --at 3
check 3 'REFUSED.*larger than max_record' replay-bomb-record.tcgr reseal --dry-run replay-bomb-record.tcgr
check 3 'REFUSED.*not a .tcgr' replay-bad-magic.tcgr reseal replay-bad-magic.tcgr
check 3 '"status":"unreadable".*"status":"unreadable".*"status":"unreadable"' replay-bitflip.tcgr verify --jobs 2 --json replay-bitflip.tcgr replay-empty.tcgr replay-bomb-header.tcgr

# --- conformance XML: no DTD, no entity expansion, no external fetch (1 = file problem)
for f in xml-billion-laughs.xml xml-external-entity.xml xml-external-dtd.xml; do
    check 1 "$f:2: DOCTYPE declarations are not allowed" $f conform --schema "$SCHEMA" $f
    check 1 "$f:2: DOCTYPE declarations are not allowed" $f conform lint --schema "$SCHEMA" $f
done
check 1 'xml-xinclude.xml:2: root element must be' xml-xinclude.xml conform --schema "$SCHEMA" xml-xinclude.xml
check 1 'xml-truncated.xml:2: Premature end of data' xml-truncated.xml conform --schema "$SCHEMA" xml-truncated.xml
check 1 'xml-binary.xml:1: ' xml-binary.xml conform --schema "$SCHEMA" xml-binary.xml
check 1 'xml-deep.xml:[0-9]+: .*(depth|Excessive)' xml-deep.xml conform --schema "$SCHEMA" "$tmp/xml-deep.xml"

# --- deck files (3 = bad input, with file:line)
check 3 'deck-absurd-count.deck:2: expected .COUNT NAME. with COUNT 1\.\.40' deck-absurd-count.deck deck check --game naramo deck-absurd-count.deck
check 3 'deck-negative-count.deck:2: no naramo card is named' deck-negative-count.deck deck check --game naramo deck-negative-count.deck
check 3 'deck-binary.deck:1: NUL byte' deck-binary.deck deck check --game naramo deck-binary.deck
check 3 'deck-nul.deck:2: NUL byte' deck-nul.deck deck check --game naramo deck-nul.deck
check 3 'deck-unknown-card.deck:2: no naramo card' deck-unknown-card.deck deck check --game naramo deck-unknown-card.deck
check 3 'deck-many-attrs.deck:5: attribute' deck-many-attrs.deck deck check --game naramo deck-many-attrs.deck
check 3 'deck-huge.deck: deck file is [0-9]+ bytes, more than 65536' deck-huge.deck deck check --game naramo "$tmp/deck-huge.deck"
check 3 'deck-long-line.deck:1: ' deck-long-line.deck deck check --game naramo "$tmp/deck-long-line.deck"
check 3 'deck-nul.deck:2: NUL byte' deck-nul.deck play --game naramo --seed 1 --decks deck-nul.deck --no-record

# --- play --disconnect on a game without clock rules: refused with the rule ID
check 3 'OPS-G28: .*no clock' operator play --game operator --seed 1 --disconnect 3 --no-record
check 2 "--disconnect 'x' is not N\[:MS\]" naramo play --game naramo --seed 1 --disconnect x --no-record

# --- record action syntax: each bad line gets an error with its column, the
# good ones are applied; stdin ends before the match (3)
feed 3 'error: line 1: column 3: unknown naramo verb.*error: line 2: column 1: seat .* is not.*line 5: column 1: elapsed time.*line 7: column 8: .keep. takes at most 0.*ok 0: P1 keep' \
    "$here/actions-hostile.txt" record --game naramo --seed 1 -o "$tmp/h.tcgr"
feed 3 'error: line 1 is longer than 4096 bytes.*ok 0: P1 keep' "$tmp/actions-long-line.txt" record --game naramo --seed 1 -o "$tmp/h2.tcgr"

# --- every game in the build: the same deck and action-syntax attacks
for g in $("$ARBITER" games --json | tr '{' '\n' | sed -n 's/^"id":"\([^"]*\)".*/\1/p'); do
    check 3 'deck-binary.deck:1: NUL byte' "$g/deck-binary.deck" deck check --game "$g" deck-binary.deck
    check 3 "deck-unknown-card.deck:2: no $g card" "$g/deck-unknown-card.deck" deck check --game "$g" deck-unknown-card.deck
    check 3 'more than 65536' "$g/deck-huge.deck" deck check --game "$g" "$tmp/deck-huge.deck"
    feed 3 "error: line 2: column 1: seat .* is not.*error: line 6: column 1: elapsed time" "$here/actions-hostile.txt" \
        record --game "$g" --seed 1 -o "$tmp/h-$g.tcgr"
done

source "$here/round2.sh"
source "$here/bounds.sh"
source "$here/writers.sh"
source "$here/round3.sh"
source "$here/format2.sh"
source "$here/flood.sh"
source "$here/dupes.sh"

if [ $fail -eq 0 ]; then echo "hostile: $n inputs: each rejected with its documented code and message, no crash"; fi
exit $fail
