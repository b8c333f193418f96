#!/usr/bin/env bash
# test_slurm.sh — bulk verification on a real single-node Slurm cluster.
#
# Brings up munged + slurmctld + slurmd on localhost (tests/slurm/cluster.sh),
# writes a manifest of absolute paths over the golden corpus (or, before it
# exists, a self-play corpus made here) plus one deliberately corrupted
# replay, submits `arbiter slurm-script verify` as a job array of TASKS tasks
# (each task takes a slice), waits by polling squeue, merges the shards, and
# checks that the merged result equals a local `arbiter verify` of the same
# manifest and that the corrupted file is the one failure, with its
# divergence. Everything is torn down by PID on exit, whatever happens.
#
#   tests/slurm/test_slurm.sh [ARBITER]      (TASKS=8 by default)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
arbiter=$(realpath "${1:-$root/build/arbiter}")
tasks=${TASKS:-8}
work=$(mktemp -d /tmp/arbiter-slurm-XXXXXX)
t0=$(date +%s.%N)

cleanup() {
    "$here/cluster.sh" down "$work/cluster" || true
    if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work"; fi
}
trap cleanup EXIT
fail() { echo "test_slurm: FAIL: $*" >&2; exit 1; }

# 1. The corpus and the manifest (absolute paths).
mkdir -p "$work/corpus" "$work/results"
if compgen -G "$root/replays/golden/*/*.tcgr" >/dev/null; then
    # one file per match: the v2*/ directories and the older-rules copies
    # (GAME@RULES) hold the same matches again, which verify and merge now
    # fail as duplicates (#27 N6)
    find "$root/replays/golden" -name '*.tcgr' ! -path '*/v2*' ! -path '*@*' | sort > "$work/manifest"
    source="golden corpus"
else
    for g in $("$arbiter" games --json | grep -o '"id":"[a-z]*"' | cut -d'"' -f4); do
        SOURCE_DATE_EPOCH=1700000000 "$arbiter" play --game "$g" --games 12 --seed 7 -o "$work/corpus/$g" >/dev/null
    done
    find "$work/corpus" -name '*.tcgr' | sort > "$work/manifest"
    source="self-play corpus (no golden corpus yet)"
fi
# A deliberately corrupted copy of the first replay: the last byte of the
# recorded final hash is changed inside the zlib stream (decompress, edit,
# recompress), so the file reads cleanly and the verifier reports a real
# divergence (final hash) rather than a checksum error.
first=$(head -n 1 "$work/manifest")
bad="$work/corpus/corrupted.tcgr"
python3 - "$first" "$bad" "$here/../../replays" <<'PY2'
import sys, zlib
sys.path.insert(0, sys.argv[3])
import tcgr_dump                      # a range-coded body (FORMAT.md Part D)
raw = open(sys.argv[1], "rb").read()
body = bytearray(tcgr_dump.file_content(raw))
body[-1] ^= 0x55                      # last byte of the outcome's final hash
open(sys.argv[2], "wb").write(raw[:5] + bytes([raw[5] & 0xfb, 0]) + raw[7:8] + zlib.compress(bytes(body), 1))
PY2
echo "$bad" >> "$work/manifest"
entries=$(grep -cv '^[[:space:]]*\(#\|$\)' "$work/manifest")
[ "$tasks" -le "$entries" ] || tasks=$entries
echo "test_slurm: $entries files from the $source, $tasks array tasks"

# 2. The cluster.
"$here/cluster.sh" up "$work/cluster"
eval "$("$here/cluster.sh" env "$work/cluster")"

# 3. Submit the shipped job script as an array.
"$arbiter" slurm-script verify > "$work/arbiter-verify.sbatch"
cd "$work"
jobid=$(ARBITER="$arbiter" sbatch --parsable --export=ALL --array=0-$((tasks - 1)) \
        --output="$work/task-%a.log" "$work/arbiter-verify.sbatch" "$work/manifest" "$work/results")
jobid=${jobid%%;*}
echo "test_slurm: submitted job $jobid"

# 4. Wait by polling squeue (not sbatch --wait, which lags).
deadline=$(( $(date +%s) + 300 ))
while [ -n "$(squeue -h -j "$jobid" 2>/dev/null)" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "job $jobid still queued after 300 s"
    sleep 0.2
done
for k in $(seq 0 $((tasks - 1))); do
    [ -s "$work/results/shard-$k.ndjson" ] || { cat "$work/task-$k.log" >&2 || true; fail "task $k wrote no shard"; }
done

# 5. Merge; exit 1 = complete, with failures (the corrupted file).
set +e
"$arbiter" merge --json -o "$work/merged.ndjson" "$work"/results/shard-*.ndjson > "$work/summary.json"
rc=$?
"$arbiter" merge "$work"/results/shard-*.ndjson > "$work/summary.txt"
set -e
cat "$work/summary.txt"
[ "$rc" -eq 1 ] || fail "merge exited $rc, expected 1 (complete, with one failure)"
grep -q '"complete":true' "$work/summary.json" || fail "merge says incomplete"
grep -q "\"files\":$entries," "$work/summary.json" || fail "merged file count is not $entries"
grep -q '"failed":1,' "$work/summary.json" || fail "expected exactly one failure"
grep -q "FAILED $bad: diverged (final-hash)" "$work/summary.txt" || fail "the corrupted file is not the failure, with its divergence"

# 6. The merged results equal a local verify of the same manifest.
"$arbiter" verify --manifest "$work/manifest" --shard 0/1 --json > "$work/local.ndjson" || true
norm() { grep -v '"shard_done"' "$1" | sed 's/,"shard":"[0-9]*\/[0-9]*"//' | sort; }
diff <(norm "$work/local.ndjson") <(norm "$work/merged.ndjson") >/dev/null \
    || { diff <(norm "$work/local.ndjson") <(norm "$work/merged.ndjson") | head >&2; fail "merged results differ from a local verify"; }

# 7. stats reads the merged results.
"$arbiter" stats "$work/merged.ndjson" > "$work/stats.txt"
grep -q "counted from verification results" "$work/stats.txt" || fail "stats did not read the merged results"

# 8. A sharded crosscheck of the loopback adapter as a job array: the tasks
# together play exactly the matches of one run, with no divergence; the
# same array against a deliberately faulty adapter reports the divergence.
"$arbiter" slurm-script crosscheck > "$work/arbiter-crosscheck.sbatch"
xc_wait() {
    local id=$1 deadline=$(( $(date +%s) + 300 ))
    while [ -n "$(squeue -h -j "$id" 2>/dev/null)" ]; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "job $id still queued after 300 s"
        sleep 0.2
    done
}
xtasks=4
for mode in clean fault; do
    engine="$arbiter engine-serve --game naramo"
    [ "$mode" = fault ] && engine="$engine --fault drop-legal"
    xid=$(ARBITER="$arbiter" sbatch --parsable --export=ALL --array=0-$((xtasks - 1)) \
          --output="$work/xc-$mode-%a.log" "$work/arbiter-crosscheck.sbatch" naramo 40 9 "$work/xc-$mode" "$engine")
    xid=${xid%%;*}
    xc_wait "$xid"
    python3 - "$work/xc-$mode" "$xtasks" "$mode" <<'PY' || fail "sharded crosscheck ($mode) results are wrong"
import json, os, sys
d, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [json.load(open(os.path.join(d, "crosscheck-%d.json" % k))) for k in range(n)]
m = sum(r["matches"] for r in rows); dv = sum(r["divergences"] for r in rows)
shards = sorted(r["shard"] for r in rows)
assert shards == ["%d/%d" % (k, n) for k in range(n)], shards
if mode == "clean":
    assert m == 40 and dv == 0, (m, dv)
else:
    assert dv == n, dv  # every task meets the fault in its first match
print("test_slurm: sharded crosscheck (%s): %d matches over %d tasks, %d divergences" % (mode, m, n, dv))
PY
done
ls "$work/xc-fault"/repro-*.tcgr >/dev/null 2>&1 || fail "the faulty crosscheck wrote no reproducer"

t1=$(date +%s.%N)
printf 'test_slurm: PASS (%d files, %d tasks, %.1f s)\n' "$entries" "$tasks" "$(echo "$t1 - $t0" | bc 2>/dev/null || echo 0)"
echo "1 passed, 0 failed"
