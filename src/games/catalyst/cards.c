/* cards.c — the CATALYST card pool, its stats export, the preset decks and
 * the deck check. The rulebook names no card except "Catalyst", so every
 * card and stat is invented (catalog §4 plus what the house deck rule of
 * G20 needs: 40 Vault cards at 3 copies a name need at least 14 names).
 * Deck rules are interpretations (G20) with IDs CAT-DECK-…, documented in
 * conformance/catalyst/interpretations.md. */
#include <stdio.h>
#include <string.h>

#include "games/catalyst/catalyst.h"

#define F CAT_MAP_FRONT
#define B CAT_MAP_BACK
#define ALL CAT_MAP_ALL
#define P(pos) (1u << (pos))

#define CATALYST(id_, name_, text_) \
    .card = { id_, name_, "Catalyst", "", text_ }, .kind = CAT_KIND_CATALYST
#define UNIT(id_, name_, text_) .card = { id_, name_, "Unit", "", text_ }, .kind = CAT_KIND_UNIT
#define IMPULSE(id_, name_, text_) .card = { id_, name_, "Impulse", "", text_ }, .kind = CAT_KIND_IMPULSE

const cat_def arb_catalyst__defs[CAT_NDEFS] = {
    { CATALYST("prime-catalyst", "Prime Catalyst", "At the start of your turn, gain 3 Shards."),
      .power = 1, .health = 12, .range = 1, .map = P(4), .start_gain = 3 },
    { CATALYST("tide-catalyst", "Tide Catalyst", "At the start of your turn, gain 2 Shards."),
      .power = 2, .health = 10, .range = 2, .map = B, .start_gain = 2 },
    { CATALYST("bastion-catalyst", "Bastion Catalyst",
               "At the start of your turn, gain 2 Shards. At the end of your turn, gain 1 Shard."),
      .power = 0, .health = 16, .range = 0, .map = P(4), .start_gain = 2, .end_gain_own = 1 },
    { UNIT("shard-sentinel", "Shard Sentinel", ""),
      .cost = 2, .acost = 1, .power = 2, .health = 3, .range = 1, .map = F },
    { UNIT("vault-sniper", "Vault Sniper", ""),
      .cost = 3, .acost = 1, .upkeep = 1, .power = 3, .health = 2, .range = 3, .map = B },
    { UNIT("siege-engine", "Siege Engine", ""),
      .cost = 4, .acost = 2, .upkeep = 2, .power = 4, .health = 5, .range = 2, .map = ALL },
    { UNIT("scout-drone", "Scout Drone", "[A]: gain 1 Shard. / Pay 1 Shard: this card gets +1 Power this turn."),
      .cost = 1, .acost = 1, .power = 1, .health = 1, .range = 1, .map = ALL,
      .abilities = CAT_AB_ACTION_GAIN | CAT_AB_PAY_POWER },
    { UNIT("ember-totem", "Ember Totem", "At the end of turn, you gain 1 Shard."),
      .cost = 1, .acost = 1, .power = 0, .health = 2, .range = 0, .map = B, .end_gain_any = 1 },
    { UNIT("bulwark", "Bulwark", ""),
      .cost = 2, .acost = 1, .power = 0, .health = 6, .range = 0, .map = F },
    { UNIT("shard-mote", "Shard Mote", ""),
      .cost = 0, .acost = 1, .power = 0, .health = 1, .range = 0, .map = ALL },
    { IMPULSE("flash-barrier", "Flash Barrier",
              "Prevent the next 2 damage that would be dealt to one of your cards this turn."),
      .cost = 1, .acost = 0, .fx = CAT_FX_SHIELD, .fx_amount = 2 },
    { UNIT("lancer", "Lancer", ""),
      .cost = 2, .acost = 1, .power = 3, .health = 2, .range = 1, .map = F },
    { UNIT("warden", "Warden", ""),
      .cost = 3, .acost = 1, .upkeep = 1, .power = 2, .health = 5, .range = 1, .map = F | P(4) },
    { UNIT("spark-wisp", "Spark Wisp", ""),
      .cost = 1, .acost = 1, .power = 1, .health = 1, .range = 2, .map = ALL },
    { UNIT("long-gunner", "Long Gunner", ""),
      .cost = 4, .acost = 1, .upkeep = 1, .power = 2, .health = 3, .range = 4, .map = B },
    { UNIT("rift-colossus", "Rift Colossus", ""),
      .cost = 6, .acost = 3, .upkeep = 2, .power = 6, .health = 8, .range = 1, .map = F },
    { IMPULSE("overcharge", "Overcharge", "One of your cards gets +2 Power this turn."),
      .cost = 1, .acost = 0, .fx = CAT_FX_POWER, .fx_amount = 2 },
    { IMPULSE("shard-cache", "Shard Cache", "Gain 1 Shard."),
      .cost = 0, .acost = 0, .fx = CAT_FX_SHARDS, .fx_amount = 1 },
};

const char *const arb_catalyst__pos_names[CAT_POSITIONS] = { "F1", "F2", "F3", "B1", "B2", "B3" };

const arb_card *arb_catalyst__card(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < arb_catalyst__ndefs ? &arb_catalyst__defs[idx].card : NULL;
}

void arb_catalyst__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent)
{
    (void)g;
    if (idx >= arb_catalyst__ndefs) return;
    const cat_def *d = &arb_catalyst__defs[idx];
    arb_tree_add_str(t, parent, "kind", d->card.type);
    if (d->kind != CAT_KIND_CATALYST) {
        arb_tree_add_int(t, parent, "shard_cost", d->cost);
        arb_tree_add_int(t, parent, "action_cost", d->acost);
    }
    if (d->kind == CAT_KIND_IMPULSE) return;
    arb_tree_add_int(t, parent, "upkeep", d->upkeep);
    arb_tree_add_int(t, parent, "power", d->power);
    arb_tree_add_int(t, parent, "health", d->health);
    arb_tree_add_int(t, parent, "range", d->range);
    arb_tnode *m = arb_tree_add_arr(t, parent, "battle_map");
    for (unsigned p = 0; p < CAT_POSITIONS; p++)
        if (d->map & (1u << p)) arb_tree_add_str(t, m, NULL, arb_catalyst__pos_names[p]);
}

static const arb_deck presets[CAT_NPRESETS] = {
#include "games/catalyst/presets.inc"
};

unsigned arb_catalyst__npresets(void) { return CAT_NPRESETS; }

const arb_deck *arb_catalyst__preset(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < arb_catalyst__npresets() ? &presets[idx] : NULL;
}


unsigned arb_catalyst__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    (void)g;
    unsigned n = 0, catalysts = 0, vault = 0;
    unsigned copies[64] = { 0 };
    unsigned ncards = d->ncards <= ARB_DECK_MAX ? d->ncards : ARB_DECK_MAX;
    for (unsigned i = 0; i < ncards; i++) {
        unsigned c = d->cards[i];
        if (c >= arb_catalyst__ndefs) {
            arb_deck_issue_add(out, cap, &n, 0, "CAT-DECK-POOL", "card %u (index %u) is not in the CATALYST pool", i, c);
            continue;
        }
        copies[c]++;
        if (arb_catalyst__defs[c].kind == CAT_KIND_CATALYST) catalysts++;
        else vault++;
    }
    if (catalysts != 1)
        arb_deck_issue_add(out, cap, &n, 0, "CAT-DECK-CATALYST", "a deck has exactly one Catalyst (G20); this one has %u",
                           catalysts);
    if (vault != CAT_VAULT_SIZE)
        arb_deck_issue_add(out, cap, &n, 0, "CAT-DECK-SIZE", "the Vault is exactly %u cards (G20); this one has %u",
                           CAT_VAULT_SIZE, vault);
    for (unsigned c = 0; c < arb_catalyst__ndefs; c++)
        if (copies[c] > CAT_COPIES && arb_catalyst__defs[c].kind != CAT_KIND_CATALYST)
            arb_deck_issue_add(out, cap, &n, 0, "CAT-DECK-COPIES", "%s: %u copies, at most %u per name (G20)",
                               arb_catalyst__defs[c].card.name, copies[c], CAT_COPIES);
    return n;
}
