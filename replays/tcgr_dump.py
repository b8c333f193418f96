#!/usr/bin/env python3
"""tcgr_dump.py — an independent .tcgr version-1 reader written from
replays/FORMAT.md alone (Python 3 standard library only: zlib, struct).
It prints the header as JSON and one line per record, and checks the
seed commitment. It does not replay the engine (that needs the game).

Usage: replays/tcgr_dump.py FILE.tcgr [--records N] [--key PUB]... [--keyring FILE]
A version-2 file's seal (FORMAT.md §15) is checked with Debian's python3-nacl.
Exit: 0 complete, 3 truncated / not a .tcgr / unsupported version."""
import hashlib, json, struct, sys, zlib

class Trunc(Exception):
    pass

def unpack(buf, i):
    """One MessagePack value at buf[i:], returns (value, next index)."""
    if i >= len(buf):
        raise Trunc()
    c = buf[i]; i += 1
    def take(n):
        if i + n > len(buf):
            raise Trunc()
        return buf[i:i + n]
    if c <= 0x7f: return c, i
    if c >= 0xe0: return c - 0x100, i
    if 0xa0 <= c <= 0xbf: n = c & 0x1f; return take(n).decode(), i + n
    if 0x90 <= c <= 0x9f: n, kind = c & 0x0f, 'a'
    elif 0x80 <= c <= 0x8f: n, kind = c & 0x0f, 'm'
    elif c == 0xc0: return None, i
    elif c == 0xc2: return False, i
    elif c == 0xc3: return True, i
    elif c in (0xcc, 0xcd, 0xce, 0xcf):
        w = {0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8}[c]; return int.from_bytes(take(w), 'big'), i + w
    elif c in (0xd0, 0xd1, 0xd2, 0xd3):
        w = {0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8}[c]; return int.from_bytes(take(w), 'big', signed=True), i + w
    elif c in (0xd9, 0xda, 0xdb, 0xc4, 0xc5, 0xc6):
        w = {0xd9: 1, 0xda: 2, 0xdb: 4, 0xc4: 1, 0xc5: 2, 0xc6: 4}[c]
        n = int.from_bytes(take(w), 'big'); i += w
        if i + n > len(buf): raise Trunc()
        raw = buf[i:i + n]
        return (raw.decode() if c >= 0xd9 else bytes(raw)), i + n
    elif c in (0xdc, 0xdd, 0xde, 0xdf):
        w = 2 if c in (0xdc, 0xde) else 4
        n = int.from_bytes(take(w), 'big'); i += w; kind = 'a' if c <= 0xdd else 'm'
    else:
        raise ValueError('type byte 0x%02x is not used by .tcgr' % c)
    if n > len(buf) - i:          # every entry takes at least one byte
        raise Trunc()
    if kind == 'a':
        out = []
        for _ in range(n):
            v, i = unpack(buf, i); out.append(v)
        return out, i
    out = {}
    for _ in range(n):
        at = i
        k, i = unpack(buf, i)
        if not isinstance(k, str):
            raise ValueError('a map key at decompressed offset %d is not a string' % at)
        if k in out:                  # FORMAT.md §3: keys are unique, at every level
            raise ValueError('duplicate key %r at decompressed offset %d' % (k, at))
        v, i = unpack(buf, i); out[k] = v
    return out, i

SEAL_DOMAIN = b'arbiter-tcgr-seal-v2'

def load_keys(paths):
    """Public-key lines 'arbiter-ed25519 PK ID LABEL' (FORMAT.md §15.3)."""
    keys = {}
    for p in paths:
        for n, line in enumerate(open(p, encoding='utf-8'), 1):
            line = line.strip()
            if not line or line.startswith('#') or line.startswith('arbiter-ed25519-secret'):
                continue
            f = line.split(' ', 3)
            if len(f) < 3 or f[0] != 'arbiter-ed25519':
                raise ValueError('%s: line %d: not a public key line' % (p, n))
            pk = bytes.fromhex(f[1])
            if len(pk) != 32 or hashlib.blake2b(pk, digest_size=32).digest()[:8].hex() != f[2]:
                raise ValueError('%s: line %d: the key id does not belong to the public key' % (p, n))
            keys[pk] = f[3] if len(f) > 3 else ''
    return keys

def check_seal(data, keys):
    """Version 2 (FORMAT.md §15): the body is one zlib stream; CONTENT is
    its decompressed bytes; only a seal block may follow it. Returns
    (status, message): status 0 ok/unsigned, 1 the seal fails."""
    d = zlib.decompressobj()
    content = d.decompress(data[8:])
    if not d.eof:
        return 3, 'truncated body: an unsigned prefix'
    trailer = d.unused_data
    if not trailer:
        return (1, 'unsigned, and trusted keys were given') if keys else (0, 'unsigned')
    if len(trailer) != 102 or trailer[:4] != b'SEAL' or trailer[4] != 1 or trailer[5] != 1:
        return 1, '%d byte(s) after the body are not a version-1 Ed25519 seal block' % len(trailer)
    pk, sig = trailer[6:38], trailer[38:102]
    kid = hashlib.blake2b(pk, digest_size=32).digest()[:8].hex()
    digest = hashlib.blake2b(SEAL_DOMAIN + data[:8] + content, digest_size=64).digest()
    try:
        import nacl.signing, nacl.exceptions   # Debian: python3-nacl
    except ImportError:
        return 3, 'cannot check the seal: install python3-nacl'
    try:
        nacl.signing.VerifyKey(pk).verify(digest, sig)
    except nacl.exceptions.BadSignatureError:
        return 1, 'BAD signature by key %s: the file was changed after it was signed' % kid
    if not keys:
        return 0, 'valid signature by key %s (not checked against a trusted key)' % kid
    if pk not in keys:
        return 1, 'valid signature by key %s, which is not a trusted key' % kid
    return 0, 'signed by %s (%s)' % (kid, keys[pk])

def main():
    path = sys.argv[1]
    keyfiles = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a in ('--key', '--keyring') and i + 1 < len(sys.argv)]
    limit = int(sys.argv[sys.argv.index('--records') + 1]) if '--records' in sys.argv else None
    data = open(path, 'rb').read()
    if data[:4] != b'TCGR':
        print('%s: not a .tcgr file' % path); return 3
    if len(data) < 8:
        print('%s: truncated inside the envelope' % path); return 3
    if data[4] == 2:
        status, msg = check_seal(data, load_keys(keyfiles))
        print('seal:', msg)
        if status:
            return status
        if 'decode_v2' not in globals():
            print('%s: version 2 records are not decoded by this reader yet (the seal was checked)' % path)
            return 0
    if data[4] != 1 and 'decode_v2' not in globals():
        print('%s: format version %d is not supported (this reader reads 1)' % (path, data[4])); return 3
    d = zlib.decompressobj()
    raw = d.decompress(data[8:])
    complete = d.eof
    try:
        header, i = unpack(raw, 0)
    except (ValueError, UnicodeDecodeError) as e:
        print('%s: bad header: %s' % (path, e)); return 3
    except Trunc:
        print('%s: truncated inside the header' % path); return 3
    show = dict(header)
    for k in ('salt', 'commit'):
        if k in show: show[k] = show[k].hex()
    print(json.dumps({'flags': data[5], 'header': show}, indent=1))
    if 'commit' in header:
        c = hashlib.blake2b(struct.pack('<Q', header['seed']) + header['salt'], digest_size=32).digest()
        print('commitment:', 'ok' if c == header['commit'] else 'MISMATCH')
    n = 0
    names = {0: 'action', 1: 'checkpoint', 2: 'outcome'}
    while i < len(raw):
        try:
            rec, j = unpack(raw, i)
        except Trunc:
            break
        if limit is None or n < limit:
            tag = rec[0]
            if tag == 0:
                print('%6d action     +%dms seat %d verb %d args %s' % (n, rec[1], rec[2], rec[3], rec[4:]))
            elif tag == 1:
                print('%6d checkpoint turn %d hash 0x%016x' % (n, rec[1], rec[2]))
            elif tag == 2:
                print('%6d outcome    winner %d reason %s turns %d hash 0x%016x' % (n, rec[1], rec[2], rec[3], rec[4]))
            else:
                print('%6d unknown kind %d (skipped)' % (n, tag))
        n += 1; i = j
    if not complete or i < len(raw):
        print('%s: truncated after %d complete records' % (path, n)); return 3
    print('%d records' % n)
    return 0

if __name__ == '__main__':
    sys.exit(main())
