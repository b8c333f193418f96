#!/usr/bin/env bash
# tests/readme/run.sh — every fenced code block of README.md, tested.
#
# Each block is preceded (as the last non-blank line before its opening
# fence) by one annotation naming how it is tested:
#
#   <!-- readme-test: run [checkout] -->
#       sh commands: run with `bash -e -o pipefail` in a fresh temporary
#       directory, the build tree's `arbiter` first on PATH (README's
#       `export PATH=$PWD/build:$PATH`); the exit status must be 0.
#   <!-- readme-test: transcript [checkout] -->
#       `$ CMD` lines (a line ending in `\` continues on the next one) are
#       run in one shell, in order; the lines up to the next `$ ` are CMD's
#       expected output (stdout and stderr together). In an expected line
#       `…` matches any text; a line that is only `…` matches any number of
#       lines, none included.
#   <!-- readme-test: c NAME -->
#       C source: written to NAME, compiled with -std=c11 -Wall -Wextra
#       -Wpedantic -Werror against the build tree's headers and
#       libarbiter.so, and run without arguments; the exit status must be 0.
#   <!-- readme-test: file NAME CHECK-CMD… -->
#       a data file: written to NAME, then CHECK-CMD (the rest of the
#       annotation, a bash command; $CHECKOUT is the checkout) is run there
#       and must exit 0.
#   <!-- readme-test: covered-by TARGET REASON… -->
#       only for what a test cannot run here (make install into a system
#       prefix, sbatch, `make check` itself): TARGET must be a make target,
#       and so must every `make X` a sh block names; a sh block must parse.
#
# `checkout`: the temporary directory also holds a symbolic link to every
# top-level entry of the checkout (`build` to the build tree under test), so
# paths such as build/tests/… and replays/golden/… resolve as from a
# clone's root while the files a block writes stay in the temporary
# directory.
#
# Fixtures, created before each block in its directory (README's
# placeholders):
#   match.tcgr  `arbiter play --game naramo --seed 42 --agents greedy`: 60
#               records, so `--at 37` is inside the match
#   moves.txt   match.tcgr's actions after record 37, in `record`'s syntax
#               (`[+MS] SEAT VERB ARG…`): they finish the match from the
#               state at record 37
#   day.tcgr    `arbiter play --game naramo --games 20 --seed 1 --archive`:
#               a server's day, 8 of whose matches P1 wins playing
#               Coolant Pumps
#
# A block without an annotation, an unknown kind or a failing block fails
# the test, naming README.md:LINE (the opening fence). READMETEST_ONLY=LINE
# runs one block. Environment: ARBITER (default build/arbiter; the build
# directory is the one it is in), CC and READMETEST_CFLAGS (the c blocks).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
CHECKOUT=$PWD
export CHECKOUT
ARBITER=${ARBITER:-build/arbiter}
case $ARBITER in /*) ;; *) ARBITER=$CHECKOUT/$ARBITER ;; esac
BUILD_DIR=$(cd "$(dirname "$ARBITER")" && pwd)
README=${README:-README.md}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
READMETEST_CFLAGS=${READMETEST_CFLAGS:-}   # e.g. the sanitizer flags the library was built with
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH=$BUILD_DIR:$PATH
unset ARBITER_CONFORMANCE ARBITER_GAMES_PATH
export SOURCE_DATE_EPOCH=1764600000 ARBITER_PROGRESS=0

fail=0
ran=0
declare -A kinds=()
say_fail() { echo "readme: FAIL $README:$1: $2" >&2; fail=1; }

# --- fixtures ---------------------------------------------------------------
fix=$tmp/fixtures
mkdir -p "$fix"
(
    cd "$fix" &&
    arbiter play --game naramo --seed 42 --agents greedy -o match.tcgr >/dev/null &&
    arbiter play --game naramo --games 20 --seed 1 --archive -o day.tcgr >/dev/null &&
    arbiter log match.tcgr --json >match.log.json &&
    "$PYTHON" - match.log.json >moves.txt <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for e in doc["entries"]:
    if e["kind"] == "action" and e["record"] > 37:
        words = ["+%d" % e["elapsed_ms"]] if e["elapsed_ms"] else []
        words.append("arbiter" if e["seat"] < 0 else str(e["seat"]))
        words.append(e["verb"])
        words += [str(a) for a in e["args"]]
        print(" ".join(words))
EOF
) || { echo "readme: FAIL: cannot create the fixtures" >&2; exit 1; }
[ -s "$fix/moves.txt" ] || { echo "readme: FAIL: fixture moves.txt is empty" >&2; exit 1; }
rm -f "$fix/match.log.json"

# A fresh directory with the fixtures (and, for `checkout`, the links).
fresh() { # NAME [checkout]
    local d=$tmp/blocks/$1
    mkdir -p "$d"
    cp "$fix"/* "$d"/
    if [ "${2:-}" = checkout ]; then
        local e
        ln -s "$BUILD_DIR" "$d/build"       # the build tree under test (build/san under make sanitize)
        for e in "$CHECKOUT"/*; do
            [ -e "$d/$(basename "$e")" ] || ln -s "$e" "$d/$(basename "$e")"
        done
    fi
    echo "$d"
}

# expected-output matcher: EXPECTED-FILE ACTUAL-FILE; prints the difference
like() {
    "$PYTHON" - "$1" "$2" <<'EOF'
import re, sys
want = open(sys.argv[1], encoding="utf-8").read().splitlines()
got = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
def line_ok(p, s):
    return re.fullmatch(".*".join(re.escape(x) for x in p.split("\u2026")), s, re.S) is not None
memo = {}
def match(i, j):
    if (i, j) in memo:
        return memo[(i, j)]
    if i == len(want):
        r = j == len(got)
    elif want[i] == "\u2026":
        r = any(match(i + 1, k) for k in range(j, len(got) + 1))
    else:
        r = j < len(got) and line_ok(want[i], got[j]) and match(i + 1, j + 1)
    memo[(i, j)] = r
    return r
sys.setrecursionlimit(100000)
if not match(0, 0):
    print("    expected:")
    for l in want: print("      " + l)
    print("    got:")
    for l in got[:40]: print("      " + l)
    if len(got) > 40: print("      … (%d lines)" % len(got))
    sys.exit(1)
EOF
}

# As a user types it: not under the caller's make (make sanitize sets BUILD,
# and MAKEFLAGS would carry it into this make and name other targets).
make_target_ok() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$CHECKOUT" -n --no-print-directory "$@" >/dev/null 2>&1; }

# --- the kinds ----------------------------------------------------------------
run_block() { # LINE BODY-FILE [checkout]
    local line=$1 body=$2 d
    d=$(fresh "$line" "${3:-}")
    cp "$body" "$d/readme-block.sh"
    local rc=0
    (cd "$d" && bash -e -o pipefail readme-block.sh >readme-block.log 2>&1) || rc=$?
    if [ $rc -ne 0 ]; then
        say_fail "$line" "the block exits $rc; its output ends:"
        tail -n 15 "$d/readme-block.log" | sed 's/^/    /' >&2
    fi
}

transcript_block() { # LINE BODY-FILE [checkout]
    local line=$1 body=$2 d n=0 cmd="" l
    local -a cmds=()
    d=$(fresh "$line" "${3:-}")
    : >"$d/readme-transcript.sh"
    while IFS= read -r l || [ -n "$l" ]; do
        if [ -n "$cmd" ]; then            # a continued command
            cmd+=$'\n'"$l"
        elif [ "${l#\$ }" != "$l" ]; then
            n=$((n + 1)); cmd=${l#\$ }
            : >"$d/readme-want.$n"
        elif [ "$n" -eq 0 ]; then
            say_fail "$line" "transcript output before its first '\$ ' line: $l"; return
        else
            printf '%s\n' "$l" >>"$d/readme-want.$n"
            continue
        fi
        case $cmd in *\\) continue ;; esac
        printf '{\n%s\n} >readme-got.%d 2>&1\n' "$cmd" "$n" >>"$d/readme-transcript.sh"
        cmds[n]=${cmd%%$'\n'*}
        cmd=""
    done <"$body"
    [ "$n" -gt 0 ] || { say_fail "$line" "transcript without a '\$ ' line"; return; }
    (cd "$d" && bash readme-transcript.sh >/dev/null 2>&1)
    local i out
    for i in $(seq 1 "$n"); do
        if ! out=$(like "$d/readme-want.$i" "$d/readme-got.$i" 2>&1); then
            say_fail "$line" "command $i of the transcript printed something else: ${cmds[i]}"
            echo "$out" >&2
        fi
    done
}

c_block() { # LINE BODY-FILE NAME
    local line=$1 body=$2 name=$3 d
    d=$(fresh "$line")
    cp "$body" "$d/$name"
    # shellcheck disable=SC2086
    if ! (cd "$d" && $CC $READMETEST_CFLAGS -std=c11 -Wall -Wextra -Wpedantic -Werror "$name" -I"$CHECKOUT/include" \
            -L"$BUILD_DIR" -larbiter -Wl,-rpath,"$BUILD_DIR" -o readme-c >readme-c.log 2>&1); then
        say_fail "$line" "$name does not compile:"; sed 's/^/    /' "$d/readme-c.log" >&2; return
    fi
    if ! (cd "$d" && ./readme-c >readme-c.log 2>&1); then
        say_fail "$line" "$name compiled, but its program fails:"; tail -n 15 "$d/readme-c.log" | sed 's/^/    /' >&2
    fi
}

file_block() { # LINE BODY-FILE NAME CHECK-CMD
    local line=$1 body=$2 name=$3 check=$4 d
    [ -n "$check" ] || { say_fail "$line" "file $name: no CHECK-CMD"; return; }
    d=$(fresh "$line")
    cp "$body" "$d/$name"
    if ! (cd "$d" && bash -o pipefail -c "$check" >readme-check.log 2>&1); then
        say_fail "$line" "file $name: '$check' fails:"; tail -n 15 "$d/readme-check.log" | sed 's/^/    /' >&2
    fi
}

covered_block() { # LINE BODY-FILE LANG TARGET REASON
    local line=$1 body=$2 lang=$3 target=$4 reason=$5 t
    if [ -z "$target" ] || [ -z "$reason" ]; then say_fail "$line" "covered-by needs a TARGET and a reason"; return; fi
    make_target_ok "$target" || { say_fail "$line" "covered-by $target: no such make target"; return; }
    [ "$lang" = sh ] || return 0
    bash -n "$body" 2>"$tmp/syntax" || { say_fail "$line" "the block does not parse: $(head -1 "$tmp/syntax")"; return; }
    # every `make TARGET [VAR=…]` of the block names a real target
    while read -r t; do
        # shellcheck disable=SC2086
        make_target_ok $t || say_fail "$line" "'make $t': no such make target"
    done < <(sed -n 's/#.*//; s/^[[:space:]]*make[[:space:]]\{1,\}\([^&|;]*\).*/\1/p' "$body")
}

# --- walk README.md -------------------------------------------------------------
lineno=0
prev=""          # the last non-blank line outside a block
inblock=0
while IFS= read -r l || [ -n "$l" ]; do
    lineno=$((lineno + 1))
    if [ $inblock -eq 0 ]; then
        if [[ $l =~ ^([[:space:]]*)\`\`\`([A-Za-z0-9]*)[[:space:]]*$ ]]; then
            inblock=1; start=$lineno; indent=${#BASH_REMATCH[1]}; lang=${BASH_REMATCH[2]}
            annot=$prev; : >"$tmp/body"
        elif [[ $l =~ [^[:space:]] ]]; then
            prev=$l
        fi
        continue
    fi
    if [[ $l =~ ^[[:space:]]*\`\`\`[[:space:]]*$ ]]; then
        inblock=0; prev=""
        if [ -n "${READMETEST_ONLY:-}" ] && [ "$READMETEST_ONLY" != "$start" ]; then continue; fi
        ran=$((ran + 1))
        if ! [[ $annot =~ ^[[:space:]]*\<\!--\ readme-test:\ (.*[^[:space:]])[[:space:]]*--\>[[:space:]]*$ ]]; then
            say_fail "$start" "a code block without a '<!-- readme-test: KIND … -->' line before it"
            continue
        fi
        spec=${BASH_REMATCH[1]}
        kind=${spec%% *}; args=""; [ "$kind" = "$spec" ] || args=${spec#* }
        kinds[$kind]+="$start "
        case $kind in
            run)
                [ -z "$args" ] || [ "$args" = checkout ] || { say_fail "$start" "run: unknown option '$args'"; continue; }
                run_block "$start" "$tmp/body" "$args" ;;
            transcript)
                [ -z "$args" ] || [ "$args" = checkout ] || { say_fail "$start" "transcript: unknown option '$args'"; continue; }
                transcript_block "$start" "$tmp/body" "$args" ;;
            c)
                [ -n "$args" ] || { say_fail "$start" "c: no file NAME"; continue; }
                c_block "$start" "$tmp/body" "$args" ;;
            file)
                name=${args%% *}; check=""; [ "$name" = "$args" ] || check=${args#* }
                [ -n "$name" ] || { say_fail "$start" "file: no NAME"; continue; }
                file_block "$start" "$tmp/body" "$name" "$check" ;;
            covered-by)
                target=${args%% *}; reason=""; [ "$target" = "$args" ] || reason=${args#* }
                covered_block "$start" "$tmp/body" "$lang" "$target" "$reason" ;;
            *)
                say_fail "$start" "unknown readme-test kind '$kind'" ;;
        esac
        continue
    fi
    # the block's line, without the fence's indentation
    k=0
    while [ $k -lt "$indent" ] && [ "${l:0:1}" = " " ]; do l=${l:1}; k=$((k + 1)); done
    printf '%s\n' "$l" >>"$tmp/body"
done <"$README"
[ $inblock -eq 0 ] || say_fail "$start" "the code block is never closed"
[ $ran -gt 0 ] || { echo "readme: FAIL: no code block opens at $README${READMETEST_ONLY:+:$READMETEST_ONLY}" >&2; exit 1; }

summary=""
for k in run transcript c file covered-by; do
    [ -n "${kinds[$k]:-}" ] || continue
    # shellcheck disable=SC2086  # the list of lines, split on purpose
    set -- ${kinds[$k]}
    summary+="${summary:+, }$# $k"
done
if [ $fail -ne 0 ]; then
    echo "readme: FAIL ($ran code blocks of $README: $summary)" >&2
    exit 1
fi
echo "readme: $ran code blocks of $README pass ($summary)"
