#!/usr/bin/env bash
# test_install.sh — arbiter as an installed Debian-style tool, from outside
# the checkout: `make install` into a temporary prefix; the shared library's
# SONAME and symlinks; every exported symbol is public API (named in an
# installed header); arbiter.pc works with pkg-config and does not name
# msgpack; the README's "Recording from your own server" program and its
# build lines, extracted from the README, build with pkg-config (the
# temporary prefix's arbiter.pc carries an rpath; /usr's would not) and
# record a match that verifies;
# the README tour runs as written in an empty directory; `arbiter conform`
# finds the installed suite; `man arbiter` renders; bash completion
# completes commands; `make uninstall` removes every installed file and
# every directory install created.
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/usr
fail() { echo "install: FAIL: $*" >&2; exit 1; }

make --no-print-directory -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install"; }
ver=$(sed -n 's/^#define ARB_VERSION "\(.*\)"/\1/p' include/arbiter/version.h)

# The shared library: versioned file, SONAME, symlinks.
lib=$prefix/lib/libarbiter.so.$ver
[ -f "$lib" ] || fail "no $lib"
readelf -d "$lib" | grep -q 'SONAME.*\[libarbiter\.so\.0\]' || fail "SONAME is not libarbiter.so.0"
[ "$(readlink "$prefix/lib/libarbiter.so.0")" = "libarbiter.so.$ver" ] || fail "libarbiter.so.0 symlink"
[ "$(readlink "$prefix/lib/libarbiter.so")" = "libarbiter.so.0" ] || fail "libarbiter.so symlink"

# Only public API is exported: each dynamic symbol is named by an installed header.
grep -ohE '\barb_[A-Za-z0-9_]+' "$prefix"/include/arbiter/*.h | sort -u >"$tmp/public"
nm -D --defined-only "$lib" | awk 'NF==3 && $2 != "A" {sub(/@.*/, "", $3); print $3}' | sort -u >"$tmp/exported"
extra=$(comm -23 "$tmp/exported" "$tmp/public")
[ -z "$extra" ] || fail "exported but not public API: $(echo $extra | head -c 400)"
n=$(wc -l <"$tmp/exported")
[ "$n" -gt 50 ] || fail "only $n symbols exported"
for s in arb_game_find arb_replay_verify_file arb_conform_load arb_agent_new arb_started_now; do
    grep -qx "$s" "$tmp/exported" || fail "$s not exported"
done

# arbiter.pc: resolvable, no msgpack.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pkg-config --exists arbiter || fail "pkg-config arbiter"
[ "$(pkg-config --modversion arbiter)" = "$ver" ] || fail "arbiter.pc version"
! grep -qi msgpack "$prefix/lib/pkgconfig/arbiter.pc" || fail "arbiter.pc names msgpack"
grep -q '^#include "arbiter/conform.h"' "$prefix/include/arbiter/arbiter.h" || fail "arbiter.h lacks conform.h"

# Everything below runs outside the checkout, with the installed binary first on PATH.
work=$tmp/work
mkdir -p "$work"
cd "$work"
export PATH=$prefix/bin:$PATH
unset ARBITER_CONFORMANCE
[ "$(command -v arbiter)" = "$prefix/bin/arbiter" ] || fail "installed arbiter not on PATH"

# The README's server example and the sh block after it (its build and run
# lines), run as written against the installed library: a non-system
# prefix's arbiter.pc carries the rpath, so no LD_LIBRARY_PATH is needed.
awk '/^## Recording from your own server/{s=1} s && /^```c$/{c=1; next} c && /^```$/{exit} c' "$src/README.md" >server.c
[ -s server.c ] || fail "README has no C block under 'Recording from your own server'"
awk '/^## Recording from your own server/{s=1} s && /^```c$/{c=1} c && /^```sh$/{b=1; next} b && /^```$/{exit} b' "$src/README.md" >server.sh
grep -q '^cc server.c \$(pkg-config --cflags --libs arbiter)' server.sh || fail "README's server build line changed: $(cat server.sh)"
grep -q 'rpath' "$prefix/lib/pkgconfig/arbiter.pc" || fail "arbiter.pc for $prefix/lib (not a system directory) has no rpath"
out=$(unset LD_LIBRARY_PATH; SOURCE_DATE_EPOCH=1764600000 bash -e -o pipefail server.sh 2>&1) || fail "README's server lines: $out"
case $out in *"live.tcgr: "*" actions recorded, verified"*"live.tcgr: OK: "*) ;; *) fail "README's server lines said: $out" ;; esac
[ "$(readelf -d server | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')" = "$prefix/lib" ] || fail "server's RUNPATH: $(readelf -d server | grep -i path)"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror server.c $(pkg-config --cflags --libs arbiter) -o server-strict \
   || fail "server example does not build warning-free"
arbiter info live.tcgr | grep -q '2025-12-01T14:40:00Z' || fail "started time not from SOURCE_DATE_EPOCH"
# ... and a system directory's arbiter.pc has none (src/cli/share/mkpc.sh).
! sh "$src/src/cli/share/mkpc.sh" /usr "$ver" zlib | grep -q rpath || fail "arbiter.pc for /usr/lib has an rpath"

# The README tour, as written, in an empty directory.
mkdir tour && cd tour
awk '/^## A tour/{s=1} s && /^```sh$/{c=1; next} c && /^```$/{exit} c' "$src/README.md" >tour.sh
[ -s tour.sh ] || fail "README has no tour"
bash -euo pipefail tour.sh >tour.log 2>&1 || { tail -n 20 tour.log; fail "README tour"; }
cd "$work"

# The installed conformance suite, found without a checkout or a variable.
arbiter conform --quiet >conform.log 2>&1 || { tail -n 5 conform.log; fail "installed conform"; }

# man pages.
MANPATH=$prefix/share/man man -P cat arbiter 2>/dev/null | grep -q 'arbiter - record, replay' || fail "man arbiter"
MANPATH=$prefix/share/man man -P cat arbiter-verify 2>/dev/null | grep -q 'SYNOPSIS' || fail "man arbiter-verify"

# bash completion.
# shellcheck disable=SC1091
. "$prefix/share/bash-completion/completions/arbiter"
COMP_WORDS=(arbiter ver); COMP_CWORD=1; _arbiter
[[ " ${COMPREPLY[*]} " == *" verify "* ]] || fail "completion of 'arbiter ver': ${COMPREPLY[*]}"
COMP_WORDS=(arbiter play --game na); COMP_CWORD=3; _arbiter
[[ " ${COMPREPLY[*]} " == *" naramo "* ]] || fail "completion of --game: ${COMPREPLY[*]}"

# uninstall leaves nothing behind.
cd "$src"
make --no-print-directory -s uninstall PREFIX="$prefix" >/dev/null
# ... nor a directory install created (the prefix too), and keeps what was there
left=$( [ ! -e "$prefix" ] || find "$prefix" | head -5)
[ -z "$left" ] || fail "uninstall left: $left"
[ -d "$tmp" ] || fail "uninstall removed the prefix's parent, which install did not create"
echo "install: $n public symbols exported, SONAME libarbiter.so.0; tour, server example, conform, man and completion work from $prefix"
