/* check_msgpack_interop.c — the replays arbiter writes are standard
 * MessagePack inside standard zlib: an independent decoder (msgpack-c, as a
 * third-party reader would use it) reads every game's recorded match and
 * finds the header keys FORMAT.md promises and one record per action,
 * checkpoint and outcome, in the counts the verifier reports. arbiter's own
 * reader is a separate, bounded decoder (src/replay/mpack.c); this test keeps
 * the two honest against each other. */
#include <check.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "arbiter/arbiter.h"
#include "arbiter/replay.h"

static unsigned char *inflate_file(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static unsigned char raw[1 << 20];
    size_t n = fread(raw, 1, sizeof raw, f);
    fclose(f);
    ck_assert_uint_gt(n, 8);
    ck_assert_int_eq(memcmp(raw, "TCGR", 4), 0);
    ck_assert_uint_eq(raw[4], ARB_REPLAY_VERSION_1);
    size_t cap = 1 << 22;
    unsigned char *out = malloc(cap);
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(inflateInit(&z), Z_OK);
    z.next_in = raw + 8;
    z.avail_in = (uInt)(n - 8);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    inflateEnd(&z);
    return out;
}

static int has_key(const msgpack_object *map, const char *key)
{
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object *k = &map->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(key) &&
            memcmp(k->via.str.ptr, key, k->via.str.size) == 0)
            return 1;
    }
    return 0;
}

START_TEST(every_game_reads_with_msgpack_c)
{
    const arb_game *g = arb_game_at((unsigned)_i);
    char path[] = "/tmp/arb-interop-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    arb_setup su = { 0 };
    su.seed = 99;
    su.players = g->max_players > 2 ? 3 : g->min_players;
    for (int s = 0; s < su.players; s++) su.decks[s] = g->preset(g, (unsigned)s % g->npresets);
    arb_error err = ARB_ERROR_INIT;
    arb_match *m;
    ck_assert_int_eq(arb_match_new(&m, g, &su, &err), ARB_OK);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    meta.started = "2026-11-29T00:00:00Z";
    meta.level = -1;
    meta.version = 1; /* msgpack-c reads the version-1 stream (all MessagePack) */
    arb_replay_writer *w;
    ck_assert_int_eq(arb_replay_writer_open(&w, path, &meta, &err), ARB_OK);
    ck_assert_int_eq(arb_replay_record_start(w, m, &err), ARB_OK);
    static arb_agent ag;
    uint64_t actions = 0;
    for (;;) {
        arb_decision d = arb_match_decision(m);
        if (d.seat == ARB_SEAT_NONE) break;
        arb_agent_init(&ag, ARB_AGENT_RANDOM, su.seed + actions, d.seat < 0 ? 0 : d.seat, 0);
        arb_action a;
        ck_assert_int_eq(arb_agent_choose(&ag, m, &a), ARB_OK);
        ck_assert_int_eq(arb_replay_record_step(w, m, &a, &err), ARB_OK);
        actions++;
    }
    ck_assert_int_eq(arb_replay_writer_close(w, &err), ARB_OK);
    arb_match_free(m);

    size_t len;
    unsigned char *buf = inflate_file(path, &len);
    msgpack_unpacker up;
    ck_assert(msgpack_unpacker_init(&up, len + 16));
    memcpy(msgpack_unpacker_buffer(&up), buf, len);
    msgpack_unpacker_buffer_consumed(&up, len);
    msgpack_unpacked res;
    msgpack_unpacked_init(&res);
    ck_assert_int_eq(msgpack_unpacker_next(&up, &res), MSGPACK_UNPACK_SUCCESS);
    ck_assert_int_eq(res.data.type, MSGPACK_OBJECT_MAP);
    static const char *keys[] = { "format", "game", "rules", "rng", "engine", "seed", "players", "options", "started" };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(has_key(&res.data, keys[k]), "%s: header has no '%s'", g->id, keys[k]);
    uint64_t n[3] = { 0, 0, 0 };
    int last = -1;
    while (msgpack_unpacker_next(&up, &res) == MSGPACK_UNPACK_SUCCESS) {
        ck_assert_int_eq(res.data.type, MSGPACK_OBJECT_ARRAY);
        ck_assert_uint_ge(res.data.via.array.size, 1);
        const msgpack_object *tag = &res.data.via.array.ptr[0];
        ck_assert_int_eq(tag->type, MSGPACK_OBJECT_POSITIVE_INTEGER);
        ck_assert_uint_le(tag->via.u64, 2);
        n[tag->via.u64]++;
        last = (int)tag->via.u64;
        if (tag->via.u64 == ARB_REC_ACTION) ck_assert_uint_ge(res.data.via.array.size, 4);
    }
    ck_assert_uint_eq(n[ARB_REC_ACTION], actions);
    ck_assert_uint_eq(n[ARB_REC_OUTCOME], 1);
    ck_assert_int_eq(last, ARB_REC_OUTCOME);
    arb_verify_result vr;
    ck_assert_int_eq(arb_replay_verify_file(path, NULL, &vr, &err), ARB_OK);
    ck_assert_uint_eq(vr.status.actions, n[ARB_REC_ACTION]);
    ck_assert_uint_eq(vr.status.checkpoints, n[ARB_REC_CHECKPOINT]);
    msgpack_unpacked_destroy(&res);
    msgpack_unpacker_destroy(&up);
    free(buf);
    unlink(path);
}
END_TEST

int main(void)
{
    if (arb_game_count() == 0) return EXIT_SUCCESS;
    Suite *s = suite_create("msgpack-interop");
    TCase *t = tcase_create("interop");
    tcase_add_loop_test(t, every_game_reads_with_msgpack_c, 0, (int)arb_game_count());
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
