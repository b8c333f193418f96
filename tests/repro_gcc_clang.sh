#!/bin/sh
# repro_gcc_clang.sh — a replay must not depend on the compiler: build
# arbiter with gcc and with clang (build/gcc-repro, build/clang-repro), play
# the same seeded matches with both (SOURCE_DATE_EPOCH fixed) and compare
# the files byte for byte; each build also verifies the other's files.
# Usage: tests/repro_gcc_clang.sh [GAME]   (exit 0 when identical)
set -eu
game=${1:-naramo}
out=$(mktemp -d /tmp/arbiter-repro-XXXXXX)
trap 'rm -rf "$out"' EXIT
make -s CC=gcc BUILD=build/gcc-repro all >/dev/null
make -s CC=clang BUILD=build/clang-repro all >/dev/null
export SOURCE_DATE_EPOCH=1700000000
fail=0
for seed in 1 2 3 42 2026; do
  for agents in random greedy; do
    for timed in "" --timed; do
      n="$seed-$agents${timed:+-timed}"
      build/gcc-repro/arbiter play --game "$game" --seed $seed --agents $agents $timed -o "$out/gcc-$n.tcgr" >/dev/null
      build/clang-repro/arbiter play --game "$game" --seed $seed --agents $agents $timed -o "$out/clang-$n.tcgr" >/dev/null
      if cmp -s "$out/gcc-$n.tcgr" "$out/clang-$n.tcgr"; then echo "same  $n"; else echo "DIFFERENT $n"; fail=1; fi
      build/gcc-repro/arbiter verify --quiet "$out/clang-$n.tcgr" || fail=1
      build/clang-repro/arbiter verify --quiet "$out/gcc-$n.tcgr" || fail=1
    done
  done
done
exit $fail
