/* dupes.h — one match counted once: the set of match identities and
 * revealed commitments (arb_verify_result) that `verify` and `stats` have
 * seen over a set of files, archives or a manifest, so that a replayed
 * match, a reused fair-seed secret or a shared seed commitment is named
 * with the file that had it first. Memory grows by about 80 bytes plus
 * the first name per match; lookups are O(1). */
#ifndef ARBITER_CLI_DUPES_H
#define ARBITER_CLI_DUPES_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/replay.h"
#include "arbiter/tree.h"

enum { CLI_DUP_NONE = 0, CLI_DUP_MATCH, CLI_DUP_FAIR_SECRET, CLI_DUP_SEED_COMMIT };

typedef struct cli_dupes {
    struct cli_dup_slot *slot;
    size_t cap, n;                  /* cap a power of two (0 before the first add) */
} cli_dupes;

/* A verified result (r->code == ARB_OK) seen as name: CLI_DUP_NONE when its
 * identity and commitments are new (they are added), else the kind of the
 * first repeat (match before fair secret before seed commitment; nothing is
 * added) with *first the name that had it first (borrowed from the set) —
 * or -1 when memory ran out (nothing added). */
int cli_dupes_check(cli_dupes *d, const arb_verify_result *r, const char *name, const char **first);
/* The same for a verified result line of `verify --json` (its
 * "match_id"): CLI_DUP_NONE also when the line carries none. */
int cli_dupes_check_line(cli_dupes *d, const arb_tnode *line, const char *name, const char **first);
/* "match", "fair-secret", "seed-commitment" (JSON "duplicate.kind"). */
const char *cli_dupes_kind_name(int kind);
/* The sentence of a repeat: "the same match (setup and actions) as FIRST". */
void cli_dupes_detail(int kind, const char *first, char *buf, size_t size);
void cli_dupes_free(cli_dupes *d);

#endif
