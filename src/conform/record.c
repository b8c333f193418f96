/* record.c — a case's action log as a .tcgr replay: recorded from the
 * case's seed or position through the replay writer, then verified by the
 * replay verifier, so every conformance case also proves the recorder and
 * verifier reproduce its final hash. The same writer saves failing cases
 * for judges (--save-failing). A case usually stops mid-match, so the log
 * ends with a checkpoint of the final state instead of an outcome, and the
 * verifier's "no outcome" on an unfinished match is the expected end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter/replay.h"
#include "conform/conform_int.h"

int arb_conform__record(const arb_conform_log *lg, const char *path, uint64_t *final_hash, arb_error *err)
{
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = lg->game;
    meta.setup = lg->setup;
    meta.position = lg->position;
    meta.level = -1;
    arb_match *m = NULL;
    int rc = lg->position ? arb_match_from_position(&m, lg->game, lg->position, lg->setup, err)
                          : arb_match_new(&m, lg->game, lg->setup, err);
    if (rc) return rc;
    arb_replay_writer *w = NULL;
    if ((rc = arb_replay_writer_open(&w, path, &meta, err))) goto out;
    if ((rc = arb_replay_record_start(w, m, err))) goto out;
    /* A checkpoint right after one is refused by readers (bounded work):
     * the final one only when the last action did not end a turn. */
    int cp_last = 1;
    for (size_t i = 0; i < lg->nactions; i++) {
        uint32_t t0 = arb_match_turn(m);
        if ((rc = arb_replay_record_step(w, m, &lg->actions[i], err))) goto out;
        cp_last = arb_match_turn(m) != t0;
    }
    arb_outcome o;
    if (!cp_last && !arb_match_outcome(m, &o) &&
        (rc = arb_replay_write_checkpoint(w, arb_match_turn(m), arb_match_hash(m), err)))
        goto out;
    if (final_hash) *final_hash = arb_match_hash(m);
    rc = arb_replay_writer_close(w, err);
    w = NULL;
out:
    arb_replay_writer_free(w);
    arb_match_free(m);
    return rc;
}

/* $TMPDIR, else /dev/shm when writable (a disk-backed /tmp costs
 * milliseconds of journal I/O per case), else /tmp. */
static const char *temp_root(void)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp) return tmp;
    if (access("/dev/shm", W_OK | X_OK) == 0) return "/dev/shm";
    return "/tmp";
}

int arb_conform__roundtrip(const arb_conform_log *lg, uint64_t want_hash, char *msg, size_t size)
{
    /* A private directory per case: the file is new (renaming over an
     * existing file makes ext4 flush it synchronously) and nobody else can
     * plant a link at its name. */
    char dir[512], path[600];
    const char *tmp = temp_root();
    snprintf(dir, sizeof dir, "%s/arbiter-conform-XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        snprintf(msg, size, "replay: cannot create a temporary directory in %s", tmp);
        return -1;
    }
    snprintf(path, sizeof path, "%s/case.tcgr", dir);
    arb_error err = ARB_ERROR_INIT;
    char eb[ARB_MSG_MAX + ARB_RULE_MAX + ARB_WHERE_MAX + 8];
    uint64_t h = 0;
    int bad = 0;
    if (arb_conform__record(lg, path, &h, &err)) {
        arb_error_format(&err, eb, sizeof eb);
        snprintf(msg, size, "replay: recording the case's %zu actions failed: %s", lg->nactions, eb);
        bad = 1;
    } else if (h != want_hash) {
        snprintf(msg, size, "replay: the recorded match ends at hash %016llx, the run at %016llx",
                 (unsigned long long)h, (unsigned long long)want_hash);
        bad = 1;
    } else {
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        vo.game = lg->game;
        arb_verify_result res;
        int rc = arb_replay_verify_file(path, &vo, &res, &err);
        int unfinished_ok = rc == ARB_EVERIFY && res.unfinished;
        if (rc != ARB_OK && !unfinished_ok) {
            arb_error_format(&err, eb, sizeof eb);
            snprintf(msg, size, "replay: the recorded case does not verify: %s: %s",
                     rc == ARB_EVERIFY ? arb_verify_kind_name(res.kind) : arb_strerror(rc),
                     rc == ARB_EVERIFY ? res.detail : eb);
            bad = 1;
        }
    }
    unlink(path);
    rmdir(dir);
    return bad ? -1 : 0;
}

typedef struct savectx {
    const char *path;
    arb_error *err;
    int rc, called;
} savectx;

static int save_cb(void *ctx, const arb_conform_log *lg)
{
    savectx *sc = ctx;
    sc->called = 1;
    sc->rc = arb_conform__record(lg, sc->path, NULL, sc->err);
    return sc->rc;
}

int arb_conform_save_case(const arb_conform_suite *s, unsigned result, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    ARB_ASSERT_ARG(err, path);
    savectx sc = { path, err, ARB_OK, 0 };
    int rc = arb_conform_case_log(s, result, save_cb, &sc, err);
    if (rc) return rc;
    if (!sc.called) return arb_error_set(err, ARB_ENOTFOUND, NULL, "case has no match to record (setup failed)");
    return sc.rc;
}
