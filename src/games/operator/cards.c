/* cards.c — the OPERATOR TCG card pool (every card the rulebook
 * names plus the invented pool of rules-catalog.md §4 and a few more
 * Operators), its stats export, the preset decks and the deck check
 * (OPS-DECK-*). Card indexes are replay data: append new cards, never
 * reorder. COST doubles as deck points (OPS-G03). */
#include <stdio.h>
#include <string.h>

#include "games/operator/operator.h"

#define PUB(id, name, type, text) { id, name, type, "", text }

const ops_card arb_operator__cards[] = {
    /* 0-4: Operators (PERSONALITY cards, OPS-G01/G04). */
    { .pub = PUB("viper", "Viper", "Personality", "DEFENSE 1. Fallback ranged: Sidearm (POWER 2). Fallback close: Combat Knife (POWER 2)."),
      .kind = OPS_K_PERSONALITY, .defense = 1, .fb_ranged = "Sidearm", .fb_ranged_power = 2,
      .fb_close = "Combat Knife", .fb_close_power = 2 },
    { .pub = PUB("bulldog", "Bulldog", "Personality", "DEFENSE 2. Fallback ranged: Carbine (POWER 3). Fallback close: Fists (POWER 1)."),
      .kind = OPS_K_PERSONALITY, .defense = 2, .fb_ranged = "Carbine", .fb_ranged_power = 3,
      .fb_close = "Fists", .fb_close_power = 1 },
    { .pub = PUB("ronin", "Ronin", "Personality", "DEFENSE 1. Fallback ranged: Shuriken (POWER 1). Fallback close: Nodachi (POWER 2)."),
      .kind = OPS_K_PERSONALITY, .defense = 1, .fb_ranged = "Shuriken", .fb_ranged_power = 1,
      .fb_close = "Nodachi", .fb_close_power = 2 },
    { .pub = PUB("ghost", "Ghost", "Personality", "DEFENSE 0. Fallback ranged: Marksman Rifle (POWER 3). Fallback close: Sidearm Whip (POWER 1)."),
      .kind = OPS_K_PERSONALITY, .defense = 0, .fb_ranged = "Marksman Rifle", .fb_ranged_power = 3,
      .fb_close = "Sidearm Whip", .fb_close_power = 1 },
    { .pub = PUB("valkyrie", "Valkyrie", "Personality", "DEFENSE 2. Fallback ranged: Carbine (POWER 2). Fallback close: Machete (POWER 2)."),
      .kind = OPS_K_PERSONALITY, .defense = 2, .fb_ranged = "Carbine", .fb_ranged_power = 2,
      .fb_close = "Machete", .fb_close_power = 2 },
    /* 5-11: Weapons. */
    { .pub = PUB("katana", "Katana", "Weapon", "Close. Two Handed. POWER 5."),
      .kind = OPS_K_WEAPON, .cost = 6, .power = 5, .flags = OPS_F_CLOSE | OPS_F_TWOHANDED },
    { .pub = PUB("heavy-sniper", "Heavy Sniper", "Weapon", "Ranged. Two Handed. POWER 6."),
      .kind = OPS_K_WEAPON, .cost = 7, .power = 6, .flags = OPS_F_RANGED | OPS_F_TWOHANDED },
    { .pub = PUB("assault-rifle", "Assault Rifle", "Weapon", "Ranged. POWER 4."),
      .kind = OPS_K_WEAPON, .cost = 4, .power = 4, .flags = OPS_F_RANGED },
    { .pub = PUB("combat-knife", "Combat Knife", "Weapon", "Close. DUAL. POWER 2."),
      .kind = OPS_K_WEAPON, .cost = 2, .power = 2, .flags = OPS_F_CLOSE | OPS_F_DUAL },
    { .pub = PUB("sidearm", "Sidearm", "Weapon", "Ranged. DUAL. POWER 2."),
      .kind = OPS_K_WEAPON, .cost = 2, .power = 2, .flags = OPS_F_RANGED | OPS_F_DUAL },
    { .pub = PUB("machete", "Machete", "Weapon", "Close. DUAL. POWER 3."),
      .kind = OPS_K_WEAPON, .cost = 3, .power = 3, .flags = OPS_F_CLOSE | OPS_F_DUAL },
    { .pub = PUB("nodachi", "Nodachi", "Weapon", "Close. DUAL. Two Handed. POWER 4."),
      .kind = OPS_K_WEAPON, .cost = 5, .power = 4, .flags = OPS_F_CLOSE | OPS_F_DUAL | OPS_F_TWOHANDED },
    /* 12-16: Modifiers. */
    { .pub = PUB("explosive-rounds", "Explosive Rounds", "Modifier", "Attach to a Ranged weapon: +2 POWER."),
      .kind = OPS_K_MODIFIER, .cost = 2, .mod_target = OPS_MT_RANGED, .mod_power = 2 },
    { .pub = PUB("armour-piercing-rounds", "Armour Piercing Rounds", "Modifier", "Attach to a weapon: the attack ignores the target's Armor card."),
      .kind = OPS_K_MODIFIER, .cost = 3, .mod_target = OPS_MT_WEAPON, .mod_ap = 1 },
    { .pub = PUB("laser-sight", "Laser Sight", "Modifier", "Attach to a weapon: +1 POWER and +2 to the cover-check total."),
      .kind = OPS_K_MODIFIER, .cost = 2, .mod_target = OPS_MT_WEAPON, .mod_power = 1, .mod_cover = 2 },
    { .pub = PUB("incendiary-rounds", "Incendiary Rounds", "Modifier", "Attach to a weapon: if the attack deals 1 or more damage, Staged Damage 3 to the target."),
      .kind = OPS_K_MODIFIER, .cost = 3, .mod_target = OPS_MT_WEAPON, .mod_sd = 3 },
    { .pub = PUB("reinforced-lining", "Reinforced Lining", "Modifier", "Attach to an Armor: +1 ARMOR."),
      .kind = OPS_K_MODIFIER, .cost = 1, .mod_target = OPS_MT_ARMOR, .armor = 1 },
    /* 17-18: Armor. */
    { .pub = PUB("kevlar-vest", "Kevlar Vest", "Armor", "ARMOR 2."),
      .kind = OPS_K_ARMOR, .cost = 3, .armor = 2 },
    { .pub = PUB("ceramic-plate", "Ceramic Plate", "Armor", "ARMOR 3. When this Armor is broken, draw 1 card."),
      .kind = OPS_K_ARMOR, .cost = 4, .armor = 3, .break_draw = 1 },
    /* 19-21: Cover. */
    { .pub = PUB("concrete-barrier", "Concrete Barrier", "Cover", "Cover Value 4."),
      .kind = OPS_K_COVER, .cost = 2, .cover = 4 },
    { .pub = PUB("wooden-crate", "Wooden Crate", "Cover", "Cover Value 1."),
      .kind = OPS_K_COVER, .cost = 1, .cover = 1 },
    { .pub = PUB("sandbags", "Sandbags", "Cover", "Cover Value 2."),
      .kind = OPS_K_COVER, .cost = 1, .cover = 2 },
    /* 22-25: Move and Action cards. */
    { .pub = PUB("sprint", "Sprint", "Move", "No text (the 0-point padding card)."),
      .kind = OPS_K_MOVE, .cost = 0 },
    { .pub = PUB("dodge", "Dodge", "Move", "Reaction. REDUCE 2."),
      .kind = OPS_K_MOVE, .cost = 1, .reduce = 2, .flags = OPS_F_REACTION },
    { .pub = PUB("duck", "Duck", "Move", "Reaction. REDUCE 1."),
      .kind = OPS_K_MOVE, .cost = 0, .reduce = 1, .flags = OPS_F_REACTION },
    { .pub = PUB("jump", "Jump", "Action", "Reaction. REDUCE 3."),
      .kind = OPS_K_ACTION, .cost = 2, .reduce = 3, .flags = OPS_F_REACTION },
    /* 26-27: Boosts. */
    { .pub = PUB("adrenaline", "Adrenaline", "Boost", "+2 POWER for this attack."),
      .kind = OPS_K_BOOST, .cost = 1, .boost_power = 2 },
    { .pub = PUB("crossfire", "Crossfire", "Boost", "Multi. After this attack you may attack one other player this turn."),
      .kind = OPS_K_BOOST, .cost = 3, .boost_attacks = 1, .flags = OPS_F_MULTI },
    /* 28-30: Strategic cards. */
    { .pub = PUB("medkit", "Medkit", "Strategic", "Heal 3 (Health never exceeds 20)."),
      .kind = OPS_K_STRATEGIC, .cost = 2, .heal = 3 },
    { .pub = PUB("field-radio", "Field Radio", "Strategic", "At the end of this turn, draw 1 card."),
      .kind = OPS_K_STRATEGIC, .cost = 1, .end_draw = 1 },
    { .pub = PUB("second-wind", "Second Wind", "Strategic", "You may move one additional time this turn."),
      .kind = OPS_K_STRATEGIC, .cost = 1, .extra_move = 1 },
};
const unsigned arb_operator__ncards = sizeof arb_operator__cards / sizeof arb_operator__cards[0];
_Static_assert(sizeof arb_operator__cards / sizeof arb_operator__cards[0] == OPS_NCARDS, "OPS_NCARDS must match the pool");

const ops_card *arb_operator__card(unsigned idx) { return &arb_operator__cards[idx]; }
const arb_card *arb_operator__pubcard(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < arb_operator__ncards ? &arb_operator__cards[idx].pub : NULL;
}

const char *arb_operator__kind_name(unsigned kind)
{
    static const char *const k[] = { "Personality", "Weapon", "Armor", "Cover", "Modifier",
                                     "Move", "Action", "Boost", "Strategic" };
    return kind < sizeof k / sizeof k[0] ? k[kind] : "?";
}

void arb_operator__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent)
{
    (void)g;
    if (idx >= arb_operator__ncards) return;
    const ops_card *c = &arb_operator__cards[idx];
    arb_tree_add_str(t, parent, "kind", arb_operator__kind_name(c->kind));
    arb_tree_add_int(t, parent, "cost", c->cost);
    arb_tree_add_int(t, parent, "points", c->cost);
    switch (c->kind) {
    case OPS_K_PERSONALITY:
        arb_tree_add_int(t, parent, "defense", c->defense);
        arb_tree_add_str(t, parent, "fallback_ranged", c->fb_ranged);
        arb_tree_add_int(t, parent, "fallback_ranged_power", c->fb_ranged_power);
        arb_tree_add_str(t, parent, "fallback_close", c->fb_close);
        arb_tree_add_int(t, parent, "fallback_close_power", c->fb_close_power);
        break;
    case OPS_K_WEAPON:
        arb_tree_add_int(t, parent, "power", c->power);
        arb_tree_add_str(t, parent, "weapon_type", (c->flags & OPS_F_RANGED) ? "ranged" : "close");
        break;
    case OPS_K_ARMOR:
        arb_tree_add_int(t, parent, "armor", c->armor);
        if (c->break_draw) arb_tree_add_int(t, parent, "break_draw", c->break_draw);
        break;
    case OPS_K_COVER: arb_tree_add_int(t, parent, "cover_value", c->cover); break;
    case OPS_K_MODIFIER: {
        static const char *const mt[] = { "none", "ranged-weapon", "weapon", "armor" };
        arb_tree_add_str(t, parent, "attaches_to", mt[c->mod_target]);
        if (c->mod_power) arb_tree_add_int(t, parent, "power_bonus", c->mod_power);
        if (c->mod_cover) arb_tree_add_int(t, parent, "cover_check_bonus", c->mod_cover);
        if (c->mod_ap) arb_tree_add_bool(t, parent, "ignores_armor", 1);
        if (c->mod_sd) arb_tree_add_int(t, parent, "staged_damage", c->mod_sd);
        if (c->mod_target == OPS_MT_ARMOR) arb_tree_add_int(t, parent, "armor_bonus", c->armor);
        break;
    }
    case OPS_K_MOVE: case OPS_K_ACTION:
        if (c->reduce) arb_tree_add_int(t, parent, "reduce", c->reduce);
        break;
    case OPS_K_BOOST:
        if (c->boost_power) arb_tree_add_int(t, parent, "power_bonus", c->boost_power);
        if (c->boost_attacks) arb_tree_add_int(t, parent, "extra_attacks", c->boost_attacks);
        break;
    case OPS_K_STRATEGIC:
        if (c->heal) arb_tree_add_int(t, parent, "heal", c->heal);
        if (c->end_draw) arb_tree_add_int(t, parent, "end_draw", c->end_draw);
        if (c->extra_move) arb_tree_add_int(t, parent, "extra_moves", c->extra_move);
        break;
    default: break;
    }
    arb_tnode *kw = arb_tree_add_arr(t, parent, "keywords");
    if (c->flags & OPS_F_RANGED) arb_tree_add_str(t, kw, NULL, "RANGED");
    if (c->flags & OPS_F_CLOSE) arb_tree_add_str(t, kw, NULL, "CLOSE");
    if (c->flags & OPS_F_DUAL) arb_tree_add_str(t, kw, NULL, "DUAL");
    if (c->flags & OPS_F_TWOHANDED) arb_tree_add_str(t, kw, NULL, "TWO_HANDED");
    if (c->flags & OPS_F_REACTION) arb_tree_add_str(t, kw, NULL, "REACTION");
    if (c->flags & OPS_F_MULTI) arb_tree_add_str(t, kw, NULL, "MULTI");
}

/* ---- deck check ------------------------------------------------------------ */

unsigned arb_operator__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    (void)g;
    unsigned n = 0;
    int pers = 0, others = 0, points = 0, bad = 0;
    for (unsigned i = 0; i < d->ncards && i < ARB_DECK_MAX; i++) {
        if (d->cards[i] >= arb_operator__ncards) { bad++; continue; }
        const ops_card *c = &arb_operator__cards[d->cards[i]];
        if (c->kind == OPS_K_PERSONALITY) pers++;
        else others++;
        points += c->cost;
    }
    if (bad) arb_deck_issue_add(out, cap, &n, 0, "OPS-DECK-ANY", "%d card(s) are not in the OPERATOR pool", bad);
    if (pers != 1)
        arb_deck_issue_add(out, cap, &n, 0, "OPS-DECK-OPERATOR",
                           "a deck needs exactly one Operator (Personality) card, this one has %d", pers);
    if (others != OPS_DECK_CARDS)
        arb_deck_issue_add(out, cap, &n, 0, "OPS-DECK-SIZE",
              "a deck is 40 cards plus the Operator card; this one has %d cards besides %d Operator card(s)",
              others, pers);
    if (points > OPS_DECK_POINTS)
        arb_deck_issue_add(out, cap, &n, 0, "OPS-DECK-POINTS", "the deck has %d points; the limit is %d", points,
              OPS_DECK_POINTS);
    return n;
}

/* ---- presets ------------------------------------------------------------------ */
/* Compile-time constants (no lazy initialisation: threads read presets
 * together). Card indexes into the pool above; the comment of each deck
 * lists it by card ID; check_operator verifies every preset is legal. */
static const arb_deck presets[OPS_NPRESETS] = {
    /* 1 viper, 4 combat-knife, 2 sidearm, 3 kevlar-vest, 3 wooden-crate, 2 concrete-barrier, 4 dodge, 4 duck, 2 adrenaline, 2 laser-sight, 2 medkit, 1 field-radio, 1 second-wind, 1 incendiary-rounds, 1 explosive-rounds, 1 armour-piercing-rounds, 1 reinforced-lining, 1 crossfire, 5 sprint */
    { .name = "viper-blades", .ncards = 41, .cards = {
        0, 8, 8, 8, 8, 9, 9, 17, 17, 17, 20, 20, 20, 19, 19, 23, 23, 23, 23, 24,
        24, 24, 24, 26, 26, 14, 14, 28, 28, 29, 30, 15, 12, 13, 16, 27, 22, 22, 22, 22,
        22,
      }, .nattrs = 1, .attrs = { { "about", "Viper: DUAL knives and sidearms, light cover" }, } },
    /* 1 bulldog, 2 heavy-sniper, 2 assault-rifle, 2 explosive-rounds, 1 armour-piercing-rounds, 2 concrete-barrier, 2 sandbags, 2 kevlar-vest, 1 ceramic-plate, 2 dodge, 1 jump, 2 adrenaline, 1 medkit, 1 field-radio, 1 second-wind, 1 crossfire, 8 duck, 9 sprint */
    { .name = "bulldog-sniper", .ncards = 41, .cards = {
        1, 6, 6, 7, 7, 12, 12, 13, 19, 19, 21, 21, 17, 17, 18, 23, 23, 25, 26, 26,
        28, 29, 30, 27, 24, 24, 24, 24, 24, 24, 24, 24, 22, 22, 22, 22, 22, 22, 22, 22,
        22,
      }, .nattrs = 1, .attrs = { { "about", "Bulldog: Heavy Sniper and rifles from cover" }, } },
    /* 1 ronin, 2 katana, 2 nodachi, 2 machete, 2 wooden-crate, 2 sandbags, 2 kevlar-vest, 1 reinforced-lining, 2 laser-sight, 1 incendiary-rounds, 2 dodge, 2 adrenaline, 1 medkit, 1 second-wind, 6 duck, 12 sprint */
    { .name = "ronin-blade", .ncards = 41, .cards = {
        2, 5, 5, 11, 11, 10, 10, 20, 20, 21, 21, 17, 17, 16, 14, 14, 15, 23, 23, 26,
        26, 28, 30, 24, 24, 24, 24, 24, 24, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22,
        22,
      }, .nattrs = 1, .attrs = { { "about", "Ronin: two-handed blades in the open" }, } },
    /* 1 valkyrie, 4 machete, 1 assault-rifle, 2 kevlar-vest, 2 ceramic-plate, 2 reinforced-lining, 3 sandbags, 2 wooden-crate, 3 dodge, 2 jump, 2 adrenaline, 1 medkit, 1 field-radio, 5 duck, 10 sprint */
    { .name = "valkyrie-machete", .ncards = 41, .cards = {
        4, 10, 10, 10, 10, 7, 17, 17, 18, 18, 16, 16, 21, 21, 21, 20, 20, 23, 23, 23,
        25, 25, 26, 26, 28, 29, 24, 24, 24, 24, 24, 22, 22, 22, 22, 22, 22, 22, 22, 22,
        22,
      }, .nattrs = 1, .attrs = { { "about", "Valkyrie: DUAL Machetes and armor" }, } },
};

unsigned arb_operator__npresets(void) { return OPS_NPRESETS; }
const arb_deck *arb_operator__preset(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < OPS_NPRESETS ? &presets[idx] : NULL;
}
