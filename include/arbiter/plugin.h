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
 * otherwise. It is built -fPIC against arbiter's headers and resolves the
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
