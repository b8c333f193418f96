/* cmd_reseal.c — `arbiter reseal FILE…`: after an intentional rules change,
 * re-record each replay's checkpoints and outcome under the current engine,
 * keeping its header (seed, players, decks, options, position, start time,
 * seed commitment) and its actions exactly. A first pass replays the actions
 * and compares the old checkpoints and outcome with what the engine now
 * computes, so the command can say what changed (the outcome, the record and
 * turn of the first divergence) and refuse files that no longer replay at
 * all (an action the engine rejects, actions after the match ended, a match
 * left unfinished, an unreadable or truncated file). Only then does a second
 * pass write FILE.part through the ordinary recorder and rename it over
 * FILE, so a file is either untouched or replaced whole. Unchanged files
 * (same hashes, outcome, rules and engine version) are not rewritten. A
 * replay keeps its rules version while the engine still implements it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "arbiter/toolkit.h"

typedef struct seal_scan {
    int changed;            /* any checkpoint or the outcome differs */
    uint64_t first_record;  /* first differing record */
    uint32_t first_turn;    /* the engine's turn there */
    const char *first_what;
    int old_winner, new_winner;
    char old_reason[64];
    uint32_t old_turns;
    arb_outcome now;
    int signed_;            /* bytes after the body: a seal block (or a bad one) */
    arb_seal_status seal;
    char signer[17];        /* the block's key id when it verifies */
} seal_scan;

static void win_text(char *buf, size_t n, int winner, const char *reason, uint32_t turns)
{
    if (winner >= 0) snprintf(buf, n, "P%d wins (%s) after %" PRIu32 " turns", winner + 1, reason, turns);
    else snprintf(buf, n, "draw (%s) after %" PRIu32 " turns", reason, turns);
}

static int start_match(const arb_replay *r, const arb_game *g, arb_setup *su, arb_deck decks[ARB_MAX_SEATS],
                       arb_match **m, arb_error *err)
{
    int rc = arb_replay_setup(r, g, su, decks, err);
    if (rc) return rc;
    /* A rules version this build still implements is kept (its replays
     * verify as they are); any other is brought to the newest. */
    if (arb_game_rules_index(g, su->rules) < 0) su->rules = NULL;
    const arb_replay_header *h = arb_replay_get_header(r);
    return h->position ? arb_match_from_position(m, g, h->position, su, err) : arb_match_new(m, g, su, err);
}

static void note(seal_scan *sc, uint64_t rec, uint32_t turn, const char *what)
{
    if (sc->changed) return;
    sc->changed = 1;
    sc->first_record = rec;
    sc->first_turn = turn;
    sc->first_what = what;
}

/* Pass 1: replay and compare. 0 when the file replays to an outcome, else
 * prints why it is refused and returns the exit code. */
static int scan(const char *path, const arb_game *g, seal_scan *sc)
{
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r = NULL;
    arb_match *m = NULL;
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    int rc = arb_replay_open(&r, path, NULL, &err), ret = EXIT_OK, seen_outcome = 0;
    memset(sc, 0, sizeof *sc);
    sc->old_winner = -1;
    if (rc || (rc = start_match(r, g, &su, decks, &m, &err))) {
        printf("%s: REFUSED: %s%s%s%s%s\n", path, err.where, err.where[0] ? ": " : "", err.rule,
               err.rule[0] ? ": " : "", err.msg);
        ret = rc == ARB_EILLEGAL || rc == ARB_EINVAL ? EXIT_VERIFY : cli_exit_for(rc);
        goto out;
    }
    arb_replay_record rec;
    memset(&rec, 0, sizeof rec);
    while ((rc = arb_replay_next(r, &rec, &err)) == 1) {
        uint32_t turn = arb_match_turn(m);
        arb_outcome o;
        int over = arb_match_outcome(m, &o);
        if (seen_outcome) continue;
        if (rec.kind == ARB_REC_ACTION) {
            char txt[160];
            arb_action_format(g, &rec.action, txt, sizeof txt);
            if (over) {
                printf("%s: REFUSED: record %" PRIu64 " ('%s'): the current engine ends the match before it "
                       "(turn %" PRIu32 "); the log does not replay\n", path, rec.index, txt, turn);
                ret = EXIT_VERIFY;
                goto out;
            }
            if (arb_match_apply(m, &rec.action, &err)) {
                printf("%s: REFUSED: record %" PRIu64 ", turn %" PRIu32 ": action '%s' is illegal under the "
                       "current engine: %s: %s\n", path, rec.index, turn, txt, err.rule, err.msg);
                ret = EXIT_VERIFY;
                goto out;
            }
        } else if (rec.kind == ARB_REC_CHECKPOINT) {
            if (rec.turn != turn) note(sc, rec.index, turn, "checkpoint turn");
            else if (!arb_replay_hash_eq(&rec, arb_match_hash(m))) note(sc, rec.index, turn, "checkpoint hash");
        } else if (rec.kind == ARB_REC_OUTCOME) {
            seen_outcome = 1;
            sc->old_winner = rec.winner;
            snprintf(sc->old_reason, sizeof sc->old_reason, "%s", rec.reason);
            sc->old_turns = rec.turn;
            if (!over) {
                printf("%s: REFUSED: the log ends with an outcome but under the current engine the match goes "
                       "on at turn %" PRIu32 "; the log does not replay\n", path, turn);
                ret = EXIT_VERIFY;
                goto out;
            }
            const char *rn = arb_game_reason_name(g, o.reason);
            if (rec.winner != o.winner || !arb_reason_same(rec.reason, rn) || rec.turn != o.turns)
                note(sc, rec.index, turn, "outcome");
            else if (rec.hash != arb_match_hash(m)) note(sc, rec.index, turn, "final hash");
        }
    }
    if (rc < 0) {
        printf("%s: REFUSED: %s%s%s\n", path, err.where, err.where[0] ? ": " : "", err.msg);
        ret = cli_exit_for(rc);
        goto out;
    }
    if (!arb_match_outcome(m, &sc->now)) {
        printf("%s: REFUSED: the actions end before the match does (turn %" PRIu32 ") under the current engine\n",
               path, arb_match_turn(m));
        ret = EXIT_VERIFY;
        goto out;
    }
    if (!seen_outcome) note(sc, rec.index, arb_match_turn(m), "outcome");
    uint8_t dg[ARB_REPLAY_DIGEST], pk[ARB_SEAL_PK_BYTES], id[ARB_SEAL_ID_BYTES];
    const uint8_t *tr;
    size_t ntr = 0;
    uint64_t body_end;
    if (arb_replay_sealable(r, dg, &tr, &ntr, &body_end) && ntr) {
        sc->signed_ = 1;
        sc->seal = arb_seal_block_check(tr, ntr, dg, pk, NULL, 0);
        if (sc->seal == ARB_SEAL_VALID) {
            arb_seal_key_id(pk, id);
            arb_seal_id_hex(id, sc->signer);
        }
    }
out:
    arb_match_free(m);
    arb_replay_close(r);
    return ret;
}

/* Pass 2: re-record into path.part, renamed over path on close. */
static int rewrite(const char *path, const arb_game *g, arb_seal_key *key)
{
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r = NULL;
    arb_match *m = NULL;
    arb_replay_writer *w = NULL;
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    int rc = arb_replay_open(&r, path, NULL, &err);
    if (rc || (rc = start_match(r, g, &su, decks, &m, &err))) goto out;
    const arb_replay_header *h = arb_replay_get_header(r);
    arb_replay_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game = g;
    meta.setup = &su;
    for (int s = 0; s < h->players && s < ARB_MAX_SEATS; s++) meta.names[s] = h->player[s].name;
    meta.started = h->started[0] ? h->started : NULL;
    meta.position = h->position;
    if (h->has_commit) {
        meta.salt = h->salt;
        meta.salt_len = h->salt_len;
    }
    meta.flags = h->flags;
    meta.version = h->version; /* a v1 file stays v1: the kept v1 corpus */
    /* a zlib-coded v2 file stays zlib-coded (the kept v2-zlib corpus) */
    if (h->version == 2 && !(h->flags & ARB_REPLAY_FLAG_RC)) meta.flags |= ARB_REPLAY_WRITE_ZLIB;
    /* ... and one range-coded from empty models stays so (the kept v2-rc0 corpus) */
    uint8_t env[8];
    arb_replay_envelope(r, env);
    if (h->version == 2 && (h->flags & ARB_REPLAY_FLAG_RC) && !env[6]) meta.flags |= ARB_REPLAY_WRITE_RC0;
    meta.level = -1;
    if (key) {
        meta.seal = arb_seal_writer_hook;
        meta.seal_ctx = key;
    }
    if ((rc = arb_replay_writer_open(&w, path, &meta, &err)) || (rc = arb_replay_record_start(w, m, &err))) goto out;
    arb_replay_record rec;
    while ((rc = arb_replay_next(r, &rec, &err)) == 1) {
        if (rec.kind != ARB_REC_ACTION) continue;
        arb_outcome o;
        if (arb_match_outcome(m, &o)) break;
        if ((rc = arb_replay_record_step(w, m, &rec.action, &err))) goto out;
    }
    if (rc < 0) goto out;
    rc = arb_replay_writer_close(w, &err);
    w = NULL;
out:
    if (w) {
        char part[4096];
        arb_replay_writer_free(w);
        snprintf(part, sizeof part, "%s.part", path);
        remove(part);
    }
    arb_match_free(m);
    arb_replay_close(r);
    if (rc) {
        printf("%s: FAILED to rewrite (left untouched): %s%s%s\n", path, err.where, err.where[0] ? ": " : "", err.msg);
        return cli_exit_for(rc);
    }
    return EXIT_OK;
}

/* What to do with a seal: key re-signs every rewritten file; drop says
 * that a signed file may lose its seal. */
typedef struct reseal_opts {
    int dry, drop;
    arb_seal_key *key;
    const char *key_path;
} reseal_opts;

static int reseal_one(const char *path, const reseal_opts *ro)
{
    int dry = ro->dry;
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r = NULL;
    int rc = arb_replay_open(&r, path, NULL, &err);
    if (rc) {
        printf("%s: REFUSED: %s%s%s\n", path, err.where, err.where[0] ? ": " : "", err.msg);
        return cli_exit_for(rc);
    }
    const arb_replay_header *h = arb_replay_get_header(r);
    const arb_game *g = arb_game_find(h->game);
    char old_rules[32], old_engine[64];
    snprintf(old_rules, sizeof old_rules, "%s", h->rules);
    snprintf(old_engine, sizeof old_engine, "%s", h->engine);
    int rng_ok = strcmp(h->rng, ARB_RNG_NAME) == 0 && (!h->hash[0] || strcmp(h->hash, ARB_HASH_NAME) == 0);
    char game[32];
    snprintf(game, sizeof game, "%s", h->game);
    arb_replay_close(r);
    if (!g) {
        printf("%s: REFUSED: game '%s' is not compiled into this build\n", path, game);
        return EXIT_INPUT;
    }
    if (!rng_ok) {
        printf("%s: REFUSED: recorded with another rng or state hash; reseal cannot replay it\n", path);
        return EXIT_INPUT;
    }
    seal_scan sc;
    if ((rc = scan(path, g, &sc))) return rc;
    const char *new_rules = arb_game_rules_index(g, old_rules) >= 0 ? old_rules : g->rules_version;
    int hdr = strcmp(old_rules, new_rules) || strcmp(old_engine, g->engine_version);
    if (!sc.changed && !hdr) {
        printf("%s: unchanged\n", path);
        return EXIT_OK;
    }
    if (sc.signed_ && !ro->key && !ro->drop) {
        /* rewriting drops the seal: never silently (#27 N7) */
        printf("%s: REFUSED: signed (%s%s); rewriting it would drop the seal: give --key NAME.key to re-sign "
               "it, or --drop-seal to write it unsigned\n", path,
               sc.seal == ARB_SEAL_VALID ? "a valid seal by key " : "a seal block that does not verify",
               sc.seal == ARB_SEAL_VALID ? sc.signer : "");
        return EXIT_USAGE;
    }
    char before[128], after[128];
    const char *rn = arb_game_reason_name(g, sc.now.reason);
    win_text(before, sizeof before, sc.old_winner, sc.old_reason, sc.old_turns);
    win_text(after, sizeof after, sc.now.winner, rn, sc.now.turns);
    printf("%s: %s: ", path, dry ? "would reseal" : "resealed");
    if (sc.changed) {
        printf("first divergence at record %" PRIu64 ", turn %" PRIu32 " (%s); ", sc.first_record, sc.first_turn,
               sc.first_what);
        if (strcmp(before, after)) printf("outcome %s -> %s", before, after);
        else printf("outcome unchanged (%s), hashes differ", after);
    } else {
        printf("checkpoints and outcome unchanged (%s)", after);
    }
    if (hdr) printf("; rules %s -> %s, engine %s -> %s", old_rules, new_rules, old_engine, g->engine_version);
    if (ro->key) {
        char id[17];
        printf("; %s by %s%s%s%s", sc.signed_ ? "re-signed" : "signed", arb_seal_id_hex(ro->key->id, id),
               ro->key->label[0] ? " (" : "", cli_esc(ro->key->label), ro->key->label[0] ? ")" : "");
    } else if (sc.signed_) {
        printf("; seal dropped (--drop-seal): the file is unsigned");
    }
    printf("\n");
    return dry ? EXIT_OK : rewrite(path, g, ro->key);
}

static const char *const reseal_usage[] = {
    "reseal [--dry-run] [--key NAME.key | --drop-seal] FILE...",
    NULL
};
static const cli_opt reseal_optv[] = {
    { "dry-run", 'n', 'n', CLI_ARG_NONE, NULL, "report what would change, write nothing", 0, 0, CLI_SH_NONE },
    { "key", 'k', 'k', CLI_ARG_TEXT, "K", "seal every rewritten file with the secret key K", 0, 0, CLI_SH_NONE },
    { "drop-seal", 'D', 0, CLI_ARG_NONE, NULL, "write a rewritten signed file unsigned", 0, 0, CLI_SH_NONE },
    CLI_OPT_END
};
const cli_spec cli_spec_reseal = {
    .name = "reseal",
    .summary = "re-record checkpoints and outcome after an intentional rules change",
    .usage = reseal_usage,
    .description =
        "After an intentional rules change, re-record each replay's checkpoints and\n"
        "outcome (and its rules and engine versions) under the current engine,\n"
        "keeping the header and every action. Prints per file what changed: the\n"
        "first divergence (record, turn) and the outcome before and after.\n"
        "Files whose actions no longer replay (an action is now illegal, actions\n"
        "follow the new end of the match, or the match no longer ends) are\n"
        "refused and left untouched. Writes FILE.part and renames it over FILE.\n"
        "Any rules version of the same game is accepted. A signed file that must\n"
        "be rewritten is refused (exit 2) unless --key re-signs it or --drop-seal\n"
        "says it may lose its seal.\n",
    .opts = reseal_optv,
    .exit = "0 every file resealed or unchanged; 1 a file does not replay; 3 a file is unreadable or of an unknown game; 2 usage, or a signed file without --key or --drop-seal.",
    .operands = CLI_ARG_FILE,
    .run = cmd_reseal,
};




int cmd_reseal(int argc, char **argv)
{
    reseal_opts ro = { 0, 0, NULL, NULL };
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_reseal, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'n': ro.dry = 1; break;
        case 'k': ro.key_path = p.arg; break;
        case 'D': ro.drop = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos < 1) return cli_usage("reseal", "no replay file given");
    if (ro.key_path && ro.drop) return cli_usage("reseal", "--key re-signs, --drop-seal drops the seal: not both");
    arb_seal_key key;
    if (ro.key_path) {
        arb_error err = ARB_ERROR_INIT;
        if (arb_seal_key_load(&key, ro.key_path, &err)) return cli_fail("reseal", &err);
        if (!key.has_secret) {
            memset(&key, 0, sizeof key);
            fprintf(stderr, "arbiter reseal: %s: a public key: --key needs the secret key file\n", cli_esc(ro.key_path));
            return EXIT_INPUT;
        }
        ro.key = &key;
    }
    int worst = EXIT_OK;
    for (int i = 0; i < p.npos; i++) {
        int rc = reseal_one(p.pos[i], &ro);
        if (rc > worst) worst = rc;
    }
    if (ro.key) memset(&key, 0, sizeof key);
    return worst;
}
