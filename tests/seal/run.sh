#!/usr/bin/env bash
# run.sh — `make check-seal`: the shipped signed sample (replays/sealed/)
# verifies under its public key with arbiter and with the independent
# reader replays/tcgr_dump.py (Debian python3-nacl; /usr/bin/python3 so a
# pyenv or venv python without it is not picked up), fails under another
# key, and FORMAT.md's seal test vectors hold.
set -euo pipefail
cd "$(dirname "$0")/../.."
ARBITER=${ARBITER:-build/arbiter}
PY=/usr/bin/python3
d=replays/sealed
out=$("$ARBITER" verify --key $d/sample.key.pub $d/sample.tcgr)
grep -q "signed by 9d24e2eeaf27c2a0 (format-test-vector)" <<<"$out" || { echo "seal: $out"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ARBITER" keygen -o "$tmp/other.key" >/dev/null
if "$ARBITER" verify --key "$tmp/other.key.pub" $d/sample.tcgr >"$tmp/o" 2>&1; then
    echo "seal: the sample verifies under a foreign key"; exit 1
fi
grep -q "DIVERGES (signature)" "$tmp/o" || { cat "$tmp/o"; exit 1; }
# The judge's page of a file changed after signing leads with the invalid
# signature, not with "Not signed" (issue #31).
cp $d/sample.tcgr "$tmp/bad.tcgr"
n=$(stat -c %s "$tmp/bad.tcgr")
printf '\125' | dd of="$tmp/bad.tcgr" bs=1 seek=$((n - 10)) conv=notrunc 2>/dev/null
# (report writes the page and exits 1, as verify would)
rc=0; "$ARBITER" report "$tmp/bad.tcgr" -o "$tmp/bad.html" 2>/dev/null || rc=$?
[ $rc -eq 1 ] || { echo "seal: report of a broken seal exits $rc, not 1"; exit 1; }
grep -q '<div class="vword">DOES NOT VERIFY</div><div class="vline">Signature invalid: ' "$tmp/bad.html" &&
  grep -q 'id="signature">SIGNATURE INVALID: ' "$tmp/bad.html" && ! grep -q 'Not signed' "$tmp/bad.html" ||
  { echo "seal: the report of a broken seal does not say the signature is invalid"; exit 1; }
if ! "$PY" -c 'import nacl.signing' 2>/dev/null; then
    echo "seal: FAILED: $PY has no nacl module: install python3-nacl (make deps)"; exit 1
fi
TMPDIR=$tmp "$PY" tests/seal/dump_check.py
echo "seal: sample, foreign key and independent reader OK"
