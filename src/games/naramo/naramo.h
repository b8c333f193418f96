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

/* ---- sizes ---------------------------------------------------------- */
#define NAR_CARDS    64     /* uids per seat (positions may hold up to 64) */
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

/* effect codes */
enum {
    NAR_E_NONE,
    NAR_E_SS_CORE100, NAR_E_SS_CORE50, NAR_E_SS_CLEARANCE, NAR_E_SS_REACTOR_HALL,
    NAR_E_EDG,
    NAR_E_EXH_CORE50, NAR_E_EXH_CORE100, NAR_E_EXH_HACK,
    NAR_E_PR_CORE100, NAR_E_PR_CORE50, NAR_E_PR_CORE150, NAR_E_PR_DID, NAR_E_PR_DRAW,
    NAR_E_PR_HACK, NAR_E_PR_OPP_HACK, NAR_E_PR_READY_RAIDERS, NAR_E_PR_REASSIGN,
    NAR_E_AL_GUBBY, NAR_E_AL_CORE100, NAR_E_AL_RELAY, NAR_E_AL_CORE50,
    NAR_E_EQ_STRIKE
};

typedef struct nar_carddef {
    const char *id, *name;
    uint8_t type, faction;
    uint16_t flags;
    uint8_t cost, clr;          /* Swipes; clearance 0=D 1=C 2=B 3=A */
    int16_t strike;             /* RAIDER STRIKE K, or Equipment STRIKE bonus */
    int8_t clear, duration;     /* Incidents; -1 = none */
    uint8_t effect;
    const char *rarity;
    const char *text;
} nar_carddef;

extern const nar_carddef arb_naramo__cards[];
extern const unsigned arb_naramo__ncards;

/* Decision kinds (index into decision_names). */
enum {
    NK_REVIEW, NK_ORDER, NK_OPS, NK_BLOCK, NK_STRIKE, NK_ALARM, NK_DEPLOY,
    NK_CLEAR, NK_DISCARD, NK_RECONNECT, NK_OVER, NK__COUNT
};

/* Verbs (replay codes: append only). */
enum {
    NV_REVIEW, NV_KEEP, NV_ORDER, NV_PLAY, NV_STATION, NV_RECALL, NV_STRIKE,
    NV_EXHAUST, NV_SCRAM, NV_EDG, NV_END, NV_GUBBY_DISCARD, NV_GUBBY_HEAT,
    NV_DEPLOY, NV_DECLINE, NV_CLEAR, NV_DONE, NV_BLOCK, NV_NOBLOCK, NV_HEAT,
    NV_HACK, NV_DISCARD, NV_TIMEOUT, NV_DISCONNECT, NV_RECONNECT, NV__COUNT
};

/* Events (index into event_names). */
enum {
    NE_INIT_REACTORS, NE_SHUFFLE, NE_DRAW, NE_DRAW_EMPTY, NE_REVIEW, NE_KEEP,
    NE_FIRST_PLAYER, NE_SEVENTH_CARD, NE_SHIFT_BEGIN, NE_REPORT_IN, NE_BASE_LOAD,
    NE_BASE_LOAD_SKIPPED, NE_SSE, NE_CORE, NE_CLEARANCE, NE_PO, NE_HACK,
    NE_SWIPES, NE_PLAY, NE_STATION, NE_RECALL, NE_STRIKE, NE_BLOCK, NE_NOBLOCK,
    NE_TAKE_HEAT, NE_TAKE_HACK, NE_EXHAUST, NE_SCRAM, NE_EDG, NE_END_SHIFT,
    NE_ALARM, NE_DEPLOY, NE_DECLINE, NE_CLEAR, NE_CLEARS_DONE, NE_PO_CHECK,
    NE_OVERHEAT, NE_DURATION, NE_INCIDENT_DISCARD, NE_DISCARD, NE_EFFECT_END,
    NE_SHUTDOWN_END, NE_LEAVE_PLAY, NE_TIMEOUT, NE_FORFEIT, NE_DISCONNECT,
    NE_RECONNECT, NE_GAME_OVER, NE__COUNT
};

enum { NR_NONE, NR_MELTDOWN, NR_POWER_ORDERS, NR_DECK_OUT, NR_TIMEOUTS,
       NR_DISCONNECT, NR_DRAW, NR__COUNT };

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
    uint8_t kind;               /* NK_* of the open prompt (never NK_RECONNECT) */
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
const arb_card *arb_naramo__card(unsigned idx);
void arb_naramo__card_export(unsigned idx, arb_tree *t, arb_tnode *parent);
unsigned arb_naramo__deck_check(const arb_deck *d, arb_deck_issue *out, unsigned cap);
unsigned arb_naramo__npresets(void);
const arb_deck *arb_naramo__preset(unsigned idx);
int arb_naramo__bloc(const arb_deck *d); /* NAR_BLOC_* */

/* game.c: the rules version su asks for (1, 2, …), or <0 with err set */
int arb_naramo__rules(const arb_setup *su, arb_error *err);

/* rules.c */
int arb_naramo__setup(void *st, const arb_setup *su, arb_events *ev, arb_error *err);
arb_decision arb_naramo__decision(const void *st);
size_t arb_naramo__legal(const void *st, arb_action *out, size_t cap);
int arb_naramo__apply(void *st, const arb_action *a, arb_events *ev, arb_error *err);
uint64_t arb_naramo__hash(const void *st);
int arb_naramo__outcome(const void *st, arb_outcome *out);
uint32_t arb_naramo__turn(const void *st);
const char *arb_naramo__phase(const void *st);
const char *arb_naramo__phase_of(unsigned kind);
int arb_naramo__owing_seat(const nar_state *s); /* seat of the open prompt */
int arb_naramo__strike_value(const nar_state *s, int seat, int uid);
int arb_naramo__can_ss_order(const nar_state *s);

/* export.c */
void arb_naramo__export(const void *st, int view, arb_tree *t, arb_tnode *root);
int arb_naramo__load(void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err);

/* narrate.c */
int arb_naramo__event_text(const arb_event *ev, int view, char *buf, size_t size);
int arb_naramo__action_text(const void *st, const arb_action *a, char *buf, size_t size);

/* agent.c */
size_t arb_naramo__greedy(const void *st, const arb_action *legal, size_t n, arb_rng *rng);

/* game.c: name tables */
extern const arb_verb arb_naramo__verbs[NV__COUNT];
extern const char *const arb_naramo__decision_names[NK__COUNT];
extern const char *const arb_naramo__event_names[NE__COUNT];
extern const char *const arb_naramo__outcome_names[NR__COUNT];
extern const char *const arb_naramo__clearance_names[4];

static inline const nar_carddef *nar_def(const nar_player *p, int uid)
{
    return &arb_naramo__cards[p->card[uid]];
}

#endif
