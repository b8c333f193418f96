/* operator.h — internals shared by the OPERATOR TCG engine's files: the card
 * record, the fixed-size match state, phase/decision/event/verb numbering
 * and the house constants. Rulebook: seeds/003_b1064af7a671db4e.txt; rule
 * IDs (OPS-…) and gap IDs (OPS-Gnn) from rules-catalog.md, interpretations
 * in conformance/operator/interpretations.md. Nothing here is public API. */
#ifndef ARB_GAMES_OPERATOR_H
#define ARB_GAMES_OPERATOR_H

#include <stdint.h>

#include "arbiter/game.h"
#include "arbiter/toolkit.h"

extern const arb_game arb_game_operator; /* game.c */

/* ---- house constants (all in one place) --------------------------------- */
#define OPS_DECK_CARDS 40       /* OPS-DECK-SIZE: 40 + the Operator card */
#define OPS_DECK_POINTS 60      /* OPS-DECK-POINTS */
#define OPS_START_HEALTH 20     /* OPS-SETUP-HP; also the heal cap (OPS-G22) */
#define OPS_OPEN_DRAW 4         /* OPS-SETUP-DRAW4 */
#define OPS_MAX_REACTIONS 2     /* OPS-COMBAT-STEP5-MAX2 */
#define OPS_TURN_CAP 200        /* house rule OPS-G31: turn 201 never starts → draw */
/* Most actions a match holds (arb_game.max_actions, FORMAT.md §8.1): the
 * turn cap times 256 decisions a turn (two Equip phases and a discard
 * bounded by the cards, one Action, at most 2 Reactions a seat; the longest
 * of the golden corpus and 300 self-play (2 and 4 seats) matches: 653
 * actions in 139 turns). */
#define OPS_MAX_ACTIONS (OPS_TURN_CAP * 256u)
#define OPS_MAX_CARDS 64        /* per seat (setup always has 41; positions may have more) */
#define OPS_MAX_MODS 8          /* Modifiers under one item (OPS-G19 "as needed", bounded) */
#define OPS_MAX_HEALTH_POS 99   /* bound on Health in a loaded position */
#define OPS_MAX_SD 99           /* bound on Staged Damage tokens */
#define OPS_NCARDS 31           /* cards in the pool (checked in cards.c) */
#define OPS_NPRESETS 4

/* ---- cards ---------------------------------------------------------------- */
enum {
    OPS_K_PERSONALITY, OPS_K_WEAPON, OPS_K_ARMOR, OPS_K_COVER, OPS_K_MODIFIER,
    OPS_K_MOVE, OPS_K_ACTION, OPS_K_BOOST, OPS_K_STRATEGIC
};
enum {
    OPS_F_RANGED = 1, OPS_F_CLOSE = 2, OPS_F_DUAL = 4, OPS_F_TWOHANDED = 8,
    OPS_F_REACTION = 16, OPS_F_MULTI = 32
};
enum { OPS_MT_NONE, OPS_MT_RANGED, OPS_MT_WEAPON, OPS_MT_ARMOR }; /* modifier targets */

typedef struct ops_card {
    arb_card pub;
    uint8_t kind, cost;
    uint8_t power;             /* weapon POWER */
    uint8_t defense;           /* Personality DEFENSE */
    uint8_t armor;             /* Armor value; Armor-modifier bonus */
    uint8_t cover;             /* Cover Value */
    uint8_t reduce;            /* reaction REDUCE n (OPS-G12) */
    uint8_t flags;
    uint8_t mod_target, mod_power, mod_cover, mod_ap, mod_sd;
    uint8_t boost_power, boost_attacks;
    uint8_t heal, end_draw, extra_move;
    uint8_t break_draw;        /* Armor: draw on break (OPS-ARMOR-KEYWORDS) */
    const char *fb_ranged;  uint8_t fb_ranged_power;   /* Personality (OPS-G04) */
    const char *fb_close;   uint8_t fb_close_power;
} ops_card;

extern const ops_card arb_operator__cards[];
extern const unsigned arb_operator__ncards;
const ops_card *arb_operator__card(unsigned idx);
const char *arb_operator__kind_name(unsigned kind);

/* ---- phases, decisions, slots --------------------------------------------- */
enum {
    OPS_PH_OPEN_DISCARD, OPS_PH_OPEN_EQUIP, OPS_PH_EQUIP1, OPS_PH_ACTION,
    OPS_PH_BOOST, OPS_PH_REACT, OPS_PH_EQUIP2, OPS_PH_OVER, OPS_PH_COUNT
};
/* Decision kinds (index into decision_names): kind = phase + 1, 0 = none. */
enum {
    OPS_D_NONE, OPS_D_OPENING_DISCARD, OPS_D_OPENING_EQUIP, OPS_D_FIRST_EQUIP, OPS_D_ACTION,
    OPS_D_BOOST, OPS_D_REACT, OPS_D_SECOND_EQUIP, OPS_D_OVER, OPS_D_COUNT
};
_Static_assert(OPS_D_COUNT == OPS_PH_COUNT + 1, "decision kind = phase + 1");
enum { OPS_SLOT_PERSONALITY, OPS_SLOT_WEAPON, OPS_SLOT_ARMOR, OPS_SLOT_COVER };
#define OPS_SLOTS 3 /* slots that hold Modifiers: Personality, weapon, armor */
enum { OPS_CT_RANGED_COVER, OPS_CT_RANGED_OPEN, OPS_CT_CLOSE };
enum { OPS_MODE_RANGED, OPS_MODE_CLOSE };
enum { OPS_SRC_FALLBACK, OPS_SRC_CARD };
enum { OPS_OPENED_WEAPON = 1, OPS_OPENED_COVER = 2, OPS_OPENED_ARMOR = 4 };
enum { OPS_MV_O2C, OPS_MV_C2O, OPS_MV_C2C };

/* Verbs: numbering is part of the replay format — append only. */
enum {
    OPS_V_DISCARD, OPS_V_EQUIP, OPS_V_DONE, OPS_V_MOVE, OPS_V_ATTACH, OPS_V_ATTACK,
    OPS_V_PLAY, OPS_V_PASS, OPS_V_BOOST, OPS_V_REACT,
    OPS_V_TIMEOUT, OPS_V_DISCONNECT, OPS_V_RECONNECT, OPS_V_COUNT
};

/* Events: numbering is part of the narration contract — append only. */
enum {
    OPS_E_SETUP, OPS_E_DRAW, OPS_E_DRAW_SKIP, OPS_E_RESHUFFLE, OPS_E_DISCARD, OPS_E_EQUIP,
    OPS_E_FIRST, OPS_E_TURN, OPS_E_PHASE, OPS_E_SD_TICK, OPS_E_MOVE, OPS_E_ATTACH,
    OPS_E_STRATEGIC, OPS_E_HEAL, OPS_E_PASS, OPS_E_ATTACK, OPS_E_ANNOUNCE, OPS_E_BOOST,
    OPS_E_COVER_CHECK, OPS_E_MISS, OPS_E_COVER_BROKEN, OPS_E_POWER, OPS_E_REACT,
    OPS_E_DAMAGE, OPS_E_ARMOR_BROKEN, OPS_E_SD_ADD, OPS_E_ELIMINATED, OPS_E_END_EFFECT,
    OPS_E_GAME_OVER, OPS_E_EXTRA_MOVE, OPS_E_OPEN_DONE, OPS_E_COUNT
};
/* Why a card went to a discard pile (OPS_E_DISCARD b). */
enum {
    OPS_DR_OPENING, OPS_DR_REPLACED, OPS_DR_MOVE, OPS_DR_USED, OPS_DR_BROKEN, OPS_DR_PLAYED,
    OPS_DR_COUNT
};
/* Named draw phases for OPS_E_PHASE (a). */
enum { OPS_PN_DRAW, OPS_PN_EQUIP1, OPS_PN_ACTION, OPS_PN_COMBAT, OPS_PN_EQUIP2, OPS_PN_END };

enum { OPS_R_NONE, OPS_R_ELIMINATION, OPS_R_MUTUAL, OPS_R_TURN_CAP, OPS_R_COUNT };

/* ---- state ------------------------------------------------------------------ */
#define OPS_NONE8 ((int8_t)-1)

typedef struct ops_player {
    uint16_t card[OPS_MAX_CARDS];     /* pool index by UID */
    uint8_t ncards;
    uint8_t personality;              /* UID */
    uint8_t ndeck, nhand, ndiscard;
    uint8_t deck[OPS_MAX_CARDS];      /* deck[ndeck-1] is the top */
    uint8_t hand[OPS_MAX_CARDS];
    uint8_t discard[OPS_MAX_CARDS];   /* discard[ndiscard-1] is the top */
    int8_t cover, weapon, armor;      /* UID or -1 */
    uint8_t nmods[OPS_SLOTS];
    uint8_t mods[OPS_SLOTS][OPS_MAX_MODS];
    int16_t health;
    uint8_t sd;                       /* Staged Damage tokens */
    uint8_t eliminated;
    uint8_t opened;                   /* OPS_OPENED_* used in the opening */
} ops_player;

typedef struct ops_combat {
    int8_t target;                    /* -1: no combat */
    uint8_t type, mode, source;
    int8_t wuid;                      /* card weapon UID, or -1 for the fallback */
    int8_t boost;                     /* boost UID or -1 */
    uint8_t reactions;
    uint8_t ap;                       /* Armour Piercing applies */
    uint8_t sd;                       /* Staged Damage on hit */
    int16_t power;                    /* effective POWER (DUAL, Modifiers, Boost) */
    int16_t cover_total;              /* Step 3 total, -1 when skipped */
    int16_t attack;                   /* Step 4 total */
    int16_t absorbed;                 /* by Armor */
    int16_t damage;                   /* remaining damage (reactions lower it) */
} ops_combat;

typedef struct ops_state {
    arb_rng rng;
    uint8_t players;
    uint8_t phase;
    int8_t owner;                     /* seat owing the decision, -2 when over */
    uint8_t active;                   /* whose turn */
    uint8_t first;                    /* first player */
    uint32_t turn;                    /* 0 during the opening, then 1.. */
    uint8_t moves_used, moves_allowed;
    uint8_t attacks_made, attacks_allowed;
    uint8_t attacked;                 /* bitmask of seats attacked this turn */
    uint8_t acted;                    /* Action Phase choice made */
    uint8_t end_draws;                /* Field Radio draws owed at End Turn */
    ops_combat cb;
    uint8_t over;
    int8_t winner;
    uint8_t reason;
    ops_player p[ARB_MAX_SEATS];
} ops_state;

/* ---- cross-file internals -------------------------------------------------- */
extern const arb_verb arb_operator__verbs[OPS_V_COUNT];
extern const char *const arb_operator__decision_names[OPS_D_COUNT];
extern const char *const arb_operator__event_names[OPS_E_COUNT];
extern const char *const arb_operator__reason_names[OPS_R_COUNT];
extern const char *const arb_operator__phase_names[OPS_PH_COUNT];
extern const char *const arb_operator__combat_types[];

unsigned arb_operator__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap);
unsigned arb_operator__npresets(void);
const arb_deck *arb_operator__preset(const arb_game *g, unsigned idx);
const arb_card *arb_operator__pubcard(const arb_game *g, unsigned idx);
void arb_operator__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent);

int arb_operator__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err);
arb_decision arb_operator__decision(const arb_game *g, const void *st);
size_t arb_operator__legal(const arb_game *g, const void *st, arb_action *out, size_t cap);
int arb_operator__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err);
uint64_t arb_operator__hash(const arb_game *g, const void *st);
int arb_operator__outcome(const arb_game *g, const void *st, arb_outcome *out);
uint32_t arb_operator__turn(const arb_game *g, const void *st);
const char *arb_operator__phase(const arb_game *g, const void *st);

void arb_operator__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root);
int arb_operator__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err);

int arb_operator__event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size);
int arb_operator__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size);

size_t arb_operator__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng);

/* Rules helpers shared with export/agent. */
static inline const ops_card *ops_uc(const ops_player *p, int uid)
{
    return arb_operator__card(p->card[uid]);
}
int arb_operator__in_cover(const ops_player *p);
/* Weapon the seat would use now in mode: sets *src, *wuid; returns POWER
 * after DUAL (not counting Modifiers/Boost). */
int arb_operator__weapon_for(const ops_state *s, int seat, int mode, int *src, int *wuid);
int arb_operator__dual_doubles(const ops_state *s, int seat, int wuid);

#endif
