/* arbiter/deck.h — deck files and preset decks.
 *
 * Deck file syntax (UTF-8 text, at most 64 KiB):
 *     # comment                 (also after a card line)
 *     name: My Defense Deck     (optional; any "key: value" line is an
 *     bloc: DEFENSE              attribute the game reads, at most 4)
 *     3 Coolant Pumps           (COUNT then a card name or ID, 1..40 copies)
 *     coolant-pumps             (a bare name or ID counts once)
 * Names match case-insensitively; every error names file:line. */
#ifndef ARBITER_DECK_H
#define ARBITER_DECK_H

#include "arbiter/game.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_DECK_FILE_MAX (64 * 1024)

int arb_deck_parse(arb_deck *out, const arb_game *g, const char *text,
                   size_t len, const char *fname, arb_error *err);
int arb_deck_load(arb_deck *out, const arb_game *g, const char *path,
                  arb_error *err);
/* A preset's name, or a path to a deck file. */
int arb_deck_resolve(arb_deck *out, const arb_game *g, const char *spec,
                     arb_error *err);
/* Preset by name, NULL if none. */
const arb_deck *arb_deck_preset(const arb_game *g, const char *name);

#ifdef __cplusplus
}
#endif
#endif
