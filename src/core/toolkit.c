/* toolkit.c — the small shared pieces engines and their callers use instead
 * of repeating them: name lookups with an out-of-range fallback, the
 * outcome-reason matching that lets old replay spellings verify, the rules
 * version a setup selects, deck issues and the contract's checker. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/rng.h"
#include "arbiter/toolkit.h"

int arb_name_index(const char *const *names, unsigned n, const char *s)
{
    for (unsigned i = 0; s && i < n; i++)
        if (names[i] && strcmp(names[i], s) == 0) return (int)i;
    return -1;
}

const char *arb_game_verb_name(const arb_game *g, unsigned verb)
{
    return g && verb < g->nverbs && g->verbs[verb].name ? g->verbs[verb].name : "unknown";
}

const char *arb_game_decision_name(const arb_game *g, unsigned kind)
{
    return g ? arb_name_at(g->decision_names, g->ndecision_names, kind, "unknown") : "unknown";
}

const char *arb_game_event_name(const arb_game *g, unsigned type)
{
    return g ? arb_name_at(g->event_names, g->nevent_names, type, "unknown") : "unknown";
}

const char *arb_game_reason_name(const arb_game *g, unsigned reason)
{
    return g ? arb_name_at(g->outcome_reasons, g->noutcome_reasons, reason, "unknown") : "unknown";
}

int arb_reason_same(const char *a, const char *b)
{
    if (!a || !b) return 0;
    for (;; a++, b++) {
        char x = *a == '_' ? '-' : *a, y = *b == '_' ? '-' : *b;
        if (x != y) return 0;
        if (!x) return 1;
    }
}

int arb_game_reason_find(const arb_game *g, const char *name)
{
    if (!g || !name) return -1;
    for (unsigned i = 0; i < g->noutcome_reasons; i++)
        if (g->outcome_reasons[i] && arb_reason_same(g->outcome_reasons[i], name)) return (int)i;
    return -1;
}

static int event_index(const arb_game *g, const char *name)
{
    for (unsigned i = 0; i < g->nevent_names; i++)
        if (g->event_names[i] && name && arb_reason_same(g->event_names[i], name)) return (int)i;
    return -1;
}

int arb_game_event_find(const arb_game *g, const char *name)
{
    if (!g || !name) return -1;
    int e = event_index(g, name);
    if (e >= 0 || g->contract < 3 || !g->event_aliases) return e;
    for (unsigned i = 0; i < g->nevent_aliases; i++) /* an old name, then its current one */
        if (g->event_aliases[2 * i] && arb_reason_same(g->event_aliases[2 * i], name))
            return event_index(g, g->event_aliases[2 * i + 1]);
    return -1;
}

int arb_name_kebab(const char *s)
{
    if (!s || !*s) return 0;
    for (const char *p = s; *p; p++) {
        int word = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');
        if (!word && (*p != '-' || p == s || p[-1] == '-' || !p[1])) return 0;
    }
    return 1;
}

int arb_action_precheck(const arb_game *g, const arb_precheck_rules *r, int over, int players, int owing,
                        const char *wrong_seat, const arb_action *a, arb_error *err)
{
    ARB_ASSERT_ARG(err, g != NULL && r != NULL && a != NULL);
    if (over) return ARB_REJECT(err, ARB_EOVER, r->over, "the match is over");
    if (a->verb >= g->nverbs) return ARB_INVALID(err, r->verb, "unknown verb %u", (unsigned)a->verb);
    const arb_verb *v = &g->verbs[a->verb];
    if (a->nargs < v->min_args || a->nargs > v->max_args)
        return ARB_INVALID(err, r->nargs && r->nargs[a->verb] ? r->nargs[a->verb] : r->nargs_any,
                           "'%s' takes %u to %u arguments, not %u", v->name, (unsigned)v->min_args,
                           (unsigned)v->max_args, (unsigned)a->nargs);
    int arbiter_verb = a->verb >= r->arbiter_verbs;
    if (!r->clock && (arbiter_verb || a->seat == ARB_SEAT_ARBITER))
        return ARB_ILLEGAL(err, r->no_clock, "%s has no clock, timeouts or disconnects; '%s' is not an action", g->title,
                           v->name);
    if (r->clock && arbiter_verb && a->seat != ARB_SEAT_ARBITER)
        return ARB_ILLEGAL(err, r->arbiter_verb && r->arbiter_verb[a->verb] ? r->arbiter_verb[a->verb] : r->arbiter_any,
                           "only the arbiter records clock and connection events ('%s')", v->name);
    if (r->clock && !arbiter_verb && a->seat == ARB_SEAT_ARBITER)
        return ARB_ILLEGAL(err, r->seat_verb, "the arbiter records only clock and connection events, not '%s'", v->name);
    if (a->seat == ARB_SEAT_ARBITER) return ARB_OK;
    if (a->seat < 0 || a->seat >= players) return ARB_INVALID(err, r->seat, "seat %d is not in this match", a->seat);
    if (wrong_seat && a->seat != owing)
        return ARB_ILLEGAL(err, wrong_seat, "seat %d owes the decision, not seat %d", owing, a->seat);
    return ARB_OK;
}

size_t arb_greedy_pick(const void *st, const arb_action *legal, size_t n,
                       int (*score)(const void *st, const arb_action *a), arb_rng *rng)
{
    assert(score && (legal || n == 0)); /* the engine's own call: a programming error */
    size_t best = 0, ties = 0;
    int bs = 0;
    for (size_t i = 0; i < n; i++) {
        int sc = score(st, &legal[i]);
        if (i == 0 || sc > bs) { bs = sc; best = i; ties = 1; }
        else if (sc == bs && rng && arb_rng_below(rng, (uint32_t)++ties) == 0) best = i;
    }
    return best;
}

int arb_game_rules_select(const arb_game *g, const arb_setup *su, arb_error *err)
{
    ARB_ASSERT_ARG(err, g != NULL);
    const char *want = su ? su->rules : NULL;
    int i = arb_game_rules_index(g, want);
    if (i >= 0) return i + 1;
    char known[256];
    size_t k = 0;
    known[0] = '\0';
    unsigned n = g->nrules_versions ? g->nrules_versions : 1;
    for (unsigned v = 0; v < n && k < sizeof known; v++) {
        int w = snprintf(known + k, sizeof known - k, "%s%s", v ? ", " : "", arb_game_rules_name(g, v + 1));
        if (w < 0) break;
        k += (size_t)w;
    }
    return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "%s rules version '%s' is not implemented (known: %s)", g->id,
                         want, known);
}

const char *arb_game_rules_name(const arb_game *g, unsigned n)
{
    if (!g->nrules_versions) return g->rules_version;
    return g->rules_versions[n >= 1 && n <= g->nrules_versions ? n - 1 : 0];
}

void arb_deck_issue_add(arb_deck_issue *out, unsigned cap, unsigned *n, int warning, const char *rule,
                        const char *fmt, ...)
{
    if (out && *n < cap) {
        arb_deck_issue *is = &out[*n];
        is->warning = warning;
        snprintf(is->rule, sizeof is->rule, "%s", rule ? rule : "");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(is->msg, sizeof is->msg, fmt, ap);
        va_end(ap);
    }
    (*n)++;
}

int arb_game_action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    if (g->action_text && a->verb < g->nverbs) return g->action_text(g, st, a, buf, size);
    return arb_action_format(g, a, buf, size);
}

int arb_game_event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    if (g->event_text) return g->event_text(g, ev, view, buf, size);
    const char *name = arb_game_event_name(g, ev->type);
    if (ev->seat < 0) return snprintf(buf, size, "%s %d %d %d", name, (int)ev->a, (int)ev->b, (int)ev->c);
    if (ev->hidden && view != ARB_VIEW_ALL && view != ev->seat) return snprintf(buf, size, "%s P%d", name, ev->seat + 1);
    return snprintf(buf, size, "%s P%d %d %d %d", name, ev->seat + 1, (int)ev->a, (int)ev->b, (int)ev->c);
}

void arb_game_card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent)
{
    if (g->card_export && idx < g->ncards) g->card_export(g, idx, t, parent);
}

static int names_ok(const char *const *names, unsigned n)
{
    if (!names || n == 0) return 0;
    for (unsigned i = 0; i < n; i++)
        if (!names[i] || !names[i][0]) return 0;
    return 1;
}

int arb_game_check_layout(const arb_game *g, arb_error *err)
{
#define BROKEN(...) return arb_error_set(err, ARB_EUNSUPPORTED, NULL, __VA_ARGS__)
    if (!g) BROKEN("no game");
    const char *id = g->id ? g->id : "?";
    /* contract is a minimum: a newer game may carry members this build does
     * not know; an older layout than ARB_GAME_CONTRACT_MIN cannot be called */
    if (g->contract > ARB_GAME_CONTRACT)
        BROKEN("%s: written for game contract %u, newer than this build's %u", id, g->contract, ARB_GAME_CONTRACT);
    if (g->contract < ARB_GAME_CONTRACT_MIN)
        BROKEN("%s: written for game contract %u, older than %u (a plug-in of contract 2 loads through the shim)", id,
               g->contract, ARB_GAME_CONTRACT_MIN);
    if (!g->id || !g->title || !g->rules_version || !g->engine_version) BROKEN("%s: id, title and versions are required", id);
    if (g->min_players < 1 || g->max_players < g->min_players || g->max_players > ARB_MAX_SEATS)
        BROKEN("%s: player counts %d..%d are outside 1..%d", id, g->min_players, g->max_players, ARB_MAX_SEATS);
    if (!g->state_size) BROKEN("%s: state_size is 0", id);
    if (!g->card || !g->deck_check || !g->preset || !g->setup || !g->load_position || !g->decision || !g->legal ||
        !g->apply || !g->hash || !g->outcome || !g->turn || !g->phase || !g->export_state)
        BROKEN("%s: a required member of the game contract is NULL", id);
    if (!g->verbs || !g->nverbs) BROKEN("%s: no verbs", id);
    for (unsigned v = 0; v < g->nverbs; v++)
        if (!g->verbs[v].name || g->verbs[v].min_args > g->verbs[v].max_args || g->verbs[v].max_args > ARB_ARGS_MAX)
            BROKEN("%s: verb %u is unnamed or takes a bad argument count", id, v);
    if (!names_ok(g->decision_names, g->ndecision_names)) BROKEN("%s: a decision name is missing", id);
    if (!names_ok(g->event_names, g->nevent_names)) BROKEN("%s: an event name is missing", id);
    if (!names_ok(g->outcome_reasons, g->noutcome_reasons)) BROKEN("%s: an outcome reason is missing", id);
    if (g->replay_reasons && !names_ok(g->replay_reasons, g->nreplay_reasons))
        BROKEN("%s: a replay outcome reason is missing", id);
    if (!g->ncards) BROKEN("%s: an empty card pool", id);
    for (unsigned c = 0; c < g->ncards; c++) {
        const arb_card *k = g->card(g, c);
        if (!k || !k->id || !k->name || !k->type || !k->group || !k->text) BROKEN("%s: card %u is incomplete", id, c);
    }
    if (g->npresets < 2) BROKEN("%s: %u presets; the contract asks for at least 2", id, g->npresets);
    for (unsigned p = 0; p < g->npresets; p++) {
        const arb_deck *d = g->preset(g, p);
        if (!d) BROKEN("%s: preset %u is NULL", id, p);
        arb_deck_issue is[4];
        unsigned n = g->deck_check(g, d, is, 4);
        for (unsigned i = 0; i < n && i < 4; i++)
            if (!is[i].warning) BROKEN("%s: preset '%s' is illegal: %s: %s", id, d->name, is[i].rule, is[i].msg);
    }
    return ARB_OK;
#undef BROKEN
}

int arb_game_check(const arb_game *g, arb_error *err)
{
#define BROKEN(...) return arb_error_set(err, ARB_EUNSUPPORTED, NULL, __VA_ARGS__)
    int rc = arb_game_check_layout(g, err);
    if (rc) return rc;
    const char *id = g->id;
    /* the vocabulary (game.h): kebab-case names, a decision named "over" */
    for (unsigned e = 0; e < g->nevent_names; e++)
        if (!arb_name_kebab(g->event_names[e])) BROKEN("%s: event name '%s' is not kebab-case", id, g->event_names[e]);
    for (unsigned k = 0; k < g->ndecision_names; k++)
        if (!arb_name_kebab(g->decision_names[k]))
            BROKEN("%s: decision name '%s' is not kebab-case", id, g->decision_names[k]);
    if (arb_name_index(g->decision_names, g->ndecision_names, "over") < 0)
        BROKEN("%s: no decision named 'over' (what decision() owes once the match is over)", id);
    if (event_index(g, "game-over") < 0)
        BROKEN("%s: no event named 'game-over' (what the action that ends a match emits)", id);
    for (unsigned i = 0; g->event_aliases && i < g->nevent_aliases; i++)
        if (!g->event_aliases[2 * i] || event_index(g, g->event_aliases[2 * i]) >= 0 ||
            event_index(g, g->event_aliases[2 * i + 1]) < 0)
            BROKEN("%s: event alias %u must map an old name to a current one", id, i);
    for (unsigned r = 0; r < g->noutcome_reasons; r++)
        if (!arb_name_kebab(g->outcome_reasons[r]))
            BROKEN("%s: outcome reason '%s' is not kebab-case", id, g->outcome_reasons[r]);
    if (strcmp(g->outcome_reasons[0], "none") != 0)
        BROKEN("%s: outcome reason 0 is '%s'; it is \"none\" (the reason while the match goes on)", id,
               g->outcome_reasons[0]);
    return ARB_OK;
#undef BROKEN
}
