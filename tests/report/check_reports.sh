#!/bin/sh
# check_reports.sh — what CI systems read from `arbiter conform`, read by the
# tools CI systems use: Debian's `prove` (Test::Harness) and npm tap-parser
# on the TAP, xmllint against the Jenkins JUnit XSD (tests/report/
# jenkins-junit.xsd, see README.md here) on the JUnit, JSON.parse on the
# JSON — each written to stdout with '-', which must then carry the report
# alone. Once for the real suite (all pass), once for a copy with a
# schema-invalid case file (conformance/catalyst/deck.xml, the only cases of
# CAT-DECK-*, which become uncovered) and a wrong rule ID in one case: every
# one of those must be a failing entry in all three reports. Also the CLI's
# option forms (--game=ID, -jN) and --save-failing creating its directory.
# Run by `make check-reports` (part of `make check`); $ARBITER is the CLI.
set -eu

ARBITER=${ARBITER:-build/arbiter}
here=$(cd "$(dirname "$0")" && pwd)
XSD="$here/jenkins-junit.xsd"
[ -f "$here/node_modules/tap-parser/package.json" ] || {
    echo "check_reports: tap-parser is not installed: run 'make report-deps'" >&2; exit 1; }
for t in prove xmllint node; do
    command -v $t >/dev/null 2>&1 || { echo "check_reports: $t not found (make deps)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
pass=0
ok() { echo "ok   - $*"; pass=$((pass + 1)); }
bad() { echo "FAIL - $*"; fail=$((fail + 1)); }

# run NAME EXPECTED-EXIT ARGS...: stdout to $work/NAME.out, stderr to .err
run() {
    name=$1 want=$2
    shift 2
    rc=0
    "$ARBITER" conform "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
    [ "$rc" -eq "$want" ] && ok "$name: exit $rc" || { bad "$name: exit $rc, expected $want"; tail -3 "$work/$name.err"; }
    grep -q '^conform: [0-9]* cases' "$work/$name.err" && ok "$name: the summary goes to stderr" \
        || bad "$name: no summary on stderr"
}

# JUnit: the Jenkins XSD, as written.
junit_valid() {
    if xmllint --noout --schema "$XSD" "$1" 2>"$1.xmllint"; then ok "$2: JUnit validates against the Jenkins XSD"
    else bad "$2: JUnit invalid: $(head -3 "$1.xmllint")"; fi
}

xcount() { xmllint --xpath "$2" "$1" 2>/dev/null || echo "?"; }

# JSON facts through node's strict JSON.parse.
json() { node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const f = new Function("d", "return (" + process.argv[2] + ")");
console.log(String(f(d)));' "$1" "$2"; }

tapc() { node "$here/tap_check.js" "$1"; }
jfield() { node -e 'const o = JSON.parse(process.argv[1]); console.log(String(o[process.argv[2]]));' "$1" "$2"; }

# ---- a passing run --------------------------------------------------------
run pass-tap 0 --tap -
run pass-junit 0 -j4 --junit -
run pass-json 0 -j2 --json-file -
out=$(prove -e cat "$work/pass-tap.out" 2>&1 || true)
echo "$out" | grep -q '^Result: PASS' && ok "pass: prove says PASS" || bad "pass: prove: $(echo "$out" | tail -3)"
echo "$out" | grep -q 'Parse errors' && bad "pass: prove reports parse errors" || ok "pass: prove: no parse errors"
r=$(tapc "$work/pass-tap.out") && ok "pass: tap-parser parses it cleanly" || bad "pass: tap-parser: $r"
[ "$(jfield "$r" ok)" = true ] && [ "$(jfield "$r" fail)" = 0 ] && ok "pass: tap-parser: all ok" \
    || bad "pass: tap-parser: $r"
junit_valid "$work/pass-junit.out" pass
[ "$(xcount "$work/pass-junit.out" 'count(//testcase[failure or error])')" = 0 ] && ok "pass: JUnit has no failure" \
    || bad "pass: JUnit failures"
[ "$(json "$work/pass-json.out" 'd.summary.failures === 0 && d.problems.length === 0 && d.results.length > 300')" = true ] \
    && ok "pass: JSON parses, no failure" || bad "pass: JSON"
cases=$(json "$work/pass-json.out" 'd.results.length')
[ "$(jfield "$r" count)" = "$cases" ] && ok "pass: TAP and JSON agree on $cases cases" || bad "pass: TAP/JSON count"

# ---- a failing run: an invalid case file, uncovered rules, a wrong rule ---
cp -R conformance "$work/suite"
sed -i '0,/<deck-case /s//<bogus\/>\n  <deck-case /' "$work/suite/catalyst/deck.xml"
sed -i '12s/rule="NAR-LIMIT-ROSTER"/rule="NAR-LIMIT-SITE"/' "$work/suite/naramo/limits.xml"
grep -q 'NAR-LIMIT-SITE' "$work/suite/naramo/limits.xml" || bad "could not plant the wrong rule ID"
run fail-tap 1 "$work/suite" --tap -
run fail-junit 1 "$work/suite" --junit=- --save-failing "$work/saved/deep"
run fail-json 1 "$work/suite" --json-file -
nfail=$(json "$work/fail-json.out" 'd.summary.failures')
[ "$(json "$work/fail-json.out" 'd.problems.some(p => p.kind === "file" && /catalyst\/deck\.xml$/.test(p.file) && p.line > 0)')" = true ] \
    && ok "fail: JSON lists the invalid file as a failing entry" || bad "fail: JSON: no file problem"
[ "$(json "$work/fail-json.out" '["CAT-DECK-SIZE","CAT-DECK-COPIES","CAT-DECK-CATALYST","CAT-DECK-POOL"].every(id => d.problems.some(p => p.kind === "coverage" && p.name === id && p.status === "UNCOVERED"))')" = true ] \
    && ok "fail: JSON lists the uncovered rules as failing entries" || bad "fail: JSON: uncovered entries missing"
[ "$(json "$work/fail-json.out" 'd.results.some(r => r.id === "limit-roster-7" && r.status === "WRONG-RULE" && r.line > r.case_line && !/^line /.test(r.message))')" = true ] \
    && ok "fail: JSON: the wrong rule at the element's line" || bad "fail: JSON: WRONG-RULE result"

out=$(prove -e cat "$work/fail-tap.out" 2>&1 || true)
echo "$out" | grep -q '^Result: FAIL' && ok "fail: prove says FAIL" || bad "fail: prove: $(echo "$out" | tail -3)"
echo "$out" | grep -q 'Parse errors' && bad "fail: prove reports parse errors: $(echo "$out" | grep -A2 'Parse errors')" \
    || ok "fail: prove: no parse errors"
echo "$out" | grep -Eq "Failed $nfail/[0-9]+ subtests" && ok "fail: prove counts $nfail failures" \
    || bad "fail: prove: expected $nfail failed subtests: $(echo "$out" | grep -i failed | head -2)"
r=$(tapc "$work/fail-tap.out") && ok "fail: tap-parser parses it cleanly" || bad "fail: tap-parser: $r"
[ "$(jfield "$r" fail)" = "$nfail" ] && ok "fail: tap-parser counts $nfail failures" || bad "fail: tap-parser: $r"
echo "$r" | grep -q 'file problem: [^"]*catalyst/deck.xml' && ok "fail: TAP has the invalid file" || bad "fail: TAP: no file problem"
echo "$r" | grep -q 'catalyst/coverage/CAT-DECK-SIZE' && ok "fail: TAP has the uncovered rule" || bad "fail: TAP: no uncovered rule"

junit_valid "$work/fail-junit.out" fail
x="$work/fail-junit.out"
[ "$(xcount "$x" 'count(//testcase[failure or error])')" = "$nfail" ] && ok "fail: JUnit has $nfail failing testcases" \
    || bad "fail: JUnit: $(xcount "$x" 'count(//testcase[failure or error])') failing, expected $nfail"
[ "$(xcount "$x" 'count(//testcase[@classname="catalyst.files" and error and starts-with(substring-after(error, "suite/"), "catalyst/deck.xml:")])')" = 1 ] \
    && ok "fail: JUnit has the invalid file" || bad "fail: JUnit: no file problem"
[ "$(xcount "$x" 'count(//testcase[@classname="catalyst.coverage" and @name="CAT-DECK-SIZE" and failure])')" = 1 ] \
    && ok "fail: JUnit has the uncovered rule" || bad "fail: JUnit: no uncovered rule"
tot=$(xcount "$x" 'string(/testsuites/@failures)')
err=$(xcount "$x" 'string(/testsuites/@errors)')
[ $((tot + err)) -eq "$nfail" ] && ok "fail: JUnit totals add up ($tot failures, $err errors)" || bad "fail: JUnit totals $tot + $err"
body=$(xcount "$x" 'string(//testcase[@name="limit-roster-7"]/failure)')
[ "$(echo "$body" | head -1)" = "$work/suite/naramo/limits.xml:12" ] \
    && ok "fail: JUnit locates the failure at the element's line" || bad "fail: JUnit body: $(echo "$body" | head -1)"
[ "$(echo "$body" | sed -n 2p)" = "rerun: arbiter conform --game naramo --case limit-roster-7 $work/suite" ] \
    && ok "fail: JUnit's rerun hint names the suite" || bad "fail: JUnit rerun hint: $(echo "$body" | sed -n 2p)"
msg=$(xcount "$x" 'string(//testcase[@name="limit-roster-7"]/failure/@message)')
case "$body" in *"$msg"*) bad "fail: JUnit repeats the message in the body";; *) ok "fail: JUnit body does not repeat the message";; esac
[ -s "$work/saved/deep/naramo-limit-roster-7.tcgr" ] && ok "fail: --save-failing created its directory" \
    || bad "fail: --save-failing: $(ls "$work/saved" 2>&1)"

# ---- option forms ---------------------------------------------------------
rc=0; "$ARBITER" conform --game=naramo -j4 -q >/dev/null 2>&1 || rc=$?
[ $rc -eq 0 ] && ok "--game=naramo -j4" || bad "--game=naramo -j4: exit $rc"
rc=0; "$ARBITER" conform --game=nosuchgame >/dev/null 2>&1 || rc=$?
[ $rc -eq 3 ] && ok "unknown game exits 3" || bad "unknown game: exit $rc"
rc=0; "$ARBITER" conform --tap - --json >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] && ok "two reports on stdout is a usage error" || bad "two reports on '-': exit $rc"

echo "check_reports: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
