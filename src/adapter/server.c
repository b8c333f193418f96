/* server.c — the protocol's server side over a compiled-in engine: the
 * reference adapter behind `arbiter engine-serve`. One request per line on
 * `in`, one response per line on `out`, in order (conformance/ADAPTER.md).
 * States are handles into a table of engine states; every request is
 * validated like hostile input (bounded line, bounded JSON, every field
 * checked) and a bad one gets an error response, never a crash.
 *
 * It speaks protocol 1 and 2 (the version `hello` offers; 2 adds `step`
 * and `probe`), or only protocol 1 when started so (engine-serve
 * --protocol 1), so that the tools' fallback can be tested.
 *
 * The documented faults (--fault NAME) break exactly one behaviour each, so
 * that crosscheck and `conform --engine` can be shown to catch it. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter/adapter_int.h"
#include "arbiter/match.h"

const char *const arb_adapter_fault_names[] = {
    "drop-legal", "accept-illegal", "wrong-rule", "state-off-by-one", "leak-hidden", "drop-event", "refusal-mutates",
    "member-order", "clone-shares", "describe-wrong", "legal-unstable", "clock-off-by-one",
    NULL
};
const char *const arb_adapter_fault_help[] = {
    "legal omits the first action whenever there are two or more",
    "an action the engine rejects as illegal is answered as accepted (the state does not change)",
    "rejections cite a wrong rule ID (the last character of the right one is changed)",
    "state trees show the first integer field of players.0 (not seat or uid) one higher",
    "a seat's view is the full state: every hidden card is shown",
    "the last event of every accepted apply is left out",
    "a refused action changes the state (its first legal action is played, unreported); probes too",
    "state trees give the first two members of the first nested object with two or more in the other order",
    "clone answers a handle that shares its state with the original: moving one moves both",
    "describe's text is the right one without its last character",
    "every second legal list the adapter sends is rotated by one (an unstable order)",
    "a decision with a clock says one millisecond more than the engine's (clock_left_ms + 1)",
    NULL
};
enum {
    F_DROP_LEGAL, F_ACCEPT_ILLEGAL, F_WRONG_RULE, F_OFF_BY_ONE, F_LEAK_HIDDEN, F_DROP_EVENT, F_REFUSAL_MUTATES,
    F_MEMBER_ORDER, F_CLONE_SHARES, F_DESCRIBE_WRONG, F_LEGAL_UNSTABLE, F_CLOCK_OFF_BY_ONE
};

int arb_adapter_fault_find(const char *name)
{
    for (int i = 0; arb_adapter_fault_names[i]; i++)
        if (strcmp(arb_adapter_fault_names[i], name) == 0) return i;
    return -1;
}

int arb_adapter_fault_shows(const arb_game *g, int fault)
{
    int n = 0;
    while (arb_adapter_fault_names[n]) n++;
    if (!g || fault < 0 || fault >= n) return 0;
    if (fault != F_CLOCK_OFF_BY_ONE) return 1;
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = 1;
    su.players = g->min_players;
    for (int i = 0; i < su.players && g->npresets; i++) su.decks[i] = g->preset(g, (unsigned)i % g->npresets);
    arb_match *m = NULL;
    arb_error e = ARB_ERROR_INIT;
    int shows = !arb_match_new(&m, g, &su, &e) && arb_match_decision(m).clock_left_ms >= 0;
    arb_match_free(m);
    return shows;
}

typedef struct sstate {
    void *st;               /* NULL: free slot */
    arb_event *ev;          /* events of the last setup/apply */
    unsigned nev;
    int shares;             /* clone-shares: 1 + the handle whose state this one uses */
} sstate;

typedef struct server {
    const arb_game *g;
    int fault;
    FILE *out;
    sstate *s;
    size_t ns, caps;
    arb_events evb;
    arb_action *legal;
    size_t legal_cap;
    int64_t id;             /* of the request being answered */
    int proto_max;          /* the newest protocol served */
    int proto;              /* the one hello agreed on (proto_max before) */
    void *scratch;          /* a state to try probes on */
    arb_tree *req;          /* the request being answered, parsed */
    unsigned long listed;   /* legal lists sent (legal-unstable) */
} server;

#define SERVER_EVENTS 4096

/* ------------------------------------------------------------ responses */

static void head(server *S, int ok)
{
    fputs("{\"id\":", S->out);
    arb_adapter__put_int(S->out, S->id);
    fputs(ok ? ",\"ok\":true" : ",\"ok\":false", S->out);
}

/* Answers are flushed by the loop when no further request is waiting. */
static void end(server *S) { fputs("}\n", S->out); }

static void fault_rule(server *S, char *rule)
{
    if (S->fault != F_WRONG_RULE || !rule[0]) return;
    size_t l = strlen(rule);
    char *c = &rule[l - 1];
    if (*c >= '0' && *c <= '9') *c = (char)('0' + (*c - '0' + 1) % 10);
    else *c = *c == 'X' ? 'Y' : 'X';
}

static void fail(server *S, int code, const char *rule, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void fail(server *S, int code, const char *rule, const char *where, const char *fmt, ...)
{
    char msg[ARB_MSG_MAX + ARB_WHERE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    head(S, 0);
    fputs(",\"code\":", S->out);
    arb_json_str(S->out, arb_adapter__code_name(code));
    char r[ARB_RULE_MAX];
    snprintf(r, sizeof r, "%s", rule ? rule : "");
    fault_rule(S, r);
    fputs(",\"rule\":", S->out);
    arb_json_str(S->out, r);
    fputs(",\"message\":", S->out);
    arb_json_str(S->out, msg);
    fputs(",\"where\":", S->out);
    arb_json_str(S->out, where ? where : "");
    end(S);
}

static void fail_err(server *S, const arb_error *e)
{
    fail(S, e->code ? e->code : ARB_EINVAL, e->rule, e->where, "%s", e->msg);
}

/* ------------------------------------------------------------ states */

static int new_state(server *S)
{
    size_t i;
    for (i = 0; i < S->ns; i++)
        if (!S->s[i].st) break;
    if (i == S->ns) {
        if (S->ns >= ARB_ADAPTER_STATES_MAX) return -1;
        if (S->ns == S->caps) {
            size_t nc = S->caps ? S->caps * 2 : 16;
            sstate *p = realloc(S->s, nc * sizeof *p);
            if (!p) return -1;
            S->s = p;
            S->caps = nc;
        }
        S->ns++;
    }
    memset(&S->s[i], 0, sizeof S->s[i]);
    S->s[i].st = calloc(1, S->g->state_size);
    if (!S->s[i].st) return -1;
    return (int)i;
}

static void drop_state(server *S, int h)
{
    free(S->s[h].st);
    free(S->s[h].ev);
    memset(&S->s[h], 0, sizeof S->s[h]);
}

static void keep_events(server *S, int h)
{
    sstate *x = &S->s[h];
    free(x->ev);
    x->ev = NULL;
    x->nev = S->evb.n;
    if (S->fault == F_DROP_EVENT && x->nev) x->nev--;
    if (x->nev) {
        x->ev = malloc(x->nev * sizeof *x->ev);
        if (!x->ev) x->nev = 0;
        else memcpy(x->ev, S->evb.buf, x->nev * sizeof *x->ev);
    }
}

static void write_events(server *S, int h)
{
    fputs(",\"events\":[", S->out);
    for (unsigned i = 0; i < S->s[h].nev; i++) {
        if (i) fputc(',', S->out);
        arb_adapter__write_event(S->out, S->g, &S->s[h].ev[i]);
    }
    fputc(']', S->out);
}

/* The "state" field of a request: a live handle, or an error sent. Under
 * clone-shares a clone's handle stands for its original's state (while
 * that lives), except to free (raw set). */
static int handle_of(server *S, const arb_tnode *req, int raw)
{
    const arb_tnode *h = arb_tnode_get(req, "state");
    if (!h || h->kind != ARB_T_INT) {
        fail(S, ARB_EINVAL, NULL, "state", "this request needs \"state\": a handle from setup, load or clone");
        return -1;
    }
    if (h->i < 0 || (uint64_t)h->i >= S->ns || !S->s[h->i].st) {
        fail(S, ARB_ENOTFOUND, NULL, "state", "no live state %" PRId64, h->i);
        return -1;
    }
    int i = (int)h->i, o = S->s[i].shares - 1;
    if (!raw && o >= 0 && (size_t)o < S->ns && S->s[o].st) return o;
    return i;
}

/* ------------------------------------------------------------ requests */

static void op_hello(server *S, const arb_tnode *req)
{
    const arb_game *g = S->g;
    const arb_tnode *p = arb_tnode_get(req, "protocol");
    if (!p || p->kind != ARB_T_INT || p->i < 1 || p->i > S->proto_max) {
        if (S->proto_max == 1) fail(S, ARB_EUNSUPPORTED, NULL, "protocol", "this adapter speaks protocol 1");
        else fail(S, ARB_EUNSUPPORTED, NULL, "protocol", "this adapter speaks protocol 1 to %d", S->proto_max);
        return;
    }
    const arb_tnode *want = arb_tnode_get(req, "game");
    if (want && (want->kind != ARB_T_STR || strcmp(want->s, g->id) != 0)) {
        fail(S, ARB_EUNSUPPORTED, NULL, "game", "this adapter serves '%s'", g->id);
        return;
    }
    S->proto = (int)p->i;
    head(S, 1);
    fprintf(S->out, ",\"protocol\":%d,\"game\":", S->proto);
    arb_json_str(S->out, g->id);
    fputs(",\"title\":", S->out); arb_json_str(S->out, g->title);
    fputs(",\"rules\":", S->out); arb_json_str(S->out, g->rules_version);
    fputs(",\"rules_versions\":[", S->out);
    if (g->nrules_versions)
        for (unsigned i = 0; i < g->nrules_versions; i++) {
            if (i) fputc(',', S->out);
            arb_json_str(S->out, g->rules_versions[i]);
        }
    else
        arb_json_str(S->out, g->rules_version);
    fputc(']', S->out);
    fputs(",\"engine\":", S->out); arb_json_str(S->out, g->engine_version);
    fputs(",\"rng\":", S->out); arb_json_str(S->out, ARB_RNG_NAME);
    fputs(",\"hash\":", S->out); arb_json_str(S->out, ARB_HASH_NAME);
    fprintf(S->out, ",\"min_players\":%d,\"max_players\":%d,\"verbs\":[", g->min_players, g->max_players);
    for (unsigned i = 0; i < g->nverbs; i++) {
        const arb_verb *v = &g->verbs[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", S->out);
        arb_json_str(S->out, v->name);
        fprintf(S->out, ",\"min_args\":%u,\"max_args\":%u,\"args\":", v->min_args, v->max_args);
        arb_json_str(S->out, v->args_help ? v->args_help : "");
        fputs(",\"help\":", S->out);
        arb_json_str(S->out, v->help ? v->help : "");
        fputc('}', S->out);
    }
    const char *const *lists[3] = { g->decision_names, g->event_names, g->outcome_reasons };
    unsigned nl[3] = { g->ndecision_names, g->nevent_names, g->noutcome_reasons };
    const char *ln[3] = { "decisions", "events", "outcomes" };
    for (int l = 0; l < 3; l++) {
        fprintf(S->out, "],\"%s\":[", ln[l]);
        for (unsigned i = 0; i < nl[l]; i++) {
            if (i) fputc(',', S->out);
            arb_json_str(S->out, lists[l][i]);
        }
    }
    fputs("],\"cards\":[", S->out);
    for (unsigned i = 0; i < g->ncards; i++) {
        const arb_card *c = g->card(g, i);
        fputs(i ? ",{\"id\":" : "{\"id\":", S->out);
        arb_json_str(S->out, c->id);
        fputs(",\"name\":", S->out); arb_json_str(S->out, c->name);
        fputs(",\"type\":", S->out); arb_json_str(S->out, c->type ? c->type : "");
        fputs(",\"group\":", S->out); arb_json_str(S->out, c->group ? c->group : "");
        fputs(",\"text\":", S->out); arb_json_str(S->out, c->text ? c->text : "");
        fputc('}', S->out);
    }
    fputs("],\"presets\":[", S->out);
    for (unsigned i = 0; i < g->npresets; i++) {
        if (i) fputc(',', S->out);
        arb_adapter__write_deck(S->out, g, g->preset(g, i));
    }
    fputc(']', S->out);
    end(S);
}

static int read_setup(server *S, const arb_tnode *req, arb_setup *su, arb_deck *decks, int need_decks)
{
    arb_error e = ARB_ERROR_INIT;
    memset(su, 0, sizeof *su);
    if (arb_adapter__read_u64(arb_tnode_get(req, "seed"), &su->seed)) {
        fail(S, ARB_EINVAL, NULL, "seed", "seed must be a decimal uint64 in a string");
        return -1;
    }
    const arb_tnode *p = arb_tnode_get(req, "players");
    if (!p || p->kind != ARB_T_INT || p->i < 1 || p->i > ARB_MAX_SEATS) {
        fail(S, ARB_EINVAL, NULL, "players", "players must be 1..%d", ARB_MAX_SEATS);
        return -1;
    }
    su->players = (int)p->i;
    const arb_tnode *rv = arb_tnode_get(req, "rules");
    if (rv && (rv->kind != ARB_T_STR || arb_game_rules_index(S->g, rv->s) < 0)) {
        fail(S, ARB_EUNSUPPORTED, NULL, "rules", "rules must name one of the rules_versions of hello");
        return -1;
    }
    su->rules = rv ? rv->s : NULL; /* lives as long as the request */
    if (arb_adapter__read_options(arb_tnode_get(req, "options"), "options", &su->options, &e)) {
        fail_err(S, &e);
        return -1;
    }
    const arb_tnode *d = arb_tnode_get(req, "decks");
    if (!need_decks && !d) return 0;
    if (!d || d->kind != ARB_T_ARR || d->n != (uint32_t)su->players) {
        fail(S, ARB_EINVAL, NULL, "decks", "decks must list one deck per player");
        return -1;
    }
    int i = 0;
    for (const arb_tnode *k = d->first; k; k = k->next, i++) {
        char path[32];
        snprintf(path, sizeof path, "decks.%d", i);
        if (arb_adapter__read_deck(S->g, k, path, &decks[i], &e)) {
            fail_err(S, &e);
            return -1;
        }
        su->decks[i] = &decks[i];
    }
    return 0;
}

static void op_setup(server *S, const arb_tnode *req, int position)
{
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    if (read_setup(S, req, &su, decks, !position)) return;
    const arb_tnode *pos = NULL;
    if (position) {
        pos = arb_tnode_get(req, "position");
        if (!pos || pos->kind != ARB_T_MAP) {
            fail(S, ARB_EINVAL, NULL, "position", "position must be an object (a state tree)");
            return;
        }
    }
    int h = new_state(S);
    if (h < 0) { fail(S, ARB_ELIMIT, NULL, NULL, "too many live states (at most %d)", ARB_ADAPTER_STATES_MAX); return; }
    arb_error e = ARB_ERROR_INIT;
    S->evb.n = S->evb.dropped = 0;
    int rc = position ? S->g->load_position(S->g, S->s[h].st, pos, &su, &e) : S->g->setup(S->g, S->s[h].st, &su, &S->evb, &e);
    if (rc) {
        drop_state(S, h);
        fail_err(S, &e);
        return;
    }
    keep_events(S, h);
    head(S, 1);
    fprintf(S->out, ",\"state\":%d", h);
    write_events(S, h);
    end(S);
}

static void op_clone(server *S, const arb_tnode *req)
{
    int h = handle_of(S, req, 0);
    if (h < 0) return;
    int c = new_state(S);
    if (c < 0) { fail(S, ARB_ELIMIT, NULL, NULL, "too many live states (at most %d)", ARB_ADAPTER_STATES_MAX); return; }
    memcpy(S->s[c].st, S->s[h].st, S->g->state_size);
    if (S->fault == F_CLONE_SHARES) S->s[c].shares = h + 1;
    head(S, 1);
    fprintf(S->out, ",\"state\":%d", c);
    end(S);
}

/* The fields of a decision answer, "seat":…,"phase":"…". */
static void write_decision(server *S, const void *st)
{
    arb_decision d = S->g->decision(S->g, st);
    fputs("\"seat\":", S->out);
    if (d.seat == ARB_SEAT_NONE) fputs("\"none\"", S->out);
    else if (d.seat == ARB_SEAT_ARBITER) fputs("\"arbiter\"", S->out);
    else arb_adapter__put_int(S->out, d.seat);
    fputs(",\"kind\":", S->out);
    arb_json_str(S->out, d.kind < S->g->ndecision_names ? S->g->decision_names[d.kind] : "?");
    fputs(",\"clock_left_ms\":", S->out);
    arb_adapter__put_int(S->out, d.clock_left_ms + (S->fault == F_CLOCK_OFF_BY_ONE && d.clock_left_ms >= 0));
    fputs(",\"turn\":", S->out);
    arb_adapter__put_int(S->out, S->g->turn(S->g, st));
    fputs(",\"phase\":", S->out);
    const char *ph = S->g->phase(S->g, st);
    arb_json_str(S->out, ph ? ph : "");
}

static void op_decision(server *S, const void *st)
{
    head(S, 1);
    fputc(',', S->out);
    write_decision(S, st);
    end(S);
}

/* The legal actions of st into S->legal; their count, or -1 (an error
 * answer sent) when out of memory. */
static long list_legal(server *S, const void *st)
{
    size_t n = S->g->legal(S->g, st, S->legal, S->legal_cap);
    while (n > S->legal_cap) {
        size_t nc = S->legal_cap ? S->legal_cap * 2 : 256;
        while (nc < n) nc *= 2;
        arb_action *p = realloc(S->legal, nc * sizeof *p);
        if (!p) { fail(S, ARB_ENOMEM, NULL, NULL, "out of memory listing %zu legal actions", n); return -1; }
        S->legal = p;
        S->legal_cap = nc;
        n = S->g->legal(S->g, st, S->legal, S->legal_cap);
    }
    return (long)n;
}

/* [action,…] of the n listed in S->legal. */
static void write_legal(server *S, size_t n)
{
    size_t first = 0;
    if (S->fault == F_DROP_LEGAL && n >= 2) first = 1;
    if (S->fault == F_LEGAL_UNSTABLE && n >= 2 && S->listed++ % 2) {
        arb_action a0 = S->legal[0];
        memmove(S->legal, S->legal + 1, (n - 1) * sizeof *S->legal);
        S->legal[n - 1] = a0;
    }
    arb_adapter__write_actions(S->out, S->g, S->legal + first, n - first);
}

static void op_legal(server *S, const void *st)
{
    long n = list_legal(S, st);
    if (n < 0) return;
    head(S, 1);
    fputs(",\"actions\":", S->out);
    write_legal(S, (size_t)n);
    end(S);
}

/* Apply the request's "action" to st as `apply` does (the faults
 * included); its verdict, with e filled on a refusal. */
static int try_action(server *S, void *st, const arb_tnode *act, arb_error *e)
{
    arb_action a;
    if (arb_adapter__read_action(S->g, act, "action", &a, e)) return e->code ? e->code : ARB_EINVAL;
    S->evb.n = S->evb.dropped = 0;
    int rc = S->g->apply(S->g, st, &a, &S->evb, e);
    if (rc == ARB_EILLEGAL && S->fault == F_ACCEPT_ILLEGAL) {
        S->evb.n = 0;
        rc = ARB_OK;
    }
    return rc;
}

/* The refusal-mutates fault: after a refusal, st plays its first legal
 * action (when it has one), and nobody is told. */
static void refusal_mutates(server *S, void *st)
{
    if (S->fault != F_REFUSAL_MUTATES) return;
    arb_action a;
    arb_error e = ARB_ERROR_INIT;
    arb_events none = { NULL, 0, 0, 0 };
    if (S->g->legal(S->g, st, &a, 1) >= 1) S->g->apply(S->g, st, &a, &none, &e);
}

static void op_apply(server *S, int h, const arb_tnode *req)
{
    arb_error e = ARB_ERROR_INIT;
    if (try_action(S, S->s[h].st, arb_tnode_get(req, "action"), &e)) {
        refusal_mutates(S, S->s[h].st);
        fail_err(S, &e);
        return;
    }
    keep_events(S, h);
    head(S, 1);
    write_events(S, h);
    end(S);
}

static void off_by_one(arb_tnode *root)
{
    arb_tnode *pl = (arb_tnode *)arb_tnode_get(root, "players");
    arb_tnode *p0 = pl && pl->kind == ARB_T_ARR ? pl->first : NULL;
    if (!p0 || p0->kind != ARB_T_MAP) return;
    for (arb_tnode *k = p0->first; k; k = k->next)
        if (k->kind == ARB_T_INT && strcmp(k->key, "seat") && strcmp(k->key, "uid")) { k->i++; return; }
}

/* member-order: the first map below the root (depth first) with two or
 * more members gets its first two swapped. 1 when one was found. */
static int member_order(arb_tnode *n, int depth)
{
    if (n->kind != ARB_T_MAP && n->kind != ARB_T_ARR) return 0;
    if (depth && n->kind == ARB_T_MAP && n->n >= 2) {
        arb_tnode *a = n->first, *b = a->next;
        a->next = b->next;
        b->next = a;
        n->first = b;
        if (n->last == b) n->last = a;
        return 1;
    }
    for (arb_tnode *k = n->first; k; k = k->next)
        if (member_order(k, depth + 1)) return 1;
    return 0;
}

/* A view: "all" or a seat number; -2 (an error answer sent) otherwise. */
static int read_view(server *S, const arb_tnode *v, const char *where)
{
    if (v && v->kind == ARB_T_STR && strcmp(v->s, "all") == 0) return ARB_VIEW_ALL;
    if (v && v->kind == ARB_T_INT && v->i >= 0 && v->i < ARB_MAX_SEATS) return (int)v->i;
    fail(S, ARB_EINVAL, NULL, where, "view must be \"all\" or a seat number");
    return -2;
}

/* The state tree of a view, the faults applied; NULL when out of memory. */
static arb_tree *export_view(server *S, const void *st, int view)
{
    if (S->fault == F_LEAK_HIDDEN) view = ARB_VIEW_ALL;
    arb_tree *t = arb_tree_new();
    if (!t) return NULL;
    S->g->export_state(S->g, st, view, t, arb_tree_root(t));
    if (arb_tree_failed(t)) { arb_tree_free(t); return NULL; }
    if (S->fault == F_OFF_BY_ONE) off_by_one(arb_tree_root(t));
    if (S->fault == F_MEMBER_ORDER) member_order(arb_tree_root(t), 0);
    return t;
}

static void op_state(server *S, const void *st, const arb_tnode *req)
{
    int view = read_view(S, arb_tnode_get(req, "view"), "view");
    if (view == -2) return;
    arb_tree *t = export_view(S, st, view);
    if (!t) { fail(S, ARB_ENOMEM, NULL, NULL, "out of memory exporting"); return; }
    head(S, 1);
    fputs(",\"tree\":", S->out);
    arb_tnode_json(arb_tree_root(t), S->out, 0);
    end(S);
    arb_tree_free(t);
}

/* The fields of an outcome answer, "over":…,"turns":N. */
static void write_outcome(server *S, const void *st)
{
    arb_outcome o = { 0 };
    int over = S->g->outcome(S->g, st, &o);
    fputs(over ? "\"over\":true,\"winner\":" : "\"over\":false,\"winner\":", S->out);
    arb_adapter__put_int(S->out, over ? o.winner : -1);
    fputs(",\"reason\":", S->out);
    arb_json_str(S->out, over && o.reason < S->g->noutcome_reasons ? S->g->outcome_reasons[o.reason] : "");
    fputs(",\"turns\":", S->out);
    arb_adapter__put_int(S->out, over ? o.turns : 0);
}

static void op_outcome(server *S, const void *st)
{
    head(S, 1);
    fputc(',', S->out);
    write_outcome(S, st);
    end(S);
}

static void write_hash(server *S, const void *st)
{
    fputs(",\"hash\":", S->out);
    arb_adapter__put_hash(S->out, S->g->hash(S->g, st));
}

/* Protocol 2: apply "action" (none: apply nothing) and answer its events,
 * the next decision, the outcome, the hash and, when asked, the legal
 * actions and the state tree of each of "views". A refusal is apply's. */
static void op_step(server *S, int h, const arb_tnode *req)
{
    const arb_tnode *lg = arb_tnode_get(req, "legal"), *vs = arb_tnode_get(req, "views");
    if (lg && lg->kind != ARB_T_BOOL) { fail(S, ARB_EINVAL, NULL, "legal", "legal must be true or false"); return; }
    if (vs && (vs->kind != ARB_T_ARR || vs->n > ARB_MAX_SEATS + 1)) {
        fail(S, ARB_EINVAL, NULL, "views", "views must be a list of at most %d views", ARB_MAX_SEATS + 1);
        return;
    }
    int views[ARB_MAX_SEATS + 1], nv = 0;
    for (const arb_tnode *k = vs ? vs->first : NULL; k; k = k->next) {
        char where[24]; /* "views." and any int: no -Wformat-truncation at -O0 */
        snprintf(where, sizeof where, "views.%d", nv);
        if ((views[nv++] = read_view(S, k, where)) == -2) return;
    }
    const arb_tnode *act = arb_tnode_get(req, "action");
    void *st = S->s[h].st;
    if (act) {
        arb_error e = ARB_ERROR_INIT;
        if (try_action(S, st, act, &e)) {
            refusal_mutates(S, st);
            fail_err(S, &e);
            return;
        }
        keep_events(S, h);
    }
    long nl = lg && lg->i ? list_legal(S, st) : 0;
    if (nl < 0) return;
    arb_tree *t[ARB_MAX_SEATS + 1] = { NULL };
    int bad = 0;
    for (int i = 0; i < nv; i++) bad |= !(t[i] = export_view(S, st, views[i]));
    if (bad) {
        fail(S, ARB_ENOMEM, NULL, NULL, "out of memory exporting");
    } else {
        head(S, 1);
        if (act) write_events(S, h);
        else fputs(",\"events\":[]", S->out);
        fputs(",\"decision\":{", S->out);
        write_decision(S, st);
        fputs("},\"outcome\":{", S->out);
        write_outcome(S, st);
        fputc('}', S->out);
        write_hash(S, st);
        if (lg && lg->i) {
            fputs(",\"legal\":", S->out);
            write_legal(S, (size_t)nl);
        }
        if (vs) {
            fputs(",\"trees\":[", S->out);
            for (int i = 0; i < nv; i++) {
                if (i) fputc(',', S->out);
                arb_tnode_json(arb_tree_root(t[i]), S->out, 0);
            }
            fputc(']', S->out);
        }
        end(S);
    }
    for (int i = 0; i < nv; i++) arb_tree_free(t[i]);
}

/* Protocol 2: the verdict of apply on each of "actions", each tried on a
 * scratch copy, and the hash of the state (unchanged). */
static void op_probe(server *S, int h, const arb_tnode *req)
{
    const arb_tnode *as = arb_tnode_get(req, "actions");
    if (!as || as->kind != ARB_T_ARR || as->n > ARB_ADAPTER_PROBES_MAX) {
        fail(S, ARB_EINVAL, NULL, "actions", "actions must be a list of at most %d actions", ARB_ADAPTER_PROBES_MAX);
        return;
    }
    if (!S->scratch && !(S->scratch = malloc(S->g->state_size))) {
        fail(S, ARB_ENOMEM, NULL, NULL, "out of memory");
        return;
    }
    void *st = S->s[h].st;
    head(S, 1);
    fputs(",\"verdicts\":[", S->out);
    for (const arb_tnode *k = as->first; k; k = k->next) {
        arb_error e = ARB_ERROR_INIT;
        memcpy(S->scratch, st, S->g->state_size);
        int rc = try_action(S, S->scratch, k, &e);
        if (rc) refusal_mutates(S, st);
        if (k != as->first) fputc(',', S->out);
        char r[ARB_RULE_MAX] = "";
        if (rc) {
            snprintf(r, sizeof r, "%s", e.rule);
            fault_rule(S, r);
        }
        fputs(rc ? "{\"ok\":false,\"code\":" : "{\"ok\":true,\"code\":", S->out);
        arb_json_str(S->out, rc ? arb_adapter__code_name(rc) : "");
        fputs(",\"rule\":", S->out);
        arb_json_str(S->out, r);
        fputs(",\"message\":", S->out);
        arb_json_str(S->out, rc ? e.msg : "");
        fputc('}', S->out);
    }
    fputc(']', S->out);
    write_hash(S, st);
    end(S);
}

static void op_describe(server *S, const void *st, const arb_tnode *req)
{
    arb_action a;
    arb_error e = ARB_ERROR_INIT;
    if (arb_adapter__read_action(S->g, arb_tnode_get(req, "action"), "action", &a, &e)) { fail_err(S, &e); return; }
    char buf[256] = "";
    if (a.verb < S->g->nverbs) S->g->action_text(S->g, st, &a, buf, sizeof buf);
    if (S->fault == F_DESCRIBE_WRONG && buf[0]) buf[strlen(buf) - 1] = '\0';
    head(S, 1);
    fputs(",\"text\":", S->out);
    arb_json_str(S->out, buf);
    end(S);
}

static void op_deck_check(server *S, const arb_tnode *req)
{
    arb_deck d;
    arb_error e = ARB_ERROR_INIT;
    if (arb_adapter__read_deck(S->g, arb_tnode_get(req, "deck"), "deck", &d, &e)) { fail_err(S, &e); return; }
    arb_deck_issue is[64];
    unsigned total = S->g->deck_check ? S->g->deck_check(S->g, &d, is, 64) : 0;
    head(S, 1);
    fprintf(S->out, ",\"total\":%u,\"issues\":[", total);
    for (unsigned i = 0; i < total && i < 64; i++) {
        char r[ARB_RULE_MAX];
        snprintf(r, sizeof r, "%s", is[i].rule);
        fault_rule(S, r);
        fprintf(S->out, "%s{\"warning\":%s,\"rule\":", i ? "," : "", is[i].warning ? "true" : "false");
        arb_json_str(S->out, r);
        fputs(",\"message\":", S->out);
        arb_json_str(S->out, is[i].msg);
        fputc('}', S->out);
    }
    fputc(']', S->out);
    end(S);
}

/* ------------------------------------------------------------ loop */

/* Requests are read from the descriptor behind `in` through a buffer of
 * our own (stdio's getc took a lock a byte), so that the loop knows when
 * a pipelined request is already waiting and holds its answers back to
 * write them together; a stream without a descriptor is read with getc. */
#define READER_BUF 65536
typedef struct reader {
    FILE *in;
    int fd;
    char *buf;
    size_t pos, len;
} reader;

static int fill(reader *R)
{
    if (R->pos && R->pos < R->len) memmove(R->buf, R->buf + R->pos, R->len - R->pos);
    R->len -= R->pos;
    R->pos = 0;
    ssize_t k;
    do k = read(R->fd, R->buf + R->len, READER_BUF - R->len);
    while (k < 0 && errno == EINTR);
    if (k <= 0) return 0;
    R->len += (size_t)k;
    return 1;
}

/* A whole request line is buffered. */
static int pending(const reader *R)
{
    return R->fd >= 0 && R->pos < R->len && memchr(R->buf + R->pos, '\n', R->len - R->pos) != NULL;
}

/* One line of at most max bytes (newline excluded) into buf; a longer line
 * is consumed to its end and reported as too long (1). -1 at EOF. */
static int read_line(reader *R, char *buf, size_t max, size_t *len)
{
    size_t n = 0;
    int over = 0;
    if (R->fd < 0) {
        int c;
        while ((c = getc(R->in)) != EOF && c != '\n') {
            if (n < max) buf[n++] = (char)c;
            else over = 1;
        }
        if (c == EOF && n == 0 && !over) return -1;
    } else {
        int any = 0;
        for (;;) {
            if (R->pos == R->len && !fill(R)) {
                if (!any) return -1;
                break;
            }
            any = 1;
            const char *s = R->buf + R->pos;
            size_t avail = R->len - R->pos;
            const char *nl = memchr(s, '\n', avail);
            size_t k = nl ? (size_t)(nl - s) : avail, take = k <= max - n ? k : max - n;
            if (take < k) over = 1;
            memcpy(buf + n, s, take);
            n += take;
            R->pos += k + (nl ? 1 : 0);
            if (nl) break;
        }
    }
    if (n && buf[n - 1] == '\r') n--;
    *len = n;
    return over;
}

static int dispatch(server *S, const char *line, size_t len)
{
    /* one tree for every request, emptied (not freed) each time */
    if (S->req) arb_tree_reset(S->req);
    else S->req = arb_tree_new();
    arb_tree *t = S->req;
    if (!t) { fail(S, ARB_ENOMEM, NULL, NULL, "out of memory"); return 0; }
    arb_error e = ARB_ERROR_INIT;
    int rc = arb_tree_parse_json(t, arb_tree_root(t), "r", line, len, &e);
    const arb_tnode *req = arb_tnode_get(arb_tree_root(t), "r");
    int bye = 0;
    if (rc) { fail(S, ARB_EFORMAT, NULL, e.where, "the request is not JSON: %s", e.msg); goto out; }
    if (!req || req->kind != ARB_T_MAP) { fail(S, ARB_EFORMAT, NULL, NULL, "a request is a JSON object"); goto out; }
    const arb_tnode *id = arb_tnode_get(req, "id");
    if (!id || id->kind != ARB_T_INT) { fail(S, ARB_EFORMAT, NULL, "id", "a request needs an integer \"id\""); goto out; }
    S->id = id->i;
    const arb_tnode *op = arb_tnode_get(req, "op");
    if (!op || op->kind != ARB_T_STR) { fail(S, ARB_EFORMAT, NULL, "op", "a request needs a string \"op\""); goto out; }
    const char *o = op->s;
    if (!strcmp(o, "hello")) { op_hello(S, req); goto out; }
    if (!strcmp(o, "setup")) { op_setup(S, req, 0); goto out; }
    if (!strcmp(o, "load")) { op_setup(S, req, 1); goto out; }
    if (!strcmp(o, "deck-check")) { op_deck_check(S, req); goto out; }
    if (!strcmp(o, "bye")) { head(S, 1); end(S); bye = 1; goto out; }
    static const char *const with_state[] = { "clone", "free", "decision", "legal", "apply", "events",
                                              "state", "outcome", "hash", "describe", NULL };
    int known = S->proto >= 2 && (!strcmp(o, "step") || !strcmp(o, "probe"));
    for (int i = 0; with_state[i]; i++) known |= !strcmp(o, with_state[i]);
    if (!known) { fail(S, ARB_EFORMAT, NULL, "op", "unknown op '%.64s'", o); goto out; }
    int h = handle_of(S, req, !strcmp(o, "free"));
    if (h < 0) goto out;
    const void *st = S->s[h].st;
    if (!strcmp(o, "clone")) op_clone(S, req);
    else if (!strcmp(o, "free")) { drop_state(S, h); head(S, 1); end(S); }
    else if (!strcmp(o, "decision")) op_decision(S, st);
    else if (!strcmp(o, "legal")) op_legal(S, st);
    else if (!strcmp(o, "apply")) op_apply(S, h, req);
    else if (!strcmp(o, "events")) { head(S, 1); write_events(S, h); end(S); }
    else if (!strcmp(o, "state")) op_state(S, st, req);
    else if (!strcmp(o, "outcome")) op_outcome(S, st);
    else if (!strcmp(o, "hash")) { head(S, 1); write_hash(S, st); end(S); }
    else if (!strcmp(o, "describe")) op_describe(S, st, req);
    else if (!strcmp(o, "step")) op_step(S, h, req);
    else if (!strcmp(o, "probe")) op_probe(S, h, req);
out:
    return bye;
}

int arb_adapter_serve(const arb_game *g, int fault, FILE *in, FILE *out, arb_error *err)
{
    return arb_adapter_serve_protocol(g, fault, ARB_ADAPTER_PROTOCOL, in, out, err);
}

int arb_adapter_serve_protocol(const arb_game *g, int fault, int protocol, FILE *in, FILE *out, arb_error *err)
{
    ARB_ASSERT_ARG(err, g);
    ARB_ASSERT_ARG(err, in);
    ARB_ASSERT_ARG(err, out);
    server S;
    memset(&S, 0, sizeof S);
    S.g = g;
    S.fault = fault;
    S.out = out;
    S.proto_max = S.proto = protocol < 1 ? 1 : protocol > ARB_ADAPTER_PROTOCOL ? ARB_ADAPTER_PROTOCOL : protocol;
    S.evb.buf = malloc(SERVER_EVENTS * sizeof *S.evb.buf);
    S.evb.cap = SERVER_EVENTS;
    char *line = malloc(ARB_ADAPTER_LINE_MAX);
    reader R = { in, fileno(in), malloc(READER_BUF), 0, 0 };
    int rc = ARB_OK;
    if (!line || !S.evb.buf || !R.buf) { rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); goto done; }
    for (;;) {
        size_t len = 0;
        if (!pending(&R) && fflush(out)) { rc = arb_error_set(err, ARB_EIO, NULL, "cannot write a response"); break; }
        int r = read_line(&R, line, ARB_ADAPTER_LINE_MAX - 1, &len);
        if (r < 0) break;
        S.id = -1;
        if (r > 0) { fail(&S, ARB_ELIMIT, NULL, NULL, "request longer than %u bytes", ARB_ADAPTER_LINE_MAX); continue; }
        if (len == 0) continue;
        if (dispatch(&S, line, len)) break;
        if (ferror(out)) { rc = arb_error_set(err, ARB_EIO, NULL, "cannot write a response"); break; }
    }
done:
    fflush(out);
    free(R.buf);
    for (size_t i = 0; i < S.ns; i++) drop_state(&S, (int)i);
    free(S.s);
    free(S.legal);
    free(S.scratch);
    arb_tree_free(S.req);
    free(S.evb.buf);
    free(line);
    return rc;
}
