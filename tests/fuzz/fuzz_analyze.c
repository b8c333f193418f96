/* fuzz_analyze.c — libFuzzer target for the analyzer commands and the
 * report writer, run in-process on the input as a replay file: info (text
 * and JSON), log (text, JSON, as a seat), state (JSON at the end, text at
 * record 3), report (HTML to stdout), stats, and diff of the file against
 * itself (which must say identical, exit 0, whenever `log` reads the
 * file completely with the engine). Every exit code must be a documented one. Structure-aware:
 * the custom mutator in fuzz_util.h mutates the decompressed MessagePack
 * stream. Seeds: tests/fuzz/corpus_analyze/ (golden replays of every game). */
#define _GNU_SOURCE
#define FUZZ_TCGR_MUTATOR
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (256u << 10)) return 0;
    const char *path = fuzz_file(data, size);
    const char *info[] = { "info", path };
    int irc = fuzz_run(cmd_info, 2, info);
    const char *infoj[] = { "info", "--json", path };
    fuzz_run(cmd_info, 3, infoj);
    if (irc == EXIT_INPUT && (size < 8 || memcmp(data, "TCGR", 4) != 0)) return 0; /* not worth the walk */
    const char *log[] = { "log", path };
    int lrc = fuzz_run(cmd_log, 2, log);
    const char *logj[] = { "log", "--json", "--as", "1", path };
    fuzz_run(cmd_log, 5, logj);
    const char *st[] = { "state", "--at", "last", "--json", path };
    fuzz_run(cmd_state, 5, st);
    const char *st3[] = { "state", "--at", "3", "--as", "0", path };
    fuzz_run(cmd_state, 6, st3);
    const char *rep[] = { "report", path, "-o", "-" };
    fuzz_run(cmd_report, 4, rep);
    const char *stats[] = { "stats", "--json", path };
    fuzz_run(cmd_stats, 3, stats);
    const char *diff[] = { "diff", path, path };
    int drc = fuzz_run(cmd_diff, 3, diff);
    if (lrc == EXIT_OK && drc != EXIT_OK) {
        fprintf(stderr, "fuzz_analyze: a replay that reads completely differs from itself (diff exit %d)\n", drc);
        abort();
    }
    return 0;
}
