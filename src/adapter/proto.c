/* proto.c — the JSON shapes of the engine protocol (conformance/ADAPTER.md
 * §4) that both sides write and read: actions, events, decks, options,
 * seats and error codes. Readers check every field's kind and range and
 * name the offending path. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter_int.h"
#include "arbiter/toolkit.h"

void arb_adapter__write_seat(FILE *f, int seat)
{
    if (seat == ARB_VIEW_ALL) fputs("\"all\"", f);
    else fprintf(f, "%d", seat);
}

/* Integers and literal text into a small line buffer, written at once:
 * an answer of legal actions is mostly these two shapes, and one fprintf
 * per number was most of its cost. */
typedef struct lb {
    char b[1024];
    size_t n;
} lb;

static void lb_s(lb *l, const char *s)
{
    size_t k = strlen(s);
    if (k > sizeof l->b - l->n) k = sizeof l->b - l->n;
    memcpy(l->b + l->n, s, k);
    l->n += k;
}

static void lb_i(lb *l, int64_t v)
{
    char t[24];
    size_t k = sizeof t;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do t[--k] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) t[--k] = '-';
    if (sizeof t - k > sizeof l->b - l->n) return;
    memcpy(l->b + l->n, t + k, sizeof t - k);
    l->n += sizeof t - k;
}

/* "s" when s needs no escaping (verb and event names do not) and is at
 * most LB_NAME bytes, else 0 and nothing added: so an action or an event
 * takes less than LB_ITEM bytes of the buffer. */
#define LB_NAME 64
#define LB_ITEM 256
static int lb_name(lb *l, const char *s)
{
    size_t k = strlen(s);
    if (k > LB_NAME || k + 2 > sizeof l->b - l->n) return 0;
    for (size_t i = 0; i < k; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f || s[i] == '"' || s[i] == '\\') return 0;
    l->b[l->n++] = '"';
    memcpy(l->b + l->n, s, k);
    l->n += k;
    l->b[l->n++] = '"';
    return 1;
}

void arb_adapter__put_int(FILE *f, int64_t v)
{
    lb l;
    l.n = 0;
    lb_i(&l, v);
    fwrite(l.b, 1, l.n, f);
}

void arb_adapter__put_hash(FILE *f, uint64_t h)
{
    char t[18];
    t[0] = t[17] = '"';
    for (int i = 16; i >= 1; i--, h >>= 4) t[i] = "0123456789abcdef"[h & 15];
    fwrite(t, 1, sizeof t, f);
}

/* The action into l, or 0 (l unchanged) when a name needs escaping. */
static int lb_action(lb *l, const arb_game *g, const arb_action *a)
{
    size_t n0 = l->n;
    lb_s(l, "{\"seat\":");
    if (a->seat == ARB_SEAT_ARBITER) lb_s(l, "\"arbiter\"");
    else lb_i(l, a->seat);
    lb_s(l, ",\"verb\":");
    if (a->verb >= g->nverbs) lb_i(l, a->verb);
    else if (!lb_name(l, g->verbs[a->verb].name)) { l->n = n0; return 0; }
    lb_s(l, ",\"args\":[");
    for (unsigned i = 0; i < a->nargs && i < ARB_ARGS_MAX; i++) {
        if (i) lb_s(l, ",");
        lb_i(l, a->args[i]);
    }
    lb_s(l, "],\"ms\":");
    lb_i(l, a->elapsed_ms);
    lb_s(l, "}");
    return 1;
}

void arb_adapter__write_action(FILE *f, const arb_game *g, const arb_action *a)
{
    lb l;
    l.n = 0;
    if (lb_action(&l, g, a)) { fwrite(l.b, 1, l.n, f); return; }
    /* a verb name that needs escaping */
    lb_s(&l, "{\"seat\":");
    if (a->seat == ARB_SEAT_ARBITER) lb_s(&l, "\"arbiter\"");
    else lb_i(&l, a->seat);
    lb_s(&l, ",\"verb\":");
    fwrite(l.b, 1, l.n, f);
    l.n = 0;
    arb_json_str(f, g->verbs[a->verb].name);
    lb_s(&l, ",\"args\":[");
    for (unsigned i = 0; i < a->nargs && i < ARB_ARGS_MAX; i++) {
        if (i) lb_s(&l, ",");
        lb_i(&l, a->args[i]);
    }
    lb_s(&l, "],\"ms\":");
    lb_i(&l, a->elapsed_ms);
    lb_s(&l, "}");
    fwrite(l.b, 1, l.n, f);
}

size_t arb_adapter__format_actions(char **buf, size_t *cap, const arb_game *g, const arb_action *a, size_t n)
{
    if (n > (SIZE_MAX - 2) / LB_ITEM) return 0;
    size_t need = n * LB_ITEM + 2, len = 0;
    if (need > *cap) {
        char *p = realloc(*buf, need);
        if (!p) return 0;
        *buf = p;
        *cap = need;
    }
    (*buf)[len++] = '[';
    for (size_t i = 0; i < n; i++) {
        lb l;
        l.n = 0;
        if (i) lb_s(&l, ",");
        if (!lb_action(&l, g, &a[i])) return 0;
        memcpy(*buf + len, l.b, l.n);
        len += l.n;
    }
    (*buf)[len++] = ']';
    return len;
}

void arb_adapter__write_actions(FILE *f, const arb_game *g, const arb_action *a, size_t n)
{
    lb l;
    l.n = 0;
    lb_s(&l, "[");
    for (size_t i = 0; i < n; i++) {
        if (sizeof l.b - l.n < LB_ITEM) { fwrite(l.b, 1, l.n, f); l.n = 0; }
        if (i) lb_s(&l, ",");
        if (!lb_action(&l, g, &a[i])) {
            fwrite(l.b, 1, l.n, f);
            l.n = 0;
            arb_adapter__write_action(f, g, &a[i]);
        }
    }
    lb_s(&l, "]");
    fwrite(l.b, 1, l.n, f);
}

void arb_adapter__write_event(FILE *f, const arb_game *g, const arb_event *e)
{
    lb l;
    l.n = 0;
    lb_s(&l, "{\"type\":");
    if (e->type >= g->nevent_names) {
        lb_i(&l, e->type);
    } else if (!lb_name(&l, g->event_names[e->type])) {
        fwrite(l.b, 1, l.n, f);
        l.n = 0;
        arb_json_str(f, g->event_names[e->type]);
    }
    lb_s(&l, ",\"seat\":");
    lb_i(&l, e->seat);
    lb_s(&l, e->hidden ? ",\"hidden\":true,\"a\":" : ",\"hidden\":false,\"a\":");
    lb_i(&l, e->a);
    lb_s(&l, ",\"b\":");
    lb_i(&l, e->b);
    lb_s(&l, ",\"c\":");
    lb_i(&l, e->c);
    lb_s(&l, "}");
    fwrite(l.b, 1, l.n, f);
}

void arb_adapter__write_deck(FILE *f, const arb_game *g, const arb_deck *d)
{
    fputs("{\"name\":", f);
    arb_json_str(f, d->name);
    fputs(",\"cards\":[", f);
    for (unsigned i = 0; i < d->ncards && i < ARB_DECK_MAX; i++) {
        if (i) fputc(',', f);
        if (d->cards[i] < g->ncards) arb_json_str(f, g->card(g, d->cards[i])->id);
        else fputs("\"?\"", f);
    }
    fputs("],\"attrs\":{", f);
    for (unsigned i = 0; i < d->nattrs && i < ARB_DECK_ATTRS; i++) {
        if (i) fputc(',', f);
        arb_json_str(f, d->attrs[i].key);
        fputc(':', f);
        arb_json_str(f, d->attrs[i].value);
    }
    fputs("}}", f);
}

void arb_adapter__write_options(FILE *f, const arb_options *o)
{
    fputc('{', f);
    for (unsigned i = 0; i < o->n && i < ARB_OPTIONS_MAX; i++) {
        if (i) fputc(',', f);
        arb_json_str(f, o->kv[i].key);
        fprintf(f, ":%" PRId64, o->kv[i].value);
    }
    fputc('}', f);
}

static int bad(arb_error *err, const char *path, const char *field, const char *what)
{
    arb_error_where(err, "%s%s%s", path, field[0] ? "." : "", field);
    return arb_error_set(err, ARB_EINVAL, NULL, "%s", what);
}

int arb_adapter__read_seat(const arb_tnode *n, int *out)
{
    if (!n) return -1;
    if (n->kind == ARB_T_STR && strcmp(n->s, "arbiter") == 0) { *out = ARB_SEAT_ARBITER; return 0; }
    if (n->kind == ARB_T_STR && strcmp(n->s, "none") == 0) { *out = ARB_SEAT_NONE; return 0; }
    if (n->kind == ARB_T_INT && n->i >= 0 && n->i < ARB_MAX_SEATS) { *out = (int)n->i; return 0; }
    return -1;
}

int arb_adapter__read_u64(const arb_tnode *n, uint64_t *out)
{
    if (!n) return -1;
    if (n->kind == ARB_T_INT && n->i >= 0) { *out = (uint64_t)n->i; return 0; }
    if (n->kind != ARB_T_STR || !n->s[0] || strlen(n->s) > 20) return -1;
    for (const char *p = n->s; *p; p++)
        if (*p < '0' || *p > '9') return -1;
    errno = 0;
    unsigned long long v = strtoull(n->s, NULL, 10);
    if (errno) return -1;
    *out = v;
    return 0;
}

int arb_adapter__read_action(const arb_game *g, const arb_tnode *n, const char *path, arb_action *out,
                             arb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!n || n->kind != ARB_T_MAP) return bad(err, path, "", "an action must be an object");
    /* one pass over the members (a legal list has thousands of actions) */
    const arb_tnode *s = NULL, *v = NULL, *a = NULL, *ms = NULL;
    for (const arb_tnode *k = n->first; k; k = k->next) {
        const arb_tnode **slot = !strcmp(k->key, "seat") ? &s : !strcmp(k->key, "verb") ? &v
                                : !strcmp(k->key, "args") ? &a : !strcmp(k->key, "ms") ? &ms : NULL;
        if (!slot) return bad(err, path, k->key, "unknown field of an action");
        if (!*slot) *slot = k;
    }
    int seat;
    if (arb_adapter__read_seat(s, &seat) || seat == ARB_SEAT_NONE)
        return bad(err, path, "seat", "seat must be 0..3 or \"arbiter\"");
    out->seat = (int8_t)seat;
    if (v && v->kind == ARB_T_STR) {
        int k = arb_verb_find(g, v->s);
        if (k < 0) return bad(err, path, "verb", "unknown verb");
        out->verb = (uint8_t)k;
    } else if (v && v->kind == ARB_T_INT && v->i >= 0 && v->i <= 255) {
        out->verb = (uint8_t)v->i;
    } else {
        return bad(err, path, "verb", "verb must be a verb name (or a verb number 0..255)");
    }
    if (!a || a->kind != ARB_T_ARR) return bad(err, path, "args", "args must be a list of integers");
    if (a->n > ARB_ARGS_MAX) return bad(err, path, "args", "more than 6 arguments");
    for (const arb_tnode *k = a->first; k; k = k->next) {
        if (k->kind != ARB_T_INT || k->i < INT32_MIN || k->i > INT32_MAX)
            return bad(err, path, "args", "an argument is not a 32-bit integer");
        out->args[out->nargs++] = (int32_t)k->i;
    }
    if (ms) {
        if (ms->kind != ARB_T_INT || ms->i < 0 || ms->i > UINT32_MAX)
            return bad(err, path, "ms", "ms must be 0..4294967295");
        out->elapsed_ms = (uint32_t)ms->i;
    }
    return ARB_OK;
}

static int int_field(const arb_tnode *n, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const arb_tnode *v = arb_tnode_get(n, key);
    if (!v || v->kind != ARB_T_INT || v->i < lo || v->i > hi) return -1;
    *out = v->i;
    return 0;
}

int arb_adapter__read_event(const arb_game *g, const arb_tnode *n, const char *path, arb_event *out,
                            arb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!n || n->kind != ARB_T_MAP) return bad(err, path, "", "an event must be an object");
    const arb_tnode *t = arb_tnode_get(n, "type");
    /* '-' and '_' compare equal: an adapter may still spell "draw_empty" */
    int type = t && t->kind == ARB_T_STR ? arb_game_event_find(g, t->s) : -1;
    if (type < 0) return bad(err, path, "type", "type must be one of the game's event names");
    out->type = (uint16_t)type;
    int64_t v;
    if (int_field(n, "seat", -1, ARB_MAX_SEATS - 1, &v)) return bad(err, path, "seat", "seat must be -1..3");
    out->seat = (int8_t)v;
    const arb_tnode *h = arb_tnode_get(n, "hidden");
    if (!h || h->kind != ARB_T_BOOL) return bad(err, path, "hidden", "hidden must be true or false");
    out->hidden = (uint8_t)h->i;
    if (int_field(n, "a", INT32_MIN, INT32_MAX, &v)) return bad(err, path, "a", "a must be a 32-bit integer");
    out->a = (int32_t)v;
    if (int_field(n, "b", INT32_MIN, INT32_MAX, &v)) return bad(err, path, "b", "b must be a 32-bit integer");
    out->b = (int32_t)v;
    if (int_field(n, "c", INT32_MIN, INT32_MAX, &v)) return bad(err, path, "c", "c must be a 32-bit integer");
    out->c = (int32_t)v;
    return ARB_OK;
}

int arb_adapter__read_deck(const arb_game *g, const arb_tnode *n, const char *path, arb_deck *out,
                           arb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!n || n->kind != ARB_T_MAP) return bad(err, path, "", "a deck must be an object");
    const arb_tnode *nm = arb_tnode_get(n, "name");
    if (nm) {
        if (nm->kind != ARB_T_STR || strlen(nm->s) >= sizeof out->name)
            return bad(err, path, "name", "name must be a string of at most 63 bytes");
        snprintf(out->name, sizeof out->name, "%s", nm->s);
    }
    const arb_tnode *c = arb_tnode_get(n, "cards");
    if (!c || c->kind != ARB_T_ARR) return bad(err, path, "cards", "cards must be a list of card IDs");
    if (c->n > ARB_DECK_MAX) return bad(err, path, "cards", "more than 96 cards");
    for (const arb_tnode *k = c->first; k; k = k->next) {
        int idx = k->kind == ARB_T_STR ? arb_card_find(g, k->s) : -1;
        if (idx < 0) {
            arb_error_where(err, "%s.cards.%u", path, out->ncards);
            return arb_error_set(err, ARB_ENOTFOUND, NULL, "unknown %s card '%s'", g->id,
                                 k->kind == ARB_T_STR ? k->s : "(not a string)");
        }
        out->cards[out->ncards++] = (uint16_t)idx;
    }
    const arb_tnode *at = arb_tnode_get(n, "attrs");
    if (at) {
        if (at->kind != ARB_T_MAP) return bad(err, path, "attrs", "attrs must be an object of strings");
        for (const arb_tnode *k = at->first; k; k = k->next)
            if (k->kind != ARB_T_STR || arb_deck_attr_set(out, k->key, k->s))
                return bad(err, path, "attrs", "at most 4 attributes, keys < 16 and values < 48 bytes");
    }
    return ARB_OK;
}

int arb_adapter__read_options(const arb_tnode *n, const char *path, arb_options *out, arb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!n) return ARB_OK;
    if (n->kind != ARB_T_MAP) return bad(err, path, "", "options must be an object of integers");
    for (const arb_tnode *k = n->first; k; k = k->next)
        if (k->kind != ARB_T_INT || arb_options_set(out, k->key, k->i))
            return bad(err, path, k->key, "at most 8 integer options with keys < 24 bytes");
    return ARB_OK;
}

static const struct { int code; const char *name; } codes[] = {
    { ARB_EILLEGAL, "illegal" },   { ARB_EINVAL, "invalid" },   { ARB_EOVER, "over" },
    { ARB_ENOTFOUND, "notfound" }, { ARB_ELIMIT, "limit" },     { ARB_EUNSUPPORTED, "unsupported" },
    { ARB_EFORMAT, "protocol" },   { ARB_ENOMEM, "internal" },
};

const char *arb_adapter__code_name(int code)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].code == code) return codes[i].name;
    return "internal";
}

int arb_adapter__code_parse(const char *name)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(codes[i].name, name) == 0) return codes[i].code;
    return 0;
}
