// report_browser.js — the judge's viewer (`arbiter report`) in a real
// browser: Debian's chromium driven by playwright-core (npm; it downloads
// no browser). Run by tests/report_browser.sh (make check-browser).
//
// For every game, on the longest match of its golden corpus:
//   - the page is one file under 2 MB that asks the network for nothing;
//   - opening FILE.html#r<N> selects record N, and the board shows the
//     values of `arbiter state FILE --at N --json` (every scalar of the
//     state tree, the turn, phase and decision); ←/→, Home/End, the slider
//     and "jump to turn" select the records they should;
//   - the judge's seat toggle shows `state --as SEAT`;
//   - the --as file shows that seat's view and does not contain, anywhere
//     in its bytes, the name of another seat's card that seat never saw;
//   - a file whose checkpoint hash was altered opens on DOES NOT VERIFY
//     with the divergence linked to the right record.
// Prints the page size and the load time measured in the browser, keeps a
// screenshot per game in $SHOTS (build/report-shots), and ends with the
// plain "N passed, N failed" line.
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { execFileSync } = require('child_process');
const { chromium } = require(process.env.PLAYWRIGHT || 'playwright-core');

const ARBITER = process.env.ARBITER || 'build/arbiter';
const CHROME = process.env.CHROMIUM || '/usr/bin/chromium';
const WORK = fs.mkdtempSync('/tmp/arb-browser-');
const SHOTS = process.env.SHOTS || 'build/report-shots';
fs.mkdirSync(SHOTS, { recursive: true });

let passed = 0, failed = 0;
function ok(cond, what) {
  if (cond) { passed++; console.log('ok   - ' + what); } else { failed++; console.log('FAIL - ' + what); }
  return cond;
}
// Exit 3 is accepted for a truncated replay (the leak check's prefixes):
// the command still writes its output, up to the last complete record.
let truncatedOk = false;
function arb(args) {
  try {
    return execFileSync(ARBITER, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (truncatedOk && e.status === 3 && /truncated/.test(String(e.stderr))) return e.stdout;
    throw e;
  }
}
// JSON with integers beyond 2^53 (PRNG words) kept as their digits.
function parseExact(text) { return JSON.parse(text.replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"')); }
function stateAt(file, at, seat) {
  const a = ['state', file, '--at', String(at), '--json'];
  if (seat !== undefined) a.push('--as', String(seat));
  return parseExact(arb(a));
}
function txt(v) { return v === null ? '\u2014' : String(v); }
// Every scalar of the document the board is drawn from, by dotted path.
function scalars(doc) {
  const out = {};
  (function walk(v, p) {
    if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) walk(v[k], p ? p + '.' + k : k);
    } else out[p] = txt(v);
  })({ turn: doc.turn, phase: doc.phase, clock_ms: doc.clock_ms, decision: doc.decision, outcome: doc.outcome,
       state: doc.state }, '');
  return out;
}
async function boardValues(page) {
  return page.evaluate(() => {
    const m = {};
    document.querySelectorAll('#board [data-p][data-v]').forEach(el => { m[el.getAttribute('data-p')] = el.getAttribute('data-v'); });
    return m;
  });
}
async function compareBoard(page, doc, what) {
  const want = scalars(doc), got = await boardValues(page);
  const keys = Object.keys(want), bad = keys.filter(k => got[k] !== want[k]);
  ok(keys.length > 10 && bad.length === 0,
     what + ': the board shows the ' + keys.length + ' values of the state tree' +
     (bad.length ? ' — differ: ' + bad.slice(0, 5).map(k => k + ' board=' + got[k] + ' state=' + want[k]).join('; ') : ''));
}
async function ready(page) { await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 }); }
async function record(page) { return page.evaluate(() => window.arbViewer.record()); }
// After following a link: hashchange arrives asynchronously.
async function recordAfter(page, want) {
  try { await page.waitForFunction(w => window.arbViewer.record() === w, want, { timeout: 5000 }); } catch (e) { /* compared below */ }
  return record(page);
}

// Alter the hash of the checkpoint of turn 3 (93 01 03 cf <8 bytes>).
function tamper(src, dst) {
  const raw = fs.readFileSync(src);
  const body = zlib.inflateSync(raw.subarray(8), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const at = body.indexOf(Buffer.from([0x93, 0x01, 0x03, 0xcf]));
  if (at < 0) return false;
  body[at + 11] ^= 0x5a;
  fs.writeFileSync(dst, Buffer.concat([raw.subarray(0, 8), zlib.deflateSync(body)]));
  return true;
}

// Card names of another seat that P1 never saw (in no P1 view of the
// state, sampled through the match, not in P1's narration, not in P1's own
// deck) are in the judge's file and must not be anywhere in P1's.
function leakCheck(g, file, quietIfNone) {
  truncatedOk = true;
  try { return leakCheck1(g, file, quietIfNone); } finally { truncatedOk = false; }
}
function leakCheck1(g, file, quietIfNone) {
  const n = stateAt(file, 'last').records, players = stateAt(file, 'last').state.players.length;
  const judge = path.join(WORK, g + '-short.html'), seat = path.join(WORK, g + '-short-p1.html');
  arb(['report', file, '-o', judge]);
  arb(['report', file, '-o', seat, '--as', '0']);
  const pool = JSON.parse(arb(['cards', '--game', g, '--json']));
  const list = Array.isArray(pool) ? pool : pool.cards;
  const nameOf = {};
  list.forEach(c => { nameOf[c.id] = c.name; });
  const idsIn = (v, acc) => {
    if (v && typeof v === 'object') Object.keys(v).forEach(k => idsIn(v[k], acc));
    else if (typeof v === 'string' && nameOf[v]) acc.add(v);
    return acc;
  };
  const seen = new Set();
  for (let i = -1; i < n; i += Math.max(1, Math.floor(n / 80))) idsIn(stateAt(file, i < 0 ? 'setup' : i, 0).state, seen);
  idsIn(stateAt(file, n - 1, 0).state, seen);
  const log = arb(['log', file, '--as', '0']);
  const setup = stateAt(file, 'setup'), theirs = new Set();
  for (let p = 1; p < players; p++) idsIn(setup.state.players[p], theirs);
  const own = idsIn(setup.state.players[0], new Set());
  const visibleNames = [...seen, ...own].map(id => nameOf[id]);
  const hidden = [...theirs].filter(id => !seen.has(id) && !own.has(id) && !log.includes(nameOf[id]))
    .map(id => nameOf[id]).filter(nm => !visibleNames.some(v => v !== nm && v.includes(nm)));
  const judgeBytes = fs.readFileSync(judge, 'utf8'), seatBytes = fs.readFileSync(seat, 'utf8');
  const inJudge = hidden.filter(nm => judgeBytes.includes(nm)), leaked = hidden.filter(nm => seatBytes.includes(nm));
  if (!inJudge.length && quietIfNone) return false;
  // Identities: the other seats' hand and deck entries at the end, as the
  // page serializes card objects ({"uid":U,"card":"x"}), that never were in
  // P1's view at any record.
  const views = new Set(), objs = v => {
    if (v && typeof v === 'object') {
      if (!Array.isArray(v) && typeof v.uid === 'number' && (typeof v.card === 'string' || typeof v.id === 'string'))
        views.add(JSON.stringify(v));
      Object.keys(v).forEach(k => objs(v[k]));
    }
  };
  for (let i = -1; i < n; i++) objs(stateAt(file, i < 0 ? 'setup' : i, 0).state);
  const end = stateAt(file, n - 1), secret = [];
  for (let p = 1; p < players; p++)
    for (const z of ['hand', 'deck', 'vault'])
      for (const c of end.state.players[p][z] || []) {
        const o = JSON.stringify(c);
        if (!views.has(o)) secret.push(o);
      }
  const sJudge = secret.filter(o => judgeBytes.includes(o)), sLeak = secret.filter(o => seatBytes.includes(o));
  ok(sJudge.length > 0 && sLeak.length === 0, g + ': ' + sJudge.length + ' hidden card identities of other seats (' +
     (sJudge[0] || '') + ', …) are in the judge file and none in the P1 file' + (sLeak.length ? ' — leaked: ' + sLeak[0] : ''));
  // Operator's views publish every seat's card list (its STATE.md: "public: it
  // is the deck list"), so no name stays unseen there: the identities above
  // are its check.
  if (!inJudge.length && !hidden.length) { console.log('# ' + g + ': every card name of the other seats is public in its views'); return true; }
  ok(inJudge.length > 0, g + ': ' + path.basename(file) + ': ' + hidden.length + " card names of other seats P1 never saw (" +
     hidden.slice(0, 4).join(', ') + (hidden.length > 4 ? ', …' : '') + '), ' + inJudge.length + ' of them in the judge file');
  ok(leaked.length === 0, g + ': none of them anywhere in the bytes of the P1 file' + (leaked.length ? ' — leaked: ' + leaked.join(', ') : ''));
  return true;
}

function shortest(game) {
  const dir = path.join('replays/golden', game);
  let best = null, least = Infinity;
  for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.tcgr'))) {
    const p = path.join(dir, f), n = stateAt(p, 'last').records;
    if (n < least) { least = n; best = p; }
  }
  return best;
}

function longest(game) {
  const dir = path.join('replays/golden', game);
  let best = null, most = -1;
  for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.tcgr'))) {
    const p = path.join(dir, f), n = stateAt(p, 'last').records;
    if (n > most) { most = n; best = p; }
  }
  return best;
}

(async () => {
  const gj = JSON.parse(arb(['games', '--json'])), games = (Array.isArray(gj) ? gj : gj.games).map(g => g.id);
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const external = [], errors = [];
  await page.route('**/*', route => {
    if (route.request().url().startsWith('file:')) return route.continue();
    external.push(route.request().url());
    return route.abort();
  });
  page.on('pageerror', e => errors.push(e.message));
  const summary = [];

  for (const g of games) {
    if (!fs.existsSync(path.join('replays/golden', g))) { console.log('# ' + g + ': no golden corpus, skipped'); continue; }
    const file = longest(g);
    const last = stateAt(file, 'last'), n = last.records, players = last.state.players.length;
    const judge = path.join(WORK, g + '.html'), seat = path.join(WORK, g + '-p1.html');
    arb(['report', file, '-o', judge]);
    arb(['report', file, '-o', seat, '--as', 'P1']);
    const size = fs.statSync(judge).size, bytes = fs.readFileSync(judge, 'utf8');
    ok(size < 2 * 1024 * 1024, g + ': ' + file + ' (' + n + ' records): page ' + size + ' bytes < 2 MB');
    ok(!/<link|<img|<iframe|\bsrc=|url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i.test(bytes),
       g + ': no external resource named in the page');
    const ids = new Set((bytes.match(/ id=r(-?\d+)/g) || []).map(x => x.slice(5)));
    let missing = 0;
    for (let i = 0; i < n; i++) if (!ids.has(String(i))) missing++;
    ok(missing === 0, g + ': every record 0..' + (n - 1) + ' has an element id="r<INDEX>"' + (missing ? ' (' + missing + ' missing)' : ''));

    // A cited record.
    const N = Math.floor(n / 2);
    errors.length = 0;
    const t0 = Date.now();
    await page.goto('file://' + judge + '#r' + N);
    await ready(page);
    const wall = Date.now() - t0;
    const perf = await page.evaluate(() => ({ ready: window.arbViewer.readyAt, script: window.arbViewer.renderMs }));
    summary.push(g + ': ' + path.basename(file) + ', ' + n + ' records, judge page ' + size + ' B, P1 page ' +
                 fs.statSync(seat).size + ' B, ready ' + perf.ready.toFixed(0) + ' ms after navigation (script ' +
                 perf.script.toFixed(0) + ' ms; wall ' + wall + ' ms)');
    ok(await record(page) === N, g + ': #r' + N + ' selects record ' + N);
    ok(await page.evaluate(N => document.getElementById('r' + N).classList.contains('cur'), N), g + ': the cited row is highlighted');
    await compareBoard(page, stateAt(file, N), g + ' record ' + N);
    const prevDoc = scalars(stateAt(file, N - 1)), curDoc = scalars(stateAt(file, N));
    const moved = Object.keys(curDoc).filter(k => prevDoc[k] !== curDoc[k] && k !== 'clock_ms');
    const outlined = await page.evaluate(() => [...document.querySelectorAll('#board .chg')].map(e => e.getAttribute('data-p')));
    ok(moved.every(k => outlined.some(p => k === p || k.startsWith(p + '.'))),
       g + ': the ' + moved.length + ' values record ' + N + ' changed are outlined (' + outlined.length + ' outlines)');
    await page.screenshot({ path: path.join(SHOTS, 'report-' + g + '.png') });

    // Stepping.
    await page.click('#slider');
    await page.evaluate(N => { const s = document.getElementById('slider'); s.value = N; s.dispatchEvent(new Event('input')); }, N);
    await page.keyboard.press('ArrowRight');
    ok(await record(page) === N + 1, g + ': → selects the next record');
    await compareBoard(page, stateAt(file, N + 1), g + ' record ' + (N + 1));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    ok(await record(page) === N - 1, g + ': ← selects the previous record');
    await page.keyboard.press('End');
    ok(await record(page) === n - 1, g + ': End selects the last record');
    await compareBoard(page, stateAt(file, n - 1), g + ' last record');
    await page.keyboard.press('Home');
    ok(await record(page) === -1, g + ': Home selects the setup');
    await compareBoard(page, stateAt(file, 'setup'), g + ' setup');
    await page.evaluate(() => { const s = document.getElementById('slider'); s.value = 7; s.dispatchEvent(new Event('input')); });
    ok(await record(page) === 7, g + ': the slider selects record 7');
    const T = Math.max(2, Math.floor(last.turn / 2));
    await page.fill('#jt', String(T));
    await page.click('#jump button');
    const jr = await record(page), js = stateAt(file, jr), before = jr > 0 ? stateAt(file, jr - 1).turn : 0;
    ok(js.turn >= T && before < T, g + ': jump to turn ' + T + ' selects record ' + jr + ', where turn ' + js.turn + ' begins');
    await page.click('#turns a[data-t="' + js.turn + '"]');
    ok(await recordAfter(page, jr) === jr, g + ': the turn list links to the first record of the turn');
    // A chart point links to its record.
    const href = await page.evaluate(() => { const a = document.querySelector('#charts svg a'); return a ? a.getAttribute('href') : null; });
    ok(href && /^#r-?\d+$/.test(href), g + ': chart points link to records (' + href + ')');

    // Seat toggle in the judge's file.
    const sv = players - 1;
    await page.evaluate(N => window.arbViewer.select(N), N);
    await page.click('.vbtn[data-view="' + sv + '"]');
    ok(await page.evaluate(() => window.arbViewer.view()) === String(sv), g + ': the toggle shows P' + (sv + 1) + "'s view");
    await compareBoard(page, stateAt(file, N, sv), g + ' record ' + N + ' as P' + (sv + 1));
    await page.click('.vbtn[data-view="all"]');

    // Filters hide rows.
    const visible = () => page.evaluate(() => [...document.querySelectorAll('#tl tr')].filter(r => r.offsetParent !== null).length);
    const all = await visible();
    await page.check('#f-act');
    const acts = await visible();
    await page.uncheck('#f-act');
    ok(acts > 0 && acts < all, g + ': "actions only" shows ' + acts + ' of ' + all + ' rows');
    ok(errors.length === 0, g + ': no script error' + (errors.length ? ': ' + errors[0] : ''));

    // The seat's file.
    await page.goto('file://' + seat + '#r' + N);
    await ready(page);
    await compareBoard(page, stateAt(file, N, 0), g + ' P1 file, record ' + N);
    ok(await page.evaluate(() => document.querySelectorAll('.vbtn').length) === 0, g + ': the P1 file has no view toggle');
    await page.screenshot({ path: path.join(SHOTS, 'report-' + g + '-p1.png') });
    // The leak check wants a short match between different decks, so that
    // some of the opponent's cards stay unseen: the first preset pairing
    // (or the shortest golden match) that leaves one.
    const presets = arb(['deck', 'list', '--game', g]).split('\n').map(l => l.split(/\s+/)[0]).filter(Boolean);
    const tries = [shortest(g)];
    for (let i = 0; i < presets.length; i++)
      for (let j = 0; j < presets.length; j++) if (i !== j) tries.push([presets[i], presets[j]]);
    for (const t of tries) {
      let f = t;
      if (Array.isArray(t)) {
        f = path.join(WORK, g + '-' + t.join('-') + '.tcgr');
        // Stopped after 80 actions: play keeps FILE.part, a replay without an outcome.
        try { arb(['play', '--game', g, '--seed', '7', '--decks', t.join(','), '--max-actions', '80', '-o', f]); } catch (e) { /* expected */ }
        if (fs.existsSync(f + '.part')) fs.renameSync(f + '.part', f);
        if (!fs.existsSync(f)) continue;
      }
      if (leakCheck(g, f, t !== tries[tries.length - 1])) break;
    }

    // A tampered file.
    const bad = path.join(WORK, g + '-tampered.tcgr'), badHtml = path.join(WORK, g + '-tampered.html');
    if (ok(tamper(file, bad), g + ': tampered a checkpoint hash')) {
      let vr = null;
      try { arb(['verify', bad, '--json']); } catch (e) { vr = e.stdout; }
      const div = vr ? JSON.parse(vr.split('\n').filter(l => l.startsWith('{"file"')).pop()) : null;
      let rst = 0;
      try { arb(['report', bad, '-o', badHtml]); } catch (e) { rst = e.status; }
      ok(rst === 1, g + ': report of the tampered file writes its page and exits 1 (got ' + rst + ')');
      await page.goto('file://' + badHtml);
      await ready(page);
      const v = await page.evaluate(() => ({
        word: document.querySelector('#verdict .vword').textContent,
        href: (document.getElementById('divergence') || {}).getAttribute ? document.getElementById('divergence').getAttribute('href') : null
      }));
      ok(v.word === 'DOES NOT VERIFY', g + ': the tampered file opens on "' + v.word + '"');
      const want = div && (div.divergence || div).record;
      ok(v.href === '#r' + want, g + ': the first divergence links to ' + v.href + ' (verify says record ' + want + ')');
      if (v.href) {
        await page.click('#divergence');
        ok(await recordAfter(page, Number(v.href.slice(2))) === Number(v.href.slice(2)), g + ': following it selects that record');
      }
      await page.goto('file://' + judge);
      await ready(page);
      ok(await page.evaluate(() => document.querySelector('#verdict .vword').textContent) === 'VERIFIED', g + ': the golden file opens on VERIFIED');
      await page.waitForTimeout(100);
      ok(await page.evaluate(() => window.scrollY === 0 && document.getElementById('verdict').getBoundingClientRect().top === 0),
         g + ': without a fragment the page opens on the verdict, at the top');
      await page.emulateMedia({ media: 'print' });
      ok(await page.evaluate(() => getComputedStyle(document.getElementById('controls')).display === 'none' &&
                                   getComputedStyle(document.getElementById('tlwrap')).overflow === 'visible'),
         g + ': the print stylesheet drops the controls and prints the whole timeline');
      await page.emulateMedia({ media: 'screen' });
    }
  }
  ok(external.length === 0, 'no request left the file system' + (external.length ? ': ' + external[0] : ''));
  await browser.close();
  fs.rmSync(WORK, { recursive: true, force: true });
  console.log('# sizes and load times (longest golden match of each game):');
  summary.forEach(s => console.log('#   ' + s));
  console.log(passed + ' passed, ' + failed + ' failed');
  process.exit(failed ? 1 : 0);
})().catch(e => { console.log('FAIL - ' + (e && e.stack || e)); console.log(passed + ' passed, ' + (failed + 1) + ' failed'); process.exit(1); });
