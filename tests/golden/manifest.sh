#!/usr/bin/env bash
# manifest.sh — after `arbiter reseal`, rewrite each golden MANIFEST's
# expected columns (winner, reason, turns, actions, final hash) from what the
# current engine verifies, keeping the file list, the play arguments and
# the coverage comments. A file that does not verify stops it (exit 1):
# reseal it or remove it first.
#
#   ARBITER=build/arbiter tests/golden/manifest.sh [GAME...]   (GAME/v2: the version-2 corpus)
set -euo pipefail
cd "$(dirname "$0")/../.."
ARBITER=${ARBITER:-build/arbiter}
GOLDEN=${GOLDEN:-replays/golden}
json_field() {
    sed -n 's/.*"'"$1"'":"\{0,1\}\([^",}]*\)"\{0,1\}[,}].*/\1/p' <<<"$2" | head -n 1
}
games=("$@")
[ ${#games[@]} -gt 0 ] || for m in "$GOLDEN"/*/MANIFEST "$GOLDEN"/*/v2*/MANIFEST; do
    [ -f "$m" ] && games+=("${m#"$GOLDEN"/}") && games[-1]=${games[-1]%/MANIFEST}
done
for g in "${games[@]}"; do
    man="$GOLDEN/$g/MANIFEST"
    line=$("$ARBITER" games --json | tr '{' '\n' | grep "^\"id\":\"${g%%/*}\"") || { echo "manifest: no $g engine" >&2; exit 1; }
    : >"$man.new"
    changed=0
    while IFS= read -r l; do
        case $l in
        '# arbiter '*) echo "# $("$ARBITER" --version), rules $(json_field rules "$line"), engine $(json_field engine "$line")" >>"$man.new"; continue ;;
        '#'* | '') echo "$l" >>"$man.new"; continue ;;
        esac
        IFS=$'\t' read -r f w r t a h argv <<<"$l"
        v=$("$ARBITER" verify --json "$GOLDEN/$g/$f")
        [ "$(json_field status "$v")" = ok ] || { echo "manifest: $GOLDEN/$g/$f does not verify; reseal it first" >&2; rm -f "$man.new"; exit 1; }
        new=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s' "$f" "$(json_field winner "$v")" "$(json_field reason "$v")" \
              "$(json_field turns "$v")" "$(json_field actions "$v")" "$(json_field final_hash "$v")" "$argv")
        [ "$new" = "$l" ] || { changed=$((changed + 1)); echo "manifest: $g/$f: $w $r $t $a $h -> $(cut -f2-6 <<<"$new" | tr '\t' ' ')"; }
        echo "$new" >>"$man.new"
    done <"$man"
    mv "$man.new" "$man"
    echo "manifest: $man: $changed line(s) changed"
done
