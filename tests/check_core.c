/* check_core.c — unit tests of libarbiter's core: PRNG vectors, bounds and
 * shuffle uniformity, the canonical hasher, errors, the state tree, the
 * action text syntax and options. The PRNG vectors were computed with an
 * independent Python implementation of the algorithm documented in rng.h. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "arbiter/arbiter.h"
#include "arbiter/plugin.h"

/* ---- PRNG ---------------------------------------------------------------- */

START_TEST(rng_vectors)
{
    static const struct { uint64_t seed, out[4]; } v[] = {
        { 0, { 0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL, 0x6aa594f1262d2d2cULL } },
        { 1, { 0xb3f2af6d0fc710c5ULL, 0x853b559647364ceaULL, 0x92f89756082a4514ULL, 0x642e1c7bc266a3a7ULL } },
        { 0xdeadbeef, { 0xc5555444a74d7e83ULL, 0x65c30d37b4b16e38ULL, 0x54f773200a4efa23ULL, 0x429aed75fb958af7ULL } },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        arb_rng r;
        arb_rng_seed(&r, v[i].seed);
        for (int k = 0; k < 4; k++) ck_assert_uint_eq(arb_rng_next(&r), v[i].out[k]);
    }
}
END_TEST

START_TEST(rng_below_vectors)
{
    static const uint32_t n[] = { 1, 2, 3, 6, 10, 40, 1000, 0xffffffffu };
    static const uint32_t want[] = { 0, 0, 2, 5, 9, 30, 719, 3650758466u };
    arb_rng r;
    arb_rng_seed(&r, 42);
    for (size_t i = 0; i < 8; i++) ck_assert_uint_eq(arb_rng_below(&r, n[i]), want[i]);
}
END_TEST

START_TEST(rng_shuffle_vector)
{
    int a[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    static const int want[10] = { 1, 8, 3, 0, 4, 5, 9, 6, 2, 7 };
    arb_rng r;
    arb_rng_seed(&r, 7);
    arb_rng_shuffle(&r, a, 10, sizeof a[0]);
    for (int i = 0; i < 10; i++) ck_assert_int_eq(a[i], want[i]);
}
END_TEST

START_TEST(rng_below_bounds)
{
    arb_rng r;
    arb_rng_seed(&r, 123);
    for (uint32_t n = 1; n < 300; n++)
        for (int k = 0; k < 50; k++) ck_assert_uint_lt(arb_rng_below(&r, n), n);
    /* A copy of the state continues identically (clone semantics). */
    arb_rng c = r;
    for (int k = 0; k < 100; k++) ck_assert_uint_eq(arb_rng_next(&r), arb_rng_next(&c));
}
END_TEST

/* Every permutation position of a 4-element shuffle is equally likely: the
 * chi-square over 4x4 (position, value) cells with 9 degrees of freedom
 * must stay below 27.88 (p = 0.001), over 40,000 seeds. */
START_TEST(rng_shuffle_uniform)
{
    enum { N = 4, TRIALS = 40000 };
    unsigned counts[N][N] = { { 0 } };
    for (uint64_t s = 0; s < TRIALS; s++) {
        arb_rng r;
        arb_rng_seed(&r, s);
        int a[N] = { 0, 1, 2, 3 };
        arb_rng_shuffle(&r, a, N, sizeof a[0]);
        for (int p = 0; p < N; p++) counts[p][a[p]]++;
    }
    double expect = TRIALS / (double)N, chi = 0;
    for (int p = 0; p < N; p++)
        for (int v = 0; v < N; v++) {
            double d = counts[p][v] - expect;
            chi += d * d / expect;
        }
    ck_assert_msg(chi < 27.88, "chi-square %.2f over the 0.001 threshold", chi);
    /* The full permutation distribution too: 24 cells, 23 df, p=0.001 → 49.73. */
    unsigned perm[256] = { 0 };
    for (uint64_t s = 0; s < TRIALS; s++) {
        arb_rng r;
        arb_rng_seed(&r, s + 1000000);
        int a[N] = { 0, 1, 2, 3 };
        arb_rng_shuffle(&r, a, N, sizeof a[0]);
        perm[a[0] * 64 + a[1] * 16 + a[2] * 4 + a[3]]++;
    }
    double pe = TRIALS / 24.0, pchi = 0;
    int cells = 0;
    for (int i = 0; i < 256; i++)
        if (perm[i]) { double d = perm[i] - pe; pchi += d * d / pe; cells++; }
    ck_assert_int_eq(cells, 24);
    ck_assert_msg(pchi < 49.73, "permutation chi-square %.2f", pchi);
}
END_TEST

/* ---- hasher -------------------------------------------------------------- */

START_TEST(hash_little_endian)
{
    arb_hasher h;
    arb_hasher_init(&h);
    arb_hasher_u32(&h, 0x04030201u);
    arb_hasher_u16(&h, 0x0605);
    arb_hasher_u8(&h, 7);
    arb_hasher_i32(&h, -1);
    const uint8_t bytes[] = { 1, 2, 3, 4, 5, 6, 7, 0xff, 0xff, 0xff, 0xff };
    ck_assert_uint_eq(arb_hasher_final(&h), XXH3_64bits(bytes, sizeof bytes));
    ck_assert_uint_eq(arb_hash64(bytes, sizeof bytes), XXH3_64bits(bytes, sizeof bytes));
}
END_TEST

START_TEST(hash_order_and_determinism)
{
    arb_hasher a, b, c;
    arb_hasher_init(&a); arb_hasher_init(&b); arb_hasher_init(&c);
    arb_hasher_u32(&a, 1); arb_hasher_u32(&a, 2);
    arb_hasher_u32(&b, 1); arb_hasher_u32(&b, 2);
    arb_hasher_u32(&c, 2); arb_hasher_u32(&c, 1);
    uint64_t ha = arb_hasher_final(&a), hb = arb_hasher_final(&b), hc = arb_hasher_final(&c);
    ck_assert_uint_eq(ha, hb);
    ck_assert_uint_ne(ha, hc);
    /* Strings are length-prefixed: "ab"+"c" differs from "a"+"bc". */
    arb_hasher_init(&a); arb_hasher_init(&b);
    arb_hasher_str(&a, "ab"); arb_hasher_str(&a, "c");
    arb_hasher_str(&b, "a"); arb_hasher_str(&b, "bc");
    ck_assert_uint_ne(arb_hasher_final(&a), arb_hasher_final(&b));
}
END_TEST

START_TEST(hash_streaming_matches_oneshot)
{
    /* Past one buffer the hasher streams; the digest must not change. */
    enum { N = 3 * ARB_HASHER_BUF + 17 };
    uint8_t *buf = malloc(N);
    for (size_t i = 0; i < N; i++) buf[i] = (uint8_t)(i * 31 + 7);
    arb_hasher h;
    arb_hasher_init(&h);
    for (size_t i = 0; i < N; i += 5) arb_hasher_bytes(&h, buf + i, i + 5 <= N ? 5 : N - i);
    ck_assert_uint_eq(arb_hasher_final(&h), XXH3_64bits(buf, N));
    /* Every length around the spills (the state kept inside buf), through
     * the inline writers, a large write and a hasher reused after final. */
    static const size_t lens[] = { 0, 1, ARB_HASHER_BUF - 1, ARB_HASHER_BUF, ARB_HASHER_BUF + 1,
                                   2 * ARB_HASHER_BUF - 1000, 2 * ARB_HASHER_BUF + 3, N };
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        size_t n = lens[k], i = 0;
        arb_hasher_init(&h);
        for (; i + 8 <= n / 2; i += 8) {
            uint64_t v = 0;
            for (int b = 0; b < 8; b++) v |= (uint64_t)buf[i + (size_t)b] << (8 * b);
            arb_hasher_u64(&h, v);
        }
        for (; i < n / 2 + (n > 2); i++) arb_hasher_u8(&h, buf[i]);
        arb_hasher_bytes(&h, buf + i, n - i);
        ck_assert_msg(arb_hasher_final(&h) == XXH3_64bits(buf, n), "length %zu", n);
        ck_assert_ptr_null(h.xxh);
    }
    free(buf);
}
END_TEST

/* Public entry points refuse arguments the contract forbids (ARB_ASSERT_ARG)
 * with ARB_EINVAL naming the check, where they used to dereference them. */
START_TEST(entry_args)
{
    arb_error e = ARB_ERROR_INIT;
    arb_setup su;
    memset(&su, 0, sizeof su);
    arb_match *m = (arb_match *)&su;
    ck_assert_int_eq(arb_match_new(&m, NULL, &su, &e), ARB_EINVAL);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(e.msg, "invalid argument: g != NULL && su != NULL is false");
    ck_assert_int_eq(arb_match_new(&m, arb_game_at(0), NULL, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_match_new(NULL, arb_game_at(0), &su, NULL), ARB_EINVAL);
    ck_assert_int_eq(arb_match_from_position(&m, arb_game_at(0), NULL, &su, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_match_apply(NULL, NULL, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_match_clone(&m, NULL), ARB_EINVAL);
    ck_assert_int_eq(arb_game_register(NULL, &e), ARB_EINVAL);
}
END_TEST

/* ---- errors -------------------------------------------------------------- */

START_TEST(error_format)
{
    arb_error e = ARB_ERROR_INIT;
    char buf[512];
    ck_assert_int_eq(arb_error_set(&e, ARB_EILLEGAL, "NAR-LIMIT-ROSTER", "Roster holds %d Personnel", 7),
                     ARB_EILLEGAL);
    arb_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "NAR-LIMIT-ROSTER: Roster holds 7 Personnel");
    arb_error_where(&e, "%s: offset %d", "m.tcgr", 1234);
    arb_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "m.tcgr: offset 1234: NAR-LIMIT-ROSTER: Roster holds 7 Personnel");
    arb_error_set(&e, ARB_ETRUNC, NULL, "%s", "");
    e.where[0] = '\0';
    arb_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "truncated");
    /* Truncation is safe and reports the full length like snprintf. */
    arb_error_set(&e, ARB_EINVAL, "X", "0123456789");
    ck_assert_uint_eq(arb_error_format(&e, buf, 4), strlen("X: 0123456789"));
    ck_assert_str_eq(buf, "X: ");
    ck_assert_str_eq(arb_strerror(ARB_EVERIFY), "verification failed");
    arb_error_clear(&e);
    ck_assert_int_eq(e.code, 0);
    ck_assert_str_eq(e.rule, "");
}
END_TEST

/* ---- state tree ---------------------------------------------------------- */

static arb_tree *sample_tree(int core1)
{
    arb_tree *t = arb_tree_new();
    arb_tnode *r = arb_tree_root(t);
    arb_tree_add_str(t, r, "phase", "operations");
    arb_tnode *pl = arb_tree_add_arr(t, r, "players");
    for (int i = 0; i < 2; i++) {
        arb_tnode *p = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_int(t, p, "core", i ? core1 : 1420);
        arb_tree_add_bool(t, p, "scram_used", 0);
        arb_tnode *h = arb_tree_add_arr(t, p, "hand");
        for (int k = 0; k < 3; k++) arb_tree_add_int(t, h, NULL, k + i);
    }
    return t;
}

typedef struct { int n; char paths[8][64]; } diffs;
static int collect(void *ctx, const char *path, const arb_tnode *a, const arb_tnode *b)
{
    (void)a; (void)b;
    diffs *d = ctx;
    if (d->n < 8) snprintf(d->paths[d->n], 64, "%s", path);
    d->n++;
    return 0;
}

START_TEST(tree_paths_json_diff)
{
    arb_tree *a = sample_tree(1420), *b = sample_tree(1570);
    const arb_tnode *n = arb_tnode_path(arb_tree_root(a), "players.1.core");
    ck_assert_ptr_nonnull(n);
    ck_assert_int_eq(n->kind, ARB_T_INT);
    ck_assert_int_eq(n->i, 1420);
    ck_assert_ptr_null(arb_tnode_path(arb_tree_root(a), "players.2.core"));
    ck_assert_ptr_null(arb_tnode_path(arb_tree_root(a), "players.x"));
    ck_assert_ptr_null(arb_tnode_path(arb_tree_root(a), "nope"));
    ck_assert_int_eq(arb_tnode_path(arb_tree_root(a), "players.1.hand.2")->i, 3);

    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    arb_tnode_json(arb_tnode_path(arb_tree_root(a), "players.0"), f, 0);
    fclose(f);
    ck_assert_str_eq(out, "{\"core\":1420,\"scram_used\":false,\"hand\":[0,1,2]}");
    free(out);

    diffs d = { 0 };
    ck_assert_uint_eq(arb_tree_diff(arb_tree_root(a), arb_tree_root(b), collect, &d), 1);
    ck_assert_str_eq(d.paths[0], "players.1.core");
    ck_assert_uint_eq(arb_tree_diff(arb_tree_root(a), arb_tree_root(a), collect, &d), 0);
    ck_assert(!arb_tnode_equal(arb_tree_root(a), arb_tree_root(b)));

    /* Deep copy compares equal. */
    arb_tree *c = arb_tree_new();
    arb_tnode *cp = arb_tree_add_copy(c, arb_tree_root(c), "x", arb_tree_root(a));
    ck_assert(arb_tnode_equal(cp, arb_tree_root(a)));
    char buf[64];
    ck_assert_str_eq(arb_tnode_text(arb_tnode_path(cp, "players.0.hand"), buf, sizeof buf), "[0, 1, 2]");
    arb_tree_free(a);
    arb_tree_free(b);
    arb_tree_free(c);
    arb_tree_free(NULL);
}
END_TEST

START_TEST(tree_json_escapes)
{
    arb_tree *t = arb_tree_new();
    arb_tree_add_str(t, arb_tree_root(t), "s", "a\"b\\c\n\x01");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    arb_tnode_json(arb_tree_root(t), f, 0);
    fclose(f);
    ck_assert_str_eq(out, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\"}");
    free(out);
    arb_tree_free(t);
    /* C1 and bidirectional controls are escaped too; other UTF-8 (é, the
     * hyphen U+2010, the euro sign) is copied */
    t = arb_tree_new();
    arb_tree_add_str(t, arb_tree_root(t), "s", "\xe2\x80\xae" "A\xc2\x9b\xe2\x81\xa6\xd8\x9c\xc3\xa9\xe2\x80\x90\xe2\x82\xac");
    out = NULL;
    f = open_memstream(&out, &len);
    arb_tnode_json(arb_tree_root(t), f, 0);
    fclose(f);
    ck_assert_str_eq(out, "{\"s\":\"\\u202eA\\u009b\\u2066\\u061c\xc3\xa9\xe2\x80\x90\xe2\x82\xac\"}");
    free(out);
    arb_tree_free(t);
}
END_TEST

/* ---- options and deck attributes ----------------------------------------- */

START_TEST(options_and_attrs)
{
    arb_options o = { 0 };
    ck_assert_int_eq(arb_options_get(&o, "clock", 5), 5);
    ck_assert_int_eq(arb_options_set(&o, "clock", 1), ARB_OK);
    ck_assert_int_eq(arb_options_set(&o, "clock", 0), ARB_OK);
    ck_assert_int_eq(o.n, 1);
    ck_assert_int_eq(arb_options_get(&o, "clock", 5), 0);
    for (int i = 1; i < ARB_OPTIONS_MAX; i++) {
        char k[8];
        snprintf(k, sizeof k, "k%u", (unsigned)i % 100u);
        ck_assert_int_eq(arb_options_set(&o, k, i), ARB_OK);
    }
    ck_assert_int_eq(arb_options_set(&o, "one-too-many", 1), ARB_ELIMIT);
    ck_assert_int_eq(arb_options_set(&o, "a-key-that-is-far-too-long-to-fit", 1), ARB_EINVAL);

    arb_deck d = { 0 };
    ck_assert_ptr_null(arb_deck_attr_get(&d, "bloc"));
    ck_assert_int_eq(arb_deck_attr_set(&d, "bloc", "DEFENSE"), ARB_OK);
    ck_assert_str_eq(arb_deck_attr_get(&d, "BLOC"), "DEFENSE");
}
END_TEST

/* ---- a tiny game for the action syntax ----------------------------------- */

static const arb_verb tverbs[] = {
    { "pass", 0, 0, "", "do nothing" },
    { "play", 1, 2, "UID [SEAT]", "play a card" },
    { "timeout", 0, 0, "", "clock ran out" },
};

START_TEST(action_parse_format)
{
    arb_game g = { 0 };
    g.id = "test";
    g.verbs = tverbs;
    g.nverbs = 3;
    arb_action a;
    arb_error e = ARB_ERROR_INIT;
    char buf[128];
    ck_assert_int_eq(arb_action_parse(&g, "1 play 17", &a, &e), ARB_OK);
    ck_assert_int_eq(a.seat, 1);
    ck_assert_int_eq(a.verb, 1);
    ck_assert_int_eq(a.nargs, 1);
    ck_assert_int_eq(a.args[0], 17);
    ck_assert_uint_eq(a.elapsed_ms, 0);
    arb_action_format(&g, &a, buf, sizeof buf);
    ck_assert_str_eq(buf, "1 play 17");

    ck_assert_int_eq(arb_action_parse(&g, "  +91000 arbiter timeout  # late", &a, &e), ARB_OK);
    ck_assert_int_eq(a.seat, ARB_SEAT_ARBITER);
    ck_assert_uint_eq(a.elapsed_ms, 91000);
    arb_action_format(&g, &a, buf, sizeof buf);
    ck_assert_str_eq(buf, "+91000 arbiter timeout");

    ck_assert_int_eq(arb_action_parse(&g, "0 play 1 -1", &a, &e), ARB_OK);
    ck_assert_int_eq(a.args[1], -1);

    ck_assert_int_eq(arb_action_parse(&g, "0 fly", &a, &e), ARB_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "column 3"));
    ck_assert_ptr_nonnull(strstr(e.msg, "'fly'"));
    ck_assert_int_eq(arb_action_parse(&g, "7 pass", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_action_parse(&g, "0 play", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_action_parse(&g, "0 play 1 2 3", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_action_parse(&g, "0 play x", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_action_parse(&g, "0 play 99999999999", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_action_parse(&g, "+-5 0 pass", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_action_parse(&g, "", &a, &e), ARB_EINVAL);
    ck_assert_int_eq(arb_verb_find(&g, "play"), 1);
    ck_assert_int_eq(arb_verb_find(&g, "nope"), -1);
}
END_TEST


/* ---- deck files ---------------------------------------------------------- */

static const arb_card tcards[] = {
    { "coolant-pumps", "Coolant Pumps", "Facility", "Neutral", "" },
    { "gubby", "Gubby", "Incident", "Neutral", "" },
};
static const arb_card *tcard(const arb_game *g, unsigned i) { (void)g; return &tcards[i]; }

START_TEST(deck_parse)
{
    arb_game g = { 0 };
    g.id = "test";
    g.ncards = 2;
    g.card = tcard;
    arb_deck d;
    arb_error e = ARB_ERROR_INIT;
    const char *ok = "# a deck\nname: Test Deck\nbloc: DEFENSE\n3 Coolant Pumps  # three\n\n2 gubby\nGUBBY\n";
    ck_assert_int_eq(arb_deck_parse(&d, &g, ok, strlen(ok), "t.deck", &e), ARB_OK);
    ck_assert_str_eq(d.name, "Test Deck");
    ck_assert_str_eq(arb_deck_attr_get(&d, "bloc"), "DEFENSE");
    ck_assert_uint_eq(d.ncards, 6);
    ck_assert_uint_eq(d.cards[0], 0);
    ck_assert_uint_eq(d.cards[5], 1);

    const char *bad = "2 Coolant Pumps\n2 Coolant Pump\n";
    ck_assert_int_eq(arb_deck_parse(&d, &g, bad, strlen(bad), "t.deck", &e), ARB_ENOTFOUND);
    ck_assert_str_eq(e.where, "t.deck:2");
    const char *count = "0 Gubby\n";
    ck_assert_int_eq(arb_deck_parse(&d, &g, count, strlen(count), "t.deck", &e), ARB_EINVAL);
    ck_assert_str_eq(e.where, "t.deck:1");
    const char *nul = "1 Gubby\n1 Gu\0bby\n";
    ck_assert_int_eq(arb_deck_parse(&d, &g, nul, 18, "t.deck", &e), ARB_EINVAL);
    ck_assert_str_eq(e.where, "t.deck:2");
    /* More than ARB_DECK_MAX cards is refused, not overflowed. */
    char big[512] = "";
    for (int i = 0; i < 4; i++) strcat(big, "40 Gubby\n");
    ck_assert_int_eq(arb_deck_parse(&d, &g, big, strlen(big), "t.deck", &e), ARB_ELIMIT);
    ck_assert_str_eq(e.where, "t.deck:3");
    ck_assert_int_eq(arb_deck_parse(&d, &g, big, ARB_DECK_FILE_MAX + 1, "t.deck", &e), ARB_ELIMIT);
    ck_assert_int_eq(arb_deck_load(&d, &g, "/nonexistent/x.deck", &e), ARB_EIO);
    ck_assert_str_eq(e.where, "/nonexistent/x.deck");
}
END_TEST


/* ---- JSON reader --------------------------------------------------------- */

static int parse(const char *text, arb_tree **out, arb_error *e)
{
    *out = arb_tree_new();
    return arb_tree_parse_json(*out, arb_tree_root(*out), "v", text, strlen(text), e);
}

/* Maps are ordered (ADAPTER.md §5): arb_tree_order_differs finds the map
 * whose members come in another order, at any depth, where arb_tree_diff
 * sees no difference. */
START_TEST(tree_member_order)
{
    arb_tree *a, *b, *c;
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(parse("{\"p\":{\"x\":1,\"y\":[{\"a\":1,\"b\":2}]},\"q\":0}", &a, &e), ARB_OK);
    ck_assert_int_eq(parse("{\"p\":{\"x\":1,\"y\":[{\"b\":2,\"a\":1}]},\"q\":0}", &b, &e), ARB_OK);
    ck_assert_int_eq(parse("{\"q\":0,\"p\":{\"x\":1,\"y\":[{\"a\":1,\"b\":2}]}}", &c, &e), ARB_OK);
    ck_assert_uint_eq(arb_tree_diff(arb_tree_root(a), arb_tree_root(b), NULL, NULL), 0);
    char path[64];
    ck_assert_int_eq(arb_tree_order_differs(arb_tree_root(a), arb_tree_root(b), path, sizeof path), 1);
    ck_assert_str_eq(path, "v.p.y.0");
    ck_assert_int_eq(arb_tree_order_differs(arb_tree_root(a), arb_tree_root(c), path, sizeof path), 1);
    ck_assert_str_eq(path, "v");
    ck_assert_int_eq(arb_tree_order_differs(arb_tree_root(a), arb_tree_root(a), path, sizeof path), 0);
    ck_assert_str_eq(path, "");
    arb_tree_free(a);
    arb_tree_free(b);
    arb_tree_free(c);
}
END_TEST

START_TEST(json_reader)
{
    arb_tree *t;
    arb_error e = ARB_ERROR_INIT;
    ck_assert_int_eq(parse(" {\"a\": [1, -2, 9223372036854775807, -9223372036854775808], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\","
                           " \"t\": true, \"f\": false, \"n\": null, \"o\": {}} ", &t, &e), ARB_OK);
    const arb_tnode *v = arb_tnode_get(arb_tree_root(t), "v");
    ck_assert_int_eq(arb_tnode_path(v, "a.1")->i, -2);
    ck_assert_int_eq(arb_tnode_path(v, "a.2")->i, INT64_MAX);
    ck_assert_int_eq(arb_tnode_path(v, "a.3")->i, INT64_MIN);
    ck_assert_str_eq(arb_tnode_get(v, "s")->s, "x\xc3\xa9\xf0\x9f\x98\x80\n");
    ck_assert_int_eq(arb_tnode_get(v, "t")->kind, ARB_T_BOOL);
    ck_assert_int_eq(arb_tnode_get(v, "n")->kind, ARB_T_NULL);
    ck_assert_int_eq(arb_tnode_get(v, "o")->kind, ARB_T_MAP);
    arb_tree_free(t);

    static const struct { const char *text; const char *where; } bad[] = {
        { "{\"a\":1,}", "offset 7" },
        { "[1 2]", "offset 3" },
        { "{\"a\":1,\"a\":2}", "offset 7" },
        { "1.5", "offset 1" },
        { "9223372036854775808", "offset 0" },
        { "\"\\ud800\"", "offset 7" },
        { "\"a\\u0000b\"", "offset 8" },
        { "[1] x", "offset 4" },
        { "", "offset 0" },
        { "01", "offset 0" },
        { "\"tab\there\"", "offset 5" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(parse(bad[i].text, &t, &e) == ARB_EFORMAT, "accepted: %s", bad[i].text);
        ck_assert_msg(strcmp(e.where, bad[i].where) == 0, "%s: where '%s', want '%s'", bad[i].text, e.where, bad[i].where);
        arb_tree_free(t);
    }
    /* Depth is bounded. */
    char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 99);
    deep[199] = '\0';
    ck_assert_int_eq(parse(deep, &t, &e), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(e.msg, "nested too deeply"));
    arb_tree_free(t);
}
END_TEST

/* ---- registry ------------------------------------------------------------ */

START_TEST(registry_sorted_and_findable)
{
    unsigned n = arb_game_count();
    for (unsigned i = 0; i < n; i++) {
        const arb_game *g = arb_game_at(i);
        ck_assert_ptr_eq(arb_game_find(g->id), g);
        if (i) ck_assert_int_lt(strcmp(arb_game_at(i - 1)->id, g->id), 0);
        ck_assert_int_le(g->min_players, g->max_players);
        ck_assert_int_le(g->max_players, ARB_MAX_SEATS);
    }
    ck_assert_ptr_null(arb_game_at(n));
    ck_assert_ptr_null(arb_game_find("no-such-game"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core");
    TCase *t = tcase_create("rng");
    tcase_add_test(t, rng_vectors);
    tcase_add_test(t, rng_below_vectors);
    tcase_add_test(t, rng_shuffle_vector);
    tcase_add_test(t, rng_below_bounds);
    tcase_add_test(t, rng_shuffle_uniform);
    tcase_add_test(t, entry_args);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    t = tcase_create("hash");
    tcase_add_test(t, hash_little_endian);
    tcase_add_test(t, hash_order_and_determinism);
    tcase_add_test(t, hash_streaming_matches_oneshot);
    suite_add_tcase(s, t);
    t = tcase_create("misc");
    tcase_add_test(t, error_format);
    tcase_add_test(t, tree_paths_json_diff);
    tcase_add_test(t, tree_json_escapes);
    tcase_add_test(t, options_and_attrs);
    tcase_add_test(t, action_parse_format);
    tcase_add_test(t, registry_sorted_and_findable);
    tcase_add_test(t, deck_parse);
    tcase_add_test(t, json_reader);
    tcase_add_test(t, tree_member_order);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
