/* cmd_verify.c — `arbiter verify FILE…`: replay each file from its seed
 * with the engine its header names and report the first divergence; with
 * --jobs N files are verified on N threads and reported in argument order
 * as they complete; --json prints one result object per line (NDJSON).
 *
 * Memory is flat in the number of files: paths come from the command line
 * or are streamed from the manifest into a window of VERIFY_WINDOW(jobs)
 * slots; a slot is reused once its result is printed. Only the identity of
 * each verified match is kept (cli/dupes.h), so that a match that an
 * earlier file or member holds fails as a duplicate. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arbiter/adapter.h"
#include "cli/cli.h"
#include "cli/dupes.h"
#include "cli/paths.h"
#include "cli/progress.h"
#include "cli/shard.h"

/* --engine CMD: the proxy game every file is verified with. */
static const arb_game *engine_game;

typedef struct vjob {
    const char *path;
    char *owned;                /* path read from a manifest, or an archive member's FILE#N */
    int kind;                   /* VJ_FILE, or an archive's summary / member / cut member */
    arb_archive *ar;
    uint64_t member;
    int64_t index;              /* manifest entry index, -1 from the command line */
    arb_verify_result res;
    arb_error err;
    int rc, done;
    int engine_failed;          /* the adapter failed (--engine): not the file's fault */
    int dup;                    /* CLI_DUP_*: verified, but a match seen before */
    const char *dup_of;         /* the file that had it first (borrowed from the set) */
    uint8_t *bytes;             /* a short file read whole when it was looked at, or NULL */
    size_t nbytes;
} vjob;

#define VERIFY_WINDOW(jobs) (4 * (unsigned)(jobs) + 16)

/* Whether the file at j->path is an archive, the look the reader takes
 * anyway: a regular file of at most SNIFF_WHOLE bytes is read whole into
 * j->bytes (one open, fstat, read and close), so its verify does not open
 * it again; anything else is left to the reader, which opens it by name
 * (and names what is wrong with it). */
#define SNIFF_WHOLE (64 * 1024)
static int sniff_archive(vjob *j)
{
    int fd = open(j->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat st;
    uint8_t env[8], *buf = NULL;
    size_t got = 0, want = sizeof env;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof env && st.st_size <= SNIFF_WHOLE) {
        want = (size_t)st.st_size;
        buf = malloc(want);
    }
    uint8_t *dst = buf ? buf : env;
    int failed = 0; /* a read error: the reader, reading again, says which */
    while (got < want) {
        ssize_t k = read(fd, dst + got, want - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) failed = 1;
        if (k <= 0) break; /* shorter than fstat said: what is there, as the reader does */
        got += (size_t)k;
    }
    close(fd);
    int archive = got >= 8 && memcmp(dst, "TCGR", 4) == 0 && dst[4] == 2 && (dst[5] & ARB_REPLAY_FLAG_ARCHIVE);
    if (buf && !archive && !failed) {
        j->bytes = buf;
        j->nbytes = got;
    } else
        free(buf);
    return archive;
}

/* An archive verifies member by member: a summary line (its index state),
 * then one job and one result line per match, FILE#N, and one for a member
 * the end of the file cut short. */
enum { VJ_FILE = 0, VJ_ARCHIVE, VJ_MEMBER, VJ_CUT, VJ_REFUSED };

/* Jobs are numbered 0, 1, … in argument order; job q lives in slot q % w.
 * [next, filled) wait for a worker; [printed, filled) are not printed yet. */
typedef struct vpool {
    vjob *ring;
    unsigned w;
    uint64_t filled, next;
    int closed;                 /* no job will be added */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} vpool;

/* Trust options, set once before any job runs. */
static arb_verify_opts g_vo = ARB_VERIFY_OPTS_INIT;
static uint8_t g_published[ARB_REPLAY_COMMIT_BYTES];
static arb_seal_keyring g_keys;
/* --unfinished: a consistent prefix without an outcome verifies (res.unfinished) */
static int g_unfinished;

static void accept_unfinished(vjob *j)
{
    if (g_unfinished && j->rc == ARB_EVERIFY && j->res.unfinished) {
        j->rc = ARB_OK;
        arb_error_clear(&j->err);
    } else {
        j->res.unfinished = 0;
    }
}

static void verify_one(vjob *j)
{
    arb_verify_opts vo = g_vo;
    if (engine_game) vo.game = engine_game;
    if (j->kind == VJ_REFUSED) { /* the archive would not open: rc and err were set then */
        memset(&j->res, 0, sizeof j->res);
        j->res.winner = -1;
        j->res.code = j->rc;
        return;
    }
    arb_error_clear(&j->err);
    memset(&j->res, 0, sizeof j->res);
    j->res.winner = -1;
    if (j->kind == VJ_ARCHIVE) {
        j->rc = arb_archive_verdict(j->ar, &j->err);
        return;
    }
    if (j->kind == VJ_CUT) {
        uint64_t off = 0;
        arb_archive_cut(j->ar, &off);
        j->res.status.truncated = 1;
        arb_error_where(&j->err, "%s: offset %" PRIu64, j->path, off);
        j->rc = arb_error_set(&j->err, ARB_ETRUNC, NULL,
                              "truncated: the end of the file cuts this member's frame short; the members before it "
                              "are complete");
        return;
    }
    if (j->kind == VJ_MEMBER) {
        j->rc = cli_verify_match(j->path, j->ar, j->member, &vo, &j->res, &j->err);
        accept_unfinished(j);
        return;
    }
    if (j->bytes) {
        j->rc = arb_replay_verify_mem(j->bytes, j->nbytes, j->path, &vo, &j->res, &j->err);
        free(j->bytes);
        j->bytes = NULL;
    } else
        j->rc = arb_replay_verify_file(j->path, &vo, &j->res, &j->err);
    /* A failed adapter answers neutrally; what looks like a divergence is
     * the adapter's failure, reported as such. */
    const char *af = engine_game ? arb_adapter_failed(arb_adapter_of(engine_game)) : NULL;
    if (af) {
        j->rc = ARB_EIO;
        j->engine_failed = 1;
        arb_error_clear(&j->err);
        arb_error_set(&j->err, ARB_EIO, NULL, "engine adapter failed: %s", af);
    }
    accept_unfinished(j);
}

/* The archive's own line: its index state and, when the archive as a
 * whole fails (arb_archive_verdict: corrupt index, unread bytes, no
 * match), why — its members get their own lines. */
static void print_archive(const vjob *j, int json, int quiet, const cli_shard *sh)
{
    const char *note;
    arb_archive_index st = arb_archive_index_state(j->ar, &note);
    uint64_t cutoff = 0, m = arb_archive_count(j->ar);
    int cut = arb_archive_cut(j->ar, &cutoff);
    const char *stn = st == ARB_INDEX_OK ? "ok" : st == ARB_INDEX_MISSING ? "missing" : "corrupt";
    char why[ARB_MSG_MAX + ARB_WHERE_MAX + 8] = "";
    if (j->rc) arb_error_format(&j->err, why, sizeof why);
    if (json) {
        /* the archive's own line (kind "archive"): "file" and "status" as
         * on every result line, its members on the lines that follow */
        printf("{\"archive\":");
        cli_json_str(stdout, j->path);
        printf(",\"file\":");
        cli_json_str(stdout, j->path);
        printf(",\"kind\":\"archive\",\"status\":\"%s\"", j->rc == ARB_EVERIFY ? "no match" : j->rc ? "corrupt" : "ok");
        if (j->index >= 0)
            printf(",\"index\":%" PRId64 ",\"shard\":\"%" PRIu64 "/%" PRIu64 "\"", j->index, sh->k, sh->n);
        printf(",\"members\":%" PRIu64 ",\"archive_index\":\"%s\"", m, stn);
        if (note[0]) {
            printf(",\"note\":");
            cli_json_str(stdout, note);
        }
        if (cut) printf(",\"cut_member\":%" PRIu64 ",\"cut_offset\":%" PRIu64, m, cutoff);
        printf(",\"ok\":%s", j->rc ? "false" : "true");
        if (j->rc) {
            printf(",\"error\":");
            cli_json_str(stdout, why);
        }
        printf("}\n");
    } else if (!quiet || st != ARB_INDEX_OK || cut || j->rc) {
        printf("%s: archive of %" PRIu64 " complete member(s); index %s%s%s", cli_esc(j->path), m,
               st == ARB_INDEX_OK ? "ok" : st == ARB_INDEX_MISSING ? "missing (rebuilt from the frames)" : "CORRUPT",
               note[0] && st != ARB_INDEX_MISSING ? ": " : "", st != ARB_INDEX_MISSING ? note : "");
        if (cut) printf("; member %" PRIu64 " is cut short at offset %" PRIu64, m, cutoff);
        printf("\n");
        if (j->rc)
            printf("%s: %s: %s\n", cli_esc(j->path), j->rc == ARB_EVERIFY ? "NO MATCH" : "CORRUPT", cli_esc(why));
    }
}

static void *worker(void *arg)
{
    vpool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->next >= p->filled && !p->closed) pthread_cond_wait(&p->cv, &p->mu);
        if (p->next >= p->filled) break;
        vjob *j = &p->ring[p->next++ % p->w];
        pthread_mutex_unlock(&p->mu);
        verify_one(j);
        pthread_mutex_lock(&p->mu);
        j->done = 1;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static const char *status_name(int rc)
{
    switch (rc) {
    case ARB_OK: return "ok";
    case ARB_EVERIFY: return "diverged";
    case ARB_ETRUNC: return "truncated";
    case ARB_EUNSUPPORTED: return "unsupported";
    case ARB_ENOMEM: return "error";
    default: return "unreadable";
    }
}

static void print_json(const vjob *j, const cli_shard *sh)
{
    const arb_verify_result *r = &j->res;
    printf("{\"file\":");
    cli_json_str(stdout, j->path);
    if (j->kind == VJ_MEMBER || j->kind == VJ_CUT) printf(",\"member\":%" PRIu64, j->member);
    if (j->index >= 0)
        printf(",\"index\":%" PRId64 ",\"shard\":\"%" PRIu64 "/%" PRIu64 "\"", j->index, sh->k, sh->n);
    printf(",\"game\":");
    cli_json_str(stdout, r->game);
    printf(",\"players\":%d", r->players);
    printf(",\"status\":\"%s\",\"ok\":%s", j->dup ? "duplicate" : r->unfinished ? "unfinished" : j->engine_failed ? "error" : status_name(j->rc),
           j->rc == ARB_OK && !j->dup ? "true" : "false");
    if (r->unfinished) printf(",\"finished\":false,\"turn\":%" PRIu32, r->turn);
    printf(",\"records\":%" PRIu64 ",\"actions\":%" PRIu64 ",\"checkpoints\":%" PRIu64, r->status.records,
           r->status.actions, r->status.checkpoints);
    printf(",\"commit\":\"%s\"", r->commit == 1 ? "ok" : r->commit == -1 ? "mismatch" : "absent");
    if (j->rc == ARB_OK || j->rc == ARB_EVERIFY || j->rc == ARB_ETRUNC) {
        printf(",\"seeded\":%s", r->seeded ? "true" : "false");
        if (!r->seeded) printf(",\"setup\":\"setup not derived from the seed\"");
        printf(",\"fair_seed\":\"%s\"", r->fair == 1 ? "ok" : r->fair == -1 ? "mismatch" : "absent");
        if (r->published) printf(",\"published_commitment\":\"%s\"", r->published == 1 ? "ok" : "mismatch");
        printf(",\"signature\":\"%s\"", arb_seal_status_name((arb_seal_status)r->seal));
        if (r->signer_id[0]) {
            printf(",\"key_id\":\"%s\",\"public_key\":\"", r->signer_id);
            cli_hex(stdout, r->signer, sizeof r->signer);
            printf("\"");
        }
        printf(",\"trusted\":%s", r->trusted == 1 ? "true" : r->trusted == -1 ? "false" : "null");
        if (r->signer_label[0]) {
            printf(",\"signer\":");
            cli_json_str(stdout, r->signer_label);
        }
    }
    if (j->rc == ARB_OK && r->has_identity) {
        printf(",\"match_id\":\"");
        cli_hex(stdout, r->identity, sizeof r->identity);
        printf("\"");
    }
    if (j->dup) {
        char d[ARB_MSG_MAX];
        cli_dupes_detail(j->dup, j->dup_of, d, sizeof d);
        printf(",\"duplicate\":{\"kind\":\"%s\",\"of\":", cli_dupes_kind_name(j->dup));
        cli_json_str(stdout, j->dup_of);
        printf(",\"detail\":");
        cli_json_str(stdout, d);
        printf("}");
    }
    if (r->over) {
        printf(",\"winner\":%d,\"reason\":", r->winner);
        cli_json_str(stdout, r->reason);
        printf(",\"turns\":%" PRIu32 ",\"final_hash\":\"0x%016" PRIx64 "\"", r->turns, r->final_hash);
    }
    if (j->rc == ARB_EVERIFY) {
        printf(",\"divergence\":{\"kind\":\"%s\",\"record\":%" PRIu64 ",\"span_first\":%" PRIu64 ",\"turn\":%" PRIu32
               ",\"seat\":%d,\"action\":",
               arb_verify_kind_name(r->kind), r->record, r->span_first, r->turn, r->seat);
        cli_json_str(stdout, r->action);
        printf(",\"rule\":");
        cli_json_str(stdout, r->rule);
        if (r->kind == ARB_DIV_CHECKPOINT_HASH || r->kind == ARB_DIV_FINAL_HASH)
            printf(",\"expected\":\"0x%016" PRIx64 "\",\"computed\":\"0x%016" PRIx64 "\"", r->expected, r->computed);
        printf(",\"detail\":");
        cli_json_str(stdout, r->detail);
        printf("}");
    } else if (j->rc != ARB_OK) {
        char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
        arb_error_format(&j->err, buf, sizeof buf);
        printf(",\"error\":");
        cli_json_str(stdout, buf);
        if (j->rc == ARB_ETRUNC)
            printf(",\"verified_records\":%" PRIu64 ",\"last_checkpoint_turn\":%" PRIu32, r->last_good_record,
                   r->last_turn);
    }
    printf("}\n");
}

/* What the verdict proves beyond the replay: seed provenance and the seal. */
static void trust_text(const arb_verify_result *r, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (r->fair == 1) n += (size_t)snprintf(buf + n, size - n, ", fair seed ok (commit-reveal)");
    if (r->published == 1) n += (size_t)snprintf(buf + n, size - n, ", published commitment ok");
    if (!r->seeded) n += (size_t)snprintf(buf + n, size - n, ", starts from a position: setup not derived from the seed");
    if (n >= size) return;
    if (r->seal == ARB_SEAL_VALID && r->trusted == 1)
        snprintf(buf + n, size - n, ", signed by %s%s%s%s", r->signer_id, r->signer_label[0] ? " (" : "",
                 cli_esc(r->signer_label), r->signer_label[0] ? ")" : ""); /* labels are checked when read; escaped all the same */
    else if (r->seal == ARB_SEAL_VALID)
        snprintf(buf + n, size - n, ", signed by key %s (signature valid, not checked against a trusted key)",
                 r->signer_id);
    else if (r->seal == ARB_SEAL_NONE && !r->status.truncated)
        snprintf(buf + n, size - n, ", unsigned");
}

static void print_text(const vjob *j, int quiet)
{
    const arb_verify_result *r = &j->res;
    char trust[512];
    trust_text(r, trust, sizeof trust);
    if (j->rc == ARB_OK && j->dup) {
        char d[ARB_MSG_MAX];
        cli_dupes_detail(j->dup, cli_esc(j->dup_of), d, sizeof d);
        printf("%s: DUPLICATE (%s): %s\n", cli_esc(j->path), cli_dupes_kind_name(j->dup), d);
        return;
    }
    if (j->rc == ARB_OK && r->unfinished) {
        if (quiet) return;
        printf("%s: CONSISTENT, NOT FINISHED: %" PRIu64 " actions, %" PRIu64 " checkpoints, every one legal and "
               "matching; no outcome (the match stops at turn %" PRIu32 ")%s\n",
               cli_esc(j->path), r->status.actions, r->status.checkpoints, r->turn, trust);
        return;
    }
    if (j->rc == ARB_OK) {
        if (quiet) return;
        char win[32];
        if (r->winner >= 0) snprintf(win, sizeof win, "P%d wins", r->winner + 1);
        else snprintf(win, sizeof win, "draw");
        printf("%s: OK: %" PRIu64 " actions, %" PRIu64 " checkpoints, %s (%s) after %" PRIu32
               " turns, final hash 0x%016" PRIx64 "%s%s\n",
               cli_esc(j->path), r->status.actions, r->status.checkpoints, win, cli_esc(r->reason), r->turns,
               r->final_hash, r->commit == 1 ? ", seed commitment ok" : "", trust);
        return;
    }
    if (j->rc == ARB_EVERIFY && (r->kind == ARB_DIV_SIGNATURE || r->kind == ARB_DIV_COMMIT ||
                                 r->kind == ARB_DIV_NOT_SEEDED)) {
        /* about the file as a whole, not a record */
        printf("%s: DIVERGES (%s): %s\n", cli_esc(j->path), arb_verify_kind_name(r->kind), cli_esc(r->detail));
        return;
    }
    if (j->rc == ARB_EVERIFY) {
        printf("%s: DIVERGES (%s) at record %" PRIu64 ", turn %" PRIu32, cli_esc(j->path), arb_verify_kind_name(r->kind),
               r->record, r->turn);
        if (r->seat >= 0) printf(", seat %d", r->seat);
        else if (r->seat == ARB_SEAT_ARBITER) printf(", arbiter");
        if (r->action[0]) printf(", action '%s'", cli_esc(r->action));
        if (r->rule[0]) printf(", rule %s", cli_esc(r->rule));
        printf(": %s", cli_esc(r->detail));
        if (trust[0]) printf(" [%s]", trust + 2); /* seed provenance and seal, as in an OK line */
        printf("\n");
        return;
    }
    char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    arb_error_format(&j->err, buf, sizeof buf);
    printf("%s: %s: %s\n", cli_esc(j->path), j->engine_failed ? "ERROR" : j->rc == ARB_ETRUNC ? "TRUNCATED" : j->rc == ARB_EUNSUPPORTED ? "UNSUPPORTED" : "UNREADABLE",
           cli_esc(buf));
    if (j->rc == ARB_ETRUNC && r->status.records)
        printf("%s: the %" PRIu64 " complete record(s) before the cut replay without divergence (last matching "
               "checkpoint: turn %" PRIu32 "); an unsigned prefix (a recorder's journal carries no seal: `arbiter sign` "
               "seals its complete records)\n",
               cli_esc(j->path), r->last_good_record, r->last_turn);
}

static const char *const verify_usage[] = {
    "verify [--json] [--jobs N] [--quiet] [--key PUB]... [--keyring FILE] [--commitment HEX] [--require-seeded] [--unfinished] FILE...",
    "verify --manifest FILE [--shard K/N|slurm] [--json] [--jobs N]",
    NULL
};
static const cli_opt verify_opts[] = {
    CLI_OPT_JSON("one JSON object per file and line (NDJSON)"),
    CLI_OPT_JOBS("verify N files at a time (results stay in argument order)"),
    CLI_OPT_QUIET("print only files that do not verify"),
    CLI_OPT_ENGINE("verify through an external engine: CMD is run by /bin/sh and speaks the engine protocol (conformance/ADAPTER.md), e.g. \"arbiter engine-serve --game naramo\"; a dead, slow or babbling adapter is exit 4 naming the request"),
    CLI_OPT_ENGINE_TIMEOUT,
    { "manifest", 'm', 0, CLI_ARG_FILE, "FILE", "verify the files listed in FILE (one path per line; blank lines and '#' lines are not entries)", 0, 0, CLI_SH_NONE },
    { "shard", 's', 0, CLI_ARG_TEXT, "K/N", "only manifest entries whose 0-based index i has i mod N = K; 'slurm' takes K and N from the job array's environment. With --json each line carries \"index\" and \"shard\", and a last line {\"shard_done\":…} marks the shard complete for `arbiter merge`. Per-file failures are data then: exit 0 once the shard ran.", 0, 0, CLI_SH_NONE },
    { "commitment", 'C', 0, CLI_ARG_TEXT, "HEX", "the commitment published before the match: the file's fair-seed (or seed) commitment must equal it", 0, 0, CLI_SH_NONE },
    { "require-seeded", 'R', 0, CLI_ARG_NONE, NULL, "refuse a match that starts from a position (its setup is not derived from the seed)", 0, 0, CLI_SH_NONE },
    { "unfinished", 'U', 0, CLI_ARG_NONE, NULL, "accept a match that has no outcome yet when every recorded action is legal and every checkpoint matches (a FILE.part that `record` left when its input ended early): CONSISTENT, NOT FINISHED, JSON status \"unfinished\"; without it that is the divergence 'no-outcome'", 0, 0, CLI_SH_NONE },
    { "key", 'k', 0, CLI_ARG_FILE, "PUB", "trust this public key (NAME.key.pub; repeatable): the file must carry a valid seal by a trusted key, else divergence 'signature'", 0, 0, CLI_SH_NONE },
    { "keyring", 'K', 0, CLI_ARG_FILE, "FILE", "trust every public-key line of FILE", 0, 0, CLI_SH_NONE },
    CLI_OPT_END
};
const cli_spec cli_spec_verify = {
    .name = "verify",
    .summary = "replay .tcgr files and report the first divergence",
    .usage = verify_usage,
    .description =
        "Replay each .tcgr from its seed (or position) with the engine its header\n"
        "names: every action must be legal, every checkpoint hash and the outcome\n"
        "must be reproduced, and the seed commitment must match when present.\n"
        "The first divergence is reported with its record index, turn, seat,\n"
        "action, and the rule ID broken or the expected and computed hashes.\n"
        "A match counts once: over a set (files, directories, archive members, a\n"
        "manifest) a verified match that an earlier one already holds -- the same\n"
        "setup and actions, fair-seed secret or seed commitment -- fails as\n"
        "DUPLICATE naming the first (--json: status \"duplicate\", \"duplicate\":\n"
        "{kind, of, detail}; every verified line has its \"match_id\").\n",
    .opts = verify_opts,
    .notes =
        "Without --key a seal is still checked (a broken one fails) and the verdict\n"
        "says it was not checked against a trusted key. FORMAT.md \"What a verdict\n"
        "proves\" says what each verdict does and does not prove.\n",
    .exit = "0 all verified; 1 a replay diverges; 3 a file is unreadable, truncated, corrupt, or of an unsupported game, rules version, rng or format version (3 wins over 1); 2 usage.",
    .operands = CLI_ARG_FILE,
    .run = cmd_verify,
};

/* What the command line asks for (the trust options go to g_vo). */
typedef struct vargs {
    int json, quiet, sharded, npos;
    uint64_t jobs;
    const char *manifest;
    cli_shard shard;
    char **pos;
} vargs;

/* -1 to go on, else the exit code (help printed, or a usage error). */
static int verify_parse(vargs *va, int argc, char **argv)
{
    int c;
    memset(va, 0, sizeof *va);
    va->jobs = 1;
    va->shard.n = 1;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_verify, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_JSON: va->json = 1; break;
        case 'j':
            va->jobs = p.num;
            break;
        case 'q': va->quiet = 1; break;
        case 'm': va->manifest = p.arg; break;
        case 'C': {
            size_t len;
            if (cli_parse_hex(p.arg, g_published, sizeof g_published, &len) || len != sizeof g_published)
                return cli_usage("verify", "--commitment takes the 64 hex digits published before the match");
            g_vo.published_commit = g_published;
            break;
        }
        case 'R': g_vo.require_seeded = 1; break;
        case 'U': g_unfinished = 1; break;
        case 'k':
        case 'K': {
            arb_error kerr = ARB_ERROR_INIT;
            if (arb_seal_keyring_add_file(&g_keys, p.arg, &kerr)) {
                arb_seal_keyring_free(&g_keys);
                return cli_fail("verify", &kerr);
            }
            g_vo.trusted = &g_keys;
            break;
        }
        case 's':
            if (cli_shard_parse("verify", p.arg, &va->shard)) return EXIT_USAGE;
            va->sharded = 1;
            break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    va->npos = p.npos;
    va->pos = p.pos;
    if (va->sharded && !va->manifest) return cli_usage("verify", "--shard needs --manifest");
    /* NDJSON is read by merge and stats, which count every line: --quiet
     * would drop the verified ones. */
    if (va->json && va->quiet) return cli_usage("verify", "--quiet and --json exclude each other (NDJSON lists every file)");
    if (va->manifest && p.npos > 0) return cli_usage("verify", "give either --manifest or FILE arguments, not both");
    return -1;
}

static int verify_main(int argc, char **argv)
{
    vargs va;
    int prc = verify_parse(&va, argc, argv);
    if (prc >= 0) return prc;
    int json = va.json, quiet = va.quiet, sharded = va.sharded;
    uint64_t jobs = va.jobs;
    const char *manifest = va.manifest;
    cli_shard shard = va.shard;
    cli_mstream ms;
    int argn = va.npos, argi = 0;
    /* FILE|DIR arguments: a directory stands for the *.tcgr files under it
     * (cli/paths.c: recursive, sorted, special files skipped with a note). */
    cli_pathlist fl = { 0 };
    if (manifest) {
        int mrc = cli_mstream_open(&ms, "verify", manifest, &shard);
        if (mrc) return mrc;
    } else if (argn < 1) {
        return cli_usage("verify", "no replay file given");
    } else {
        if (cli_pathlist_build(&fl, "verify", va.npos, va.pos)) {
            fprintf(stderr, "arbiter verify: out of memory\n");
            return EXIT_INTERNAL;
        }
        argn = (int)fl.n;
        if (argn < 1) {
            cli_pathlist_free(&fl);
            fprintf(stderr, "arbiter verify: no .tcgr file under the given director%s\n", va.npos == 1 ? "y" : "ies");
            return EXIT_INPUT;
        }
    }
    vpool pool;
    memset(&pool, 0, sizeof pool);
    pool.w = VERIFY_WINDOW(jobs);
    pool.ring = calloc(pool.w, sizeof *pool.ring);
    pthread_mutex_init(&pool.mu, NULL);
    pthread_cond_init(&pool.cv, NULL);
    if (!pool.ring) {
        fprintf(stderr, "arbiter verify: out of memory\n");
        if (manifest) cli_mstream_close(&ms);
        cli_pathlist_free(&fl);
        return EXIT_INTERNAL;
    }
    int nthreads = (int)jobs;
    if (!manifest && argn < nthreads) nthreads = argn;
    cli_progress prog;
    /* counted in matches: an archive's line stands for its members */
    cli_progress_start(&prog, "verify", "matches", manifest ? 0 : (uint64_t)argn);
    pthread_t th[256];
    int started = 0;
    /* The main thread is a worker too: it reads the next paths into free
     * slots, takes jobs like the others and, between them, prints every
     * finished result in argument order. A main thread that only waited
     * would be woken once per file and steal a core from the workers. */
    if (nthreads > 1)
        for (; started < nthreads - 1; started++)
            if (pthread_create(&th[started], NULL, worker, &pool)) break;
    int any_div = 0, any_bad = 0, any_nomem = 0, source_done = 0, source_rc = 0;
    uint64_t n_ok = 0, printed = 0, n_match = 0, n_arch_bad = 0;
    cli_dupes dupes = { 0 };
    /* the archive being expanded into member jobs, and every archive opened
     * (closed at the end: their member jobs may still run) */
    arb_archive *cur = NULL, **opened = NULL;
    char cur_path[4096] = "";
    uint64_t cur_k = 0, cur_n = 0, nopened = 0;
    int64_t cur_index = -1;
    for (;;) {
        /* Fill free slots (only this thread adds jobs, and slot filled % w
         * is free while filled - printed < w). */
        while (!source_done && pool.filled - printed < pool.w) {
            vjob *j = &pool.ring[pool.filled % pool.w];
            memset(j, 0, sizeof *j);
            if (cur) {
                size_t bl = strlen(cur_path) + 24;
                j->owned = malloc(bl);
                if (!j->owned) { any_nomem = 1; source_done = 1; break; }
                snprintf(j->owned, bl, "%s#%" PRIu64, cur_path, cur_k);
                j->path = j->owned;
                j->ar = cur;
                j->member = cur_k;
                j->kind = cur_k < arb_archive_count(cur) ? VJ_MEMBER : VJ_CUT;
                j->index = cur_index; /* the archive's manifest entry, -1 from the command line */
                if (++cur_k == cur_n) cur = NULL;
            } else if (manifest) {
                char *pth;
                uint64_t idx;
                int r = cli_mstream_next(&ms, &pth, &idx);
                if (r <= 0) {
                    source_done = 1;
                    source_rc = -r;
                    break;
                }
                j->path = j->owned = pth;
                j->index = (int64_t)idx;
            } else {
                if (argi >= argn) { source_done = 1; break; }
                j->path = fl.paths[argi++];
                j->index = -1;
            }
            if (j->kind == VJ_FILE && sniff_archive(j)) {
                arb_archive *ar;
                arb_error e = ARB_ERROR_INIT;
                arb_archive **no = realloc(opened, (size_t)(nopened + 1) * sizeof *no);
                if (no && !arb_archive_open(&ar, j->path, &e)) {
                    opened = no;
                    opened[nopened++] = ar;
                    j->kind = VJ_ARCHIVE;
                    j->ar = ar;
                    cur_n = arb_archive_count(ar) + (uint64_t)arb_archive_cut(ar, NULL);
                    cur_k = 0;
                    cur = cur_n ? ar : NULL;
                    snprintf(cur_path, sizeof cur_path, "%s", j->path);
                    cur_index = j->index;
                    if (prog.total) prog.total = prog.total - 1 + cur_n;
                } else if (no) {
                    /* why it does not open as an archive (a single file whose
                     * flags say archive is refused as such, FORMAT.md §C.1) */
                    opened = no;
                    j->kind = VJ_REFUSED;
                    j->err = e;
                    j->rc = e.code ? e.code : ARB_EFORMAT;
                }
            }
            pthread_mutex_lock(&pool.mu);
            pool.filled++;
            pthread_cond_broadcast(&pool.cv);
            pthread_mutex_unlock(&pool.mu);
        }
        if (source_done && !pool.closed) {
            pthread_mutex_lock(&pool.mu);
            pool.closed = 1;
            pthread_cond_broadcast(&pool.cv);
            pthread_mutex_unlock(&pool.mu);
        }
        if (source_done && printed == pool.filled) break;
        vjob *mine = NULL;
        pthread_mutex_lock(&pool.mu);
        if (pool.next < pool.filled) mine = &pool.ring[pool.next++ % pool.w];
        else
            while (!pool.ring[printed % pool.w].done) pthread_cond_wait(&pool.cv, &pool.mu);
        pthread_mutex_unlock(&pool.mu);
        if (mine) {
            verify_one(mine);
            pthread_mutex_lock(&pool.mu);
            mine->done = 1;
            pthread_mutex_unlock(&pool.mu);
        }
        for (;;) {
            pthread_mutex_lock(&pool.mu);
            int ready = printed < pool.filled && pool.ring[printed % pool.w].done;
            pthread_mutex_unlock(&pool.mu);
            if (!ready) break;
            vjob *j = &pool.ring[printed++ % pool.w];
            /* one match counted once: in argument order, so the first file
             * of a set is the one that counts whatever --jobs is */
            if (j->rc == ARB_OK && (j->kind == VJ_FILE || j->kind == VJ_MEMBER)) {
                int dk = cli_dupes_check(&dupes, &j->res, j->path, &j->dup_of);
                if (dk < 0) any_nomem = 1;
                else j->dup = dk;
            }
            cli_progress_end(&prog);    /* results and the progress line share a terminal */
            if (j->kind == VJ_ARCHIVE) print_archive(j, json, quiet, &shard);
            else if (json) print_json(j, &shard);
            else print_text(j, quiet);
            fflush(stdout);
            if (j->kind != VJ_ARCHIVE) cli_progress_update(&prog, n_match + 1);
            if (j->kind != VJ_ARCHIVE) n_match++;
            if (j->rc == ARB_OK && !j->dup && j->kind != VJ_ARCHIVE) n_ok++;
            if (j->rc && j->kind == VJ_ARCHIVE) n_arch_bad++;
            if (j->rc == ARB_EVERIFY || j->dup) any_div = 1;
            else if (j->rc == ARB_ENOMEM) any_nomem = 1;
            else if (j->rc) any_bad = 1;
            free(j->owned);
            j->owned = NULL;
        }
        fflush(stdout);
    }
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    cli_dupes_free(&dupes);
    arb_seal_keyring_free(&g_keys);
    for (uint64_t i = 0; i < nopened; i++) arb_archive_close(opened[i]);
    cli_progress_end(&prog);
    free(opened);
    free(pool.ring);
    cli_pathlist_free(&fl);
    pthread_mutex_destroy(&pool.mu);
    pthread_cond_destroy(&pool.cv);
    /* the closing summary: matches (an archive's members, not the archive
     * itself), how many verified, how many failed (an archive that fails as
     * a whole counts as one failure) */
    uint64_t n_failed = n_match - n_ok + n_arch_bad;
    if (manifest) {
        uint64_t total = ms.total;
        cli_mstream_close(&ms);
        /* A manifest that could not be read to its end gets no shard_done
         * line, so `merge` reports the shard missing. */
        if (source_rc) return source_rc;
        if (json)
            printf("{\"shard_done\":{\"k\":%" PRIu64 ",\"n\":%" PRIu64 ",\"manifest_entries\":%" PRIu64
                   ",\"files\":%" PRIu64 ",\"ok\":%" PRIu64 ",\"failed\":%" PRIu64 "}}\n",
                   shard.k, shard.n, total, n_match, n_ok, n_failed);
    } else if (json) {
        printf("{\"summary\":{\"schema\":\"arbiter-results-1\",\"command\":\"verify\",\"matches\":%" PRIu64 ",\"ok\":%" PRIu64 ",\"failed\":%" PRIu64
               "}}\n", n_match, n_ok, n_failed);
    } else if (!quiet && pool.filled > 1) {
        printf("verify: %" PRIu64 " match%s, %" PRIu64 " verified, %" PRIu64 " failed\n", n_match,
               n_match == 1 ? "" : "es", n_ok, n_failed);
    }
    if (sharded) return any_nomem ? EXIT_INTERNAL : EXIT_OK;
    return any_nomem ? EXIT_INTERNAL : any_bad ? EXIT_INPUT : any_div ? EXIT_VERIFY : EXIT_OK;
}

/* --engine CMD and --engine-timeout MS are taken out here; the rest is the
 * plain verifier over the adapter's proxy game. */
int cmd_verify(int argc, char **argv)
{
    const char *engine = NULL;
    unsigned long long ms = 0;
    char **av = calloc((size_t)argc + 1, sizeof *av);
    if (!av) return EXIT_INTERNAL;
    int ac = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (i > 0 && (!strcmp(a, "--engine") || !strcmp(a, "--engine-timeout"))) {
            if (i + 1 >= argc) { free(av); return cli_usage("verify", "%s needs a value", a); }
            if (a[8] == '\0') engine = argv[++i];
            else if (cli_parse_u64(argv[++i], &ms) || ms < 1 || ms > 3600000) {
                free(av);
                return cli_usage("verify", "--engine-timeout '%s' is not 1..3600000 ms", argv[i]);
            }
            continue;
        }
        if (!strncmp(a, "--engine=", 9)) { engine = a + 9; continue; }
        av[ac++] = argv[i];
    }
    arb_adapter *ad = NULL;
    if (engine) {
        int erc = cli_engine_open("verify", engine, NULL, (int)ms, &ad);
        if (erc) { free(av); return erc; }
        engine_game = arb_adapter_game(ad);
    }
    int rc = verify_main(ac, av);
    int erc = cli_engine_check("verify", ad);
    arb_adapter_close(ad);
    engine_game = NULL;
    free(av);
    return erc ? erc : rc;
}
