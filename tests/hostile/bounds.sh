# bounds.sh — a writer never writes what its reader refuses (issue #32
# item 7): every header field a recorder takes from its user, at its bound
# and one past it, through `play` and `record`. At the bound the file is
# written and verifies; one past it the command is refused before a byte is
# written (a usage error, exit 2, naming the bound; a deck file's field is
# bad input, exit 3, naming the file and line). Sourced by run.sh after
# round2.sh (its expect()).
b=$tmp/bounds
mkdir -p "$b"
n63=$(head -c 63 /dev/zero | tr '\0' n)
for cmd in play record; do
    rm -f "$b/ok.tcgr" "$b/long.tcgr"
    in=-
    [ $cmd = record ] && { printf '0 pass\n' >"$b/moves"; in=$b/moves; }
    # record leaves an unfinished match as it ends (exit 0 or 3): only the
    # header matters here, so play is verified and record's file is read.
    if [ $cmd = play ]; then
        expect 0 'ok.tcgr: naramo seed 1' '' - play --game naramo --seed 1 --names "$n63,P2" -o "$b/ok.tcgr"
        expect 0 "ok.tcgr: OK: " '' - verify "$b/ok.tcgr"
        expect 0 "seat 0: +$n63," '' - info "$b/ok.tcgr"
    fi
    expect 2 "--names: the name of P2 is 64 bytes; a name holds at most 63 bytes" '' "$in" \
        $cmd --game naramo --seed 1 --names "P1,${n63}x" -o "$b/long.tcgr"
    [ ! -e "$b/long.tcgr" ] && [ ! -e "$b/long.tcgr.part" ] ||
        { echo "hostile (#32): $cmd wrote a file for a name past the bound"; fail=1; }
    expect 2 "--names is [0-9]+ bytes long; a name holds at most 63 bytes" '' "$in" \
        $cmd --game naramo --seed 1 --names "P1,$(head -c 600 /dev/zero | tr '\0' x)" -o "$b/long.tcgr"
done
# A deck file's name and attributes: the deck reader's bounds are the
# replay header's (63-byte name, 15-byte key, 47-byte value).
"$ARBITER" deck show --game naramo defense-doe >"$b/d.deck"
sed "1s/.*/name: $n63/" "$b/d.deck" >"$b/name63.deck"
sed "1s/.*/name: ${n63}x/" "$b/d.deck" >"$b/name64.deck"
{ cat "$b/d.deck"; echo "kkkkkkkkkkkkkkk: $(head -c 47 /dev/zero | tr '\0' v)"; } >"$b/attr47.deck"
{ cat "$b/d.deck"; echo "kkkkkkkkkkkkkkk: $(head -c 48 /dev/zero | tr '\0' v)"; } >"$b/attr48.deck"
expect 0 'd63.tcgr: naramo seed 1' '' - play --game naramo --seed 1 --decks "$b/name63.deck,defense-doe" -o "$b/d63.tcgr"
expect 0 'd63.tcgr: OK: ' '' - verify "$b/d63.tcgr"
expect 0 'a47.tcgr: naramo seed 1' '' - play --game naramo --seed 1 --decks "$b/attr47.deck,defense-doe" -o "$b/a47.tcgr"
expect 0 'a47.tcgr: OK: ' '' - verify "$b/a47.tcgr"
expect 3 'name64.deck:1: ' '' - play --game naramo --seed 1 --decks "$b/name64.deck,defense-doe" -o "$b/d64.tcgr"
expect 3 "attr48.deck:[0-9]+: attribute 'kkkkkkkkkkkkkkk' is too long" '' - \
    play --game naramo --seed 1 --decks "$b/attr48.deck,defense-doe" -o "$b/a48.tcgr"
# --seed takes the forms its help documents: decimal or 0x hex, the same
# match either way; a leading zero or a bare 0x is refused (issue #32 item 8).
# One recording time for both (the header's "started"): two runs may fall in
# different seconds.
SOURCE_DATE_EPOCH=1700000000 expect 0 'x16.tcgr: naramo seed 16, ' '' - play --game naramo --seed 0x10 -o "$b/x16.tcgr"
SOURCE_DATE_EPOCH=1700000000 expect 0 'd16.tcgr: naramo seed 16, ' '' - play --game naramo --seed 16 -o "$b/d16.tcgr"
cmp -s "$b/x16.tcgr" "$b/d16.tcgr" ||
    { echo "hostile (#32): --seed 0x10 and --seed 16 recorded different matches"; fail=1; }
expect 2 "--seed '0x' is not a 64-bit number" '' - play --game naramo --seed 0x -o "$b/z.tcgr"
expect 2 "--seed '010' is not a 64-bit number" '' - play --game naramo --seed 010 -o "$b/z.tcgr"
