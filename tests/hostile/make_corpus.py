#!/usr/bin/env python3
"""make_corpus.py — writes the hostile-input corpus in this directory (run
once by a developer; the files are checked in and run.sh needs no Python).
Every file is small on disk (run.sh writes the few large ones, over-long lines and over-size files, at run time); the bombs claim sizes far beyond the reader's
limits or inflate to far more than they weigh."""
import os, zlib, struct, sys
here = os.path.dirname(os.path.abspath(__file__))
golden = os.path.join(here, '..', '..', 'replays', 'golden', 'naramo')
src = sorted(f for f in os.listdir(golden) if f.endswith('.tcgr'))[0]
good = open(os.path.join(golden, src), 'rb').read()

def w(name, data):
    open(os.path.join(here, name), 'wb').write(data)

def env(raw, version=1, level=6):
    return b'TCGR' + bytes([version, 0, 0, 0]) + zlib.compress(raw, level)

def mstr(s):
    b = s.encode()
    return (bytes([0xa0 | len(b)]) if len(b) < 32 else b'\xd9' + bytes([len(b)])) + b

raw = zlib.decompress(good[8:])
w('replay-truncated-half.tcgr', good[:len(good) // 2])
w('replay-truncated-envelope.tcgr', good[:6])
w('replay-empty.tcgr', b'')
w('replay-bad-magic.tcgr', b'TCGX' + good[4:])
w('replay-future-version.tcgr', good[:4] + b'\x09' + good[5:])
flip = bytearray(good); flip[len(flip) // 3] ^= 0x10
w('replay-bitflip.tcgr', bytes(flip))
flip2 = bytearray(good); flip2[-3] ^= 0x01          # Adler-32 of the stream
w('replay-bad-adler.tcgr', bytes(flip2))
# forged counts: header map claims 2^32-1 entries; an array32 of 2^32-1
w('replay-forged-map32.tcgr', env(b'\xdf\xff\xff\xff\xff' + mstr('format') + mstr('tcgr-1')))
w('replay-forged-array32.tcgr', env(b'\x81' + mstr('players') + b'\xdd\xff\xff\xff\xff' + b'\x80' * 64))
w('replay-forged-str32.tcgr', env(b'\x81' + mstr('game') + b'\xdb\x7f\xff\xff\xff' + b'A' * 4096))
# nesting: 100000 nested one-element arrays
w('replay-deep-nesting.tcgr', env(b'\x81' + mstr('options') + b'\x91' * 100000 + b'\x00'))
# decompression bombs: the records of a valid file up to its outcome, then
# one record claiming 16 MiB (a str32 of zero bytes: 16 KiB on disk), and
# a header whose one string inflates to 16 MiB
pos = raw.rindex(b'\x95\x02')
bomb = zlib.compressobj(9)
data = bomb.compress(raw[:pos] + b'\x95\x02\x00\xdb\x01\x00\x00\x00')
z = b'\x00' * (1 << 20)
for _ in range(16):
    data += bomb.compress(z)
data += bomb.flush()
w('replay-bomb-record.tcgr', good[:8] + data)
bomb = zlib.compressobj(9)
data = bomb.compress(b'\x81' + mstr('engine') + b'\xdb\x01\x00\x00\x00')
for _ in range(16):
    data += bomb.compress(z)
data += bomb.flush()
w('replay-bomb-header.tcgr', good[:8] + data)
# a record that claims a 4 GiB binary after a valid header
w('replay-record-bin32.tcgr', b'TCGR' + good[4:8] + zlib.compress(raw + b'\x94\x00\x00\x00\xc6\xff\xff\xff\xff' + b'\x00' * 1024))
# garbage after a valid outcome
w('replay-trailing-record.tcgr', b'TCGR' + good[4:8] + zlib.compress(raw + b'\x93\x01\x01\xcf' + b'\x00' * 8))

# XML: DOCTYPE with entities (billion laughs), external entity, external DTD, XInclude
laughs = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
prev = 'lol'
for i in range(1, 10):
    laughs += '<!ENTITY lol%d "%s">\n' % (i, ('&%s;' % prev) * 10)
    prev = 'lol%d' % i
laughs += ']>\n<testset game="naramo" name="x"><case id="a"><act do="&lol9;"/></case></testset>\n'
w('xml-billion-laughs.xml', laughs.encode())
w('xml-external-entity.xml', b'<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<testset game="naramo" name="x">&x;</testset>\n')
w('xml-external-dtd.xml', b'<?xml version="1.0"?>\n<!DOCTYPE testset SYSTEM "http://127.0.0.1:9/evil.dtd">\n<testset game="naramo" name="x"/>\n')
w('xml-xinclude.xml', b'<?xml version="1.0"?>\n<testset xmlns:xi="http://www.w3.org/2001/XInclude" game="naramo" name="x"><xi:include href="/etc/passwd" parse="text"/></testset>\n')
w('xml-truncated.xml', b'<?xml version="1.0"?>\n<testset game="naramo" name="x"><case id="a">')
w('xml-binary.xml', bytes(range(256)) * 16)

# decks
w('deck-absurd-count.deck', b'name: absurd\n4294967297 Coolant Pumps\n')
w('deck-negative-count.deck', b'name: neg\n-3 Coolant Pumps\n')
w('deck-nul.deck', b'name: nul\n3 Coolant\x00 Pumps\n')
w('deck-binary.deck', bytes(range(256)) * 8)
w('deck-unknown-card.deck', b'name: unk\n40 No Such Card\n')
w('deck-many-attrs.deck', b''.join(b'k%d: v\n' % i for i in range(1000)) + b'40 Coolant Pumps\n')

# record action syntax
w('actions-hostile.txt', b'\n'.join([
    b'0 ' + b'9' * 40, b'99999999999999999999 play 1', b'-1 play 0', b'arbiter', b'+ 0 keep',
    b'+99999999999999999999 0 keep', b'0 keep ' + b'1 ' * 1000, 
    b'\x00\x01\x02', b'0 nosuchverb', b'0 keep -2147483649', b'arbiter timeout 0 0 0 0 0 0 0 0 0',
    b'7 keep', b'0\tkeep', b'#' + b'c' * 1000, b'']))
print('written to', here)
