/* expectations.c — the known-failures file (conformance/expectations.xml).
 *
 * Cases never say they are expected to fail; this file does, with a reason
 * for each entry, so a fixed engine shows up as XPASS and must clean the
 * list. It also holds skips (a case not to run, with why) and catalog
 * entries knowingly left without a passing case. Case patterns are globs
 * over case IDs within one game. */
#include <fnmatch.h>
#include <string.h>

#include "conform/conform_int.h"

static char *prop(arb_conform_suite *s, const xmlNode *n, const char *name)
{
    char buf[1024];
    if (!arb_conform__attr(n, name, buf, sizeof buf)) return NULL;
    return arb_conform__strdup(s, buf);
}

void arb_conform__expectations_load(arb_conform_suite *s, unsigned file)
{
    xmlNodePtr root = xmlDocGetRootElement(s->files[file].doc);
    for (xmlNodePtr n = root->children; n; n = n->next) {
        int what = arb_conform__is(n, "known-failure") ? 0 : arb_conform__is(n, "skip") ? 1
                 : arb_conform__is(n, "uncovered") ? 2 : -1;
        if (what < 0) continue;
        if (s->nexpects >= s->capexpects) {
            unsigned nc = s->capexpects ? s->capexpects * 2 : 16;
            cf_expect *p = realloc(s->expects, nc * sizeof *p);
            if (!p) return;
            s->expects = p;
            s->capexpects = nc;
        }
        cf_expect *x = &s->expects[s->nexpects++];
        memset(x, 0, sizeof *x);
        x->what = what;
        x->game = prop(s, n, "game");
        x->pattern = prop(s, n, what == 2 ? "rule" : "case");
        x->status = prop(s, n, "status");
        x->reason = prop(s, n, "reason");
        x->line = (int)xmlGetLineNo(n);
    }
}

static const cf_expect *find(const arb_conform_suite *s, int what, const char *game, const char *id)
{
    for (unsigned i = 0; i < s->nexpects; i++) {
        const cf_expect *x = &s->expects[i];
        if (x->what != what || !x->pattern) continue;
        if (what != 2 && (!x->game || strcmp(x->game, game) != 0)) continue;
        if (what == 2 ? strcmp(x->pattern, id) == 0 : fnmatch(x->pattern, id, 0) == 0) return x;
    }
    return NULL;
}

const cf_expect *arb_conform__expectations_skip(const arb_conform_suite *s, const char *game, const char *id)
{
    return find(s, 1, game, id);
}

const cf_expect *arb_conform__expectations_uncovered(const arb_conform_suite *s, const char *rule)
{
    return find(s, 2, NULL, rule);
}

void arb_conform__expectations_apply(arb_conform_suite *s, arb_conform_result *r)
{
    const cf_expect *x = find(s, 0, r->game, r->id);
    if (!x || r->status == ARB_CF_SKIP) return;
    r->listed = 1;
    r->reason = x->reason;
    if (r->status == ARB_CF_PASS) {
        r->status = ARB_CF_XPASS;
        snprintf(r->message, sizeof r->message,
                 "passed, but expectations.xml:%d lists it as a known failure (%s): remove the entry",
                 x->line, x->reason ? x->reason : "");
        return;
    }
    /* A listed status pins the failure: failing differently is news. */
    if (x->status && strcmp(x->status, arb_cf_status_name(r->status)) != 0) {
        size_t l = strlen(r->message);
        snprintf(r->message + l, sizeof r->message - l, " (expectations.xml:%d expects %s)", x->line, x->status);
        return;
    }
    r->status = ARB_CF_XFAIL;
}
