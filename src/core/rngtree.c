/* rngtree.c — the PRNG state in state trees and positions: one exact,
 * JSON-safe form for every engine (4 words of 16 hex digits) and a reader
 * that also takes the forms arbiter 0.1 wrote (signed integers, one 64-hex
 * string), so positions embedded in old replays still load. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/toolkit.h"

arb_tnode *arb_tree_add_rng(arb_tree *t, arb_tnode *m, const char *key, const arb_rng *r)
{
    arb_tnode *a = arb_tree_add_arr(t, m, key);
    char w[24];
    for (int i = 0; i < 4; i++) {
        snprintf(w, sizeof w, "%016" PRIx64, r->s[i]);
        arb_tree_add_str(t, a, NULL, w);
    }
    return a;
}

static int hexword(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

int arb_pos_rng(arb_pos *P, const arb_tnode *m, const char *key, arb_rng *r)
{
    const arb_tnode *n = arb_tnode_get(m, key);
    static const char shape[] = "expected 4 xoshiro256** words of 16 hex digits";
    if (!n) return 0;
    arb_rng v;
    if (n->kind == ARB_T_STR) {
        if (strlen(n->s) != 64) return arb_pos_fail(P, key, NULL, "%s", shape);
        for (int i = 0; i < 4; i++)
            if (hexword(n->s + 16 * i, 16, &v.s[i])) return arb_pos_fail(P, key, NULL, "%s", shape);
    } else {
        if (n->kind != ARB_T_ARR || n->n != 4) return arb_pos_fail(P, key, NULL, "%s", shape);
        int i = 0;
        for (const arb_tnode *w = n->first; w; w = w->next, i++) {
            if (w->kind == ARB_T_INT) v.s[i] = (uint64_t)w->i;
            else if (w->kind != ARB_T_STR || strlen(w->s) != 16 || hexword(w->s, 16, &v.s[i]))
                return arb_pos_fail(P, key, NULL, "%s", shape);
        }
    }
    if (!(v.s[0] | v.s[1] | v.s[2] | v.s[3])) return arb_pos_fail(P, key, NULL, "an all-zero xoshiro256** state is invalid");
    *r = v;
    return 1;
}
