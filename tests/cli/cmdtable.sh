#!/bin/bash
# cmdtable.sh — walks the command table (src/cli/cmdtab.h) through what it
# generates: for every command (and subcommand) the options completion
# offers are exactly those --help lists, each is accepted by the parser
# (never "unknown option", never "declared but not handled"), every man
# page's SYNOPSIS renders every usage line, and did-you-mean answers for
# options, commands, subcommands and rule IDs. A few seconds.
set -u
A=${ARBITER:-build/arbiter}
case $A in /*) ;; *) A=$PWD/$A ;; esac
[ -d conformance ] && export ARBITER_CONFORMANCE=${ARBITER_CONFORMANCE:-$PWD/conformance}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# the value a parser-only probe gives an option of each argument name
value_for() {
  case $1 in
    N|M|MS|P|S|BASE) echo 1 ;;
    K/N) echo 0/1 ;;
    ID|G|GAME) echo naramo ;;
    *) echo x ;;
  esac
}

cmds=$("$A" __complete "")
echo "$cmds" | grep -qx verify || fail "completion offers no 'verify'"
for c in $cmds; do
  [ "$c" = help ] && continue
  subs=$("$A" __complete "$c" "" | grep -v '^-')
  targets=$c
  # a command with subcommands: walk each (deck check, seed commit, …)
  if [ -n "$subs" ] && [ "$subs" != "@files" ] && [ "$subs" != "@dirs" ]; then
    targets=$(for s in $subs; do echo "$c/$s"; done)
  fi
  for t in $targets; do
    words=${t//\// }
    # shellcheck disable=SC2086
    offered=$("$A" __complete $words -- | grep -v '^--help$' | sort)
    # shellcheck disable=SC2086
    help=$("$A" $words --help 2>&1)
    listed=$(printf '%s\n' "$help" | awk '/^Options:/{on=1; next} on && /^$/{on=0} on' |
             grep -oE '^  (-[a-zA-Z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' | grep -v '^--help$' | sort)
    [ "$offered" = "$listed" ] || fail "$words: completion offers [$(echo $offered)] but --help lists [$(echo $listed)]"
    printf '%s\n' "$help" | grep -q '^usage: arbiter' || fail "$words --help has no usage line"
    for o in $offered; do
      # the argument name from the help line ("--jobs N")
      arg=$(printf '%s\n' "$help" | grep -oE -- "$o( [^ ]+)?  " | head -1 | awk '{print $2}')
      if [ -n "$arg" ]; then v=$(value_for "$arg"); set -- "$o" "$v"; else set -- "$o"; fi
      # shellcheck disable=SC2086
      err=$(cd "$tmp" && timeout 10 "$A" $words "$@" --help </dev/null 2>&1 >/dev/null)
      case $err in
        *"unknown option"*|*"declared but not handled"*) fail "$words $*: refused: $err" ;;
      esac
    done
  done
  # man page: SYNOPSIS renders every usage line
  if command -v groff >/dev/null 2>&1; then
    "$A" __man "$c" > "$tmp/$c.1" || fail "__man $c"
    syn=$(groff -man -Tutf8 -P-cbou "$tmp/$c.1" 2>/dev/null | sed 's/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g' |
          awk '/^SYNOPSIS/{on=1; next} /^[A-Z]/{on=0} on' | LC_ALL=C tr -cd '\11\12\40-\176' | tr -s ' \n' '  ')
    "$A" "$c" --help 2>/dev/null | awk '/^usage:|^       arbiter/{sub(/^usage: */, ""); print; next} {exit}' > "$tmp/usage"
    # a wrapped usage line continues on indented lines; join them first
    "$A" "$c" --help 2>/dev/null | awk 'NR==1 || /^       arbiter /{if (l) print l; l=$0; next} /^ +\[|^ +[A-Z-]/{if (l) {l=l $0; next}} {if (l) print l; l=""; exit}' |
      sed 's/^usage: *//; s/^ *//' | LC_ALL=C tr -cd '\11\12\40-\176' | tr -s ' ' > "$tmp/usage"
    while IFS= read -r u; do
      [ -n "$u" ] || continue
      [[ $syn == *"$u"* ]] || fail "man arbiter-$c: SYNOPSIS lacks '$u'"
    done < "$tmp/usage"
  fi
done

# shared flags mean the same everywhere: -j is --jobs, -o --output, -q --quiet, -g --game
for c in $cmds; do
  [ "$c" = help ] && continue
  h=$("$A" "$c" --help 2>&1)
  for pair in "j jobs" "o output" "q quiet" "g game"; do
    set -- $pair
    if printf '%s\n' "$h" | grep -qE -- "^  -$1, "; then
      printf '%s\n' "$h" | grep -qE -- "^  -$1, --$2\b" || fail "$c: -$1 is not --$2"
    fi
  done
  if printf '%s\n' "$h" | grep -qE -- '^  --json [A-Z]'; then fail "$c: --json takes a value"; fi
done
# the options issue #29 named: verify takes no --game, play no --at
"$A" __complete verify -- | grep -qx -- --game && fail "verify offers --game"
"$A" __complete play -- | grep -qx -- --at && fail "play offers --at"
for c in play report crosscheck; do
  "$A" __complete "$c" -- | grep -qx -- --jobs || fail "$c does not declare --jobs"
done
# values
"$A" __complete play --game "" | grep -qx naramo || fail "no game values"
"$A" __complete play --agents "random,g" | grep -qx "random,greedy" || fail "no agent list values"
"$A" __complete play --game naramo --decks "" | grep -q . || fail "no preset values"
"$A" __complete deck "" | grep -qx check || fail "deck subcommands"
"$A" __complete seed "" | grep -qx derive || fail "seed subcommands"
"$A" __complete archive "" | grep -qx repair || fail "archive subcommands"
"$A" __complete verify x | grep -qx @files || fail "verify operands are files"

# did-you-mean
expect() { # expect "ARGS" "substring"
  local out
  out=$(cd "$tmp" && eval "\"$A\" $1" 2>&1)
  [[ $out == *"$2"* ]] || fail "arbiter $1: no \"$2\" in: $out"
}
expect "verify --jsn x.tcgr" "did you mean '--json'"
expect "verfy" "did you mean 'verify'"
expect "deck chek --game naramo" "did you mean 'check'"
expect "seed derrive" "did you mean 'derive'"
expect "play --agnets random" "did you mean '--agents'"
expect "record --game naramo --seed 1 -o v.tcgr <<< '0 kep'" "did you mean 'keep'"
printf '3 Coolant Pump\n' > "$tmp/deck.txt"
expect "deck check --game naramo deck.txt" "did you mean 'Coolant Pumps'"
expect "play --game naramo --seed 1 --decks defense-do -o p.tcgr" "did you mean 'defense-doe'"
if [ -n "${ARBITER_CONFORMANCE:-}" ]; then
  expect "conform --rule NAR-LIMIT-ROSTR" "did you mean 'NAR-LIMIT-ROSTER'"
fi
# conform --json is a switch; the old --json FILE still works, with a note
expect "conform --game naramo --case 'no-such-*' --json out.json" "is now '--json-file FILE'"

if [ "$fails" -ne 0 ]; then echo "cmdtable: $fails failure(s)"; exit 1; fi
echo "cmdtable: every command's completion, --help, parser and man SYNOPSIS agree; did-you-mean answers"
