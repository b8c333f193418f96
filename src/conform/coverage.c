/* coverage.c — which cases cover which catalog entry, after a run.
 *
 * An entry is covered when a case naming it in `covers` PASSed (XFAIL does
 * not count: a known failure proves nothing). The gate applies to R and R*
 * entries of games that have an engine in this build; an entry listed as
 * <uncovered> in expectations.xml is reported with its reason instead. */
#include <stdlib.h>
#include <string.h>

#include "conform/conform_int.h"

static int covers(const char *list, const char *id)
{
    size_t l = strlen(id);
    for (const char *p = list; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        const char *e = p;
        while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
        if ((size_t)(e - p) == l && strncmp(p, id, l) == 0) return 1;
        p = e;
    }
    return 0;
}

int arb_conform__coverage(arb_conform_suite *s)
{
    free(s->cov);
    free(s->covstr);
    s->cov = NULL;
    s->covstr = NULL;
    s->ncov = 0;
    if (!s->nentries) return 0;
    s->cov = calloc(s->nentries, sizeof *s->cov);
    size_t *off = calloc(s->nentries, sizeof *off);
    size_t cap = 4096, len = 0;
    s->covstr = malloc(cap);
    if (!s->cov || !off || !s->covstr) { free(off); return -1; }
    for (unsigned i = 0; i < s->nentries; i++) {
        const cf_entry *e = &s->entries[i];
        arb_conform_entry *c = &s->cov[i];
        const char *game = s->files[e->file].game;
        c->game = game;
        c->id = e->id;
        c->kind = e->kind;
        c->testable = e->kind && strcmp(e->kind, "informational") != 0;
        c->engine = arb_conform__game(s, game) != NULL && (!s->opt.game || strcmp(s->opt.game, game) == 0);
        const cf_expect *x = arb_conform__expectations_uncovered(s, e->id);
        c->uncovered_reason = x ? x->reason : NULL;
        off[i] = len;
        for (unsigned r = 0; r < s->nresults; r++) {
            const arb_conform_result *res = &s->results[r];
            if (strcmp(res->game, game) != 0 || !covers(res->covers, e->id)) continue;
            c->ncases++;
            if (res->status == ARB_CF_PASS) c->npassing++;
            size_t need = strlen(res->id) + 2;
            if (len + need + 1 > cap) {
                while (len + need + 1 > cap) cap *= 2;
                char *p = realloc(s->covstr, cap);
                if (!p) { free(off); return -1; }
                s->covstr = p;
            }
            len += (size_t)sprintf(s->covstr + len, "%s%s", len > off[i] ? " " : "", res->id);
        }
        if (len + 1 > cap) { /* the terminator needs room too */
            char *p = realloc(s->covstr, cap *= 2);
            if (!p) { free(off); return -1; }
            s->covstr = p;
        }
        s->covstr[len++] = '\0';
    }
    for (unsigned i = 0; i < s->nentries; i++) s->cov[i].cases = s->covstr + off[i];
    free(off);
    s->ncov = s->nentries;
    return 0;
}

unsigned arb_conform_nentries(const arb_conform_suite *s) { return s->ncov; }
const arb_conform_entry *arb_conform_entry_at(const arb_conform_suite *s, unsigned i)
{
    return i < s->ncov ? &s->cov[i] : NULL;
}

unsigned arb_conform_uncovered(const arb_conform_suite *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->ncov; i++) {
        const arb_conform_entry *c = &s->cov[i];
        if (c->testable && c->engine && !c->npassing && !c->uncovered_reason) n++;
    }
    return n;
}
