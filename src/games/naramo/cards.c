/* cards.c — the NARAMO card pool, the preset decks and the deck checker.
 *
 * The pool is the rules catalog's minimal pool (section 4, stats invented
 * there and kept verbatim) plus invented cards so that each of the six
 * factions can field legal 40-card decks. The index of a card in the pool is
 * stable (it is what decks and states store); append new cards at the end.
 * deck_check reports every deck-rules-table violation (NAR-DECK-*) and the
 * builder warnings (NAR-DECK-WARN-*). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "games/naramo/naramo.h"

#define P NAR_T_PERSONNEL
#define EQ NAR_T_EQUIPMENT
#define FA NAR_T_FACILITY
#define PR NAR_T_PROCEDURE
#define IN NAR_T_INCIDENT

/* The printed type and faction names, by the token given to CARD(). */
#define TYPE_NAME_P "Personnel"
#define TYPE_NAME_EQ "Equipment"
#define TYPE_NAME_FA "Facility"
#define TYPE_NAME_PR "Procedure"
#define TYPE_NAME_IN "Incident"
#define FACTION_NAME_NAR_F_NEUTRAL "Neutral"
#define FACTION_NAME_NAR_F_DOE "DOE"
#define FACTION_NAME_NAR_F_SECFOR "SECFOR"
#define FACTION_NAME_NAR_F_STRATO "Stratocracy"
#define FACTION_NAME_NAR_F_NOOBIA "West Noobia"
#define FACTION_NAME_NAR_F_BLOXIAN "Bloxian"
/* One card: the public arb_card is built at compile time beside the rules
 * data, so arb_naramo__card() reads a constant table (no lazy filling). */
#define CARD(id, name, ty, fa, flags, cost, clr, strike, clear, dur, fx, core_k, rarity, text) \
    { { id, name, TYPE_NAME_##ty, FACTION_NAME_##fa, text }, ty, fa, flags, cost, clr, strike, clear, dur, fx, core_k, rarity }

const nar_carddef arb_naramo__cards[] = {
    /* catalog pool */
    CARD("coolant-pumps", "Coolant Pumps", FA, NAR_F_NEUTRAL, 0, 1, 0, 0, -1, -1, NAR_FX_SS_CORE, -100, "Common",
         "SHIFT START: your core -100 K."),
    CARD("control-room", "Control Room", FA, NAR_F_NEUTRAL, 0, 2, 0, 0, -1, -1, NAR_FX_SS_CLEARANCE, 0, "Uncommon",
         "SHIFT START: your Clearance rises one step (D->C->B->A; no effect at A)."),
    CARD("reactor-hall", "Reactor Hall", FA, NAR_F_NEUTRAL, 0, 2, 0, 0, -1, -1, NAR_FX_SS_REACTOR_HALL, 0, "Uncommon",
         "SHIFT START: if your core >= 1,600 K, +1 Power Order. OVERHEAT: -1 Power Order (min 0)."),
    CARD("emergency-diesel-generators", "Emergency Diesel Generators", FA, NAR_F_NEUTRAL, 0, 2, 0, 0, -1, -1, NAR_FX_EDG, 0, "Uncommon",
         "Once per your shift, on demand: +1 Swipe (may exceed 6)."),
    CARD("switchyard", "Switchyard", FA, NAR_F_NEUTRAL, 0, 0, 0, 0, -1, -1, NAR_FX_NONE, 0, "Common",
         ""),
    CARD("gubby", "Gubby", IN, NAR_F_NEUTRAL, 0, 0, 0, 0, 2, -1, NAR_FX_AL_GUBBY, 0, "Rare",
         "ALARM: discard 1 card of your choice, or your core +100 K. CLEAR 2."),
    CARD("steam-leak", "Steam Leak", IN, NAR_F_NEUTRAL, 0, 0, 0, 0, 1, 2, NAR_FX_AL_CORE, 100, "Common",
         "ALARM: your core +100 K. DURATION 2. CLEAR 1."),
    CARD("relay-trip", "Relay Trip", IN, NAR_F_NEUTRAL, 0, 0, 0, 0, 1, 1, NAR_FX_AL_RELAY, 0, "Common",
         "ALARM: if your core >= 1,700 K, +1 HACK counter. DURATION 1. CLEAR 1."),
    CARD("grid-blackout", "Grid Blackout", IN, NAR_F_NEUTRAL, NAR_SITEWIDE, 0, 0, 0, 3, 3, NAR_FX_AL_CORE, 50, "Uncommon",
         "SITE-WIDE. ALARM: your core +50 K. DURATION 3. CLEAR 3."),
    CARD("shift-engineer", "Shift Engineer", P, NAR_F_DOE, NAR_OPERATOR, 1, 0, 0, -1, -1, NAR_FX_EXH_CORE, -50, "Common",
         "OPERATOR. Exhaust: your core -50 K."),
    CARD("station-guard", "Station Guard", P, NAR_F_SECFOR, 0, 1, 0, 0, -1, -1, NAR_FX_NONE, 0, "Common",
         ""),
    CARD("plant-director", "Plant Director", P, NAR_F_STRATO, NAR_COMMANDER, 2, 1, 0, -1, -1, NAR_FX_NONE, 0, "Uncommon",
         "COMMANDER."),
    CARD("noobian-raider", "Noobian Raider", P, NAR_F_NOOBIA, NAR_RAIDER, 1, 0, 150, -1, -1, NAR_FX_NONE, 0, "Common",
         "RAIDER. STRIKE 150 K."),
    CARD("bloxian-infiltrator", "Bloxian Infiltrator", P, NAR_F_BLOXIAN, NAR_RAIDER, 2, 0, 100, -1, -1, NAR_FX_NONE, 0, "Common",
         "RAIDER. STRIKE 100 K."),
    CARD("bloxian-warlord", "Bloxian Warlord", P, NAR_F_BLOXIAN, NAR_COMMANDER, 2, 0, 0, -1, -1, NAR_FX_NONE, 0, "Uncommon",
         "COMMANDER."),
    CARD("chief-engineer-vessa", "Chief Engineer Vessa", P, NAR_F_DOE, NAR_OPERATOR | NAR_UNIQUE, 2, 0, 0, -1, -1, NAR_FX_NONE, 0, "Rare",
         "OPERATOR. Unique."),
    CARD("intern", "Intern", P, NAR_F_NEUTRAL, 0, 0, 0, 0, -1, -1, NAR_FX_NONE, 0, "Common",
         ""),
    CARD("dosimeter", "Dosimeter", EQ, NAR_F_NEUTRAL, NAR_TARGETED, 1, 0, 0, -1, -1, NAR_FX_NONE, 0, "Common",
         "Attach to one of your Personnel."),
    CARD("emergency-venting", "Emergency Venting", PR, NAR_F_NEUTRAL, NAR_ACT, 1, 0, 0, -1, -1, NAR_FX_PR_CORE, -100, "Common",
         "ACT. Your core -100 K."),
    CARD("boron-injection", "Boron Injection", PR, NAR_F_NEUTRAL, NAR_ACT, 0, 0, 0, -1, -1, NAR_FX_PR_CORE, -50, "Common",
         "ACT. Your core -50 K."),
    CARD("defense-in-depth", "Defense in Depth", PR, NAR_F_DOE, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_DID, 0, "Uncommon",
         "DOCTRINE. Until your next Shift End, strike heat dealt to you is reduced by 100 K."),
    CARD("raid-doctrine", "Raid Doctrine", PR, NAR_F_BLOXIAN, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_DRAW, 0, "Uncommon",
         "DOCTRINE. Draw 1 card."),
    CARD("work-order", "Work Order", PR, NAR_F_NEUTRAL, 0, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, 0, "Common",
         "Draw 1 card."),
    CARD("classified-dossier-z-1", "Classified Dossier Z-1", PR, NAR_F_NEUTRAL, NAR_CLASSIFIED, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, 0, "Rare",
         "Classified (Z). Draw 1 card."),
    CARD("classified-dossier-z-2", "Classified Dossier Z-2", PR, NAR_F_NEUTRAL, NAR_CLASSIFIED, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, 0, "Rare",
         "Classified (Z). Draw 1 card."),
    CARD("classified-dossier-z-3", "Classified Dossier Z-3", PR, NAR_F_NEUTRAL, NAR_CLASSIFIED, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, 0, "Rare",
         "Classified (Z). Draw 1 card."),
    /* invented for faction depth */
    CARD("reactor-physicist", "Reactor Physicist", P, NAR_F_DOE, NAR_OPERATOR, 2, 1, 0, -1, -1, NAR_FX_EXH_CORE, -100, "Uncommon",
         "OPERATOR. Exhaust: your core -100 K."),
    CARD("spent-fuel-pool", "Spent Fuel Pool", FA, NAR_F_DOE, 0, 1, 0, 0, -1, -1, NAR_FX_SS_CORE, -50, "Common",
         "SHIFT START: your core -50 K."),
    CARD("riot-squad", "Riot Squad", P, NAR_F_SECFOR, 0, 2, 0, 0, -1, -1, NAR_FX_EXH_HACK, 0, "Common",
         "Exhaust: remove 1 HACK counter from your SKALA panel."),
    CARD("firewall-patch", "Firewall Patch", PR, NAR_F_SECFOR, NAR_ACT, 1, 0, 0, -1, -1, NAR_FX_PR_HACK, 0, "Common",
         "ACT. Remove 1 HACK counter from your SKALA panel."),
    CARD("body-armor", "Body Armor", EQ, NAR_F_SECFOR, NAR_TARGETED, 1, 0, 0, -1, -1, NAR_FX_NONE, 0, "Common",
         "Attach to one of your Personnel."),
    CARD("political-officer", "Political Officer", P, NAR_F_STRATO, NAR_COMMANDER, 1, 0, 0, -1, -1, NAR_FX_NONE, 0, "Common",
         "COMMANDER."),
    CARD("ministry-directive", "Ministry Directive", PR, NAR_F_STRATO, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_CORE, -150, "Uncommon",
         "DOCTRINE. Your core -150 K."),
    CARD("noobian-sapper", "Noobian Sapper", P, NAR_F_NOOBIA, NAR_RAIDER, 2, 0, 200, -1, -1, NAR_FX_NONE, 0, "Uncommon",
         "RAIDER. STRIKE 200 K."),
    CARD("breaching-charge", "Breaching Charge", EQ, NAR_F_NOOBIA, NAR_TARGETED, 1, 0, 50, -1, -1, NAR_FX_EQ_STRIKE, 0, "Common",
         "Attach to one of your Personnel. Its STRIKE +50 K."),
    CARD("noobian-captain", "Noobian Captain", P, NAR_F_NOOBIA, NAR_COMMANDER, 2, 0, 0, -1, -1, NAR_FX_NONE, 0, "Uncommon",
         "COMMANDER."),
    CARD("blitz-orders", "Blitz Orders", PR, NAR_F_NOOBIA, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_READY_RAIDERS, 0, "Uncommon",
         "DOCTRINE. Ready all your EXHAUSTED RAIDERs."),
    CARD("bloxian-hacker", "Bloxian Hacker", P, NAR_F_BLOXIAN, NAR_RAIDER, 1, 0, 50, -1, -1, NAR_FX_NONE, 0, "Common",
         "RAIDER. STRIKE 50 K."),
    CARD("logic-bomb", "Logic Bomb", PR, NAR_F_BLOXIAN, NAR_ACT, 1, 0, 0, -1, -1, NAR_FX_PR_OPP_HACK, 0, "Uncommon",
         "ACT. The opponent gets +1 HACK counter."),
    CARD("reassignment", "Reassignment", PR, NAR_F_NEUTRAL, NAR_TARGETED, 0, 0, 0, -1, -1, NAR_FX_PR_REASSIGN, 0, "Common",
         "Target one of your Personnel: it leaves play (to your discard, with its Equipment)."),
};
const unsigned arb_naramo__ncards = sizeof arb_naramo__cards / sizeof arb_naramo__cards[0];

static const uint8_t faction_bloc[] = {0, NAR_BLOC_DEFENSE, NAR_BLOC_DEFENSE, NAR_BLOC_DEFENSE,
                                       NAR_BLOC_ASSAULT, NAR_BLOC_ASSAULT};

#define NCARDS_STATIC (sizeof arb_naramo__cards / sizeof arb_naramo__cards[0])
_Static_assert(NCARDS_STATIC == NAR_NCARDS, "NAR_NCARDS must match the pool");
const arb_card *arb_naramo__card(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < arb_naramo__ncards ? &arb_naramo__cards[idx].pub : NULL;
}

void arb_naramo__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent)
{
    (void)g;
    if (idx >= arb_naramo__ncards) return;
    const nar_carddef *c = &arb_naramo__cards[idx];
    /* id, name, type, faction (group) and text are the card's own fields
     * (arb_card); these are the stats beside them. */
    arb_tree_add_str(t, parent, "bloc", c->faction == NAR_F_NEUTRAL ? "any"
                     : faction_bloc[c->faction] == NAR_BLOC_DEFENSE ? "DEFENSE" : "ASSAULT");
    if (c->type != NAR_T_INCIDENT) {
        arb_tree_add_int(t, parent, "cost", c->cost);
        arb_tree_add_str(t, parent, "clearance", arb_naramo__clearance_names[c->clr]);
    }
    arb_tnode *kw = arb_tree_add_arr(t, parent, "keywords");
    static const struct { uint16_t f; const char *n; } kws[] = {
        {NAR_OPERATOR, "OPERATOR"}, {NAR_RAIDER, "RAIDER"}, {NAR_COMMANDER, "COMMANDER"},
        {NAR_ACT, "ACT"}, {NAR_DOCTRINE, "DOCTRINE"}, {NAR_SITEWIDE, "SITE-WIDE"},
        {NAR_UNIQUE, "Unique"}, {NAR_CLASSIFIED, "Classified (Z)"}};
    for (unsigned i = 0; i < sizeof kws / sizeof kws[0]; i++)
        if (c->flags & kws[i].f) arb_tree_add_str(t, kw, NULL, kws[i].n);
    if (c->flags & NAR_RAIDER) arb_tree_add_int(t, parent, "strike", c->strike);
    if (c->effect == NAR_FX_EQ_STRIKE) arb_tree_add_int(t, parent, "strike_bonus", c->strike);
    if (c->type == NAR_T_INCIDENT) {
        arb_tree_add_int(t, parent, "clear", c->clear);
        arb_tree_add_int(t, parent, "duration", c->duration);
    }
    arb_tree_add_bool(t, parent, "unique", (c->flags & NAR_UNIQUE) != 0);
    arb_tree_add_bool(t, parent, "classified", (c->flags & NAR_CLASSIFIED) != 0);
    arb_tree_add_bool(t, parent, "needs_target", (c->flags & NAR_TARGETED) != 0);
    arb_tree_add_str(t, parent, "rarity", c->rarity);
}

/* ---- presets ---------------------------------------------------------- */

/* Compile-time constants (no lazy initialisation: threads read presets
 * together). Card indexes into the pool above; the comment of each deck
 * lists it by card ID, and check_naramo verifies that every preset passes
 * deck_check. */
static const arb_deck presets[NAR_NPRESETS] = {
    /* 3 shift-engineer, 3 reactor-physicist, 2 chief-engineer-vessa, 2 political-officer, 1 plant-director, 3 defense-in-depth, 3 coolant-pumps, 2 control-room, 3 reactor-hall, 1 emergency-diesel-generators, 2 spent-fuel-pool, 3 emergency-venting, 2 boron-injection, 2 work-order, 2 gubby, 2 steam-leak, 1 relay-trip, 1 grid-blackout, 1 classified-dossier-z-1, 1 dosimeter */
    { .name = "defense-doe", .ncards = 40, .cards = {
        9, 9, 9, 26, 26, 26, 15, 15, 31, 31, 11, 20, 20, 20, 0, 0, 0, 1, 1, 2,
        2, 2, 3, 27, 27, 18, 18, 18, 19, 19, 22, 22, 5, 5, 6, 6, 7, 8, 23, 17,
      }, .nattrs = 2, .attrs = { { "name", "defense-doe" }, { "bloc", "DEFENSE" }, } },
    /* 3 station-guard, 3 riot-squad, 3 shift-engineer, 3 political-officer, 3 ministry-directive, 2 firewall-patch, 2 body-armor, 3 coolant-pumps, 3 reactor-hall, 2 switchyard, 1 emergency-diesel-generators, 3 emergency-venting, 1 boron-injection, 2 gubby, 3 steam-leak, 1 grid-blackout, 1 intern, 1 classified-dossier-z-2 */
    { .name = "defense-secfor", .ncards = 40, .cards = {
        10, 10, 10, 28, 28, 28, 9, 9, 9, 31, 31, 31, 32, 32, 32, 29, 29, 30, 30, 0,
        0, 0, 2, 2, 2, 4, 4, 3, 18, 18, 18, 19, 5, 5, 6, 6, 6, 8, 16, 24,
      }, .nattrs = 2, .attrs = { { "name", "defense-secfor" }, { "bloc", "DEFENSE" }, } },
    /* 3 noobian-raider, 3 noobian-sapper, 2 noobian-captain, 3 breaching-charge, 3 blitz-orders, 3 coolant-pumps, 3 reactor-hall, 2 switchyard, 3 emergency-venting, 2 boron-injection, 3 gubby, 3 steam-leak, 2 relay-trip, 1 grid-blackout, 2 work-order, 1 intern, 1 emergency-diesel-generators */
    { .name = "assault-noobia", .ncards = 40, .cards = {
        12, 12, 12, 33, 33, 33, 35, 35, 34, 34, 34, 36, 36, 36, 0, 0, 0, 2, 2, 2,
        4, 4, 18, 18, 18, 19, 19, 5, 5, 5, 6, 6, 6, 7, 7, 8, 22, 22, 16, 3,
      }, .nattrs = 2, .attrs = { { "name", "assault-noobia" }, { "bloc", "ASSAULT" }, } },
    /* 3 bloxian-infiltrator, 3 bloxian-hacker, 2 bloxian-warlord, 3 raid-doctrine, 3 logic-bomb, 2 noobian-raider, 3 coolant-pumps, 3 reactor-hall, 1 control-room, 2 switchyard, 3 emergency-venting, 3 gubby, 2 steam-leak, 3 relay-trip, 2 work-order, 1 dosimeter, 1 classified-dossier-z-3 */
    { .name = "assault-bloxian", .ncards = 40, .cards = {
        13, 13, 13, 37, 37, 37, 14, 14, 21, 21, 21, 38, 38, 38, 12, 12, 0, 0, 0, 2,
        2, 2, 1, 4, 4, 18, 18, 18, 5, 5, 5, 6, 6, 7, 7, 7, 22, 22, 17, 25,
      }, .nattrs = 2, .attrs = { { "name", "assault-bloxian" }, { "bloc", "ASSAULT" }, } },
};

unsigned arb_naramo__npresets(void) { return NAR_NPRESETS; }

const arb_deck *arb_naramo__preset(const arb_game *g, unsigned idx)
{
    (void)g;
    return idx < NAR_NPRESETS ? &presets[idx] : NULL;
}

/* ---- deck check ------------------------------------------------------- */

int arb_naramo__bloc(const arb_deck *d)
{
    const char *b = arb_deck_attr_get(d, "bloc");
    if (!b) return NAR_BLOC_NONE;
    if (strcasecmp(b, "DEFENSE") == 0) return NAR_BLOC_DEFENSE;
    if (strcasecmp(b, "ASSAULT") == 0) return NAR_BLOC_ASSAULT;
    return NAR_BLOC_NONE;
}


unsigned arb_naramo__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    (void)g;
    unsigned n = 0;
    uint16_t count[NCARDS_STATIC];
    memset(count, 0, sizeof count);
    if (d->ncards != NAR_DECK_SIZE) {
        arb_deck_issue_add(out, cap, &n, 0, "NAR-DECK-SIZE", "the deck has %u cards; exactly %d are required",
                           (unsigned)d->ncards, NAR_DECK_SIZE);
    }
    int bloc = arb_naramo__bloc(d);
    const char *b = arb_deck_attr_get(d, "bloc");
    if (bloc == NAR_BLOC_NONE) {
        if (b) arb_deck_issue_add(out, cap, &n, 0, "NAR-DECK-BLOC-DECLARE", "bloc '%.60s' is neither DEFENSE nor ASSAULT", b);
        else arb_deck_issue_add(out, cap, &n, 0, "NAR-DECK-BLOC-DECLARE", "no bloc declared (add 'bloc: DEFENSE' or 'bloc: ASSAULT')");
    }
    unsigned ztotal = 0, nop = 0, nraid = 0;
    for (unsigned i = 0; i < d->ncards && i < ARB_DECK_MAX; i++) {
        unsigned ci = d->cards[i];
        if (ci >= arb_naramo__ncards) {
            arb_deck_issue_add(out, cap, &n, 0, "NAR-CARDTYPES-FIVE", "card index %u is not in the NARAMO pool", ci);
            continue;
        }
        const nar_carddef *c = &arb_naramo__cards[ci];
        if (count[ci]++ == 0 && bloc != NAR_BLOC_NONE && c->faction != NAR_F_NEUTRAL &&
            faction_bloc[c->faction] != bloc) {
            arb_deck_issue_add(out, cap, &n, 0, "NAR-DECK-BLOC-ONLY", "%s (%s) is not legal in a %s deck", c->pub.name,
                               c->pub.group, bloc == NAR_BLOC_DEFENSE ? "DEFENSE" : "ASSAULT");
        }
        if (c->flags & NAR_CLASSIFIED) ztotal++;
        if (c->flags & NAR_OPERATOR) nop++;
        if (c->flags & NAR_RAIDER) nraid++;
    }
    for (unsigned ci = 0; ci < arb_naramo__ncards; ci++) {
        const nar_carddef *c = &arb_naramo__cards[ci];
        if (c->flags & NAR_CLASSIFIED) {
            if (count[ci] > 1) {
                arb_deck_issue_add(out, cap, &n, 0, "NAR-DECK-Z-COPY", "%s: %u copies; a Classified (Z) card allows 1",
                                   c->pub.name, (unsigned)count[ci]);
            }
        } else if (count[ci] > NAR_COPIES_MAX) {
            arb_deck_issue_add(out, cap, &n, 0, (c->flags & NAR_UNIQUE) ? "NAR-DECK-UNIQUE-DECK" : "NAR-DECK-COPIES",
                               "%s: %u copies; at most %d are allowed%s", c->pub.name, (unsigned)count[ci],
                               NAR_COPIES_MAX, (c->flags & NAR_UNIQUE) ? " (Unique)" : "");
        }
    }
    if (ztotal > NAR_Z_TOTAL_MAX) {
        arb_deck_issue_add(out, cap, &n, 0, "NAR-DECK-Z-TOTAL", "%u Classified (Z) cards; at most %d per deck", ztotal,
                           NAR_Z_TOTAL_MAX);
    }
    /* The warnings come last, after every error (setup reads only the first issue). */
    if (bloc == NAR_BLOC_DEFENSE && nop == 0)
        arb_deck_issue_add(out, cap, &n, 1, "NAR-DECK-WARN-DEFENSE", "NO_OPERATOR: this DEFENSE deck has no OPERATOR (legal)");
    if (bloc == NAR_BLOC_ASSAULT && nraid == 0)
        arb_deck_issue_add(out, cap, &n, 1, "NAR-DECK-WARN-ASSAULT", "NO_RAIDER: this ASSAULT deck has no RAIDER (legal)");
    return n;
}
