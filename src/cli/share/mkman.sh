#!/bin/sh
# mkman.sh ARBITER OUTDIR — the man pages arbiter(1) and arbiter-COMMAND(1),
# generated from the binary's own `--help` texts, so they never drift from
# what the commands say. Every command's help is printed verbatim (as a
# preformatted block) under DESCRIPTION; usage lines become the SYNOPSIS.
set -eu
arb=$1 out=$2
mkdir -p "$out"
ver=$("$arb" --version | sed -n '1s/^arbiter //p')
date=${SOURCE_DATE_EPOCH:+$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d 2>/dev/null || true)}
esc() { sed -e 's/\\/\\e/g' -e 's/^\([.'\'']\)/\\\&\1/' -e 's/-/\\-/g'; }
cmds=$("$arb" --help | awk '/^Commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{if (n++) exit}')

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
  s=$("$arb" --help | awk -v c="$c" '$1==c {sub(/^  [^ ]+ +/, ""); print; exit}')
  h=$("$arb" "$c" --help 2>&1 || true)
  C=$(printf '%s' "$c" | tr a-z- A-Z_)
  {
    printf '.TH ARBITER\\-%s 1 "%s" "arbiter %s" "User Commands"\n' "$C" "$date" "$ver"
    printf '.SH NAME\narbiter\\-%s \\- %s\n' "$c" "$(printf '%s' "$s" | esc)"
    printf '.SH SYNOPSIS\n.nf\n'
    printf '%s\n' "$h" | awk '/^usage:|^       arbiter/{sub(/^usage: */, ""); sub(/^ +/, ""); print; next} {exit}' | esc
    printf '.fi\n.SH DESCRIPTION\n.nf\n'
    printf '%s\n' "$h" | awk 'body{print; next} !/^usage:|^       arbiter/{body=1; print}' | esc
    printf '.fi\n.SH SEE ALSO\n.BR arbiter (1)\n'
  } > "$out/arbiter-$c.1"
done
