#!/usr/bin/python3
"""dump_check.py — the independent reader (replays/tcgr_dump.py) against
the seal: the shipped sample verifies under its public key, every single
flipped byte of it fails, a foreign key fails; and a header with a
duplicate key is refused. Run by tests/seal/run.sh (make check-seal)."""
import os, subprocess, sys, zlib
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, '..', '..')
sys.path.insert(0, os.path.join(root, 'replays'))
import tcgr_dump

sample = os.path.join(root, 'replays', 'sealed', 'sample.tcgr')
pub = os.path.join(root, 'replays', 'sealed', 'sample.key.pub')
data = open(sample, 'rb').read()
keys = tcgr_dump.load_keys([pub])
st, msg = tcgr_dump.check_seal(data, keys)
assert st == 0 and 'format-test-vector' in msg, msg
def replay_of(b):
    """What a reader decodes: the envelope, CONTENT and the trailer."""
    d = zlib.decompressobj()
    c = d.decompress(b[8:])
    return b[:8], c, d.unused_data

same_replay = 0
orig = replay_of(data)
bad = 0
for i in range(len(data)):
    for bit in (0x01, 0x80):
        d = bytearray(data)
        d[i] ^= bit
        try:
            st, msg = tcgr_dump.check_seal(bytes(d), keys)
        except zlib.error:
            st = 3  # the body no longer inflates: refused
        if st == 0:
            # Allowed only when every reader decodes the very same replay:
            # a bit that deflate ignores (the final byte's padding after
            # the end-of-block code), FORMAT.md §15.2.
            try:
                same = replay_of(bytes(d)) == orig
            except zlib.error:
                same = False
            if same:
                same_replay += 1
            else:
                print('byte %d bit %#x flipped: still "%s"' % (i, bit, msg)); bad += 1
assert bad == 0, '%d flips went unnoticed' % bad
print('tcgr_dump: %d bytes x 2 bit flips of the signed sample: all fail but %d that deflate ignores '
      '(the decoded replay is byte-identical)' % (len(data), same_replay))
# a foreign key
other = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'dump_check_other.pub')
pk = bytes(range(1, 33))
import hashlib
open(other, 'w').write('arbiter-ed25519 %s %s other\n' % (pk.hex(), hashlib.blake2b(pk, digest_size=32).digest()[:8].hex()))
st, msg = tcgr_dump.check_seal(data, tcgr_dump.load_keys([other]))
assert st == 1 and 'not a trusted key' in msg, msg
os.unlink(other)
# duplicate keys: a version-1 header with 'game' twice
def s(x):
    b = x.encode(); return bytes([0xa0 | len(b)]) + b
hdr = bytes([0x82]) + s('game') + s('naramo') + s('game') + s('mallory')
f = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'dump_check_dup.tcgr')
open(f, 'wb').write(b'TCGR\x01\x00\x00\x00' + zlib.compress(hdr))
r = subprocess.run([sys.executable, os.path.join(root, 'replays', 'tcgr_dump.py'), f], capture_output=True, text=True)
os.unlink(f)
assert r.returncode == 3 and "duplicate map key 'game'" in r.stdout, r.stdout + r.stderr
print('tcgr_dump: duplicate header keys refused')
