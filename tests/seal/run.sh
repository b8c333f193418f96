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
if ! "$PY" -c 'import nacl.signing' 2>/dev/null; then
    echo "seal: FAILED: $PY has no nacl module: install python3-nacl (make deps)"; exit 1
fi
TMPDIR=$tmp "$PY" tests/seal/dump_check.py
echo "seal: sample, foreign key and independent reader OK"
