#!/bin/sh
# mkman.sh ARBITER OUTDIR — the man pages arbiter(1) and arbiter-COMMAND(1),
# generated from the binary's own command table, so they never drift from
# what the commands accept: arbiter(1) from `arbiter --help`, each
# arbiter-COMMAND(1) from `arbiter __man COMMAND` (SYNOPSIS holds every
# usage line, OPTIONS every option).
set -eu
arb=$1 out=$2
mkdir -p "$out"
ver=$("$arb" --version | sed -n '1s/^arbiter //p')
date=${SOURCE_DATE_EPOCH:+$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d 2>/dev/null || true)}
esc() { sed -e 's/\\/\\e/g' -e 's/^\([.'\'']\)/\\\&\1/' -e 's/-/\\-/g'; }
cmds=$("$arb" __man --list)

{
  printf '.TH ARBITER 1 "%s" "arbiter %s" "User Commands"\n' "$date" "$ver"
  printf '.SH NAME\narbiter \\- record, replay, verify and analyze trading-card-game matches\n'
  printf '.SH SYNOPSIS\n.B arbiter\n[\\-\\-version] [\\-\\-help]\n.I COMMAND\n[ARGS]\n'
  printf '.SH DESCRIPTION\n.nf\n'
  "$arb" --help | esc
  printf '.fi\n.SH COMMANDS\n'
  for c in $cmds; do
    s=$("$arb" --help | awk -v c="$c" '$1==c {sub(/^  [^ ]+ +/, ""); print; exit}')
    printf '.TP\n.BR arbiter\\-%s (1)\n%s\n' "$c" "$(printf '%s' "$s" | esc)"
  done
  printf '.SH FILES\n.TP\n.I %s\nthe conformance suite and its schemas (override with ARBITER_CONFORMANCE)\n' '$(PREFIX)/share/arbiter/conformance' | sed "s|\$(PREFIX)|${PREFIX:-/usr/local}|"
  printf '.SH SEE ALSO\n'
  for c in $cmds; do printf '.BR arbiter\\-%s (1),\n' "$c"; done
  printf '.BR tcgr (5)\nin replays/FORMAT.md of the source tree.\n'
} > "$out/arbiter.1"

for c in $cmds; do
  ARBITER_MAN_DATE=$date "$arb" __man "$c" > "$out/arbiter-$c.1"
done
