/* format_tables.c — prints the tables of replays/FORMAT.md §B.7 from the
 * engines in this build: each game's card pool (index → card ID), preset
 * decks (index → name, attributes, cards in deck order) and outcome reasons
 * (index → name). Version-2 headers and outcome records name cards, decks
 * and reasons by these indexes; tests/format_tables.sh checks that
 * FORMAT.md holds exactly this output, so a reader without the engine
 * (replays/tcgr_dump.py) resolves every index from the text. Tables only
 * grow: a new card, preset or reason is appended, nothing is renumbered.
 * With --primers: the table of §D.8 (each built-in primer's id, game,
 * length and BLAKE2b-256), which FORMAT.md's primer data must match. */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "replay/primer.h"

static int primers(void)
{
    if (sodium_init() < 0) return 1;
    printf("| id | game | bytes | BLAKE2b-256 of the bytes |\n|---:|---|---:|---|\n");
    for (unsigned k = 0; k < ARB_RC_NPRIMERS; k++) {
        const arb_rc_primer *p = &arb_rc_primers[k];
        unsigned char h[32];
        const uint8_t *g;
        uint32_t glen;
        if (arb_rc_primer_game(p, &g, &glen)) return 1;
        crypto_generichash(h, sizeof h, p->bytes, p->n, NULL, 0);
        printf("| %u | `%.*s` | %zu | `", p->id, (int)glen, (const char *)g, p->n);
        for (unsigned i = 0; i < sizeof h; i++) printf("%02x", h[i]);
        printf("` |\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--primers") == 0) return primers();
    for (unsigned gi = 0; gi < arb_game_count(); gi++) {
        const arb_game *g = arb_game_at(gi);
        printf("#### Card pool: `%s`\n\n| index | card ID |\n|---:|---|\n", g->id);
        for (unsigned i = 0; i < g->ncards; i++) printf("| %u | `%s` |\n", i, g->card(g, i)->id);
        printf("\n#### Presets: `%s`\n\n| index | name | attributes | cards, in deck order (ID ×copies) |\n|---:|---|---|---|\n",
               g->id);
        for (unsigned k = 0; k < g->npresets; k++) {
            const arb_deck *d = g->preset(g, k);
            printf("| %u | `%s` | ", k, d->name);
            for (unsigned a = 0; a < d->nattrs; a++) printf("%s`%s=%s`", a ? " " : "", d->attrs[a].key, d->attrs[a].value);
            printf(" | ");
            for (unsigned i = 0; i < d->ncards;) {
                unsigned j = i;
                while (j < d->ncards && d->cards[j] == d->cards[i]) j++;
                printf("%s`%s`×%u", i ? " " : "", g->card(g, d->cards[i])->id, j - i);
                i = j;
            }
            printf(" |\n");
        }
        printf("\n#### Outcome reasons: `%s`\n\n| index | reason |\n|---:|---|\n", g->id);
        unsigned nr = 0;
        const char *const *rt = arb_game_replay_reasons(g, &nr);
        for (unsigned i = 0; i < nr; i++) printf("| %u | `%s` |\n", i, rt[i]);
        printf("\n");
    }
    return 0;
}
