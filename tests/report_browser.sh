#!/bin/sh
# report_browser.sh — the judge's viewer (`arbiter report`) in a real
# browser: Debian's chromium (package `chromium`) driven by playwright-core
# and @axe-core/playwright from npm (installed into build/npm on first use
# from tests/browser/package-lock.json; neither downloads a browser).
# tests/report_browser.js does the checks for every game; screenshots stay
# in build/report-shots/. Run by `make check-browser`; $ARBITER is the CLI.
set -eu

ARBITER=${ARBITER:-build/arbiter}
CHROME=${CHROMIUM:-}
if [ -z "$CHROME" ]; then
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then CHROME=$(command -v "$c"); break; fi
    done
fi
if [ -z "$CHROME" ]; then
    echo "report_browser: no chromium found (apt-get install -y chromium)" >&2
    exit 1
fi
command -v node >/dev/null 2>&1 || { echo "report_browser: no node (apt-get install -y nodejs npm)" >&2; exit 1; }
NPM_DIR=${NPM_DIR:-build/npm}
# The npm tools, pinned by tests/browser/package-lock.json: playwright-core
# (no install script: no browser is downloaded) and @axe-core/playwright.
if ! cmp -s tests/browser/package-lock.json "$NPM_DIR/package-lock.json" ||
   [ ! -f "$NPM_DIR/node_modules/@axe-core/playwright/package.json" ]; then
    command -v npm >/dev/null 2>&1 || { echo "report_browser: no npm (apt-get install -y npm)" >&2; exit 1; }
    mkdir -p "$NPM_DIR"
    cp tests/browser/package.json tests/browser/package-lock.json "$NPM_DIR/"
    (cd "$NPM_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
NODE_DIR="$(cd "$NPM_DIR" && pwd)/node_modules"
ARBITER=$ARBITER CHROMIUM=$CHROME SHOTS=${REPORT_SHOTS:-build/report-shots} \
PLAYWRIGHT="$NODE_DIR/playwright-core" AXE="$NODE_DIR/@axe-core/playwright" \
    timeout 900 node tests/report_browser.js
