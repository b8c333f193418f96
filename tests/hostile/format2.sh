# format2.sh — the old audit's findings on format 2 (issue #27 item 10),
# sourced by run.sh after round3.sh (it uses round2.sh's expect and
# round3.sh's flip; $ARBITER, $root, $here, $tmp, $asan and the fail/n
# counters come from run.sh). The old corpus (replay-*.tcgr, made by
# make_corpus.py) is format 1; here every forgery of it is made again as a
# version-2 single file and as an archive member (make_format2.py), the
# byte-level attacks hit a range-coded file, the reader rules FORMAT.md
# states are checked on both readers (arbiter and replays/tcgr_dump.py),
# and a recorder killed with SIGKILL is recovered in format 2: a journal, an
# archive being written, an archive being appended to.
f2=$tmp/f2
mkdir -p "$f2"
rc_file=$root/replays/golden/naramo/v2/s1000-p2-random.tcgr
z_file=$root/replays/golden/naramo/v2-zlib/s1000-p2-random.tcgr
dump() { python3 "$root/replays/tcgr_dump.py" "$@"; }
# actions FILE — FILE's actions in record's syntax (SEAT VERB ARG…, verbs by
# number), read by the independent reader
actions() {
    "$ARBITER" verbs --game naramo >"$f2/verbs.txt"
    dump "$1" | awk 'NR == FNR { v[$1] = $2; next }
        $2 == "action" { s = $5 == -1 ? "arbiter" : $5; a = ""; for (i = 9; i <= NF; i++) a = a " " $i;
                         gsub(/[][,]/, "", a); print s, v[$7] a }' "$f2/verbs.txt" -
}
# both NAME PATTERN — tcgr_dump.py must refuse FILE too (exit 3, PATTERN).
both() {
    local out rc
    n=$((n + 1))
    out=$(dump --summary "$1" 2>&1)
    rc=$?
    if [ $rc -ne 3 ] || ! grep -Eq -- "$2" <<<"$out"; then
        echo "hostile (format 2): tcgr_dump.py $1: expected exit 3 and /$2/, got exit $rc: $(head -c 300 <<<"$out")"
        fail=1
    fi
}
if ! command -v python3 >/dev/null; then
    echo "hostile (format 2): python3 missing: the format-2 forgeries are not made"
else
python3 "$here/make_format2.py" "$f2" "$z_file" || { echo "hostile (format 2): make_format2.py failed"; fail=1; }

# --- the forged counts, nesting and bombs of the old corpus, in a v2
# header: refused before anything is allocated, single file and member alike
for f in h-array32:'limit on array entries' h-players32:'limit on array entries' h-map32:'limit on map entries' \
    h-str32:'limit on string length' h-deep:'limit on nesting depth'; do
    name=${f%%:*} pat=${f#*:}
    for cmd in verify info log stats; do
        expect 3 "$name.tcgr: offset 0: the header exceeds the reader's $pat" ': OK' - $cmd "$f2/$name.tcgr"
    done
    expect 3 "$name-ar.tcgr#0: offset 0: the header exceeds the reader's $pat" ': OK' - verify "$f2/$name-ar.tcgr"
    expect 3 "$name-ar.tcgr#0: offset 0: the header exceeds the reader's $pat" '' - log "$f2/$name-ar.tcgr#0"
done
expect 3 "h-bomb.tcgr: offset 0: the header exceeds the reader's limit on string length" '' - verify "$f2/h-bomb.tcgr"
# ... the record bomb (an unknown record claiming 4 GiB), a run of 17
# unknown records, a reserved op: refused at the record, with its index
for f in r-bin32:'record 99 is malformed: an unknown record longer than max_record' \
    r-unknown17:'record 115 is the 17-th unknown record in a row' r-reserved:'record 99 is malformed: a reserved record op'; do
    name=${f%%:*} pat=${f#*:}
    for cmd in verify log stats; do expect 3 "$name.tcgr: offset [0-9]+: $pat" ': OK' - $cmd "$f2/$name.tcgr"; done
    expect 3 "$name-ar.tcgr#0: offset [0-9]+: $pat" ': OK' - verify "$f2/$name-ar.tcgr"
done
both "$f2/r-reserved.tcgr" 'reserved op 0x9f'
# ... a record after the outcome diverges (exit 1), as in format 1
expect 1 'DIVERGES \(after-outcome\) at record 100' '' - verify "$f2/r-after.tcgr"
expect 1 'r-after-ar.tcgr#0: DIVERGES \(after-outcome\) at record 100' '' - verify "$f2/r-after-ar.tcgr"
# ... and what follows the body is nothing or one seal block (FORMAT.md
# §B.1): junk, or a seal block cut short, is corrupt for every reader, with
# or without keys, in a file and in a member's seal field
for f in t-junk:'7 byte\(s\) after the body are not a seal block' t-seal101:'the seal block is 101 bytes, not 102'; do
    name=${f%%:*} pat=${f#*:}
    for cmd in verify info log stats; do expect 3 "$name.tcgr: offset 220: $pat" ': OK' - $cmd "$f2/$name.tcgr"; done
    expect 3 "$name.tcgr: offset 220: $pat" 'signature' - verify --key "$root/replays/sealed/sample.key.pub" "$f2/$name.tcgr"
    expect 3 "$name-ar.tcgr#0: UNREADABLE: .*offset 220: $pat" ': OK' - verify "$f2/$name-ar.tcgr"
    both "$f2/$name.tcgr" 'corrupt'
done
sz=$(wc -c <"$rc_file")
{ cat "$rc_file"; head -c 5000 /dev/zero; } >"$f2/t-big.tcgr"
expect 3 "t-big.tcgr: offset $sz: more than 4096 bytes follow the body" '' - verify "$f2/t-big.tcgr"
both "$f2/t-big.tcgr" 'more than 4096 bytes'

# --- a v2 player map with a preset and deck fields, NUL bytes, duplicate
# keys and invalid UTF-8: refused by both readers, naming the v1 key path
python3 - "$f2" "$z_file" <<'PY'
import sys, zlib
sys.path.insert(0, sys.argv[2].rsplit('/replays/', 1)[0] + '/replays')
import tcgr_dump as T
data = open(sys.argv[2], 'rb').read()
raw = zlib.decompressobj().decompress(data[8:])
h, i = T.unpack(raw, 0)
def enc(v):
    if isinstance(v, int): return bytes([v]) if 0 <= v < 128 else b'\xcf' + v.to_bytes(8, 'big')
    if v is None: return b'\xc0'
    if isinstance(v, str): b = v.encode(); return bytes([0xa0 | len(b)]) + b
    if isinstance(v, list): return bytes([0x90 | len(v)]) + b''.join(enc(x) for x in v)
    if isinstance(v, dict): return bytes([0x80 | len(v)]) + b''.join(enc(k) + enc(x) for k, x in v.items())
    if isinstance(v, tuple): return bytes([0x80 | len(v)]) + b''.join(enc(k) + enc(x) for k, x in v)
def w(name, players):
    hb = enc(h[:4] + [players] + h[5:7])
    open('%s/%s.tcgr' % (sys.argv[1], name), 'wb').write(data[:8] + zlib.compress(hb + raw[i:]))
w('p-deck', [{'preset': 2, 'deck': ['gubby']}, 3])
w('p-attrs', [{'attrs': {'bloc': 'ASSAULT'}, 'preset': 2}, 3])
w('p-nul', [{'preset': 2, 'name': 'A\0B'}, 3])
w('p-dup', [(('preset', 2), ('name', 'a'), ('name', 'b')), 3])
hb = enc(h[:4] + [[{'preset': 2, 'name': 'x'}, 3]] + h[5:7]).replace(b'\xa1x', b'\xa1\xff')
open('%s/p-utf8.tcgr' % sys.argv[1], 'wb').write(data[:8] + zlib.compress(hb + raw[i:]))
PY
expect 3 "p-deck.tcgr: header key 'players.0.deck': a player map holds both 'preset' and 'deck'" '' - verify "$f2/p-deck.tcgr"
expect 3 "p-attrs.tcgr: header key 'players.0.attrs': a player map holds both 'preset' and 'attrs'" '' - info "$f2/p-attrs.tcgr"
expect 3 "p-nul.tcgr: decompressed offset [0-9]+ \(header\): the string at 'players.0.name' holds a NUL byte" '' - verify "$f2/p-nul.tcgr"
expect 3 "p-dup.tcgr: decompressed offset [0-9]+ \(header\): duplicate key 'players.0.name'" '' - verify "$f2/p-dup.tcgr"
expect 3 "p-utf8.tcgr: decompressed offset [0-9]+ \(header\): the string at 'players.0.name' is not valid UTF-8" '' - verify "$f2/p-utf8.tcgr"
both "$f2/p-deck.tcgr" "players.0 holds both 'preset' and 'deck'"
both "$f2/p-attrs.tcgr" "players.0 holds both 'preset' and 'attrs'"
both "$f2/p-nul.tcgr" 'NUL byte'
both "$f2/p-dup.tcgr" 'duplicate map key'
both "$f2/p-utf8.tcgr" 'utf-8'
fi

# --- the old corpus's byte attacks on a range-coded file: magic, version,
# envelope cut, half the file, a flipped coded byte, a flipped CRC
{ printf 'TCGX'; tail -c +5 "$rc_file"; } >"$f2/b-magic.tcgr"
{ head -c 4 "$rc_file"; printf '\x09'; tail -c +6 "$rc_file"; } >"$f2/b-version.tcgr"
head -c 6 "$rc_file" >"$f2/b-env.tcgr"
head -c $((sz / 2)) "$rc_file" >"$f2/b-half.tcgr"
flip "$rc_file" $((sz / 3)) 16 "$f2/b-flip.tcgr"
flip "$rc_file" $((sz - 2)) 1 "$f2/b-crc.tcgr"
for cmd in verify info log stats; do
    expect 3 'offset 0: not a .tcgr replay \(no TCGR magic\)' '' - $cmd "$f2/b-magic.tcgr"
    expect 3 'offset 4: format version 9 is not supported' '' - $cmd "$f2/b-version.tcgr"
    expect 3 'offset 6: truncated' '' - $cmd "$f2/b-env.tcgr"
done
expect 3 'b-half.tcgr: offset [0-9]+: truncated: the file ends inside the range-coded body' ': OK' - verify "$f2/b-half.tcgr"
expect 3 'truncated' '' - log "$f2/b-half.tcgr"
expect 3 'b-flip.tcgr: (UNREADABLE|.*corrupt)' ': OK' - verify "$f2/b-flip.tcgr"
expect 3 "b-crc.tcgr: offset $((sz - 4)): the range-coded body's CRC-32 \([0-9a-f]+\) does not match its content" ': OK' - verify "$f2/b-crc.tcgr"

# --- the archive index's content-length and action-count fields are
# checked (FORMAT.md §C.3): a changed count with a recomputed CRC is a
# corrupt index, exit 3, the member named
SOURCE_DATE_EPOCH=1764000000 "$ARBITER" play --game naramo --games 3 --seed 9 --archive -o "$f2/ix.tcgr" >/dev/null
if command -v python3 >/dev/null; then
python3 - "$f2/ix.tcgr" "$f2" <<'PY'
import sys, zlib
d = open(sys.argv[1], 'rb').read()
ioff = int.from_bytes(d[-16:-8], 'little')
def vi(v):
    o = bytearray()
    while True:
        if v < 0x80: o.append(v); return bytes(o)
        o.append((v & 0x7f) | 0x80); v >>= 7
def rv(b, i):
    v = s = 0
    while True:
        v |= (b[i] & 0x7f) << s; s += 7; i += 1
        if b[i - 1] < 0x80: return v, i
fr = d[ioff:-16]; n, i = rv(fr, 1); ent = []
for _ in range(n):
    a, i = rv(fr, i); c, i = rv(fr, i); x, i = rv(fr, i); ent.append([a, c, x])
for name, k, f in (('ix-actions', 1, 2), ('ix-content', 2, 1)):
    e = [list(x) for x in ent]; e[k][f] += 1
    b = bytearray(b'I') + vi(n)
    for a, c, x in e: b += vi(a) + vi(c) + vi(x)
    b += zlib.crc32(b).to_bytes(4, 'little')
    open('%s/%s.tcgr' % (sys.argv[2], name), 'wb').write(d[:ioff] + b + d[-16:])
PY
expect 3 'ix-actions.tcgr#1: .*the index entry of member 1 says [0-9]+ content bytes and 111 actions; the member holds [0-9]+ and 110' \
    '' - verify "$f2/ix-actions.tcgr"
expect 3 'ix-content.tcgr#2: .*the index entry of member 2 says 135 content bytes and 34 actions; the member holds 134 and 34' \
    '' - log "$f2/ix-content.tcgr#2"
both "$f2/ix-actions.tcgr" 'ix-actions.tcgr#1: corrupt index: its entry says [0-9]+ content bytes and 111 actions'
fi
# ... a member that does not decode fails, and so does every later member
# whose primed models (or dictionary) need it (FORMAT.md §C.3); the frames
# after it are still found
flip "$f2/ix.tcgr" 20 64 "$f2/ix-bad0.tcgr"
expect 3 'ix-bad0.tcgr#0: UNREADABLE: .*corrupt.*ix-bad0.tcgr#1: UNREADABLE: .*member 0 does not decode.*ix-bad0.tcgr#2: UNREADABLE: .*member 0 does not decode' \
    ': OK' - verify "$f2/ix-bad0.tcgr"
command -v python3 >/dev/null && both "$f2/ix-bad0.tcgr" 'ix-bad0.tcgr#2: corrupt: member 0 does not decode'

# ... and an append to an archive whose index is missing writes the true
# counts: the new index is trusted and every member reads through it
ioff=$(( $(wc -c <"$f2/ix.tcgr") - 16 ))
ioff=$(od -An -tu8 -j "$ioff" -N8 "$f2/ix.tcgr" | tr -d ' ')
head -c "$ioff" "$f2/ix.tcgr" >"$f2/ix-noindex.tcgr"
"$ARBITER" play --game naramo --seed 5 -o "$f2/m5.tcgr" >/dev/null
actions "$f2/m5.tcgr" >"$f2/m5.txt"
expect 0 'archive of 3 complete member\(s\); index missing' '' - verify "$f2/ix-noindex.tcgr"
expect 0 '' '' "$f2/m5.txt" record --game naramo --seed 5 --archive -o "$f2/ix-noindex.tcgr"
expect 0 'archive of 4 complete member\(s\); index ok.*#0: OK.*#1: OK.*#2: OK.*#3: OK' 'UNREADABLE|corrupt' - verify "$f2/ix-noindex.tcgr"

# --- kill -9 (the old audit's kill-9 tool wrote format 1): a recorder
# killed mid-match leaves a v2 journal that verifies up to its last flush;
# an archive writer killed mid-run leaves FILE.part holding every match that
# had ended; an append killed mid-match leaves the archive as it was.
mkfifo "$f2/k.in"
( "$ARBITER" record --game naramo --seed 5 -o "$f2/k.tcgr" <"$f2/k.in" >"$f2/k.out" 2>&1 & echo $! >"$f2/k.pid"; wait ) 2>/dev/null &
exec 7>"$f2/k.in"
head -n 20 "$f2/m5.txt" >&7
for _ in $(seq 400); do [ "$(grep -c '^ok ' "$f2/k.out" 2>/dev/null)" -ge 20 ] && break; sleep 0.05; done
kill -9 "$(cat "$f2/k.pid")" 2>/dev/null
exec 7>&-
wait
n=$((n + 1))
if [ -e "$f2/k.tcgr" ] || [ ! -s "$f2/k.tcgr.part" ]; then
    echo "hostile (format 2): kill -9 of record: expected k.tcgr.part only"; fail=1
else
    expect 3 'k.tcgr.part: TRUNCATED: .*[0-9]+ complete record\(s\) read.*before the cut replay without divergence' ': OK' - verify "$f2/k.tcgr.part"
    [ "$(head -c 5 "$f2/k.tcgr.part" | od -An -tu1 | awk '{print $5}')" = 2 ] || { echo "hostile (format 2): the journal is not format 2"; fail=1; }
    if command -v python3 >/dev/null; then
        both "$f2/k.tcgr.part" 'truncated after [1-9][0-9]* complete records'
    fi
fi
( "$ARBITER" play --game naramo --games 1000000 --seed 1 --archive -o "$f2/kp.tcgr" >/dev/null 2>&1 & echo $! >"$f2/kp.pid"; wait ) 2>/dev/null &
for _ in $(seq 600); do [ "$( { wc -c <"$f2/kp.tcgr.part"; } 2>/dev/null || echo 0)" -gt 20000 ] && break; sleep 0.05; done
kill -9 "$(cat "$f2/kp.pid")" 2>/dev/null
wait
n=$((n + 1))
if [ -e "$f2/kp.tcgr" ] || [ ! -s "$f2/kp.tcgr.part" ]; then
    echo "hostile (format 2): kill -9 of play --archive: expected kp.tcgr.part only"; fail=1
else
    # every member in the journal verifies; the last may be cut short (exit 3)
    out=$(timeout 120 "$ARBITER" verify "$f2/kp.tcgr.part" 2>&1)
    rc=$?
    if ! { [ $rc -eq 0 ] || [ $rc -eq 3 ]; } || grep -Eq 'DIVERGES|UNREADABLE' <<<"$out" ||
        ! grep -Eq 'kp.tcgr.part: archive of [1-9][0-9]* complete member\(s\); index missing' <<<"$out"; then
        echo "hostile (format 2): the journal of a killed play --archive: exit $rc: $(head -c 400 <<<"$out")"; fail=1
    fi
    expect 0 'complete member\(s\) kept in .*kp-fixed.tcgr' '' - archive repair "$f2/kp.tcgr.part" -o "$f2/kp-fixed.tcgr"
    expect 0 'kp-fixed.tcgr: archive of [1-9][0-9]* complete member\(s\); index ok' 'DIVERGES|UNREADABLE' - verify "$f2/kp-fixed.tcgr"
fi
