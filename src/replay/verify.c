/* verify.c — the verifier: rebuild the match from the header (seeded setup
 * or explicit position) with the engine the header names, replay every
 * action, and compare every checkpoint and the outcome with what the engine
 * computes. It stops at the first divergence and says precisely where:
 * record index, turn, seat, the action as text, the rule ID the engine
 * cites, or the expected and computed hashes. An unknown game, rules
 * version, rng or hash is a refusal (ARB_EUNSUPPORTED), never a divergence.
 * The hot loop calls the engine's vtable directly with no event buffer. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/internal.h"
#include "arbiter/toolkit.h"

const char *arb_verify_kind_name(arb_verify_kind k)
{
    switch (k) {
    case ARB_DIV_NONE: return "none";
    case ARB_DIV_ILLEGAL: return "illegal-action";
    case ARB_DIV_CHECKPOINT_TURN: return "checkpoint-turn";
    case ARB_DIV_CHECKPOINT_HASH: return "checkpoint-hash";
    case ARB_DIV_MISSING_CHECKPOINT: return "missing-checkpoint";
    case ARB_DIV_OUTCOME: return "outcome";
    case ARB_DIV_FINAL_HASH: return "final-hash";
    case ARB_DIV_NOT_OVER: return "not-over";
    case ARB_DIV_NO_OUTCOME: return "no-outcome";
    case ARB_DIV_AFTER_OUTCOME: return "after-outcome";
    case ARB_DIV_COMMIT: return "commit";
    case ARB_DIV_SETUP: return "setup";
    case ARB_DIV_SIGNATURE: return "signature";
    case ARB_DIV_NOT_SEEDED: return "not-seeded";
    }
    return "unknown";
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int diverge(arb_verify_result *res, arb_error *err, const char *name, arb_verify_kind kind,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->detail, sizeof res->detail, fmt, ap);
    va_end(ap);
    res->kind = kind;
    res->code = ARB_EVERIFY;
    if (kind == ARB_DIV_SIGNATURE) arb_error_where(err, "%s: seal", name);
    else if (kind == ARB_DIV_COMMIT || kind == ARB_DIV_SETUP || kind == ARB_DIV_NOT_SEEDED) arb_error_where(err, "%s: header", name);
    else arb_error_where(err, "%s: record %" PRIu64 " (turn %" PRIu32 ")", name, res->record, res->turn);
    return arb_error_set(err, ARB_EVERIFY, res->rule[0] ? res->rule : NULL, "%s: %s",
                         arb_verify_kind_name(kind), res->detail);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int refuse(arb_error *err, const char *name, const char *fmt, ...)
{
    char msg[ARB_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    arb_error_where(err, "%s: header", name);
    return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "%s", msg);
}

static const char *reason_name(const arb_game *g, uint16_t r)
{
    return arb_game_reason_name(g, r);
}

static int verify_inner(arb_replay *r, const arb_verify_opts *opts, arb_verify_result *res, arb_error *err)
{
    memset(res, 0, sizeof *res);
    res->winner = -1;
    res->seat = ARB_SEAT_NONE;
    const arb_replay_header *h = arb_replay__header(r);
    res->seeded = h->position == NULL;
    snprintf(res->game, sizeof res->game, "%s", h->game);
    res->players = h->players;
    const arb_game *g = opts->game ? opts->game : arb_game_find(h->game);
    int rc;
    if (!g) {
        char known[160] = "";
        size_t used = 0;
        for (unsigned i = 0; i < arb_game_count() && used < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", arb_game_at(i)->id);
        res->code = refuse(err, arb_replay_name(r), "game '%s' is not compiled into this build (known: %s)", h->game,
                           known[0] ? known : "none");
        return res->code;
    }
    if (strcmp(g->id, h->game) != 0) {
        res->code = refuse(err, arb_replay_name(r), "the replay is a '%s' match; the verifier was given the '%s' engine",
                           h->game, g->id);
        return res->code;
    }
    if (arb_game_rules_index(g, h->rules) < 0) {
        res->code = refuse(err, arb_replay_name(r),
                           "recorded under %s rules version '%s'; this build implements '%s' (and the versions "
                           "before it that it keeps) and cannot replay it",
                           g->id, h->rules, g->rules_version);
        return res->code;
    }
    if (strcmp(h->rng, ARB_RNG_NAME) != 0) {
        res->code = refuse(err, arb_replay_name(r), "unsupported rng '%s' (this build implements %s)", h->rng,
                           ARB_RNG_NAME);
        return res->code;
    }
    if (h->hash[0] && strcmp(h->hash, ARB_HASH_NAME) != 0) {
        res->code = refuse(err, arb_replay_name(r), "unsupported state hash '%s' (this build implements %s)",
                           h->hash, ARB_HASH_NAME);
        return res->code;
    }
    const char *rn = arb_replay_name(r);
    if (h->has_commit) {
        uint8_t c[ARB_REPLAY_COMMIT_BYTES];
        arb_replay_commit(c, h->seed, h->salt, h->salt_len);
        if (memcmp(c, h->commit, sizeof c) != 0) {
            res->commit = -1;
            return diverge(res, err, rn, ARB_DIV_COMMIT,
                           "the seed commitment does not match BLAKE2b-256(seed || salt): the seed or salt was changed");
        }
        res->commit = 1;
    }
    if ((rc = arb_replay__verify_trust_header(h, opts, res, rn)) != ARB_OK) {
        char d[ARB_MSG_MAX];
        snprintf(d, sizeof d, "%s", res->detail);
        return diverge(res, err, rn, (arb_verify_kind)rc, "%s", d);
    }
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    if ((rc = arb_replay_setup(r, g, &su, decks, err))) return res->code = rc;
    /* The bare state, no event buffer: the verifier needs no events. */
    void *st = malloc(g->state_size);
    arb_error e = ARB_ERROR_INIT;
    if (!st) return res->code = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory for a %s match", g->id);
    if (h->position) rc = g->load_position(g, st, h->position, &su, &e);
    else rc = g->setup(g, st, &su, NULL, &e);
    if (rc) {
        free(st);
        snprintf(res->rule, sizeof res->rule, "%s", e.rule);
        return diverge(res, err, rn, ARB_DIV_SETUP, "the engine rejects the header's %s: %s%s%s",
                       h->position ? "position" : "setup", e.msg, e.where[0] ? " at " : "", e.where);
    }

    arb_replay__id id; /* the match identity, as it replays (identity.c) */
    arb_replay__id_init(&id, h);
    uint32_t turn = g->turn(g, st);
    int need_cp = 0, over = 0, seen_outcome = 0;
    uint64_t after_cp = 0;
    arb_outcome o = { 0 };
    arb_replay_record rec;
    for (;;) {
        rc = arb_replay_next(r, &rec, err);
        if (rc == 0) {
            break;
        }
        if (rc < 0) {
            res->code = rc;
            goto out;
        }
        res->record = rec.index;
        res->turn = turn;
        if (seen_outcome) {
            diverge(res, err, rn, ARB_DIV_AFTER_OUTCOME, "a record follows the outcome");
            goto out;
        }
        switch (rec.kind) {
        case ARB_REC_ACTION: {
            const arb_action *a = &rec.action;
            res->seat = a->seat;
            if (over) {
                arb_action_format(g, a, res->action, sizeof res->action);
                diverge(res, err, rn, ARB_DIV_OUTCOME,
                        "the engine ended the match (winner %d, %s) but the log goes on with another action",
                        o.winner, reason_name(g, o.reason));
                goto out;
            }
            if (need_cp) {
                arb_action_format(g, a, res->action, sizeof res->action);
                diverge(res, err, rn, ARB_DIV_MISSING_CHECKPOINT,
                        "turn %" PRIu32 " began but no checkpoint was recorded before this action", turn);
                goto out;
            }
            e.code = ARB_OK;
            e.rule[0] = '\0';
            rc = g->apply(g, st, a, NULL, &e);
            if (rc) {
                char txt[160] = "";
                arb_action_format(g, a, res->action, sizeof res->action);
                arb_game_action_text(g, st, a, txt, sizeof txt);
                snprintf(res->rule, sizeof res->rule, "%s", e.rule);
                diverge(res, err, rn, ARB_DIV_ILLEGAL, "%s%s%s", txt, txt[0] ? ": " : "", e.msg);
                goto out;
            }
            arb_replay__id_action(&id, a);
            if (g->outcome(g, st, &o)) over = 1;
            else {
                uint32_t t = g->turn(g, st);
                if (t != turn) {
                    turn = t;
                    need_cp = 1;
                }
            }
            break;
        }
        case ARB_REC_CHECKPOINT: {
            res->seat = g->decision(g, st).seat;
            uint32_t t = g->turn(g, st);
            res->span_first = after_cp;
            if (rec.turn != t) {
                res->expected = rec.turn;
                res->computed = t;
                diverge(res, err, rn, ARB_DIV_CHECKPOINT_TURN,
                        "the checkpoint records turn %" PRIu32 ", the engine is at turn %" PRIu32
                        " (records %" PRIu64 "..%" PRIu64 ")",
                        rec.turn, t, after_cp, rec.index);
                goto out;
            }
            uint64_t hv = g->hash(g, st);
            if (!arb_replay_hash_eq(&rec, hv)) {
                /* a format-1 mid-match checkpoint keeps 16 bits, format 2's 8 */
                char low[24] = "";
                if (rec.hash_bits < 64) snprintf(low, sizeof low, " (its low %u bits)", (unsigned)rec.hash_bits);
                res->expected = rec.hash;
                res->computed = hv;
                diverge(res, err, rn, ARB_DIV_CHECKPOINT_HASH,
                        "state hash differs at the checkpoint of turn %" PRIu32 ": recorded 0x%0*" PRIx64
                        "%s, computed 0x%016" PRIx64 "; the divergence lies in records %" PRIu64 "..%" PRIu64,
                        t, rec.hash_bits / 4, rec.hash, low, hv, after_cp, rec.index);
                goto out;
            }
            need_cp = 0;
            after_cp = rec.index + 1;
            res->last_turn = t;
            break;
        }
        case ARB_REC_OUTCOME: {
            res->seat = ARB_SEAT_NONE;
            res->span_first = after_cp;
            if (!over) {
                diverge(res, err, rn, ARB_DIV_NOT_OVER,
                        "the log records an outcome (winner %d, %s) but the engine's match goes on (turn %" PRIu32 ")",
                        rec.winner, rec.reason, turn);
                goto out;
            }
            const char *reason = reason_name(g, o.reason);
            if (rec.winner != o.winner || !arb_reason_same(rec.reason, reason) || rec.turn != o.turns) {
                diverge(res, err, rn, ARB_DIV_OUTCOME,
                        "recorded outcome: winner %d, %s, %" PRIu32 " turns; computed: winner %d, %s, %" PRIu32
                        " turns",
                        rec.winner, rec.reason, rec.turn, o.winner, reason, o.turns);
                goto out;
            }
            uint64_t hv = g->hash(g, st);
            if (rec.hash != hv) {
                res->expected = rec.hash;
                res->computed = hv;
                diverge(res, err, rn, ARB_DIV_FINAL_HASH,
                        "final state hash: recorded 0x%016" PRIx64 ", computed 0x%016" PRIx64
                        "; the divergence lies in records %" PRIu64 "..%" PRIu64,
                        rec.hash, hv, after_cp, rec.index);
                goto out;
            }
            seen_outcome = 1;
            res->over = 1;
            res->winner = o.winner;
            /* The engine's spelling, the one every command prints (a v1 naramo
             * file's "deck_out" is the same reason as "deck-out"). */
            snprintf(res->reason, sizeof res->reason, "%s", reason);
            res->turns = o.turns;
            res->final_hash = hv;
            break;
        }
        default: /* unknown kinds from later writers carry nothing to check */
            break;
        }
        res->last_good_record = rec.index + 1;
    }
    if (!seen_outcome) {
        arb_replay_get_status(r, &res->status);
        res->record = res->status.records;
        res->turn = turn;
        res->seat = g->decision(g, st).seat;
        res->span_first = after_cp;
        if (over)
            diverge(res, err, rn, ARB_DIV_NO_OUTCOME,
                    "the stream ends without the outcome record, though the engine ended the match");
        else {
            diverge(res, err, rn, ARB_DIV_NO_OUTCOME,
                    "the stream ends without an outcome: the match is unfinished at turn %" PRIu32, turn);
            res->unfinished = res->last_good_record == res->status.records;
        }
        goto out;
    }
    res->code = ARB_OK;
    arb_replay_get_status(r, &res->status);
    res->has_identity = arb_replay__id_final(&id, res->status.actions, res->identity) == 0;
    if (h->has_fair) {
        res->has_fair_commit = 1;
        memcpy(res->fair_commit, h->fair.commit, sizeof res->fair_commit);
    }
    if (h->has_commit) {
        res->has_seed_commit = 1;
        memcpy(res->seed_commit, h->commit, sizeof res->seed_commit);
    }
out:
    arb_replay_get_status(r, &res->status);
    free(st);
    return res->code;
}

int arb_replay_verify(arb_replay *r, const arb_verify_opts *opts, arb_verify_result *res, arb_error *err)
{
    ARB_ASSERT_ARG(err, r);
    static const arb_verify_opts dflt = ARB_VERIFY_OPTS_INIT;
    if (!opts) opts = &dflt;
    int rc = verify_inner(r, opts, res, err);
    /* A divergence in a range-coded body whose CRC-32 then fails is
     * corruption, not a rules matter: the records were not the ones
     * written (FORMAT.md §D.6). */
    if (rc == ARB_EVERIFY) {
        arb_error e = ARB_ERROR_INIT;
        if (arb_replay__body_corrupt(r, &e) == ARB_EFORMAT) {
            *err = e;
            res->kind = ARB_DIV_NONE;
            res->rule[0] = '\0';
            res->action[0] = '\0';
            res->detail[0] = '\0';
            res->unfinished = 0;
            rc = res->code = ARB_EFORMAT;
        }
    }
    /* The seal: a broken one, or (with trusted keys) a missing or foreign
     * one, outranks any other verdict: the bytes are not what was signed. */
    if ((rc == ARB_OK || rc == ARB_EVERIFY || rc == ARB_EFORMAT || rc == ARB_EUNSUPPORTED || rc == ARB_ELIMIT) &&
        arb_replay__verify_seal(r, opts, res) != ARB_OK) {
        char d[ARB_MSG_MAX];
        snprintf(d, sizeof d, "%s", res->detail);
        res->rule[0] = '\0';
        res->action[0] = '\0';
        res->seat = ARB_SEAT_NONE;
        res->unfinished = 0;
        arb_error_clear(err);
        rc = diverge(res, err, arb_replay_name(r), ARB_DIV_SIGNATURE, "%s", d);
    }
    return rc;
}

/* verify_file and verify_mem past the open: rc is the open's result. */
static int verify_opened(int rc, arb_replay *r, const arb_verify_opts *opts, arb_verify_result *res, arb_error *err)
{
    if (rc) {
        memset(res, 0, sizeof *res);
        res->code = rc;
        res->winner = -1;
        res->status.truncated = rc == ARB_ETRUNC;
        return rc;
    }
    rc = arb_replay_verify(r, opts, res, err);
    arb_replay_close(r);
    return rc;
}

int arb_replay_verify_file(const char *path, const arb_verify_opts *opts, arb_verify_result *res, arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    static const arb_verify_opts dflt = ARB_VERIFY_OPTS_INIT;
    if (!opts) opts = &dflt;
    arb_replay *r;
    int rc = arb_replay_open(&r, path, &opts->limits, err);
    return verify_opened(rc, r, opts, res, err);
}

int arb_replay_verify_mem(const void *buf, size_t len, const char *name, const arb_verify_opts *opts,
                          arb_verify_result *res, arb_error *err)
{
    ARB_ASSERT_ARG(err, buf || !len);
    static const arb_verify_opts dflt = ARB_VERIFY_OPTS_INIT;
    if (!opts) opts = &dflt;
    arb_replay *r;
    int rc = arb_replay_open_mem(&r, buf, len, name, &opts->limits, err);
    return verify_opened(rc, r, opts, res, err);
}
