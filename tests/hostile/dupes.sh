# dupes.sh — one match counted once (issue #27 N6): five copies of one
# signed win used to verify five times OK under --key, and stats reported
# "6 matches … P2 100.0 % (6/6)". Now verify over a set fails every match
# an earlier one of the set already holds (the same setup and actions, the
# same fair-seed secret, the same seed commitment), naming that one, and
# stats counts a match once and says how many it skipped. Sourced by
# run.sh (expect(), $ARBITER, $tmp, fail, n).
du=$tmp/dupes
mkdir -p "$du/five"
"$ARBITER" keygen -o "$du/k.key" --label dupes >/dev/null
"$ARBITER" play --game naramo --seed 1 --agents greedy --sign "$du/k.key" -o "$du/five/w.tcgr" >/dev/null
for i in 1 2 3 4 5; do cp "$du/five/w.tcgr" "$du/five/c$i.tcgr"; done
dupline='DUPLICATE \(match\): the same match \(setup and actions\) as [^ ]*five/c1.tcgr: a replayed match is counted once'
expect 1 "c1.tcgr: OK: .*signed by .* \\(dupes\\).*c2.tcgr: $dupline" 'c[2-5].tcgr: OK|w.tcgr: OK' - \
    verify --key "$du/k.key.pub" "$du/five"
out=$("$ARBITER" verify -j2 --key "$du/k.key.pub" "$du/five" 2>&1)
[ "$(grep -c 'DUPLICATE (match)' <<<"$out")" = 5 ] && [ "$(grep -c ': OK: ' <<<"$out")" = 1 ] ||
    { echo "hostile (#27 N6): verify -j2 of five copies: not 1 OK and 5 duplicates:"; head -c 800 <<<"$out"; fail=1; }
expect 1 '"file":"[^"]*c2.tcgr","game":"naramo","players":2,"status":"duplicate","ok":false.*"match_id":"[0-9a-f]{64}","duplicate":\{"kind":"match","of":"[^"]*c1.tcgr"' \
    '' - verify --json "$du/five/c1.tcgr" "$du/five/c2.tcgr"
expect 0 '6 replays, 0 unreadable.5 duplicates skipped \(a match is counted once\):.*duplicate: [^ ]*c2.tcgr: the same match.*NARAMO TCG \(naramo\): 1 match, 1 finished.*P2 100.0% \(1/1\)' \
    '6 match|\(6/6\)' - stats "$du/five"
"$ARBITER" verify --json "$du/five" >"$du/five.ndjson" 2>/dev/null
expect 0 '5 duplicates skipped.*NARAMO TCG \(naramo\): 1 match, ' '' - stats "$du/five.ndjson"
# ... two result files of the same matches (two shards' output merged by
# hand): the second file's lines are duplicates by match_id
head -n 1 "$du/five.ndjson" >"$du/first.ndjson"
expect 0 '6 duplicates skipped.*NARAMO TCG \(naramo\): 1 match, ' '' - stats "$du/first.ndjson" "$du/five.ndjson"

# The same match recorded again under other names and think times is the
# same match: a copier cannot hide it by re-recording.
"$ARBITER" log --json "$du/five/w.tcgr" | python3 -c '
import json, sys
for e in json.load(sys.stdin)["entries"]:
    if e.get("kind") == "action" and "verb" in e:
        s = "arbiter" if e["seat"] == -1 else str(e["seat"])
        print("+7", s, e["verb"], *e.get("args", []))' >"$du/w.moves"
"$ARBITER" record --game naramo --seed 1 --names Mallory,Trent -o "$du/again.tcgr" <"$du/w.moves" >/dev/null 2>&1
expect 1 "again.tcgr: $dupline" '' - verify "$du/five/c1.tcgr" "$du/again.tcgr"
# ... and a different match is not a duplicate
"$ARBITER" play --game naramo --seed 2 --agents greedy -o "$du/other.tcgr" >/dev/null
expect 0 'other.tcgr: OK' 'DUPLICATE' - verify "$du/five/c1.tcgr" "$du/other.tcgr"

# An archive that holds one match twice (recorded, appended again): the
# repeated member fails, and so does a member that is also a file given.
for _ in 1 2; do "$ARBITER" record --game naramo --seed 1 --archive -o "$du/ar.tcgr" <"$du/w.moves" >/dev/null 2>&1; done
expect 1 'ar.tcgr#0: OK: .*ar.tcgr#1: DUPLICATE \(match\): the same match \(setup and actions\) as [^ ]*ar.tcgr#0' '' - \
    verify "$du/ar.tcgr"
expect 1 'ar.tcgr#0: DUPLICATE \(match\): the same match \(setup and actions\) as [^ ]*c1.tcgr' '' - \
    verify "$du/five/c1.tcgr" "$du/ar.tcgr"

# A fair-seed secret used twice (its file copied before the first use
# consumed it): the second match reveals the same secret.
"$ARBITER" seed commit -o "$du/s.secret" >/dev/null
cp "$du/s.secret" "$du/s2.secret"
"$ARBITER" play --game naramo --server-secret "$du/s.secret" --contribution 0:01 --contribution 1:01 -o "$du/f1.tcgr" >/dev/null
"$ARBITER" play --game naramo --server-secret "$du/s2.secret" --contribution 0:02 --contribution 1:02 -o "$du/f2.tcgr" >/dev/null
expect 1 'f1.tcgr: OK: .*fair seed ok.*f2.tcgr: DUPLICATE \(fair-secret\): reveals the same fair-seed secret as [^ ]*f1.tcgr' \
    'f2.tcgr: OK' - verify "$du/f1.tcgr" "$du/f2.tcgr"
expect 1 '"status":"duplicate".*"duplicate":\{"kind":"fair-secret"' '' - verify --json "$du/f1.tcgr" "$du/f2.tcgr"
# A seed commitment shared by two matches (same seed and salt, other play).
"$ARBITER" play --game naramo --seed 5 --salt abcd -o "$du/c1.tcgr" >/dev/null
"$ARBITER" play --game naramo --seed 5 --salt abcd --agents greedy -o "$du/c2.tcgr" >/dev/null
expect 1 'c2.tcgr: DUPLICATE \(seed-commitment\): shares its seed commitment with [^ ]*c1.tcgr' '' - \
    verify "$du/c1.tcgr" "$du/c2.tcgr"
# A manifest names the same file twice: the second entry fails.
printf '%s\n%s\n' "$du/other.tcgr" "$du/other.tcgr" >"$du/twice.manifest"
expect 1 'other.tcgr: OK.*other.tcgr: DUPLICATE \(match\)' '' - verify --manifest "$du/twice.manifest"
# Two shards of one manifest that each hold one copy: each shard alone
# sees no duplicate; merge does (the later by match_id), and the merged
# summary counts it as a failure.
printf '%s\n' "$du/five/c1.tcgr" "$du/five/c2.tcgr" "$du/other.tcgr" >"$du/m.manifest"
"$ARBITER" verify --manifest "$du/m.manifest" --shard 0/2 --json >"$du/s0.ndjson"
"$ARBITER" verify --manifest "$du/m.manifest" --shard 1/2 --json >"$du/s1.ndjson"
grep -q '"status":"duplicate"' "$du/s0.ndjson" && { echo "hostile (#27 N6): shard 0 holds one copy only"; fail=1; }
expect 1 'by status: ok 2 duplicate 1.*FAILED [^ ]*c2.tcgr: duplicate: the same match \(setup and actions\) as [^ ]*c1.tcgr' \
    '' - merge "$du/s0.ndjson" "$du/s1.ndjson"
