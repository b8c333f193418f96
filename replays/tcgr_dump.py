#!/usr/bin/env python3
"""tcgr_dump.py — an independent .tcgr reader (versions 1 and 2, archives)
written from replays/FORMAT.md alone (Python 3 standard library only: zlib,
struct, hashlib). It prints the header as JSON and one line per record,
checks the seed commitment, and for version 2 resolves preset, card-pool and
outcome-reason indexes with the tables of FORMAT.md §B.7, which it reads
from FORMAT.md itself (next to this script, or --format PATH). It does not
replay the engine (that needs the game).

Usage: replays/tcgr_dump.py FILE.tcgr[#N] [--records N] [--summary] [--format FORMAT.md]
                             [--key PUB]... [--keyring FILE]
       replays/tcgr_dump.py --summary FILE... (one line per file: its name, a tab, its summary)
  FILE#N      member N of an archive (FORMAT.md Part C)
  --summary   one JSON line: [[deck card IDs per seat], winner, reason, actions]
  --key, --keyring  trusted public keys: a version-2 file (or member) must be
              sealed by one of them (FORMAT.md §15). Seals are checked with
              Debian's python3-nacl, whether or not keys are given.
Exit: 0 complete, 1 a seal fails (or is missing under --key), 3 truncated /
corrupt / not a .tcgr / unsupported version."""
import base64, hashlib, json, os, re, struct, sys, zlib


class Trunc(Exception):
    pass


class Corrupt(Exception):
    pass


# ---------------------------------------------------------------- MessagePack (§3)
def text(raw):
    """A MessagePack string: valid UTF-8 (Python's strict codec refuses
    overlongs and surrogates) without a NUL byte (§3)."""
    t = bytes(raw).decode()
    if '\0' in t: raise Corrupt('a string holds a NUL byte')
    return t


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
    if 0xa0 <= c <= 0xbf: n = c & 0x1f; return text(take(n)), i + n
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
        return (text(raw) if c >= 0xd9 else bytes(raw)), i + n
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
        k, i = unpack(buf, i)
        if not isinstance(k, str): raise Corrupt('a map key that is not a string')
        v, i = unpack(buf, i)
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



# ---------------------------------------------------------------- the range-coded body (Part D)
C_LEN, C_HDR = 0, 6
C_OP = C_HDR + 256
C_COUNT = C_OP + 39
C_VERB = C_COUNT + 1
C_MS = C_VERB + 1
C_ARG = C_MS + 3
C_TURN = C_ARG + 256
C_EL = C_TURN + 2
C_OUT = C_EL + 2
C_UNK = C_OUT + 6
C_OP0 = C_UNK + 2
C_ARG0 = C_OP0 + 1
DIRECT = -1
RATE = [max(131072 // (2 * n + 3), 2048) for n in range(31)]   # §D.2


def parent(c):
    if C_OP <= c < C_OP + 39: return C_OP0
    if C_ARG <= c < C_ARG + 256: return C_ARG0 + (c - C_ARG) % 8
    return None


def op_class(op):
    if op < 0x80: return 1 + (op & 31)
    if op <= 0x85: return 33
    if op == 0x86: return 34
    if op <= 0x88: return 35
    if op <= 0x8d: return 36
    if op == 0x8e: return 37
    return 38


class Tok:
    """The tokenizer of §D.4: which context codes the next byte."""
    def __init__(t, timed):
        t.st, t.timed, t.prev, t.op, t.verb, t.nargs, t.argi, t.vb, t.last = 'LENC', timed, 0, 0, 0, 0, 0, 0, 0
        t.left = t.val = t.shift = t.pos = t.clen = t.hlen = 0

    def ctx(t):
        st = t.st; b1 = 1 if t.vb else 0
        if st == 'LENC': return C_LEN + min(t.vb, 2)
        if st == 'LENH': return C_LEN + 3 + min(t.vb, 2)
        if st == 'HDR': return C_HDR + t.last
        if st == 'OP': return C_OP + t.prev
        if st == 'COUNT': return C_COUNT
        if st == 'VERB': return C_VERB
        if st in ('MSLO', 'HASH'): return DIRECT
        if st == 'MSHI': return C_MS + 1
        if st == 'MSVAR': return C_MS + 2
        if st == 'ARG': return C_ARG + (t.verb * 4 + min(t.argi, 3)) * 2 + b1
        if st == 'TURN': return C_TURN + b1
        if st == 'EL': return C_EL + b1
        if st == 'WIN': return C_OUT
        if st == 'REASON': return C_OUT + 1
        if st == 'RLEN': return C_OUT + 2
        if st == 'RSTR': return C_OUT + 3
        if st == 'OTURNS': return C_OUT + 4 + b1
        if st == 'ULEN': return C_UNK
        return C_UNK + 1

    def end_record(t):
        t.st = 'OP'; t.prev = op_class(t.op)

    def start_args(t):
        t.argi = 0; t.vb = 0
        if t.nargs == 0: t.end_record()
        else: t.st = 'ARG'

    def after_verb(t):
        if t.timed: t.st = 'MSLO'
        else: t.start_args()

    def varint_step(t, b):
        if t.shift < 64: t.val |= (b & 0x7f) << t.shift
        t.shift += 7; t.vb = min(t.vb + 1, 255)

    def push(t, b):
        st = t.st
        if st in ('LENC', 'LENH'):
            t.varint_step(b)
            if b & 0x80: return
            if st == 'LENC': t.clen = t.val; t.st = 'LENH'
            else: t.hlen = t.val; t.st = 'HDR' if t.hlen else 'OP'
            t.val = t.shift = t.vb = 0
        elif st == 'HDR':
            t.last = b; t.pos += 1
            if t.pos == t.hlen: t.st = 'OP'
        elif st == 'OP':
            t.op = b; t.vb = t.val = t.shift = 0
            if b < 0x80:
                t.verb = b & 31; t.nargs = b >> 5
                if t.nargs == 3: t.st = 'COUNT'
                elif t.verb == 31: t.st = 'VERB'
                else: t.after_verb()
            elif b <= 0x85: t.st = 'HASH'; t.left = 1
            elif b == 0x86: t.st = 'EL'
            elif b <= 0x88: t.st = 'TURN'
            elif b <= 0x8d: t.end_record()
            elif b == 0x8e: t.st = 'WIN'
            elif b < 0xc0: t.st = 'RAW'
            else: t.st = 'ULEN'
        elif st == 'COUNT':
            t.nargs = b
            if t.verb == 31: t.st = 'VERB'
            else: t.after_verb()
        elif st == 'VERB': t.verb = min(b, 31); t.after_verb()
        elif st == 'MSLO': t.st = 'MSHI'
        elif st == 'MSHI':
            if b & 0x80: t.st = 'MSVAR'
            else: t.start_args()
        elif st == 'MSVAR':
            if not b & 0x80: t.start_args()
        elif st == 'ARG':
            if b & 0x80: t.vb = 1; return
            t.vb = 0; t.argi += 1
            if t.argi == t.nargs: t.end_record()
        elif st == 'HASH':
            t.left -= 1
            if t.left == 0: t.end_record()
        elif st == 'TURN':
            t.vb = 1
            if not b & 0x80: t.st = 'HASH'; t.left = 8 if t.op == 0x88 else 1
        elif st == 'EL':
            t.vb = 1
            if not b & 0x80: t.end_record()
        elif st == 'WIN': t.st = 'REASON'
        elif st == 'REASON': t.st = 'RLEN' if b == 0xff else 'OTURNS'
        elif st == 'RLEN': t.left = b; t.st = 'RSTR' if b else 'OTURNS'
        elif st == 'RSTR':
            t.left -= 1
            if t.left == 0: t.st = 'OTURNS'
        elif st == 'OTURNS':
            t.vb = 1
            if not b & 0x80: t.st = 'HASH'; t.left = 8
        elif st == 'ULEN':
            t.varint_step(b)
            if b & 0x80: return
            t.left = t.val
            if t.left: t.st = 'UB'
            else: t.end_record()
        elif st == 'UB':
            t.left -= 1
            if t.left == 0: t.end_record()


class Model:
    """Context -> 256 node states (p of a 0 bit: bits 0-10; count: bits 11-15)."""
    def __init__(m, other=None):
        m.s = {k: list(v) for k, v in other.s.items()} if other else {}

    def slot(m, c):
        s = m.s.get(c)
        if s is None:
            pc = parent(c)
            if pc is not None and pc not in m.s: m.s[pc] = [1024] * 256
            s = m.s[c] = [v & 2047 for v in m.s[pc]] if pc is not None else [1024] * 256
        return s


def upd(s, k, bit):
    v = s[k]; p = v & 2047; n = v >> 11; r = RATE[n]
    if bit: p -= (p * r) >> 16
    else: p += ((2048 - p) * r) >> 16
    s[k] = p | min(n + 1, 30) << 11


def symbols(content, hl):
    def vi(v):
        out = []
        while v >= 0x80: out.append((v & 0x7f) | 0x80); v >>= 7
        return out + [v]
    return bytes(vi(len(content)) + vi(hl)) + content


def rc_prime(m, content, hl, timed):
    """Feed one member's symbols through m's updates (§D.5)."""
    t = Tok(timed)
    for b in symbols(content, hl):
        c = t.ctx()
        if c != DIRECT:
            s = m.slot(c); pc = parent(c); q = m.s[pc] if pc is not None else None
            k = 1
            for j in range(7, -1, -1):
                bit = (b >> j) & 1
                upd(s, k, bit)
                if q is not None: upd(q, k, bit)
                k = 2 * k + bit
        t.push(b)


def rc_decode(body, timed, model=None):
    """(content, header length, bytes of body used, complete). complete is
    False when the body is cut: content then holds every byte decoded
    exactly before the cut."""
    m = model or Model()
    coded, start = varint(body, 0)          # Trunc when cut inside it
    end = start + coded
    pos = [start]; cut = [False]; pad = [0]; win = [0]   # win: the last 4 bytes read (§D.6)

    def inb():
        if pos[0] >= end:
            if end <= len(body):
                # past CODED: up to 4 zero bytes of padding (§D.2)
                if pad[0] < 4: pad[0] += 1; win[0] = (win[0] << 8) & 0xffffffff; return 0
                raise Corrupt('the range decoder needs more than the body\'s %d coded bytes' % coded)
            cut[0] = True; return 0
        if pos[0] >= len(body): cut[0] = True; return 0
        b = body[pos[0]]; pos[0] += 1; win[0] = ((win[0] << 8) | b) & 0xffffffff; return b
    rng, code = 0xffffffff, 0
    for _ in range(4): code = (code << 8) | inb()
    t = Tok(timed); out = bytearray()
    while True:
        if t.st not in ('LENC', 'LENH') and len(out) == t.clen: break
        if t.st in ('LENC', 'LENH') and t.vb >= 10: raise Corrupt('the range-coded body\'s lengths are malformed')
        c = t.ctx(); k = 1
        if c == DIRECT:
            for _ in range(8):
                while rng < 1 << 24: rng = (rng << 8) & 0xffffffff; code = ((code << 8) | inb()) & 0xffffffff
                rng >>= 1
                bit = 1 if code >= rng else 0
                if bit: code -= rng
                k = 2 * k + bit
        else:
            s = m.slot(c); pc = parent(c); q = m.s[pc] if pc is not None else None
            for _ in range(8):
                while rng < 1 << 24: rng = (rng << 8) & 0xffffffff; code = ((code << 8) | inb()) & 0xffffffff
                bound = (rng >> 11) * (s[k] & 2047)
                if code < bound: rng = bound; bit = 0
                else: code -= bound; rng -= bound; bit = 1
                upd(s, k, bit)
                if q is not None: upd(q, k, bit)
                k = 2 * k + bit
        if cut[0]: return bytes(out), t.hlen, pos[0], False
        b = k & 0xff
        if t.st in ('LENC', 'LENH'):
            t.push(b)
            if t.st not in ('LENC', 'LENH') and t.hlen > t.clen: raise Corrupt('the header length exceeds the content length')
            continue
        t.push(b); out.append(b)
    while rng < 1 << 24: rng = (rng << 8) & 0xffffffff; code = ((code << 8) | inb()) & 0xffffffff
    if cut[0] or len(body) - pos[0] < 4: return bytes(out), t.hlen, pos[0], False
    if pos[0] != end: raise Corrupt('the range-coded body does not end where its length says')
    # §D.6: the flush must be one of §D.2's two (low = W - code)
    low = (win[0] - code) & 0xffffffff
    if not (code == 0 and pad[0] == 0):
        w = 0 if low == 0 or ((1 << 32) - low) < rng else (low + 0xffffff) & 0xff000000
        if win[0] != w or pad[0] != (4 if w == 0 else 3):
            raise Corrupt('the range-coded body\'s last coded bytes are not the flush §D.2 writes')
    crc = int.from_bytes(body[pos[0]:pos[0] + 4], 'little')
    if crc != zlib.crc32(bytes(out)): raise Corrupt('the range-coded body\'s CRC-32 does not match its content')
    return bytes(out), t.hlen, pos[0] + 4, True


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
PRIMERS = {}


def primer_bytes(pid):
    """Built-in primer pid's bytes (§D.8), from FORMAT.md's data block; None: no such block."""
    p = FORMAT_PATH or os.path.join(os.path.dirname(os.path.abspath(__file__)), 'FORMAT.md')
    m = re.search(r'```primer-%d\n(.*?)```' % pid, open(p, encoding='utf-8').read(), re.S)
    return zlib.decompress(base64.b64decode(''.join(m.group(1).split()))) if m else None


def primer_model(pid):
    """The models primed with built-in primer pid (§D.8), read from FORMAT.md."""
    if pid not in PRIMERS:
        buf = primer_bytes(pid)
        if buf is None: raise Corrupt('the body starts from primer %d, which FORMAT.md does not have' % pid)
        model, i = Model(), 0
        while i < len(buf):
            timed = buf[i] & 1
            n, i = varint(buf, i + 1)
            h, i = varint(buf, i)
            rc_prime(model, buf[i:i + n], h, timed)
            i += n
        PRIMERS[pid] = model
    return Model(PRIMERS[pid])


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
        if not isinstance(p, dict): raise Corrupt('players.%d is neither a preset index nor a map' % s)
        both = [k for k in ('deck_name', 'attrs', 'cards', 'deck') if k in p]
        if 'preset' in p and both:   # §B.2: a preset is the whole deck
            raise Corrupt("players.%d holds both 'preset' and '%s'" % (s, both[0]))
        if 'cards' in p and 'deck' in p: raise Corrupt("players.%d holds both 'cards' and 'deck'" % s)
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
            elif cp_turn >= 0xffffffff: raise Corrupt('a next-turn checkpoint after turn 4294967295')
            else: turn = cp_turn + 1
            if turn > 0xffffffff: raise Corrupt('a checkpoint turn outside uint32')
            w = 8 if op == 0x88 else 1
            if j + w > len(raw): raise Trunc()
            h = int.from_bytes(raw[j:j + w], 'little'); j += w
            cp_turn = turn
            if 0x81 <= op <= 0x85: seat = op - 0x82
            yield j, ('checkpoint', turn, h, 8 * w)
        elif op == 0x8e:
            if j + 2 > len(raw): raise Trunc()
            winner, ri = raw[j] - 1, raw[j + 1]; j += 2
            if winner > 3: raise Corrupt('a winner outside -1..3')
            if ri == 0xff:
                if j >= len(raw): raise Trunc()
                n = raw[j]; j += 1
                if j + n > len(raw): raise Trunc()
                if n > 63: raise Corrupt('an outcome reason longer than 63 bytes')
                reason = text(raw[j:j + n]); j += n
            else:
                if ri >= len(reasons): raise Corrupt('reason index %d is not in the %s table' % (ri, game))
                reason = reasons[ri]
            turns, j = varint(raw, j)
            if turns > 0xffffffff: raise Corrupt('outcome turns outside uint32')
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
    """[(offset, flags, zbytes, seal)], cut offset or None, index note, and
    [(content length, actions)] per member from a trusted index (else None):
    §C.3 checks them when each member has been read."""
    members, off, cut, note = [], 8, None, 'ok'
    trusted = False
    if len(data) >= 24 and data[-4:] == b'TCGX':
        ioff = int.from_bytes(data[-16:-8], 'little'); cnt = int.from_bytes(data[-8:-4], 'little')
        try:
            fr = data[ioff:len(data) - 16]
            if fr[:1] != b'I' or zlib.crc32(fr[:-4]) != int.from_bytes(fr[-4:], 'little'): raise Corrupt('crc')
            n, i = varint(fr, 1)
            offs, o, counts = [], 8, []
            for k in range(n):
                d, i = varint(fr, i); cl, i = varint(fr, i); na, i = varint(fr, i)
                o = o + d if k else 8 + d
                offs.append(o); counts.append((cl, na))
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
    return members, cut, note, (counts if note == 'ok' else None)


def member_content(data, members, k, cache, primes=None):
    """cache: contents of the first members; primes[j]: the model primed
    with members 0..j-1 (§D.5)."""
    if primes is None: primes = [Model()]
    while len(cache) < min(k, 16):
        j = len(cache)
        try:
            c, ok = member_content(data, members, j, cache, primes)
            if not ok: raise Corrupt('its body ends early')
        except (Corrupt, Trunc, zlib.error) as e:
            # member k's dictionary / models need member j (§C.2, §D.5)
            raise Corrupt('member %d does not decode (%s), and member %d needs it' % (j, e, k))
        cache.append(c)
        if len(primes) == j + 1:
            pm = Model(primes[j]); rc_prime(pm, c, unpack(c, 0)[1], members[j][1] & 1); primes.append(pm)
    if members[k][1] & 4:
        raw, hl, used, ok = rc_decode(members[k][2], members[k][1] & 1, Model(primes[min(k, 16)]))
        if ok and used != len(members[k][2]): raise Corrupt('bytes follow the range-coded body of member %d' % k)
        if ok and unpack(raw, 0)[1] != hl: raise Corrupt('the header length of member %d is wrong' % k)
        return raw, ok
    dic = b''.join(cache[:min(k, 16)])[-3584:]
    d = zlib.decompressobj(zdict=dic) if dic else zlib.decompressobj()
    raw = d.decompress(members[k][2])
    return raw, d.eof and not d.unused_data


# ---------------------------------------------------------------- seals (§15)
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


def seal_verdict(env, content, trailer, keys):
    """(status, message): 0 valid or unsigned without keys, 1 the seal
    fails or is missing or foreign under keys, 3 cannot check."""
    if not trailer:
        return (1, 'unsigned, and trusted keys were given') if keys else (0, 'unsigned')
    # FORMAT.md §B.1: nothing or one seal block follows the body; else corrupt
    if len(trailer) < 6 or trailer[:4] != b'SEAL' or len(trailer) > 4096:
        return 3, 'corrupt: %d byte(s) after the body are not a seal block' % len(trailer)
    if trailer[4] == 1 and trailer[5] == 1 and len(trailer) != 102:
        return 3, 'corrupt: the seal block is %d bytes, not 102' % len(trailer)
    if trailer[4] != 1 or trailer[5] != 1:
        return 1, 'seal version %d, algorithm %d: this reader checks version 1, algorithm 1 (Ed25519) only' % (
            trailer[4], trailer[5])
    pk, sig = trailer[6:38], trailer[38:102]
    kid = hashlib.blake2b(pk, digest_size=32).digest()[:8].hex()
    env = env[:5] + bytes([env[5] & ~4 & 0xff, 0]) + env[7:8]   # the body's coding and primer are not covered (§B.1)
    digest = hashlib.blake2b(SEAL_DOMAIN + env + content, digest_size=64).digest()
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


def file_content(data):
    """The CONTENT of a single version-1 or -2 file (its body decoded: zlib,
    or range-coded from the primer byte 6 names)."""
    if data[4] == 2 and data[5] & 4:
        return rc_decode(data[8:], data[5] & 1, primer_model(data[6]) if data[6] else None)[0]
    return zlib.decompressobj().decompress(data[8:])


def check_seal(data, keys):
    """A single version-2 file: decode its body, check what follows."""
    if data[5] & 4:
        content, _, used, ok = rc_decode(data[8:], data[5] & 1, primer_model(data[6]) if data[6] else None)
        if not ok: return 3, 'truncated body: an unsigned prefix'
        return seal_verdict(data[:8], content, data[8 + used:], keys)
    if data[6]:
        return 3, 'corrupt: envelope byte 6 (the primer) is %d, but the body is zlib' % data[6]
    d = zlib.decompressobj()
    content = d.decompress(data[8:])
    if not d.eof:
        return 3, 'truncated body: an unsigned prefix'
    return seal_verdict(data[:8], content, d.unused_data, keys)


KEYS = {}


# ---------------------------------------------------------------- printing
def dump_content(name, version, flags, raw, complete, trailer, limit, summary, env=None, counts=None):
    timed = flags & 1
    if env is None: env = b'TCGR' + bytes([version, flags, 0, 0])
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
    if not complete:
        print('%s: truncated after %d complete records%s' % (name, n, ' (an unsigned prefix)' if version == 2 else ''),
              file=sys.stderr if summary else sys.stdout)
        return 3
    if not summary: print('%d records' % n)
    if counts is not None and counts != (len(raw), actions):
        print('%s: corrupt index: its entry says %d content bytes and %d actions, the member holds %d and %d' % (
            name, counts[0], counts[1], len(raw), actions), file=sys.stderr if summary else sys.stdout)
        return 3
    if version == 2:
        st, msg = seal_verdict(env, raw, trailer, KEYS)
        if not summary or st: print('%s: seal: %s' % (name, msg), file=sys.stdout if not summary else sys.stderr)
        return st
    return 0


FORMAT_PATH = None


def main():
    global FORMAT_PATH
    args = sys.argv[1:]
    limit = None
    summary = '--summary' in args
    if '--records' in args: limit = int(args[args.index('--records') + 1])
    if '--format' in args: FORMAT_PATH = args[args.index('--format') + 1]
    valued = ('--records', '--format', '--key', '--keyring')
    paths = [a for k, a in enumerate(args) if not a.startswith('--') and (k == 0 or args[k - 1] not in valued)]
    global KEYS
    KEYS = load_keys([args[k + 1] for k, a in enumerate(args) if a in ('--key', '--keyring') and k + 1 < len(args)])
    if summary and len(paths) > 1:
        # many files: each one's line after its name and a tab; the worst exit
        worst = 0
        for path in paths:
            print(path, end='\t')
            worst = max(worst, one(path, limit, summary))
            sys.stdout.flush()
        return worst
    return one(paths[0], limit, summary)


def one(path, limit, summary):
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
            members, cut, note, counts = archive_members(data)
            cache, primes = [], [Model()]
            if member is not None:
                if member >= len(members):
                    print('%s: the archive holds %d complete member(s)' % (path, len(members))); return 3
                raw, ok = member_content(data, members, member, cache, primes)
                return dump_content('%s#%d' % (path, member), 2, members[member][1], raw, ok, members[member][3],
                                    limit, summary, counts=counts[member] if counts else None)
            print('archive: %d complete member(s), index %s' % (len(members), note))
            worst = 0
            for k in range(len(members)):
                print('--- member %d (offset %d)' % (k, members[k][0]))
                try:   # a member that does not decode fails alone; the frames go on (§C.3)
                    raw, ok = member_content(data, members, k, cache, primes)
                    worst = max(worst, dump_content('%s#%d' % (path, k), 2, members[k][1], raw, ok, members[k][3],
                                                    limit if limit is not None else 0, summary,
                                                    counts=counts[k] if counts else None))
                except (Corrupt, Trunc, zlib.error, UnicodeDecodeError, ValueError) as e:
                    print('%s#%d: corrupt: %s' % (path, k, e)); worst = 3
            if cut is not None:
                print('%s: member %d is cut short at offset %d' % (path, len(members), cut)); worst = 3
            if not note.startswith('ok'): worst = 3
            return worst
        if version == 2 and flags & 4:
            raw, hl, used, ok = rc_decode(data[8:], flags & 1, primer_model(data[6]) if data[6] else None)
            if ok and unpack(raw, 0)[1] != hl: raise Corrupt('the header length in the range-coded body is wrong')
            if len(data) - 8 - used > 4096 and ok:
                print('%s: more than 4096 bytes after the body' % path); return 3
            return dump_content(path, version, flags, raw, ok, data[8 + used:] if ok else b'', limit, summary, data[:8])
        if version == 2 and data[6]:
            raise Corrupt('envelope byte 6 (the primer) is %d, but the body is zlib' % data[6])
        d = zlib.decompressobj()
        raw = d.decompress(data[8:])
        if version == 1 and d.unused_data:
            print('%s: %d byte(s) after the zlib stream' % (path, len(d.unused_data))); return 3
        if len(d.unused_data) > 4096:
            print('%s: more than 4096 bytes after the body' % path); return 3
        return dump_content(path, version, flags, raw, d.eof, d.unused_data, limit, summary, data[:8])
    except (Corrupt, zlib.error, UnicodeDecodeError, ValueError) as e:
        print('%s: corrupt: %s' % (path, e)); return 3
    except Trunc:
        print('%s: truncated inside the header' % path); return 3


if __name__ == '__main__':
    sys.exit(main())
