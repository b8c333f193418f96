/* header.c — the .tcgr header map: encoding it from a game, a setup and the
 * recorder's metadata, and decoding it back into arb_replay_header with a
 * clear error (naming the key path) for every missing, mistyped or
 * oversized field. Unknown keys are kept in the tree and otherwise ignored,
 * so later writers can add keys without breaking version-1 readers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/deck.h"
#include "arbiter/text.h"

/* A LEB128 varint of at most 5 bytes (deck runs). */
static int arb_r2v(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned sh = 0; sh < 35; sh += 7) {
        if (*p >= end) return -1;
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

#include "replay/internal.h"

static int put_fair(arb_mpbuf *b, const arb_fair *f, arb_error *err);

void arb_replay__limits(arb_replay_limits *out, const arb_replay_limits *lim)
{
    static const arb_replay_limits dflt = ARB_REPLAY_LIMITS_INIT;
    *out = lim ? *lim : dflt;
    if (!out->max_decompressed) out->max_decompressed = dflt.max_decompressed;
    if (!out->max_header) out->max_header = dflt.max_header;
    if (!out->max_record) out->max_record = dflt.max_record;
    if (!out->max_depth) out->max_depth = dflt.max_depth;
    if (!out->max_count) out->max_count = dflt.max_count;
    if (!out->max_string) out->max_string = dflt.max_string;
    if (!out->max_nodes) out->max_nodes = dflt.max_nodes;
    if (!out->max_players || out->max_players > ARB_MAX_SEATS) out->max_players = ARB_MAX_SEATS;
    if (!out->max_deck || out->max_deck > ARB_DECK_MAX) out->max_deck = ARB_DECK_MAX;
    if (out->max_record < 64) out->max_record = 64;
    if (out->max_header < 64) out->max_header = 64;
}

/* Index of the preset deck d is exactly (name, cards in order, attributes),
 * or -1. */
static int preset_of(const arb_game *g, const arb_deck *d)
{
    for (unsigned k = 0; k < g->npresets; k++) {
        const arb_deck *p = g->preset(g, k);
        if (!p || strcmp(p->name, d->name) != 0 || p->ncards != d->ncards || p->nattrs != d->nattrs) continue;
        if (memcmp(p->cards, d->cards, d->ncards * sizeof d->cards[0]) != 0) continue;
        int same = 1;
        for (unsigned i = 0; i < d->nattrs && same; i++)
            same = strcmp(p->attrs[i].key, d->attrs[i].key) == 0 && strcmp(p->attrs[i].value, d->attrs[i].value) == 0;
        if (same) return (int)k;
    }
    return -1;
}

/* "YYYY-MM-DDTHH:MM:SSZ" → seconds since the epoch, -1 if not that shape. */
static long long iso_seconds(const char *s)
{
    /* fixed positions, digits only (a recorder encodes one per match:
     * no sscanf) */
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    int v[6] = { 0 }, f = 0;
    for (int i = 0; i < 20; i++) {
        if (!s[i]) return -1;
        if (shape[i] != 'd') {
            if (s[i] != shape[i]) return -1;
            f++;
        } else if (s[i] < '0' || s[i] > '9') return -1;
        else v[f] = v[f] * 10 + (s[i] - '0');
    }
    if (s[20]) return -1;
    int Y = v[0], M = v[1], D = v[2], h = v[3], m = v[4], sec = v[5];
    if (Y < 1970 || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 59) return -1;
    /* days from civil (Howard Hinnant) */
    int y = Y - (M <= 2);
    long long era = y / 400, yoe = y - era * 400;
    long long doy = (153LL * (M + (M > 2 ? -3 : 9)) + 2) / 5 + D - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long long days = era * 146097 + doe - 719468;
    /* a day the month does not have (2023-02-30) is not a time */
    static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    int leap = (Y % 4 == 0 && Y % 100 != 0) || Y % 400 == 0;
    if (D > mdays[M - 1] + (M == 2 && leap)) return -1;
    return days * 86400 + h * 3600 + m * 60 + sec;
}

void arb_replay__iso(char *out, size_t n, uint64_t t)
{
    long long z = (long long)(t / 86400) + 719468, secs = (long long)(t % 86400);
    long long era = z / 146097, doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1, m = mp + (mp < 10 ? 3 : -9);
    y += m <= 2;
    snprintf(out, n, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", y, m, d, secs / 3600, secs / 60 % 60, secs % 60);
}

/* The version-2 header (FORMAT.md §B.2): a positional array
 * [game, rules, seed, started, players, options, extra] with decks as
 * preset indexes or runs of pool indexes and defaults left out. */
/* The optional header keys both versions write last, in this order:
 * position, salt + commit, fair. */
static int put_optional(arb_mpbuf *b, const arb_replay_meta *meta, arb_error *err)
{
    const arb_setup *su = meta->setup;
    if (meta->position) {
        arb_replay__mp_cstr(b, "position");
        arb_replay__mp_tree(b, meta->position);
    }
    if (meta->salt) {
        uint8_t c[ARB_REPLAY_COMMIT_BYTES];
        arb_replay_commit(c, su->seed, meta->salt, meta->salt_len);
        arb_replay__mp_cstr(b, "salt");
        arb_replay__mp_bin(b, meta->salt, meta->salt_len);
        arb_replay__mp_cstr(b, "commit");
        arb_replay__mp_bin(b, c, sizeof c);
    }
    if (meta->fair) {
        int frc = put_fair(b, meta->fair, err);
        if (frc) return frc;
    }
    if (b->failed) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory encoding the header");
    return ARB_OK;
}

static int header_encode2(arb_mpbuf *b, const arb_replay_meta *meta, arb_error *err)
{
    const arb_game *g = meta->game;
    const arb_setup *su = meta->setup;
    long long started = meta->started ? iso_seconds(meta->started) : -1;
    arb_replay__mp_array(b, 7);
    arb_replay__mp_cstr(b, g->id);
    arb_replay__mp_cstr(b, su->rules ? su->rules : g->rules_version);
    arb_replay__mp_uint(b, su->seed);
    if (!meta->started) arb_replay__mp_nil(b);
    else if (started >= 0) arb_replay__mp_uint(b, (uint64_t)started);
    else arb_replay__mp_cstr(b, meta->started);
    arb_replay__mp_array(b, (uint32_t)su->players);
    for (int s = 0; s < su->players; s++) {
        const arb_deck *d = su->decks[s];
        char dflt[4] = { 'P', (char)('1' + s), 0, 0 }; /* "P<seat+1>": seats < ARB_MAX_SEATS (4) */
        const char *name = meta->names[s] ? meta->names[s] : dflt;
        int named = strcmp(name, dflt) != 0;
        /* An engine outside the registry (tests, plugins) cannot be looked
         * up by a reader: its decks go as card-ID lists, as in v1. */
        int registered = arb_game_find(g->id) == g;
        int preset = d && registered ? preset_of(g, d) : -1;
        if (!named && preset >= 0) {
            arb_replay__mp_uint(b, (uint64_t)preset);
            continue;
        }
        arb_replay__mp_map(b, (uint32_t)(named + (!d ? 0 : preset >= 0 ? 1 : 3)));
        if (named) {
            arb_replay__mp_cstr(b, "name");
            arb_replay__mp_cstr(b, name);
        }
        if (!d) continue;
        if (preset >= 0) {
            arb_replay__mp_cstr(b, "preset");
            arb_replay__mp_uint(b, (uint64_t)preset);
            continue;
        }
        arb_replay__mp_cstr(b, "deck_name");
        arb_replay__mp_cstr(b, d->name);
        if (!registered) {
            arb_replay__mp_cstr(b, "deck");
            arb_replay__mp_array(b, d->ncards);
            for (unsigned i = 0; i < d->ncards; i++) {
                if (d->cards[i] >= g->ncards)
                    return arb_error_set(err, ARB_EINVAL, NULL, "seat %d deck card %u is index %u, outside the %s pool",
                                         s, i, d->cards[i], g->id);
                arb_replay__mp_cstr(b, g->card(g, d->cards[i])->id);
            }
        } else {
            /* runs: (pool index, count) varint pairs */
            uint8_t runs[ARB_DECK_MAX * 6];
            size_t nr = 0;
            for (unsigned i = 0; i < d->ncards;) {
                unsigned j = i;
                if (d->cards[i] >= g->ncards)
                    return arb_error_set(err, ARB_EINVAL, NULL, "seat %d deck card %u is index %u, outside the %s pool", s, i,
                                         d->cards[i], g->id);
                while (j < d->ncards && d->cards[j] == d->cards[i]) j++;
                uint8_t *q = arb_replay__varint(runs + nr, d->cards[i]);
                q = arb_replay__varint(q, j - i);
                nr = (size_t)(q - runs);
                i = j;
            }
            arb_replay__mp_cstr(b, "cards");
            arb_replay__mp_bin(b, runs, nr);
        }
        arb_replay__mp_cstr(b, "attrs");
        arb_replay__mp_map(b, d->nattrs);
        for (unsigned i = 0; i < d->nattrs; i++) {
            arb_replay__mp_cstr(b, d->attrs[i].key);
            arb_replay__mp_cstr(b, d->attrs[i].value);
        }
    }
    arb_replay__mp_map(b, su->options.n);
    for (unsigned i = 0; i < su->options.n; i++) {
        arb_replay__mp_cstr(b, su->options.kv[i].key);
        arb_replay__mp_int(b, su->options.kv[i].value);
    }
    arb_replay__mp_map(b, (meta->position ? 1u : 0u) + (meta->salt ? 2u : 0u) + (meta->fair ? 1u : 0u));
    return put_optional(b, meta, err);
}

/* ---- version-2 header → the canonical (v1-shaped) header map, so one
 * decoder and one header tree serve both versions. Card indexes become card
 * IDs when this build has the engine of exactly that rules version. */
static int t_bad(const char *name, arb_error *err, const char *what)
{
    arb_error_where(err, "%s: header", name);
    return arb_error_set(err, ARB_EFORMAT, NULL, "the version-2 header is malformed: %s", what);
}

static int t_str(const uint8_t **p, const uint8_t *end, char *dst, size_t size)
{
    const uint8_t *s;
    uint32_t len;
    int is_bin;
    if (arb_mp_rd_str(p, end, &s, &len, &is_bin) || is_bin || len >= size || memchr(s, 0, len)) return -1;
    memcpy(dst, s, len);
    dst[len] = '\0';
    return 0;
}

static void put_preset(arb_mpbuf *o, const arb_game *pool, const arb_deck *pd)
{
    arb_replay__mp_cstr(o, "deck_name");
    arb_replay__mp_cstr(o, pd->name);
    arb_replay__mp_cstr(o, "preset");
    arb_replay__mp_cstr(o, pd->name);
    arb_replay__mp_cstr(o, "deck");
    arb_replay__mp_array(o, pd->ncards);
    for (unsigned i = 0; i < pd->ncards; i++) arb_replay__mp_cstr(o, pool->card(pool, pd->cards[i])->id);
    arb_replay__mp_cstr(o, "attrs");
    arb_replay__mp_map(o, pd->nattrs);
    for (unsigned i = 0; i < pd->nattrs; i++) {
        arb_replay__mp_cstr(o, pd->attrs[i].key);
        arb_replay__mp_cstr(o, pd->attrs[i].value);
    }
}

/* Copy one value raw. */
static int t_copy(arb_mpbuf *o, const uint8_t **p, const uint8_t *end)
{
    const uint8_t *s = *p;
    if (arb_replay__mp_skip(p, end)) return -1;
    if (arb_replay__mp_reserve(o, (size_t)(*p - s))) return -1;
    memcpy(o->p + o->n, s, (size_t)(*p - s));
    o->n += (size_t)(*p - s);
    return 0;
}

/* Seat s's deck is the n indices c into pool (dk may be NULL). */
static void deck_idx(arb_replay__decks *dk, uint32_t s, const uint16_t *c, unsigned n)
{
    if (!dk || s >= ARB_MAX_SEATS || n > ARB_DECK_MAX) return;
    memcpy(dk->idx[s], c, n * sizeof *c);
    dk->n[s] = (uint16_t)n;
    dk->have[s] = 1;
}

static int header_translate2(const uint8_t *p, size_t n, arb_mpbuf *o, const char *name, arb_error *err,
                             arb_replay__decks *dk)
{
    const uint8_t *end = p + n;
    uint32_t cnt, np;
    char game[32], rules[32];
    uint64_t seed;
    if (arb_mp_rd_array(&p, end, &cnt) || cnt < 7) return t_bad(name, err, "not an array of 7 or more fields");
    if (t_str(&p, end, game, sizeof game)) return t_bad(name, err, "field 0 (game) is not a short string");
    if (t_str(&p, end, rules, sizeof rules)) return t_bad(name, err, "field 1 (rules) is not a short string");
    if (arb_mp_rd_u64(&p, end, &seed)) return t_bad(name, err, "field 2 (seed) is not an unsigned integer");
    /* A game's card pool and preset table only grow across its rules
     * versions (FORMAT.md §B.2), so this build's tables name the cards of
     * every rules version of the game. */
    const arb_game *pool = arb_game_find(game);
    (void)rules;
    if (dk) {
        memset(dk, 0, sizeof *dk);
        dk->pool = pool;
    }
    /* started */
    char started[40] = "";
    if (p < end && *p == 0xc0) p++;
    else {
        uint64_t t;
        const uint8_t *q = p;
        if (!arb_mp_rd_u64(&q, end, &t)) {
            if (t > 253402300799ULL) return t_bad(name, err, "field 3 (started) is after the year 9999");
            arb_replay__iso(started, sizeof started, t);
            p = q;
        } else if (t_str(&p, end, started, sizeof started))
            return t_bad(name, err, "field 3 (started) is not nil, seconds or a short string");
    }
    arb_replay__mp_map(o, 7);
    arb_replay__mp_cstr(o, "format");
    arb_replay__mp_cstr(o, ARB_REPLAY_FORMAT_2);
    arb_replay__mp_cstr(o, "game");
    arb_replay__mp_cstr(o, game);
    arb_replay__mp_cstr(o, "rules");
    arb_replay__mp_cstr(o, rules);
    arb_replay__mp_cstr(o, "seed");
    arb_replay__mp_uint(o, seed);
    arb_replay__mp_cstr(o, "started");
    if (started[0]) arb_replay__mp_cstr(o, started);
    else arb_replay__mp_nil(o);
    /* players */
    if (arb_mp_rd_array(&p, end, &np) || np < 1 || np > ARB_MAX_SEATS)
        return t_bad(name, err, "field 4 (players) is not an array of 1 to 4 entries");
    arb_replay__mp_cstr(o, "players");
    arb_replay__mp_array(o, np);
    for (uint32_t s = 0; s < np; s++) {
        uint64_t idx;
        const uint8_t *q = p;
        if (!arb_mp_rd_u64(&q, end, &idx)) {
            p = q;
            const arb_deck *pd = pool && idx < pool->npresets ? pool->preset(pool, (unsigned)idx) : NULL;
            if (pool && !pd) return t_bad(name, err, "a player names a preset index outside the rules version's table");
            arb_replay__mp_map(o, pd ? 4 : 1);
            if (pd) {
                put_preset(o, pool, pd);
                deck_idx(dk, s, pd->cards, pd->ncards);
            }
            else {
                arb_replay__mp_cstr(o, "preset_index");
                arb_replay__mp_uint(o, idx);
            }
            continue;
        }
        uint32_t nk;
        if (arb_mp_rd_map(&p, end, &nk) || nk > 16) return t_bad(name, err, "a player is neither a preset index nor a map");
        /* Collect the player's entries, then write the canonical map. */
        arb_mpbuf pm = { 0 };
        uint32_t outk = 0;
        const char *deckf = NULL;
        int has_preset = 0;
        for (uint32_t k = 0; k < nk; k++) {
            char key[32];
            if (t_str(&p, end, key, sizeof key)) {
                arb_replay__mp_free(&pm);
                return t_bad(name, err, "a player key is not a short string");
            }
            /* A preset is a whole deck (name, attributes, cards): a map that
             * also gives one of those is refused (FORMAT.md §B.2), never
             * resolved by "the preset wins" in one reader and "the field
             * wins" in another. */
            static const char *const deck_keys[] = { "deck_name", "attrs", "cards", "deck" };
            for (unsigned f = 0; f < 4; f++)
                if (strcmp(key, deck_keys[f]) == 0 && !deckf) deckf = deck_keys[f];
            if (strcmp(key, "preset") == 0) has_preset = 1;
            if (has_preset && deckf) {
                arb_replay__mp_free(&pm);
                arb_error_where(err, "%s: header key 'players.%u.%s'", name, (unsigned)s, deckf);
                return arb_error_set(err, ARB_EFORMAT, NULL,
                                     "a player map holds both 'preset' and '%s': a preset is the whole deck", deckf);
            }
            if (strcmp(key, "preset") == 0) {
                const arb_deck *pd = NULL;
                if (arb_mp_rd_u64(&p, end, &idx)) {
                    arb_replay__mp_free(&pm);
                    return t_bad(name, err, "a player's preset is not an index");
                }
                pd = pool && idx < pool->npresets ? pool->preset(pool, (unsigned)idx) : NULL;
                if (pool && !pd) {
                    arb_replay__mp_free(&pm);
                    return t_bad(name, err, "a player names a preset index outside the rules version's table");
                }
                if (pd) {
                    put_preset(&pm, pool, pd);
                    deck_idx(dk, s, pd->cards, pd->ncards);
                    outk += 4;
                } else {
                    arb_replay__mp_cstr(&pm, "preset_index");
                    arb_replay__mp_uint(&pm, idx);
                    outk++;
                }
                continue;
            }
            if (strcmp(key, "cards") == 0 && pool) {
                const uint8_t *s2;
                uint32_t len;
                int is_bin;
                if (arb_mp_rd_str(&p, end, &s2, &len, &is_bin) || !is_bin) {
                    arb_replay__mp_free(&pm);
                    return t_bad(name, err, "a player's cards is not a binary");
                }
                /* expand runs into the card-ID list */
                const char *ids[ARB_DECK_MAX];
                uint16_t ix[ARB_DECK_MAX];
                unsigned nc = 0;
                const uint8_t *r = s2, *re = s2 + len;
                while (r < re) {
                    uint64_t ci, cn;
                    if (arb_r2v(&r, re, &ci) || arb_r2v(&r, re, &cn) || cn < 1 || cn > ARB_DECK_MAX - nc ||
                        ci >= pool->ncards) {
                        arb_replay__mp_free(&pm);
                        return t_bad(name, err, "a player's cards runs are malformed, too long or outside the pool");
                    }
                    for (uint64_t c = 0; c < cn; c++) {
                        ix[nc] = (uint16_t)ci;
                        ids[nc++] = pool->card(pool, (unsigned)ci)->id;
                    }
                }
                deck_idx(dk, s, ix, nc);
                arb_replay__mp_cstr(&pm, "deck");
                arb_replay__mp_array(&pm, nc);
                for (unsigned c = 0; c < nc; c++) arb_replay__mp_cstr(&pm, ids[c]);
                outk++;
                continue;
            }
            arb_replay__mp_cstr(&pm, key);
            if (t_copy(&pm, &p, end)) {
                arb_replay__mp_free(&pm);
                return t_bad(name, err, "a player value is malformed");
            }
            outk++;
        }
        arb_replay__mp_map(o, outk);
        if (!pm.failed && pm.n && !arb_replay__mp_reserve(o, pm.n)) {
            memcpy(o->p + o->n, pm.p, pm.n);
            o->n += pm.n;
        }
        arb_replay__mp_free(&pm);
    }
    arb_replay__mp_cstr(o, "options");
    if (p >= end || !((*p & 0xf0) == 0x80 || *p == 0xde || *p == 0xdf))
        return t_bad(name, err, "field 5 (options) is not a map");
    if (t_copy(o, &p, end)) return t_bad(name, err, "field 5 (options) is malformed");
    /* extra: the rest of the keys, as they are */
    uint32_t ne;
    if (arb_mp_rd_map(&p, end, &ne)) return t_bad(name, err, "field 6 (extra) is not a map");
    /* patch the key count: 7 written + ne */
    size_t total = 7 + ne;
    if (total > 15) {
        /* rewrite the outer map header as map16: shift everything by 2 */
        if (arb_replay__mp_reserve(o, 2)) return t_bad(name, err, "out of memory");
        memmove(o->p + 3, o->p + 1, o->n - 1);
        o->p[0] = 0xde;
        o->p[1] = (uint8_t)(total >> 8);
        o->p[2] = (uint8_t)total;
        o->n += 2;
    } else o->p[0] = (uint8_t)(0x80 | total);
    for (uint32_t k = 0; k < ne; k++) {
        char key[256];
        if (t_str(&p, end, key, sizeof key)) return t_bad(name, err, "an extra key is not a short string");
        static const char *const fixed[] = { "format", "game", "rules", "seed", "started", "players", "options" };
        for (unsigned f = 0; f < sizeof fixed / sizeof fixed[0]; f++)
            if (strcmp(key, fixed[f]) == 0) return t_bad(name, err, "the extra map repeats a positional field");
        arb_replay__mp_cstr(o, key);
        if (t_copy(o, &p, end)) return t_bad(name, err, "an extra value is malformed");
    }
    /* fields after the seventh: a later writer's; skipped */
    for (uint32_t k = 7; k < cnt; k++)
        if (arb_replay__mp_skip(&p, end)) return t_bad(name, err, "a trailing field is malformed");
    if (o->failed) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading the header");
    return ARB_OK;
}

/* A string the reader keeps in a char[size] field must be shorter. */
static int field_fits(const char *s, size_t size, const char *what, int seat, arb_error *err)
{
    if (!s || strlen(s) < size) return ARB_OK;
    char who[32] = "";
    if (seat >= 0) snprintf(who, sizeof who, " of P%d", seat + 1);
    return arb_error_set(err, ARB_ELIMIT, NULL, "the %s%s is %zu bytes; a replay header holds at most %zu "
                         "(replays/FORMAT.md section 3)", what, who, strlen(s), size - 1);
}

int arb_replay_meta_check(const arb_replay_meta *meta, arb_error *err)
{
    ARB_ASSERT_ARG(err, meta);
    /* The bounds are the reader's own field sizes (arb_replay_header), so
     * the writer never writes a header its reader refuses. */
    const arb_replay_header *h = NULL;
    const arb_game *g = meta->game;
    const arb_setup *su = meta->setup;
    int rc;
    if ((rc = field_fits(g->id, sizeof h->game, "game id", -1, err)) ||
        (rc = field_fits(su->rules ? su->rules : g->rules_version, sizeof h->rules, "rules version", -1, err)) ||
        (rc = field_fits(g->engine_version, sizeof h->engine, "engine version", -1, err)) ||
        (rc = field_fits(meta->started, sizeof h->started, "start time", -1, err)))
        return rc;
    for (int s = 0; s < su->players && s < ARB_MAX_SEATS; s++) {
        if ((rc = field_fits(meta->names[s], sizeof h->player[0].name, "name", s, err))) return rc;
        if (su->decks[s] && (rc = field_fits(su->decks[s]->name, sizeof h->player[0].deck_name, "deck name", s, err)))
            return rc;
    }
    return ARB_OK;
}

int arb_replay__header_encode(arb_mpbuf *b, const arb_replay_meta *meta, arb_error *err)
{
    const arb_game *g = meta->game;
    const arb_setup *su = meta->setup;
    int brc = arb_replay_meta_check(meta, err);
    if (brc) return brc;
    if (su->players < 1 || su->players > ARB_MAX_SEATS)
        return arb_error_set(err, ARB_EINVAL, NULL, "%d players: a replay holds 1 to %d", su->players,
                             ARB_MAX_SEATS);
    if (meta->salt && (meta->salt_len < 1 || meta->salt_len > ARB_REPLAY_SALT_MAX))
        return arb_error_set(err, ARB_EINVAL, NULL, "salt of %zu bytes: 1 to %d allowed", meta->salt_len,
                             ARB_REPLAY_SALT_MAX);
    if (meta->fair && (meta->fair->n != su->players || su->seed != arb_fair_seed(meta->fair)))
        return arb_error_set(err, ARB_EINVAL, NULL, "the fair seed needs one contribution per seat and the seed derived from them");
    if (meta->version != 1) return header_encode2(b, meta, err);
    uint32_t nkeys = 9 + (meta->started ? 1 : 0) + (meta->position ? 1 : 0) + (meta->salt ? 2 : 0) +
                     (meta->fair ? 1 : 0);
    arb_replay__mp_map(b, nkeys);
    arb_replay__mp_cstr(b, "format");
    arb_replay__mp_cstr(b, ARB_REPLAY_FORMAT);
    arb_replay__mp_cstr(b, "game");
    arb_replay__mp_cstr(b, g->id);
    arb_replay__mp_cstr(b, "rules");
    arb_replay__mp_cstr(b, su->rules ? su->rules : g->rules_version);
    arb_replay__mp_cstr(b, "rng");
    arb_replay__mp_cstr(b, ARB_RNG_NAME);
    arb_replay__mp_cstr(b, "hash");
    arb_replay__mp_cstr(b, ARB_HASH_NAME);
    arb_replay__mp_cstr(b, "engine");
    arb_replay__mp_cstr(b, g->engine_version);
    arb_replay__mp_cstr(b, "seed");
    arb_replay__mp_uint(b, su->seed);
    arb_replay__mp_cstr(b, "players");
    arb_replay__mp_array(b, (uint32_t)su->players);
    for (int s = 0; s < su->players; s++) {
        const arb_deck *d = su->decks[s];
        char dflt[16];
        snprintf(dflt, sizeof dflt, "P%d", s + 1);
        arb_replay__mp_map(b, d ? 4 : 1);
        arb_replay__mp_cstr(b, "name");
        arb_replay__mp_cstr(b, meta->names[s] ? meta->names[s] : dflt);
        if (!d) continue;
        arb_replay__mp_cstr(b, "deck_name");
        arb_replay__mp_cstr(b, d->name);
        arb_replay__mp_cstr(b, "deck");
        arb_replay__mp_array(b, d->ncards);
        for (unsigned i = 0; i < d->ncards; i++) {
            if (d->cards[i] >= g->ncards)
                return arb_error_set(err, ARB_EINVAL, NULL, "seat %d deck card %u is index %u, outside the %s pool",
                                     s, i, d->cards[i], g->id);
            arb_replay__mp_cstr(b, g->card(g, d->cards[i])->id);
        }
        arb_replay__mp_cstr(b, "attrs");
        arb_replay__mp_map(b, d->nattrs);
        for (unsigned i = 0; i < d->nattrs; i++) {
            arb_replay__mp_cstr(b, d->attrs[i].key);
            arb_replay__mp_cstr(b, d->attrs[i].value);
        }
    }
    arb_replay__mp_cstr(b, "options");
    arb_replay__mp_map(b, su->options.n);
    for (unsigned i = 0; i < su->options.n; i++) {
        arb_replay__mp_cstr(b, su->options.kv[i].key);
        arb_replay__mp_int(b, su->options.kv[i].value);
    }
    if (meta->started) {
        arb_replay__mp_cstr(b, "started");
        arb_replay__mp_cstr(b, meta->started);
    }
    return put_optional(b, meta, err);
}

/* The "fair" key and its map (FORMAT.md §12.1). */
static int put_fair(arb_mpbuf *b, const arb_fair *f, arb_error *err)
{
    {
        arb_replay__mp_cstr(b, "fair");
        arb_replay__mp_map(b, 4);
        arb_replay__mp_cstr(b, "scheme");
        arb_replay__mp_cstr(b, ARB_FAIR_SCHEME);
        arb_replay__mp_cstr(b, "commit");
        arb_replay__mp_bin(b, f->commit, sizeof f->commit);
        arb_replay__mp_cstr(b, "secret");
        arb_replay__mp_bin(b, f->secret, sizeof f->secret);
        arb_replay__mp_cstr(b, "contributions");
        arb_replay__mp_array(b, (uint32_t)f->n);
        for (int i = 0; i < f->n; i++) {
            if (f->len[i] < 1 || f->len[i] > ARB_FAIR_CONTRIB_MAX)
                return arb_error_set(err, ARB_EINVAL, NULL, "seat %d's contribution is %u bytes: 1 to %d allowed", i,
                                     f->len[i], ARB_FAIR_CONTRIB_MAX);
            arb_replay__mp_bin(b, f->contrib[i], f->len[i]);
        }
    }
    if (b->failed) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory encoding the header");
    return ARB_OK;
}

/* ---- strictness: duplicate keys at any level, valid UTF-8 everywhere */

int arb_replay__utf8_valid(const uint8_t *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) { i++; continue; }
        size_t len;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
        else goto fail;
        if (n - i < len) goto fail;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) goto fail;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            goto fail;
        i += len;
    }
    return 1;
fail:
    if (bad) *bad = i;
    return 0;
}

typedef struct skey {
    const uint8_t *s;
    uint32_t len;
    size_t off;
} skey;

static int skey_cmp(const void *a, const void *b)
{
    const skey *x = a, *y = b;
    uint32_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, m);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* One step of the path to the value being checked: a map key (s, len) or
 * an array index (s NULL). Rendered only when a message needs it. */
typedef struct pstep {
    const uint8_t *s;
    uint32_t len, idx;
} pstep;

typedef struct strict {
    const uint8_t *base;
    pstep step[66];             /* depth is at most 64 (strict_value) */
    unsigned nstep;
    char path[192];             /* the rendered path (path_text) */
    char *msg;
    size_t msgsize;
    size_t off;                 /* offset of the problem, from base */
    int v2;                     /* the root is a version-2 positional header */
    int canon;                  /* its translation: every string was checked already */
} strict;

/* Version 2's positional fields named by their version-1 keys (FORMAT.md
 * §3: a key path names the same value in both versions); the extra map's
 * keys sit at the top level, so field 6 adds nothing to the path. */
static const char *const v2_field[7] = { "game", "rules", "seed", "started", "players", "options", "" };

/* Printable rendering of at most 40 bytes of a key for messages. */
static void key_text(const uint8_t *s, uint32_t len, char *out, size_t size)
{
    size_t o = 0;
    for (uint32_t i = 0; i < len && i < 40 && o + 5 < size; i++) {
        if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\'') out[o++] = (char)s[i];
        else o += (size_t)snprintf(out + o, size - o, "\\x%02x", s[i]);
    }
    if (len > 40 && o + 4 < size) { memcpy(out + o, "...", 3); o += 3; }
    out[o] = '\0';
}

static void path_push(strict *st, const uint8_t *s, uint32_t len, uint32_t idx)
{
    pstep *p = &st->step[st->nstep++];
    p->s = s;
    p->len = len;
    p->idx = idx;
}

/* The path of the value being checked ("(root)" for none), keys joined by
 * dots, as at most 191 bytes. */
static const char *path_text(strict *st)
{
    size_t n = 0;
    st->path[0] = '\0';
    for (unsigned i = 0; i < st->nstep; i++) {
        if (n + 2 >= sizeof st->path) break;
        if (n) st->path[n++] = '.';
        st->path[n] = '\0';
        if (st->step[i].s) key_text(st->step[i].s, st->step[i].len, st->path + n, sizeof st->path - n);
        else snprintf(st->path + n, sizeof st->path - n, "%u", st->step[i].idx);
        n += strlen(st->path + n);
    }
    return st->path[0] ? st->path : "(root)";
}

static int strict_value(strict *st, const uint8_t **pp, const uint8_t *end, unsigned depth)
{
    const uint8_t *p = *pp, *s;
    uint32_t n, len;
    int is_bin;
    if (p >= end || depth > 64) { st->off = (size_t)(p - st->base); snprintf(st->msg, st->msgsize, "malformed value"); return -1; }
    if (arb_mp_rd_str(&p, end, &s, &len, &is_bin) == ARB_MP_OK) {
        size_t bad;
        if (st->canon) {
            *pp = p;
            return 0;
        }
        if (!is_bin && !arb_replay__utf8_valid(s, len, &bad)) {
            st->off = (size_t)(s - st->base) + bad;
            snprintf(st->msg, st->msgsize, "the string at '%s' is not valid UTF-8 (byte %zu of %u)",
                     path_text(st), bad, len);
            return -1;
        }
        const uint8_t *nul = is_bin ? NULL : memchr(s, 0, len);
        if (nul) {
            st->off = (size_t)(nul - st->base);
            snprintf(st->msg, st->msgsize, "the string at '%s' holds a NUL byte (byte %zu of %u): strings hold none",
                     path_text(st), (size_t)(nul - s), len);
            return -1;
        }
        *pp = p;
        return 0;
    }
    p = *pp;
    if (arb_mp_rd_array(&p, end, &n) == ARB_MP_OK) {
        for (uint32_t i = 0; i < n; i++) {
            unsigned saved = st->nstep;
            if (depth == 0 && st->v2 && i < 7) {
                const char *f = v2_field[i];
                if (f[0]) path_push(st, (const uint8_t *)f, (uint32_t)strlen(f), 0);
            } else path_push(st, NULL, 0, i);
            int rc = strict_value(st, &p, end, depth + 1);
            st->nstep = saved;
            if (rc) return rc;
        }
        *pp = p;
        return 0;
    }
    p = *pp;
    if (arb_mp_rd_map(&p, end, &n) == ARB_MP_OK) {
        skey small[16], *keys = small;
        if (n > 16) {
            if (n > (size_t)(end - p) / 2) { st->off = (size_t)(p - st->base); snprintf(st->msg, st->msgsize, "map larger than its bytes"); return -1; }
            keys = malloc(n * sizeof *keys);
            if (!keys) { st->off = (size_t)(p - st->base); snprintf(st->msg, st->msgsize, "out of memory"); return -2; }
        }
        int rc = 0;
        for (uint32_t i = 0; i < n && !rc; i++) {
            const uint8_t *kp = p;
            if (arb_mp_rd_str(&p, end, &s, &len, &is_bin) || is_bin) {
                st->off = (size_t)(kp - st->base);
                snprintf(st->msg, st->msgsize, "a key of the map at '%s' is not a string", path_text(st));
                rc = -1;
                break;
            }
            size_t bad;
            if (!st->canon && !arb_replay__utf8_valid(s, len, &bad)) {
                st->off = (size_t)(s - st->base) + bad;
                snprintf(st->msg, st->msgsize, "a key of the map at '%s' is not valid UTF-8", path_text(st));
                rc = -1;
                break;
            }
            if (!st->canon && memchr(s, 0, len)) {
                st->off = (size_t)(kp - st->base);
                snprintf(st->msg, st->msgsize, "a key of the map at '%s' holds a NUL byte", path_text(st));
                rc = -1;
                break;
            }
            keys[i].s = s;
            keys[i].len = len;
            keys[i].off = (size_t)(kp - st->base);
            unsigned saved = st->nstep;
            path_push(st, s, len, 0);
            rc = strict_value(st, &p, end, depth + 1);
            st->nstep = saved;
        }
        if (!rc && n > 1) {
            /* Sort by (key, offset): equal keys end up adjacent. Report the
             * duplicate whose second occurrence comes first in the file. */
            qsort(keys, n, sizeof *keys, skey_cmp);
            size_t best = SIZE_MAX, first = 0;
            uint32_t bi = 0;
            for (uint32_t i = 1; i < n; i++)
                if (keys[i].len == keys[i - 1].len && !memcmp(keys[i].s, keys[i - 1].s, keys[i].len) &&
                    keys[i].off < best) {
                    best = keys[i].off;
                    first = keys[i - 1].off;
                    bi = i;
                }
            if (best != SIZE_MAX) {
                char k[200];
                unsigned saved = st->nstep;
                path_push(st, keys[bi].s, keys[bi].len, 0);
                snprintf(k, sizeof k, "%s", path_text(st));
                st->nstep = saved;
                st->off = best;
                snprintf(st->msg, st->msgsize,
                         "duplicate key '%s' (first at offset %zu, again at offset %zu): a header holds each key once",
                         k, first, best);
                rc = -1;
            }
        }
        if (keys != small) free(keys);
        if (rc) return rc;
        *pp = p;
        return 0;
    }
    p = *pp;
    if (arb_replay__mp_skip(&p, end)) {
        st->off = (size_t)(p - st->base);
        snprintf(st->msg, st->msgsize, "malformed value");
        return -1;
    }
    *pp = p;
    return 0;
}

int arb_replay__header_strict(const uint8_t *p, size_t n, int v2, size_t *off, char *msg, size_t msgsize)
{
    strict st;
    memset(&st, 0, sizeof st);
    st.v2 = v2 == 1;
    st.canon = v2 == 2;
    st.base = p;
    st.msg = msg;
    st.msgsize = msgsize;
    const uint8_t *q = p;
    int rc = strict_value(&st, &q, p + n, 0);
    *off = st.off;
    return rc;
}

/* ---- decoding */

typedef struct hdec {
    const char *name;
    arb_error *err;
} hdec;

static int bad(hdec *d, int code, const char *path, const char *fmt, const char *arg)
{
    arb_error_where(d->err, "%s: header key '%s'", d->name, path);
    return arb_error_set(d->err, code, NULL, fmt, arg);
}

static int get_str(hdec *d, const arb_tnode *m, const char *key, const char *path, char *dst, size_t size,
                   int required)
{
    const arb_tnode *n = arb_tnode_get(m, key);
    if (!n) {
        dst[0] = '\0';
        return required ? bad(d, ARB_EFORMAT, path, "the header has no '%s' string", key) : ARB_OK;
    }
    if (n->kind != ARB_T_STR) return bad(d, ARB_EFORMAT, path, "'%s' is not a string", key);
    if (strlen(n->s) >= size) return bad(d, ARB_ELIMIT, path, "'%s' is longer than this field allows", key);
    memcpy(dst, n->s, strlen(n->s) + 1);
    return ARB_OK;
}

/* The "fair" map: scheme, commit, secret, contributions (binaries). */
static int raw_fair(arb_replay_header *h, const uint8_t **pp, const uint8_t *end, hdec *d)
{
    const uint8_t *p = *pp, *s, *v;
    uint32_t cnt, len, vlen;
    int is_bin, have = 0;
    arb_fair *f = &h->fair;
    if (arb_mp_rd_map(&p, end, &cnt)) return bad(d, ARB_EFORMAT, "fair", "'%s' is not a map", "fair");
    for (uint32_t i = 0; i < cnt; i++) {
        if (arb_mp_rd_str(&p, end, &s, &len, &is_bin) || is_bin)
            return bad(d, ARB_EFORMAT, "fair", "a key of '%s' is not a string", "fair");
        if (len == 6 && memcmp(s, "scheme", 6) == 0) {
            if (arb_mp_rd_str(&p, end, &v, &vlen, &is_bin) || is_bin)
                return bad(d, ARB_EFORMAT, "fair.scheme", "'%s' is not a string", "fair.scheme");
            if (vlen != strlen(ARB_FAIR_SCHEME) || memcmp(v, ARB_FAIR_SCHEME, vlen) != 0) {
                arb_error_where(d->err, "%s: header key 'fair.scheme'", d->name);
                return arb_error_set(d->err, ARB_EUNSUPPORTED, NULL, "fair-seed scheme is not %s", ARB_FAIR_SCHEME);
            }
            have |= 1;
        } else if ((len == 6 && memcmp(s, "commit", 6) == 0) || (len == 6 && memcmp(s, "secret", 6) == 0)) {
            int commit = s[0] == 'c';
            const char *k = commit ? "fair.commit" : "fair.secret";
            if (arb_mp_rd_str(&p, end, &v, &vlen, &is_bin) || !is_bin || vlen != 32)
                return bad(d, ARB_EFORMAT, k, "'%s' is not a 32-byte binary", k);
            memcpy(commit ? f->commit : f->secret, v, 32);
            have |= commit ? 2 : 4;
        } else if (len == 13 && memcmp(s, "contributions", 13) == 0) {
            uint32_t n;
            if (arb_mp_rd_array(&p, end, &n) || n < 1 || n > ARB_MAX_SEATS)
                return bad(d, ARB_EFORMAT, "fair.contributions", "'%s' is not an array of 1 to 4 entries",
                           "fair.contributions");
            for (uint32_t k = 0; k < n; k++) {
                if (arb_mp_rd_str(&p, end, &v, &vlen, &is_bin) || !is_bin || vlen < 1 || vlen > ARB_FAIR_CONTRIB_MAX)
                    return bad(d, ARB_EFORMAT, "fair.contributions",
                               "an entry of '%s' is not a binary of 1 to 64 bytes", "fair.contributions");
                f->len[k] = (uint8_t)vlen;
                memcpy(f->contrib[k], v, vlen);
            }
            f->n = (int)n;
            have |= 8;
        } else if (arb_replay__mp_skip(&p, end)) {
            return bad(d, ARB_EFORMAT, "fair", "a malformed value in '%s'", "fair");
        }
    }
    if (have != 15)
        return bad(d, ARB_EFORMAT, "fair", "'%s' needs scheme, commit, secret and contributions", "fair");
    h->has_fair = 1;
    *pp = p;
    return ARB_OK;
}

/* Raw top-level values the tree cannot hold exactly: uint64 seed, binaries. */
static int raw_fields(arb_replay_header *h, const uint8_t *p, size_t n, hdec *d, int *has_seed)
{
    const uint8_t *end = p + n, *s;
    uint32_t cnt, len;
    int is_bin;
    if (arb_mp_rd_map(&p, end, &cnt)) return bad(d, ARB_EFORMAT, "", "%sthe header is not a map", "");
    for (uint32_t i = 0; i < cnt; i++) {
        if (arb_mp_rd_str(&p, end, &s, &len, &is_bin) || is_bin)
            return bad(d, ARB_EFORMAT, "", "%sa header key is not a string", "");
        if (len == 4 && memcmp(s, "seed", 4) == 0) {
            if (arb_mp_rd_u64(&p, end, &h->seed))
                return bad(d, ARB_EFORMAT, "seed", "'%s' is not an unsigned integer", "seed");
            *has_seed = 1;
            continue;
        }
        int salt = len == 4 && memcmp(s, "salt", 4) == 0;
        int commit = len == 6 && memcmp(s, "commit", 6) == 0;
        if (salt || commit) {
            const uint8_t *v;
            uint32_t vlen;
            const char *k = salt ? "salt" : "commit";
            if (arb_mp_rd_str(&p, end, &v, &vlen, &is_bin) || !is_bin)
                return bad(d, ARB_EFORMAT, k, "'%s' is not a binary", k);
            if (salt) {
                if (vlen < 1 || vlen > ARB_REPLAY_SALT_MAX)
                    return bad(d, ARB_ELIMIT, k, "'%s' must be 1 to 64 bytes", k);
                memcpy(h->salt, v, vlen);
                h->salt_len = vlen;
            } else {
                if (vlen != ARB_REPLAY_COMMIT_BYTES) return bad(d, ARB_EFORMAT, k, "'%s' must be 32 bytes", k);
                memcpy(h->commit, v, vlen);
                h->has_commit = 1;
            }
            continue;
        }
        if (len == 4 && memcmp(s, "fair", 4) == 0) {
            int rc = raw_fair(h, &p, end, d);
            if (rc) return rc;
            continue;
        }
        if (arb_replay__mp_skip(&p, end)) return bad(d, ARB_EFORMAT, "", "%smalformed header value", "");
    }
    return ARB_OK;
}

static int header_decode(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                         const arb_replay_limits *lim, const char *name, arb_error *err);
static int header_decode_after_strict(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                                      const arb_replay_limits *lim, const char *name, arb_error *err,
                                      arb_replay__decks *dk);

/* Strictness over the header as stored (#15): duplicate keys at any
 * level, non-string keys and invalid UTF-8 are refused, naming the key
 * path and the decompressed offset. canon: the bytes are version 2's
 * header translated to the canonical map (offsets are then not the file's). */
static int header_strict_at(const uint8_t *p, size_t n, const char *name, int v2, int canon, arb_error *err)
{
    char msg[ARB_MSG_MAX];
    size_t off = 0;
    int rc = arb_replay__header_strict(p, n, canon ? 2 : v2, &off, msg, sizeof msg);
    if (!rc) return ARB_OK;
    if (canon) arb_error_where(err, "%s: header (translated from version 2)", name);
    else arb_error_where(err, "%s: decompressed offset %zu (header)", name, off);
    return arb_error_set(err, rc == -2 ? ARB_ENOMEM : ARB_EFORMAT, NULL, "%s", msg);
}

/* The common version-2 header (FORMAT.md §B.2) straight into h, without
 * the canonical map and its tree: exactly 7 fields, a game this build has,
 * every player a preset index, options of integers, no extra keys. It
 * fills what header_translate2 + header_decode would (the tree aside) and
 * refuses nothing: any other shape, and anything those would refuse,
 * returns 0 with h and dk as they came, for the full decoder to handle
 * (and to name). Called once the strict checks passed. */
static int header_fast2(arb_replay_header *h, const uint8_t *p, size_t n, const arb_replay_limits *lim,
                        arb_replay__decks *dk)
{
    const uint8_t *end = p + n;
    uint32_t cnt, np, no, ne;
    char game[32], rules[32], started[40] = "";
    uint64_t seed, t;
    if (arb_mp_rd_array(&p, end, &cnt) || cnt != 7 || t_str(&p, end, game, sizeof game) ||
        t_str(&p, end, rules, sizeof rules) || arb_mp_rd_u64(&p, end, &seed))
        return 0;
    const arb_game *pool = arb_game_find(game);
    if (!pool) return 0;
    if (p < end && *p == 0xc0) p++;
    else {
        const uint8_t *q = p;
        if (!arb_mp_rd_u64(&q, end, &t)) {
            if (t > 253402300799ULL) return 0;
            arb_replay__iso(started, sizeof started, t);
            p = q;
        } else if (t_str(&p, end, started, sizeof started))
            return 0;
    }
    if (arb_mp_rd_array(&p, end, &np) || np < 1 || np > ARB_MAX_SEATS || np > lim->max_players) return 0;
    const arb_deck *pd[ARB_MAX_SEATS];
    for (uint32_t s = 0; s < np; s++) {
        uint64_t idx;
        if (arb_mp_rd_u64(&p, end, &idx) || idx >= pool->npresets || !(pd[s] = pool->preset(pool, (unsigned)idx)))
            return 0;
        const arb_deck *d = pd[s];
        if (strlen(d->name) >= sizeof h->player[0].deck_name || d->ncards > lim->max_deck || d->nattrs > ARB_DECK_ATTRS)
            return 0;
        for (unsigned a = 0; a < d->nattrs; a++)
            if (strlen(d->attrs[a].key) >= sizeof h->player[0].attrs[0].key ||
                strlen(d->attrs[a].value) >= sizeof h->player[0].attrs[0].value)
                return 0;
    }
    /* options: a map of at most ARB_OPTIONS_MAX integers under short keys */
    arb_options opt;
    memset(&opt, 0, sizeof opt);
    if (p >= end || !((*p & 0xf0) == 0x80 || *p == 0xde || *p == 0xdf) || arb_mp_rd_map(&p, end, &no) ||
        no > ARB_OPTIONS_MAX)
        return 0;
    for (uint32_t k = 0; k < no; k++) {
        char key[sizeof opt.kv[0].key];
        int64_t v;
        if (t_str(&p, end, key, sizeof key) || (p < end && *p == 0xcf) || arb_mp_rd_int(&p, end, &v) ||
            arb_options_set(&opt, key, v))
            return 0;
    }
    if (arb_mp_rd_map(&p, end, &ne) || ne != 0 || p != end) return 0;
    /* the shape holds: fill h as the full decoder would */
    arb_text_copy(h->format, sizeof h->format, ARB_REPLAY_FORMAT_2);
    arb_text_copy(h->game, sizeof h->game, game);
    arb_text_copy(h->rules, sizeof h->rules, rules);
    arb_text_copy(h->rng, sizeof h->rng, ARB_RNG_NAME);
    arb_text_copy(h->hash, sizeof h->hash, ARB_HASH_NAME);
    arb_text_copy(h->started, sizeof h->started, started);
    h->seed = seed;
    h->players = (int)np;
    h->options = opt;
    if (dk) {
        memset(dk, 0, sizeof *dk);
        dk->pool = pool;
    }
    for (uint32_t s = 0; s < np; s++) {
        arb_replay_player *P = &h->player[s];
        const arb_deck *d = pd[s];
        P->name[0] = 'P';
        P->name[1] = (char)('1' + s);
        P->name[2] = '\0';
        arb_text_copy(P->deck_name, sizeof P->deck_name, d->name);
        arb_text_copy(P->preset, sizeof P->preset, d->name);
        for (unsigned i = 0; i < d->ncards; i++) P->cards[i] = pool->card(pool, d->cards[i])->id;
        P->ncards = d->ncards;
        for (unsigned a = 0; a < d->nattrs; a++) {
            arb_text_copy(P->attrs[a].key, sizeof P->attrs[0].key, d->attrs[a].key);
            arb_text_copy(P->attrs[a].value, sizeof P->attrs[0].value, d->attrs[a].value);
        }
        P->nattrs = d->nattrs;
        deck_idx(dk, s, d->cards, d->ncards);
    }
    h->size = n;
    return 1;
}

int arb_replay__header_decode_lazy(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                                   const arb_replay_limits *lim, const char *name, arb_error *err,
                                   arb_replay__decks *dk, int *no_tree)
{
    *no_tree = 0;
    if (h->version != 2) return arb_replay__header_decode(h, t, p, n, lim, name, err, dk);
    int rc = header_strict_at(p, n, name, 1, 0, err);
    if (rc) {
        if (dk) memset(dk, 0, sizeof *dk);
        return rc;
    }
    if (header_fast2(h, p, n, lim, dk)) {
        *no_tree = 1;
        return ARB_OK;
    }
    return header_decode_after_strict(h, t, p, n, lim, name, err, dk);
}

int arb_replay__header_decode(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                              const arb_replay_limits *lim, const char *name, arb_error *err,
                              arb_replay__decks *dk)
{
    if (dk) memset(dk, 0, sizeof *dk);
    int rc = header_strict_at(p, n, name, h->version == 2, 0, err);
    if (rc) return rc;
    return header_decode_after_strict(h, t, p, n, lim, name, err, dk);
}

/* arb_replay__header_decode past its strict checks over the stored bytes. */
static int header_decode_after_strict(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                                      const arb_replay_limits *lim, const char *name, arb_error *err,
                                      arb_replay__decks *dk)
{
    int rc;
    if (dk) memset(dk, 0, sizeof *dk);
    if (h->version != 2) return header_decode(h, t, p, n, lim, name, err);
    arb_mpbuf o = { 0 };
    rc = header_translate2(p, n, &o, name, err, dk);
    if (!rc) rc = header_strict_at(o.p, o.n, name, 0, 1, err);
    if (!rc) rc = header_decode(h, t, o.p, o.n, lim, name, err);
    /* the indices stand for exactly the IDs the header now lists */
    for (int s = 0; dk && s < ARB_MAX_SEATS; s++)
        if (rc || s >= h->players || h->player[s].ncards != dk->n[s]) dk->have[s] = 0;
    h->size = n;
    arb_replay__mp_free(&o);
    return rc;
}

/* "players.<seat><suffix>" (a key path for messages), without printf. */
static void seat_path(char *path, size_t size, int seat, const char *suffix)
{
    char buf[96], d[12];
    size_t n = arb_text_copy(buf, sizeof buf, "players."), k = sizeof d;
    unsigned v = (unsigned)seat;
    do d[--k] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    memcpy(buf + n, d + k, sizeof d - k);
    n += sizeof d - k;
    arb_text_copy(buf + n, sizeof buf - n, suffix);
    arb_text_copy(path, size, buf);
}

static int header_decode(arb_replay_header *h, arb_tree *t, const uint8_t *p, size_t n,
                         const arb_replay_limits *lim, const char *name, arb_error *err)
{
    hdec d = { name, err };
    char path[64];
    const uint8_t *q = p;
    arb_tnode *root = arb_tree_root(t);
    /* The root is a map already: decode the entries into it. */
    {
        uint32_t cnt, len;
        const uint8_t *s;
        int is_bin;
        if (arb_mp_rd_map(&q, p + n, &cnt)) return bad(&d, ARB_EFORMAT, "", "%sthe first object of the stream is not the header map", "");
        for (uint32_t i = 0; i < cnt; i++) {
            char k[256];
            if (arb_mp_rd_str(&q, p + n, &s, &len, &is_bin) || is_bin || len >= sizeof k || memchr(s, 0, len))
                return bad(&d, ARB_EFORMAT, "", "%sa header key is not a short string", "");
            memcpy(k, s, len);
            k[len] = '\0';
            if (arb_replay__mp_to_tree(&q, p + n, t, root, k, 1))
                return bad(&d, ARB_EFORMAT, k, "the value of '%s' is malformed", k);
        }
    }
    if (arb_tree_failed(t)) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading the header");
    h->tree = root;
    h->size = n;
    int has_seed = 0, rc;
    if ((rc = raw_fields(h, p, n, &d, &has_seed))) return rc;
    if (!has_seed) return bad(&d, ARB_EFORMAT, "seed", "the header has no '%s' unsigned integer", "seed");
    if (h->has_commit && !h->salt_len)
        return bad(&d, ARB_EFORMAT, "salt", "'commit' is present without its '%s'", "salt");
    int v2 = h->version == 2;
    const char *want = v2 ? ARB_REPLAY_FORMAT_2 : ARB_REPLAY_FORMAT;
    if ((rc = get_str(&d, root, "format", "format", h->format, sizeof h->format, !v2))) return rc;
    if (!h->format[0]) arb_text_copy(h->format, sizeof h->format, want);
    if (strcmp(h->format, want) != 0) {
        arb_error_where(err, "%s: header key 'format'", name);
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "header format '%s' is not %s", h->format, want);
    }
    if ((rc = get_str(&d, root, "game", "game", h->game, sizeof h->game, 1))) return rc;
    if ((rc = get_str(&d, root, "rules", "rules", h->rules, sizeof h->rules, 1))) return rc;
    if ((rc = get_str(&d, root, "rng", "rng", h->rng, sizeof h->rng, !v2))) return rc;
    if ((rc = get_str(&d, root, "hash", "hash", h->hash, sizeof h->hash, 0))) return rc;
    if (v2 && !h->rng[0]) arb_text_copy(h->rng, sizeof h->rng, ARB_RNG_NAME);
    if (v2 && !h->hash[0]) arb_text_copy(h->hash, sizeof h->hash, ARB_HASH_NAME);
    if ((rc = get_str(&d, root, "engine", "engine", h->engine, sizeof h->engine, 0))) return rc;
    const arb_tnode *stn = arb_tnode_get(root, "started");
    if (!(v2 && stn && stn->kind == ARB_T_NULL) &&
        (rc = get_str(&d, root, "started", "started", h->started, sizeof h->started, 0)))
        return rc;

    const arb_tnode *pl = arb_tnode_get(root, "players");
    if (!pl || pl->kind != ARB_T_ARR) return bad(&d, ARB_EFORMAT, "players", "the header has no '%s' array", "players");
    if (pl->n < 1 || pl->n > lim->max_players)
        return bad(&d, ARB_ELIMIT, "players", "'%s' must hold 1 to max_players entries", "players");
    h->players = (int)pl->n;
    int seat = 0;
    for (const arb_tnode *m = pl->first; m; m = m->next, seat++) {
        arb_replay_player *P = &h->player[seat];
        seat_path(path, sizeof path, seat, "");
        if (m->kind != ARB_T_MAP) return bad(&d, ARB_EFORMAT, path, "%s is not a map", path);
        seat_path(path, sizeof path, seat, ".name");
        if ((rc = get_str(&d, m, "name", path, P->name, sizeof P->name, 0))) return rc;
        if (!P->name[0]) snprintf(P->name, sizeof P->name, "P%d", seat + 1);
        seat_path(path, sizeof path, seat, ".deck_name");
        if ((rc = get_str(&d, m, "deck_name", path, P->deck_name, sizeof P->deck_name, 0))) return rc;
        if (v2) {
            const arb_tnode *pr = arb_tnode_get(m, "preset");
            if (pr && pr->kind == ARB_T_STR) arb_text_copy(P->preset, sizeof P->preset, pr->s);
        }
        const arb_tnode *deck = arb_tnode_get(m, "deck");
        seat_path(path, sizeof path, seat, ".deck");
        if (deck) {
            if (deck->kind != ARB_T_ARR) return bad(&d, ARB_EFORMAT, path, "%s is not an array", path);
            if (deck->n > lim->max_deck) return bad(&d, ARB_ELIMIT, path, "%s holds more cards than max_deck", path);
            for (const arb_tnode *c = deck->first; c; c = c->next) {
                if (c->kind != ARB_T_STR) return bad(&d, ARB_EFORMAT, path, "%s holds a card ID that is not a string", path);
                P->cards[P->ncards++] = c->s;
            }
        }
        const arb_tnode *attrs = arb_tnode_get(m, "attrs");
        seat_path(path, sizeof path, seat, ".attrs");
        if (attrs) {
            if (attrs->kind != ARB_T_MAP) return bad(&d, ARB_EFORMAT, path, "%s is not a map", path);
            if (attrs->n > ARB_DECK_ATTRS) return bad(&d, ARB_ELIMIT, path, "%s has more than 4 attributes", path);
            for (const arb_tnode *a = attrs->first; a; a = a->next) {
                if (a->kind != ARB_T_STR) return bad(&d, ARB_EFORMAT, path, "%s holds a value that is not a string", path);
                if (strlen(a->key) >= sizeof P->attrs[0].key || strlen(a->s) >= sizeof P->attrs[0].value)
                    return bad(&d, ARB_ELIMIT, path, "%s holds an attribute too long for a deck", path);
                arb_text_copy(P->attrs[P->nattrs].key, sizeof P->attrs[0].key, a->key);
                arb_text_copy(P->attrs[P->nattrs].value, sizeof P->attrs[0].value, a->s);
                P->nattrs++;
            }
        }
    }
    const arb_tnode *opt = arb_tnode_get(root, "options");
    if (!opt) return bad(&d, ARB_EFORMAT, "options", "the header has no '%s' map (required, may be empty)", "options");
    {
        if (opt->kind != ARB_T_MAP) return bad(&d, ARB_EFORMAT, "options", "'%s' is not a map", "options");
        if (opt->n > ARB_OPTIONS_MAX) return bad(&d, ARB_ELIMIT, "options", "'%s' has more than 8 entries", "options");
        for (const arb_tnode *o = opt->first; o; o = o->next) {
            if (o->kind != ARB_T_INT && o->kind != ARB_T_BOOL)
                return bad(&d, ARB_EFORMAT, "options", "option '%s' is not an integer", o->key);
            if (arb_options_set(&h->options, o->key, o->i))
                return bad(&d, ARB_ELIMIT, "options", "option name '%s' is too long", o->key);
        }
    }
    if (h->has_fair && h->fair.n != h->players)
        return bad(&d, ARB_EFORMAT, "fair.contributions", "'%s' must hold one contribution per player",
                   "fair.contributions");
    const arb_tnode *pos = arb_tnode_get(root, "position");
    if (pos) {
        if (pos->kind != ARB_T_MAP) return bad(&d, ARB_EFORMAT, "position", "'%s' is not a map", "position");
        h->position = pos;
    }
    return ARB_OK;
}
