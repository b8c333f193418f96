#!/usr/bin/env bash
# make_corpus.sh — regenerates the seed corpora of the #20 fuzz targets
# (corpus_record, corpus_json, corpus_results, corpus_analyze, corpus_stream)
# from the golden replays with the built binary: ARBITER=build/arbiter
# bash tests/fuzz/make_corpus.sh. The seeds are committed; rerun it when the
# formats change. Needs python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/../.."
A=${ARBITER:-build/arbiter}
F=tests/fuzz
rm -rf $F/corpus_record $F/corpus_json $F/corpus_results $F/corpus_analyze $F/corpus_stream
mkdir -p $F/corpus_record $F/corpus_json $F/corpus_results $F/corpus_analyze $F/corpus_stream
games=$("$A" games --json | python3 -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))')
gi=0
for g in $games; do
    small=$(ls -S replays/golden/$g/*.tcgr | tail -n 2)
    for r in $small; do
        b=$(basename "$r" .tcgr)
        cp "$r" $F/corpus_analyze/$g-$b.tcgr
        cp "$r" $F/corpus_stream/$g-$b.tcgr
    done
    one=$(echo "$small" | head -n 1)
    # record: the replay's actions as text lines and as NDJSON (first byte: game index, bit 7 NDJSON)
    "$A" log --json "$one" | python3 -c '
import json, sys
gi, out = int(sys.argv[1]), sys.argv[2]
d = json.load(sys.stdin)
acts = [e for e in d["entries"] if e.get("kind") == "action"]
with open(out + ".txt", "wb") as f:
    f.write(bytes([gi]))
    for e in acts:
        seat = "arbiter" if e["seat"] < 0 else str(e["seat"])
        f.write(("+%d %s %s%s\n" % (e.get("elapsed_ms", 0), seat, e["verb"], "".join(" %d" % a for a in e["args"]))).encode())
with open(out + ".ndjson", "wb") as f:
    f.write(bytes([gi | 0x80]))
    for i, e in enumerate(acts):
        seat = "arbiter" if e["seat"] < 0 else e["seat"]
        if i % 3 == 2:
            f.write((json.dumps({"action": "%s %s%s" % (seat, e["verb"], "".join(" %d" % a for a in e["args"]))}) + "\r\n").encode())
        else:
            f.write((json.dumps({"seat": seat, "verb": e["verb"], "args": e["args"], "elapsed_ms": e.get("elapsed_ms", 0)}) + "\n").encode())
' "$gi" "$F/corpus_record/$g"
    # json: the position at setup and in the middle, as `state --json` prints it
    "$A" state --json --at setup "$one" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["state"]))' >$F/corpus_json/$g-setup.json
    "$A" state --json --at 10 "$one" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["state"]))' >$F/corpus_json/$g-10.json
    gi=$((gi + 1))
done
printf '\000# comment\0000 keep\n' >$F/corpus_record/nul.txt
{ printf '\001# '; head -c 4094 /dev/zero | tr '\0' x; printf '\r\n0 keep\n'; } >$F/corpus_record/long.txt
printf '\202{"seat":0,"verb":"keep","seat":1}\n{"seat":0,"verb":"keep"} x\n{"seat":0,"verb":"play 22"}\n' >$F/corpus_record/strict.ndjson
# results: sharded verify output, a manifest, a cut line
ls replays/golden/*/*.tcgr | head -n 6 >$F/corpus_results/manifest.txt
printf '# comment\n\n' >>$F/corpus_results/manifest.txt
"$A" verify --manifest $F/corpus_results/manifest.txt --shard 0/2 --json >$F/corpus_results/shard0.ndjson || true
"$A" verify --manifest $F/corpus_results/manifest.txt --shard 1/2 --json >$F/corpus_results/shard1.ndjson || true
head -c 300 $F/corpus_results/shard0.ndjson >$F/corpus_results/cut.ndjson
cp $F/corpus_results/shard1.ndjson $F/corpus_json/result-lines.ndjson
printf '{"a":[1,-2,{"b":"\\u00e9\\ud83d\\ude00"}],"t":true,"n":null}\n' >$F/corpus_json/syntax.json
echo "fuzz corpora written under $F/corpus_*"
