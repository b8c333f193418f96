/* results.h — reading back `arbiter verify --json` lines (NDJSON): one
 * result per file, and the {"shard_done":…} line that closes a shard. Used
 * by `merge` and by `stats` on merged results. */
#ifndef ARBITER_CLI_RESULTS_H
#define ARBITER_CLI_RESULTS_H

#include <stdio.h>

#include "cli/cli.h"

#define CLI_RESULT_LINE_MAX (1u << 20)

typedef struct cli_vresult {
    int is_trailer;             /* a {"shard_done":…} line */
    int is_summary;             /* a closing {"summary":{…}} line: no match */
    int is_archive;             /* an archive's own line ("kind":"archive"): not a match;
                                   its members are the lines that follow */
    int64_t member;             /* an archive member's number, -1 for a file */
    /* result line */
    const char *file, *game, *status, *reason;
    int64_t index;              /* -1 when absent */
    int players, ok, over, winner;
    int64_t turns, actions;
    uint64_t shard_k, shard_n;  /* shard_n 0 when absent */
    /* trailer line */
    uint64_t k, n, entries, files; /* summary line: files = its "matches" (UINT64_MAX if absent) */
    const arb_tnode *obj;       /* the whole parsed line */
} cli_vresult;

/* Reads NDJSON results line by line. */
typedef struct cli_results {
    FILE *f;
    const char *path;
    char *line;
    size_t cap;
    uint64_t lineno;
    arb_tree *tree;
} cli_results;

int cli_results_open(cli_results *r, const char *path, arb_error *err);
/* 1 with *out filled, 0 at the end, or a negative ARB_E* code with err set
 * (file:line): -ARB_ENOMEM when memory ran out (never read as the end).
 * Lines are read with arb_line_read, bounded at CLI_RESULT_LINE_MAX before
 * any allocation. Blank lines are skipped. out->obj lives until the next
 * call. */
int cli_results_next(cli_results *r, cli_vresult *out, arb_error *err);
void cli_results_close(cli_results *r);
/* Whether the file looks like NDJSON results (first non-blank byte '{'). */
int cli_results_sniff(const char *path);

#endif
