#!/bin/sh
# report_browser.sh — open `arbiter report` output in a real browser
# (headless Chromium, Debian package `chromium`) for every registered game:
# dump the DOM and take a screenshot, and check that the charts (svg with a
# polyline per seat) and the timeline rows render, and that the page needs
# nothing from the network. Run by `make check-browser`; $ARBITER is the CLI.
set -eu

ARBITER=${ARBITER:-build/arbiter}
CHROME=${CHROMIUM:-}
if [ -z "$CHROME" ]; then
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then CHROME=$c; break; fi
    done
fi
if [ -z "$CHROME" ]; then
    echo "report_browser: no chromium found (apt-get install -y chromium)" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
ok() { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

chrome() {
    timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$work")" "$@" 2>"$work/chrome.err"
}

games=$("$ARBITER" games --json | tr ',' '\n' | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
[ -n "$games" ] || { bad "no game is registered"; exit 1; }

for g in $games; do
    rep="$work/$g.tcgr"
    html="$work/$g.html"
    if ! "$ARBITER" play --game "$g" --seed 4242 --timed -o "$rep" >/dev/null 2>"$work/play.err"; then
        bad "$g: arbiter play failed: $(cat "$work/play.err")"; continue
    fi
    "$ARBITER" report "$rep" -o "$html" || { bad "$g: arbiter report failed"; continue; }
    actions=$("$ARBITER" log "$rep" --json | grep -c '"kind":"action"' || true)

    if ! chrome --dump-dom "file://$html" >"$work/$g.dom"; then
        bad "$g: chromium --dump-dom failed: $(tail -3 "$work/chrome.err")"; continue
    fi
    svgs=$(grep -o '<svg' "$work/$g.dom" | wc -l)
    lines=$(grep -o '<polyline' "$work/$g.dom" | wc -l)
    rows=$(grep -o '<tr class="act' "$work/$g.dom" | wc -l)
    [ "$svgs" -ge 1 ] && ok "$g: $svgs charts in the DOM" || bad "$g: no svg chart in the DOM"
    [ "$lines" -ge 2 ] && ok "$g: $lines chart series" || bad "$g: charts have no series"
    [ "$rows" -eq "$actions" ] && [ "$rows" -gt 0 ] && ok "$g: $rows timeline rows = $actions actions" \
        || bad "$g: $rows timeline rows for $actions actions"
    grep -q 'id="timeline"' "$work/$g.dom" && grep -q 'id="outcome"' "$work/$g.dom" \
        && ok "$g: timeline and outcome sections" || bad "$g: missing timeline/outcome section"
    grep -q 'id="view-1"' "$work/$g.dom" && ok "$g: per-seat view toggle" || bad "$g: no per-seat toggle"
    if grep -Eq '<script|<link|src="http|url\(http' "$html"; then bad "$g: report references external resources"
    else ok "$g: self-contained"; fi

    png="$work/$g.png"
    if chrome --screenshot="$png" --window-size=1280,1600 --hide-scrollbars "file://$html" >/dev/null \
        && [ -s "$png" ]; then
        magic=$(od -An -tx1 -N4 "$png" | tr -d ' \n')
        size=$(wc -c <"$png")
        # A blank page compresses to a few KB; charts and text make it larger.
        if [ "$magic" = "89504e47" ] && [ "$size" -gt 20000 ]; then ok "$g: screenshot ${size} bytes"
        else bad "$g: screenshot looks blank (${size} bytes, magic $magic)"; fi
        [ -n "${REPORT_SHOTS:-}" ] && cp "$png" "$REPORT_SHOTS/report-$g.png"
    else
        bad "$g: chromium --screenshot failed: $(tail -3 "$work/chrome.err")"
    fi
done
[ $fail -eq 0 ] && echo "report_browser: all passed" || echo "report_browser: FAILED"
exit $fail
