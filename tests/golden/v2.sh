#!/usr/bin/env bash
# v2.sh — the version-2 golden corpus beside the kept version-1 one: every
# replay listed in replays/golden/<game>/MANIFEST is played again with its
# recorded `arbiter play` arguments (same seed, agents, decks, --timed,
# --disconnect, same SOURCE_DATE_EPOCH as generate.sh) into
# replays/golden/<game>/v2/, whose MANIFEST must repeat the v1 outcome,
# turns, actions and final hash exactly (the format changes, the matches
# do not).
# The version-1 files stay as they are (replays are forever).
#
#   ARBITER=build/arbiter tests/golden/v2.sh [GAME...]
set -euo pipefail
cd "$(dirname "$0")/../.."
ARBITER=${ARBITER:-build/arbiter}
export SOURCE_DATE_EPOCH=1764000000
games=("$@")
[ ${#games[@]} -gt 0 ] || games=($(ls replays/golden | grep -v README))
for g in "${games[@]}"; do
    src=replays/golden/$g/MANIFEST
    [ -f "$src" ] || continue
    dir=replays/golden/$g/v2
    rm -rf "$dir"
    mkdir -p "$dir"
    {
        echo "# version-2 golden corpus of $g: the matches of ../MANIFEST re-recorded by tests/golden/v2.sh"
        grep '^# arbiter\|^# file' "$src"
    } >"$dir/MANIFEST"
    files=()
    rules=$(sed -n 's/^# arbiter .*, rules \([^,]*\), .*/\1/p' "$src" | head -n 1)
    while IFS=$'\t' read -r f w r t a h args; do
        case $f in '#'* | '') continue ;; esac
        read -ra av <<<"$args"
        av+=(--rules "$rules")
        args=${args% --rules *}
        res=$("$ARBITER" play "${av[@]}" --json -o "$dir/$f")
        jf() { sed -n 's/.*"'"$1"'":"\{0,1\}\([^",}]*\)"\{0,1\}[,}].*/\1/p' <<<"$res" | head -n 1; }
        # the same match: winner, turns, actions and final hash; the reason
        # as the engine spells it now (v2 records its index, FORMAT.md §B.7)
        got="$(jf winner) $(jf reason | tr _ -) $(jf turns) $(jf actions) $(jf final_hash)"
        [ "$got" = "$w $(tr _ - <<<"$r") $t $a $h" ] ||
            { echo "v2: $g/$f: the match replays differently ($got; manifest: $w $r $t $a $h)" >&2; exit 1; }
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$w" "$(jf reason)" "$t" "$a" "$h" "$args --rules $rules" >>"$dir/MANIFEST"
        files+=("$f")
    done <"$src"
    grep '^# endings' "$src" >>"$dir/MANIFEST" || true
    echo "v2: $g: ${#files[@]} replays, $(du -cb "$dir"/*.tcgr | tail -1 | cut -f1) bytes (v1: $(du -cb replays/golden/$g/*.tcgr | tail -1 | cut -f1))" >&2
done
