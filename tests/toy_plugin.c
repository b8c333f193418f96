/* toy_plugin.c — the test game of tests/testgame.h built as an in-process
 * plug-in engine (arbiter/plugin.h) by make check: `arbiter --plugin
 * build/tests/toy_plugin.so play --game testgame …` records it and verify
 * replays it. Built with -DTOY_PLUGIN_CONTRACT=N it claims only contract N,
 * to test that a plug-in built for another contract is refused; built with
 * -DTG_CONTRACT=2 -DTOY_PLUGIN_CONTRACT=2 it is the plug-in arbiter 0.2
 * built (the contract-2 layout), which the loader shims. */
#include "testgame.h"
#include "arbiter/plugin.h"

const arb_game *arbiter_plugin_game(unsigned contract);

const arb_game *arbiter_plugin_game(unsigned contract)
{
    const void *g = &tg_game; /* an arb_game_c2 under TG_CONTRACT=2 */
#ifdef TOY_PLUGIN_CONTRACT
    return contract == TOY_PLUGIN_CONTRACT ? g : NULL;
#else
    return contract == ARB_GAME_CONTRACT ? g : NULL;
#endif
}
