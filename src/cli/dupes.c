/* dupes.c — the set behind "one match counted once" (dupes.h): an
 * open-addressing table of (kind, 32-byte key) → the first name that had
 * it. Keys are BLAKE2b outputs, so their first bytes index the table
 * directly; it doubles at half load, so a lookup is O(1) and the set is
 * never scanned (no order of iteration reaches any output). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dupes.h"

#define KEY_BYTES 32

typedef struct cli_dup_slot {
    uint8_t used, kind;
    uint8_t key[KEY_BYTES];
    char *name;                 /* shared by the keys of one match */
    int owner;                  /* this slot frees name */
} cli_dup_slot;

_Static_assert(ARB_REPLAY_ID_BYTES == KEY_BYTES && ARB_REPLAY_COMMIT_BYTES == KEY_BYTES, "one key size");

static size_t index_of(const cli_dupes *d, int kind, const uint8_t *key)
{
    uint64_t h = (uint64_t)kind * 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 8; i++) h ^= (uint64_t)key[i] << (8 * i);
    size_t i = (size_t)h & (d->cap - 1);
    while (d->slot[i].used && (d->slot[i].kind != kind || memcmp(d->slot[i].key, key, KEY_BYTES) != 0))
        i = (i + 1) & (d->cap - 1);
    return i;
}

static int grow(cli_dupes *d)
{
    size_t cap = d->cap ? d->cap * 2 : 1024;
    cli_dup_slot *old = d->slot;
    size_t ocap = d->cap;
    if (cap < ocap || cap > SIZE_MAX / sizeof *old) return -1;
    d->slot = calloc(cap, sizeof *d->slot);
    if (!d->slot) {
        d->slot = old;
        return -1;
    }
    d->cap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].used) d->slot[index_of(d, old[i].kind, old[i].key)] = old[i];
    free(old);
    return 0;
}

static const char *find(const cli_dupes *d, int kind, const uint8_t *key)
{
    if (!d->cap) return NULL;
    const cli_dup_slot *s = &d->slot[index_of(d, kind, key)];
    return s->used ? s->name : NULL;
}

int cli_dupes_check(cli_dupes *d, const arb_verify_result *r, const char *name, const char **first)
{
    *first = NULL;
    if (r->code != ARB_OK) return CLI_DUP_NONE;
    struct { int on, kind; const uint8_t *key; } k[3] = {
        { r->has_identity, CLI_DUP_MATCH, r->identity },
        { r->has_fair_commit, CLI_DUP_FAIR_SECRET, r->fair_commit },
        { r->has_seed_commit, CLI_DUP_SEED_COMMIT, r->seed_commit },
    };
    for (int i = 0; i < 3; i++)
        if (k[i].on && (*first = find(d, k[i].kind, k[i].key)) != NULL) return k[i].kind;
    while ((d->n + 3) * 2 > d->cap)
        if (grow(d)) return -1;
    char *own = strdup(name);
    if (!own) return -1;
    int owner = 1;
    for (int i = 0; i < 3; i++) {
        if (!k[i].on) continue;
        cli_dup_slot *s = &d->slot[index_of(d, k[i].kind, k[i].key)];
        s->used = 1;
        s->kind = (uint8_t)k[i].kind;
        memcpy(s->key, k[i].key, KEY_BYTES);
        s->name = own;
        s->owner = owner;
        owner = 0;
        d->n++;
    }
    if (owner) free(own); /* no key at all: nothing to remember */
    return CLI_DUP_NONE;
}

int cli_dupes_check_line(cli_dupes *d, const arb_tnode *line, const char *name, const char **first)
{
    *first = NULL;
    const arb_tnode *id = arb_tnode_get(line, "match_id");
    if (!id || id->kind != ARB_T_STR) return CLI_DUP_NONE;
    arb_verify_result r;
    memset(&r, 0, sizeof r);
    size_t len;
    if (cli_parse_hex(id->s, r.identity, sizeof r.identity, &len) || len != sizeof r.identity) return CLI_DUP_NONE;
    r.has_identity = 1;
    return cli_dupes_check(d, &r, name, first);
}

const char *cli_dupes_kind_name(int kind)
{
    switch (kind) {
    case CLI_DUP_MATCH: return "match";
    case CLI_DUP_FAIR_SECRET: return "fair-secret";
    case CLI_DUP_SEED_COMMIT: return "seed-commitment";
    }
    return "none";
}

void cli_dupes_detail(int kind, const char *first, char *buf, size_t size)
{
    switch (kind) {
    case CLI_DUP_MATCH:
        snprintf(buf, size, "the same match (setup and actions) as %s: a replayed match is counted once", first);
        break;
    case CLI_DUP_FAIR_SECRET:
        snprintf(buf, size, "reveals the same fair-seed secret as %s: a secret seeds one match", first);
        break;
    case CLI_DUP_SEED_COMMIT:
        snprintf(buf, size, "shares its seed commitment with %s: a commitment is published for one match", first);
        break;
    default: snprintf(buf, size, "not a duplicate"); break;
    }
}

void cli_dupes_free(cli_dupes *d)
{
    for (size_t i = 0; i < d->cap; i++)
        if (d->slot[i].used && d->slot[i].owner) free(d->slot[i].name);
    free(d->slot);
    d->slot = NULL;
    d->cap = d->n = 0;
}
