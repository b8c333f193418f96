#!/usr/bin/env bash
# check.sh — the golden gate (`make check-golden`): every replay listed in
# replays/golden/<game>/MANIFEST must verify under the current engine and
# reproduce the manifest's winner, reason, turns, action count and final
# hash; a file in the directory that the manifest does not list, or a listed
# file that is missing, fails too. For each affected replay it prints the
# verifier's first divergence (record, turn, seat, action, rule ID or
# hashes). Games not compiled into $ARBITER are skipped with a note.
#
#   ARBITER=build/arbiter tests/golden/check.sh [GOLDEN_DIR]   (exit 0 / 1)
set -uo pipefail
cd "$(dirname "$0")/../.."
ARBITER=${ARBITER:-build/arbiter}
GOLDEN=${1:-replays/golden}
JOBS=${JOBS:-2}

json_field() {
    sed -n 's/.*"'"$1"'":"\{0,1\}\([^",}]*\)"\{0,1\}[,}].*/\1/p' <<<"$2" | head -n 1
}

known=$("$ARBITER" games --json | tr '{' '\n' | sed -n 's/^"id":"\([^"]*\)".*/\1/p')
fail=0 total=0
# Each game's version-1 corpus (kept as recorded) and its version-2
# re-recordings are checked alike: <game>/v2/ (tests/golden/v2.sh, the
# newest coding), and the kept files of older codings: v2-zlib/ (zlib
# bodies) and v2-rc0/ (range-coded from empty models, the 5-byte flush).
for man in "$GOLDEN"/*/MANIFEST "$GOLDEN"/*/v2*/MANIFEST; do
    [ -f "$man" ] || continue
    dir=$(dirname "$man")
    g=$(basename "$dir")
    case $g in v2*) g="$(basename "$(dirname "$dir")") ($g)" ;; esac
    label=$g
    g=${g%% (v2*}
    g=${g%%@*}   # GAME@RULES: a corpus of another rules version of GAME
    if ! grep -qx "$g" <<<"$known"; then
        echo "golden: $g: SKIP (no $g engine in this build)"
        continue
    fi
    files=() exp=()
    while IFS=$'\t' read -r f w r t a h _; do
        case $f in '#'* | '') continue ;; esac
        files+=("$dir/$f")
        exp+=("$w $r $t $a $h")
    done <"$man"
    for f in "$dir"/*.tcgr; do
        [ -e "$f" ] || continue
        grep -q "^$(basename "$f")	" "$man" || { echo "golden: $f: not listed in $man"; fail=1; }
    done
    n=0 bad=0
    while IFS= read -r v; do
        case $v in '{"summary":'*) continue ;; esac # the closing summary line
        f=${files[$n]} e=${exp[$n]}
        n=$((n + 1))
        got="$(json_field winner "$v") $(json_field reason "$v") $(json_field turns "$v") $(json_field actions "$v") $(json_field final_hash "$v")"
        # one reason spelling: a 0.1 manifest's power_orders is today's power-orders
        e=${e//_/-}
        if [ "$(json_field status "$v")" = ok ] && [ "$got" = "$e" ]; then continue; fi
        bad=$((bad + 1))
        if [ "$(json_field status "$v")" = ok ]; then
            echo "golden: $f: verifies, but not as the manifest says: expected winner/reason/turns/actions/hash '$e', got '$got'"
        else
            "$ARBITER" verify "$f" | sed 's/^/golden: /'
        fi
    done < <("$ARBITER" verify --json --jobs "$JOBS" "${files[@]}" 2>&1)
    if [ "$n" -ne "${#files[@]}" ]; then
        echo "golden: $label: the verifier answered for $n of ${#files[@]} files"
        bad=$((bad + 1))
    fi
    total=$((total + n))
    if [ $bad -ne 0 ]; then
        echo "golden: $label: $bad of ${#files[@]} replays differ from $man"
        echo "golden: intentional rules change? see README 'Changing a rule': arbiter reseal, then tests/golden/manifest.sh"
        fail=1
    else
        echo "golden: $label: ${#files[@]} replays verified, outcomes and hashes as in the manifest"
    fi
done
for g in $known; do
    [ -f "$GOLDEN/$g/MANIFEST" ] || echo "golden: $g: no corpus yet (tests/golden/generate.sh $g writes it)"
done
[ $total -gt 0 ] || { echo "golden: no replay found under $GOLDEN"; exit 1; }
# How log and diff print a recorded hash: 0x and 16 digits, or a format-2
# mid-match checkpoint's 8 bits as what they are (issue #32 item 8).
one=$(ls "$GOLDEN"/naramo/v2/*.tcgr | head -n 1)
out=$("$ARBITER" log "$one")
if ! grep -Eq 'checkpoint: turn 2, hash 0x[0-9a-f]{2} \(low 8 bits\) \(matches\)' <<<"$out" ||
   ! grep -Eq 'checkpoint: turn 1, hash 0x[0-9a-f]{16} \(matches\)' <<<"$out" || grep -q '0x00000000000000' <<<"$out"; then
    echo "golden: log of $one prints checkpoint hashes wrongly:"; grep checkpoint <<<"$out" | head -n 3; fail=1
fi
exit $fail
