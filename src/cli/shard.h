/* shard.h — splitting a manifest or a self-play run into N shards (K/N, or
 * from a Slurm job array's environment) for bulk work across machines. */
#ifndef ARBITER_CLI_SHARD_H
#define ARBITER_CLI_SHARD_H

#include <stdint.h>
#include <stdio.h>

typedef struct cli_shard {
    uint64_t k, n;              /* this shard is k of 0..n-1; n == 1: everything */
} cli_shard;

/* "K/N" with 0 <= K < N <= 1,000,000, or "slurm": K from
 * SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, N from SLURM_ARRAY_TASK_COUNT.
 * Prints a usage error for cmd and returns -1 when invalid. */
int cli_shard_parse(const char *cmd, const char *spec, cli_shard *out);

/* A manifest read as a stream: one path per line; blank lines and lines
 * starting with '#' are not entries. Lines are read with arb_line_read
 * (at most CLI_MANIFEST_LINE_MAX bytes, bounded before allocating), so
 * memory does not grow with the manifest. cli_mstream_next returns 1 with
 * the next entry whose 0-based index i has i mod n == k (*path is malloc'd,
 * the caller frees it), 0 at the end (total then counts every entry of the
 * whole manifest), or an exit code (> 1 is never returned as an entry:
 * the code is negated) after printing the error with file:line. */
#define CLI_MANIFEST_LINE_MAX 4096
typedef struct cli_mstream {
    FILE *f;
    const char *cmd, *path;
    cli_shard sh;
    char *line;
    uint64_t lineno, total;
} cli_mstream;
int cli_mstream_open(cli_mstream *m, const char *cmd, const char *path, const cli_shard *sh);
int cli_mstream_next(cli_mstream *m, char **path, uint64_t *index);
void cli_mstream_close(cli_mstream *m);

/* Seed of game number i of a self-play run from base seed b: the first
 * SplitMix64 output from state b + i. Shards of a run therefore union to
 * exactly the one-machine run. */
uint64_t cli_game_seed(uint64_t base, uint64_t i);

#endif
