/* cmd_merge.c — `arbiter merge`: combine the NDJSON outputs of sharded
 * `arbiter verify --manifest … --shard K/N --json` runs into one summary:
 * totals, every failure with its first divergence, and what is missing or
 * duplicated (a shard without its shard_done line, manifest entries no
 * shard reported, entries reported twice), and a match verified twice (the
 * same match_id in two entries, e.g. in two shards: the later fails as a
 * duplicate). Streams: memory holds one bit per manifest entry, one
 * match_id per verified match (cli/dupes.h) and the first MERGE_KEEP
 * failures. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dupes.h"
#include "cli/results.h"

#define MERGE_KEEP 1000
#define MERGE_LIST 20
#define MERGE_MAX_ENTRIES 4000000000ULL
#define MERGE_MAX_SHARDS 1000000ULL

typedef struct counter {
    char name[32];
    uint64_t n;
} counter;

typedef struct merge {
    uint64_t shards_n;          /* N, 0 until known */
    uint8_t *shard_seen;        /* per K: shard_done lines seen */
    uint64_t entries;           /* manifest entries, 0 until known */
    int entries_known;
    uint8_t *seen;              /* bitmap of reported indexes */
    uint64_t seen_cap;          /* bits */
    uint64_t results, ok, failed, dup_entries, dup_shards, unindexed;
    uint64_t dup_list[MERGE_LIST];
    unsigned ndup_list;
    counter status[16], games[32];
    unsigned nstatus, ngames;
    char *keep[MERGE_KEEP];
    unsigned nkeep;
    uint64_t problems;          /* inconsistent inputs */
    unsigned inputs, summed;    /* inputs read; of them, closed by a matching summary line */
    FILE *out;
    cli_dupes ids;              /* match_id of every ok line: one match counted once */
    uint64_t dup_matches;
} merge;

static void count(counter *c, unsigned *n, unsigned cap, const char *name)
{
    for (unsigned i = 0; i < *n; i++)
        if (strcmp(c[i].name, name) == 0) { c[i].n++; return; }
    if (*n < cap) {
        snprintf(c[*n].name, sizeof c[*n].name, "%s", name);
        c[(*n)++].n = 1;
    } else {
        c[cap - 1].n++; /* last slot absorbs overflow */
    }
}

static int bit_test_set(merge *m, uint64_t i)
{
    if (i >= m->seen_cap) {
        uint64_t cap = m->seen_cap ? m->seen_cap : 4096;
        while (cap <= i) cap *= 2;
        uint8_t *nb = realloc(m->seen, (size_t)(cap / 8));
        if (!nb) return -1;
        memset(nb + m->seen_cap / 8, 0, (size_t)((cap - m->seen_cap) / 8));
        m->seen = nb;
        m->seen_cap = cap;
    }
    int was = (m->seen[i / 8] >> (i % 8)) & 1;
    m->seen[i / 8] |= (uint8_t)(1u << (i % 8));
    return was;
}

static int set_shards(merge *m, uint64_t n, const char *where)
{
    if (m->shards_n == 0) {
        if (n > MERGE_MAX_SHARDS) return -1;
        m->shard_seen = calloc((size_t)n, 1);
        if (!m->shard_seen) return -1;
        m->shards_n = n;
    } else if (m->shards_n != n) {
        fprintf(stderr, "arbiter merge: %s: shard count %" PRIu64 " disagrees with %" PRIu64 " seen before\n", where, n,
                m->shards_n);
        m->problems++;
        return 1;
    }
    return 0;
}

static char *failure_text(const cli_vresult *v)
{
    char buf[1024];
    size_t used = (size_t)snprintf(buf, sizeof buf, "%s: %s", v->file, v->status);
    const arb_tnode *d = arb_tnode_get(v->obj, "divergence");
    const arb_tnode *e = arb_tnode_get(v->obj, "error");
    char tmp[600];
    if (d && d->kind == ARB_T_MAP) {
        const arb_tnode *x;
        used += (size_t)snprintf(buf + used, sizeof buf - used, " (%s) at record %s",
                                 (x = arb_tnode_get(d, "kind")) && x->kind == ARB_T_STR ? x->s : "?",
                                 arb_tnode_text(arb_tnode_get(d, "record"), tmp, sizeof tmp));
        if (used < sizeof buf)
            used += (size_t)snprintf(buf + used, sizeof buf - used, ", turn %s",
                                     arb_tnode_text(arb_tnode_get(d, "turn"), tmp, sizeof tmp));
        if ((x = arb_tnode_get(d, "action")) && x->kind == ARB_T_STR && x->s[0] && used < sizeof buf)
            used += (size_t)snprintf(buf + used, sizeof buf - used, ", action '%s'", x->s);
        if ((x = arb_tnode_get(d, "rule")) && x->kind == ARB_T_STR && x->s[0] && used < sizeof buf)
            used += (size_t)snprintf(buf + used, sizeof buf - used, ", rule %s", x->s);
        if ((x = arb_tnode_get(d, "detail")) && x->kind == ARB_T_STR && used < sizeof buf)
            snprintf(buf + used, sizeof buf - used, ": %s", x->s);
    } else if (e && e->kind == ARB_T_STR) {
        snprintf(buf + used, sizeof buf - used, ": %s", e->s);
    } else if ((d = arb_tnode_get(v->obj, "duplicate")) && d->kind == ARB_T_MAP) {
        const arb_tnode *x = arb_tnode_get(d, "detail");
        if (x && x->kind == ARB_T_STR) snprintf(buf + used, sizeof buf - used, ": %s", x->s);
    }
    return strdup(buf);
}


/* A manifest entry's line: 0 the first report of it, 1 counted already
 * (a duplicate, noted) or out of range (a problem), -1 out of memory. */
static int entry(merge *m, const cli_vresult *v, const char *where)
{
    if ((uint64_t)v->index >= MERGE_MAX_ENTRIES) {
        fprintf(stderr, "arbiter merge: %s: index %" PRId64 " out of range\n", where, v->index);
        m->problems++;
        return 1;
    }
    int was = bit_test_set(m, (uint64_t)v->index);
    if (was <= 0) return was;
    if (m->ndup_list < MERGE_LIST) m->dup_list[m->ndup_list++] = (uint64_t)v->index;
    m->dup_entries++;
    return 1;
}

static void failure(merge *m, const cli_vresult *v)
{
    m->failed++;
    if (m->nkeep < MERGE_KEEP) {
        char *t = failure_text(v);
        if (t) m->keep[m->nkeep++] = t;
    }
}

/* -o MERGED: every counted line as it was read */
static void pass_on(merge *m, const cli_vresult *v)
{
    if (!m->out) return;
    arb_tnode_json(v->obj, m->out, 0);
    fputc('\n', m->out);
}

static int add_file(merge *m, const char *path)
{
    cli_results r;
    arb_error err = ARB_ERROR_INIT;
    int orc = cli_results_open(&r, path, &err);
    if (orc) {
        cli_fail("merge", &err);
        if (orc == ARB_ENOMEM) return -1;
        m->problems++;
        return 0;
    }
    cli_vresult v;
    int rc, summary = 0, after_summary = 0;
    uint64_t here = 0; /* match lines of this input (files and members, not archives) */
    m->inputs++;
    while ((rc = cli_results_next(&r, &v, &err)) == 1) {
        char where[600];
        snprintf(where, sizeof where, "%s:%" PRIu64, path, r.lineno);
        if (summary && !after_summary) {
            fprintf(stderr, "arbiter merge: %s: a line after the closing summary\n", where);
            m->problems++;
            after_summary = 1;
        }
        if (v.is_summary) {
            if (v.files != UINT64_MAX && v.files != here) {
                fprintf(stderr,
                        "arbiter merge: %s: the closing summary counts %" PRIu64 " matches, the input holds %" PRIu64 "\n",
                        where, v.files, here);
                m->problems++;
            }
            summary = 1;
            continue;
        }
        if (!v.is_trailer && !v.is_archive) here++;
        if (v.is_trailer) {
            int s = set_shards(m, v.n, where);
            if (s < 0) { cli_results_close(&r); return -1; }
            if (s) continue;
            if (m->shard_seen[v.k]++) {
                fprintf(stderr, "arbiter merge: %s: shard %" PRIu64 "/%" PRIu64 " reported twice\n", where, v.k, v.n);
                m->dup_shards++;
            }
            if (m->entries_known && m->entries != v.entries) {
                fprintf(stderr, "arbiter merge: %s: manifest has %" PRIu64 " entries here, %" PRIu64 " before\n", where,
                        v.entries, m->entries);
                m->problems++;
            }
            m->entries = v.entries;
            m->entries_known = 1;
            continue;
        }
        if (v.shard_n && set_shards(m, v.shard_n, where) < 0) { cli_results_close(&r); return -1; }
        /* An archive's members share its manifest entry: the archive's own
         * line accounts for the entry, the member lines are results. */
        int seen = v.index >= 0 && v.member < 0 ? entry(m, &v, where) : 0;
        if (seen < 0) { cli_results_close(&r); return -1; }
        if (v.is_archive) {
            if (!v.ok) failure(m, &v);
            pass_on(m, &v);
            continue;
        }
        if (seen) continue; /* out of range, or reported before: counted once */
        if (v.index < 0) m->unindexed++;
        /* the same match verified in two shards (or twice in one): the
         * later line fails as a duplicate, as within one verify run */
        const char *first = NULL;
        int dup = v.ok ? cli_dupes_check_line(&m->ids, v.obj, v.file, &first) : 0;
        if (dup < 0) {
            fprintf(stderr, "arbiter merge: out of memory\n");
            cli_results_close(&r);
            return -2;
        }
        m->results++;
        count(m->status, &m->nstatus, 16, dup ? "duplicate" : v.status);
        count(m->games, &m->ngames, 32, v.game ? v.game : "?");
        if (v.ok && !dup) {
            m->ok++;
        } else if (dup) {
            m->failed++;
            m->dup_matches++;
            if (m->nkeep < MERGE_KEEP) {
                char d[ARB_MSG_MAX + 600];
                size_t u = (size_t)snprintf(d, sizeof d, "%s: duplicate: ", v.file);
                if (u < sizeof d) cli_dupes_detail(dup, first, d + u, sizeof d - u);
                char *t = strdup(d);
                if (t) m->keep[m->nkeep++] = t;
            }
        } else {
            failure(m, &v);
        }
        pass_on(m, &v);
    }
    if (rc < 0) {
        cli_fail("merge", &err);
        cli_results_close(&r);
        if (rc == ARB_ENOMEM) return -2; /* message printed */
        m->problems++;
        return 0;
    }
    cli_results_close(&r);
    if (summary && !after_summary) m->summed++;
    return 0;
}

static void print_list_u64(FILE *o, const uint64_t *v, unsigned n, int json)
{
    for (unsigned i = 0; i < n; i++) fprintf(o, json ? "%s%" PRIu64 : "%s%" PRIu64, i ? (json ? "," : ", ") : "", v[i]);
}


static const char *const merge_usage[] = {
    "merge [--json] [-o MERGED.ndjson] SHARD.ndjson...",
    NULL
};
static const cli_opt merge_opts[] = {
    CLI_OPT_JSON("the summary as one JSON object"),
    CLI_OPT_OUTPUT("also write every result once, as NDJSON, for `arbiter stats FILE`"),
    CLI_OPT_END
};
const cli_spec cli_spec_merge = {
    .name = "merge",
    .summary = "merge sharded `verify --json` outputs into one summary",
    .usage = merge_usage,
    .description =
        "Merge the outputs of sharded runs of\n"
        "  arbiter verify --manifest M --shard K/N --json > shard-K.ndjson\n"
        "into one summary: totals by status and game, every failed file with its\n"
        "first divergence, shards whose {\"shard_done\"} line is missing, manifest\n"
        "entries no shard reported, and entries reported twice (counted once).\n",
    .opts = merge_opts,
    .notes =
        "Plain `verify --json` output (no --shard) is whole when it ends with its\n"
        "closing {\"summary\"} line and that line counts the matches before it.\n"
        "An input with neither a {\"shard_done\"} nor that summary line (empty or\n"
        "cut short) is incomplete: nothing shows it is whole.\n",
    .exit = "0 complete and every file verified; 1 some file failed to verify; 3 incomplete (missing shards or entries, no shard_done or closing summary line), duplicated or malformed input; 4 out of memory; 2 usage.",
    .operands = CLI_ARG_FILE,
    .run = cmd_merge,
};


int cmd_merge(int argc, char **argv)
{
    int json = 0, c;
    const char *outpath = NULL;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_merge, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_JSON: json = 1; break;
        case 'o': outpath = p.arg; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos < 1) return cli_usage("merge", "no shard output given");
    merge m;
    memset(&m, 0, sizeof m);
    int rc = EXIT_OK;
    /* -o FILE: written to FILE.part, renamed over FILE when every input
     * has been read (README, "Output files") */
    char part[4096];
    if (outpath) {
        int ec = cli_output_target("merge", outpath);
        if (ec) return ec;
        if ((size_t)snprintf(part, sizeof part, "%s.part", outpath) >= sizeof part)
            return cli_usage("merge", "output path too long: %s", outpath);
        arb_error err = ARB_ERROR_INIT;
        if (!(m.out = arb_out_create(outpath, part, 0666, 0, &err))) return cli_fail("merge", &err);
    }
    for (int i = 0; i < p.npos; i++) {
        int arc = add_file(&m, p.pos[i]);
        if (arc) {
            if (arc == -1) fprintf(stderr, "arbiter merge: %s: out of memory\n", p.pos[i]);
            rc = EXIT_INTERNAL;
            goto done;
        }
    }
    /* What is missing. */
    uint64_t missing_shards = 0, missing_entries = 0;
    uint64_t ms_list[MERGE_LIST], me_list[MERGE_LIST];
    unsigned nms = 0, nme = 0;
    for (uint64_t k = 0; k < m.shards_n; k++)
        if (!m.shard_seen[k]) {
            if (nms < MERGE_LIST) ms_list[nms++] = k;
            missing_shards++;
        }
    if (m.entries_known)
        for (uint64_t i = 0; i < m.entries; i++)
            if (i >= m.seen_cap || !((m.seen[i / 8] >> (i % 8)) & 1)) {
                if (nme < MERGE_LIST) me_list[nme++] = i;
                missing_entries++;
            }
    uint64_t beyond = 0;
    if (m.entries_known)
        for (uint64_t i = m.entries; i < m.seen_cap; i++) beyond += (m.seen[i / 8] >> (i % 8)) & 1;
    /* No shard_done line at all (an empty input or a cut one) cannot be
     * shown complete; plain `verify --json` output is whole when every
     * input ends with its closing summary and that summary counts the
     * match lines before it. */
    int no_trailer = !m.entries_known && !(m.shards_n == 0 && m.inputs && m.summed == m.inputs);
    int incomplete = missing_shards || missing_entries || m.dup_entries || m.dup_shards || m.problems || beyond ||
                     no_trailer;
    if (json) {
        printf("{\"complete\":%s,\"files\":%" PRIu64 ",\"ok\":%" PRIu64 ",\"failed\":%" PRIu64,
               incomplete ? "false" : "true", m.results, m.ok, m.failed);
        printf(",\"shards\":{\"n\":%" PRIu64 ",\"done\":%" PRIu64 ",\"missing\":[", m.shards_n, m.shards_n - missing_shards);
        print_list_u64(stdout, ms_list, nms, 1);
        printf("],\"missing_count\":%" PRIu64 ",\"duplicated\":%" PRIu64 "}", missing_shards, m.dup_shards);
        printf(",\"entries\":{\"expected\":");
        if (m.entries_known) printf("%" PRIu64, m.entries);
        else printf("null");
        printf(",\"missing\":[");
        print_list_u64(stdout, me_list, nme, 1);
        printf("],\"missing_count\":%" PRIu64 ",\"duplicated\":[", missing_entries);
        print_list_u64(stdout, m.dup_list, m.ndup_list, 1);
        printf("],\"duplicated_count\":%" PRIu64 ",\"unindexed\":%" PRIu64 ",\"out_of_range\":%" PRIu64 "}",
               m.dup_entries, m.unindexed, beyond);
        printf(",\"by_status\":{");
        for (unsigned i = 0; i < m.nstatus; i++) {
            printf("%s", i ? "," : "");
            cli_json_str(stdout, m.status[i].name);
            printf(":%" PRIu64, m.status[i].n);
        }
        printf("},\"by_game\":{");
        for (unsigned i = 0; i < m.ngames; i++) {
            printf("%s", i ? "," : "");
            cli_json_str(stdout, m.games[i].name);
            printf(":%" PRIu64, m.games[i].n);
        }
        printf("},\"failures\":[");
        for (unsigned i = 0; i < m.nkeep; i++) {
            printf("%s", i ? "," : "");
            cli_json_str(stdout, m.keep[i]);
        }
        printf("],\"problems\":%" PRIu64 ",\"shard_done_seen\":%s}\n", m.problems, no_trailer ? "false" : "true");
    } else {
        printf("merged %d file%s: %" PRIu64 " result%s, %" PRIu64 " ok, %" PRIu64 " failed\n", p.npos,
               ARB_PLURAL(p.npos), m.results, ARB_PLURAL(m.results), m.ok, m.failed);
        if (m.shards_n)
            printf("shards: %" PRIu64 " of %" PRIu64 " complete\n", m.shards_n - missing_shards, m.shards_n);
        if (m.entries_known)
            printf("manifest entries: %" PRIu64 " expected, %" PRIu64 " reported\n", m.entries,
                   m.entries - missing_entries);
        printf("by status:");
        for (unsigned i = 0; i < m.nstatus; i++) printf(" %s %" PRIu64, cli_esc(m.status[i].name), m.status[i].n);
        printf("\nby game:");
        for (unsigned i = 0; i < m.ngames; i++) printf(" %s %" PRIu64, cli_esc(m.games[i].name), m.games[i].n);
        printf("\n");
        for (unsigned i = 0; i < m.nkeep; i++) printf("FAILED %s\n", cli_esc(m.keep[i]));
        if (m.failed > m.nkeep) printf("… and %" PRIu64 " more failures\n", m.failed - m.nkeep);
        if (missing_shards) {
            printf("MISSING %" PRIu64 " shard(s) (no shard_done line): ", missing_shards);
            for (unsigned i = 0; i < nms; i++) printf("%s%" PRIu64 "/%" PRIu64, i ? ", " : "", ms_list[i], m.shards_n);
            printf("%s\n", missing_shards > nms ? ", …" : "");
        }
        if (missing_entries) {
            printf("MISSING %" PRIu64 " manifest entr%s: index ", missing_entries, missing_entries == 1 ? "y" : "ies");
            print_list_u64(stdout, me_list, nme, 0);
            printf("%s\n", missing_entries > nme ? ", …" : "");
        }
        if (m.dup_entries) {
            printf("DUPLICATED %" PRIu64 " entr%s (counted once): index ", m.dup_entries,
                   m.dup_entries == 1 ? "y" : "ies");
            print_list_u64(stdout, m.dup_list, m.ndup_list, 0);
            printf("%s\n", m.dup_entries > m.ndup_list ? ", …" : "");
        }
        if (m.dup_shards) printf("DUPLICATED %" PRIu64 " shard_done line(s)\n", m.dup_shards);
        if (beyond) printf("OUT OF RANGE %" PRIu64 " result(s) beyond the manifest\n", beyond);
        if (no_trailer && !m.results) printf("INCOMPLETE: the input holds no result and no shard_done line (empty?)\n");
        else if (no_trailer) printf("INCOMPLETE: no shard_done or closing summary line: the input may be cut short\n");
        if (m.problems) printf("PROBLEMS: %" PRIu64 " malformed or inconsistent input(s), see stderr\n", m.problems);
        printf("%s\n", incomplete ? "merge: INCOMPLETE" : m.failed ? "merge: complete, with failures" : "merge: complete, all verified");
    }
    rc = incomplete ? EXIT_INPUT : m.failed ? EXIT_VERIFY : EXIT_OK;
done:
    if (m.out) {
        arb_error err = ARB_ERROR_INIT;
        if (rc == EXIT_INTERNAL) {
            arb_out_discard(m.out, part); /* out of memory part-way: no half file */
        } else if (arb_out_install(m.out, part, outpath, 0, &err)) {
            cli_fail("merge", &err);
            if (rc == EXIT_OK || rc == EXIT_VERIFY) rc = EXIT_INPUT;
        }
    }
    for (unsigned i = 0; i < m.nkeep; i++) free(m.keep[i]);
    cli_dupes_free(&m.ids);
    free(m.seen);
    free(m.shard_seen);
    return rc;
}
