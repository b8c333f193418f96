/* cmd_extract.c — `arbiter extract FILE#N -o M.tcgr`: one match of an
 * archive as a standalone v2 replay (its content recompressed without the
 * archive's dictionary, its seal block kept), and the archive listing that
 * `arbiter info ARCHIVE` prints (cli_archive_info). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* "FILE#N" → file (in buf) and N; 0 ok. */
static int split_member(const char *spec, char *buf, size_t n, uint64_t *idx)
{
    const char *h = strrchr(spec, '#');
    if (!h || !h[1] || (size_t)(h - spec) >= n) return -1;
    uint64_t v = 0;
    for (const char *q = h + 1; *q; q++) {
        if (*q < '0' || *q > '9' || v > UINT64_MAX / 10 - 1) return -1;
        v = v * 10 + (uint64_t)(*q - '0');
    }
    memcpy(buf, spec, (size_t)(h - spec));
    buf[h - spec] = '\0';
    *idx = v;
    return 0;
}

int cli_archive_info(const char *path, int json)
{
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, path, &err)) return cli_fail("info", &err);
    const char *note;
    arb_archive_index st = arb_archive_index_state(a, &note);
    uint64_t cutoff = 0, n = arb_archive_count(a), actions = 0, content = 0;
    int cut = arb_archive_cut(a, &cutoff);
    FILE *f = fopen(path, "rb");
    long size = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fclose(f);
    }
    const char *stn = st == ARB_INDEX_OK ? "ok" : st == ARB_INDEX_MISSING ? "missing" : "corrupt";
    if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        printf(",\"archive\":true,\"bytes\":%ld,\"members\":%" PRIu64 ",\"index\":\"%s\"", size, n, stn);
        if (note[0]) {
            printf(",\"note\":");
            cli_json_str(stdout, note);
        }
        if (cut) printf(",\"cut_offset\":%" PRIu64, cutoff);
        printf(",\"list\":[");
    } else {
        printf("file:       %s\n", path);
        printf("format:     tcgr-2 archive (envelope version 2, flags 0x02)\n");
        printf("members:    %" PRIu64 "%s\n", n, cut ? " complete, and one cut short by the end of the file" : "");
        printf("index:      %s%s%s\n", stn, note[0] ? ": " : "", note);
        printf("  #      offset  game       seed                  actions  outcome\n");
    }
    int worst = EXIT_OK;
    for (uint64_t i = 0; i < n; i++) {
        const arb_archive_member *m = arb_archive_member_at(a, i);
        arb_replay *r;
        arb_error e = ARB_ERROR_INIT;
        if (arb_archive_open_member(&r, a, i, NULL, &e)) {
            worst = EXIT_INPUT;
            char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            arb_error_format(&e, buf, sizeof buf);
            if (json) {
                printf("%s{\"member\":%" PRIu64 ",\"error\":", i ? "," : "", i);
                cli_json_str(stdout, buf);
                printf("}");
            } else printf("  %-5" PRIu64 " %-10" PRIu64 " %s\n", i, m->offset, buf);
            continue;
        }
        const arb_replay_header *h = arb_replay_get_header(r);
        arb_replay_record rec;
        int winner = -2, rc;
        char reason[64] = "";
        uint32_t turns = 0;
        while ((rc = arb_replay_next(r, &rec, &e)) == 1)
            if (rec.kind == ARB_REC_OUTCOME) {
                winner = rec.winner;
                turns = rec.turn;
                snprintf(reason, sizeof reason, "%s", rec.reason);
            }
        arb_replay_status s;
        arb_replay_get_status(r, &s);
        actions += s.actions;
        content += s.decompressed;
        if (rc < 0) worst = EXIT_INPUT;
        if (json) {
            printf("%s{\"member\":%" PRIu64 ",\"offset\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"game\":", i ? "," : "", i,
                   m->offset, m->zlen + m->slen);
            cli_json_str(stdout, h->game);
            printf(",\"seed\":%" PRIu64 ",\"players\":%d,\"actions\":%" PRIu64 ",\"signed\":%s", h->seed, h->players,
                   s.actions, m->slen ? "true" : "false");
            if (winner > -2) {
                printf(",\"winner\":%d,\"reason\":", winner);
                cli_json_str(stdout, reason);
                printf(",\"turns\":%" PRIu32, turns);
            }
            if (rc < 0) printf(",\"complete\":false");
            printf("}");
        } else {
            char out[320];
            if (rc < 0) snprintf(out, sizeof out, "unreadable: %s", e.msg);
            else if (winner >= 0) snprintf(out, sizeof out, "P%d wins (%s), %" PRIu32 " turns", winner + 1, reason, turns);
            else if (winner == -1) snprintf(out, sizeof out, "draw (%s), %" PRIu32 " turns", reason, turns);
            else snprintf(out, sizeof out, "no outcome");
            printf("  %-5" PRIu64 " %-7" PRIu64 " %dp %-7s %-20" PRIu64 "  %-7" PRIu64 "  %s%s\n", i, m->offset, h->players,
                   h->game, h->seed, s.actions, out, m->slen ? ", signed" : "");
        }
        arb_replay_close(r);
    }
    if (json) {
        printf("],\"actions\":%" PRIu64 ",\"decompressed\":%" PRIu64 ",\"bytes_per_action\":%.3f}\n", actions, content,
               actions ? (double)size / (double)actions : 0.0);
    } else {
        printf("size:       %ld bytes (%" PRIu64 " decompressed), %" PRIu64 " actions, %.3f bytes/action\n", size,
               content, actions, actions ? (double)size / (double)actions : 0.0);
    }
    arb_archive_close(a);
    if (st == ARB_INDEX_CORRUPT || cut) worst = EXIT_INPUT;
    return worst;
}

static const char *const extract_usage[] = {
    "extract ARCHIVE#N -o FILE.tcgr",
    NULL
};
static const cli_opt extract_opts[] = {
    CLI_OPT_OUTPUT("the standalone replay to write ('-' = stdout)"),
    CLI_OPT_END
};
const cli_spec cli_spec_extract = {
    .name = "extract",
    .summary = "one match of an archive as a standalone replay (ARCHIVE#N -o FILE)",
    .usage = extract_usage,
    .description =
        "Write match N (0-based; `arbiter info ARCHIVE` lists them) of an archive\n"
        "as a standalone replay. Its content is byte for byte the member's, so a\n"
        "seal (signature) made in the archive still verifies.\n",
    .opts = extract_opts,
    .exit = "0 written; 2 usage; 3 not an archive, no such member, or the member does not decode.",
    .operands = CLI_ARG_FILE,
    .run = cmd_extract,
};




int cmd_extract(int argc, char **argv)
{
    const char *out = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_extract, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'o': out = p.arg; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos != 1) return cli_usage("extract", "give exactly one ARCHIVE#N");
    if (!out) return cli_usage("extract", "-o FILE is required");
    int ec = cli_output_target("extract", out);
    if (ec) return ec;
    char file[4096];
    uint64_t idx;
    if (split_member(p.pos[0], file, sizeof file, &idx))
        return cli_usage("extract", "'%s' is not ARCHIVE#N (N: the member's 0-based number)", p.pos[0]);
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, file, &err)) return cli_fail("extract", &err);
    int rc = EXIT_OK;
    if (idx >= arb_archive_count(a)) {
        fprintf(stderr, "arbiter extract: %s: the archive holds %" PRIu64 " complete member(s)\n", file,
                arb_archive_count(a));
        rc = EXIT_INPUT;
    } else if (arb_archive_extract(a, idx, out, &err)) rc = cli_fail("extract", &err);
    arb_archive_close(a);
    return rc;
}
