/* report.js — the judge's viewer (arbiter report), inlined into the page.
 *
 * Data: the page carries, per view, the state tree after setup and one
 * list of differences per record (set [path, value], delete [path], splice
 * an array [path, 0, start, count, [items]]); the state at record N is the
 * setup state with the differences 0..N applied, from a keyframe kept every
 * K records. D.lg holds, per decision, the legal actions (indexes into
 * D.lgs; 1 = as before, 0 = not shown), D.rules the rulebook citation of
 * each rule ID the page names, D.ar per record the rules that govern its
 * action (0 none, else 1 + an index into D.ars, lists "ID ID …": the
 * layout's "rules" map, chosen by src/analyze/an_report.c).
 *
 * The board: the game's layout (D.board, src/games/<id>/board.json) names
 * zones by state-tree path and says how to draw each; this file knows no
 * game. Widgets ("w"): group (a box of items), meter (a value against
 * marked thresholds), count, text, flag, cards (a list of card objects as
 * tiles; fields [key, label, offset, "nonzero"], flags shown when true,
 * ports (a list of booleans), links drawn as lines), pile (a hand,
 * deck or discard: the cards when the view holds them and "open", else the
 * count; "top" shows only the top card), slot (one card or empty; an
 * empty label draws no heading, for a slot in a group that names it),
 * grid (positions in rows, each a card or empty), pending (a map shown
 * while it is not null). "shared" widgets read paths under state, "seat" widgets
 * under state.players.N. Every drawn zone carries data-zone="<path>" with
 * data-v (a value), data-n (how many cards) or data-card (which card). The
 * whole tree, deck lists and engine internals are in the folded details
 * part (data-p/data-v). The board is a set of blocks; a step rebuilds each
 * block's text and touches the DOM only for blocks whose text changed. */
(function () {
  'use strict';
  var t0 = performance.now();
  var D = JSON.parse(document.getElementById('arb-data').textContent);
  var L = D.board || { shared: [], seat: [] };
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
  function get(o, rel) {
    var ps = rel.split('.');
    for (var i = 0; i < ps.length; i++) {
      if (o === null || typeof o !== 'object') return undefined;
      o = o[ps[i]];
    }
    return o;
  }

  /* What the selected record changed: subtrees set, deleted or inserted
   * (deep) and zones that lost cards (exact). An element is outlined when
   * it is such a path or under one; a tile or a value also when the change
   * is inside it. */
  var C = { deep: [], exact: [] };
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
  function chg(p, tileish) {
    if (C.exact.indexOf(p) >= 0) return ' chg';
    for (var i = 0; i < C.deep.length; i++) {
      var q = C.deep[i];
      if (p === q || p.indexOf(q + '.') === 0 || (tileish && q.indexOf(p + '.') === 0)) return ' chg';
    }
    return '';
  }
  function Z(path) { return ' data-zone="' + esc(path) + '"'; }

  /* ---------------------------------------------- the whole tree (details) */
  function leaf(key, v, path, cls) {
    return '<span class="' + (cls || 'chip') + (cls && falsy(v) && key !== 'uid' ? ' z' : '') + chg(path, true) +
      '" data-p="' + esc(path) + '" data-v="' + esc(txt(v)) + '">' +
      (key === null ? '' : '<span class="k">' + esc(key) + '</span> ') + esc(txt(v)) + '</span>';
  }
  function list(key, arr, path, cls) {
    var ids = arr.length > 8 && arr.every(function (x) { return typeof x === 'string'; });
    var items = arr.map(function (x, i) {
      var p = path + '.' + i;
      if (x !== null && typeof x === 'object') return '<span data-p="' + esc(p) + '">' + esc(JSON.stringify(x)) + '</span>';
      return '<span class="' + chg(p, true) + '" data-p="' + esc(p) + '" data-v="' + esc(txt(x)) + '"' +
        (ids ? ' title="' + esc(cardTitle(x)) + '">' + i + ':' + esc(cardName(x)) : '>' + esc(txt(x))) + '</span>';
    });
    if (ids) return '<details class="uids" data-p="' + esc(path) + '"><summary>' + esc(key) + ' (' + arr.length +
      ', by uid)</summary>' + items.join(' ') + '</details>';
    return '<span class="' + (cls || 'chip') + chg(path, false) + '" data-p="' + esc(path) + '"><span class="k">' +
      esc(key) + '</span> [' + items.join(', ') + ']</span>';
  }
  function dumpTile(label, x, path) {
    var id = cardId(x), h = '<div class="card' + chg(path, true) + '" data-p="' + esc(path) + '"' +
      (id ? ' data-c="' + esc(id) + '" tabindex="0" title="' + esc(cardTitle(id)) + '"' : '') + '>';
    if (label !== null) h += '<span class="pos">' + esc(label) + '</span>';
    h += '<span class="nm">' + (id ? esc(cardName(id)) : x.face_down ? 'face down' : '\u00b7') + '</span>';
    for (var k in x) {
      var v = x[k], p = path + '.' + k;
      if (v !== null && typeof v === 'object') h += Array.isArray(v) ? list(k, v, p, 'f') : '<span class="f" data-p="' + esc(p) + '">' + esc(k) + ' ' + esc(JSON.stringify(v)) + '</span>';
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
  function dumpZone(key, v, path) {
    var keys = Object.keys(v), h = '<div class="zone' + chg(path, false) + '" data-p="' + esc(path) + '"><div class="zh">' +
      esc(key) + ' (' + keys.length + ')</div><div class="tiles">';
    if (!keys.length) h += '<span class="empty">empty</span>';
    keys.forEach(function (k) { h += dumpTile(Array.isArray(v) ? null : k, v[k], path + '.' + k); });
    return h + '</div></div>';
  }
  function dump(o, path, skip) {
    var chips = '', rest = '';
    Object.keys(o).forEach(function (k) {
      if (skip && skip[k]) return;
      var v = o[k], p = path ? path + '.' + k : k, kd = kindOf(v);
      if (kd === 'leaf') chips += leaf(k, v, p);
      else if (kd === 'list') chips += list(k, v, p);
      else if (kd === 'slot') rest += '<div class="zone" data-p="' + esc(p) + '"><div class="zh">' + esc(k) + '</div><div class="tiles">' + dumpTile(null, v, p) + '</div></div>';
      else if (kd === 'zone') rest += dumpZone(k, v, p);
      else rest += '<div class="sub zone" data-p="' + esc(p) + '"><div class="zh">' + esc(k) + '</div>' + dump(v, p) + '</div>';
    });
    return (chips ? '<div>' + chips + '</div>' : '') + rest;
  }

  function details(w) {
    var s = w.state || {}, h = dump(w, '', { state: 1 }) + '<div class="sub">' + dump(s, 'state', { players: 1 }) + '</div>';
    (s.players || []).forEach(function (p, i) {
      h += '<div class="sub zone" data-p="state.players.' + i + '"><div class="zh">players.' + i + ' (P' + (i + 1) + ')</div>' + dump(p, 'state.players.' + i) + '</div>';
    });
    return h;
  }

  /* ----------------------------------------------------- the layout's widgets */
  function card(x, path, o, label) {
    var id = cardId(x), fd = x.face_down === true;
    var h = '<div class="card' + (fd ? ' fd' : '') + chg(path, true) + '"' + Z(path) + ' data-card="' + esc(id || '') + '"' +
      (typeof x.uid === 'number' ? ' data-uid="' + x.uid + '"' : '') +
      (id ? ' data-c="' + esc(id) + '" tabindex="0" title="' + esc(cardTitle(id)) + '"' : '') + '>';
    if (label) h += '<span class="pos">' + esc(label) + '</span>';
    h += '<span class="nm">' + (id ? esc(cardName(id)) : fd ? 'face down' : 'card') + (id && fd ? ' (face down)' : '') + '</span>';
    (o.fields || []).forEach(function (f) {
      if (!(f[0] in x) || x[f[0]] === null || typeof x[f[0]] === 'object' || (f[3] === 'nonzero' && !x[f[0]])) return;
      var v = x[f[0]], shown = typeof v === 'number' && f[2] ? v + f[2] : v;
      if (f[0] === 'owner' || f[1] === 'P') shown = 'P' + (v + 1);
      h += '<span class="f"' + Z(path + '.' + f[0]) + ' data-v="' + esc(txt(v)) + '">' +
        (f[1] && f[1] !== 'P' && f[0] !== 'owner' ? esc(f[1]) + ' ' : '') + esc(txt(shown)) + '</span>';
    });
    (o.flags || []).forEach(function (k) {
      if (x[k] === true) h += '<span class="fl"' + Z(path + '.' + k) + ' data-v="true">' + esc(k.replace(/_/g, ' ')) + '</span>';
    });
    if (o.ports && Array.isArray(x[o.ports[0]])) {
      h += '<span class="ports">';
      x[o.ports[0]].forEach(function (u, i) {
        h += '<span class="port' + (u ? ' on' : '') + '"' + Z(path + '.' + o.ports[0] + '.' + i) + ' data-v="' + esc(txt(u)) +
          '" title="' + o.ports[1] + (i + 1) + (u ? ' used' : ' free') + '">' + o.ports[1] + (i + 1) + (u ? '\u2713' : '') + '</span>';
      });
      h += '</span>';
    }
    return h + '</div>';
  }
  function backs(n, label) {
    var h = '';
    for (var i = 0; i < Math.min(n, 6); i++) h += '<span class="card back" aria-hidden="true"></span>';
    return h + '<span class="cnt">' + n + ' ' + esc(label) + '</span>';
  }
  function zoneBox(o, path, inner, n, extra) {
    return '<div class="w zone' + (o.full ? ' full' : '') + chg(path, false) + '"' + Z(path) + ' data-n="' + n + '"' + (extra || '') +
      '><div class="zh">' + esc(o.label) + ' (' + n + ')</div><div class="tiles">' + inner + '</div></div>';
  }
  function links(o, base, p) {
    var lk = get(p, o.links.zone);
    if (!Array.isArray(lk)) return '';
    var named = {}, on = get(p, o.zone);
    (Array.isArray(on) ? on : []).forEach(function (x) { if (cardId(x)) named[x.uid] = cardName(cardId(x)); });
    var nm = function (u) { return (named[u] ? esc(named[u]) + ' ' : '') + '(uid ' + u + ')'; };
    var path = base + '.' + o.links.zone, items = lk.map(function (l) {
      return '<li data-from="' + l[o.links.from] + '" data-to="' + l[o.links.to] + '">O' + (l[o.links.out] + 1) + ' of ' +
        nm(l[o.links.from]) + ' \u2192 I' + (l[o.links['in']] + 1) + ' of ' + nm(l[o.links.to]) + '</li>';
    });
    return '<div class="links' + chg(path, false) + '"' + Z(path) + ' data-n="' + lk.length + '"><span class="zh">Links (' + lk.length +
      ')</span>' + (lk.length ? '<ul>' + items.join('') + '</ul>' : ' none') + '</div>';
  }
  var W = {
    group: function (o, base, p) {
      return '<div class="w grp' + (o.full ? ' full' : '') + '"><div class="gh">' + esc(o.label) + '</div><div class="gi">' +
        o.items.map(function (it) { return widget(it, base, p); }).join('') + '</div></div>';
    },
    meter: function (o, base, p, v) {
      if (typeof v !== 'number') return '';
      var path = base + '.' + o.zone, max = o.max || 1, pct = function (x) { return Math.max(0, Math.min(100, 100 * x / max)).toFixed(1); };
      var band = 0;
      o.marks.forEach(function (m, i) { if (v >= m[0]) band = i + 1; });
      var h = '<div class="w meter' + chg(path, true) + '"><span class="lb">' + esc(o.label) + '</span> <b' + Z(path) + ' data-v="' + esc(txt(v)) +
        '">' + esc(txt(v)) + (o.unit ? ' ' + esc(o.unit) : '') + '</b><div class="bar"><div class="fill b' + band + '" style="width:' + pct(v) + '%"></div>';
      o.marks.forEach(function (m) { h += '<span class="mk" style="left:' + pct(m[0]) + '%" title="' + esc(m[0] + ' ' + m[1]) + '"></span>'; });
      h += '</div>';
      if (o.marks.length) h += '<div class="mks">' + o.marks.map(function (m) { return esc(m[0] + ' ' + m[1]); }).join(' \u00b7 ') + '</div>';
      return h + '</div>';
    },
    count: function (o, base, p, v) {
      if (v === undefined) return '';
      var path = base + '.' + o.zone, shown = o.seat && typeof v === 'number' ? seatName(v) : txt(v);
      return '<span class="w cnt' + chg(path, true) + '"><span class="lb">' + esc(o.label) + '</span> <b' + Z(path) + ' data-v="' + esc(txt(v)) +
        '">' + esc(shown) + '</b>' + (o.of ? ' / ' + o.of : '') + '</span>';
    },
    flag: function (o, base, p, v) {
      if (v === undefined) return '';
      var path = base + '.' + o.zone;
      return '<span class="w flag ' + (v ? 'on' : 'off') + chg(path, true) + '"' + Z(path) + ' data-v="' + esc(txt(v)) + '">' +
        (v ? esc(o.label) : o.off ? esc(o.off) : esc(o.label) + ': no') + '</span>';
    },
    cards: function (o, base, p, v) {
      if (!Array.isArray(v)) return '';
      var path = base + '.' + o.zone, inner = v.length ? v.map(function (x, i) { return card(x, path + '.' + i, o); }).join('') :
        '<span class="empty">empty</span>';
      return zoneBox(o, path, inner, v.length, o.links ? ' data-linked="1"' : '') + (o.links ? links(o, base, p) : '');
    },
    pile: function (o, base, p, v) {
      var path = base + '.' + o.zone, n = Array.isArray(v) ? v.length : o.count ? get(p, o.count) : undefined;
      if (n === undefined) return '';
      if (!Array.isArray(v)) {
        var cp = base + '.' + o.count;
        return '<div class="w zone' + chg(cp, true) + '"' + Z(cp) + ' data-v="' + n + '"><div class="zh">' + esc(o.label) +
          ' (' + n + ', hidden)</div><div class="tiles">' + backs(n, 'face down') + '</div></div>';
      }
      var inner;
      if (!v.length) inner = '<span class="empty">empty</span>';
      else if (o.top) inner = card(v[v.length - 1], path + '.' + (v.length - 1), o, 'top') + '<span class="cnt">' + v.length + ' in the pile</span>';
      else if (o.open) inner = v.map(function (x, i) { return card(x, path + '.' + i, o); }).join('');
      else inner = backs(v.length, 'cards (the list is in the details)');
      return zoneBox(o, path, inner, v.length);
    },
    slot: function (o, base, p, v) {
      if (v === undefined) return '';
      var path = base + '.' + o.zone;
      return '<div class="w zone slot' + chg(path, false) + '">' + (o.label ? '<div class="zh">' + esc(o.label) + '</div>' : '') + '<div class="tiles">' +
        (isObj(v) ? card(v, path, o) : '<div class="card none"' + Z(path) + ' data-card="">empty</div>') + '</div></div>';
    },
    grid: function (o, base, p, v) {
      if (!isObj(v)) return '';
      var path = base + '.' + o.zone, h = '';
      o.rows.forEach(function (row) {
        h += '<div class="grow">';
        row.forEach(function (pos) {
          h += isObj(v[pos]) ? card(v[pos], path + '.' + pos, o, pos) :
            '<div class="card cell' + chg(path + '.' + pos, true) + '"' + Z(path + '.' + pos) + ' data-card=""><span class="pos">' + esc(pos) + '</span><span class="empty">empty</span></div>';
        });
        h += '</div>';
      });
      return '<div class="w zone grid' + (o.full ? ' full' : '') + '"' + Z(path) + ' data-n="' + Object.keys(v).length + '"><div class="zh">' +
        esc(o.label) + '</div>' + h + '</div>';
    },
    pending: function (o, base, p, v) {
      if (!isObj(v)) return '';
      var path = base + '.' + o.zone, h = '';
      Object.keys(v).forEach(function (k) {
        var x = v[k], q = path + '.' + k;
        if (isObj(x) && cardId(x)) h += card(x, q, {}, k);
        else if (x === null || typeof x !== 'object') h += '<span class="chip' + chg(q, true) + '"' + Z(q) + ' data-v="' + esc(txt(x)) + '"><span class="k">' + esc(k) + '</span> ' + esc(txt(x)) + '</span>';
        else h += '<span class="chip"><span class="k">' + esc(k) + '</span> ' + esc(JSON.stringify(x)) + '</span>';
      });
      return '<div class="w pend full"' + Z(path) + '><span class="gh">' + esc(o.label) + '</span> ' + h + '</div>';
    }
  };
  function widget(o, base, p) {
    var f = W[o.w];
    return f ? f(o, base, p, o.zone ? get(p, o.zone) : undefined) : '';
  }

  /* ------------------------------------------------------------ the blocks */
  var blocks = {}, skelView = null;
  function put(key, html, after) {
    var b = blocks[key];
    if (!b || b.html === html) return;
    b.el.innerHTML = html;
    b.html = html;
    if (after) after(b.el);
  }
  function skeleton(w) {
    var players = (w.state && w.state.players) || [], h = '<h2 class="vh">Board</h2><div id="b-top" class="status" aria-label="whose decision"></div>' +
      '<div class="shared wz">';
    L.shared.forEach(function (o, i) { h += '<div class="blk" id="b-s' + i + '"></div>'; });
    h += '</div>';
    players.forEach(function (pl, n) {
      h += '<section class="pl seat' + n + '" id="pl' + n + '"' + Z('state.players.' + n) + ' aria-labelledby="b-h' + n + '"><h3 id="b-h' + n + '"></h3><div class="wz">';
      L.seat.forEach(function (o, i) { h += '<div class="blk' + (o.full ? ' full' : '') + '" id="b-p' + n + '-' + i + '"></div>'; });
      h += '</div></section>';
    });
    h += '<section id="b-rul" class="ruling" aria-label="ruling at the selected record"></section><details id="det"' + (D.board ? '' : ' open') + '><summary>Details: the whole state tree (deck lists, engine internals)</summary><div id="b-det"></div></details>' +
      '<div id="inspect" class="inspect" aria-live="polite"></div>';
    var b = $('board');
    b.innerHTML = h;
    blocks = {};
    b.querySelectorAll('[id^="b-"]').forEach(function (el) { blocks[el.id.slice(2)] = { el: el, html: null }; });
    $('det').addEventListener('toggle', function () { render(cur); });
    skelView = view;
  }
  var glyph = ['\u25cf', '\u25b2', '\u25a0', '\u25c6'];
  function seatHead(w, n) {
    var dec = w.decision || {}, owes = dec.seat === n;
    $('pl' + n).classList.toggle('owes', owes);
    return '<span class="sg" aria-hidden="true">' + glyph[n % 4] + '</span> P' + (n + 1) +
      (D.names[n] && D.names[n] !== 'P' + (n + 1) ? ' \u00b7 <bdi>' + esc(D.names[n]) + '</bdi>' : '') +
      (owes ? '<span class="tag">to act: ' + esc(dec.kind || '') + '</span>' : '');
  }
  function rowTurn(r) { var tr = rows[String(r)]; return tr ? tr.cells[1].textContent : ''; }
  function rowPhase(r) { var tr = rows[String(r)]; return tr ? tr.cells[2].textContent : ''; }
  function top(w, r) {
    /* A record's turn is the one it was made in (its timeline row); the
     * state after it may already be in the next turn, said as "now". */
    var rt = r < 0 ? String(w.turn) : rowTurn(r), now = String(w.turn) !== rt;
    var dec = w.decision || {}, s = w.state || {}, h = '<b>' + (r < 0 ? 'After the setup' : 'After record #' + r) + '</b> of ' + N +
      ' \u00b7 turn <span class="rt">' + esc(rt) + '</span>' + (now ? '; now turn ' : '') + '<b' + Z('turn') + ' data-v="' + esc(txt(w.turn)) + '"' +
      (now ? '' : ' hidden') + '>' + esc(w.turn) + '</b> \u00b7 <span' + Z('phase') + ' data-v="' +
      esc(txt(w.phase)) + '">' + esc(w.phase) + '</span> \u00b7 decision: <b' + Z('decision.seat') + ' data-v="' + esc(txt(dec.seat)) + '">' +
      esc(seatName(dec.seat)) + '</b>' + (dec.kind ? ' (<span' + Z('decision.kind') + ' data-v="' + esc(dec.kind) + '">' + esc(dec.kind) + '</span>)' : '');
    if (D.timed) h += ' \u00b7 clock <span' + Z('clock_ms') + ' data-v="' + esc(txt(w.clock_ms)) + '">' + clock(w.clock_ms) + '</span>' +
      (dec.clock_left_ms >= 0 ? ', ' + clock(dec.clock_left_ms) + ' left' : '');
    (L.clock || []).forEach(function (c) {
      var v = get(s, c[0]);
      if (typeof v === 'number') h += ' \u00b7 ' + esc(c[1]) + ' <span' + Z('state.' + c[0]) + ' data-v="' + v + '">' + clock(v) + '</span>' + (c[2] ? ' / ' + clock(c[2]) : '');
    });
    if (w.outcome && w.outcome.over) h += ' \u00b7 <b>over: ' + esc(w.outcome.winner >= 0 ? seatName(w.outcome.winner) + ' wins' : 'draw') +
      (w.outcome.reason ? ' (' + esc(w.outcome.reason) + ')' : '') + '</b>';
    if (w.rejected) h += ' \u00b7 <span class="rule">rejected ' + esc(w.rejected.rule) + '</span>';
    if (warn) h += '<div class="warn" role="alert">' + esc(warn) + '</div>';
    return h;
  }

  /* ------------------------------------------------------ the ruling panel */
  /* A timeline cell's text as the current view reads it. */
  function cellText(td) {
    var out = '';
    td.childNodes.forEach(function (n) {
      if (n.nodeType === 3) { out += n.nodeValue; return; }
      if (n.nodeType !== 1) return;
      var cl = n.classList;
      if ((cl.contains('va') || /\bv\d\b/.test(n.className)) && !(view === 'all' ? cl.contains('va') : cl.contains('v' + view))) return;
      if (n.tagName === 'BR') { out += ' '; return; }
      if (cl.contains('hid')) return;
      out += n.textContent;
    });
    return out.replace(/\s+/g, ' ').trim();
  }
  function recRows(r) {
    var out = [], tr = rows[String(r)];
    while (tr && tr.getAttribute('data-r') === String(r)) {
      out.push(tr);
      tr = tr.nextElementSibling || (tr.parentNode.closest('.chunk') && nextChunkRow(tr));
    }
    return out;
  }
  function nextChunkRow(tr) {
    var ch = tr.closest('.chunk').nextElementSibling;
    return ch ? ch.querySelector('tr') : null;
  }
  var lgCache = [];
  function legalAt(r) {
    var i = r; /* D.lg[k] is the decision open after record k-1, which record k answers */
    if (i < 0 || i >= D.lg.length) return null;
    if (lgCache[i] !== undefined) return lgCache[i];
    var e = D.lg[i], j = i;
    while (e === 1 && j > 0) e = D.lg[--j];
    return (lgCache[i] = e === 0 || e === 1 ? null : e);
  }
  function short(v) { var s = v === undefined ? '(removed)' : JSON.stringify(v); return s.length > 70 ? s.slice(0, 67) + '\u2026' : s; }
  var citeText = '';
  function ruling(w, r) {
    if (r < 0) { citeText = ''; return '<h2>Ruling panel</h2><p class="note">The setup: select a record to see its ruling.</p>'; }
    var rr = recRows(r), main = rr[0], kind = D.rk[r];
    var what = main ? cellText(main.querySelector('td.tx')) : '';
    var h = '<h2>Record #' + r + ' \u00b7 turn ' + esc(rowTurn(r)) + ' \u00b7 ' + esc(rowPhase(r)) + '</h2><dl>';
    var res = kind === 'x' ? 'rejected' : kind === 'a' ? 'legal, applied' : main && main.classList.contains('bad') ? 'DOES NOT MATCH the engine' :
      kind === 'c' ? 'checkpoint: the hash matches' : kind === 'o' ? 'outcome: as the engine computes' : 'skipped';
    h += '<dt>Action</dt><dd>' + esc(what) + '</dd><dt>Result</dt><dd>' + esc(res) +
      (rr.length > 1 ? '<ol class="evs">' + rr.slice(1).map(function (e) { return '<li>' + esc(cellText(e.querySelector('td.tx'))) + '</li>'; }).join('') + '</ol>' : '') + '</dd>';
    var rule = w.rejected && w.rejected.rule, cite = rule && D.rules[rule];
    var gov = D.ar && D.ar[r] ? D.ars[D.ar[r] - 1].split(' ') : [];
    var citeOf = function (id) {
      var ci = D.rules[id];
      return '<span class="rule">' + esc(id) + '</span>' + (ci ? ' \u2014 ' + esc(ci[0]) + '; rulebook ' + esc(ci[1]) +
        (ci[2] ? ': ' + (/^["\u201c]/.test(ci[2]) ? esc(ci[2]) : '<q>' + esc(ci[2]) + '</q>') : ' (the quote names a card, so a seat\u2019s file leaves it out; the judge\u2019s file has it)') : ' (not in the rule catalog)');
    };
    if (rule) h += '<dt>Rejected by</dt><dd>' + citeOf(rule) + '</dd>';
    if (gov.length) h += '<dt>' + (rule ? 'The rules of this verb' : 'Rules that govern it') + '</dt><dd><ul class="gov">' +
      gov.map(function (id) { return '<li>' + citeOf(id) + '</li>'; }).join('') + '</ul></dd>';
    else if (!rule) h += '<dt>Rule</dt><dd>none (' + (kind === 'a' || kind === 'x' ? 'no rule of this verb in the layout' : 'not an action') + ')</dd>';
    var ol = ops(view, r), sh = ol.slice(0, 12).map(function (op) {
      var p = op[0].join('.');
      return '<li><code>' + esc(p) + '</code> ' + (op.length === 1 ? 'removed' : op.length === 5 ? (op[3] ? '\u2212' + op[3] : '') + (op[4].length ? ' +' + esc(short(op[4])) : '') + ' at ' + op[2] : '= ' + esc(short(op[1]))) + '</li>';
    });
    h += '<dt>State changes (' + ol.length + ')</dt><dd>' + (sh.length ? '<ul class="chs">' + sh.join('') + (ol.length > 12 ? '<li>\u2026 ' + (ol.length - 12) + ' more (outlined on the board)</li>' : '') + '</ul>' : 'none') + '</dd>';
    if (kind === 'a' || kind === 'x') {
      var lg = legalAt(r);
      if (!lg) h += '<dt>Legal at this decision</dt><dd>not in this file (another seat\u2019s decision: its choices could name its hidden cards)</dd>';
      else {
        var total = lg.length && lg[lg.length - 1] < 0 ? -lg[lg.length - 1] : lg.length, list = lg.filter(function (x) { return x >= 0; });
        h += '<dt>Legal at this decision</dt><dd><details class="legal"><summary>' + total + ' legal action' + (total === 1 ? '' : 's') +
          (total > list.length ? ' (the first ' + list.length + ')' : '') + '</summary><ol>' + list.map(function (k) { return '<li><code>' + esc(D.lgs[k]) + '</code></li>'; }).join('') + '</ol></details></dd>';
      }
    }
    h += '</dl>';
    citeText = location.href.replace(/#.*$/, '') + '#r' + r + ' \u2014 record #' + r + ', turn ' + rowTurn(r) + ', ' + rowPhase(r) + ': ' + what +
      ' \u2014 ' + res + (rule ? ' (' + rule + (cite ? ', ' + cite[0] : '') + ')' : gov.length ? ' (' + gov.join(', ') + ')' : '') + '.';
    h += '<div class="cite"><button type="button" id="copycite">Copy citation</button> <input id="citetext" readonly aria-label="citation" value="' + esc(citeText) + '"></div>';
    return h;
  }

  /* ---------------------------------------------------------- the board */
  function render(r) {
    var w = stateAt(view, r), s = w.state || {};
    if (skelView !== view) skeleton(w);
    C = changed(r);
    put('top', top(w, r));
    put('rul', ruling(w, r));
    L.shared.forEach(function (o, i) { put('s' + i, widget(o, 'state', s)); });
    (s.players || []).forEach(function (p, n) {
      put('h' + n, seatHead(w, n));
      L.seat.forEach(function (o, i) { put('p' + n + '-' + i, widget(o, 'state.players.' + n, p), o.links ? drawLinks : null); });
    });
    put('det', $('det').open ? details(w) : '');
    return w;
  }
  /* Links as lines from the Output side of one tile to the Input side of
   * the other, over the zone's tiles. */
  function drawLinks(el) {
    var box = el.querySelector('.tiles'), lk = el.querySelectorAll('.links li');
    if (!box) return;
    var old = box.querySelector('svg');
    if (old) old.remove();
    if (!lk.length) return;
    var bb = box.getBoundingClientRect(), h = '';
    lk.forEach(function (li) {
      var a = box.querySelector('[data-uid="' + li.getAttribute('data-from') + '"]'), b = box.querySelector('[data-uid="' + li.getAttribute('data-to') + '"]');
      if (!a || !b) return;
      var ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      h += '<line x1="' + (ra.right - bb.left - 4) + '" y1="' + (ra.top + ra.height / 2 - bb.top) + '" x2="' + (rb.left - bb.left + 4) +
        '" y2="' + (rb.top + rb.height / 2 - bb.top) + '"/>';
    });
    /* (the HTML parser puts an inline svg element in the SVG namespace) */
    box.insertAdjacentHTML('afterbegin', '<svg class="lk" aria-hidden="true" width="' + bb.width + '" height="' + bb.height + '">' + h + '</svg>');
  }

  var rows = {}, rowList = [];
  document.querySelectorAll('#tl tr').forEach(function (tr) {
    var r = tr.getAttribute('data-r');
    if (!(r in rows)) { rows[r] = tr; rowList.push(tr); }
  });
  var curRow = null, warn = '';
  var charts = [].map.call(document.querySelectorAll('#charts svg'), function (svg) {
    return { line: svg.querySelector('.curx'), pts: [].map.call(svg.querySelectorAll('a[data-r]'), function (a) {
      return [parseInt(a.getAttribute('data-r'), 10), a.getAttribute('data-x')];
    }) };
  });
  function chartMarks(r) {
    charts.forEach(function (c) {
      if (!c.line || !c.pts.length) return;
      var x = c.pts[0][1];
      for (var i = 0; i < c.pts.length && c.pts[i][0] <= r; i++) x = c.pts[i][1];
      c.line.setAttribute('x1', x); c.line.setAttribute('x2', x);
    });
  }

  function select(r, fromHash) {
    r = Math.max(-1, Math.min(N - 1, r | 0));
    if (!fromHash) warn = '';
    var w = render(r);
    cur = r;
    $('slider').value = r;
    var label = (r < 0 ? 'setup' : 'record #' + r + ' \u00b7 turn ' + rowTurn(r) + ' \u00b7 ' + rowPhase(r));
    $('pos').textContent = label;
    $('slider').setAttribute('aria-valuetext', label);
    $('live').textContent = (warn ? warn + ' ' : '') + label + ' \u00b7 decision: ' + seatName((w.decision || {}).seat);
    if (curRow) curRow.classList.remove('cur');
    curRow = rows[String(r)] || null;
    if (curRow) {
      curRow.classList.add('cur');
      rowIntoView(fromHash);
    }
    var ta = document.querySelector('#turns a.cur');
    if (ta) ta.classList.remove('cur');
    ta = document.querySelector('#turns a[data-t="' + (r < 0 ? '' : rowTurn(r)) + '"]');
    if (ta) ta.classList.add('cur');
    chartMarks(r);
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
    var c = $('controls'), b = $('vbadge'), over = getComputedStyle(c).position === 'sticky' ? c.offsetHeight :
      b && getComputedStyle(b).position === 'fixed' ? b.offsetHeight : 0;
    window.scrollTo(0, Math.max(0, $('work').offsetTop - over - 4));
    rowIntoView(true);
  }
  /* #r<INDEX> outside the match selects the nearest record and says so. */
  function fromHash() {
    var m = /^#r(-?\d+)$/.exec(location.hash);
    if (!m) return;
    var r = parseInt(m[1], 10);
    warn = r < -1 || r > N - 1 ? '#r' + m[1] + ' is not a record of this match (it has the setup, #r-1, and records #r0 to #r' +
      (N - 1) + '): showing record #' + Math.max(-1, Math.min(N - 1, r)) + ' instead.' : '';
    select(r, true);
    setTimeout(showBoard, 0);
  }

  /* Turn list: the first record whose row is labelled with each turn. */
  var firstOf = {}, th = '';
  rowList.forEach(function (tr) {
    var r = parseInt(tr.getAttribute('data-r'), 10), t = tr.cells[1].textContent;
    if (r >= 0 && !(t in firstOf)) firstOf[t] = r;
  });
  Object.keys(firstOf).sort(function (a, b) { return a - b; }).forEach(function (t) {
    th += '<a href="#r' + firstOf[t] + '" data-t="' + t + '" title="turn ' + t + ' starts at record #' + firstOf[t] + '">' + t + '</a>';
  });
  $('turns').innerHTML = 'Turns: ' + th;

  /* Records to step to: rejections and divergences; each seat's actions. */
  var marked = [], seatRec = {};
  rowList.forEach(function (tr) {
    var r = parseInt(tr.getAttribute('data-r'), 10);
    if (r < 0) return;
    if (tr.classList.contains('rej') || tr.classList.contains('bad')) marked.push(r);
    var m = /\bs(-?\d+)\b/.exec(tr.className);
    if (m && tr.classList.contains('act')) (seatRec[m[1]] = seatRec[m[1]] || []).push(r);
  });
  function after(list, r, dir) {
    if (dir > 0) { for (var i = 0; i < list.length; i++) if (list[i] > r) return list[i]; }
    else for (var j = list.length - 1; j >= 0; j--) if (list[j] < r) return list[j];
    return null;
  }
  function go(r, none) {
    if (r === null) { $('live').textContent = none; return; }
    select(r);
  }

  $('slider').min = -1;
  $('slider').max = N - 1;
  $('slider').addEventListener('input', function () { select(parseInt(this.value, 10)); });
  $('prev').addEventListener('click', function () { select(cur - 1); });
  $('next').addEventListener('click', function () { select(cur + 1); });
  $('prej').addEventListener('click', function () { go(after(marked, cur, -1), 'No rejection or divergence before this record.'); });
  $('nrej').addEventListener('click', function () { go(after(marked, cur, 1), 'No rejection or divergence after this record.'); });
  $('ndec').addEventListener('click', function () {
    var s = $('dseat').value;
    go(after(seatRec[s] || [], cur, 1), 'No later decision of ' + seatName(parseInt(s, 10)) + '.');
  });
  $('find').addEventListener('submit', function (e) {
    e.preventDefault();
    var q = $('q').value.toLowerCase().trim();
    if (!q) return;
    var all = document.querySelectorAll('#tl tr'), hits = [];
    all.forEach(function (tr) {
      var r = parseInt(tr.getAttribute('data-r'), 10);
      if (hits[hits.length - 1] !== r && tr.textContent.toLowerCase().indexOf(q) >= 0) hits.push(r);
    });
    var r = after(hits, cur, 1);
    if (r === null && hits.length) r = hits[0];
    if (r === null) { $('live').textContent = 'No record matches \u201c' + q + '\u201d.'; return; }
    select(r);
    $('live').textContent = '\u201c' + q + '\u201d: record #' + r + ' (' + (hits.indexOf(r) + 1) + ' of ' + hits.length + ' matching records).';
  });
  $('jump').addEventListener('submit', function (e) {
    e.preventDefault();
    var t = parseInt($('jt').value, 10), best = null;
    Object.keys(firstOf).forEach(function (k) { if (+k >= t && (best === null || +k < best)) best = +k; });
    select(best === null ? N - 1 : firstOf[best]);
  });
  var timer = null;
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    $('play').setAttribute('aria-pressed', 'false');
    $('play').textContent = 'autoplay';
  }
  function play() {
    stop();
    if (cur >= N - 1) select(-1);
    $('play').setAttribute('aria-pressed', 'true');
    $('play').textContent = 'pause';
    timer = setInterval(function () { if (cur >= N - 1) stop(); else select(cur + 1); }, 1000 / parseFloat($('speed').value));
  }
  $('play').addEventListener('click', function () { if (timer) stop(); else play(); });
  $('speed').addEventListener('change', function () { if (timer) play(); });
  document.addEventListener('keydown', function (e) {
    if (e.target && (e.target.tagName === 'INPUT' && e.target.type !== 'range' || e.target.tagName === 'SELECT')) return;
    if (e.target && e.target.hasAttribute && e.target.hasAttribute('data-c') && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      inspect(e.target);
      return;
    }
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

  /* Card text by keyboard, touch or mouse: a card tile is focusable, and
   * focusing or tapping it shows its text below the board. */
  function inspect(el) {
    var id = el.getAttribute('data-c'), c = D.cards[id];
    $('inspect').innerHTML = c ? '<b>' + esc(c[0]) + '</b>' + (c[1] ? ' \u2014 ' + esc(c[1]) : '') + (c[2] ? ' (' + esc(c[2]) + ')' : '') +
      (c[3] ? '<br>' + esc(c[3]) : '') : esc(id);
  }
  $('board').addEventListener('click', function (e) {
    var el = e.target.closest('[data-c]');
    if (el) inspect(el);
    if (e.target.id === 'copycite') {
      var t = $('citetext');
      t.select();
      var done = function () { $('live').textContent = 'Citation copied: ' + citeText; };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(citeText).then(done, function () { try { document.execCommand('copy'); } catch (x) { /* selected */ } done(); });
      else { try { document.execCommand('copy'); } catch (x) { /* the text stays selected */ } done(); }
    }
  });
  $('board').addEventListener('focusin', function (e) { if (e.target.hasAttribute('data-c')) inspect(e.target); });
  window.addEventListener('resize', function () { document.querySelectorAll('#board .links').forEach(function (l) { drawLinks(l.parentNode); }); });

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
      document.querySelectorAll('.vbtn').forEach(function (x) {
        x.classList.toggle('on', x === b);
        x.setAttribute('aria-pressed', x === b ? 'true' : 'false');
      });
      select(cur);
    });
  });

  /* The verdict's word stays in sight, in the sticky controls. */
  var vd = $('verdict'), vb = $('vbadge');
  if (vd && vb) {
    vb.textContent = vd.querySelector('.vword').textContent;
    vb.className = vd.className;
  }

  if (/^#r-?\d+$/.test(location.hash)) {
    fromHash();
    window.addEventListener('load', function () { setTimeout(showBoard, 0); });
  } else select(-1, true); /* no fragment yet: the browser would scroll to it at load */
  window.arbViewer = {
    select: select,
    record: function () { return cur; },
    view: function () { return view; },
    state: function () { return clone(stateAt(view, cur)); },
    citation: function () { return citeText; },
    renderMs: performance.now() - t0,
    readyAt: performance.now()
  };
  document.body.setAttribute('data-ready', '1');
})();
