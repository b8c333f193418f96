/* plugin_c2.c — the shim that keeps contract-2 plug-ins loading: a plug-in
 * built against arbiter 0.2 exports an arb_game_c2 (arbiter/plugin.h), whose
 * slots take no game argument. The shim is a contract-3 arb_game whose
 * app_data is that vtable and whose slots call its slots; the optional
 * members stay NULL where the plug-in's are. */
#include <stdlib.h>

#include "arbiter/plugin.h"
#include "adapter/adapter_int.h"

#define OLD(g) ((const arb_game_c2 *)(g)->app_data)

static const arb_card *c2_card(const arb_game *g, unsigned i) { return OLD(g)->card(i); }
static void c2_card_export(const arb_game *g, unsigned i, arb_tree *t, arb_tnode *p) { OLD(g)->card_export(i, t, p); }
static unsigned c2_deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *o, unsigned cap)
{
    return OLD(g)->deck_check(d, o, cap);
}
static const arb_deck *c2_preset(const arb_game *g, unsigned i) { return OLD(g)->preset(i); }
static int c2_setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    return OLD(g)->setup(st, su, ev, err);
}
static int c2_load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    return OLD(g)->load_position(st, pos, su, err);
}
static arb_decision c2_decision(const arb_game *g, const void *st) { return OLD(g)->decision(st); }
static size_t c2_legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    return OLD(g)->legal(st, out, cap);
}
static int c2_apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    return OLD(g)->apply(st, a, ev, err);
}
static uint64_t c2_hash(const arb_game *g, const void *st) { return OLD(g)->hash(st); }
static int c2_outcome(const arb_game *g, const void *st, arb_outcome *o) { return OLD(g)->outcome(st, o); }
static uint32_t c2_turn(const arb_game *g, const void *st) { return OLD(g)->turn(st); }
static const char *c2_phase(const arb_game *g, const void *st) { return OLD(g)->phase(st); }
static void c2_export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    OLD(g)->export_state(st, view, t, root);
}
static int c2_event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    return OLD(g)->event_text(ev, view, buf, size);
}
static int c2_action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    return OLD(g)->action_text(st, a, buf, size);
}
static size_t c2_greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng)
{
    return OLD(g)->greedy(st, legal, n, rng);
}

int arb_adapter__shim_c2(const arb_game_c2 *o, arb_game **out, arb_error *err)
{
    *out = NULL;
    if (o->contract != 2)
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "asked for contract 2, the plug-in returned a game of contract %u",
                             o->contract);
    arb_game *g = calloc(1, sizeof *g); /* lives as long as the plug-in: the process */
    if (!g) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    *g = (arb_game){
        .contract = ARB_GAME_CONTRACT, .id = o->id, .title = o->title, .rules_version = o->rules_version,
        .engine_version = o->engine_version, .rules_versions = o->rules_versions,
        .nrules_versions = o->nrules_versions, .min_players = o->min_players, .max_players = o->max_players,
        .state_size = o->state_size, .verbs = o->verbs, .nverbs = o->nverbs,
        .decision_names = o->decision_names, .ndecision_names = o->ndecision_names,
        .event_names = o->event_names, .nevent_names = o->nevent_names,
        .outcome_reasons = o->outcome_reasons, .noutcome_reasons = o->noutcome_reasons,
        .ncards = o->ncards, .npresets = o->npresets, .app_data = (void *)o,
    };
    /* required slots: NULL stays NULL, for arb_game_check to name */
    g->card = o->card ? c2_card : NULL;
    g->deck_check = o->deck_check ? c2_deck_check : NULL;
    g->preset = o->preset ? c2_preset : NULL;
    g->setup = o->setup ? c2_setup : NULL;
    g->load_position = o->load_position ? c2_load : NULL;
    g->decision = o->decision ? c2_decision : NULL;
    g->legal = o->legal ? c2_legal : NULL;
    g->apply = o->apply ? c2_apply : NULL;
    g->hash = o->hash ? c2_hash : NULL;
    g->outcome = o->outcome ? c2_outcome : NULL;
    g->turn = o->turn ? c2_turn : NULL;
    g->phase = o->phase ? c2_phase : NULL;
    g->export_state = o->export_state ? c2_export : NULL;
    g->card_export = o->card_export ? c2_card_export : NULL;
    g->event_text = o->event_text ? c2_event_text : NULL;
    g->action_text = o->action_text ? c2_action_text : NULL;
    g->greedy = o->greedy ? c2_greedy : NULL;
    *out = g;
    return ARB_OK;
}
