/* shard.h — splitting a manifest or a self-play run into N shards (K/N, or
 * from a Slurm job array's environment) for bulk work across machines. */
#ifndef ARBITER_CLI_SHARD_H
#define ARBITER_CLI_SHARD_H

#include <stdint.h>

typedef struct cli_shard {
    uint64_t k, n;              /* this shard is k of 0..n-1; n == 1: everything */
} cli_shard;

/* "K/N" with 0 <= K < N <= 1,000,000, or "slurm": K from
 * SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, N from SLURM_ARRAY_TASK_COUNT.
 * Prints a usage error for cmd and returns -1 when invalid. */
int cli_shard_parse(const char *cmd, const char *spec, cli_shard *out);

/* The entries of a manifest (one path per line; blank lines and lines
 * starting with '#' are not entries) whose 0-based entry index i has
 * i mod n == k, with their indexes. total is the number of entries in the
 * whole manifest. Returns 0, or an exit code after printing the error
 * (file:line for an over-long line). */
typedef struct cli_manifest {
    char **paths;
    uint64_t *index;
    uint64_t count, total;
} cli_manifest;
int cli_manifest_read(const char *cmd, const char *path, const cli_shard *sh, cli_manifest *out);
void cli_manifest_free(cli_manifest *m);

/* Seed of game number i of a self-play run from base seed b: the first
 * SplitMix64 output from state b + i. Shards of a run therefore union to
 * exactly the one-machine run. */
uint64_t cli_game_seed(uint64_t base, uint64_t i);

#endif
