/* cards.c — the Brainstorm card pool, the preset decks and deck_check.
 *
 * The draft names only card classes, so every card is invented (catalog §4
 * plus a few that exercise the Golden Rule hooks: Splice Cell overrides the
 * Link limit, Library Cell the Start draw, Amplifier Module the transferred
 * Charge). Deck rules are interpretation G01 (one Generator + 40 others);
 * each violation names that rule ID. */
#include <stdio.h>
#include <string.h>

#include "games/brainstorm/brainstorm.h"

#define CARD(slug, nm, ty, grp, txt) { slug, nm, ty, grp, txt }

const brn_carddef arb_brainstorm__cards[BRN_NCARDS] = {
    { .pub = CARD("basic-generator", "Basic Generator", "Generator", "", "GEN 3. Outputs O1, O2."),
      .type = BRN_T_GENERATOR, .gen = 3, .outs = 2 },
    { .pub = CARD("surge-generator", "Surge Generator", "Generator", "", "GEN 4. Output O1."),
      .type = BRN_T_GENERATOR, .gen = 4, .outs = 1 },
    { .pub = CARD("relay-module", "Relay Module", "Module", "", "Input I1. Outputs O1, O2."),
      .type = BRN_T_MODULE, .ins = 1, .outs = 2 },
    { .pub = CARD("sink-module", "Sink Module", "Module", "",
                  "Input I1. Showdown, with Action: spend 2 Charge from this focused Module: draw 1 card."),
      .type = BRN_T_MODULE, .ins = 1, .ability = BRN_AB_DRAW, .ab_cost = 2, .ab_amount = 1 },
    { .pub = CARD("shredder-module", "Shredder Module", "Module", "",
                  "Input I1. Showdown, with Action: spend 3 Charge from this focused Module: the top 2 cards of your opponent's Deck go to their Scrapyard."),
      .type = BRN_T_MODULE, .ins = 1, .ability = BRN_AB_MILL, .ab_cost = 3, .ab_amount = 2 },
    { .pub = CARD("amplifier-module", "Amplifier Module", "Module", "",
                  "Input I1. Output O1. Whenever Charge is transferred to this Module, it gets 1 more Charge."),
      .type = BRN_T_MODULE, .ins = 1, .outs = 1, .transfer_bonus = 1 },
    { .pub = CARD("bus-module", "Bus Module", "Module", "", "Inputs I1, I2. Output O1."),
      .type = BRN_T_MODULE, .ins = 2, .outs = 1 },
    { .pub = CARD("power-cell", "Power Cell", "Cell", "",
                  "When this Cell becomes active, your Generator gets 1 Charge. While active: your Generator generates +1 Charge."),
      .type = BRN_T_CELL, .mod_gen = 1 },
    { .pub = CARD("research-cell", "Research Cell", "Cell", "Research", "Research. While active: your Maximum Hand Size +1."),
      .type = BRN_T_CELL, .research = 1, .mod_max_hand = 1 },
    { .pub = CARD("hoarder", "Hoarder", "Cell", "", "While active: you do not discard at End of Cycle."),
      .type = BRN_T_CELL, .no_discard = 1 },
    { .pub = CARD("echo-trigger", "Echo Trigger", "Cell", "", "While active, at the end of Cycle: draw 1 card."),
      .type = BRN_T_CELL, .eoc_draw = 1 },
    { .pub = CARD("splice-cell", "Splice Cell", "Cell", "", "While active: each of your Outputs may have up to 2 Links."),
      .type = BRN_T_CELL, .mod_out_links = 1 },
    { .pub = CARD("library-cell", "Library Cell", "Cell", "Research", "Research. While active: you draw 1 more card at Start."),
      .type = BRN_T_CELL, .research = 1, .mod_draws = 1 },
    { .pub = CARD("fusion-cell", "Fusion Cell", "Cell", "Research", "Research. While active: your Generator generates +1 Charge."),
      .type = BRN_T_CELL, .research = 1, .mod_gen = 1 },
    { .pub = CARD("firewall", "Firewall", "Tactic", "Preemptive", "Preemptive. Draw 1 card."),
      .type = BRN_T_TACTIC, .preemptive = 1, .effect = BRN_FX_DRAW, .amount = 1 },
    { .pub = CARD("overload", "Overload", "Tactic", "", "The target focused Module loses 1 Charge."),
      .type = BRN_T_TACTIC, .target = BRN_TGT_FOCUSED_MODULE, .effect = BRN_FX_DRAIN, .amount = 1 },
    { .pub = CARD("reactivate", "Reactivate", "Tactic", "", "Activate target inactive Cell on your Machine."),
      .type = BRN_T_TACTIC, .target = BRN_TGT_OWN_INACTIVE_CELL, .effect = BRN_FX_ACTIVATE },
    { .pub = CARD("jumpstart", "Jumpstart", "Tactic", "Preemptive", "Preemptive. Your Generator gets 2 Charge."),
      .type = BRN_T_TACTIC, .preemptive = 1, .effect = BRN_FX_GEN_CHARGE, .amount = 2 },
};
const unsigned arb_brainstorm__ncards = BRN_NCARDS;
_Static_assert(sizeof arb_brainstorm__cards / sizeof arb_brainstorm__cards[0] == BRN_NCARDS, "card count");

const arb_card *arb_brainstorm__card(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < arb_brainstorm__ncards ? &arb_brainstorm__cards[idx].pub : NULL;
}

int arb_brainstorm__card_by_slug(const char *slug)
{
    for (unsigned i = 0; i < arb_brainstorm__ncards; i++)
        if (strcmp(arb_brainstorm__cards[i].pub.id, slug) == 0) return (int)i;
    return -1;
}

void arb_brainstorm__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent)
{
    (void)g;
    if (idx >= arb_brainstorm__ncards) return;
    const brn_carddef *c = &arb_brainstorm__cards[idx];
    static const char *const types[] = { "generator", "module", "cell", "tactic" };
    arb_tree_add_str(t, parent, "class", types[c->type]);
    if (c->type == BRN_T_GENERATOR) arb_tree_add_int(t, parent, "gen", c->gen);
    if (c->type == BRN_T_GENERATOR || c->type == BRN_T_MODULE) {
        arb_tree_add_int(t, parent, "inputs", c->ins);
        arb_tree_add_int(t, parent, "outputs", c->outs);
    }
    if (c->type == BRN_T_CELL) arb_tree_add_bool(t, parent, "research", c->research);
    if (c->type == BRN_T_TACTIC) {
        arb_tree_add_bool(t, parent, "preemptive", c->preemptive);
        arb_tree_add_str(t, parent, "target", c->target == BRN_TGT_FOCUSED_MODULE ? "focused-module"
                         : c->target == BRN_TGT_OWN_INACTIVE_CELL ? "own-inactive-cell" : "none");
    }
    if (c->ability) arb_tree_add_int(t, parent, "ability_cost", c->ab_cost);
    if (c->mod_gen) arb_tree_add_int(t, parent, "gen_bonus", c->mod_gen);
    if (c->mod_max_hand) arb_tree_add_int(t, parent, "max_hand_bonus", c->mod_max_hand);
    if (c->mod_draws) arb_tree_add_int(t, parent, "start_draw_bonus", c->mod_draws);
    if (c->mod_out_links) arb_tree_add_int(t, parent, "output_link_bonus", c->mod_out_links);
    if (c->no_discard) arb_tree_add_bool(t, parent, "no_discard", 1);
    if (c->eoc_draw) arb_tree_add_int(t, parent, "end_of_cycle_draw", c->eoc_draw);
    if (c->transfer_bonus) arb_tree_add_int(t, parent, "transfer_bonus", c->transfer_bonus);
}

/* ---- presets ----------------------------------------------------------- */
/* Compile-time constants (no lazy initialisation: the conformance runner
 * reads presets from several threads). Card indexes as in the table above. */
static const arb_deck presets[BRN_NPRESETS] = {
    /* 1 basic-generator, 4 relay-module, 3 sink-module, 3 shredder-module, 2 amplifier-module, 3 power-cell, 2 research-cell, 2 hoarder, 2 echo-trigger, 2 splice-cell, 2 library-cell, 1 fusion-cell, 4 firewall, 4 overload, 3 reactivate, 3 jumpstart */
    { .name = "brainstorm-circuit", .ncards = 41, .cards = {
        0, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 7, 7, 7, 8, 8, 9, 9,
        10, 10, 11, 11, 12, 12, 13, 14, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 17, 17,
        17,
    } },
    /* 1 surge-generator, 3 relay-module, 4 shredder-module, 3 amplifier-module, 2 bus-module, 4 power-cell, 3 echo-trigger, 3 splice-cell, 2 research-cell, 4 firewall, 5 overload, 4 jumpstart, 3 reactivate */
    { .name = "brainstorm-surge", .ncards = 41, .cards = {
        1, 2, 2, 2, 4, 4, 4, 4, 5, 5, 5, 6, 6, 7, 7, 7, 7, 10, 10, 10,
        11, 11, 11, 8, 8, 14, 14, 14, 14, 15, 15, 15, 15, 15, 17, 17, 17, 17, 16, 16,
        16,
    } },
    /* 1 basic-generator, 3 relay-module, 4 sink-module, 3 bus-module, 2 amplifier-module, 4 research-cell, 3 library-cell, 3 hoarder, 2 fusion-cell, 2 echo-trigger, 5 firewall, 4 overload, 2 reactivate, 3 jumpstart */
    { .name = "brainstorm-research", .ncards = 41, .cards = {
        0, 2, 2, 2, 3, 3, 3, 3, 6, 6, 6, 5, 5, 8, 8, 8, 8, 12, 12, 12,
        9, 9, 9, 13, 13, 10, 10, 14, 14, 14, 14, 14, 15, 15, 15, 15, 16, 16, 17, 17,
        17,
    } },
    /* 1 basic-generator, 6 relay-module, 6 sink-module, 6 power-cell, 5 research-cell, 4 hoarder, 5 echo-trigger, 4 firewall, 4 overload */
    { .name = "brainstorm-catalog", .ncards = 41, .cards = {
        0, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 7, 7, 7, 7, 7, 7, 8,
        8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 10, 14, 14, 14, 14, 15, 15, 15,
        15,
    } },
};

const arb_deck *arb_brainstorm__preset(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < BRN_NPRESETS ? &presets[idx] : NULL;
}

/* ---- deck check (interpretation G01) ----------------------------------- */

unsigned arb_brainstorm__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    (void)g;
    unsigned n = 0, gens = 0, others = 0, modules = 0, bad = 0;
    for (unsigned i = 0; i < d->ncards; i++) {
        unsigned id = d->cards[i];
        if (id >= arb_brainstorm__ncards) { bad++; continue; }
        if (arb_brainstorm__cards[id].type == BRN_T_GENERATOR) gens++;
        else others++;
        if (arb_brainstorm__cards[id].type == BRN_T_MODULE) modules++;
    }
    if (bad) {
        arb_deck_issue_add(out, cap, &n, 0, "BRN-PLAYERS", "%u card(s) are not in the Brainstorm pool", bad);
    }
    if (gens != 1) {
        arb_deck_issue_add(out, cap, &n, 0, "BRN-PLAYERS", "a deck holds exactly one Generator (found %u)", gens);
    }
    if (others != BRN_DECK_OTHERS) {
        arb_deck_issue_add(out, cap, &n, 0, "BRN-PLAYERS", "a deck holds exactly %d cards besides its Generator (found %u)",
                 BRN_DECK_OTHERS, others);
    }
    if (modules == 0)
        arb_deck_issue_add(out, cap, &n, 1, "BRN-BOOT-CHOOSE",
                           "no Module: this deck can never route its Generator's Charge");
    return n;
}
