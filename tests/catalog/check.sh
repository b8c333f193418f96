#!/bin/sh
# tests/catalog/check.sh — the committed rule catalogs are what the
# catalog's source in the repository generates: conformance/tools/
# catalog2xml.py, run with no arguments from a scratch copy of conformance/
# (its catalog/, tools/ and each game's interpretations.md), must reproduce
# every conformance/<game>/rules.xml byte for byte. Any difference is
# printed (diff -u) and fails.
set -eu
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/conformance"
cp -R conformance/catalog conformance/tools "$tmp/conformance/"
n=0
for xml in conformance/*/rules.xml; do
    g=$(basename "$(dirname "$xml")")
    mkdir -p "$tmp/conformance/$g"
    [ ! -f "conformance/$g/interpretations.md" ] || cp "conformance/$g/interpretations.md" "$tmp/conformance/$g/"
    n=$((n + 1))
done
"$PYTHON" "$tmp/conformance/tools/catalog2xml.py" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "catalog: FAIL: catalog2xml.py"; exit 1; }
fail=0
for xml in conformance/*/rules.xml; do
    g=$(basename "$(dirname "$xml")")
    if ! diff -u "$xml" "$tmp/conformance/$g/rules.xml" >"$tmp/diff"; then
        head -n 40 "$tmp/diff"
        echo "catalog: FAIL: $xml differs from what conformance/catalog generates"
        fail=1
    fi
done
for out in "$tmp"/conformance/*/rules.xml; do
    g=$(basename "$(dirname "$out")")
    [ -f "conformance/$g/rules.xml" ] || { echo "catalog: FAIL: the catalog generates $g/rules.xml, not committed"; fail=1; }
done
[ $fail -eq 0 ] || exit 1
echo "catalog: conformance/tools/catalog2xml.py reproduces the $n committed rule catalogs from conformance/catalog"
