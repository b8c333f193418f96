/* fuzz_results.c — libFuzzer target for the NDJSON and manifest readers:
 * any byte string is handed, as a file, to `arbiter merge` and `arbiter
 * stats` (NDJSON verification results: the bounded line reader, the JSON
 * reader, the result fields) and read as a manifest with every shard split
 * (cli_mstream: the bounded reader, comments, indexes). Exit codes must be
 * documented ones; manifest entries must come in index order, each from a
 * line that fits the limit, every index in the shard. Seeds:
 * tests/fuzz/corpus_results/. */
#define _GNU_SOURCE
#include "fuzz_util.h"
#include "cli/shard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (4u << 20)) return 0;
    const char *path = fuzz_file(data, size);
    const char *merge[] = { "merge", "--json", path, NULL };
    fuzz_run(cmd_merge, 3, merge);
    const char *merge2[] = { "merge", path, path, NULL };
    fuzz_run(cmd_merge, 3, merge2);
    const char *stats[] = { "stats", "--json", path, NULL };
    fuzz_run(cmd_stats, 3, stats);
    cli_shard sh = { size ? data[0] % 3 : 0, 3 };
    cli_mstream ms;
    FILE *se = stderr;
    stderr = fuzz_null;
    if (cli_mstream_open(&ms, "fuzz", path, &sh) == 0) {
        char *p;
        uint64_t idx, last = 0;
        int first = 1, r;
        while ((r = cli_mstream_next(&ms, &p, &idx)) == 1) {
            if (idx % sh.n != sh.k || (!first && idx <= last) || strlen(p) > CLI_MANIFEST_LINE_MAX || !*p || *p == '#')
                abort();
            first = 0;
            last = idx;
            free(p);
        }
        if (r > 0) abort();
        if (!first && ms.total <= last) abort();
        cli_mstream_close(&ms);
    }
    stderr = se;
    return 0;
}
