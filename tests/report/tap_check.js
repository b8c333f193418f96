// tap_check.js — parse a TAP file with npm tap-parser (the parser node-tap
// and many CI plugins use) and print one JSON line: the counts, whether the
// stream parsed cleanly (no non-TAP lines, no parse errors, a plan that
// matches), and the names of the failing points. Exit 0 when it parsed
// cleanly, whatever the results; 1 otherwise. Used by check_reports.sh.
'use strict';
const fs = require('fs');
const { Parser } = require('tap-parser');

const text = fs.readFileSync(process.argv[2], 'utf8');
const extra = [];
const failed = [];
let version = null;
const p = new Parser({ strict: true }, (r) => {
  const parseErrors = (r.failures || []).filter((f) => f.tapError);
  const clean = extra.length === 0 && parseErrors.length === 0 && r.plan && r.plan.end === r.count && !r.bailout;
  console.log(JSON.stringify({
    clean, version, ok: r.ok, count: r.count, pass: r.pass, fail: r.fail, todo: r.todo, skip: r.skip,
    planEnd: r.plan ? r.plan.end : null, extra: extra.slice(0, 5),
    parseErrors: parseErrors.slice(0, 5).map((f) => f.tapError), failed,
  }));
  process.exitCode = clean ? 0 : 1;
});
p.on('version', (v) => { version = v; });
p.on('extra', (line) => { extra.push(line); });
p.on('assert', (a) => {
  if (!a.ok && !a.todo) failed.push({ name: a.name, diag: a.diag || null });
});
p.end(text);
