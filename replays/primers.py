#!/usr/bin/env python3
"""primers.py — how the built-in primers of FORMAT.md §D.8 were made.

A primer is a fixed byte stream of replay contents that a range-coded body
(Part D) feeds through its models before coding, so that a single file
starts from models that already know its game's records instead of from
p = 1/2. Primers are FROZEN: once a primer id is released its bytes never
change (files name it in their envelope), so this script is the record of
how primer 1-4 were made, not something to re-run into the same ids. A new
primer gets a new id.

For a game it walks candidate self-play matches (seed 90000 + i; players,
agents, preset decks and --timed varied as tests/golden/generate.sh varies
them, so no golden or bench match is among them), records each with
`arbiter play`, takes its CONTENT with the independent reader
(tcgr_dump.py), and appends items until the stream reaches BUDGET bytes.

Item: 1 byte flags (bit 0: timed), LEB128 content length n, LEB128 header
length h, the n content bytes.

  ARBITER=build/arbiter python3 replays/primers.py GAME [BUDGET]   # one raw stream on stdout
  ARBITER=build/arbiter python3 replays/primers.py --c >src/replay/primer_data.c   # ids 1-4, as released
  python3 replays/primers.py --md src/replay/primer_data.c   # FORMAT.md §D.8's data blocks, from the C file
"""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcgr_dump as T  # noqa: E402


def leb(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7f) | 0x80); v >>= 7
    out.append(v)
    return bytes(out)


def content(path):
    data = open(path, 'rb').read()
    flags = data[5]
    raw, hl, used, ok = T.rc_decode(data[8:], flags & 1)
    assert ok
    return raw, hl, flags & 1


def stream(game, budget, arbiter):
    lines = subprocess.run([arbiter, 'deck', 'list', '--game', game], capture_output=True, text=True,
                           check=True).stdout.split('\n')
    presets = [l.split()[0] for l in lines if l.strip()]
    import json
    info = [g for g in json.loads(subprocess.run([arbiter, 'games', '--json'], capture_output=True, text=True,
                                                 check=True).stdout) if g['id'] == game][0]
    minp, maxp = info['min_players'], min(info['max_players'], 4)
    np_, nd = maxp - minp + 1, len(presets)
    out = bytearray()
    env = dict(os.environ, SOURCE_DATE_EPOCH='1764000000')
    with tempfile.TemporaryDirectory() as tmp:
        i = 0
        while len(out) < budget and i < 1000:
            p = minp + i % np_
            kind = (i // np_) % 3
            if kind < 2: agents = ('random', 'greedy')[kind]
            else: agents = ','.join(('random', 'greedy')[(s + i) % 2] for s in range(p))
            decks = ','.join(presets[(i // 3 + s * (1 + i % 2)) % nd] for s in range(p))
            args = [arbiter, 'play', '--game', game, '--seed', str(90000 + i), '--players', str(p),
                    '--agents', agents, '--decks', decks, '-o', os.path.join(tmp, 'm.tcgr')]
            if i % 3 == 2: args.append('--timed')
            i += 1
            if subprocess.run(args, capture_output=True, env=env).returncode != 0: continue
            raw, hl, timed = content(os.path.join(tmp, 'm.tcgr'))
            out += bytes([timed]) + leb(len(raw)) + leb(hl) + raw
    return bytes(out)


GAMES = ('naramo', 'catalyst', 'operator', 'brainstorm')   # primer ids 1, 2, 3, 4
BUDGET = 4096


def c_source(arbiter):
    out = ['/* primer_data.c — the bytes of the built-in primers 1-4 (replays/FORMAT.md §D.8),',
           ' * written once by replays/primers.py --c and frozen: files name a primer by',
           ' * its id, so these bytes never change (a new primer takes a new id). */',
           '#include "replay/primer.h"', '']
    for k, g in enumerate(GAMES):
        b = stream(g, BUDGET, arbiter)
        out.append('static const uint8_t primer_%s[%d] = {' % (g, len(b)))
        for i in range(0, len(b), 16):
            out.append('    ' + ' '.join('0x%02x,' % x for x in b[i:i + 16]))
        out.append('};')
    out.append('')
    out.append('const arb_rc_primer arb_rc_primers[ARB_RC_NPRIMERS] = {')
    for k, g in enumerate(GAMES):
        out.append('    { %d, primer_%s, sizeof primer_%s },' % (k + 1, g, g))
    out.append('};')
    return '\n'.join(out) + '\n'


def md_blocks(c_path):
    """FORMAT.md's primer data, from the frozen C arrays: per primer, the
    base64 (76 columns) of the zlib stream (level 9) of its bytes."""
    import base64, re, zlib
    src = open(c_path).read()
    out = []
    for k, g in enumerate(GAMES):
        body = re.search(r'primer_%s\[\d+\] = \{(.*?)\};' % g, src, re.S).group(1)
        b = bytes(int(x, 16) for x in re.findall(r'0x([0-9a-f]{2})', body))
        z = base64.b64encode(zlib.compress(b, 9)).decode()
        out.append('Primer %d (`%s`):\n\n```primer-%d' % (k + 1, g, k + 1))
        out += [z[i:i + 76] for i in range(0, len(z), 76)]
        out.append('```\n')
    return '\n'.join(out)


if __name__ == '__main__':
    if sys.argv[1] == '--md':
        sys.stdout.write(md_blocks(sys.argv[2]))
        sys.exit(0)
    if sys.argv[1] == '--c':
        sys.stdout.write(c_source(os.environ.get('ARBITER', 'build/arbiter')))
        sys.exit(0)
    g = sys.argv[1]
    b = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
    sys.stdout.buffer.write(stream(g, b, os.environ.get('ARBITER', 'build/arbiter')))
