/* cmd_report.c — `arbiter report FILE -o OUT.html [--as SEAT]`: the judge's
 * viewer, one self-contained HTML file. The file is verified first
 * (arb_replay_verify_file) so the page opens on the verifier's verdict.
 * Written to OUT.part and renamed, so a failed run leaves no half report
 * behind. */
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/replay.h"
#include "cli/cli.h"
#include "cli/paths.h"

/* The verifier's verdict for the banner. In a seat's file the sentence on
 * another seat's diverging action is left out: an engine's rejection can
 * name the card it was about. */
static char signed_by[160];

static void verdict(const char *path, int view, arb_an_report_opts *o)
{
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    arb_verify_result vr;
    arb_error err = ARB_ERROR_INIT;
    memset(&vr, 0, sizeof vr);
    int rc = arb_replay_verify_file(path, &vo, &vr, &err);
    o->verdict_set = 1;
    o->verified = rc == ARB_OK;
    o->divergence = -1;
    /* The seal (#15): no key is trusted here, so a valid seal names its key
     * only; `verify --key` says whether that key is trusted. */
    if (vr.seal == ARB_SEAL_VALID) {
        snprintf(signed_by, sizeof signed_by, "key %s (signature valid; not checked against a trusted key: "
                 "arbiter verify --key)", vr.signer_id);
        o->signed_by = signed_by;
    } else if (vr.seal == ARB_SEAL_BAD || vr.seal == ARB_SEAL_MALFORMED) {
        /* a broken seal is the verdict's first fact, not "Not signed" */
        snprintf(signed_by, sizeof signed_by, "%s", vr.seal == ARB_SEAL_BAD ?
                 "SIGNATURE INVALID: the seal does not match the file's content (altered after signing, or forged)" :
                 "SEAL MALFORMED: the bytes after the body are not a seal block");
        o->signed_by = signed_by;
        o->seal_broken = 1;
    }
    if (rc == ARB_OK) return;
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

/* One replay to one page (OUT.part, renamed; '-' is stdout). */
static int report_one(const char *path, const char *outp, const char *as)
{
    arb_an_source *src;
    int ec = cli_an_open("report", path, &src);
    if (ec) return ec;
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
    verdict(path, view, &ro);
    int rc = arb_an_report_ex(src, &ro, out, &res, &err);
    arb_an_source_free(src);
    if (!to_stdout) {
        if (rc) arb_out_discard(out, part);
        else rc = arb_out_install(out, part, outp, 0, &err);
    } else if ((fflush(stdout) || ferror(stdout)) && !rc) {
        rc = arb_error_set(&err, ARB_EIO, NULL, "cannot write the report to stdout");
    }
    if (rc) return cli_fail("report", &err);
    return cli_an_end("report", &res, EXIT_OK);
}

/* report DIR -o OUTDIR: one page per *.tcgr under DIR (cli/paths.c), named
 * after its path below DIR with '/' written "%2F" and '%' "%25", so that
 * DIR/a/x.tcgr and DIR/b/x.tcgr are two pages (a%2Fx.tcgr.html,
 * b%2Fx.tcgr.html) and a file directly in DIR keeps its plain name; the
 * worst exit code wins. */
typedef struct dirrun {
    const char *root, *outdir, *as;
    int worst;
    unsigned long n;
} dirrun;

static int report_dir_one(void *ctx, const char *path)
{
    dirrun *d = ctx;
    size_t rl = strlen(d->root);
    const char *rel = strncmp(path, d->root, rl) == 0 ? path + rl : path;
    while (*rel == '/') rel++;
    char out[4200];
    size_t o = (size_t)snprintf(out, sizeof out, "%s/", d->outdir);
    for (const char *p = rel; *p && o + 8 < sizeof out; p++) {
        if (*p == '/' || *p == '%') o += (size_t)snprintf(out + o, sizeof out - o, "%%%02X", (unsigned char)*p);
        else out[o++] = *p;
    }
    if (o + 8 >= sizeof out) {
        fprintf(stderr, "arbiter report: %s: path too long for a page name\n", cli_esc(path));
        if (EXIT_INPUT > d->worst) d->worst = EXIT_INPUT;
        return 0;
    }
    memcpy(out + o, ".html", 6);
    int rc = report_one(path, out, d->as);
    if (rc > d->worst) d->worst = rc;
    d->n++;
    return rc == EXIT_INTERNAL ? -1 : 0;
}

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "as", required_argument, NULL, 'a' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *outp = NULL, *as = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': outp = optarg; break;
        case 'a': as = optarg; break;
        case 'h':
            printf("usage: arbiter report FILE -o OUT.html [--as SEAT]\n       arbiter report DIR -o OUTDIR [--as SEAT]\n\n"
                   "Write the judge's viewer: one self-contained HTML file (no network, no\n"
                   "external script or font). It opens on the verdict (VERIFIED, or DOES NOT\n"
                   "VERIFY with the first divergence linked; a match started from a position\n"
                   "says so), then a board drawn from the state tree at the selected record\n"
                   "(every zone and counter, whose decision it is, what the record changed),\n"
                   "a slider, arrow keys, Home/End, jump to turn and a turn list to step\n"
                   "through the records, and a timeline of every action and event with the\n"
                   "engine's narration and rejections' rule IDs (filters: actions only, one\n"
                   "seat, rejections only). OUT.html#r<INDEX> opens on record INDEX, so a\n"
                   "ruling can cite it. Charts of the tracked quantities link to their records.\n"
                   "\n"
                   "  --as SEAT   write only what SEAT (0-based or P1..P4) could see: other\n"
                   "              seats' hidden cards, deck order and face-down identities are\n"
                   "              not in the file at all. Without it the judge's file has every\n"
                   "              view and a toggle.\n"
                   "  -o OUT      the file to write; '-' writes to stdout.\n"
                   "A DIR instead of FILE writes one page per *.tcgr under it (recursive,\n"
                   "sorted) into the directory OUT, one page per path: DIR/x.tcgr as\n"
                   "OUT/x.tcgr.html, DIR/a/x.tcgr as OUT/a%%2Fx.tcgr.html ('/' is %%2F, '%%' %%25).\n\n"
                   "OUT is written to OUT.part and renamed; an OUT that exists and is not a\n"
                   "regular file (a device, FIFO, directory) is refused, not replaced: use\n"
                   "'-o -' to write to stdout. A truncated replay is shown up to its last\n"
                   "complete record (noted on stderr), then the command exits 3.\n\n"
                   "Exit: 0 written (also for a file that does not verify: the page says so),\n"
                   "2 usage, 3 missing/corrupt/truncated file or unwritable output.\n");
            return EXIT_OK;
        default: return cli_usage("report", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_usage("report", "a replay FILE (or DIR) is required");
    if (optind + 1 < argc) return cli_usage("report", "unexpected argument '%s'", argv[optind + 1]);
    if (!outp) return cli_usage("report", "-o OUT.html is required");
    const char *path = argv[optind];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!strcmp(outp, "-")) return cli_usage("report", "a directory of replays needs -o OUTDIR, not '-'");
        if (mkdir(outp, 0777) && errno != EEXIST) {
            fprintf(stderr, "arbiter report: %s: cannot create directory: %s\n", outp, strerror(errno));
            return EXIT_INPUT;
        }
        if (stat(outp, &st) || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "arbiter report: %s: not a directory (a directory of replays writes one page per file)\n", outp);
            return EXIT_INPUT;
        }
        dirrun d = { path, outp, as, EXIT_OK, 0 };
        cli_walk w = { "report", report_dir_one, &d, 0, 0, 0, 0 };
        if (cli_walk_path(&w, path) < 0) return EXIT_INTERNAL;
        if (!d.n) {
            fprintf(stderr, "arbiter report: no .tcgr file under %s\n", path);
            return EXIT_INPUT;
        }
        fprintf(stderr, "arbiter report: %lu page%s in %s\n", d.n, ARB_PLURAL(d.n), outp);
        return d.worst;
    }
    return report_one(path, outp, as);
}

