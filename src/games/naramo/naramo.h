/* naramo.h — internal state and cross-file declarations of the NARAMO engine.
 *
 * The match state is one fixed-size plain struct (memcpy clones it, no
 * pointers), holding both players' zones as small uid arrays, the counters
 * of the Reactor, the open prompt and its sub-state, the clocks and the
 * PRNG. Cards are named by uid = index into the owner's card list. All
 * house constants (interpretations of gaps G01–G29) live in this file. */
#ifndef NARAMO_INTERNAL_H
#define NARAMO_INTERNAL_H

#include <stdint.h>

#include "arbiter/game.h"
#include "arbiter/toolkit.h"

extern const arb_game arb_game_naramo; /* game.c */

/* ---- house constants (conformance/naramo/interpretations.md) ---------- */
#define NAR_NOMINAL_K      1420   /* setup core, SCRAM target (L4, G06) */
#define NAR_BASELOAD_K      150   /* L11 */
#define NAR_BASELOAD_HACK_K 200   /* L11, with NAR_HACK_THRESHOLD+ counters */
#define NAR_HACK_THRESHOLD    3
#define NAR_OVERHEAT_K     2400   /* L14, also the SCRAM band (G04) */
#define NAR_MELTDOWN_K     3000   /* G02 */
#define NAR_PO_TARGET         7   /* G02 */
#define NAR_SWIPES_BASE       2
#define NAR_SWIPES_CAP        6
#define NAR_ROSTER_MAX        7
#define NAR_SITE_MAX          6
#define NAR_BOARD_MAX         3
#define NAR_HAND_END          7
#define NAR_OPEN_DRAW         6
#define NAR_DECK_SIZE        40
#define NAR_COPIES_MAX        3
#define NAR_Z_TOTAL_MAX       2
#define NAR_CLOCK_MS      90000   /* per shift and per Roster Review (L38) */
#define NAR_GRACE_MS      60000   /* reconnect grace (L38) */
#define NAR_FORFEIT_TIMEOUTS  3
#define NAR_DID_REDUCE_K    100   /* Defense in Depth */
#define NAR_GUBBY_K         100
#define NAR_REACTOR_HALL_K 1600   /* Reactor Hall: +1 Power Order at or above */
#define NAR_RELAY_TRIP_K   1700   /* Relay Trip: +1 HACK at or above */
#define NAR_COUNTER_MAX     255   /* HACK, Power Orders and timeouts saturate here */
#define NAR_CLEARANCE_A       3   /* clearance 0=D 1=C 2=B 3=A */

/* ---- bounds of a loaded position (not rules: what the state can hold) -- */
#define NAR_CORE_LOAD_MAX_K   1000000 /* core temperature in a position */
#define NAR_STRIKE_LOAD_MAX_K   30000 /* a pending strike's heat (fits int16) */

/* ---- sizes ---------------------------------------------------------- */
#define NAR_CARDS    64     /* uids per seat (positions may hold up to 64) */
/* Most actions a match holds (arb_game.max_actions, FORMAT.md §8.1): a seat
 * draws at every shift but the first and loses when it cannot (G16), so a
 * match has at most 2 x (NAR_CARDS + 1) shifts; 512 decisions a shift is far
 * above any seen (the longest of the golden corpus and 300 self-play
 * matches: 894 actions in 65 shifts). */
#define NAR_MAX_ACTIONS (2u * (NAR_CARDS + 1) * 512u)
#define NAR_EFFECTS   4
#define NAR_NCARDS   40     /* cards in the pool (checked in cards.c) */
#define NAR_NPRESETS  4

enum { NAR_T_PERSONNEL, NAR_T_EQUIPMENT, NAR_T_FACILITY, NAR_T_PROCEDURE, NAR_T_INCIDENT };
enum { NAR_F_NEUTRAL, NAR_F_DOE, NAR_F_SECFOR, NAR_F_STRATO, NAR_F_NOOBIA, NAR_F_BLOXIAN };
enum { NAR_BLOC_NONE, NAR_BLOC_DEFENSE, NAR_BLOC_ASSAULT };

/* flags of a card definition */
#define NAR_OPERATOR   0x001u
#define NAR_RAIDER     0x002u
#define NAR_COMMANDER  0x004u
#define NAR_ACT        0x008u
#define NAR_DOCTRINE   0x010u
#define NAR_SITEWIDE   0x020u
#define NAR_UNIQUE     0x040u
#define NAR_CLASSIFIED 0x080u
#define NAR_TARGETED   0x100u   /* play needs TARGET = own roster uid */

/* effect codes; the amount of a *_CORE effect is card data (core_k) */
enum {
    NAR_FX_NONE,
    NAR_FX_SS_CORE, NAR_FX_SS_CLEARANCE, NAR_FX_SS_REACTOR_HALL,
    NAR_FX_EDG,
    NAR_FX_EXH_CORE, NAR_FX_EXH_HACK,
    NAR_FX_PR_CORE, NAR_FX_PR_DID, NAR_FX_PR_DRAW,
    NAR_FX_PR_HACK, NAR_FX_PR_OPP_HACK, NAR_FX_PR_READY_RAIDERS, NAR_FX_PR_REASSIGN,
    NAR_FX_AL_GUBBY, NAR_FX_AL_CORE, NAR_FX_AL_RELAY,
    NAR_FX_EQ_STRIKE
};

typedef struct nar_carddef {
    arb_card pub;               /* id, name, type and faction as printed, text */
    uint8_t type, faction;
    uint16_t flags;
    uint8_t cost, clr;          /* Swipes; clearance 0=D 1=C 2=B 3=A */
    int16_t strike;             /* RAIDER STRIKE K, or Equipment STRIKE bonus */
    int8_t clear, duration;     /* Incidents; -1 = none */
    uint8_t effect;
    int16_t core_k;             /* the *_CORE effects: the owner's core change in K */
    const char *rarity;
} nar_carddef;

extern const nar_carddef arb_naramo__cards[];
extern const unsigned arb_naramo__ncards;

/* Decision kinds (index into decision_names). */
enum {
    NAR_D_REVIEW, NAR_D_ORDER, NAR_D_OPS, NAR_D_BLOCK, NAR_D_STRIKE, NAR_D_ALARM, NAR_D_DEPLOY,
    NAR_D_CLEAR, NAR_D_DISCARD, NAR_D_RECONNECT, NAR_D_OVER, NAR_D_COUNT
};

/* Verbs (replay codes: append only). */
enum {
    NAR_V_REVIEW, NAR_V_KEEP, NAR_V_ORDER, NAR_V_PLAY, NAR_V_STATION, NAR_V_RECALL, NAR_V_STRIKE,
    NAR_V_EXHAUST, NAR_V_SCRAM, NAR_V_EDG, NAR_V_END, NAR_V_GUBBY_DISCARD, NAR_V_GUBBY_HEAT,
    NAR_V_DEPLOY, NAR_V_DECLINE, NAR_V_CLEAR, NAR_V_DONE, NAR_V_BLOCK, NAR_V_NOBLOCK, NAR_V_HEAT,
    NAR_V_HACK, NAR_V_DISCARD, NAR_V_TIMEOUT, NAR_V_DISCONNECT, NAR_V_RECONNECT, NAR_V_COUNT
};

/* Events (index into event_names). */
enum {
    NAR_E_INIT_REACTORS, NAR_E_SHUFFLE, NAR_E_DRAW, NAR_E_DRAW_EMPTY, NAR_E_REVIEW, NAR_E_KEEP,
    NAR_E_FIRST_PLAYER, NAR_E_SEVENTH_CARD, NAR_E_SHIFT_BEGIN, NAR_E_REPORT_IN, NAR_E_BASE_LOAD,
    NAR_E_BASE_LOAD_SKIPPED, NAR_E_SSE, NAR_E_CORE, NAR_E_CLEARANCE, NAR_E_PO, NAR_E_HACK,
    NAR_E_SWIPES, NAR_E_PLAY, NAR_E_STATION, NAR_E_RECALL, NAR_E_STRIKE, NAR_E_BLOCK, NAR_E_NOBLOCK,
    NAR_E_TAKE_HEAT, NAR_E_TAKE_HACK, NAR_E_EXHAUST, NAR_E_SCRAM, NAR_E_EDG, NAR_E_END_SHIFT,
    NAR_E_ALARM, NAR_E_DEPLOY, NAR_E_DECLINE, NAR_E_CLEAR, NAR_E_CLEARS_DONE, NAR_E_PO_CHECK,
    NAR_E_OVERHEAT, NAR_E_DURATION, NAR_E_INCIDENT_DISCARD, NAR_E_DISCARD, NAR_E_EFFECT_END,
    NAR_E_SHUTDOWN_END, NAR_E_LEAVE_PLAY, NAR_E_TIMEOUT, NAR_E_FORFEIT, NAR_E_DISCONNECT,
    NAR_E_RECONNECT, NAR_E_GAME_OVER, NAR_E_COUNT
};

enum { NAR_R_NONE, NAR_R_MELTDOWN, NAR_R_POWER_ORDERS, NAR_R_DECK_OUT, NAR_R_TIMEOUTS,
       NAR_R_DISCONNECT, NAR_R_DRAW, NAR_R_COUNT };

#define NAR_F_EXHAUSTED 1u
#define NAR_F_STATIONED 2u
#define NAR_NOHOST 0xFFu

typedef struct nar_bentry {
    uint8_t owner, uid;
    int8_t duration;            /* -1: no DURATION */
    uint8_t pad_;
    uint32_t seq;
} nar_bentry;

typedef struct nar_effect {
    uint8_t uid, pad_[3];       /* the Procedure that created it */
    uint32_t until;             /* ends as this shift's Shift End begins */
} nar_effect;

typedef struct nar_player {
    int64_t disc_at;            /* match ms of the disconnect, -1 connected */
    int32_t core;
    uint32_t shutdown_until;
    uint16_t card[NAR_CARDS];
    uint8_t ncards, ndeck, nhand, nroster, nequip, nsite, ndiscard, nboard, neffects;
    uint8_t hack, po, clearance, swipes;
    uint8_t scram_used, shutdown, review_used, decked;
    uint8_t act_used, doctrine_used, edg_used, timeouts;
    uint8_t deck[NAR_CARDS];    /* deck[ndeck-1] is the top card */
    uint8_t hand[NAR_CARDS];
    uint8_t roster[NAR_ROSTER_MAX];
    uint8_t site[NAR_SITE_MAX];
    uint8_t equip[NAR_CARDS], equip_host[NAR_CARDS];
    uint8_t discard[NAR_CARDS];
    uint8_t flags[NAR_CARDS];   /* per uid: NAR_F_* (roster cards) */
    nar_bentry board[NAR_BOARD_MAX];
    nar_effect effects[NAR_EFFECTS];
} nar_player;

typedef struct nar_state {
    arb_rng rng;
    uint64_t match_ms;
    uint32_t shift_ms;
    uint32_t shift;             /* 0 during the Roster Reviews */
    uint32_t next_seq;
    int32_t alarm_seq;          /* last ALARM resolved this Incident phase, -1 */
    int16_t strike_value;
    int8_t strike_uid;          /* -1 none */
    int8_t alarm_owner, alarm_uid;
    int8_t active, first;
    uint8_t kind;               /* NAR_D_* of the open prompt (never NAR_D_RECONNECT) */
    uint8_t clock_on;
    uint8_t deployed;           /* 0 open, 1 declined, 2 deployed */
    uint8_t order_n;
    uint8_t order[NAR_SITE_MAX];
    uint8_t over, reason;
    int8_t winner;
    uint8_t rules;              /* rules version: 1 naramo-1, 2 naramo-2 (game.c) */
    nar_player p[2];
} nar_state;

/* cards.c */
const arb_card *arb_naramo__card(const arb_game *g, unsigned idx);
void arb_naramo__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent);
unsigned arb_naramo__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap);
unsigned arb_naramo__npresets(void);
const arb_deck *arb_naramo__preset(const arb_game *g, unsigned idx);
int arb_naramo__bloc(const arb_deck *d); /* NAR_BLOC_* */


/* rules.c */
int arb_naramo__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err);
arb_decision arb_naramo__decision(const arb_game *g, const void *st);
size_t arb_naramo__legal(const arb_game *g, const void *st, arb_action *out, size_t cap);
int arb_naramo__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err);
uint64_t arb_naramo__hash(const arb_game *g, const void *st);
int arb_naramo__outcome(const arb_game *g, const void *st, arb_outcome *out);
uint32_t arb_naramo__turn(const arb_game *g, const void *st);
const char *arb_naramo__phase(const arb_game *g, const void *st);
const char *arb_naramo__phase_of(unsigned kind);
int arb_naramo__owing_seat(const nar_state *s); /* seat of the open prompt */
int arb_naramo__strike_value(const nar_state *s, int seat, int uid);
int arb_naramo__can_ss_order(const nar_state *s);

/* export.c */
void arb_naramo__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root);
int arb_naramo__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err);

/* narrate.c */
int arb_naramo__event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size);
int arb_naramo__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size);

/* agent.c */
size_t arb_naramo__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng);

/* game.c: name tables */
extern const arb_verb arb_naramo__verbs[NAR_V_COUNT];
extern const char *const arb_naramo__decision_names[NAR_D_COUNT];
extern const char *const arb_naramo__event_names[NAR_E_COUNT];
extern const char *const arb_naramo__reason_names[NAR_R_COUNT];
extern const char *const arb_naramo__clearance_names[4];

static inline const nar_carddef *nar_def(const nar_player *p, int uid)
{
    return &arb_naramo__cards[p->card[uid]];
}

#endif
