/* identity.c — the match identity the verifier computes as it replays
 * (arb_verify_result.identity): BLAKE2b-256 over what makes a match the
 * match it is, its setup and its actions, and nothing a copier can change
 * without changing the match: not the player names, start time, think
 * times, rules or engine version, seal, salt or encoding. Two files with
 * one identity hold one match twice (a replayed match), whatever else
 * differs. Actions are buffered and hashed a block at a time, so the hot
 * loop pays a few stores per action. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "replay/internal.h"

#define ID_DOMAIN "arbiter-match-id-v1"

_Static_assert(sizeof(crypto_generichash_state) <= sizeof(((arb_replay__id *)0)->opaque), "arb_replay__id is too small");

static crypto_generichash_state *state_of(arb_replay__id *id)
{
    return (crypto_generichash_state *)(void *)id->opaque;
}

static void flush(arb_replay__id *id)
{
    if (id->n) crypto_generichash_update(state_of(id), id->buf, id->n);
    id->n = 0;
}

static void put(arb_replay__id *id, const void *p, size_t n)
{
    if (id->n + n > sizeof id->buf) flush(id);
    if (n > sizeof id->buf) {
        crypto_generichash_update(state_of(id), p, n);
        return;
    }
    memcpy(id->buf + id->n, p, n);
    id->n += n;
}

static void put_u64(arb_replay__id *id, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(id, b, sizeof b);
}

/* A string with its terminating NUL (the header's strings are C strings,
 * so the NUL ends each one unambiguously). */
static void put_str(arb_replay__id *id, const char *s) { put(id, s, strlen(s) + 1); }

void arb_replay__id_init(arb_replay__id *id, const arb_replay_header *h)
{
    memset(id, 0, sizeof *id);
    crypto_generichash_init(state_of(id), NULL, 0, ARB_REPLAY_ID_BYTES);
    put_str(id, ID_DOMAIN);
    put_str(id, h->game);
    put_u64(id, h->seed);
    put_u64(id, (uint64_t)h->players);
    for (int s = 0; s < h->players && s < ARB_MAX_SEATS; s++) {
        const arb_replay_player *p = &h->player[s];
        put_u64(id, p->ncards);
        for (unsigned i = 0; i < p->ncards; i++) put_str(id, p->cards[i]);
        put_u64(id, p->nattrs);
        for (unsigned i = 0; i < p->nattrs && i < ARB_DECK_ATTRS; i++) {
            put_str(id, p->attrs[i].key);
            put_str(id, p->attrs[i].value);
        }
    }
    put_u64(id, h->options.n);
    for (unsigned i = 0; i < h->options.n && i < ARB_OPTIONS_MAX; i++) {
        put_str(id, h->options.kv[i].key);
        put_u64(id, (uint64_t)h->options.kv[i].value);
    }
    /* A position as its JSON text (arb_tnode_json writes keys in the order
     * read, which the header's strict reader fixes for one file; two files
     * whose position differs only in key order count as two matches). */
    put_u64(id, h->position != NULL);
    if (h->position) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            arb_tnode_json(h->position, f, 0);
            if (fclose(f)) id->failed = 1;
            else {
                put_u64(id, len);
                put(id, buf, len);
            }
        } else {
            id->failed = 1; /* no identity rather than a wrong one */
        }
        free(buf);
    }
}

/* seat, verb, argument count, then each argument as a zigzag LEB128
 * varint (the bytes of a v2 record, without its coding state). */
void arb_replay__id_action(arb_replay__id *id, const arb_action *a)
{
    if (id->n + 3 + 5 * ARB_ARGS_MAX > sizeof id->buf) flush(id);
    uint8_t *p = id->buf + id->n;
    unsigned n = a->nargs <= ARB_ARGS_MAX ? a->nargs : ARB_ARGS_MAX;
    *p++ = (uint8_t)a->seat;
    *p++ = a->verb;
    *p++ = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        uint32_t z = ((uint32_t)a->args[i] << 1) ^ (uint32_t)(a->args[i] >> 31);
        p = arb_replay__varint(p, z);
    }
    id->n = (size_t)(p - id->buf);
}

int arb_replay__id_final(arb_replay__id *id, uint64_t actions, uint8_t out[ARB_REPLAY_ID_BYTES])
{
    put_u64(id, actions);
    flush(id);
    crypto_generichash_final(state_of(id), out, ARB_REPLAY_ID_BYTES);
    return id->failed ? -1 : 0;
}
