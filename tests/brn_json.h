/* brn_json.h — a tiny JSON reader into arb_tree for test positions (test
 * helper only). Accepts objects, arrays, integers, true/false/null and
 * strings without escapes; ' may be used instead of " to keep C literals
 * readable. Returns NULL on a syntax error. */
#ifndef BRN_JSON_H
#define BRN_JSON_H
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/tree.h"

typedef struct { const char *p; arb_tree *t; int bad; } bj_ctx;

static void bj_ws(bj_ctx *c) { while (isspace((unsigned char)*c->p)) c->p++; }

static int bj_str(bj_ctx *c, char *out, size_t cap)
{
    char q = *c->p;
    if (q != '"' && q != '\'') return -1;
    c->p++;
    size_t n = 0;
    while (*c->p && *c->p != q) { if (n + 1 < cap) out[n++] = *c->p; c->p++; }
    if (*c->p != q) return -1;
    c->p++;
    out[n] = 0;
    return 0;
}

static void bj_value(bj_ctx *c, arb_tnode *parent, const char *key)
{
    char buf[256];
    bj_ws(c);
    if (c->bad) return;
    if (*c->p == '{') {
        arb_tnode *m = arb_tree_add_map(c->t, parent, key);
        c->p++; bj_ws(c);
        if (*c->p == '}') { c->p++; return; }
        for (;;) {
            bj_ws(c);
            if (bj_str(c, buf, sizeof buf)) { c->bad = 1; return; }
            bj_ws(c);
            if (*c->p++ != ':') { c->bad = 1; return; }
            char k[256];
            memcpy(k, buf, sizeof k);
            bj_value(c, m, k);
            if (c->bad) return;
            bj_ws(c);
            if (*c->p == ',') { c->p++; continue; }
            if (*c->p == '}') { c->p++; return; }
            c->bad = 1; return;
        }
    }
    if (*c->p == '[') {
        arb_tnode *a = arb_tree_add_arr(c->t, parent, key);
        c->p++; bj_ws(c);
        if (*c->p == ']') { c->p++; return; }
        for (;;) {
            bj_value(c, a, NULL);
            if (c->bad) return;
            bj_ws(c);
            if (*c->p == ',') { c->p++; continue; }
            if (*c->p == ']') { c->p++; return; }
            c->bad = 1; return;
        }
    }
    if (*c->p == '"' || *c->p == '\'') {
        if (bj_str(c, buf, sizeof buf)) { c->bad = 1; return; }
        arb_tree_add_str(c->t, parent, key, buf);
        return;
    }
    if (!strncmp(c->p, "true", 4)) { c->p += 4; arb_tree_add_bool(c->t, parent, key, 1); return; }
    if (!strncmp(c->p, "false", 5)) { c->p += 5; arb_tree_add_bool(c->t, parent, key, 0); return; }
    if (!strncmp(c->p, "null", 4)) { c->p += 4; arb_tree_add_null(c->t, parent, key); return; }
    char *end;
    long long v = strtoll(c->p, &end, 10);
    if (end == c->p) { c->bad = 1; return; }
    c->p = end;
    arb_tree_add_int(c->t, parent, key, v);
}

/* Parse an object into the root map of a new tree. */
static arb_tree *bj_parse(const char *s)
{
    arb_tree *t = arb_tree_new();
    if (!t) return NULL;
    bj_ctx c = { s, t, 0 };
    bj_ws(&c);
    if (*c.p != '{') { arb_tree_free(t); return NULL; }
    /* parse the object's members straight into the root map */
    arb_tnode *tmp = arb_tree_add_arr(t, arb_tree_root(t), "_");
    bj_value(&c, tmp, NULL);
    if (c.bad || !tmp->first || tmp->first->kind != ARB_T_MAP) { arb_tree_free(t); return NULL; }
    arb_tree *t2 = arb_tree_new();
    for (const arb_tnode *x = tmp->first->first; x; x = x->next)
        arb_tree_add_copy(t2, arb_tree_root(t2), x->key, x);
    arb_tree_free(t);
    return t2;
}
#endif
