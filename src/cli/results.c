/* results.c — reading `arbiter verify --json` NDJSON back (see results.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/results.h"

int cli_results_open(cli_results *r, const char *path, arb_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!r->f) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
    }
    /* One buffer of the line limit, allocated once: a line is bounded
     * before anything is allocated for it. */
    r->cap = CLI_RESULT_LINE_MAX + 2;
    r->line = malloc(r->cap);
    if (!r->line) {
        if (r->f != stdin) fclose(r->f);
        r->f = NULL;
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    return ARB_OK;
}

void cli_results_close(cli_results *r)
{
    if (r->f && r->f != stdin) fclose(r->f);
    free(r->line);
    arb_tree_free(r->tree);
    memset(r, 0, sizeof *r);
}

int cli_results_sniff(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\r' || c == '\t') {}
    fclose(f);
    return c == '{';
}

static int64_t get_int(const arb_tnode *o, const char *k, int64_t dflt)
{
    const arb_tnode *n = arb_tnode_get(o, k);
    return n && n->kind == ARB_T_INT ? n->i : dflt;
}

static const char *get_str(const arb_tnode *o, const char *k)
{
    const arb_tnode *n = arb_tnode_get(o, k);
    return n && n->kind == ARB_T_STR ? n->s : NULL;
}

static int bad(cli_results *r, arb_error *err, const char *what)
{
    arb_error_where(err, "%s:%llu", r->path, (unsigned long long)r->lineno);
    return arb_error_set(err, ARB_EFORMAT, NULL, "%s", what);
}

int cli_results_next(cli_results *r, cli_vresult *out, arb_error *err)
{
    size_t len;
    for (;;) {
        int lr = arb_line_read(r->f, r->line, CLI_RESULT_LINE_MAX, &len, &r->lineno);
        if (lr == ARB_LINE_EOF) return 0;
        if (lr == ARB_LINE_ERROR) {
            arb_error_where(err, "%s", r->path);
            return arb_error_set(err, ARB_EIO, NULL, "read error after line %llu", (unsigned long long)r->lineno);
        }
        if (lr == ARB_LINE_LONG) return bad(r, err, "line longer than 1 MiB");
        if (lr == ARB_LINE_NUL) return bad(r, err, "NUL byte in a result line");
        if (len > 0) break;
    }
    arb_tree_free(r->tree);
    r->tree = arb_tree_new();
    if (!r->tree) {
        arb_error_where(err, "%s:%llu", r->path, (unsigned long long)r->lineno);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    arb_error jerr = ARB_ERROR_INIT;
    if (arb_tree_parse_json(r->tree, arb_tree_root(r->tree), "v", r->line, len, &jerr)) {
        arb_error_where(err, "%s:%llu", r->path, (unsigned long long)r->lineno);
        if (jerr.code == ARB_ENOMEM) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading JSON");
        arb_error_where(err, "%s:%llu", r->path, (unsigned long long)r->lineno);
        return arb_error_set(err, ARB_EFORMAT, NULL, "not a JSON result line (%.40s: %.180s)", jerr.where, jerr.msg);
    }
    const arb_tnode *o = arb_tnode_get(arb_tree_root(r->tree), "v");
    if (!o || o->kind != ARB_T_MAP) return bad(r, err, "a result line must be a JSON object");
    memset(out, 0, sizeof *out);
    out->obj = o;
    out->index = -1;
    const arb_tnode *sum = arb_tnode_get(o, "summary");
    if (sum) { /* a closing summary ({"summary":{…}}): no match */
        out->is_summary = 1;
        int64_t n = sum->kind == ARB_T_MAP ? get_int(sum, "matches", -1) : -1;
        out->files = n < 0 ? UINT64_MAX : (uint64_t)n;
        return 1;
    }
    const arb_tnode *sd = arb_tnode_get(o, "shard_done");
    if (sd) {
        if (sd->kind != ARB_T_MAP) return bad(r, err, "\"shard_done\" must be an object");
        int64_t k = get_int(sd, "k", -1), n = get_int(sd, "n", -1), e = get_int(sd, "manifest_entries", -1),
                f = get_int(sd, "files", -1);
        if (k < 0 || n < 1 || k >= n || e < 0 || f < 0) return bad(r, err, "\"shard_done\" needs k < n, manifest_entries, files");
        out->is_trailer = 1;
        out->k = (uint64_t)k;
        out->n = (uint64_t)n;
        out->entries = (uint64_t)e;
        out->files = (uint64_t)f;
        return 1;
    }
    out->member = get_int(o, "member", -1);
    const char *kind = get_str(o, "kind");
    out->is_archive = kind && !strcmp(kind, "archive");
    out->file = get_str(o, "file");
    out->status = get_str(o, "status");
    /* the archive line of an older arbiter: {"archive":PATH,"members":…} */
    if (!out->file && get_str(o, "archive")) {
        out->is_archive = 1;
        out->file = get_str(o, "archive");
        const arb_tnode *ok0 = arb_tnode_get(o, "ok");
        out->status = ok0 && ok0->kind == ARB_T_BOOL && !ok0->i ? "corrupt" : "ok";
    }
    if (!out->file || !out->status) return bad(r, err, "a result line needs \"file\" and \"status\"");
    out->game = get_str(o, "game");
    out->reason = get_str(o, "reason");
    out->index = get_int(o, "index", -1);
    out->players = (int)get_int(o, "players", 0);
    const arb_tnode *okn = arb_tnode_get(o, "ok");
    out->ok = okn && okn->kind == ARB_T_BOOL && okn->i;
    out->over = arb_tnode_get(o, "winner") != NULL;
    out->winner = (int)get_int(o, "winner", -1);
    out->turns = get_int(o, "turns", 0);
    out->actions = get_int(o, "actions", 0);
    const char *sh = get_str(o, "shard");
    if (sh) {
        uint64_t k, n;
        const char *slash = strchr(sh, '/');
        if (!slash || arb_parse_u64(sh, (size_t)(slash - sh), 0, 0, UINT64_MAX, &k) ||
            arb_parse_u64s(slash + 1, 0, 1, UINT64_MAX, &n) || k >= n)
            return bad(r, err, "bad \"shard\" value");
        out->shard_k = k;
        out->shard_n = n;
    }
    return 1;
}
