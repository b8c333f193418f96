/* cmd_select.c — `arbiter select [CRITERIA] FILE|DIR|ARCHIVE…`: the matches
 * of files, directories and archives that meet every criterion given (game,
 * rules version, a player's name, seat count, winner, outcome reason,
 * length, a card played or held, signer, verified or not), listed one per
 * line, or written as a new archive (-o) or as files (--files DIR). A
 * match that cannot be read is listed as unreadable (stderr) and the walk
 * goes on. What a criterion reads: the header (game, rules, names, seats,
 * decks), the replay through the engine as `stats` counts it
 * (arb_an_summarize: outcome, turns, actions, cards played), the verifier
 * (verified, signer). Each is computed only when a criterion needs it. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "arbiter/toolkit.h"
#include "cli/dupes.h"
#include "cli/paths.h"
#include "cli/pool.h"

typedef struct crit {
    const char *game, *rules, *player, *reason, *winner, *played, *holds, *signer;
    uint64_t players;           /* 0: any */
    uint64_t min_turns, max_turns, min_actions, max_actions;
    int verified;               /* 1 verified only, 0 not verified only, -1 either */
    int duplicates;             /* only matches an earlier one repeats (cli/dupes.h) */
} crit;

typedef struct sel {
    crit c;
    int json, quiet, paths;
    arb_verify_opts vo;
    arb_archive_writer *aw;     /* -o OUT */
    const char *files;          /* --files DIR */
    uint64_t seen, selected, unreadable;
    int rc;                     /* the worst exit so far */
    unsigned jobs;
    cli_pool *pool;
    int stop;                   /* a done() stopped the walk */
    cli_dupes met;              /* --duplicates: the matches met so far */
} sel;

/* the seat a --winner value names in h, -1 a draw, -2 no seat of h */
static int winner_of(const char *w, const arb_an_header *h)
{
    if (!strcmp(w, "draw")) return -1;
    int s = cli_an_seat(w, h->players);
    if (s >= 0) return s;
    for (int i = 0; i < h->players; i++)
        if (!strcmp(h->names[i], w)) return i;
    return -2;
}

static int deck_holds(const arb_an_header *h, int card)
{
    for (int p = 0; p < h->players; p++)
        for (unsigned i = 0; i < h->decks[p].ncards; i++)
            if (h->decks[p].cards[i] == card) return 1;
    return 0;
}

/* a card criterion in game g: its pool index, -1 not in the pool */
static int card_of(const arb_game *g, const char *c) { return c ? arb_card_find(g, c) : -1; }

static void unreadable(sel *s, const arb_error *err)
{
    char t[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    arb_error_format(err, t, sizeof t);
    fprintf(stderr, "arbiter select: UNREADABLE: %s\n", cli_esc(t));
    s->unreadable++;
    if (s->rc < EXIT_INPUT) s->rc = EXIT_INPUT;
}

static void archive_bad(void *ctx, const arb_error *err) { unreadable(ctx, err); }

/* --files DIR: named as report DIR names its pages (cli_flat_name); a
 * member's name ends like a replay's */
static int file_name(const char *dir, const char *path, char *out, size_t size)
{
    while (*path == '/' || (path[0] == '.' && path[1] == '/')) path += *path == '/' ? 1 : 2;
    return cli_flat_name(out, size, dir, path, strchr(path, '#') ? ".tcgr" : "");
}

static int copy_file(const char *from, const char *to, arb_error *err)
{
    FILE *f = fopen(from, "rb");
    if (!f) {
        arb_error_where(err, "%s", from);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(f), &st) || st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)1 << 31) {
        fclose(f);
        arb_error_where(err, "%s", from);
        return arb_error_set(err, ARB_ELIMIT, NULL, "not a regular file of at most 2 GiB");
    }
    size_t n = (size_t)st.st_size;
    uint8_t *b = malloc(n ? n : 1);
    int rc = !b ? arb_error_set(err, ARB_ENOMEM, NULL, "out of memory") : ARB_OK;
    if (!rc && fread(b, 1, n, f) != n) {
        arb_error_where(err, "%s", from);
        rc = arb_error_set(err, ARB_EIO, NULL, "read failed");
    }
    fclose(f);
    char part[4300];
    snprintf(part, sizeof part, "%s.part", to);
    if (!rc) rc = arb_out_write_file(to, part, b, n, 0666, ARB_OUT_NOREPLACE, err);
    free(b);
    return rc;
}

/* Write a selected match to -o and --files. */
static int write_out(sel *s, const char *path, arb_archive *a, uint64_t member, uint64_t actions)
{
    arb_error err = ARB_ERROR_INIT;
    if (s->aw) {
        int rc = a ? arb_archive_writer_copy(s->aw, a, member, actions, &err)
                   : arb_archive_writer_add_file(s->aw, path, &actions, &err);
        if (rc) return cli_fail("select", &err);
    }
    if (s->files) {
        char to[4200];
        if (file_name(s->files, path, to, sizeof to)) return cli_usage("select", "path too long for --files: %s", path);
        int rc = a ? arb_archive_extract(a, member, to, &err) : copy_file(path, to, &err);
        if (rc) return cli_fail("select", &err);
    }
    return EXIT_OK;
}

static void print_match(const sel *s, const char *path, arb_archive *a, uint64_t member, const arb_an_header *h,
                        const arb_an_summary *sm, int summarized, int vrc)
{
    if (s->quiet) return;
    if (s->paths) {
        printf("%s\n", cli_esc(path));
        return;
    }
    const arb_an_record *o = summarized && sm->walk.outcome_seen ? &sm->walk.outcome : NULL;
    if (s->json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        if (a) printf(",\"member\":%" PRIu64, member);
        printf(",\"game\":");
        cli_json_str(stdout, h->game->id);
        printf(",\"rules\":");
        cli_json_str(stdout, h->rules);
        printf(",\"players\":%d,\"names\":[", h->players);
        for (int i = 0; i < h->players; i++) {
            if (i) putchar(',');
            cli_json_str(stdout, h->names[i]);
        }
        printf("],\"seed\":%" PRIu64, h->seed);
        if (vrc != -100) printf(",\"status\":\"%s\",\"ok\":%s", vrc == ARB_OK ? "ok" : "diverged", vrc == ARB_OK ? "true" : "false");
        else printf(",\"status\":\"selected\"");
        if (summarized) printf(",\"turns\":%" PRIu32 ",\"actions\":%" PRIu64, sm->turns, sm->walk.actions);
        if (o) {
            printf(",\"winner\":%d,\"reason\":", o->winner);
            cli_json_str(stdout, o->reason);
        }
        printf("}\n");
        return;
    }
    printf("%s: %s", cli_esc(path), h->game->id);
    for (int i = 0; i < h->players; i++) printf("%s P%d \"%s\"", i ? " vs" : ",", i + 1, cli_esc(h->names[i]));
    if (o && o->winner >= 0) printf(", P%d wins (%s)", o->winner + 1, cli_esc(o->reason));
    else if (o) printf(", draw (%s)", cli_esc(o->reason));
    else if (summarized) printf(", no outcome");
    if (summarized) printf(", %" PRIu32 " turns, %" PRIu64 " actions", sm->turns, sm->walk.actions);
    if (vrc == ARB_OK) printf(", verified");
    else if (vrc != -100) printf(", DOES NOT VERIFY");
    printf("\n");
}

/* One match: read and judged on any thread (work), printed and written
 * on the main one in input order (done), so --jobs N selects and prints
 * the same. */
typedef struct sitem {
    const sel *s;
    char *path;
    arb_archive *a;
    uint64_t member;
    arb_an_source *src;
    arb_an_summary sm;
    int summarized, keep, vrc, bad;
    arb_error err;              /* bad: why it is unreadable */
    arb_verify_result vr;       /* when verified */
} sitem;

static void work(void *it)
{
    sitem *x = it;
    const crit *c = &x->s->c;
    x->vrc = -100; /* not verified: no criterion needs it */
    if (cli_open_match(x->path, x->a, x->member, &x->src, &x->err)) {
        x->bad = 1;
        return;
    }
    const arb_an_header *h = arb_an_source_header(x->src);
    const arb_game *g = h->game;
    int keep = (!c->game || !strcmp(c->game, g->id)) && (!c->rules || !strcmp(c->rules, h->rules)) &&
               (!c->players || (uint64_t)h->players == c->players);
    if (keep && c->player) {
        keep = 0;
        for (int i = 0; i < h->players; i++) keep |= !strcmp(h->names[i], c->player);
    }
    int held = c->holds ? card_of(g, c->holds) : -1;
    if (keep && c->holds) keep = held >= 0 && deck_holds(h, held);
    int want_w = c->winner ? winner_of(c->winner, h) : -3;
    if (keep && want_w == -2) keep = 0; /* no seat of this match is named so */
    int need_walk = c->winner || c->reason || c->min_turns || c->max_turns != UINT64_MAX || c->min_actions ||
                    c->max_actions != UINT64_MAX || c->played || (!x->s->paths && !x->s->quiet);
    if (keep && need_walk) {
        /* the cards played only for --played: each card play costs two
         * state-tree exports */
        if (arb_an_summarize_ex(x->src, c->played ? 0 : ARB_AN_SUM_NO_CARDS, &x->sm, &x->err)) {
            x->bad = 1;
            return;
        }
        x->summarized = 1;
        if (x->sm.walk.truncated) {
            /* a cut file: named, never selected on a figure it does not hold */
            x->err = x->sm.walk.trunc;
            x->bad = 1;
            keep = 0;
        }
        const arb_an_record *o = x->sm.walk.outcome_seen ? &x->sm.walk.outcome : NULL;
        if (keep && c->winner) keep = o && (want_w == -1 ? o->winner < 0 : o->winner == want_w);
        if (keep && c->reason) keep = o && arb_reason_same(c->reason, o->reason);
        if (keep) keep = x->sm.turns >= c->min_turns && x->sm.turns <= c->max_turns;
        if (keep) keep = x->sm.walk.actions >= c->min_actions && x->sm.walk.actions <= c->max_actions;
        if (keep && c->played) {
            int k = card_of(g, c->played);
            keep = k >= 0 && x->sm.played && (unsigned)k < x->sm.nplayed && x->sm.played[k] > 0;
        }
    }
    if (keep && (c->verified >= 0 || c->signer || c->duplicates)) {
        x->vrc = cli_verify_match(x->path, x->a, x->member, &x->s->vo, &x->vr, &x->err);
        if (x->vrc != ARB_OK && x->vrc != ARB_EVERIFY) {
            x->bad = 1;
            keep = 0;
        }
        if (keep && c->verified >= 0) keep = (x->vrc == ARB_OK) == (c->verified == 1);
        if (keep && c->signer)
            keep = x->vr.seal == ARB_SEAL_VALID &&
                   (!strcasecmp(x->vr.signer_id, c->signer) || (x->vr.signer_label[0] && !strcmp(x->vr.signer_label, c->signer)));
    }
    x->keep = keep;
}

static int done(void *ctx, void *it)
{
    sel *s = ctx;
    sitem *x = it;
    int rc = 0;
    s->seen++;
    if (x->bad) unreadable(s, &x->err);
    const char *first = NULL;
    int dup = 0;
    if (x->keep && s->c.duplicates) {
        /* in input order: the first of a match is kept out, its repeats in */
        dup = x->vrc == ARB_OK ? cli_dupes_check(&s->met, &x->vr, x->path, &first) : 0;
        if (dup < 0) rc = -1;
        x->keep = dup > 0;
    }
    if (x->keep) {
        s->selected++;
        print_match(s, x->path, x->a, x->member, arb_an_source_header(x->src), &x->sm, x->summarized, x->vrc);
        if (dup && !s->quiet && !s->paths && !s->json) {
            char d[ARB_MSG_MAX];
            cli_dupes_detail(dup, first, d, sizeof d);
            printf("  duplicate (%s): %s\n", cli_dupes_kind_name(dup), cli_esc(d));
        }
        int wrc = write_out(s, x->path, x->a, x->member, x->summarized ? x->sm.walk.actions : 0);
        if (wrc) {
            s->rc = wrc;
            rc = 1; /* stop: the output would be incomplete */
        }
    }
    if (x->summarized) arb_an_summary_free(&x->sm);
    arb_an_source_free(x->src);
    free(x->path);
    if (x->err.code == ARB_ENOMEM) rc = -1;
    return rc;
}

static int one(void *ctx, const char *path, arb_archive *a, unsigned long long member)
{
    sel *s = ctx;
    sitem *x = cli_pool_slot(s->pool);
    if (!x) return 1; /* stopped */
    x->s = s;
    if (!(x->path = strdup(path))) return -1;
    x->a = a;
    x->member = member;
    cli_pool_submit(s->pool);
    return 0;
}

/* Before an archive closes, every member queued from it is done. */
static void drain(void *ctx)
{
    sel *s = ctx;
    int rc = cli_pool_end(s->pool);
    s->pool = rc ? NULL : cli_pool_new(s->jobs, sizeof(sitem), work, done, s);
    if (rc) s->stop = rc;
}

static int walk_one(void *ctx, const char *path)
{
    sel *s = ctx;
    if (!s->pool) return s->stop ? s->stop : -1;
    return cli_each_match(path, one, archive_bad, drain, ctx);
}

enum { O_GAME = CLI_ID_LONG, O_RULES, O_PLAYER, O_PLAYERS, O_WINNER, O_REASON, O_MINT, O_MAXT, O_MINA, O_MAXA, O_PLAYED,
       O_HOLDS, O_SIGNER, O_KEY, O_KEYRING, O_VER, O_UNVER, O_PATHS, O_FILES, O_DUPES };
static const char *const select_usage[] = {
    "select [CRITERIA] FILE|DIR|ARCHIVE... [--json|--paths|-q] [-o OUT.tcgr | --files DIR]",
    NULL
};
static const cli_opt select_opts[] = {
    CLI_OPT_GAME("the game id"),
    { "rules", O_RULES, 0, CLI_ARG_TEXT, "V", "the rules version in the header", 0, 0, CLI_SH_NONE },
    { "player", O_PLAYER, 0, CLI_ARG_TEXT, "NAME", "a seat's name is NAME (exactly)", 0, 0, CLI_SH_NONE },
    { "players", O_PLAYERS, 0, CLI_ARG_TEXT, "N", "N seats", 0, 0, CLI_SH_NONE },
    { "winner", O_WINNER, 0, CLI_ARG_TEXT, "W", "W won: a seat (0-based or P1..P4), a player's name, or 'draw'", 0, 0, CLI_SH_NONE },
    { "reason", O_REASON, 0, CLI_ARG_TEXT, "R", "the outcome reason (as `verify` prints it)", 0, 0, CLI_SH_NONE },
    { "min-turns", O_MINT, 0, CLI_ARG_TEXT, "N", "the match lasted at least N turns", 0, 0, CLI_SH_NONE },
    { "max-turns", O_MAXT, 0, CLI_ARG_TEXT, "N", "the match lasted at most N turns", 0, 0, CLI_SH_NONE },
    { "min-actions", O_MINA, 0, CLI_ARG_TEXT, "N", "at least N recorded actions", 0, 0, CLI_SH_NONE },
    { "max-actions", O_MAXA, 0, CLI_ARG_TEXT, "N", "at most N recorded actions", 0, 0, CLI_SH_NONE },
    { "played", O_PLAYED, 0, CLI_ARG_TEXT, "CARD", "a seat played CARD (by id or printed name; a card that left its hand by an action, as `stats` counts)", 0, 0, CLI_SH_NONE },
    { "holds", O_HOLDS, 0, CLI_ARG_TEXT, "CARD", "CARD is in a seat's deck list", 0, 0, CLI_SH_NONE },
    { "signer", O_SIGNER, 0, CLI_ARG_FILE, "KEY", "sealed by KEY: its 16-hex key id, or the label of a trusted key (--key/--keyring); the seal must be valid", 0, 0, CLI_SH_NONE },
    { "key", O_KEY, 0, CLI_ARG_FILE, "PUB", "a trusted key for --signer and --verified (repeatable)", 0, 0, CLI_SH_NONE },
    { "keyring", O_KEYRING, 0, CLI_ARG_FILE, "FILE", "trust every public-key line of FILE", 0, 0, CLI_SH_NONE },
    CLI_OPT_JOBS("read N matches at a time (the same output, in order)"),
    CLI_OPT_JSON("one result line per match and a closing {\"summary\"} (README \"Result lines\")"),
    { "paths", O_PATHS, 0, CLI_ARG_NONE, NULL, "print only the paths of the matches selected (for xargs)", 0, 0, CLI_SH_NONE },
    CLI_OPT_QUIET("print nothing but the closing count"),
    CLI_OPT_OUTPUT("write the selected matches as a new archive (seals kept, as `pack`)"),
    { "files", O_FILES, 0, CLI_ARG_DIR, "DIR", "write the selected matches as files under DIR", 0, 0, CLI_SH_NONE },
    { "verified", O_VER, 0, CLI_ARG_NONE, NULL, "the match verifies (as `verify` would say, with the keys given)", 0, 0, CLI_SH_NONE },
    { "unverified", O_UNVER, 0, CLI_ARG_NONE, NULL, "the match does not verify", 0, 0, CLI_SH_NONE },
    { "duplicates", O_DUPES, 0, CLI_ARG_NONE, NULL, "the match repeats one met earlier in the input (the same setup and actions, fair-seed secret or seed commitment: what `verify` fails as DUPLICATE); each is listed with the one it repeats", 0, 0, CLI_SH_NONE },
    CLI_OPT_END
};
const cli_spec cli_spec_select = {
    .name = "select",
    .summary = "the matches of files, directories, archives that meet criteria (list, archive, files)",
    .usage = select_usage,
    .description =
        "The matches of the given replays (a directory: its *.tcgr files, sorted;\n"
        "an archive: each member, ARCHIVE#N) that meet every criterion given:\n",
    .opts = select_opts,
    .notes =
        "Outcome, turns, actions and cards come from replaying the match; use\n"
        "--verified to select only from matches whose history verifies.\n"
        "\n"
        "Output: one line per selected match (PATH: game, players, result,\n"
        "turns, actions), then a closing line 'select: K of N matches\n"
        "selected'; --json one result line per match and a closing\n"
        "{\"summary\"} (README \"Result lines\"); --paths only the paths (for\n"
        "xargs); -q only the closing line. -o OUT.tcgr also writes the selected\n"
        "matches as a new archive (seals kept, as `pack`), --files DIR as files\n"
        "in a new or empty directory (a file copied byte for byte, an archive\n"
        "member extracted), each named after its path ('/' as %2F, '#' as %23).\n"
        "A match that cannot be read is named on stderr and the walk goes on.\n",
    .exit = "0 done (whether or not anything was selected); 2 usage; 3 some input unreadable (the others still selected), or OUT/DIR not written.",
    .operands = CLI_ARG_FILE,
    .run = cmd_select,
};

int cmd_select(int argc, char **argv)
{
    unsigned long long jobs = 1;
    static sel s;
    static arb_seal_keyring keys;
    memset(&s, 0, sizeof s);
    s.c.max_turns = s.c.max_actions = UINT64_MAX;
    s.c.verified = -1;
    arb_verify_opts vo0 = ARB_VERIFY_OPTS_INIT;
    s.vo = vo0;
    const char *out = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_select, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        uint64_t *num = NULL;
        switch (c) {
        case 'g':
            if (!arb_game_find(p.arg)) return cli_usage("select", "unknown game '%s' (see 'arbiter games')", p.arg);
            s.c.game = p.arg;
            break;
        case O_RULES: s.c.rules = p.arg; break;
        case O_PLAYER: s.c.player = p.arg; break;
        case O_PLAYERS:
            if (cli_parse_num(p.arg, 1, ARB_MAX_SEATS, &s.c.players))
                return cli_usage("select", "--players '%s' is not 1..%d", p.arg, ARB_MAX_SEATS);
            break;
        case O_WINNER: s.c.winner = p.arg; break;
        case O_REASON: s.c.reason = p.arg; break;
        case O_MINT: num = &s.c.min_turns; break;
        case O_MAXT: num = &s.c.max_turns; break;
        case O_MINA: num = &s.c.min_actions; break;
        case O_MAXA: num = &s.c.max_actions; break;
        case O_PLAYED: s.c.played = p.arg; break;
        case O_HOLDS: s.c.holds = p.arg; break;
        case O_SIGNER: s.c.signer = p.arg; break;
        case O_KEY:
        case O_KEYRING: {
            arb_error kerr = ARB_ERROR_INIT;
            if (arb_seal_keyring_add_file(&keys, p.arg, &kerr)) {
                arb_seal_keyring_free(&keys);
                return cli_fail("select", &kerr);
            }
            s.vo.trusted = &keys;
            break;
        }
        case O_VER: s.c.verified = 1; break;
        case O_UNVER: s.c.verified = 0; break;
        case O_DUPES: s.c.duplicates = 1; break;
        case CLI_ID_JSON: s.json = 1; break;
        case O_PATHS: s.paths = 1; break;
        case O_FILES: s.files = p.arg; break;
        case 'o': out = p.arg; break;
        case 'q': s.quiet = 1; break;
        case 'j':
            if (cli_parse_u64(p.arg, &jobs) || jobs < 1 || jobs > CLI_JOBS_MAX)
                return cli_usage("select", "--jobs '%s' is not 1..%d", p.arg, CLI_JOBS_MAX);
            break;
        default: return cli_unhandled(&p);
        }
        if (num && cli_parse_num(p.arg, 0, UINT64_MAX - 1, num))
            return cli_usage("select", "a --min-/--max- bound '%s' is not a number", p.arg);
    }
    if (c < 0) return p.rc;
    s.jobs = (unsigned)jobs;
    if (s.json + s.paths + s.quiet > 1) return cli_usage("select", "--json, --paths and -q exclude each other");
    if (s.c.min_turns > s.c.max_turns || s.c.min_actions > s.c.max_actions)
        return cli_usage("select", "a --min- bound is above its --max- bound");
    if (s.c.played || s.c.holds) {
        /* a card criterion names a card of some game (of --game when given) */
        const char *cs[2] = { s.c.played, s.c.holds };
        for (int k = 0; k < 2; k++) {
            if (!cs[k]) continue;
            int found = 0;
            for (unsigned i = 0; i < arb_game_count(); i++) {
                const arb_game *g = arb_game_at(i);
                if ((!s.c.game || !strcmp(g->id, s.c.game)) && arb_card_find(g, cs[k]) >= 0) found = 1;
            }
            if (!found)
                return cli_usage("select", "no card of %s is called '%s' (see 'arbiter cards --game G')",
                                 s.c.game ? s.c.game : "any game", cs[k]);
        }
    }
    if (p.npos < 1) return cli_usage("select", "no replay given");
    if (out && cli_output_target("select", out)) return EXIT_INPUT;
    if (s.files) {
        struct stat st;
        if (lstat(s.files, &st) == 0 && !S_ISDIR(st.st_mode))
            return cli_usage("select", "--files %s exists and is not a directory", s.files);
        if (lstat(s.files, &st) != 0 && mkdir(s.files, 0777) != 0) {
            fprintf(stderr, "arbiter select: %s: cannot create the directory: %s\n", cli_esc(s.files), strerror(errno));
            return EXIT_INPUT;
        }
    }
    arb_error err = ARB_ERROR_INIT;
    if (out && arb_archive_writer_open(&s.aw, out, 0, 0, NULL, 0, &err)) return cli_fail("select", &err);
    if (!(s.pool = cli_pool_new(s.jobs, sizeof(sitem), work, done, &s))) {
        fprintf(stderr, "arbiter select: out of memory\n");
        return EXIT_INTERNAL;
    }
    cli_walk w = { "select", walk_one, &s, 0, 0, 0, 0 };
    int stop = 0;
    for (int i = 0; i < p.npos && !stop; i++) stop = cli_walk_path(&w, p.pos[i]);
    if (s.pool) {
        int prc = cli_pool_end(s.pool);
        if (!stop) stop = prc;
    }
    if (!stop) stop = s.stop;
    if (stop < 0) s.rc = EXIT_INTERNAL;
    if (s.aw) {
        if (s.rc == EXIT_INTERNAL || (stop && s.rc)) {
            cli_archive_discard(s.aw, out);
            fprintf(stderr, "arbiter select: %s not written\n", cli_esc(out));
        } else if (s.selected == 0) {
            cli_archive_discard(s.aw, out);
            fprintf(stderr, "arbiter select: nothing selected: %s not written\n", cli_esc(out));
        } else if (arb_archive_writer_close(s.aw, &err)) {
            s.rc = cli_fail("select", &err);
        }
    }
    arb_seal_keyring_free(&keys);
    cli_dupes_free(&s.met);
    if (s.json)
        printf("{\"summary\":{\"schema\":\"arbiter-results-1\",\"command\":\"select\",\"matches\":%" PRIu64
               ",\"selected\":%" PRIu64 ",\"unreadable\":%" PRIu64 "}}\n",
               s.seen, s.selected, s.unreadable);
    else if (!s.paths)
        printf("select: %" PRIu64 " of %" PRIu64 " match%s selected%s%s\n", s.selected, s.seen, s.seen == 1 ? "" : "es",
               s.unreadable ? ", some unreadable (named on stderr)" : "", out && s.selected ? ", written to the archive" : "");
    if (w.unreadable && s.rc < EXIT_INPUT) s.rc = EXIT_INPUT;
    return s.rc;
}
