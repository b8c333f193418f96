#!/bin/sh
# tests/adapter/check.sh — the engine protocol end to end, for every game in
# the build (make check-adapter):
#   - conform --engine through the reference adapter passes the whole suite;
#   - verify --engine reproduces every golden replay;
#   - crosscheck through the loopback adapter: 0 divergences over
#     CROSSCHECK_MATCHES (default 1000) matches, 2..4 players as allowed;
#   - crosscheck speaks protocol 2 to engine-serve (at most 3 requests a
#     step) and falls back to protocol 1 for `engine-serve --protocol 1`;
#   - every --fault of engine-serve that can show in a game (--list-faults
#     --game G) is caught there by crosscheck under protocol 2 and under
#     protocol 1 (exit 1, the first divergence named, a reproducer written)
#     and by conform --engine (exit 1, saying what), and every fault shows
#     in some game;
#   - crosscheck --jobs 2 prints what --jobs 1 prints (timing aside), with
#     and without a divergence; a divergence in match I of --seed S
#     reproduces as match 0 of --seed S+I --games 1;
#   - the example sessions of ADAPTER.md section 9 (protocol 1 and 2) are
#     what the reference adapter answers, and keep their promises;
#     malformed step and probe requests are refused naming the field;
#   - the perft reference values of conformance/<game>/perft.md reproduce;
#   - a dead, slow, babbling, wrong-id or non-JSON adapter is exit 4 naming
#     the request, within the timeout.
# Prints crosscheck throughput (matches/s) per game. CROSSCHECK_ONLY=1 runs
# the crosschecks alone (make check-heavy: the 1000-match runs that make
# check, at 20 matches, leaves to check-all).
set -u
A=${ARBITER:-build/arbiter}
N=${CROSSCHECK_MATCHES:-1000}
T=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-adapter.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "adapter: FAIL: $*"; fail=1; }

games=$($A games --json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))' 2>/dev/null)
[ -n "$games" ] || games="naramo catalyst operator brainstorm"
faults=$($A engine-serve --list-faults | awk '{print $1}')
[ -n "$faults" ] || bad "engine-serve --list-faults lists nothing"
tested=""
# What conform --engine and crosscheck say of each fault (a pattern of grep -E)
says() {
    case $1 in
    member-order) echo "the same members in another order \(maps are ordered: ADAPTER.md section 5\)" ;;
    clone-shares) echo "clone: playing '[^']*' on a clone changed the original \(hash [0-9a-f]{16} -> [0-9a-f]{16}\)" ;;
    describe-wrong) echo "describe '[^']*': reference '[^']*', engine '[^']*'" ;;
    legal-unstable) echo "legal order: the same state asked twice lists [0-9]+ then [0-9]+ actions, item [0-9]+ " ;;
    clock-off-by-one) echo "decision: .* clock [0-9]+, .* clock [0-9]+" ;;
    refusal-mutates) echo "hash|reject-unchanged|verdict on|legal actions:|state tree|built-in" ;;
    *) echo "." ;;
    esac
}

only=${CROSSCHECK_ONLY:-}
for g in $games; do
    E="$A engine-serve --game $g"
    if [ -z "$only" ]; then
    out=$($A conform --quiet --engine "$E" 2>&1); rc=$?
    [ $rc -eq 0 ] || bad "$g: conform --engine exit $rc: $(echo "$out" | tail -3)"
    echo "$out" | grep -q " 0 FAIL, 0 WRONG-RULE, 0 ERROR, 0 SKIP" || bad "$g: conform --engine: $(echo "$out" | tail -1)"
    if ls replays/golden/$g/*.tcgr >/dev/null 2>&1; then
        out=$($A verify --quiet --engine "$E" replays/golden/$g/*.tcgr 2>&1); rc=$?
        [ $rc -eq 0 ] || bad "$g: verify --engine of the golden corpus exit $rc: $(echo "$out" | head -3)"
    fi
    fi
    # two shards at once (the machine's two cores), as a Slurm array would
    $A crosscheck --engine "$E" --game $g --games $N --seed 1 --shard 0/2 --json --repro "$T/x0.tcgr" >"$T/x0" 2>&1 &
    p0=$!
    $A crosscheck --engine "$E" --game $g --games $N --seed 1 --shard 1/2 --json --repro "$T/x1.tcgr" >"$T/x1" 2>&1
    rc1=$?
    wait $p0; rc0=$?
    [ $rc0 -eq 0 ] && [ $rc1 -eq 0 ] || bad "$g: crosscheck exit $rc0/$rc1: $(head -12 "$T/x0" "$T/x1")"
    sum=$(cat "$T/x0" "$T/x1" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
m = sum(r["matches"] for r in rows); d = sum(r["divergences"] for r in rows)
st = sum(r["steps"] for r in rows); s = max([r["seconds"] for r in rows] or [0])
rq = sum(r["requests"] for r in rows); pr = min([r["protocol"] for r in rows] or [0])
print(m, d, st, "%.1f" % (m / s if s else 0), "%.1f" % s, "%.2f" % (rq / st if st else 99), pr)' 2>/dev/null)
    # the plan of every match (xc_explore.h): both shards together play
    # suite starts and timed fresh setups, and reach pairs
    modes=$(cat "$T/x0" "$T/x1" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
k = lambda f: sum(r.get(f, 0) for r in rows)
print(k("suite_matches"), k("suite_cases_played"), k("timed_matches"), k("arbiter_actions"), k("event_pairs"))' 2>/dev/null)
    set -- $modes
    [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] || bad "$g: crosscheck played no match from the suite's cases ($modes)"
    [ "${3:-0}" -gt 0 ] && [ "${5:-0}" -gt 0 ] || bad "$g: crosscheck played no timed match or reached no pair ($modes)"
    [ $g != naramo ] || [ "${4:-0}" -gt 0 ] || bad "naramo: the timed matches played no arbiter action (timeout, disconnect) ($modes)"
    set -- $sum
    [ "${1:-0}" = "$N" ] && [ "${2:-1}" = 0 ] || bad "$g: crosscheck ran ${1:-?} of $N matches with ${2:-?} divergences"
    [ "${7:-0}" = 2 ] || bad "$g: crosscheck did not speak protocol 2 to engine-serve (${7:-?})"
    python3 -c "import sys; sys.exit(float('${6:-99}') > 3)" || bad "$g: crosscheck sent ${6:-?} requests a step (at most 3)"
    echo "adapter: crosscheck $g: ${1:-?} matches (2 shards), ${3:-?} steps, ${2:-?} divergences, ${6:-?} requests a step, ${5:-?} s, ${4:-?} matches/s"
    [ -z "$only" ] || continue
    out=$($A crosscheck --engine "$E --protocol 1" --game $g --games 3 2>&1); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -q "a step, protocol 1)" || bad "$g: no fallback to protocol 1 (exit $rc): $out"
    gfaults=$($A engine-serve --list-faults --game $g | awk '{print $1}')
    tested="$tested $(echo $gfaults)"
    for f in $gfaults; do
        for P in 2 1; do
            out=$($A crosscheck --engine "$E --protocol $P --fault $f" --game $g --games 50 --repro "$T/$g-$f.tcgr" 2>&1); rc=$?
            [ $rc -eq 1 ] || bad "$g: crosscheck did not catch --fault $f under protocol $P (exit $rc): $(echo "$out" | tail -2)"
            echo "$out" | grep -Eq "$(says $f)" || bad "$g --fault $f (protocol $P): crosscheck does not say what: $(echo "$out" | head -3)"
            echo "$out" | grep -q "^DIVERGENCE $g match" || bad "$g --fault $f (protocol $P): no DIVERGENCE line"
            echo "$out" | grep -q "protocol $P)" || bad "$g --fault $f: not protocol $P: $(echo "$out" | tail -1)"
            [ -s "$T/$g-$f.tcgr" ] || bad "$g --fault $f (protocol $P): no reproducer written"
            $A verify "$T/$g-$f.tcgr" >/dev/null 2>&1; vrc=$?
            [ $vrc -le 1 ] || bad "$g --fault $f (protocol $P): the reproducer is unreadable (verify exit $vrc)"
            rm -f "$T/$g-$f.tcgr"
        done
        out=$($A conform --engine "$E --fault $f" 2>&1); rc=$?
        [ $rc -eq 1 ] || bad "$g: conform --engine did not catch --fault $f (exit $rc)"
        echo "$out" | grep -Eq "$(says $f)" || bad "$g --fault $f: conform --engine does not say what: $(echo "$out" | grep -A1 -m1 '^FAIL')"
    done
    # --jobs 2 reports what --jobs 1 does: a clean run, and a divergence
    # (later matches played ahead by the second job are not reported)
    untimed() { sed -e 's/, [0-9.]* s ([0-9.]* matches\/s)$//'; }
    for f in "" "--fault wrong-rule"; do
        o1=$($A crosscheck --engine "$E $f" --game $g --games 12 --seed 3 --repro "$T/j1.tcgr" -j 1 2>&1); r1=$?
        o2=$($A crosscheck --engine "$E $f" --game $g --games 12 --seed 3 --repro "$T/j2.tcgr" -j 2 2>&1); r2=$?
        o2=$(echo "$o2" | sed 's/j2\.tcgr/j1.tcgr/g')
        [ $r1 -eq $r2 ] && [ "$(echo "$o1" | untimed)" = "$(echo "$o2" | untimed)" ] ||
            bad "$g $f: crosscheck -j 2 (exit $r2) differs from -j 1 (exit $r1): $(echo "$o1" | head -3) / $(echo "$o2" | head -3)"
        [ -z "$f" ] || cmp -s "$T/j1.tcgr" "$T/j2.tcgr" || bad "$g $f: -j 2 wrote another reproducer than -j 1"
    done
done

if [ -z "$only" ]; then
# Every fault shows in some game, and one that cannot show in a game is
# not listed for it (clock-off-by-one needs a decision clock: naramo's).
for f in $faults; do
    case " $tested " in *" $f "*) ;; *) bad "--fault $f is tested in no game (engine-serve --list-faults --game G)" ;; esac
done
$A engine-serve --list-faults --game operator | grep -q "^clock-off-by-one " && bad "operator has no clock, but clock-off-by-one is listed for it"
$A engine-serve --list-faults --game naramo | grep -q "^clock-off-by-one " || bad "naramo's clock-off-by-one is not listed"
# Through conform --engine a refusal that changes the state is the case's
# reject-unchanged invariant (the hash is asked again after a refusal).
out=$($A conform --engine "$A engine-serve --game naramo --fault refusal-mutates" 2>&1)
echo "$out" | grep -q "invariant reject-unchanged: rejecting '[^']*' changed the state (hash [0-9a-f]* -> [0-9a-f]*)" ||
    bad "naramo --fault refusal-mutates: conform --engine did not name reject-unchanged: $(echo "$out" | grep -A1 -m1 '^FAIL')"
fi

# A refusal that changes the state shows through the probe's hash (this
# fresh operator match has no verdict difference first).
out=$($A crosscheck --engine "$A engine-serve --game operator --fault refusal-mutates" --game operator --games 50 --suite none --repro "$T/rm.tcgr" 2>&1)
echo "$out" | grep -q "^  hash after the probes (each refused or tried on a copy): reference [0-9a-f]* (unchanged), engine [0-9a-f]*$" ||
    bad "operator --fault refusal-mutates: the probe's hash did not show it: $(echo "$out" | head -4)"

# A divergence found in match I of --seed S is match 0 of --seed S+I
# --games 1: same seed, seats, step and report (the shard starts at I = 1).
# Key 41 is odd: the match starts from the suite's cases (named in the
# report), and its reproducer starts from the case's position or setup.
for g in catalyst operator; do
    E="$A engine-serve --game $g --fault wrong-rule"
    o1=$($A crosscheck --engine "$E" --game $g --seed 40 --games 9 --shard 1/4 --repro "$T/r.tcgr" 2>&1)
    i=$(echo "$o1" | sed -n 's/^DIVERGENCE [a-z]* match \([0-9]*\) .*/\1/p')
    [ "$i" = 1 ] || { bad "$g: the wrong-rule divergence is not in match 1: $o1"; continue; }
    echo "$o1" | grep -q "^  start: the suite's case [a-z0-9-]*/[a-z0-9-]* (conformance/$g/[a-z0-9-]*\.xml:[0-9]*): its [0-9]* scripted actions" ||
        bad "$g: the divergence of a suite match does not name its case: $o1"
    $A verify "$T/r.tcgr" >/dev/null 2>&1; vrc=$?
    [ $vrc -le 1 ] || bad "$g: the suite match's reproducer is unreadable (verify exit $vrc)"
    alone=$(echo "$o1" | sed -n 's/^  this match alone: crosscheck \(.*\) (and .*/\1/p')
    [ "$alone" = "--game $g --seed 41 --games 1" ] || bad "$g: the report does not say how to rerun the match alone: $alone"
    o2=$($A crosscheck --engine "$E" $alone --repro "$T/r.tcgr" 2>&1)
    [ "$(echo "$o1" | grep -v '^crosscheck' | sed 's/ match 1 / match I /')" = \
      "$(echo "$o2" | grep -v '^crosscheck' | sed 's/ match 0 / match I /')" ] ||
        bad "$g: match 1 of --seed 40 does not reproduce as --seed 41 --games 1: $o1 / $o2"
done

# --suite: a directory without the game's cases is a usage error; 'none'
# plays fresh setups only (and says so).
out=$($A crosscheck --engine "$A engine-serve --game naramo" --game naramo --games 2 --suite "$T" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "no directory" || bad "crosscheck --suite without the game's cases: exit $rc: $out"
out=$($A crosscheck --engine "$A engine-serve --game naramo" --game naramo --games 4 --suite none 2>&1) &&
    echo "$out" | grep -q "4 fresh matches (2 timed, .*), no suite$" || bad "crosscheck --suite none: $out"

# Malformed step and probe requests are refused naming the field.
python3 tests/adapter/malformed_p2.py "$A" || bad "malformed protocol-2 requests (tests/adapter/malformed_p2.py)"

# ADAPTER.md section 9: the sessions printed there are the reference
# adapter's, and the protocol-2 one keeps its promises (transcript.py
# exits 1 otherwise).
for P in 1 2; do
    python3 tests/adapter/transcript.py "$A" --protocol $P >"$T/tr$P" || bad "transcript.py --protocol $P failed"
    python3 - conformance/ADAPTER.md $P "$T/tr$P" <<'PY' || bad "ADAPTER.md: the protocol-$P session is not what engine-serve answers (python3 tests/adapter/transcript.py --protocol $P)"
import sys
doc, want, got = open(sys.argv[1]).read(), int(sys.argv[2]), open(sys.argv[3]).read()
body = doc[doc.index("\n## 9."):]
blocks = [b.split("\n", 1)[1] for b in body.split("```")[1::2]]
sys.exit(0 if len(blocks) >= want and blocks[want - 1] == got else 1)
PY
done

[ -z "$only" ] || exit $fail

# The test game as an in-process plug-in engine: every command finds it.
if [ -n "${PLUGIN:-}" ]; then
    out=$($A --plugin "$PLUGIN" games 2>&1); echo "$out" | grep -q "^testgame " || bad "plug-in: games does not list testgame: $out"
    ARBITER_GAMES_PATH="$PLUGIN" $A games | grep -q "^testgame " || bad "plug-in: ARBITER_GAMES_PATH not loaded"
    ARBITER_GAMES_PATH="$(dirname "$PLUGIN")/nosuchdir:$PLUGIN" $A games | grep -q "^testgame " || bad "plug-in: a path with a missing directory"
    $A --plugin "$PLUGIN" play --game testgame --seed 5 --players 3 -o "$T/tg.tcgr" >/dev/null || bad "plug-in: play failed"
    $A --plugin "$PLUGIN" verify "$T/tg.tcgr" >/dev/null || bad "plug-in: the recorded testgame match does not verify"
    $A verify "$T/tg.tcgr" >/dev/null 2>&1; rc=$?
    [ $rc -eq 3 ] || bad "plug-in: without the plug-in verify should refuse testgame (exit 3), got $rc"
    $A --plugin "$PLUGIN" log "$T/tg.tcgr" | grep -q "Test Game" || bad "plug-in: log"
    out=$($A --plugin "$PLUGIN" crosscheck --game testgame --engine "$A --plugin $PLUGIN engine-serve --game testgame" --games 50 2>&1) ||
        bad "plug-in: crosscheck through engine-serve: $out"
    $A --plugin "$PLUGIN" perft --game testgame --depth 3 >/dev/null || bad "plug-in: perft"
    out=$($A --plugin "$PLUGIN_OLD" games 2>&1); rc=$?
    [ $rc -eq 3 ] && echo "$out" | grep -q "does not implement game contract" || bad "plug-in of another contract: exit $rc: $out"
    if [ -n "${PLUGIN_C2:-}" ]; then
        # built as arbiter 0.2 built plug-ins (contract 2): shimmed, plays and
        # verifies, and its replays are the contract-3 build's
        $A --plugin "$PLUGIN_C2" games | grep -q "^testgame " || bad "contract-2 plug-in: not loaded"
        $A --plugin "$PLUGIN_C2" play --game testgame --seed 5 --players 3 -o "$T/tg2.tcgr" >/dev/null || bad "contract-2 plug-in: play failed"
        h3=$($A --plugin "$PLUGIN" verify "$T/tg.tcgr" | grep -o 'final hash 0x[0-9a-f]*')
        h2=$($A --plugin "$PLUGIN_C2" verify "$T/tg2.tcgr" | grep -o 'final hash 0x[0-9a-f]*')
        [ -n "$h3" ] && [ "$h3" = "$h2" ] || bad "contract-2 plug-in: its match ($h2) differs from the contract-3 build's ($h3)"
        $A --plugin "$PLUGIN_C2" verify "$T/tg.tcgr" >/dev/null || bad "contract-2 plug-in: verify failed"
        $A --plugin "$PLUGIN_C2" log "$T/tg.tcgr" | grep -q "P1 draws card" || bad "contract-2 plug-in: event_text not shimmed"
    fi
    out=$($A --plugin /nonexistent.so games 2>&1); rc=$?
    [ $rc -eq 3 ] || bad "a missing plug-in: exit $rc"
    echo "adapter: the test-game plug-in records, verifies, crosschecks and counts; a contract-2 plug-in loads through the shim, one of another contract is refused"
fi

# perft reference values (conformance/<game>/perft.md), in-process and
# (depth <= 3) through the adapter
python3 tests/adapter/perft.py check "$A" --engine || bad "perft reference values"
# perft --engine compares with the built-in engine: a generator that drops an action fails, naming it
out=$($A perft --game naramo --depth 3 --divide --engine "$A engine-serve --game naramo --fault drop-legal" 2>&1); rc=$?
[ "$rc" = 1 ] || bad "perft --engine with a dropped legal action: exit $rc, not 1"
echo "$out" | grep -q "the built-in naramo engine 23: they differ" || bad "perft --engine does not say the counts differ: $out"
echo "$out" | grep -q "0 review: listed by the built-in engine only" || bad "perft --engine --divide does not name the dropped action: $out"
out=$($A perft --game naramo --depth 3 --engine "$A engine-serve --game naramo" 2>&1) || bad "perft --engine that agrees: $out"

# A broken adapter is an error naming the request, never a hang.
f=$(ls replays/golden/naramo/*.tcgr 2>/dev/null | head -1)
if [ -n "$f" ]; then
    for m in die slow babble wrongid notjson; do
        out=$(timeout 60 $A verify --engine-timeout 1500 --engine "python3 tests/adapter/bad_adapter.py $A naramo $m 30" "$f" 2>&1); rc=$?
        [ $rc -eq 4 ] || bad "bad adapter '$m': verify exit $rc (want 4)"
        echo "$out" | grep -q "request 30 (" || bad "bad adapter '$m': the request is not named: $out"
        echo "$out" | grep -q ": ERROR: engine adapter failed" || bad "bad adapter '$m': the file's line does not blame the adapter: $out"
        echo "$out" | grep -q "UNREADABLE" && bad "bad adapter '$m': a readable file is called UNREADABLE: $out"
    done
    out=$(timeout 60 $A conform --engine-timeout 1500 --quiet --engine "python3 tests/adapter/bad_adapter.py $A naramo die 200" 2>&1); rc=$?
    [ $rc -eq 4 ] || bad "bad adapter 'die' under conform: exit $rc (want 4)"
    # one ERROR (the case it died in), no misleading FAIL, the rest not run in one line
    [ "$(echo "$out" | grep -c '^ERROR ')" = 1 ] || bad "conform after the adapter died: not exactly one ERROR: $out"
    echo "$out" | grep -q '^FAIL ' && bad "conform after the adapter died: a FAIL the dead engine caused: $out"
    echo "$out" | grep -q "^conform: the run stopped: [0-9]* cases not run" || bad "conform does not say the run stopped: $out"
    out=$(timeout 60 $A crosscheck --engine-timeout 1500 --game naramo --games 5 --engine "python3 tests/adapter/bad_adapter.py $A naramo slow 100" 2>&1); rc=$?
    [ $rc -eq 4 ] || bad "bad adapter 'slow' under crosscheck: exit $rc (want 4)"
    echo "$out" | grep -q "request 100 ([a-z-]*): the adapter sent no answer within 1500 ms" ||
        bad "crosscheck: the slow request is not named: $out"
    # a step answer without its decision is a bad answer, named
    out=$(timeout 60 $A crosscheck --game naramo --games 2 --suite none --engine "python3 tests/adapter/bad_adapter.py $A naramo nodecision 4" 2>&1); rc=$?
    [ $rc -eq 4 ] && echo "$out" | grep -q "request 4 (step): bad answer: a decision needs seat, kind" ||
        bad "crosscheck: a step answer without a decision is not reported (exit $rc): $out"
    # event types in an older spelling ('_' for '-') still match
    out=$(timeout 120 $A crosscheck --game naramo --games 3 --engine "python3 tests/adapter/bad_adapter.py $A naramo snake 1" 2>&1) ||
        bad "crosscheck: event types spelt with '_' are not understood: $out"
    # a probe and a step are written at once: the failing one is named,
    # not the last one sent
    for n in 101 102; do
        out=$(timeout 60 $A crosscheck --engine-timeout 1500 --game naramo --games 5 --engine "python3 tests/adapter/bad_adapter.py $A naramo wrongid $n" 2>&1); rc=$?
        [ $rc -eq 4 ] && echo "$out" | grep -q "request $n ([a-z]*): the answer's id is another, expected $n" ||
            bad "crosscheck: the wrong-id answer to request $n is not named (exit $rc): $out"
    done
fi
out=$($A conform --engine "$A engine-serve --game nosuch" 2>&1); rc=$?
[ $rc -eq 3 ] || bad "an adapter that cannot start: exit $rc (want 3)"

[ $fail -eq 0 ] && echo "adapter: every game through the engine protocol: suite, golden replays, crosscheck, $(echo $faults | wc -w) faults caught, broken adapters reported"
exit $fail
