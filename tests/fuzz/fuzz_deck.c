/* fuzz_deck.c — libFuzzer target for deck files: any byte string is parsed
 * as a deck file (bytes and length, NULs included, as arb_deck_load hands
 * them over) for every compiled-in game, and a deck that parses is checked
 * against the game's deck rules. Built and run by `make fuzz`; seeds in tests/fuzz/corpus_deck/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 17)) return 0;
    char *text = malloc(size + 1); /* exact size: ASan sees any over-read */
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (unsigned i = 0; i < arb_game_count(); i++) {
        const arb_game *g = arb_game_at(i);
        arb_deck d;
        arb_error err = ARB_ERROR_INIT;
        if (arb_deck_parse(&d, g, text, size, "fuzz.deck", &err) == ARB_OK && g->deck_check) {
            arb_deck_issue iss[64];
            g->deck_check(g, &d, iss, 64);
        }
    }
    free(text);
    return 0;
}
