"""make_format2.py OUT V2ZLIB — the old audit's forged replays (run.sh's
replay-*.tcgr, format 1) made again in format 2, at run time by
format2.sh: each forged CONTENT as a single v2 file NAME.tcgr and as member
0 of an archive NAME-ar.tcgr (no dictionary, no index). V2ZLIB is a golden
version-2 zlib file whose header and records the forgeries start from."""
import sys, zlib, os
out, z = sys.argv[1], sys.argv[2]
data = open(z, 'rb').read()
d = zlib.decompressobj(); raw = d.decompress(data[8:])
env = data[:8]
def hlen(buf):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'replays'))
    import tcgr_dump   # the independent reader's MessagePack decoder sizes the header
    return tcgr_dump.unpack(buf, 0)[1]
h = hlen(raw)
head, recs = raw[:h], raw[h:]
def ms(s):
    b = s.encode(); return bytes([0xa0 | len(b)]) + b
def w(name, content, envb=env, tail=b''):
    body = zlib.compress(content, 6)
    open(os.path.join(out, name + '.tcgr'), 'wb').write(envb + body + tail)
    # the same content as member 0 of an archive (no dictionary, no index)
    fr = b'M' + bytes([envb[5]]) + vi(len(body)) + vi(len(tail)) + body + tail
    open(os.path.join(out, name + '-ar.tcgr'), 'wb').write(b'TCGR\x02\x02\x00\x00' + fr)
def vi(v):
    o = bytearray()
    while True:
        if v < 0x80: o.append(v); return bytes(o)
        o.append((v & 0x7f) | 0x80); v >>= 7
# header forgeries: counts far beyond the bytes, nesting, a string bomb
w('h-array32', b'\xdd\xff\xff\xff\xff' + ms('naramo'))
w('h-players32', b'\x97' + ms('naramo') + ms('naramo-1') + b'\x01\xc0' + b'\xdd\xff\xff\xff\xff' + b'\x00' * 64)
w('h-map32', b'\x97' + ms('naramo') + ms('naramo-1') + b'\x01\xc0\x92\x00\x01\x80' + b'\xdf\xff\xff\xff\xff' + b'\x00' * 64)
w('h-str32', b'\x97\xdb\x7f\xff\xff\xff' + b'A' * 4096)
w('h-deep', b'\x97' + ms('naramo') + ms('naramo-1') + b'\x01\xc0\x92\x00\x01\x80\x81' + ms('x') + b'\x91' * 100000 + b'\x00')
bomb = zlib.compressobj(9)
hb = bomb.compress(b'\x97' + ms('naramo') + ms('naramo-1') + b'\x01\xc0\x92\x00\x01\x80\x81' + ms('engine') + b'\xdb\x01\x00\x00\x00')
for _ in range(16): hb += bomb.compress(b'\x00' * (1 << 20))
hb += bomb.flush()
open(os.path.join(out, 'h-bomb.tcgr'), 'wb').write(env + hb)
# records: an unknown record claiming 4 GiB; 17 unknown records in a row;
# a record after the outcome
pos = recs.rindex(b'\x8e')
w('r-bin32', head + recs[:pos] + b'\xc0' + vi(1 << 32) + b'\x00' * 1024)
w('r-unknown17', head + recs[:pos] + b'\xc0\x00' * 17 + recs[pos:])
w('r-after', head + recs + b'\x80\x00')
w('r-reserved', head + recs[:pos] + b'\x9f' + recs[pos:])
# what follows the body: junk, or a seal block cut short
w('t-junk', raw, tail=b'garbage')
w('t-seal101', raw, tail=b'SEAL\x01\x01' + b'\x00' * 95)
