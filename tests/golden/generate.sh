#!/usr/bin/env bash
# generate.sh — rebuild the golden corpus replays/golden/<game>/ and its
# MANIFEST from seeded self-play, deterministically.
#
# For every game compiled into $ARBITER (or the games named on the command
# line) it walks a fixed sequence of candidate matches — candidate i fixes the
# seed, the player count (2 to 4 where the game allows), the agents (random,
# greedy, or mixed per seat), the preset decks (rotated over every preset),
# --timed for one match in three, and, for games whose rules have a clock
# (they accept the arbiter's "disconnect"), an injected disconnect
# (`play --disconnect N[:MS]`) for one match in twelve — and plays each with
# `arbiter play`. It keeps up to PER_REASON matches of every ending the
# engine declares (`arbiter games --json` "outcomes"), searching up to
# BUDGET candidates for rare endings (until each has two), then fills the corpus in candidate
# order to TARGET files. Matches listed in tests/golden/rare.tsv (rare
# endings found by a wider search) are candidates before the walk. The start time is SOURCE_DATE_EPOCH (fixed), so the
# same engine gives byte-identical files. Endings no candidate reached are
# listed at the end of the MANIFEST and on stderr.
#
# Replays are forever: when replays/golden/GAME/ holds a corpus of an older
# rules version, the newest version's corpus is written to GAME@RULES/
# beside it (check.sh verifies both).
#
#   ARBITER=build/arbiter tests/golden/generate.sh [GAME...]
#   env: OUT (default replays/golden), TARGET (54), PER_REASON (4), BUDGET (3000)
set -euo pipefail
cd "$(dirname "$0")/../.."
ARBITER=${ARBITER:-build/arbiter}
OUT=${OUT:-replays/golden}
TARGET=${TARGET:-54}
PER_REASON=${PER_REASON:-4}
BUDGET=${BUDGET:-3000}
export SOURCE_DATE_EPOCH=1764000000   # 2025-11-24T16:00:00Z, informational only

json_field() { # json_field KEY LINE → value of a flat string or number field
    sed -n 's/.*"'"$1"'":"\{0,1\}\([^",}]*\)"\{0,1\}[,}].*/\1/p' <<<"$2"
}

games=("$@")
if [ ${#games[@]} -eq 0 ]; then
    mapfile -t games < <("$ARBITER" games --json | tr '{' '\n' | sed -n 's/^"id":"\([^"]*\)".*/\1/p')
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for g in "${games[@]}"; do
    line=$("$ARBITER" games --json | tr '{' '\n' | grep "^\"id\":\"$g\"")
    minp=$(json_field min_players "$line")
    maxp=$(json_field max_players "$line")
    [ "$maxp" -gt 4 ] && maxp=4
    read -r -a reasons <<<"$(sed -n 's/.*"outcomes":\[\([^]]*\)\].*/\1/p' <<<"$line" | tr -d '"' | tr ',' ' ')"
    mapfile -t presets < <("$ARBITER" deck list --game "$g" | awk '{print $1}')
    np=$((maxp - minp + 1))
    nd=${#presets[@]}
    clock=0
    "$ARBITER" play --game "$g" --seed 1 --disconnect 4 --no-record >/dev/null 2>&1 && clock=1

    declare -A count=()
    for r in "${reasons[@]}"; do count[$r]=0; done
    : >"$tmp/cands"
    missing=${#reasons[@]}
    # Known matches for rare endings first (tests/golden/rare.tsv).
    while IFS=$'\t' read -r rg tag argv; do
        [ "$rg" = "$g" ] || continue
        read -r -a rargs <<<"$argv"
        res=$("$ARBITER" play --format 1 --game "$g" "${rargs[@]}" --json -o "$tmp/$tag.tcgr" 2>/dev/null) || continue
        reason=$(json_field reason "$res")
        printf '%s\t%s\t%s\n' "$tag" "$reason" "--game $g $argv" >>"$tmp/cands"
        c=${count[$reason]:-0}
        count[$reason]=$((c + 1))
        if [ "$c" -eq 0 ]; then
            for r in "${reasons[@]}"; do [ "$r" = "$reason" ] && missing=$((missing - 1)); done
        fi
    done < <(grep -v '^#' tests/golden/rare.tsv)
    i=0
    while [ $i -lt "$BUDGET" ]; do
        if [ $missing -eq 0 ] && [ "$(wc -l <"$tmp/cands")" -ge $((TARGET * 2)) ]; then
            few=0   # keep walking (up to BUDGET) until every ending has two matches
            for r in "${reasons[@]}"; do [ "${count[$r]}" -lt 2 ] && few=1; done
            [ $few -eq 0 ] && break
        fi
        seed=$((1000 + i))
        p=$((minp + i % np))
        case $(((i / np) % 3)) in
        0) agents=random ;;
        1) agents=greedy ;;
        *) agents=""; for ((s = 0; s < p; s++)); do
               [ $(((s + i) % 2)) -eq 0 ] && a=random || a=greedy
               agents=${agents:+$agents,}$a; done ;;
        esac
        decks=""
        for ((s = 0; s < p; s++)); do decks=${decks:+$decks,}${presets[$(((i / 3 + s * (1 + i % 2)) % nd))]}; done
        args=(--game "$g" --seed "$seed" --players "$p" --agents "$agents" --decks "$decks")
        tag="s$seed-p$p-${agents//,/-}"
        if [ $((i % 3)) -eq 2 ]; then args+=(--timed); tag+="-timed"; fi
        if [ $clock -eq 1 ] && [ $((i % 12)) -eq 11 ]; then
            if [ $((i % 24)) -eq 23 ]; then args+=(--disconnect $((4 + i % 40)):5000); tag+="-reconnect"
            else args+=(--disconnect $((4 + i % 40))); tag+="-disconnect"; fi
        fi
        i=$((i + 1))
        res=$("$ARBITER" play --format 1 "${args[@]}" --json -o "$tmp/$tag.tcgr" 2>/dev/null) || continue
        reason=$(json_field reason "$res")
        [ -n "$reason" ] || continue
        printf '%s\t%s\t%s\n' "$tag" "$reason" "${args[*]}" >>"$tmp/cands"
        c=${count[$reason]:-0}
        count[$reason]=$((c + 1))
        if [ "$c" -eq 0 ]; then
            for r in "${reasons[@]}"; do [ "$r" = "$reason" ] && missing=$((missing - 1)); done
        fi
    done

    # Select: the first PER_REASON of every ending, then the rest in order.
    declare -A taken=()
    : >"$tmp/sel"
    for r in "${reasons[@]}"; do
        awk -F'\t' -v r="$r" -v k="$PER_REASON" '$2 == r && n < k { print; n++ }' "$tmp/cands" >>"$tmp/sel"
    done
    while IFS=$'\t' read -r tag _ _; do taken[$tag]=1; done <"$tmp/sel"
    while IFS=$'\t' read -r tag reason argv; do
        [ "$(wc -l <"$tmp/sel")" -ge "$TARGET" ] && break
        [ -n "${taken[$tag]:-}" ] && continue
        printf '%s\t%s\t%s\n' "$tag" "$reason" "$argv" >>"$tmp/sel"
    done <"$tmp/cands"

    # A corpus recorded under an older rules version is never overwritten:
    # the newest version's corpus goes beside it, in <game>@<rules>/.
    dir="$OUT/$g"
    rules=$(json_field rules "$line")
    if [ -f "$dir/MANIFEST" ] && ! grep -q "^# .*, rules $rules, " "$dir/MANIFEST"; then dir="$OUT/$g@$rules"; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    {
        echo "# golden corpus of $g: one line per replay, written by tests/golden/generate.sh"
        echo "# $("$ARBITER" --version), rules $(json_field rules "$line"), engine $(json_field engine "$line")"
        echo "# file	winner	reason	turns	actions	final_hash	arbiter play arguments"
    } >"$dir/MANIFEST"
    sort -t$'\t' -k1,1V "$tmp/sel" | while IFS=$'\t' read -r tag _ argv; do
        cp "$tmp/$tag.tcgr" "$dir/$tag.tcgr"
        v=$("$ARBITER" verify --json "$dir/$tag.tcgr")
        [ "$(json_field status "$v")" = ok ] || { echo "generate: $dir/$tag.tcgr does not verify: $v" >&2; exit 1; }
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tag.tcgr" "$(json_field winner "$v")" "$(json_field reason "$v")" \
            "$(json_field turns "$v")" "$(json_field actions "$v")" "$(json_field final_hash "$v")" "$argv" >>"$dir/MANIFEST"
    done
    covered=""; uncovered=""
    for r in "${reasons[@]}"; do
        n=$(awk -F'\t' -v r="$r" '!/^#/ && $3 == r' "$dir/MANIFEST" | wc -l)
        if [ "$n" -gt 0 ]; then covered+=" $r=$n"; else uncovered+=" $r"; fi
    done
    echo "# endings covered:$covered" >>"$dir/MANIFEST"
    if [ -n "$uncovered" ]; then
        echo "# endings not reached in $i candidates:$uncovered" >>"$dir/MANIFEST"
        echo "generate: $g: endings not reached in $i candidates:$uncovered" >&2
    fi
    echo "generate: $g: $(grep -vc '^#' "$dir/MANIFEST") replays, $(du -sk --apparent-size "$dir" | cut -f1) KiB;$covered" >&2
    unset count taken
done
