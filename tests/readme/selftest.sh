#!/usr/bin/env bash
# tests/readme/selftest.sh — run.sh fails where it must: over broken.md
# it exits 1 and names exactly the lines of the blocks that are broken (no
# annotation, an unknown kind, a failing command, a wrong transcript line,
# an unknown make target, a C program that does not compile or fails, a
# data file its check refuses), and passes broken.md's two good blocks
# (a `…` line matching several lines; the fixtures exist).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=$(README=tests/readme/broken.md bash tests/readme/run.sh 2>&1)
rc=$?
got=$(printf '%s\n' "$out" | sed -n 's/^readme: FAIL tests\/readme\/broken.md:\([0-9]*\):.*/\1/p' | tr '\n' ' ' | sed 's/ $//')
want=$(awk '/^```[a-z]*$/ && !open { n++; open=1; if (n <= 9) printf "%d ", NR; next } /^```$/ { open=0 }' tests/readme/broken.md | sed "s/ $//")
if [ $rc -ne 1 ] || [ "$got" != "$want" ]; then
    printf '%s\n' "$out" | sed 's/^/    /'
    echo "readme selftest: FAIL: run.sh exited $rc naming lines '$got', expected 1 and '$want'"
    exit 1
fi
echo "readme selftest: run.sh fails on each of the 9 broken blocks (lines $want) and passes the good ones"
