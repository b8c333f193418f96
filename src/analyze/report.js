/* report.js — the judge's viewer (arbiter report), inlined into the page.
 * The page carries, per view, the state tree after setup and one list of
 * differences per record (set [path, value], delete [path], splice an
 * array [path, 0, start, count, [items]]); the state at record N is the
 * setup state with the differences 0..N applied, from a keyframe kept every K records. The
 * board is drawn from that tree for every game alike: scalars are counters,
 * lists or maps of cards are zones, cards show their text on hover, and
 * what the record changed is outlined. No network, no external file. */
(function () {
  'use strict';
  var t0 = performance.now();
  var D = JSON.parse(document.getElementById('arb-data').textContent);
  var K = 64, N = D.n, view = String(D.view0), cur = -2;
  var state = null, stateRec = -2, stateView = null, kf = {};
  var $ = function (id) { return document.getElementById(id); };

  function clone(o) { return JSON.parse(JSON.stringify(o)); }
  function apply(s, ops) {
    for (var i = 0; i < ops.length; i++) {
      var op = ops[i], p = op[0], o = s;
      for (var j = 0; j < p.length - 1; j++) o = o[p[j]];
      var last = p[p.length - 1];
      if (op.length === 1) delete o[last];
      else if (op.length === 5) Array.prototype.splice.apply(o[last], [op[2], op[3]].concat(clone(op[4])));
      else o[last] = (op[1] !== null && typeof op[1] === 'object') ? clone(op[1]) : op[1];
    }
    return s;
  }
  /* A seat's list in the judge's file names the judge's identical ops by
   * their index. */
  function ops(v, r) {
    var l = D.d[v][r];
    if (v === 'all' || !D.d.all) return l;
    return l.map(function (x) { return typeof x === 'number' ? D.d.all[r][x] : x; });
  }
  function stateAt(v, r) {
    if (stateView === v && stateRec >= -1 && r >= stateRec && r - stateRec < K) {
      for (var i = stateRec + 1; i <= r; i++) apply(state, ops(v, i));
      stateRec = r;
      return state;
    }
    var k = Math.floor((r + 1) / K), f = kf[v] || (kf[v] = [clone(D.s0[v])]);
    while (f.length <= k) {
      var j = f.length, s = clone(f[j - 1]);
      for (var x = (j - 1) * K; x < j * K; x++) apply(s, ops(v, x));
      f.push(s);
    }
    var st = clone(f[k]);
    for (var y = k * K; y <= r; y++) apply(st, ops(v, y));
    state = st; stateRec = r; stateView = v;
    return st;
  }

  /* HTML-escaped, with control and bidirectional characters shown as
   * visible \uXXXX text (a U+202E in a name must not reorder the line). */
  function esc(s) {
    return String(s).replace(/[&<>"'\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, function (c) {
      var e = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
      return e || '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4);
    });
  }
  function isObj(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function cardId(x) { return isObj(x) ? (typeof x.card === 'string' ? x.card : typeof x.id === 'string' ? x.id : null) : null; }
  function cardName(id) { var c = D.cards[id]; return c ? c[0] : id; }
  function cardTitle(id) {
    var c = D.cards[id];
    if (!c) return id;
    return c[0] + (c[1] ? ' \u2014 ' + c[1] : '') + (c[2] ? ' (' + c[2] + ')' : '') + (c[3] ? '\n' + c[3] : '');
  }
  function seatName(s) { return s >= 0 ? 'P' + (s + 1) : s === -1 ? 'arbiter' : 'nobody'; }
  function clock(ms) {
    if (ms < 0) return '\u2014';
    var s = Math.floor(ms / 1000), m = Math.floor(s / 60);
    return m + ':' + String(s % 60).padStart(2, '0') + '.' + String(ms % 1000).padStart(3, '0');
  }
  function txt(v) { return v === null ? '\u2014' : String(v); }
  function falsy(v) { return v === 0 || v === false || v === null || v === '' || v === -1; }

  function leaf(key, v, path, cls) {
    return '<span class="' + (cls || 'chip') + (cls && falsy(v) && key !== 'uid' ? ' z' : '') + '" data-p="' + esc(path) + '" data-v="' +
      esc(txt(v)) + '">' + (key === null ? '' : '<span class="k">' + esc(key) + '</span> ') + esc(txt(v)) + '</span>';
  }
  function list(key, arr, path) {
    var ids = arr.length > 8 && arr.every(function (x) { return typeof x === 'string'; });
    var items = arr.map(function (x, i) {
      var p = path + '.' + i;
      if (x !== null && typeof x === 'object') return '<span data-p="' + esc(p) + '">' + esc(JSON.stringify(x)) + '</span>';
      return '<span data-p="' + esc(p) + '" data-v="' + esc(txt(x)) + '"' +
        (ids ? ' title="' + esc(cardTitle(x)) + '">' + i + ':' + esc(cardName(x)) : '>' + esc(txt(x))) + '</span>';
    });
    if (ids) return '<details class="uids" data-p="' + esc(path) + '"><summary>' + esc(key) + ' (' + arr.length +
      ', by uid)</summary>' + items.join(' ') + '</details>';
    return '<span class="chip" data-p="' + esc(path) + '"><span class="k">' + esc(key) + '</span> [' + items.join(', ') + ']</span>';
  }
  function tile(label, x, path) {
    var id = cardId(x), h = '<div class="card" data-p="' + esc(path) + '"' + (id ? ' title="' + esc(cardTitle(id)) + '"' : '') + '>';
    if (label !== null) h += '<span class="pos">' + esc(label) + '</span>';
    h += '<span class="nm">' + (id ? esc(cardName(id)) : x.face_down ? 'face down' : '\u00b7') + '</span>';
    for (var k in x) {
      var v = x[k], p = path + '.' + k;
      if (v !== null && typeof v === 'object') h += Array.isArray(v) ? list(k, v, p).replace('class="chip"', 'class="f"') : '<span class="f" data-p="' + esc(p) + '">' + esc(k) + ' ' + esc(JSON.stringify(v)) + '</span>';
      else if (k === 'card' || k === 'id') h += '<span class="z" data-p="' + esc(p) + '" data-v="' + esc(txt(v)) + '">' + esc(v) + '</span>';
      else h += leaf(k, v, p, 'f');
    }
    return h + '</div>';
  }
  function kindOf(v) {
    if (v === null || typeof v !== 'object') return 'leaf';
    if (cardId(v)) return 'slot';
    var vals = Array.isArray(v) ? v : Object.keys(v).map(function (k) { return v[k]; });
    if (!vals.length) return Array.isArray(v) ? 'zone' : 'group';
    if (vals.every(isObj)) return 'zone';
    if (Array.isArray(v) && vals.every(function (x) { return x === null || typeof x !== 'object'; })) return 'list';
    return 'group';
  }
  function zone(key, v, path) {
    var keys = Object.keys(v), h = '<div class="zone" data-p="' + esc(path) + '"><div class="zh">' + esc(key) +
      ' (' + keys.length + ')</div><div class="tiles">';
    if (!keys.length) h += '<span class="empty">empty</span>';
    keys.forEach(function (k) { h += tile(Array.isArray(v) ? null : k, v[k], path + '.' + k); });
    return h + '</div></div>';
  }
  function backs(key, n, path) {
    var h = '<div class="zone" data-p="' + esc(path) + '"><div class="zh">' + esc(key) + ' (' + n + ', hidden)</div><div class="tiles">';
    for (var i = 0; i < Math.min(n, 12); i++) h += '<div class="card back">&nbsp;</div>';
    if (n > 12) h += '<span class="empty">+' + (n - 12) + '</span>';
    return h + '</div></div>';
  }
  function renderMap(o, path, skip) {
    var chips = '', rest = '';
    Object.keys(o).forEach(function (k) {
      if (skip && skip[k]) return;
      var v = o[k], p = path ? path + '.' + k : k, kd = kindOf(v);
      if (kd === 'leaf') {
        chips += leaf(k, v, p);
        var m = /^(.*)_count$/.exec(k);
        if (m && typeof v === 'number' && v > 0 && !(m[1] in o)) rest += backs(m[1], v, path + '.' + m[1]);
      } else if (kd === 'list') chips += list(k, v, p);
      else if (kd === 'slot') rest += '<div class="zone" data-p="' + esc(p) + '"><div class="zh">' + esc(k) + '</div><div class="tiles">' + tile(null, v, p) + '</div></div>';
      else if (kd === 'zone') rest += zone(k, v, p);
      else rest += '<div class="sub zone" data-p="' + esc(p) + '"><div class="zh">' + esc(k) + '</div>' + renderMap(v, p) + '</div>';
    });
    return (chips ? '<div>' + chips + '</div>' : '') + rest;
  }

  function board(w, r) {
    var dec = w.decision || {}, h = '<div class="status">';
    h += '<b>' + (r < 0 ? 'After the setup' : 'After record #' + r) + '</b> of ' + N + ' \u00b7 turn ' + esc(w.turn) +
      ' \u00b7 ' + esc(w.phase) + ' \u00b7 decision: <b>' + esc(seatName(dec.seat)) + '</b>' +
      (dec.kind ? ' (' + esc(dec.kind) + ')' : '');
    if (D.timed) h += ' \u00b7 clock ' + clock(w.clock_ms) + (dec.clock_left_ms >= 0 ? ', ' + clock(dec.clock_left_ms) + ' left' : '');
    if (w.rejected) h += ' \u00b7 <span class="rule">rejected ' + esc(w.rejected.rule) + '</span>';
    h += '<div>' + renderMap(w, '', { state: 1 }) + '</div></div>';
    var s = w.state || {};
    h += '<div class="pl">' + renderMap(s, 'state', { players: 1 }) + '</div>';
    (s.players || []).forEach(function (p, i) {
      var owes = dec.seat === i;
      h += '<div class="pl' + (owes ? ' owes' : '') + '" data-seat="' + i + '"><h3>P' + (i + 1) +
        (D.names[i] && D.names[i] !== 'P' + (i + 1) ? ' \u00b7 <bdi>' + esc(D.names[i]) + '</bdi>' : '') +
        (owes ? '<span class="tag">to act: ' + esc(dec.kind || '') + '</span>' : '') + '</h3>' +
        renderMap(p, 'state.players.' + i) + '</div>';
    });
    return h;
  }

  /* What record r changed: subtrees set, deleted or inserted (deep) and
   * zones that lost cards (exact). */
  function changed(r) {
    var c = { deep: [], exact: [] };
    if (r < 0) return c;
    ops(view, r).forEach(function (op) {
      var p = op[0].join('.');
      if (op.length !== 5) c.deep.push(p);
      else {
        for (var i = 0; i < op[4].length; i++) c.deep.push(p + '.' + (op[2] + i));
        if (op[3] > 0) c.exact.push(p);
      }
    });
    return c;
  }
  function mark(root, c) {
    if (!c.deep.length && !c.exact.length) return;
    root.querySelectorAll('[data-p]').forEach(function (el) {
      var p = el.getAttribute('data-p'), tileish = el.classList.contains('card') || !el.children.length;
      if (c.exact.indexOf(p) >= 0) { el.classList.add('chg'); return; }
      for (var i = 0; i < c.deep.length; i++) {
        var q = c.deep[i];
        if (p === q || p.indexOf(q + '.') === 0 || (tileish && q.indexOf(p + '.') === 0)) { el.classList.add('chg'); return; }
      }
    });
  }

  var rows = {};
  document.querySelectorAll('#tl tr').forEach(function (tr) {
    var r = tr.getAttribute('data-r');
    if (!(r in rows)) rows[r] = tr;
  });
  var curRow = null;

  function select(r, fromHash) {
    r = Math.max(-1, Math.min(N - 1, r | 0));
    var w = stateAt(view, r), b = $('board');
    b.innerHTML = board(w, r);
    mark(b, changed(r));
    cur = r;
    $('slider').value = r;
    $('pos').textContent = (r < 0 ? 'setup' : 'record #' + r) + ' \u00b7 turn ' + w.turn + ' \u00b7 ' + w.phase;
    if (curRow) curRow.classList.remove('cur');
    curRow = rows[String(r)] || null;
    if (curRow) {
      curRow.classList.add('cur');
      rowIntoView(fromHash);
    }
    document.querySelectorAll('#turns a.cur').forEach(function (a) { a.classList.remove('cur'); });
    var ta = document.querySelector('#turns a[data-t="' + w.turn + '"]');
    if (ta) ta.classList.add('cur');
    if (!fromHash && history.replaceState) history.replaceState(null, '', '#r' + r);
  }
  /* The current row a third of the way down the timeline, unless it is
   * in sight already. Chunks above it may change height once laid out
   * (content-visibility), so this runs again on the next frames. */
  function rowIntoView(force) {
    var wrap = $('tlwrap'), head = wrap.querySelector('.head'), hh = head ? head.offsetHeight : 0;
    var place = function () {
      if (!curRow) return;
      var top = curRow.getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop;
      if (force || top < wrap.scrollTop + hh + 4 || top > wrap.scrollTop + wrap.clientHeight - 30)
        wrap.scrollTop = top - wrap.clientHeight / 3;
    };
    place();
    requestAnimationFrame(function () { place(); requestAnimationFrame(place); });
  }
  /* A followed link (#r<INDEX>): the browser scrolls the page to the row
   * itself; bring the board back under the controls instead. */
  function showBoard() {
    window.scrollTo(0, Math.max(0, $('work').offsetTop - $('controls').offsetHeight - 4));
    rowIntoView(true);
  }
  function fromHash() {
    var m = /^#r(-?\d+)$/.exec(location.hash);
    if (!m) return;
    select(parseInt(m[1], 10), true);
    setTimeout(showBoard, 0);
  }

  /* Turn list: the first record that reaches each turn. */
  var firstOf = {}, th = '';
  for (var i = 0; i < N; i++) if (!(D.rt[i] in firstOf)) firstOf[D.rt[i]] = i;
  Object.keys(firstOf).sort(function (a, b) { return a - b; }).forEach(function (t) {
    th += '<a href="#r' + firstOf[t] + '" data-t="' + t + '" title="turn ' + t + ' starts at record #' + firstOf[t] + '">' + t + '</a>';
  });
  $('turns').innerHTML = 'Turns: ' + th;

  $('slider').min = -1;
  $('slider').max = N - 1;
  $('slider').addEventListener('input', function () { select(parseInt(this.value, 10)); });
  $('prev').addEventListener('click', function () { select(cur - 1); });
  $('next').addEventListener('click', function () { select(cur + 1); });
  $('jump').addEventListener('submit', function (e) {
    e.preventDefault();
    var t = parseInt($('jt').value, 10), best = -1;
    for (var i = 0; i < N; i++) if (D.rt[i] >= t) { best = i; break; }
    if (best < 0 && N) best = N - 1;
    select(best);
  });
  document.addEventListener('keydown', function (e) {
    if (e.target && (e.target.tagName === 'INPUT' && e.target.type !== 'range' || e.target.tagName === 'SELECT')) return;
    var k = e.key, to = null;
    if (k === 'ArrowRight') to = cur + 1;
    else if (k === 'ArrowLeft') to = cur - 1;
    else if (k === 'Home') to = -1;
    else if (k === 'End') to = N - 1;
    else if (k === 'PageDown') to = cur + 10;
    else if (k === 'PageUp') to = cur - 10;
    if (to === null) return;
    e.preventDefault();
    select(to);
  });
  $('tl').addEventListener('click', function (e) {
    var tr = e.target.closest('tr[data-r]');
    if (tr && !e.target.closest('a')) select(parseInt(tr.getAttribute('data-r'), 10));
  });
  window.addEventListener('hashchange', fromHash);

  /* Filters. */
  var tl = $('tl');
  $('f-act').addEventListener('change', function () { tl.classList.toggle('f-act', this.checked); });
  $('f-rej').addEventListener('change', function () { tl.classList.toggle('f-rej', this.checked); });
  $('f-seat').addEventListener('change', function () {
    if (this.value === '') tl.removeAttribute('data-seat'); else tl.setAttribute('data-seat', this.value);
  });

  /* The judge's file: whose view the board and the narration show. */
  document.querySelectorAll('.vbtn').forEach(function (b) {
    b.addEventListener('click', function () {
      view = b.getAttribute('data-view');
      document.body.setAttribute('data-view', view);
      document.querySelectorAll('.vbtn').forEach(function (x) { x.classList.toggle('on', x === b); });
      select(cur);
    });
  });

  if (/^#r-?\d+$/.test(location.hash)) {
    fromHash();
    window.addEventListener('load', function () { setTimeout(showBoard, 0); });
  } else select(-1, true); /* no fragment yet: the browser would scroll to it at load */
  window.arbViewer = {
    select: select,
    record: function () { return cur; },
    view: function () { return view; },
    state: function () { return clone(stateAt(view, cur)); },
    renderMs: performance.now() - t0,
    readyAt: performance.now()
  };
  document.body.setAttribute('data-ready', '1');
})();
