/* fuzz_json.c — libFuzzer target for the JSON reader (src/core/json.c) and
 * the engines' position loaders behind `--position FILE`: any byte string
 * is parsed; a parsed value must print back (arb_tnode_json) to text that
 * parses to an equal tree; a value that is an object is then offered to
 * every compiled-in game as a position, and a position accepted must give
 * a match that exports and can take its legal actions. Seeds (positions of
 * every game, NDJSON result lines): tests/fuzz/corpus_json/. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static arb_action legal[ARB_AGENT_LEGAL_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    arb_tree *t = arb_tree_new();
    if (!t) return 0;
    arb_error err = ARB_ERROR_INIT;
    if (arb_tree_parse_json(t, arb_tree_root(t), "v", (const char *)data, size, &err) != ARB_OK) {
        if (!err.where[0] || strncmp(err.where, "offset ", 7) != 0) abort(); /* every error names its offset */
        arb_tree_free(t);
        return 0;
    }
    const arb_tnode *v = arb_tnode_get(arb_tree_root(t), "v");
    if (!v) abort();
    /* round trip */
    char *text = NULL;
    size_t tlen = 0;
    FILE *mf = open_memstream(&text, &tlen);
    if (!mf) abort();
    arb_tnode_json(v, mf, 0);
    fclose(mf);
    arb_tree *t2 = arb_tree_new();
    arb_error e2 = ARB_ERROR_INIT;
    if (!t2 || arb_tree_parse_json(t2, arb_tree_root(t2), "v", text, tlen, &e2) != ARB_OK) {
        fprintf(stderr, "fuzz_json: printed JSON does not parse back: %s: %s\n", e2.where, e2.msg);
        abort();
    }
    if (!arb_tnode_equal(v, arb_tnode_get(arb_tree_root(t2), "v"))) abort();
    free(text);
    arb_tree_free(t2);
    if (v->kind == ARB_T_MAP) {
        for (unsigned gi = 0; gi < arb_game_count(); gi++) {
            const arb_game *g = arb_game_at(gi);
            const arb_tnode *pl = arb_tnode_get(v, "players");
            arb_setup su;
            memset(&su, 0, sizeof su);
            su.seed = 1;
            su.players = pl && pl->kind == ARB_T_ARR && pl->n >= (uint32_t)g->min_players &&
                                 pl->n <= (uint32_t)g->max_players ? (int)pl->n : g->min_players;
            arb_match *m;
            arb_error pe = ARB_ERROR_INIT;
            if (arb_match_from_position(&m, g, v, &su, &pe) != ARB_OK) continue;
            arb_tree *ex = arb_match_export(m, ARB_VIEW_ALL);
            arb_tree_free(ex);
            for (int k = 0; k < 8 && arb_match_decision(m).seat != ARB_SEAT_NONE; k++) {
                size_t n = arb_match_legal(m, legal, ARB_AGENT_LEGAL_MAX);
                if (n == 0) break;
                if (n > ARB_AGENT_LEGAL_MAX) n = ARB_AGENT_LEGAL_MAX;
                arb_error ae = ARB_ERROR_INIT;
                if (arb_match_apply(m, &legal[(size_t)k * 7 % n], &ae)) abort(); /* a legal action was refused */
            }
            arb_match_free(m);
        }
    }
    arb_tree_free(t);
    return 0;
}
