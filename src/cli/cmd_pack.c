/* cmd_pack.c — `arbiter pack FILE|DIR|ARCHIVE… -o OUT` (replays into one
 * archive) and `arbiter unpack ARCHIVE -o DIR` (an archive into one
 * standalone replay per member). Both are lossless: a member carries its
 * file's content exactly as written, its envelope flags and its seal block,
 * so it verifies as the file does (FORMAT.md §C.4); pack → unpack → pack
 * gives the same bytes. Neither replaces anything before it is complete:
 * pack writes OUT.part and renames it, unpack writes each file through its
 * own .part into a directory it creates (or an empty one). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/paths.h"

static const char *const pack_usage[] = { "pack FILE|DIR|ARCHIVE... -o OUT [--quiet]", NULL };
static const cli_opt pack_opts[] = {
    CLI_OPT_OUTPUT("the archive to write"),
    CLI_OPT_QUIET("print only the closing summary"),
    CLI_OPT_END
};
const cli_spec cli_spec_pack = {
    .name = "pack",
    .summary = "replays (files, directories, archives) into one archive, seals kept",
    .usage = pack_usage,
    .description =
        "Write the matches of the given replays into the NEW archive OUT, in the\n"
        "order given (a directory: its *.tcgr files, recursive and sorted; an\n"
        "archive: each of its members in order). Each member keeps its file's\n"
        "content, envelope flags and seal block exactly, so `verify` says of it\n"
        "what it says of the file (a signature stays valid). Format-1 replays\n"
        "cannot be members (FORMAT.md §C). OUT is written as OUT.part and renamed\n"
        "when complete; when an input does not read to its end nothing is written.\n",
    .opts = pack_opts,
    .exit = "0 written; 2 usage; 3 an input is unreadable, truncated, format 1 or not a replay, or OUT cannot be "
            "written (nothing written).",
    .operands = CLI_ARG_FILE,
    .run = cmd_pack,
};
static const char *const unpack_usage[] = { "unpack ARCHIVE -o DIR [--quiet]", NULL };
static const cli_opt unpack_opts[] = {
    { "output", 'o', 'o', CLI_ARG_DIR, "DIR", "the directory to write into", 0, 0, CLI_SH_OUTPUT },
    CLI_OPT_QUIET("print only the closing summary"),
    CLI_OPT_END
};
const cli_spec cli_spec_unpack = {
    .name = "unpack",
    .summary = "an archive into one standalone replay per member, seals kept",
    .usage = unpack_usage,
    .description =
        "Write every member of ARCHIVE as a standalone replay DIR/N.tcgr (N the\n"
        "member's 0-based number, zero-padded so that the names sort in member\n"
        "order), as `arbiter extract ARCHIVE#N` does: the same content and seal,\n"
        "so each file verifies as its member does, and `arbiter pack DIR`\n"
        "rebuilds the same archive. DIR is created, or must be empty. A member\n"
        "that does not decode, or one cut short by the end of the file, is named\n"
        "and not written; the others are.\n",
    .opts = unpack_opts,
    .exit = "0 every member written; 2 usage; 3 ARCHIVE is not an archive, a member could not be written, DIR is "
            "not an empty directory.",
    .operands = CLI_ARG_FILE,
    .run = cmd_unpack,
};

/* The options pack and unpack share: 0 to go on, else -1 with p->rc the
 * exit code (help printed, or a usage error). */
static int parse(const cli_spec *s, cli_parser *p, int argc, char **argv, const char **out, int *quiet)
{
    int c;
    cli_parse_init(p, s, argc, argv);
    while ((c = cli_next(p)) > 0) {
        switch (c) {
        case 'o': *out = p->arg; break;
        case 'q': *quiet = 1; break;
        default: p->rc = cli_unhandled(p); return -1;
        }
    }
    if (c < 0) return -1;
    if (!*out) {
        p->rc = cli_usage(s->name, "-o %s is required", s == &cli_spec_pack ? "OUT" : "DIR");
        return -1;
    }
    return 0;
}

/* The members of archive path, in order, added to aw. */
static int pack_archive(arb_archive_writer *aw, const char *path, int quiet, uint64_t *matches, uint64_t *actions)
{
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, path, &err)) return cli_fail("pack", &err);
    uint64_t n = arb_archive_count(a), off;
    int rc = EXIT_OK;
    if (arb_archive_verdict(a, &err) == ARB_EFORMAT || arb_archive_cut(a, &off)) {
        /* lossless or nothing: bytes no member holds would be lost */
        if (!err.msg[0]) {
            arb_error_where(&err, "%s: offset %" PRIu64, path, off);
            arb_error_set(&err, ARB_ETRUNC, NULL, "a member is cut short by the end of the file");
        }
        fprintf(stderr, "arbiter pack: %s: not every byte of it is a complete member: "
                        "`arbiter archive repair` first\n", cli_esc(path));
        rc = cli_fail("pack", &err);
    }
    for (uint64_t i = 0; i < n && rc == EXIT_OK; i++) {
        /* the member's own action count: the index's, or counted */
        arb_replay *r;
        uint64_t acts = 0;
        arb_replay_record rec;
        int nr = arb_archive_open_member(&r, a, i, NULL, &err);
        if (!nr) {
            while ((nr = arb_replay_next(r, &rec, &err)) == 1) acts += rec.kind == ARB_REC_ACTION;
            arb_replay_close(r);
        }
        if (nr < 0 || arb_archive_writer_copy(aw, a, i, acts, &err)) {
            rc = cli_fail("pack", &err);
            break;
        }
        if (!quiet) printf("%s#%" PRIu64 ": %" PRIu64 " actions\n", cli_esc(path), i, acts);
        (*matches)++;
        *actions += acts;
    }
    arb_archive_close(a);
    return rc;
}

int cmd_pack(int argc, char **argv)
{
    const char *out = NULL;
    int quiet = 0;
    cli_parser p;
    if (parse(&cli_spec_pack, &p, argc, argv, &out, &quiet)) return p.rc;
    if (p.npos < 1) return cli_usage("pack", "no replay given");
    int orc = cli_output_target("pack", out);
    if (orc) return orc;
    cli_pathlist fl = { 0 };
    if (cli_pathlist_build(&fl, "pack", p.npos, p.pos)) {
        fprintf(stderr, "arbiter pack: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (fl.n == 0) {
        cli_pathlist_free(&fl);
        fprintf(stderr, "arbiter pack: no .tcgr file under the given directories\n");
        return EXIT_INPUT;
    }
    arb_archive_writer *aw;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_writer_open(&aw, out, 0, 0, NULL, 0, &err)) {
        cli_pathlist_free(&fl);
        return cli_fail("pack", &err);
    }
    uint64_t matches = 0, actions = 0;
    int rc = EXIT_OK;
    for (size_t i = 0; i < fl.n && rc == EXIT_OK; i++) {
        const char *pth = fl.paths[i];
        if (arb_archive_is(pth)) {
            rc = pack_archive(aw, pth, quiet, &matches, &actions);
            continue;
        }
        uint64_t acts;
        if (arb_archive_writer_add_file(aw, pth, &acts, &err)) {
            rc = cli_fail("pack", &err);
            break;
        }
        if (!quiet) printf("%s: %" PRIu64 " actions\n", cli_esc(pth), acts);
        matches++;
        actions += acts;
    }
    cli_pathlist_free(&fl);
    if (rc != EXIT_OK) {
        cli_archive_discard(aw, out);
        fprintf(stderr, "arbiter pack: %s not written\n", cli_esc(out));
        return rc;
    }
    if (arb_archive_writer_close(aw, &err)) return cli_fail("pack", &err);
    struct stat st;
    long long bytes = stat(out, &st) == 0 ? (long long)st.st_size : -1;
    printf("packed %" PRIu64 " match%s (%" PRIu64 " actions) into %s, %lld bytes\n", matches, matches == 1 ? "" : "es",
           actions, cli_esc(out), bytes);
    return EXIT_OK;
}

/* DIR exists as an empty directory, or is created. */
static int target_dir(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0) {
        if (errno == ENOENT && mkdir(dir, 0777) == 0) return EXIT_OK;
        fprintf(stderr, "arbiter unpack: %s: cannot create the directory: %s\n", cli_esc(dir), strerror(errno));
        return EXIT_INPUT;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "arbiter unpack: %s: exists and is not a directory\n", cli_esc(dir));
        return EXIT_INPUT;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "arbiter unpack: %s: cannot read the directory: %s\n", cli_esc(dir), strerror(errno));
        return EXIT_INPUT;
    }
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = 0;
    closedir(d);
    if (!empty) {
        fprintf(stderr, "arbiter unpack: %s: the directory is not empty (unpack never writes over a file)\n",
                cli_esc(dir));
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cmd_unpack(int argc, char **argv)
{
    const char *dir = NULL;
    int quiet = 0;
    cli_parser p;
    if (parse(&cli_spec_unpack, &p, argc, argv, &dir, &quiet)) return p.rc;
    if (p.npos != 1) return cli_usage("unpack", "give exactly one ARCHIVE");
    const char *in = p.pos[0];
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, in, &err)) return cli_fail("unpack", &err);
    int rc = target_dir(dir);
    if (rc) {
        arb_archive_close(a);
        return rc;
    }
    uint64_t n = arb_archive_count(a), written = 0, off;
    int width = 4;
    for (uint64_t v = n ? n - 1 : 0; v >= 10000; v /= 10) width++;
    for (uint64_t i = 0; i < n; i++) {
        char path[4200];
        if ((size_t)snprintf(path, sizeof path, "%s/%0*" PRIu64 ".tcgr", dir, width, i) >= sizeof path) {
            fprintf(stderr, "arbiter unpack: %s: path too long\n", cli_esc(dir));
            rc = EXIT_INPUT;
            break;
        }
        arb_error e = ARB_ERROR_INIT;
        if (arb_archive_extract(a, i, path, &e)) {
            char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            arb_error_format(&e, buf, sizeof buf);
            fprintf(stderr, "arbiter unpack: %s#%" PRIu64 " (frame at offset %" PRIu64 "): not written: %s\n", cli_esc(in),
                    i, arb_archive_member_at(a, i)->offset, cli_esc(buf));
            rc = EXIT_INPUT;
            continue;
        }
        written++;
        if (!quiet) printf("%s#%" PRIu64 " -> %s\n", cli_esc(in), i, cli_esc(path));
    }
    if (arb_archive_cut(a, &off)) {
        fprintf(stderr, "arbiter unpack: %s: the member at offset %" PRIu64 " is cut short by the end of the file: "
                        "not written\n", cli_esc(in), off);
        rc = EXIT_INPUT;
    }
    arb_archive_close(a);
    printf("unpacked %" PRIu64 " of %" PRIu64 " member%s of %s into %s\n", written, n, n == 1 ? "" : "s", cli_esc(in),
           cli_esc(dir));
    return rc;
}
