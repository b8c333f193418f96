#!/bin/sh
# contract/check.sh — the engine contract's promises that only a look at the
# tree or a build outside it can check (issue #28, include/arbiter/game.h):
#   1. no game is named outside src/games/ in the library's generic folders
#      (src/analyze, src/replay, src/conform, src/adapter, src/core): a
#      fifth engine touches only its own directory;
#   2. no abort() or exit() in library code (src/ but src/cli): a library
#      reports an error, it never ends its caller's process;
#   3. a contract-3 plug-in built from one directory outside the checkout,
#      against include/ alone, loads, plays, verifies and crosschecks;
#   4. conformance/ADAPTER.md's refusal-precedence table names the rule IDs
#      the engines give (tests/contract/precedence.py);
#   5. every game's STATE.md refusal tables and setup PRNG order are what
#      its engine does (tests/contract/state_tables.py).
# Run by `make check` (check-contract). ARBITER names the binary.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=${ARBITER:-$ROOT/build/arbiter}
case $A in /*) ;; *) A=$PWD/$A ;; esac
CC=${CC:-cc}
fails=0
bad() { echo "contract: FAIL: $*" >&2; fails=$((fails + 1)); }

# 1. the games, found as the Makefile finds them
ids=$(cd "$ROOT/src/games" && for d in */; do [ -f "$d/game.c" ] && echo "${d%/}"; done)
[ -n "$ids" ] || bad "no engine directory under src/games"
for id in $ids; do
    # a string literal that holds the id as a word (comments are free to name it)
    hits=$(cd "$ROOT" && grep -rnE "\"([^\"]*[^a-z0-9_-])?$id([^a-z0-9_][^\"]*)?\"" \
        src/analyze src/replay src/conform src/adapter src/core --include='*.c' --include='*.h' |
        grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)' || true)
    [ -z "$hits" ] || bad "game id '$id' named outside src/games/:
$hits"
done

# 2. nothing in the library ends the process
hits=$(cd "$ROOT" && grep -rnE '\b(abort|exit|_Exit|quick_exit)[[:space:]]*\(' src --include='*.c' --include='*.h' |
    grep -v '^src/cli/' | grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)' || true)
[ -z "$hits" ] || bad "library code ends the process:
$hits"

# 3. a plug-in from outside the checkout: its own directory, its sources
# (tests/toy_plugin.c and the test headers it includes), include/ only
T=$(mktemp -d "${TMPDIR:-/tmp}/arb-contract.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
mkdir "$T/myengine"
cp "$ROOT/tests/toy_plugin.c" "$T/myengine/engine.c"
for h in $(sed -n 's/^#include "\([a-z_]*\.h\)"$/\1/p' "$ROOT/tests/toy_plugin.c"); do
    [ -f "$ROOT/tests/$h" ] && cp "$ROOT/tests/$h" "$T/myengine/"
done
(cd "$T/myengine" && $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -fPIC -shared -I"$ROOT/include" -I. \
    -o engine.so engine.c) 2>"$T/cc.err" || bad "the plug-in does not build outside the checkout: $(cat "$T/cc.err")"
if [ -f "$T/myengine/engine.so" ]; then
    cd "$T" || exit 2
    P="$T/myengine/engine.so"
    out=$("$A" --plugin "$P" games 2>&1) || bad "games with the outside plug-in: $out"
    echo "$out" | grep -q '^testgame ' || bad "the outside plug-in is not listed: $out"
    "$A" --plugin "$P" play --game testgame --seed 9 --players 2 -o m.tcgr >/dev/null 2>"$T/e" || bad "play: $(cat "$T/e")"
    out=$(ARBITER_GAMES_PATH="$T/myengine" "$A" verify m.tcgr 2>&1) || bad "verify through ARBITER_GAMES_PATH: $out"
    echo "$out" | grep -q ': OK' || bad "verify does not say OK: $out"
    out=$("$A" --plugin "$P" crosscheck --game testgame --engine "$A --plugin $P engine-serve --game testgame" --games 5 2>&1) ||
        bad "crosscheck of the outside plug-in: $out"
fi
# 4. the documented refusal precedence is what the engines do
out=$(cd "$ROOT" && python3 tests/contract/precedence.py "$A" 2>&1) || bad "$out"
# 5. each STATE.md's refusal tables and setup order are what the engines do
out5=$(cd "$ROOT" && python3 tests/contract/state_tables.py "$A" 2>&1) || bad "$out5"
out="$out; $out5"
[ "$fails" -eq 0 ] && echo "contract: no game named outside src/games, no abort/exit in the library, an outside plug-in loads, plays, verifies; $out"
[ "$fails" -eq 0 ]
