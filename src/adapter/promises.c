/* promises.c — what ADAPTER.md promises that no single answer shows: the
 * order of `legal` is stable (the same state asked twice lists the same
 * actions in the same order, section 3), `clone` gives an independent copy
 * (moving the clone leaves the original's hash as it was), and `describe`
 * gives the reference engine's text of an action (or "", no text). Asked
 * past the proxy's caches, by crosscheck at sampled steps and by conform
 * --engine at the start and end of every case. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter_int.h"
#include "arbiter/text.h"
#include "arbiter/toolkit.h"

#define PROMISE_LEGAL_MAX 4096 /* actions of one list compared */
#define PROMISE_DESCRIBE 8     /* legal actions described */

typedef struct pcx {
    arb_adapter *a;
    const arb_game *g; /* the proxy */
    char *why;
    size_t size, len;
} pcx;

static void say(pcx *P, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(pcx *P, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arb_text_vappendf(P->why, P->size, &P->len, fmt, ap);
    va_end(ap);
}

/* The "actions" of a legal answer into out[0..max): their count, -1 when
 * malformed (sticky). */
static long read_list(pcx *P, const arb_tnode *r, arb_action *out, size_t max)
{
    const arb_tnode *l = arb_tnode_get(r, "actions");
    if (!l || l->kind != ARB_T_ARR) {
        arb_adapter__raw_fail(P->a, "legal", "no \"actions\" list");
        return -1;
    }
    size_t n = 0;
    for (const arb_tnode *k = l->first; k && n < max; k = k->next, n++) {
        arb_error e = ARB_ERROR_INIT;
        if (arb_adapter__read_action(P->g, k, "actions", &out[n], &e)) {
            arb_adapter__raw_fail(P->a, "legal", e.msg);
            return -1;
        }
    }
    return (long)n;
}

/* legal twice: 0 the same order, 1 broken (said), -1 the adapter failed. */
static int legal_stable(pcx *P, int64_t h, arb_action *l1, arb_action *l2, long *n1)
{
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    if (arb_adapter__raw(P->a, "legal", h, NULL, &r, &e) || (*n1 = read_list(P, r, l1, PROMISE_LEGAL_MAX)) < 0)
        return -1;
    long n2;
    if (arb_adapter__raw(P->a, "legal", h, NULL, &r, &e) || (n2 = read_list(P, r, l2, PROMISE_LEGAL_MAX)) < 0)
        return -1;
    long k = 0;
    while (k < *n1 && k < n2 && arb_action_same(&l1[k], &l2[k])) k++;
    if (k == *n1 && k == n2) return 0;
    char a[128] = "(the end)", b[128] = "(the end)";
    if (k < *n1) arb_action_format(P->g, &l1[k], a, sizeof a);
    if (k < n2) arb_action_format(P->g, &l2[k], b, sizeof b);
    say(P,
        "legal order: the same state asked twice lists %ld then %ld actions, item %ld '%s' then '%s' "
        "(the order must be stable: ADAPTER.md section 3)",
        *n1, n2, k, a, b);
    return 1;
}

static int hash_of(pcx *P, int64_t h, uint64_t *out)
{
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    if (arb_adapter__raw(P->a, "hash", h, NULL, &r, &e)) return -1;
    return arb_adapter__raw_hash(P->a, r, "hash", out);
}

/* A clone moved on by act leaves h's hash as it was. */
static int clone_independent(pcx *P, int64_t h, const arb_action *act)
{
    uint64_t before, after;
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    if (hash_of(P, h, &before)) return -1;
    if (arb_adapter__raw(P->a, "clone", h, NULL, &r, &e)) return -1;
    const arb_tnode *c = arb_tnode_get(r, "state");
    if (!c || c->kind != ARB_T_INT) {
        arb_adapter__raw_fail(P->a, "clone", "no \"state\" handle");
        return -1;
    }
    int64_t ch = c->i;
    int rc = arb_adapter__raw(P->a, "apply", ch, act, &r, &e);
    if (rc == ARB_EIO) return -1;
    char txt[128];
    arb_action_format(P->g, act, txt, sizeof txt);
    if (rc) say(P, "clone: the clone refused '%s', a legal action of its original: %s", txt, e.msg);
    else if (hash_of(P, h, &after)) return -1;
    arb_error fe = ARB_ERROR_INIT;
    if (arb_adapter__raw(P->a, "free", ch, NULL, &r, &fe) == ARB_EIO) return -1;
    if (rc) return 1;
    if (after == before) return 0;
    say(P,
        "clone: playing '%s' on a clone changed the original (hash %016" PRIx64 " -> %016" PRIx64 "): a clone "
        "must be an independent copy (ADAPTER.md section 3)",
        txt, before, after);
    return 1;
}

/* describe of up to PROMISE_DESCRIBE of the n legal actions, spread over
 * the list: the reference's text or "". */
static int describe_right(pcx *P, int64_t h, const arb_action *l, long n, const arb_game *ref, const void *rst)
{
    long step = n > PROMISE_DESCRIBE ? n / PROMISE_DESCRIBE : 1;
    for (long k = 0; k < n; k += step) {
        arb_action ra = l[k];
        if (l[k].verb < P->g->nverbs) {
            int v = arb_verb_find(ref, P->g->verbs[l[k].verb].name);
            if (v < 0) continue; /* crosscheck names a verb the reference lacks */
            ra.verb = (uint8_t)v;
        }
        const arb_tnode *r;
        arb_error e = ARB_ERROR_INIT;
        int rc = arb_adapter__raw(P->a, "describe", h, &l[k], &r, &e);
        if (rc == ARB_EIO) return -1;
        char want[256] = "", txt[128], got[300], exp[300];
        ref->action_text(ref, rst, &ra, want, sizeof want);
        arb_action_format(P->g, &l[k], txt, sizeof txt);
        if (rc) {
            say(P, "describe '%s': refused (%s), the reference says '%s'", txt, e.msg,
                arb_text_escape(exp, sizeof exp, want));
            return 1;
        }
        const arb_tnode *t = arb_tnode_get(r, "text");
        if (!t || t->kind != ARB_T_STR) {
            arb_adapter__raw_fail(P->a, "describe", "no \"text\" string");
            return -1;
        }
        if (t->s[0] && strcmp(t->s, want) != 0) {
            say(P, "describe '%s': reference '%s', engine '%s' (the reference's text or \"\": ADAPTER.md section 3)",
                txt, arb_text_escape(exp, sizeof exp, want), arb_text_escape(got, sizeof got, t->s));
            return 1;
        }
    }
    return 0;
}

int arb_adapter_promises(const void *st, const arb_game *ref, const void *rst, char *why, size_t size)
{
    if (size) why[0] = '\0';
    pcx P = { NULL, NULL, why, size, 0 };
    int64_t h;
    if (arb_adapter__raw_begin(st, &P.a, &h)) return ARB_EIO;
    P.g = arb_adapter_game(P.a);
    arb_action *l1 = malloc(2 * PROMISE_LEGAL_MAX * sizeof *l1), *l2 = l1 ? l1 + PROMISE_LEGAL_MAX : NULL;
    int rc = -1;
    long n = 0;
    if (!l1) {
        arb_adapter__raw_fail(P.a, "legal", "out of memory checking the promises");
    } else if (!(rc = legal_stable(&P, h, l1, l2, &n)) && n > 0 && !(rc = describe_right(&P, h, l1, n, ref, rst))) {
        rc = clone_independent(&P, h, &l1[0]);
    }
    arb_adapter__raw_end(P.a);
    free(l1);
    return rc < 0 ? ARB_EIO : rc;
}
