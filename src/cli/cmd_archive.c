/* cmd_archive.c — `arbiter archive repair IN -o OUT`: the way out of an
 * archive that `record --archive` refuses to append to (frames and index
 * that disagree, bytes no frame accounts for). It writes a NEW archive
 * holding every member of IN that reads and verifies, each with its seal
 * block, and names everything it leaves behind and where; IN is never
 * changed. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

static int repair(const char *in, const char *out)
{
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, in, &err)) return cli_fail("archive repair", &err);
    const char *note;
    uint64_t n = arb_archive_count(a), off = 0, kept = 0;
    if (arb_archive_index_state(a, &note) == ARB_INDEX_CORRUPT) printf("%s: index not used: %s\n", cli_esc(in), cli_esc(note));
    arb_archive_writer *aw;
    if (arb_archive_writer_open(&aw, out, 0, 0, NULL, 0, &err)) {
        arb_archive_close(a);
        return cli_fail("archive repair", &err);
    }
    int rc = EXIT_OK;
    for (uint64_t i = 0; i < n && rc == EXIT_OK; i++) {
        const arb_archive_member *m = arb_archive_member_at(a, i);
        arb_replay *r;
        arb_verify_result res;
        arb_error e = ARB_ERROR_INIT;
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        int vrc = arb_archive_open_member(&r, a, i, NULL, &e);
        if (!vrc) {
            vrc = arb_replay_verify(r, &vo, &res, &e);
            arb_replay_close(r);
        }
        if (vrc) {
            char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            arb_error_format(&e, buf, sizeof buf);
            printf("%s#%" PRIu64 ": dropped (frame at offset %" PRIu64 "): %s\n", cli_esc(in), i, m->offset, cli_esc(buf));
            continue;
        }
        if (arb_archive_writer_copy(aw, a, i, res.status.actions, &err)) rc = cli_fail("archive repair", &err);
        else kept++;
    }
    if (arb_archive_cut(a, &off))
        printf("%s: dropped the member cut short by the end of the file (frame at offset %" PRIu64 ")\n", cli_esc(in), off);
    if (arb_archive_unread(a, &off))
        printf("%s: dropped the bytes from offset %" PRIu64 " to the end: neither a member frame nor a valid index\n",
               cli_esc(in), off);
    arb_archive_close(a);
    if (rc == EXIT_OK && kept == 0) {
        fprintf(stderr, "arbiter archive repair: %s: no member reads and verifies: no match to keep, %s not written\n",
                cli_esc(in), cli_esc(out));
        cli_archive_discard(aw, out);
        return EXIT_VERIFY;
    }
    if (rc != EXIT_OK) {
        cli_archive_discard(aw, out);
        return rc;
    }
    if (arb_archive_writer_close(aw, &err)) return cli_fail("archive repair", &err);
    printf("%s: %" PRIu64 " of %" PRIu64 " complete member(s) kept in %s\n", cli_esc(in), kept, n, cli_esc(out));
    return EXIT_OK;
}

static const char *const archive_usage[] = {
    "archive repair IN -o OUT",
    NULL
};
static const cli_opt archive_opts[] = {
    CLI_OPT_OUTPUT("the new archive OUT (must not be IN)"),
    CLI_OPT_END
};
static int archive_repair(int argc, char **argv);
static const cli_spec archive_repair_spec = {
    .name = "archive repair",
    .summary = "copy the members of IN that verify into the new archive OUT",
    .usage = archive_usage,
    .description =
        "Copy every member of the archive IN that reads and verifies (seal\n"
        "included) into the NEW archive OUT, each with its seal block, and name\n"
        "what is left behind and where: members that do not decode or verify, a\n"
        "member cut short by the end of the file, bytes that are neither a frame\n"
        "nor a valid index. IN is never changed. This is the way out when\n"
        "`record --archive` refuses to append to IN (its frames and index\n"
        "disagree, or it holds bytes no frame accounts for).\n",
    .opts = archive_opts,
    .exit = "0 OUT written; 1 no member verifies (OUT not written); 2 usage; 3 IN is not an archive, or OUT cannot be written.",
    .operands = CLI_ARG_FILE,
    .run = archive_repair,
};
static const cli_spec *const archive_subs[] = { &archive_repair_spec, NULL };
const cli_spec cli_spec_archive = {
    .name = "archive",
    .summary = "repair: copy an archive's members that verify into a new file (repair IN -o OUT)",
    .exit = "0 OUT written; 1 no member verifies (OUT not written); 2 usage; 3 IN is not an archive, or OUT cannot be "
            "written.",
    .subs = archive_subs,
    .run = cmd_archive,
};

int cmd_archive(int argc, char **argv)
{
    return cli_sub_run(&cli_spec_archive, argc, argv);
}




static int archive_repair(int argc, char **argv)
{
    const char *out = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &archive_repair_spec, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'o': out = p.arg; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos != 1)
        return cli_usage("archive", "the command is `arbiter archive repair IN -o OUT`");
    if (!out) return cli_usage("archive", "repair writes a new archive: -o OUT is required");
    struct stat st;
    if (lstat(out, &st) == 0) return cli_usage("archive", "%s exists: repair writes a new file, never over one", out);
    return repair(p.pos[0], out);
}
