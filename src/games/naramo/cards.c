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

const nar_carddef arb_naramo__cards[] = {
    /* catalog pool */
    {"coolant-pumps", "Coolant Pumps", FA, NAR_F_NEUTRAL, 0, 1, 0, 0, -1, -1, NAR_FX_SS_CORE100, "Common",
     "SHIFT START: your core -100 K."},
    {"control-room", "Control Room", FA, NAR_F_NEUTRAL, 0, 2, 0, 0, -1, -1, NAR_FX_SS_CLEARANCE, "Uncommon",
     "SHIFT START: your Clearance rises one step (D->C->B->A; no effect at A)."},
    {"reactor-hall", "Reactor Hall", FA, NAR_F_NEUTRAL, 0, 2, 0, 0, -1, -1, NAR_FX_SS_REACTOR_HALL, "Uncommon",
     "SHIFT START: if your core >= 1,600 K, +1 Power Order. OVERHEAT: -1 Power Order (min 0)."},
    {"emergency-diesel-generators", "Emergency Diesel Generators", FA, NAR_F_NEUTRAL, 0, 2, 0, 0, -1, -1, NAR_FX_EDG, "Uncommon",
     "Once per your shift, on demand: +1 Swipe (may exceed 6)."},
    {"switchyard", "Switchyard", FA, NAR_F_NEUTRAL, 0, 0, 0, 0, -1, -1, NAR_FX_NONE, "Common", ""},
    {"gubby", "Gubby", IN, NAR_F_NEUTRAL, 0, 0, 0, 0, 2, -1, NAR_FX_AL_GUBBY, "Rare",
     "ALARM: discard 1 card of your choice, or your core +100 K. CLEAR 2."},
    {"steam-leak", "Steam Leak", IN, NAR_F_NEUTRAL, 0, 0, 0, 0, 1, 2, NAR_FX_AL_CORE100, "Common",
     "ALARM: your core +100 K. DURATION 2. CLEAR 1."},
    {"relay-trip", "Relay Trip", IN, NAR_F_NEUTRAL, 0, 0, 0, 0, 1, 1, NAR_FX_AL_RELAY, "Common",
     "ALARM: if your core >= 1,700 K, +1 HACK counter. DURATION 1. CLEAR 1."},
    {"grid-blackout", "Grid Blackout", IN, NAR_F_NEUTRAL, NAR_SITEWIDE, 0, 0, 0, 3, 3, NAR_FX_AL_CORE50, "Uncommon",
     "SITE-WIDE. ALARM: your core +50 K. DURATION 3. CLEAR 3."},
    {"shift-engineer", "Shift Engineer", P, NAR_F_DOE, NAR_OPERATOR, 1, 0, 0, -1, -1, NAR_FX_EXH_CORE50, "Common",
     "OPERATOR. Exhaust: your core -50 K."},
    {"station-guard", "Station Guard", P, NAR_F_SECFOR, 0, 1, 0, 0, -1, -1, NAR_FX_NONE, "Common", ""},
    {"plant-director", "Plant Director", P, NAR_F_STRATO, NAR_COMMANDER, 2, 1, 0, -1, -1, NAR_FX_NONE, "Uncommon",
     "COMMANDER."},
    {"noobian-raider", "Noobian Raider", P, NAR_F_NOOBIA, NAR_RAIDER, 1, 0, 150, -1, -1, NAR_FX_NONE, "Common",
     "RAIDER. STRIKE 150 K."},
    {"bloxian-infiltrator", "Bloxian Infiltrator", P, NAR_F_BLOXIAN, NAR_RAIDER, 2, 0, 100, -1, -1, NAR_FX_NONE, "Common",
     "RAIDER. STRIKE 100 K."},
    {"bloxian-warlord", "Bloxian Warlord", P, NAR_F_BLOXIAN, NAR_COMMANDER, 2, 0, 0, -1, -1, NAR_FX_NONE, "Uncommon",
     "COMMANDER."},
    {"chief-engineer-vessa", "Chief Engineer Vessa", P, NAR_F_DOE, NAR_OPERATOR | NAR_UNIQUE, 2, 0, 0, -1, -1, NAR_FX_NONE, "Rare",
     "OPERATOR. Unique."},
    {"intern", "Intern", P, NAR_F_NEUTRAL, 0, 0, 0, 0, -1, -1, NAR_FX_NONE, "Common", ""},
    {"dosimeter", "Dosimeter", EQ, NAR_F_NEUTRAL, NAR_TARGETED, 1, 0, 0, -1, -1, NAR_FX_NONE, "Common",
     "Attach to one of your Personnel."},
    {"emergency-venting", "Emergency Venting", PR, NAR_F_NEUTRAL, NAR_ACT, 1, 0, 0, -1, -1, NAR_FX_PR_CORE100, "Common",
     "ACT. Your core -100 K."},
    {"boron-injection", "Boron Injection", PR, NAR_F_NEUTRAL, NAR_ACT, 0, 0, 0, -1, -1, NAR_FX_PR_CORE50, "Common",
     "ACT. Your core -50 K."},
    {"defense-in-depth", "Defense in Depth", PR, NAR_F_DOE, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_DID, "Uncommon",
     "DOCTRINE. Until your next Shift End, strike heat dealt to you is reduced by 100 K."},
    {"raid-doctrine", "Raid Doctrine", PR, NAR_F_BLOXIAN, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_DRAW, "Uncommon",
     "DOCTRINE. Draw 1 card."},
    {"work-order", "Work Order", PR, NAR_F_NEUTRAL, 0, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, "Common", "Draw 1 card."},
    {"classified-dossier-z-1", "Classified Dossier Z-1", PR, NAR_F_NEUTRAL, NAR_CLASSIFIED, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, "Rare",
     "Classified (Z). Draw 1 card."},
    {"classified-dossier-z-2", "Classified Dossier Z-2", PR, NAR_F_NEUTRAL, NAR_CLASSIFIED, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, "Rare",
     "Classified (Z). Draw 1 card."},
    {"classified-dossier-z-3", "Classified Dossier Z-3", PR, NAR_F_NEUTRAL, NAR_CLASSIFIED, 0, 0, 0, -1, -1, NAR_FX_PR_DRAW, "Rare",
     "Classified (Z). Draw 1 card."},
    /* invented for faction depth */
    {"reactor-physicist", "Reactor Physicist", P, NAR_F_DOE, NAR_OPERATOR, 2, 1, 0, -1, -1, NAR_FX_EXH_CORE100, "Uncommon",
     "OPERATOR. Exhaust: your core -100 K."},
    {"spent-fuel-pool", "Spent Fuel Pool", FA, NAR_F_DOE, 0, 1, 0, 0, -1, -1, NAR_FX_SS_CORE50, "Common",
     "SHIFT START: your core -50 K."},
    {"riot-squad", "Riot Squad", P, NAR_F_SECFOR, 0, 2, 0, 0, -1, -1, NAR_FX_EXH_HACK, "Common",
     "Exhaust: remove 1 HACK counter from your SKALA panel."},
    {"firewall-patch", "Firewall Patch", PR, NAR_F_SECFOR, NAR_ACT, 1, 0, 0, -1, -1, NAR_FX_PR_HACK, "Common",
     "ACT. Remove 1 HACK counter from your SKALA panel."},
    {"body-armor", "Body Armor", EQ, NAR_F_SECFOR, NAR_TARGETED, 1, 0, 0, -1, -1, NAR_FX_NONE, "Common",
     "Attach to one of your Personnel."},
    {"political-officer", "Political Officer", P, NAR_F_STRATO, NAR_COMMANDER, 1, 0, 0, -1, -1, NAR_FX_NONE, "Common",
     "COMMANDER."},
    {"ministry-directive", "Ministry Directive", PR, NAR_F_STRATO, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_CORE150, "Uncommon",
     "DOCTRINE. Your core -150 K."},
    {"noobian-sapper", "Noobian Sapper", P, NAR_F_NOOBIA, NAR_RAIDER, 2, 0, 200, -1, -1, NAR_FX_NONE, "Uncommon",
     "RAIDER. STRIKE 200 K."},
    {"breaching-charge", "Breaching Charge", EQ, NAR_F_NOOBIA, NAR_TARGETED, 1, 0, 50, -1, -1, NAR_FX_EQ_STRIKE, "Common",
     "Attach to one of your Personnel. Its STRIKE +50 K."},
    {"noobian-captain", "Noobian Captain", P, NAR_F_NOOBIA, NAR_COMMANDER, 2, 0, 0, -1, -1, NAR_FX_NONE, "Uncommon",
     "COMMANDER."},
    {"blitz-orders", "Blitz Orders", PR, NAR_F_NOOBIA, NAR_DOCTRINE, 1, 0, 0, -1, -1, NAR_FX_PR_READY_RAIDERS, "Uncommon",
     "DOCTRINE. Ready all your EXHAUSTED RAIDERs."},
    {"bloxian-hacker", "Bloxian Hacker", P, NAR_F_BLOXIAN, NAR_RAIDER, 1, 0, 50, -1, -1, NAR_FX_NONE, "Common",
     "RAIDER. STRIKE 50 K."},
    {"logic-bomb", "Logic Bomb", PR, NAR_F_BLOXIAN, NAR_ACT, 1, 0, 0, -1, -1, NAR_FX_PR_OPP_HACK, "Uncommon",
     "ACT. The opponent gets +1 HACK counter."},
    {"reassignment", "Reassignment", PR, NAR_F_NEUTRAL, NAR_TARGETED, 0, 0, 0, -1, -1, NAR_FX_PR_REASSIGN, "Common",
     "Target one of your Personnel: it leaves play (to your discard, with its Equipment)."},
};
const unsigned arb_naramo__ncards = sizeof arb_naramo__cards / sizeof arb_naramo__cards[0];

static const char *const type_names[] = {"Personnel", "Equipment", "Facility", "Procedure", "Incident"};
static const char *const faction_names[] = {"Neutral", "DOE", "SECFOR", "Stratocracy", "West Noobia", "Bloxian"};
static const uint8_t faction_bloc[] = {0, NAR_BLOC_DEFENSE, NAR_BLOC_DEFENSE, NAR_BLOC_DEFENSE,
                                       NAR_BLOC_ASSAULT, NAR_BLOC_ASSAULT};

#define NCARDS_STATIC (sizeof arb_naramo__cards / sizeof arb_naramo__cards[0])
_Static_assert(NCARDS_STATIC == NAR_NCARDS, "NAR_NCARDS must match the pool");
/* arb_card holds pointers into the table above, which C cannot express
 * as a constant initializer of a second array; fill on first use. */
static arb_card pub[NCARDS_STATIC];
static int pub_ready;

const arb_card *arb_naramo__card(unsigned idx)
{
    if (idx >= arb_naramo__ncards) return NULL;
    if (!pub_ready) {
        for (unsigned i = 0; i < arb_naramo__ncards; i++) {
            const nar_carddef *c = &arb_naramo__cards[i];
            pub[i].id = c->id;
            pub[i].name = c->name;
            pub[i].type = type_names[c->type];
            pub[i].group = faction_names[c->faction];
            pub[i].text = c->text;
        }
        pub_ready = 1;
    }
    return &pub[idx];
}

void arb_naramo__card_export(unsigned idx, arb_tree *t, arb_tnode *parent)
{
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

typedef struct preset_line { const char *id; int n; } preset_line;
typedef struct preset_def { const char *name, *bloc; preset_line lines[24]; } preset_def;

static const preset_def preset_defs[] = {
    {"defense-doe", "DEFENSE", {
        {"shift-engineer", 3}, {"reactor-physicist", 3}, {"chief-engineer-vessa", 2},
        {"political-officer", 2}, {"plant-director", 1}, {"defense-in-depth", 3},
        {"coolant-pumps", 3}, {"control-room", 2}, {"reactor-hall", 3},
        {"emergency-diesel-generators", 1}, {"spent-fuel-pool", 2}, {"emergency-venting", 3},
        {"boron-injection", 2}, {"work-order", 2}, {"gubby", 2}, {"steam-leak", 2},
        {"relay-trip", 1}, {"grid-blackout", 1}, {"classified-dossier-z-1", 1},
        {"dosimeter", 1}, {NULL, 0}}},
    {"defense-secfor", "DEFENSE", {
        {"station-guard", 3}, {"riot-squad", 3}, {"shift-engineer", 3}, {"political-officer", 3},
        {"ministry-directive", 3}, {"firewall-patch", 2}, {"body-armor", 2},
        {"coolant-pumps", 3}, {"reactor-hall", 3}, {"switchyard", 2},
        {"emergency-diesel-generators", 1}, {"emergency-venting", 3}, {"boron-injection", 1},
        {"gubby", 2}, {"steam-leak", 3}, {"grid-blackout", 1}, {"intern", 1},
        {"classified-dossier-z-2", 1}, {NULL, 0}}},
    {"assault-noobia", "ASSAULT", {
        {"noobian-raider", 3}, {"noobian-sapper", 3}, {"noobian-captain", 2}, {"breaching-charge", 3},
        {"blitz-orders", 3}, {"coolant-pumps", 3}, {"reactor-hall", 3}, {"switchyard", 2},
        {"emergency-venting", 3}, {"boron-injection", 2}, {"gubby", 3}, {"steam-leak", 3},
        {"relay-trip", 2}, {"grid-blackout", 1}, {"work-order", 2}, {"intern", 1},
        {"emergency-diesel-generators", 1}, {NULL, 0}}},
    {"assault-bloxian", "ASSAULT", {
        {"bloxian-infiltrator", 3}, {"bloxian-hacker", 3}, {"bloxian-warlord", 2},
        {"raid-doctrine", 3}, {"logic-bomb", 3}, {"noobian-raider", 2}, {"coolant-pumps", 3},
        {"reactor-hall", 3}, {"control-room", 1}, {"switchyard", 2}, {"emergency-venting", 3},
        {"gubby", 3}, {"steam-leak", 2}, {"relay-trip", 3}, {"work-order", 2},
        {"dosimeter", 1}, {"classified-dossier-z-3", 1}, {NULL, 0}}},
};
#define NPRESETS (sizeof preset_defs / sizeof preset_defs[0])
_Static_assert(NPRESETS == NAR_NPRESETS, "NAR_NPRESETS must match the preset table");

static arb_deck presets[NPRESETS];
static int presets_ready;

static int card_index(const char *id)
{
    for (unsigned i = 0; i < arb_naramo__ncards; i++)
        if (strcmp(arb_naramo__cards[i].id, id) == 0) return (int)i;
    return -1;
}

static void build_presets(void)
{
    for (unsigned p = 0; p < NPRESETS; p++) {
        arb_deck *d = &presets[p];
        memset(d, 0, sizeof *d);
        snprintf(d->name, sizeof d->name, "%s", preset_defs[p].name);
        for (const preset_line *l = preset_defs[p].lines; l->id; l++) {
            int ci = card_index(l->id);
            for (int k = 0; ci >= 0 && k < l->n && d->ncards < ARB_DECK_MAX; k++)
                d->cards[d->ncards++] = (uint16_t)ci;
        }
        arb_deck_attr_set(d, "name", preset_defs[p].name);
        arb_deck_attr_set(d, "bloc", preset_defs[p].bloc);
    }
    presets_ready = 1;
}

unsigned arb_naramo__npresets(void) { return (unsigned)NPRESETS; }

const arb_deck *arb_naramo__preset(unsigned idx)
{
    if (idx >= NPRESETS) return NULL;
    if (!presets_ready) build_presets();
    return &presets[idx];
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

static void issue(arb_deck_issue *out, unsigned cap, unsigned *n, int warning,
                  const char *rule, const char *msg)
{
    if (*n < cap) {
        arb_deck_issue *is = &out[*n];
        is->warning = warning;
        snprintf(is->rule, sizeof is->rule, "%s", rule);
        snprintf(is->msg, sizeof is->msg, "%s", msg);
    }
    (*n)++;
}

unsigned arb_naramo__deck_check(const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    unsigned n = 0;
    char m[160];
    uint16_t count[NCARDS_STATIC];
    memset(count, 0, sizeof count);
    if (d->ncards != NAR_DECK_SIZE) {
        snprintf(m, sizeof m, "the deck has %u cards; exactly %d are required", (unsigned)d->ncards, NAR_DECK_SIZE);
        issue(out, cap, &n, 0, "NAR-DECK-SIZE", m);
    }
    int bloc = arb_naramo__bloc(d);
    const char *b = arb_deck_attr_get(d, "bloc");
    if (bloc == NAR_BLOC_NONE) {
        if (b) snprintf(m, sizeof m, "bloc '%.60s' is neither DEFENSE nor ASSAULT", b);
        else snprintf(m, sizeof m, "no bloc declared (add 'bloc: DEFENSE' or 'bloc: ASSAULT')");
        issue(out, cap, &n, 0, "NAR-DECK-BLOC-DECLARE", m);
    }
    unsigned ztotal = 0, nop = 0, nraid = 0;
    for (unsigned i = 0; i < d->ncards && i < ARB_DECK_MAX; i++) {
        unsigned ci = d->cards[i];
        if (ci >= arb_naramo__ncards) {
            snprintf(m, sizeof m, "card index %u is not in the NARAMO pool", ci);
            issue(out, cap, &n, 0, "NAR-CARDTYPES-FIVE", m);
            continue;
        }
        const nar_carddef *c = &arb_naramo__cards[ci];
        if (count[ci]++ == 0 && bloc != NAR_BLOC_NONE && c->faction != NAR_F_NEUTRAL &&
            faction_bloc[c->faction] != bloc) {
            snprintf(m, sizeof m, "%s (%s) is not legal in a %s deck", c->name,
                     faction_names[c->faction], bloc == NAR_BLOC_DEFENSE ? "DEFENSE" : "ASSAULT");
            issue(out, cap, &n, 0, "NAR-DECK-BLOC-ONLY", m);
        }
        if (c->flags & NAR_CLASSIFIED) ztotal++;
        if (c->flags & NAR_OPERATOR) nop++;
        if (c->flags & NAR_RAIDER) nraid++;
    }
    for (unsigned ci = 0; ci < arb_naramo__ncards; ci++) {
        const nar_carddef *c = &arb_naramo__cards[ci];
        if (c->flags & NAR_CLASSIFIED) {
            if (count[ci] > 1) {
                snprintf(m, sizeof m, "%s: %u copies; a Classified (Z) card allows 1", c->name, (unsigned)count[ci]);
                issue(out, cap, &n, 0, "NAR-DECK-Z-COPY", m);
            }
        } else if (count[ci] > NAR_COPIES_MAX) {
            snprintf(m, sizeof m, "%s: %u copies; at most %d are allowed%s", c->name, (unsigned)count[ci],
                     NAR_COPIES_MAX, (c->flags & NAR_UNIQUE) ? " (Unique)" : "");
            issue(out, cap, &n, 0, (c->flags & NAR_UNIQUE) ? "NAR-DECK-UNIQUE-DECK" : "NAR-DECK-COPIES", m);
        }
    }
    if (ztotal > NAR_Z_TOTAL_MAX) {
        snprintf(m, sizeof m, "%u Classified (Z) cards; at most %d per deck", ztotal, NAR_Z_TOTAL_MAX);
        issue(out, cap, &n, 0, "NAR-DECK-Z-TOTAL", m);
    }
    if (bloc == NAR_BLOC_DEFENSE && nop == 0)
        issue(out, cap, &n, 1, "NAR-DECK-WARN-DEFENSE", "NO_OPERATOR: this DEFENSE deck has no OPERATOR (legal)");
    if (bloc == NAR_BLOC_ASSAULT && nraid == 0)
        issue(out, cap, &n, 1, "NAR-DECK-WARN-ASSAULT", "NO_RAIDER: this ASSAULT deck has no RAIDER (legal)");
    return n;
}
