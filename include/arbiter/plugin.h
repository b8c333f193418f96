/* arbiter/plugin.h — in-process plug-in engines: a C engine built outside
 * the tree, as a shared object, that every command uses like a compiled-in
 * one.
 *
 * A plug-in exports one function,
 *
 *     const arb_game *arbiter_plugin_game(unsigned contract);
 *
 * which returns its game when it implements that contract version
 * (ARB_GAME_CONTRACT of the arbiter/game.h it was built against) and NULL
 * otherwise. The loader asks for ARB_GAME_CONTRACT first and then for 2: a
 * plug-in built against arbiter 0.2 (contract 2, whose slots take no game
 * argument, the layout arb_game_c2 below) keeps loading through a shim, a
 * contract-3 game whose slots call the plug-in's. It is built -fPIC against arbiter's headers and resolves the
 * library's helpers (arb_error_set, arb_rng_*, arb_hasher_* …) from the
 * arbiter binary that loads it, which exports them; it must not link a
 * second copy of libarbiter.
 *
 * `arbiter` loads plug-ins before running a command: every FILE.so named
 * in ARBITER_GAMES_PATH (colon-separated files or directories, whose *.so
 * files are loaded in name order) and every `--plugin FILE` given before
 * the command name. A loaded game is checked (arb_game_check) and must not
 * reuse a compiled-in id. */
#ifndef ARBITER_PLUGIN_H
#define ARBITER_PLUGIN_H

#include "arbiter/game.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_PLUGIN_SYMBOL "arbiter_plugin_game"
#define ARB_PLUGINS_MAX 16

typedef const arb_game *(*arb_plugin_entry)(unsigned contract);

/* The contract-2 layout of arb_game (arbiter 0.2): the same members up to
 * greedy, slots without the game argument. Only the loader reads it. */
typedef struct arb_game_c2 {
    unsigned contract; /* 2 */
    const char *id, *title, *rules_version, *engine_version;
    const char *const *rules_versions;
    unsigned nrules_versions;
    int min_players, max_players;
    size_t state_size;
    const arb_verb *verbs;
    unsigned nverbs;
    const char *const *decision_names;
    unsigned ndecision_names;
    const char *const *event_names;
    unsigned nevent_names;
    const char *const *outcome_reasons;
    unsigned noutcome_reasons;
    unsigned ncards;
    const arb_card *(*card)(unsigned idx);
    void (*card_export)(unsigned idx, arb_tree *t, arb_tnode *parent);
    unsigned (*deck_check)(const arb_deck *d, arb_deck_issue *out, unsigned cap);
    unsigned npresets;
    const arb_deck *(*preset)(unsigned idx);
    int (*setup)(void *st, const arb_setup *su, arb_events *ev, arb_error *err);
    int (*load_position)(void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err);
    arb_decision (*decision)(const void *st);
    size_t (*legal)(const void *st, arb_action *out, size_t cap);
    int (*apply)(void *st, const arb_action *a, arb_events *ev, arb_error *err);
    uint64_t (*hash)(const void *st);
    int (*outcome)(const void *st, arb_outcome *out);
    uint32_t (*turn)(const void *st);
    const char *(*phase)(const void *st);
    void (*export_state)(const void *st, int view, arb_tree *t, arb_tnode *root);
    int (*event_text)(const arb_event *ev, int view, char *buf, size_t size);
    int (*action_text)(const void *st, const arb_action *a, char *buf, size_t size);
    size_t (*greedy)(const void *st, const arb_action *legal, size_t n, arb_rng *rng);
} arb_game_c2;

/* dlopen path, call its entry point, check and register the game. */
int arb_plugin_load(const char *path, const arb_game **out, arb_error *err);
/* Every plug-in ARBITER_GAMES_PATH names (none when unset). */
int arb_plugin_load_env(arb_error *err);
/* Add g to the registry (after the compiled-in games): arb_game_find and
 * arb_game_at see it. ARB_ELIMIT beyond ARB_PLUGINS_MAX, ARB_EINVAL when
 * the id is taken. Not thread-safe: register before starting threads. */
int arb_game_register(const arb_game *g, arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
