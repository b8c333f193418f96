#!/usr/bin/env python3
"""format_examples.py V1FILE V2FILE — prints the worked examples of
replays/FORMAT.md (§14 for version 1, §B.4 for version 2) from the two
files the text names, read by the independent reader replays/tcgr_dump.py
(which knows only FORMAT.md). tests/format_tables.sh writes the two files
with the commands the text gives and requires FORMAT.md to hold exactly
this output, so the examples reproduce under the current engines."""
import os, re, sys, zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'replays'))
import tcgr_dump as T  # noqa: E402

FORMAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'replays', 'FORMAT.md')


def verb_names(game):
    """Verb number → name, from §13's table of the game (generated too)."""
    text = open(FORMAT, encoding='utf-8').read()
    m = re.search(r'^#### .*\(`%s`, rules `[^`]+`\)\n(.*?)(?=\n#### |\n<!-- verbs: end)' % re.escape(game), text,
                  re.S | re.M)
    out = {}
    for line in (m.group(1) if m else '').splitlines():
        c = [x.strip() for x in line.strip('|').split('|')]
        if len(c) > 2 and c[0].isdigit(): out[int(c[0])] = c[1].strip('`')
    return out


def hx(b, n=None):
    s = ' '.join('%02x' % x for x in (b if n is None else b[:n]))
    return s + (' …' if n is not None and len(b) > n else '')


def show(v):
    if isinstance(v, str): return '"%s"' % v
    if isinstance(v, bytes): return 'bin(%d)' % len(v)
    if isinstance(v, list):
        if len(v) > 3 and all(isinstance(x, str) for x in v): return '["…%d card IDs…"]' % len(v)
        return '[' + ','.join(show(x) for x in v) + ']'
    if isinstance(v, dict): return '{' + ','.join('"%s":%s' % (k, show(x)) for k, x in v.items()) + '}'
    return str(v).lower() if isinstance(v, bool) else str(v)


def what(rec, verbs, first_cp):
    if rec[0] == 'action':
        _, ms, seat, verb, args = rec
        who = 'arbiter' if seat == -1 else 'seat %d' % seat
        return '%s: %s%s' % (who, verbs.get(verb, 'verb %d' % verb), ''.join(' %d' % a for a in args))
    if rec[0] == 'checkpoint':
        return 'setup checkpoint: turn %d' % rec[1] if first_cp else 'checkpoint: turn %d begins' % rec[1]
    if rec[0] == 'outcome':
        return 'outcome: %s, %s, after %d turns' % ('draw' if rec[1] < 0 else 'seat %d wins' % rec[1], rec[2], rec[3])
    return 'unknown record %d' % rec[1]


def example_v1(path):
    data = open(path, 'rb').read()
    raw = zlib.decompressobj().decompress(data[8:])
    h, i = T.unpack(raw, 0)
    verbs = verb_names(h['game'])
    out = ['```', '%-32s "TCGR", version %d, flags %d, reserved' % (hx(data[:8]), data[4], data[5]),
           '%-32s zlib stream (CINFO %d = %d KiB window)' % ('%02x …' % data[8], data[8] >> 4, 1 << ((data[8] >> 4) - 2)),
           '```', '', 'and decompresses to (shown as JSON-like text, card lists shortened):', '', '```']
    out.append('{' + ',\n '.join('"%s":%s' % (k, show(v)) for k, v in h.items()) + '}')
    recs, prev, n = [], i, 0
    for j, rec in T.records1(raw, i):
        recs.append((raw[prev:j], rec)); prev = j
    for k, (b, rec) in enumerate(recs):
        if 8 <= k < len(recs) - 1:
            if k == 8: out.append('%-30s (%d records in all)' % ('…', len(recs)))
            continue
        body = '[%s]' % ', '.join(['%d' % {'action': 0, 'checkpoint': 1, 'outcome': 2}.get(rec[0], 9)] + [
            ('0x%016x' % x if isinstance(x, int) and x > 0xffffffff else show(x)) for x in
            (rec[1:4] + tuple(rec[4]) if rec[0] == 'action' else rec[1:3] if rec[0] == 'checkpoint' else rec[1:])])
        out.append('%-30s %-34s %s' % (body, what(rec, verbs, k == 0), hx(b, 6)))
    out.append('```')
    return '\n'.join(out)


def example_v2(path):
    data = open(path, 'rb').read()
    flags = data[5]
    if flags & 4:
        raw, _, _, ok = T.rc_decode(data[8:], flags & 1, T.primer_model(data[6]) if data[6] else None)
    else:
        raw = zlib.decompressobj().decompress(data[8:])
    h, hend = T.unpack(raw, 0)
    verbs = verb_names(h[0])
    names = ['game', 'rules', 'seed', 'started', 'players', 'options', 'extra']
    out = ['```', '%-36s header: array of %d' % (hx(raw[:1]), len(h))]
    i = 1
    for k in range(len(h)):
        _, j = T.unpack(raw, i)
        v = h[k]
        note = names[k] if k < 7 else 'field %d' % k
        if k == 3 and isinstance(v, int):
            import datetime
            note += ' %d = %s' % (v, datetime.datetime.fromtimestamp(v, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))
        elif k == 4:
            note += ': ' + ', '.join('preset %d' % p if isinstance(p, int) else 'a map' for p in v)
        else:
            note += ' ' + show(v)
        out.append('   %-33s %s' % (hx(raw[i:j], 12), note))
        i = j
    recs, prev = [], hend
    for j, rec in T.records2(raw, hend, flags & 1, h[0]):
        recs.append((raw[prev:j], rec)); prev = j
    for k, (b, rec) in enumerate(recs):
        if 8 <= k < len(recs) - 1:
            if k == 8: out.append('%-36s (%d records in all; seat changes are folded into the actions)' % ('…', len(recs)))
            continue
        text = what(rec, verbs, k == 0)
        if rec[0] == 'checkpoint':
            text += ', hash 0x%0*x%s' % (rec[3] // 4, rec[2], '' if rec[3] == 64 else ' (low 8 bits)')
        if rec[0] == 'outcome':
            text += ', final hash 0x%016x' % rec[4]
        if rec[0] == 'action':
            o = 1 if 0x89 <= b[0] <= 0x8d else 0
            text += ' (op %02x: %s argument(s), verb %s)' % (b[o], (b[o] >> 5) if (b[o] >> 5) < 3 else 'a count byte:',
                                                        (b[o] & 31) if (b[o] & 31) < 31 else 'a verb byte:')
            if o: text = '%02x = seat change to %d, then %s' % (b[0], b[0] - 0x8a, text)
        out.append('%-36s %s' % (hx(b, 12), text))
    out.append('```')
    return '\n'.join(out)


if __name__ == '__main__':
    print('<!-- example-v1: begin (generated: tests/format_examples.py; do not edit by hand) -->')
    print(example_v1(sys.argv[1]))
    print('<!-- example-v1: end -->')
    print('<!-- example-v2: begin (generated: tests/format_examples.py; do not edit by hand) -->')
    print(example_v2(sys.argv[2]))
    print('<!-- example-v2: end -->')
