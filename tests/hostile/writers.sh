# writers.sh — issue #27 (hostile input, round 3), the writers, keys and
# adapter side: findings N4, N5, N7, N8, N9, N10, N13, N14, one named case
# each (sourced by run.sh after round2.sh, whose expect() it uses; $ARBITER,
# $here, $tmp, $root, $asan and the fail/n counters come from run.sh).
#
# planted NAME TARGET — NAME becomes a symbolic link to TARGET, a file that
# holds "victim"; untouched NAME TARGET afterwards checks that TARGET still
# holds exactly that and NAME is still the link (nothing written through it,
# nothing renamed over it).
w3=$tmp/w3
mkdir -p "$w3"
planted() { rm -f "$1"; printf 'victim\n' >"$2"; ln -s "$2" "$1"; }
untouched() {
    local what=$1 name=$2 target=$3
    if [ "$(cat "$target" 2>/dev/null)" != victim ] || [ ! -L "$name" ]; then
        echo "hostile (#27 $what): $target was written through the planted link $name, or the link was replaced"
        fail=1
    fi
    rm -f "$name" "$target"
}
W="$w3/w.tcgr"
"$ARBITER" play --game naramo --seed 1 --agents greedy -o "$W" >/dev/null

# --- N4 writers follow a planted NAME.part / NAME.new symlink (play, record,
# report, extract, play --games --archive, reseal, merge, conform reports):
# each is refused with exit 3 naming the link, and its target is untouched.
for tmpname in part new; do
    planted "$w3/p.tcgr.$tmpname" "$w3/victim"
    expect 3 "p.tcgr.$tmpname: a symbolic link: .*never written through a link" '' - \
        play --game naramo --seed 1 --agents greedy -o "$w3/p.tcgr"
    untouched "N4 play .$tmpname" "$w3/p.tcgr.$tmpname" "$w3/victim"
done
planted "$w3/r.tcgr.part" "$w3/victim"
expect 3 'r.tcgr.part: a symbolic link' '' - record --game naramo --seed 1 -o "$w3/r.tcgr"
untouched "N4 record" "$w3/r.tcgr.part" "$w3/victim"
planted "$w3/a.tcgr.part" "$w3/victim"
expect 3 'a.tcgr.part: a symbolic link' '' - play --game naramo --seed 1 --games 2 --archive -o "$w3/a.tcgr"
untouched "N4 play --games --archive" "$w3/a.tcgr.part" "$w3/victim"
planted "$w3/page.html.part" "$w3/victim"
expect 3 'page.html.part: a symbolic link' '' - report "$W" -o "$w3/page.html"
untouched "N4 report" "$w3/page.html.part" "$w3/victim"
"$ARBITER" play --game naramo --seed 1 --games 2 --archive -o "$w3/arch.tcgr" >/dev/null
planted "$w3/m.tcgr.part" "$w3/victim"
expect 3 'm.tcgr.part: a symbolic link' '' - extract "$w3/arch.tcgr#1" -o "$w3/m.tcgr"
untouched "N4 extract" "$w3/m.tcgr.part" "$w3/victim"
printf '{"file":"a.tcgr","index":0,"shard":"0/1","status":"ok","ok":true}\n' >"$w3/res.ndjson"
planted "$w3/merged.ndjson.part" "$w3/victim"
expect 3 'merged.ndjson.part: a symbolic link' '' - merge -o "$w3/merged.ndjson" "$w3/res.ndjson"
untouched "N4 merge" "$w3/merged.ndjson.part" "$w3/victim"
planted "$w3/tap.part" "$w3/victim"
expect 3 'tap.part: a symbolic link' '' - conform --schema "$root/conformance/schema" --tap "$w3/tap" \
    "$root/conformance/naramo/setup.xml"
untouched "N4 conform --tap" "$w3/tap.part" "$w3/victim"
# reseal rewrites FILE through FILE.part (this golden file's empty engine
# version forces a rewrite)
RW=$root/replays/golden/naramo/v2-rc0/rare-draw-s12503.tcgr
cp "$RW" "$w3/old.tcgr"
planted "$w3/old.tcgr.part" "$w3/victim"
expect 3 'FAILED to rewrite \(left untouched\): .*old.tcgr.part: a symbolic link' '' - reseal "$w3/old.tcgr"
cmp -s "$w3/old.tcgr" "$RW" || { echo "hostile (#27 N4 reseal): the file was changed"; fail=1; }
untouched "N4 reseal" "$w3/old.tcgr.part" "$w3/victim"
# ... and the target itself: a link at -o is refused, not written through or
# replaced by the rename (which used to leave the -o name a link)
planted "$w3/t.tcgr" "$w3/victim"
expect 3 't.tcgr: a symbolic link: output is never written through a link' '' - \
    play --game naramo --seed 1 --agents greedy -o "$w3/t.tcgr"
untouched "N4 target" "$w3/t.tcgr" "$w3/victim"
planted "$w3/ta.tcgr" "$w3/victim"
expect 3 'ta.tcgr: a symbolic link' '' - record --archive --game naramo --seed 1 -o "$w3/ta.tcgr"
untouched "N4 archive target" "$w3/ta.tcgr" "$w3/victim"
# a regular NAME.part left by a crash is replaced, not written into: a hard
# link there keeps its content
printf 'victim\n' >"$w3/victim"
ln "$w3/victim" "$w3/h.tcgr.part"
expect 0 'h.tcgr: naramo seed 1' '' - play --game naramo --seed 1 --agents greedy -o "$w3/h.tcgr"
if [ "$(cat "$w3/victim")" != victim ]; then echo "hostile (#27 N4 hard link): written through a hard link"; fail=1; fi
rm -f "$w3/victim" "$w3/h.tcgr.part"

# --- N8 report DIR -o OUT: same-named replays in two directories are two
# pages, named after their paths below DIR.
mkdir -p "$w3/in/a" "$w3/in/b"
cp "$W" "$w3/in/a/x.tcgr"
"$ARBITER" play --game naramo --seed 2 --agents greedy -o "$w3/in/b/x.tcgr" >/dev/null
cp "$W" "$w3/in/top.tcgr"
expect 0 '3 pages in' '' - report "$w3/in" -o "$w3/pages"
if [ ! -f "$w3/pages/a%2Fx.tcgr.html" ] || [ ! -f "$w3/pages/b%2Fx.tcgr.html" ] || [ ! -f "$w3/pages/top.tcgr.html" ] ||
    cmp -s "$w3/pages/a%2Fx.tcgr.html" "$w3/pages/b%2Fx.tcgr.html"; then
    echo "hostile (#27 N8): report DIR wrote $(ls "$w3/pages" | tr '\n' ' ')"; fail=1
fi

# --- N14 sign X.part never writes X when X exists, a dangling link included.
"$ARBITER" play --game naramo --seed 1 --agents greedy --max-actions 20 -o "$w3/s.tcgr" >/dev/null 2>&1 # leaves s.tcgr.part
"$ARBITER" keygen -o "$w3/k.key" --label tournament-server-1 >/dev/null
ln -s "$w3/nowhere" "$w3/s.tcgr"
expect 3 's.tcgr: exists; not overwritten' '' - sign --key "$w3/k.key" "$w3/s.tcgr.part"
if [ ! -L "$w3/s.tcgr" ] || [ -e "$w3/nowhere" ]; then echo "hostile (#27 N14): the dangling link was replaced or followed"; fail=1; fi
rm -f "$w3/s.tcgr"
expect 0 's.tcgr: sealed by .*a signed prefix' '' - sign --key "$w3/k.key" "$w3/s.tcgr.part"
# keygen and seed commit: never over anything, a dangling link included
ln -s "$w3/nowhere" "$w3/k2.key"
expect 3 'k2.key: exists \(a dangling symbolic link\); this file is never overwritten' '' - keygen -o "$w3/k2.key"
ln -s "$w3/nowhere" "$w3/s2.secret"
expect 3 's2.secret: exists \(a dangling symbolic link\)' '' - seed commit -o "$w3/s2.secret"
if [ -e "$w3/nowhere" ]; then echo "hostile (#27 N14): keygen/seed commit wrote through a dangling link"; fail=1; fi

# --- N7 reseal of a signed file refuses unless --key re-signs it or
# --drop-seal says so (it used to strip a valid seal: "resealed", exit 0).
cp "$RW" "$w3/sig.tcgr"
"$ARBITER" sign --key "$w3/k.key" "$w3/sig.tcgr" >/dev/null
cp "$w3/sig.tcgr" "$w3/sig.keep"
expect 2 'sig.tcgr: REFUSED: signed \(a valid seal by key [0-9a-f]{16}\); rewriting it would drop the seal: give --key' \
    'resealed' - reseal "$w3/sig.tcgr"
cmp -s "$w3/sig.tcgr" "$w3/sig.keep" || { echo "hostile (#27 N7): the refused signed file was changed"; fail=1; }
expect 2 'REFUSED: signed' 'would reseal' - reseal --dry-run "$w3/sig.tcgr"
expect 0 'resealed: .*; re-signed by [0-9a-f]{16} \(tournament-server-1\)' '' - reseal --key "$w3/k.key" "$w3/sig.tcgr"
expect 0 'sig.tcgr: OK: .*signed by [0-9a-f]{16} \(tournament-server-1\)' '' - verify --key "$w3/k.key.pub" "$w3/sig.tcgr"
cp "$w3/sig.keep" "$w3/sig.tcgr"
expect 0 'resealed: .*; seal dropped \(--drop-seal\)' '' - reseal --drop-seal "$w3/sig.tcgr"
expect 2 'not both' '' - reseal --drop-seal --key "$w3/k.key" "$w3/sig.tcgr"

# --- N9 --key / --keyring of a FIFO, a directory or a device is refused at
# once (a FIFO used to block forever); a keyring over 1 MiB is refused by size.
mkfifo "$w3/key.fifo"
expect 3 'key.fifo: not a regular file \(a FIFO\): not read as a key file' '' - verify --key "$w3/key.fifo" "$W"
expect 3 'key.fifo: not a regular file \(a FIFO\)' '' - verify --keyring "$w3/key.fifo" "$W"
expect 3 'not a regular file \(a device\)' '' - verify --keyring /dev/zero "$W"
expect 3 'w3: not a regular file \(a directory\)' '' - verify --key "$w3" "$W"
expect 3 'key.fifo: not a regular file \(a FIFO\)' '' - sign --key "$w3/key.fifo" "$W"
head -c 1100000 /dev/zero | tr '\0' '#' >"$w3/big.ring"
expect 3 'big.ring: larger than 1048576 bytes' '' - verify --keyring "$w3/big.ring" "$W"

# --- N10 key labels: invalid UTF-8, C1 controls (U+009B) and bidi controls
# are refused with the line; two keys under one label and one key under two
# labels are refused naming both lines.
pubhex=$(cut -d' ' -f2,3 "$w3/k.key.pub")
for bad in 'a\xc2\x9bb' 'a\xffb' 'x\xe2\x80\xaeevil' 'tab\there'; do
    printf "arbiter-ed25519 $pubhex $bad\n" >"$w3/bad.pub"
    expect 3 'bad.pub: line 1: the label is not valid UTF-8 or holds control or bidi characters' "$ESC" - \
        verify --key "$w3/bad.pub" "$W"
done
rm -f "$w3/k2.key" "$w3/k2.key.pub"  # N14 left a dangling link there
"$ARBITER" keygen -o "$w3/k2.key" --label tournament-server-1 >/dev/null
{ echo '# two servers, one name'; cat "$w3/k.key.pub" "$w3/k2.key.pub"; } >"$w3/same-label.ring"
expect 3 "same-label.ring: line 3: label 'tournament-server-1' names key [0-9a-f]{16} here and key [0-9a-f]{16} in .*same-label.ring: line 2: two keys under one label" \
    '' - verify --keyring "$w3/same-label.ring" "$W"
expect 3 "k2.key.pub: line 1: label 'tournament-server-1' names key .* in .*k.key.pub: line 1" '' - \
    verify --key "$w3/k.key.pub" --key "$w3/k2.key.pub" "$W"
{ cat "$w3/k.key.pub"; sed 's/tournament-server-1$/somebody-else/' "$w3/k.key.pub"; } >"$w3/two-labels.ring"
expect 3 "two-labels.ring: line 2: key [0-9a-f]{16} is labelled 'somebody-else' here and 'tournament-server-1' in .*two-labels.ring: line 1: one key under two labels" \
    '' - verify --keyring "$w3/two-labels.ring" "$W"
cat "$w3/k.key.pub" "$w3/k.key.pub" >"$w3/twice.ring"
expect 0 'sig.keep: OK: .*signed by [0-9a-f]{16} \(tournament-server-1\)' '' - verify --keyring "$w3/twice.ring" "$w3/sig.keep"
expect 2 'valid UTF-8 without control or bidi' '' - keygen -o "$w3/k3.key" --label "$(printf 'a\xe2\x80\xaeb')"

# --- N5 a fair-seed secret is single-use: the first match records its use
# in the secret file, a second --server-secret use is refused naming the
# file and the first match (both used to verify "fair seed ok").
"$ARBITER" seed commit -o "$w3/m.secret" >/dev/null
printf 'arbiter-fair-secret-v1\nsecret: %s\n' "$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$w3/old.secret"
chmod 600 "$w3/old.secret"
expect 0 'f1.tcgr: naramo seed' '' - play --game naramo --server-secret "$w3/m.secret" --contribution 0:01 \
    --contribution 1:02 -o "$w3/f1.tcgr"
n=$((n + 1))
grep -Eq '^used: play -o .*f1.tcgr, seed [0-9]+, commitment [0-9a-f]{16}…, at [0-9T:Z-]+$' "$w3/m.secret" ||
    { echo "hostile (#27 N5): the secret file does not record its use:"; sed 's/^/    /' "$w3/m.secret"; fail=1; }
expect 3 "m.secret: line 3: this server secret was already used \(used: play -o .*f1.tcgr, seed [0-9]+.*single-use" \
    'f2.tcgr: naramo' - play --game naramo --server-secret "$w3/m.secret" --contribution 0:01 --contribution 1:01 \
    -o "$w3/f2.tcgr"
expect 3 'm.secret: line 3: this server secret was already used' '' "$w3/res.ndjson" \
    record --game naramo --server-secret "$w3/m.secret" --contribution 0:01 --contribution 1:01 -o "$w3/f3.tcgr"
expect 3 'already used' '' - play --game naramo --server-secret "$w3/m.secret" --contribution 0:01 \
    --contribution 1:01 --no-record
[ ! -e "$w3/f2.tcgr" ] && [ ! -e "$w3/f2.tcgr.part" ] && [ ! -e "$w3/f3.tcgr" ] ||
    { echo "hostile (#27 N5): a refused second use wrote a replay"; fail=1; }
expect 0 'f1.tcgr: OK: .*fair seed ok' '' - verify "$w3/f1.tcgr"
expect 0 'seed: [0-9]+' '' - seed derive --server-secret "$w3/m.secret" --contribution 0:01 --contribution 1:02
# a secret file written before the rule (no used: line) works once
expect 0 'o1.tcgr: naramo seed' '' - play --game naramo --server-secret "$w3/old.secret" --contribution 0:01 \
    --contribution 1:02 -o "$w3/o1.tcgr"
expect 3 'old.secret: line 3: this server secret was already used' '' - play --game naramo \
    --server-secret "$w3/old.secret" --contribution 0:01 --contribution 1:02 -o "$w3/o2.tcgr"
# two matches started at once from one secret: exactly one gets it
"$ARBITER" seed commit -o "$w3/race.secret" >/dev/null
for i in 1 2 3 4; do
    "$ARBITER" play --game naramo --server-secret "$w3/race.secret" --contribution 0:0$i --contribution 1:02 \
        -o "$w3/race$i.tcgr" >/dev/null 2>&1 &
done
wait
n=$((n + 1))
won=$(ls "$w3"/race?.tcgr 2>/dev/null | wc -l)
used=$(grep -c '^used: ' "$w3/race.secret")
[ "$won" = 1 ] && [ "$used" = 1 ] || { echo "hostile (#27 N5): 4 concurrent uses: $won matches, $used used: lines"; fail=1; }

# --- N13 the engine adapter: a child the engine forks, keeping the socket
# open, dies with arbiter (it used to survive); the engine's stderr is
# escaped and cut after 64 KiB (1 GB of ESC bytes used to reach the
# terminal); an answer with invalid UTF-8, even in an unknown field, is a
# failure naming the request.
G=$(ls "$root"/replays/golden/naramo/*.tcgr | head -1)
BAD="python3 $root/tests/adapter/bad_adapter.py $ARBITER naramo"
gone() { # PID: no such process, or a zombie nobody reaped yet
    local st
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        st=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
        case $st in Z*) return 0 ;; esac
        sleep 0.1
    done
    return 1
}
BAD_ADAPTER_PIDFILE=$w3/engine-child.pid expect 0 'OK: 134 actions' '' - verify --engine "$BAD fork 3" "$G"
n=$((n + 1))
if [ ! -s "$w3/engine-child.pid" ]; then echo "hostile (#27 N13): the forking adapter did not start its child"; fail=1
elif ! gone "$(cat "$w3/engine-child.pid")"; then
    echo "hostile (#27 N13): the engine's forked child outlived arbiter"; kill "$(cat "$w3/engine-child.pid")"; fail=1
fi
expect 0 "u009b.*the engine's stderr is cut here: more than 65536 bytes.*wrote [0-9]+ more bytes to stderr \(not shown\)" \
    "$ESC|$(printf '\302\233')" - verify --engine "$BAD stderr 3" "$G"
n=$((n + 1))
esz=$("$ARBITER" verify --engine "$BAD stderr 3" "$G" 2>&1 >/dev/null | wc -c)
[ "$esz" -lt 600000 ] || { echo "hostile (#27 N13): $esz bytes of engine stderr passed on (bound: 64 KiB escaped)"; fail=1; }
expect 4 'request 3 \(hash\): the answer is not valid UTF-8 \(byte [0-9]+ of the line, 0xff\)' '' - \
    verify --engine "$BAD badutf8 3" "$G"
