/* posread.c — the strict position reader every engine's load_position uses
 * (arb_pos_* in arbiter/toolkit.h): typed getters that track the path of
 * the node being read, refuse unknown keys, out-of-range numbers, unknown
 * enum names and unknown cards, all with one message style. */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/toolkit.h"

void arb_pos_init(arb_pos *P, const arb_game *g, arb_error *err, const char *shape_rule)
{
    memset(P, 0, sizeof *P);
    P->err = err ? err : &P->local_;
    P->game = g;
    P->shape_rule = shape_rule;
}

static size_t grow(arb_pos *P, int n)
{
    size_t room = sizeof P->path - 1 - P->len;
    if (n > 0) P->len += (size_t)n < room ? (size_t)n : room;
    return P->len;
}

size_t arb_pos_push(arb_pos *P, const char *key)
{
    size_t mark = P->len;
    grow(P, snprintf(P->path + P->len, sizeof P->path - P->len, "%s%s", P->len ? "." : "", key));
    return mark;
}

size_t arb_pos_index(arb_pos *P, long idx)
{
    size_t mark = P->len;
    grow(P, snprintf(P->path + P->len, sizeof P->path - P->len, "%s%ld", P->len ? "." : "", idx));
    return mark;
}

void arb_pos_pop(arb_pos *P, size_t mark)
{
    assert(mark <= P->len); /* a mark from this reader's push */
    if (mark <= P->len) P->len = mark;
    P->path[P->len] = '\0';
}

static int vfail(arb_pos *P, const char *key, int code, const char *rule, const char *fmt, va_list ap)
{
    if (key && *key) arb_error_where(P->err, "%s%s%s", P->path, P->len ? "." : "", key);
    else arb_error_where(P->err, "%s", P->len ? P->path : "(root)");
    char msg[ARB_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return arb_error_set(P->err, code, rule ? rule : P->shape_rule, "%s", msg);
}

int arb_pos_fail(arb_pos *P, const char *key, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(P, key, rule ? ARB_EILLEGAL : ARB_EINVAL, rule, fmt, ap);
    va_end(ap);
    return rc;
}

int arb_pos_failc(arb_pos *P, const char *key, int code, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(P, key, code, rule, fmt, ap);
    va_end(ap);
    return rc;
}

int arb_pos_keys(arb_pos *P, const arb_tnode *n, const char *const *allowed)
{
    if (!n || n->kind != ARB_T_MAP) return arb_pos_fail(P, NULL, NULL, "expected a map");
    for (const arb_tnode *c = n->first; c; c = c->next) {
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++) ok = strcmp(*a, c->key) == 0;
        if (!ok) return arb_pos_fail(P, c->key, NULL, "unknown field '%s'", c->key);
    }
    return ARB_OK;
}

int arb_pos_int_node(arb_pos *P, const arb_tnode *n, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    if (n->kind != ARB_T_INT) return arb_pos_fail(P, key, NULL, "expected an integer");
    if (n->i < lo || n->i > hi)
        return arb_pos_fail(P, key, NULL, "%" PRId64 " is out of range %" PRId64 "..%" PRId64, n->i, lo, hi);
    *out = n->i;
    return ARB_OK;
}

int arb_pos_bool_node(arb_pos *P, const arb_tnode *n, const char *key, int *out)
{
    if (n->kind != ARB_T_BOOL) return arb_pos_fail(P, key, NULL, "expected true or false");
    *out = n->i != 0;
    return ARB_OK;
}

int arb_pos_enum_node(arb_pos *P, const arb_tnode *n, const char *key, const char *const *names,
                      unsigned count, int *out)
{
    if (n->kind != ARB_T_STR) return arb_pos_fail(P, key, NULL, "expected a string");
    for (unsigned i = 0; i < count; i++)
        if (names[i] && strcmp(names[i], n->s) == 0) { *out = (int)i; return ARB_OK; }
    char list[160] = "";
    size_t len = 0;
    for (unsigned i = 0; i < count && len + 1 < sizeof list; i++) {
        if (!names[i]) continue;
        int w = snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", names[i]);
        if (w < 0) break;
        len += (size_t)w;
    }
    if (len >= sizeof list) len = sizeof list - 1;
    return arb_pos_fail(P, key, NULL, "unknown value '%.40s' (one of: %s)", n->s, list);
}

int arb_pos_card_node(arb_pos *P, const arb_tnode *n, const char *key, const char *rule, int *out)
{
    if (n->kind != ARB_T_STR) return arb_pos_fail(P, key, rule, "expected a card ID");
    int c = P->game ? arb_card_find(P->game, n->s) : -1;
    if (c < 0) return arb_pos_fail(P, key, rule, "unknown card '%.60s'", n->s);
    *out = c;
    return ARB_OK;
}

int arb_pos_int(arb_pos *P, const arb_tnode *m, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const arb_tnode *n = m ? arb_tnode_get(m, key) : NULL;
    return n ? arb_pos_int_node(P, n, key, lo, hi, out) : ARB_OK;
}

int arb_pos_bool(arb_pos *P, const arb_tnode *m, const char *key, int *out)
{
    const arb_tnode *n = m ? arb_tnode_get(m, key) : NULL;
    return n ? arb_pos_bool_node(P, n, key, out) : ARB_OK;
}

int arb_pos_flag(arb_pos *P, const arb_tnode *m, const char *key, uint8_t *out)
{
    int b = *out != 0;
    int rc = arb_pos_bool(P, m, key, &b);
    if (rc == ARB_OK) *out = (uint8_t)b;
    return rc;
}

int arb_pos_str(arb_pos *P, const arb_tnode *m, const char *key, const char **out)
{
    const arb_tnode *n = m ? arb_tnode_get(m, key) : NULL;
    if (!n) return ARB_OK;
    if (n->kind != ARB_T_STR) return arb_pos_fail(P, key, NULL, "expected a string");
    *out = n->s;
    return ARB_OK;
}

int arb_pos_enum(arb_pos *P, const arb_tnode *m, const char *key, const char *const *names,
                 unsigned n, int *out)
{
    const arb_tnode *x = m ? arb_tnode_get(m, key) : NULL;
    return x ? arb_pos_enum_node(P, x, key, names, n, out) : ARB_OK;
}

int arb_pos_arr(arb_pos *P, const arb_tnode *m, const char *key, uint32_t max, const char *max_rule,
                const arb_tnode **out)
{
    const arb_tnode *n = m ? arb_tnode_get(m, key) : NULL;
    *out = NULL;
    if (!n) return ARB_OK;
    if (n->kind != ARB_T_ARR) return arb_pos_fail(P, key, NULL, "expected an array");
    if (n->n > max) {
        size_t mark = arb_pos_push(P, key);
        int rc = arb_pos_fail(P, NULL, max_rule, "at most %" PRIu32 " entries", max);
        arb_pos_pop(P, mark);
        return rc;
    }
    *out = n;
    return ARB_OK;
}

int arb_pos_game(arb_pos *P, const arb_tnode *root)
{
    const arb_tnode *g = arb_tnode_get(root, "game");
    if (g && (g->kind != ARB_T_STR || !P->game || strcmp(g->s, P->game->id) != 0))
        return arb_pos_fail(P, "game", NULL, "this is a %s position", P->game ? P->game->id : "?");
    return ARB_OK;
}
