/* cmd_report.c — `arbiter report FILE -o OUT.html [--as SEAT]`: the judge's
 * viewer, one self-contained HTML file. The file is verified first
 * (arb_replay_verify_file) so the page opens on the verifier's verdict.
 * Written to OUT.part and renamed, so a failed run leaves no half report
 * behind. */
#include <errno.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/replay.h"
#include "cli/cli.h"
#include "cli/paths.h"
#include "cli/pool.h"

/* The verifier's verdict for the banner. In a seat's file the sentence on
 * another seat's diverging action is left out: an engine's rejection can
 * name the card it was about. o->signed_by points into signed_by. */
static void verdict(const char *path, arb_archive *a, uint64_t member, int view, arb_an_report_opts *o,
                    char signed_by[160])
{
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    arb_verify_result vr;
    arb_error err = ARB_ERROR_INIT;
    memset(&vr, 0, sizeof vr);
    int rc = cli_verify_match(path, a, member, &vo, &vr, &err);
    o->verdict_set = 1;
    o->verified = rc == ARB_OK;
    o->divergence = -1;
    /* The seal (#15): no key is trusted here, so a valid seal names its key
     * only; `verify --key` says whether that key is trusted. */
    if (vr.seal == ARB_SEAL_VALID) {
        snprintf(signed_by, 160, "key %s (signature valid; not checked against a trusted key: "
                 "arbiter verify --key)", vr.signer_id);
        o->signed_by = signed_by;
    } else if (vr.seal == ARB_SEAL_BAD || vr.seal == ARB_SEAL_MALFORMED) {
        /* a broken seal is the verdict's first fact, not "Not signed" */
        snprintf(signed_by, 160, "%s", vr.seal == ARB_SEAL_BAD ?
                 "SIGNATURE INVALID: the seal does not match the file's content (altered after signing, or forged)" :
                 "SEAL MALFORMED: the bytes after the body are not a seal block");
        o->signed_by = signed_by;
        o->seal_broken = 1;
    }
    if (rc == ARB_OK) return;
    if (rc == ARB_EVERIFY && vr.unfinished) {
        o->unfinished = 1;
        snprintf(o->detail, sizeof o->detail, "the match stops at turn %" PRIu32 " without an outcome", vr.turn);
        return;
    }
    if (rc == ARB_EVERIFY) {
        o->divergence = (int64_t)vr.record;
        int theirs = view != ARB_VIEW_ALL && vr.seat >= 0 && vr.seat != view;
        snprintf(o->detail, sizeof o->detail, "%s%s%s%s%s", arb_verify_kind_name(vr.kind), vr.rule[0] ? " " : "",
                 vr.rule, theirs || !vr.detail[0] ? "" : ": ", theirs ? "" : vr.detail);
    } else if (rc == ARB_ETRUNC) {
        o->divergence = vr.last_good_record ? (int64_t)vr.last_good_record - 1 : -1;
        snprintf(o->detail, sizeof o->detail, "truncated: %s", err.msg);
    } else {
        snprintf(o->detail, sizeof o->detail, "%s", err.msg[0] ? err.msg : arb_strerror(rc));
    }
}

/* The page of a file no record of which can be read (written as report
 * writes any page; a failure to write it is noted, the exit stays the
 * reader's). */
static void unreadable_page(const char *path, const char *outp, const arb_error *why)
{
    char part[4096];
    arb_error err = ARB_ERROR_INIT;
    int to_stdout = !strcmp(outp, "-");
    FILE *out = stdout;
    if (!to_stdout) {
        if (cli_output_target("report", outp) || (size_t)snprintf(part, sizeof part, "%s.part", outp) >= sizeof part)
            return;
        if (!(out = arb_out_create(outp, part, 0666, 0, &err))) {
            cli_fail("report", &err);
            return;
        }
    }
    char shown[4096];
    int rc = arb_an_report_unreadable(out, cli_stdio_names(path, shown, sizeof shown), why);
    if (to_stdout) {
        fflush(stdout);
        return;
    }
    if (rc) {
        arb_out_discard(out, part);
        return;
    }
    if (arb_out_install(out, part, outp, 0, &err)) cli_fail("report", &err);
    else fprintf(cli_msgs(), "arbiter report: %s: wrote a page that says the file is unreadable\n", cli_esc(outp));
}

/* One replay (a file, or member `member` of the open archive a) to one
 * page (OUT.part, renamed; '-' is stdout). *word (may be NULL) receives the
 * verdict the page opens on, for an index. */
typedef struct page_verdict {
    const char *word;           /* VERIFIED, DOES NOT VERIFY, UNREADABLE, … */
    char detail[400];
} page_verdict;

static int report_one(const char *path, arb_archive *a, uint64_t member, const char *outp, const char *as,
                      page_verdict *pv)
{
    arb_an_source *src;
    arb_error oerr = ARB_ERROR_INIT;
    int ec;
    page_verdict pv0;
    if (!pv) pv = &pv0;
    pv->word = "UNREADABLE";
    pv->detail[0] = '\0';
    if (cli_open_match(path, a, member, &src, &oerr)) {
        arb_error_format(&oerr, pv->detail, sizeof pv->detail);
        /* A file that is there but cannot be read still gets its page,
         * leading with UNREADABLE and the offset; the exit code says it
         * failed all the same. */
        int page = oerr.code == ARB_EFORMAT || oerr.code == ARB_ETRUNC || oerr.code == ARB_EUNSUPPORTED ||
                   oerr.code == ARB_ELIMIT;
        if (page && !as) unreadable_page(path, outp, &oerr);
        return cli_fail("report", &oerr);
    }
    int view = ARB_VIEW_ALL;
    if (as) {
        int players = arb_an_source_header(src)->players;
        view = cli_an_seat(as, players);
        if (view == -3 || view == ARB_VIEW_ALL) {
            arb_an_source_free(src);
            return cli_usage("report", "--as wants a seat of this %d-player match (0..%d or P1..P%d), not '%s'",
                             players, players - 1, players, as);
        }
    }
    char part[4096];
    FILE *out = stdout;
    int to_stdout = !strcmp(outp, "-");
    if (!to_stdout && (ec = cli_output_target("report", outp))) {
        arb_an_source_free(src);
        return ec;
    }
    arb_error err = ARB_ERROR_INIT;
    if (!to_stdout) {
        if ((size_t)snprintf(part, sizeof part, "%s.part", outp) >= sizeof part) {
            arb_an_source_free(src);
            return cli_usage("report", "output path too long: %s", cli_esc(outp));
        }
        if (!(out = arb_out_create(outp, part, 0666, 0, &err))) {
            arb_an_source_free(src);
            return cli_fail("report", &err);
        }
    }
    arb_an_walk_result res;
    arb_an_report_opts ro = ARB_AN_REPORT_OPTS_INIT;
    ro.view = view;
    char signed_by[160];
    verdict(path, a, member, view, &ro, signed_by);
    pv->word = ro.verified ? "VERIFIED" : ro.unfinished ? "CONSISTENT, NOT FINISHED" : "DOES NOT VERIFY";
    snprintf(pv->detail, sizeof pv->detail, "%s", ro.detail);
    int rc = arb_an_report_ex(src, &ro, out, &res, &err);
    arb_an_source_free(src);
    if (!to_stdout) {
        if (rc) arb_out_discard(out, part);
        else rc = arb_out_install(out, part, outp, 0, &err);
    } else if ((fflush(stdout) || ferror(stdout)) && !rc) {
        rc = arb_error_set(&err, ARB_EIO, NULL, "cannot write the report to stdout");
    }
    if (rc) return cli_fail("report", &err);
    int trc = cli_an_end("report", &res, EXIT_OK);
    if (trc) {
        pv->word = "TRUNCATED";
        return trc;
    }
    /* the page is written; the exit says what verify would of the file */
    if (!ro.verified && !ro.unfinished) {
        fprintf(cli_msgs(), "arbiter report: %s does not verify (%s); the page says so\n", cli_esc(path), cli_esc(ro.detail));
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}

/* report DIR|ARCHIVE -o OUTDIR: one page per match (a *.tcgr under DIR,
 * cli/paths.c; each member of an archive, in one pass over it), named after
 * its path below DIR with '/' written "%2F", '%' "%25" and '#' "%23", so
 * that DIR/a/x.tcgr and DIR/b/x.tcgr are two pages (a%2Fx.tcgr.html,
 * b%2Fx.tcgr.html), a file directly in DIR keeps its plain name and member
 * 3 of day.tcgr is day.tcgr%233.html; and OUTDIR/index.html listing every
 * match with its verdict and a link to its page. The worst exit code wins. */
typedef struct dirrun {
    const char *root, *outdir, *as;
    int worst, stop;
    unsigned long n;
    FILE *index;
    int archive;                /* root is an archive, not a directory */
    cli_pool *pool;             /* -j N: pages written N at a time, finished in order */
} dirrun;

/* One page: written by any thread (report_one, its messages kept), then
 * finished in walk order (messages, index row, exit code). */
typedef struct page_item {
    dirrun *d;
    char path[4200], out[4200];
    size_t o0;                  /* the page's name in the index: out + o0 */
    arb_archive *a;
    uint64_t member;
    int rc;
    page_verdict pv;
    cli_msgbuf msg;
} page_item;

static void page_work(void *p)
{
    page_item *it = p;
    cli_msgs_begin(&it->msg);
    it->rc = report_one(it->path, it->a, it->member, it->out, it->d->as, &it->pv);
    cli_msgs_end(&it->msg);
}

static int page_done(void *ctx, void *p)
{
    dirrun *d = ctx;
    page_item *it = p;
    cli_msgs_print(&it->msg);
    if (d->index) {
        char shown[4096];
        struct stat st;
        int written = stat(it->out, &st) == 0;
        arb_an_report_index_row(d->index, written ? it->out + it->o0 : NULL,
                                cli_stdio_names(it->path, shown, sizeof shown), it->pv.word, it->pv.detail);
    }
    if (it->rc > d->worst) d->worst = it->rc;
    d->n++;
    if (it->rc == EXIT_INTERNAL) d->stop = 1;
    return 0;
}

static int report_match(void *ctx, const char *path, arb_archive *a, unsigned long long member)
{
    dirrun *d = ctx;
    if (d->stop) return -1;
    size_t rl = strlen(d->root);
    const char *rel = strncmp(path, d->root, rl) == 0 ? path + rl : path;
    if (d->archive) {
        /* an archive given itself: its pages are named after its base name */
        const char *b = strrchr(d->root, '/');
        rel = path + (b ? (size_t)(b + 1 - d->root) : 0);
    }
    while (*rel == '/') rel++;
    page_item *it = cli_pool_slot(d->pool);
    if (!it) return -1;
    it->d = d;
    it->a = a;
    it->member = member;
    it->o0 = strlen(d->outdir) + 1;
    if (cli_flat_name(it->out, sizeof it->out, d->outdir, rel, ".html") ||
        (size_t)snprintf(it->path, sizeof it->path, "%s", path) >= sizeof it->path) {
        cli_pool_drain(d->pool); /* this message after the pages before it */
        fprintf(stderr, "arbiter report: %s: path too long for a page name\n", cli_esc(path));
        if (EXIT_INPUT > d->worst) d->worst = EXIT_INPUT;
        return 0; /* the slot stays unsubmitted: the next match takes it */
    }
    cli_pool_submit(d->pool);
    return 0;
}

/* What of an archive is no match (a cut member, unread bytes): a row of
 * the index, and exit 3. */
static void report_bad(void *ctx, const arb_error *err)
{
    dirrun *d = ctx;
    cli_pool_drain(d->pool); /* the rows of the matches before it first */
    char t[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    arb_error_format(err, t, sizeof t);
    fprintf(stderr, "arbiter report: %s\n", cli_esc(t));
    if (d->index) arb_an_report_index_row(d->index, NULL, err->where, err->code == ARB_ETRUNC ? "TRUNCATED" : "CORRUPT", t);
    if (EXIT_INPUT > d->worst) d->worst = EXIT_INPUT;
}

/* An archive's member pages are finished before it is closed. */
static void report_drain(void *ctx) { cli_pool_drain(((dirrun *)ctx)->pool); }

static int report_dir_one(void *ctx, const char *path)
{
    return cli_each_match(path, report_match, report_bad, report_drain, ctx);
}


static const char *const report_usage[] = {
    "report FILE -o OUT.html [--as SEAT]",
    "report DIR|ARCHIVE -o OUTDIR [--as SEAT] [-j N]",
    NULL
};
static const cli_opt report_opts[] = {
    { "as", 'a', 0, CLI_ARG_SEAT, "SEAT", "write only what SEAT (0-based or P1..P4) could see: other seats' hidden cards, deck order and face-down identities are not in the file at all. Without it the judge's file has every view and a toggle.", 0, 0, CLI_SH_NONE },
    CLI_OPT_OUTPUT("the file to write; '-' writes to stdout."),
    CLI_OPT_JOBS("with a DIR or ARCHIVE, write N pages at a time (the same pages, index and messages, in walk order)"),
    CLI_OPT_END
};
const cli_spec cli_spec_report = {
    .name = "report",
    .summary = "self-contained HTML report of a replay (-o OUT.html)",
    .usage = report_usage,
    .description =
        "Write the judge's viewer: one self-contained HTML file (no network, no\n"
        "external script or font). It opens on the verdict (VERIFIED, or DOES NOT\n"
        "VERIFY with the first divergence linked; a match started from a position\n"
        "says so), then a board drawn from the state tree at the selected record\n"
        "(every zone and counter, whose decision it is, what the record changed),\n"
        "a slider, arrow keys, Home/End, jump to turn and a turn list to step\n"
        "through the records, and a timeline of every action and event with the\n"
        "engine's narration and rejections' rule IDs (filters: actions only, one\n"
        "seat, rejections only). OUT.html#r<INDEX> opens on record INDEX, so a\n"
        "ruling can cite it. Charts of the tracked quantities link to their records.\n",
    .opts = report_opts,
    .notes =
        "A DIR instead of FILE writes one page per *.tcgr under it (recursive,\n"
        "sorted) into the directory OUT, one page per path: DIR/x.tcgr as\n"
        "OUT/x.tcgr.html, DIR/a/x.tcgr as OUT/a%2Fx.tcgr.html ('/' is %2F, '%' %25);\n"
        "an ARCHIVE (given, or found under DIR) one page per member: member 3 of\n"
        "day.tcgr as OUT/day.tcgr%233.html ('#' is %23). OUT/index.html lists every\n"
        "match with the verdict its page opens on and a link to it.\n"
        "\n"
        "OUT is written to OUT.part and renamed; an OUT that exists and is not a\n"
        "regular file (a device, FIFO, directory) is refused, not replaced: use\n"
        "'-o -' to write to stdout. A truncated replay is shown up to its last\n"
        "complete record (noted on stderr), then the command exits 3.\n"
        "\n"
        "Every file that is there gets a page: one that does not verify opens on\n"
        "DOES NOT VERIFY, one no record of which can be read (corrupt, of an\n"
        "unsupported game or version) on UNREADABLE with the offset, a consistent\n"
        "match without an outcome on CONSISTENT, NOT FINISHED.\n",
    .exit = "(as verify's): 0 written and the file verifies (or is consistent and unfinished); 1 written, the file does not verify; 2 usage; 3 missing, corrupt, truncated or unsupported file (its page written when the file exists) or unwritable output.",
    .operands = CLI_ARG_FILE,
    .run = cmd_report,
};


int cmd_report(int argc, char **argv)
{
    const char *outp = NULL, *as = NULL;
    unsigned long long jobs = 1;
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_report, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'o': outp = p.arg; break;
        case 'a': as = p.arg; break;
        case 'j': jobs = p.num; break; /* 1..CLI_JOBS_MAX, checked by the table */
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos < 1) return cli_usage("report", "a replay FILE (or DIR) is required");
    if (p.npos > 1) return cli_usage("report", "unexpected argument '%s'", p.pos[1]);
    if (!outp) return cli_usage("report", "-o OUT.html is required");
    const char *path = p.pos[0];
    struct stat st;
    int is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    if (is_dir || arb_archive_is(path)) {
        if (!strcmp(outp, "-"))
            return cli_usage("report", "%s needs -o OUTDIR (a page per match and an index), not '-'",
                             is_dir ? "a directory of replays" : "an archive");
        if (mkdir(outp, 0777) && errno != EEXIST) {
            fprintf(stderr, "arbiter report: %s: cannot create directory: %s\n", outp, strerror(errno));
            return EXIT_INPUT;
        }
        if (stat(outp, &st) || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "arbiter report: %s: not a directory (a directory of replays writes one page per file)\n", outp);
            return EXIT_INPUT;
        }
        char ipath[4200], ipart[4300];
        snprintf(ipath, sizeof ipath, "%s/index.html", outp);
        snprintf(ipart, sizeof ipart, "%s.part", ipath);
        arb_error ierr = ARB_ERROR_INIT;
        dirrun d = { path, outp, as, EXIT_OK, 0, 0, NULL, !is_dir, NULL };
        if (!(d.pool = cli_pool_new((unsigned)jobs, sizeof(page_item), page_work, page_done, &d))) {
            fprintf(stderr, "arbiter report: out of memory\n");
            return EXIT_INTERNAL;
        }
        if (!(d.index = arb_out_create(ipath, ipart, 0666, 0, &ierr))) {
            cli_pool_end(d.pool);
            return cli_fail("report", &ierr);
        }
        char shown[4096];
        arb_an_report_index_begin(d.index, cli_stdio_names(path, shown, sizeof shown));
        cli_walk w = { "report", report_dir_one, &d, 0, 0, 0, 0 };
        int wrc = cli_walk_path(&w, path);
        cli_pool_end(d.pool);
        if (wrc < 0 || d.stop) {
            arb_out_discard(d.index, ipart);
            return EXIT_INTERNAL;
        }
        if (!d.n) {
            arb_out_discard(d.index, ipart);
            fprintf(stderr, "arbiter report: no .tcgr file under %s\n", cli_esc(path));
            return EXIT_INPUT;
        }
        if (arb_an_report_index_end(d.index)) {
            arb_out_discard(d.index, ipart);
            arb_error_where(&ierr, "%s", ipath);
            arb_error_set(&ierr, ARB_EIO, NULL, "write failed");
            return cli_fail("report", &ierr);
        }
        if (arb_out_install(d.index, ipart, ipath, 0, &ierr)) return cli_fail("report", &ierr);
        fprintf(stderr, "arbiter report: %lu page%s in %s, listed in %s\n", d.n, ARB_PLURAL(d.n), cli_esc(outp),
                cli_esc(ipath));
        return d.worst;
    }
    return report_one(path, NULL, 0, outp, as, NULL);
}

