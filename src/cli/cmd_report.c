/* cmd_report.c — `arbiter report FILE -o OUT.html`: a self-contained HTML
 * report. Written to OUT.part and renamed, so a failed run leaves no half
 * report behind. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *outp = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': outp = optarg; break;
        case 'h':
            printf("usage: arbiter report FILE -o OUT.html\n\n"
                   "Write one self-contained HTML file (no network, no script, no external\n"
                   "font): header and players with their decks, outcome, an SVG chart per\n"
                   "tracked quantity over the turns (e.g. naramo core temperature, Power\n"
                   "Orders and HACK per player), and a timeline of every action with the\n"
                   "engine's narration and the rule ID of any rejection. A toggle at the top\n"
                   "shows the match as the judge saw it or as one seat could see it.\n"
                   "'-o -' writes to stdout.\n\n"
                   "OUT is written to OUT.part and renamed; an OUT that exists and is not a\n"
                   "regular file (a device, FIFO, directory) is refused, not replaced: use\n"
                   "'-o -' to write to stdout. A truncated replay is reported up to its last\n"
                   "complete record (noted on stderr), then the command exits 3.\n"
                   "Exit: 0 written, 2 usage, 3 missing/corrupt/truncated file or unwritable\n"
                   "output.\n");
            return EXIT_OK;
        default: return cli_usage("report", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_usage("report", "a replay FILE is required");
    if (optind + 1 < argc) return cli_usage("report", "unexpected argument '%s'", argv[optind + 1]);
    if (!outp) return cli_usage("report", "-o OUT.html is required");
    const char *path = argv[optind];
    arb_an_source *src;
    int ec = cli_an_open("report", path, &src);
    if (ec) return ec;
    char part[4096];
    FILE *out = stdout;
    int to_stdout = !strcmp(outp, "-");
    if (!to_stdout && (ec = cli_output_target("report", outp))) {
        arb_an_source_free(src);
        return ec;
    }
    if (!to_stdout) {
        snprintf(part, sizeof part, "%s.part", outp);
        out = fopen(part, "wb");
        if (!out) {
            arb_an_source_free(src);
            fprintf(stderr, "arbiter report: %s: cannot create: ", part);
            perror(NULL);
            return EXIT_INPUT;
        }
    }
    arb_error err = ARB_ERROR_INIT;
    arb_an_walk_result res;
    int rc = arb_an_report(src, out, &res, &err);
    arb_an_source_free(src);
    if (!to_stdout) {
        if (fclose(out) && !rc) rc = arb_error_set(&err, ARB_EIO, NULL, "cannot write %s", part);
        if (!rc && rename(part, outp)) rc = arb_error_set(&err, ARB_EIO, NULL, "cannot rename %s to %s", part, outp);
        if (rc) remove(part);
    } else if ((fflush(stdout) || ferror(stdout)) && !rc) {
        rc = arb_error_set(&err, ARB_EIO, NULL, "cannot write the report to stdout");
    }
    if (rc) return cli_fail("report", &err);
    return cli_an_truncated("report", path, &res);
}
