#!/usr/bin/env python3
"""tcgr_dump.py — an independent .tcgr reader (versions 1 and 2, archives)
written from replays/FORMAT.md alone (Python 3 standard library only: zlib,
struct, hashlib). It prints the header as JSON and one line per record,
checks the seed commitment, and for version 2 resolves preset, card-pool and
outcome-reason indexes with the tables of FORMAT.md §B.7, which it reads
from FORMAT.md itself (next to this script, or --format PATH). It does not
replay the engine (that needs the game).

Usage: replays/tcgr_dump.py FILE.tcgr[#N] [--records N] [--summary] [--format FORMAT.md]
  FILE#N      member N of an archive (FORMAT.md Part C)
  --summary   one JSON line: [[deck card IDs per seat], winner, reason, actions]
Exit: 0 complete, 3 truncated / corrupt / not a .tcgr / unsupported version."""
import hashlib, json, os, re, struct, sys, zlib


class Trunc(Exception):
    pass


class Corrupt(Exception):
    pass


# ---------------------------------------------------------------- MessagePack (§3)
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
        raise Corrupt('type byte 0x%02x is not used by .tcgr' % c)
    if n > len(buf) - i:          # every entry takes at least one byte
        raise Trunc()
    if kind == 'a':
        out = []
        for _ in range(n):
            v, i = unpack(buf, i); out.append(v)
        return out, i
    out = {}
    for _ in range(n):
        k, i = unpack(buf, i); v, i = unpack(buf, i)
        if k in out: raise Corrupt('duplicate map key %r' % k)
        out[k] = v
    return out, i


def varint(buf, i):
    """LEB128 (§B.3): (value, next index)."""
    v = sh = 0
    while True:
        if i >= len(buf): raise Trunc()
        b = buf[i]; i += 1
        v |= (b & 0x7f) << sh
        if not b & 0x80: return v, i
        sh += 7
        if sh >= 70: raise Corrupt('a varint longer than 10 bytes')


def unzigzag(u):
    return (u >> 1) ^ -(u & 1)


# ---------------------------------------------------------------- FORMAT.md §B.7 tables
def load_tables(path):
    pools, presets, reasons = {}, {}, {}
    cur = None
    for line in open(path, encoding='utf-8'):
        m = re.match(r'#### (Card pool|Presets|Outcome reasons): `([^`]+)`', line)
        if m:
            cur = (m.group(1), m.group(2))
            {'Card pool': pools, 'Presets': presets, 'Outcome reasons': reasons}[cur[0]][cur[1]] = []
            continue
        if not cur or not re.match(r'\| \d+ \|', line):
            if line.startswith('#'): cur = None
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if cur[0] == 'Card pool':
            pools[cur[1]].append(cells[1].strip('`'))
        elif cur[0] == 'Outcome reasons':
            reasons[cur[1]].append(cells[1].strip('`'))
        else:
            attrs = {}
            for a in re.findall(r'`([^`=]+)=([^`]*)`', cells[2]): attrs[a[0]] = a[1]
            cards = []
            for cid, n in re.findall(r'`([^`]+)`×(\d+)', cells[3]): cards += [cid] * int(n)
            presets[cur[1]].append({'deck_name': cells[1].strip('`'), 'attrs': attrs, 'deck': cards})
    return pools, presets, reasons


TABLES = None


def tables():
    global TABLES
    if TABLES is None:
        p = FORMAT_PATH or os.path.join(os.path.dirname(os.path.abspath(__file__)), 'FORMAT.md')
        TABLES = load_tables(p)
    return TABLES


# ---------------------------------------------------------------- version 2 (Part B)
def header2(h):
    """The positional v2 header (§B.2) → the v1-shaped map."""
    if not isinstance(h, list) or len(h) < 7: raise Corrupt('the v2 header is not an array of 7 fields')
    game, rules, seed, started, players, options, extra = h[:7]
    pools, presets, reasons = tables()
    out = {'format': 'tcgr-2', 'game': game, 'rules': rules, 'seed': seed}
    if isinstance(started, int):
        import datetime
        out['started'] = datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
    elif started is not None: out['started'] = started
    ps = []
    for s, p in enumerate(players):
        q = {'name': 'P%d' % (s + 1)}
        if isinstance(p, int): p = {'preset': p}
        for k, v in p.items():
            if k == 'preset':
                d = presets.get(game, [])
                if v >= len(d): raise Corrupt('seat %d: preset %d is not in the %s table' % (s, v, game))
                q.update({'deck_name': d[v]['deck_name'], 'preset': d[v]['deck_name'],
                          'deck': list(d[v]['deck']), 'attrs': dict(d[v]['attrs'])})
            elif k == 'cards':
                pool, deck, i = pools.get(game, []), [], 0
                while i < len(v):
                    idx, i = varint(v, i); n, i = varint(v, i)
                    if idx >= len(pool) or n < 1: raise Corrupt('seat %d: a card run outside the pool' % s)
                    deck += [pool[idx]] * n
                q['deck'] = deck
            else: q[k] = v
        ps.append(q)
    out['players'] = ps
    out['options'] = options
    for k, v in extra.items():
        if k in out: raise Corrupt('the extra map repeats %r' % k)
        out[k] = v
    out.setdefault('rng', 'xoshiro256**-splitmix64-v1'); out.setdefault('hash', 'xxh3-64-le-v1')
    return out


def records2(raw, i, timed, game):
    """Yield (kind, fields) records of §B.3; raises Trunc at a cut."""
    reasons = tables()[2].get(game, [])
    seat, cp_turn, el = 0, None, None
    while i < len(raw):
        op = raw[i]; j = i + 1
        if op < 0x80:
            n, verb = op >> 5, op & 31
            if n == 3:
                if j >= len(raw): raise Trunc()
                n = raw[j]; j += 1
                if n > 6: raise Corrupt('an action with %d arguments' % n)
            if verb == 31:
                if j >= len(raw): raise Trunc()
                verb = raw[j]; j += 1
            ms = el or 0
            if timed:
                if j + 2 > len(raw): raise Trunc()
                v = raw[j] | raw[j + 1] << 8; j += 2
                if v & 0x8000:
                    hi, j = varint(raw, j); v = (v & 0x7fff) | hi << 15
                ms = v
            args = []
            for _ in range(n):
                u, j = varint(raw, j); args.append(unzigzag(u))
            el = None
            yield j, ('action', ms, seat, verb, args)
        elif 0x89 <= op <= 0x8d:
            if el is not None: raise Corrupt('a seat change after an elapsed prefix')
            seat = op - 0x8a
        elif op == 0x86:
            if timed or el is not None: raise Corrupt('a misplaced elapsed prefix')
            el, j = varint(raw, j)
        elif op in (0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x87, 0x88):
            if el is not None: raise Corrupt('an elapsed prefix not followed by an action')
            if op in (0x87, 0x88): turn, j = varint(raw, j)
            elif cp_turn is None: raise Corrupt('a next-turn checkpoint before any checkpoint')
            else: turn = cp_turn + 1
            w = 8 if op == 0x88 else 1
            if j + w > len(raw): raise Trunc()
            h = int.from_bytes(raw[j:j + w], 'little'); j += w
            cp_turn = turn
            if 0x81 <= op <= 0x85: seat = op - 0x82
            yield j, ('checkpoint', turn, h, 8 * w)
        elif op == 0x8e:
            if j + 2 > len(raw): raise Trunc()
            winner, ri = raw[j] - 1, raw[j + 1]; j += 2
            if ri == 0xff:
                if j >= len(raw): raise Trunc()
                n = raw[j]; j += 1
                if j + n > len(raw): raise Trunc()
                reason = raw[j:j + n].decode(); j += n
            else:
                if ri >= len(reasons): raise Corrupt('reason index %d is not in the %s table' % (ri, game))
                reason = reasons[ri]
            turns, j = varint(raw, j)
            if j + 8 > len(raw): raise Trunc()
            h = int.from_bytes(raw[j:j + 8], 'little'); j += 8
            yield j, ('outcome', winner, reason, turns, h)
        elif op >= 0xc0:
            n, j = varint(raw, j)
            if j + n > len(raw): raise Trunc()
            j += n
            yield j, ('unknown', op)
        else:
            raise Corrupt('reserved op 0x%02x' % op)
        i = j
    if el is not None: raise Trunc()


def records1(raw, i):
    while i < len(raw):
        rec, j = unpack(raw, i)
        tag = rec[0]
        if tag == 0: yield j, ('action', rec[1], rec[2], rec[3], rec[4:])
        elif tag == 1: yield j, ('checkpoint', rec[1], rec[2], 64)
        elif tag == 2: yield j, ('outcome', rec[1], rec[2], rec[3], rec[4])
        else: yield j, ('unknown', tag)
        i = j


# ---------------------------------------------------------------- archives (Part C)
def archive_members(data):
    """[(offset, flags, zbytes, seal)], cut offset or None, index note."""
    members, off, cut, note = [], 8, None, 'ok'
    trusted = False
    if len(data) >= 24 and data[-4:] == b'TCGX':
        ioff = int.from_bytes(data[-16:-8], 'little'); cnt = int.from_bytes(data[-8:-4], 'little')
        try:
            fr = data[ioff:len(data) - 16]
            if fr[:1] != b'I' or zlib.crc32(fr[:-4]) != int.from_bytes(fr[-4:], 'little'): raise Corrupt('crc')
            n, i = varint(fr, 1)
            offs, o = [], 8
            for k in range(n):
                d, i = varint(fr, i); _, i = varint(fr, i); _, i = varint(fr, i)
                o = o + d if k else 8 + d
                offs.append(o)
            if n != cnt or i != len(fr) - 4: raise Corrupt('count')
            trusted = offs  # checked against the frames below
        except (Corrupt, Trunc, IndexError):
            note = 'corrupt (rebuilt from the frames)'
    else:
        note = 'missing (rebuilt from the frames)'
    while off < len(data):
        if data[off] != 0x4d:
            if data[off] != 0x49: note += '; bytes at offset %d are not a frame' % off
            break
        try:
            z, i = varint(data, off + 2); s, i = varint(data, i)
        except Trunc:
            cut = off; break
        if i + z + s > len(data): cut = off; break
        members.append((off, data[off + 1], data[i:i + z], data[i + z:i + z + s]))
        off = i + z + s
    if trusted is not False and [m[0] for m in members] != trusted:
        note = 'corrupt: its offsets do not match the frames (rebuilt from the frames)'
    return members, cut, note


def member_content(data, members, k, cache):
    dic = b''.join(cache[:min(k, 16)])[-3584:]
    while len(cache) < min(k, 16):
        cache.append(member_content(data, members, len(cache), cache)[0])
        dic = b''.join(cache[:min(k, 16)])[-3584:]
    d = zlib.decompressobj(zdict=dic) if dic else zlib.decompressobj()
    raw = d.decompress(members[k][2])
    return raw, d.eof and not d.unused_data


# ---------------------------------------------------------------- printing
def dump_content(name, version, flags, raw, complete, trailer, limit, summary):
    timed = flags & 1
    header, i = unpack(raw, 0)
    show = header2(header) if version == 2 else dict(header)
    game = show['game']
    if not summary:
        out = dict(show)
        for k in ('salt', 'commit'):
            if k in out: out[k] = out[k].hex()
        print(json.dumps({'version': version, 'flags': flags, 'header': out}, indent=1))
        if 'commit' in show:
            c = hashlib.blake2b(struct.pack('<Q', show['seed']) + show['salt'], digest_size=32).digest()
            print('commitment:', 'ok' if c == show['commit'] else 'MISMATCH')
    n = actions = 0
    winner = reason = None
    gen = records2(raw, i, timed, game) if version == 2 else records1(raw, i)
    try:
        for j, rec in gen:
            if rec[0] == 'action': actions += 1
            if rec[0] == 'outcome': winner, reason = rec[1], rec[2]
            if not summary and (limit is None or n < limit):
                if rec[0] == 'action':
                    print('%6d action     +%dms seat %d verb %d args %s' % ((n,) + rec[1:]))
                elif rec[0] == 'checkpoint':
                    print('%6d checkpoint turn %d hash 0x%0*x%s' % (n, rec[1], rec[3] // 4, rec[2],
                                                                   '' if rec[3] == 64 else ' (low %d bits)' % rec[3]))
                elif rec[0] == 'outcome':
                    print('%6d outcome    winner %d reason %s turns %d hash 0x%016x' % ((n,) + rec[1:]))
                else:
                    print('%6d unknown kind %d (skipped)' % (n, rec[1]))
            n += 1
    except Trunc:
        complete = False
    if summary:
        print(json.dumps([[p.get('deck', []) for p in show['players']], winner, reason, actions]))
    elif trailer:
        print('%d byte(s) after the body (a seal block: see FORMAT.md)' % len(trailer))
    if not complete:
        print('%s: truncated after %d complete records' % (name, n), file=sys.stderr if summary else sys.stdout)
        return 3
    if not summary: print('%d records' % n)
    return 0


FORMAT_PATH = None


def main():
    global FORMAT_PATH
    args = sys.argv[1:]
    limit = None
    summary = '--summary' in args
    if '--records' in args: limit = int(args[args.index('--records') + 1])
    if '--format' in args: FORMAT_PATH = args[args.index('--format') + 1]
    path = [a for k, a in enumerate(args) if not a.startswith('--') and (k == 0 or args[k - 1] not in ('--records', '--format'))][0]
    member = None
    if not os.path.exists(path) and re.search(r'#\d+$', path):
        path, member = path.rsplit('#', 1); member = int(member)
    data = open(path, 'rb').read()
    if data[:4] != b'TCGR':
        print('%s: not a .tcgr file' % path); return 3
    if len(data) < 8:
        print('%s: truncated inside the envelope' % path); return 3
    version, flags = data[4], data[5]
    if version not in (1, 2):
        print('%s: format version %d is not supported (this reader reads 1 and 2)' % (path, version)); return 3
    try:
        if version == 2 and flags & 2:
            members, cut, note = archive_members(data)
            cache = []
            if member is not None:
                if member >= len(members):
                    print('%s: the archive holds %d complete member(s)' % (path, len(members))); return 3
                raw, ok = member_content(data, members, member, cache)
                return dump_content('%s#%d' % (path, member), 2, members[member][1], raw, ok, members[member][3],
                                    limit, summary)
            print('archive: %d complete member(s), index %s' % (len(members), note))
            worst = 0
            for k in range(len(members)):
                raw, ok = member_content(data, members, k, cache)
                print('--- member %d (offset %d)' % (k, members[k][0]))
                worst = max(worst, dump_content('%s#%d' % (path, k), 2, members[k][1], raw, ok, members[k][3],
                                                limit if limit is not None else 0, summary))
            if cut is not None:
                print('%s: member %d is cut short at offset %d' % (path, len(members), cut)); worst = 3
            if not note.startswith('ok'): worst = 3
            return worst
        d = zlib.decompressobj()
        raw = d.decompress(data[8:])
        if version == 1 and d.unused_data:
            print('%s: %d byte(s) after the zlib stream' % (path, len(d.unused_data))); return 3
        if len(d.unused_data) > 4096:
            print('%s: more than 4096 bytes after the body' % path); return 3
        return dump_content(path, version, flags, raw, d.eof, d.unused_data, limit, summary)
    except (Corrupt, zlib.error, UnicodeDecodeError, ValueError) as e:
        print('%s: corrupt: %s' % (path, e)); return 3
    except Trunc:
        print('%s: truncated inside the header' % path); return 3


if __name__ == '__main__':
    sys.exit(main())
