/* brainstorm.h — the brainstorm engine's internal model, shared by its files.
 *
 * One match state is plain fixed-size data (copying clones it). Cards are
 * named by seat + UID (index in the seat's deck list at setup, or in the
 * position's card list). Every house constant the draft leaves open lives
 * here, in one place, with the catalog gap it answers (see
 * conformance/brainstorm/interpretations.md). Card text that overrides a
 * rule (the Golden Rule) is data in the card table, read only through the
 * hook functions arb_brainstorm__hook_*, which are the engine's override points. */
#ifndef ARB_BRN_INT_H
#define ARB_BRN_INT_H

#include <stdint.h>

#include "arbiter/game.h"
#include "arbiter/toolkit.h"

extern const arb_game arb_game_brainstorm; /* game.c */

/* ---- house constants (interpretations) --------------------------------- */
#define BRN_PLAYERS        2   /* BRN-PLAYERS */
#define BRN_DECK_OTHERS    40  /* G01: one Generator + 40 other cards */
#define BRN_OPEN_HAND      5   /* G01: opening hand, no mulligan */
#define BRN_MAX_HAND       7   /* G13: Maximum Hand Size before card text */
#define BRN_START_DRAWS    1   /* BRN-START-DRAW before card text */
#define BRN_OUT_LINKS      1   /* G09: Links per Output before card text */
#define BRN_IN_LINKS       1   /* G09: Links per Input */
#define BRN_CHARGE_MAX     30  /* G05: Charge above this on one card is lost */
#define BRN_MACHINE_MODULES 8  /* G06: at most 8 Modules on one Machine */
#define BRN_CYCLE_CAP      100 /* G02: a Cycle past this ends the match drawn */
/* Most actions a match holds (arb_game.max_actions, FORMAT.md §8.1): the
 * Cycle cap times 1024 decisions a Cycle (every seat acts in each, Runs are
 * bounded by BRN_RUN_MAX; the longest of the golden corpus and 300 self-play
 * matches: 1025 actions in 22 Cycles, 54 a Cycle). */
#define BRN_MAX_ACTIONS (BRN_CYCLE_CAP * 1024u)
#define BRN_RUN_MAX        128 /* BRN-FOCUS-TERMINATES: safety net, never reached */

/* ---- bounds of the fixed-size state ------------------------------------ */
#define BRN_CARDS_MAX  64      /* cards per seat (setup uses 41) */
#define BRN_LINKS_MAX  48      /* Links per Machine */
#define BRN_STACK_MAX  (2 * BRN_CARDS_MAX)
#define BRN_PORTS_MAX  3
#define BRN_NONE       0xFF

/* ---- cards ------------------------------------------------------------- */
enum { BRN_T_GENERATOR, BRN_T_MODULE, BRN_T_CELL, BRN_T_TACTIC };
enum { BRN_TGT_NONE, BRN_TGT_FOCUSED_MODULE, BRN_TGT_OWN_INACTIVE_CELL };
enum { BRN_FX_NONE, BRN_FX_DRAW, BRN_FX_DRAIN, BRN_FX_ACTIVATE, BRN_FX_GEN_CHARGE };
enum { BRN_AB_NONE, BRN_AB_DRAW, BRN_AB_MILL };

typedef struct brn_carddef {
    arb_card pub;
    uint8_t type;
    uint8_t gen;           /* Generator: Charge generated at Start */
    uint8_t ins, outs;     /* ports */
    uint8_t research;      /* Cell: survives Reset */
    uint8_t preemptive;    /* Tactic: Assembly only */
    uint8_t target;        /* BRN_TGT_* */
    uint8_t effect, amount;/* Tactic / trigger effect on resolution */
    uint8_t ability, ab_cost, ab_amount; /* Showdown ability of a focused Module */
    /* Golden Rule overrides while the Cell is active (or the Module is on
     * the Machine, for transfer_bonus). */
    int8_t mod_gen, mod_max_hand, mod_draws, mod_out_links;
    uint8_t no_discard;    /* you do not discard at End of Cycle */
    uint8_t eoc_draw;      /* triggers at End of Cycle: draw N */
    uint8_t transfer_bonus;/* +N Charge whenever Charge is transferred to it */
} brn_carddef;

#define BRN_NCARDS 18
extern const brn_carddef arb_brainstorm__cards[BRN_NCARDS];
extern const unsigned arb_brainstorm__ncards;

/* ---- zones, phases, flags ---------------------------------------------- */
enum { BRN_Z_DECK, BRN_Z_HAND, BRN_Z_MACHINE, BRN_Z_SCRAP, BRN_NZONES, BRN_Z_STACK = BRN_NZONES };

enum {
    BRN_P_RESET, BRN_P_START, BRN_P_EXPANSION, BRN_P_ASSEMBLY, BRN_P_ROUTING,
    BRN_P_BOOTSTRAP, BRN_P_PLUG, BRN_P_SHOWDOWN, BRN_P_FOCUS, BRN_P_END,
    BRN_P_OVER, BRN_P_COUNT
};
extern const char *const arb_brainstorm__phase_names[BRN_P_COUNT];

enum { BRN_F_ACTIVE = 1, BRN_F_FOCUSED = 2, BRN_F_PENDING = 4 };

enum { BRN_D_ACTION, BRN_D_BOOTSTRAP, BRN_D_FOCUS, BRN_D_DISCARD, BRN_D_OVER, BRN_D_COUNT };

enum { BRN_V_PASS, BRN_V_ENABLE, BRN_V_PLAY, BRN_V_LINK, BRN_V_BOOT,
       BRN_V_FOCUS, BRN_V_USE, BRN_V_DISCARD, BRN_V_TIMEOUT, BRN_V_DISCONNECT,
       BRN_V_RECONNECT, BRN_V_COUNT };

enum { BRN_E_SETUP, BRN_E_CYCLE, BRN_E_PHASE, BRN_E_DRAW, BRN_E_DECK_EMPTY,
       BRN_E_DEACTIVATE, BRN_E_SEVER, BRN_E_GENERATE, BRN_E_PASS, BRN_E_ENABLE,
       BRN_E_PLAY, BRN_E_TRIGGER, BRN_E_RESOLVE, BRN_E_CELL_ON, BRN_E_TO_SCRAP,
       BRN_E_LINK, BRN_E_BOOT, BRN_E_FOCUS_MOVE, BRN_E_UNFOCUS, BRN_E_RUN,
       BRN_E_ABILITY, BRN_E_MILL, BRN_E_DRAIN, BRN_E_FIZZLE, BRN_E_DISCARD,
       BRN_E_NO_DISCARD, BRN_E_GEN_BONUS, BRN_E_OVER, BRN_E_AMPLIFY, BRN_E_COUNT };

enum { BRN_R_NONE, BRN_R_DECKOUT, BRN_R_BOTH_DECKOUT, BRN_R_CYCLE_CAP, BRN_R_COUNT };

/* Stack item kinds. */
enum { BRN_S_CARD, BRN_S_TRIGGER };

typedef struct brn_cardst {
    uint8_t id;      /* pool index */
    uint8_t zone;    /* BRN_Z_* */
    uint8_t flags;   /* BRN_F_* */
    uint8_t charge;
    uint8_t used;    /* bit o: Output o used */
} brn_cardst;

typedef struct brn_link {
    uint8_t from, out, to, in;
} brn_link;

typedef struct brn_player {
    uint8_t ncards;
    uint8_t gen;                 /* UID of the Generator on the Machine, or BRN_NONE */
    uint8_t nlinks;
    uint8_t boot_count;          /* Modules chosen in this Bootstrap */
    uint8_t nz[BRN_NZONES];
    brn_cardst c[BRN_CARDS_MAX];
    uint8_t z[BRN_NZONES][BRN_CARDS_MAX]; /* ordered zones; deck top = last */
    brn_link links[BRN_LINKS_MAX];
} brn_player;

typedef struct brn_item {
    uint8_t kind, seat, uid, tseat, tuid;
} brn_item;

typedef struct brn_state {
    arb_rng rng;
    uint16_t cycle;
    uint8_t lead;      /* G03 */
    uint8_t phase;     /* BRN_P_* */
    uint8_t actor;     /* seat owing the decision */
    uint8_t passes;    /* consecutive passes in an Action phase */
    uint8_t run;       /* Run iteration within this Cycle (1-based) */
    uint8_t chosen;    /* a Module was chosen in this Focus step */
    uint8_t over;
    int8_t winner;
    uint8_t reason;
    uint8_t rules;     /* rules version: 1 brainstorm-draft0-1, 2 …-2 (game.c) */
    uint8_t nstack;
    brn_item stack[BRN_STACK_MAX];
    brn_player p[BRN_PLAYERS];
} brn_state;

/* ---- cross-file internals ---------------------------------------------- */
static inline const brn_carddef *arb_brainstorm__def(const brn_state *s, int seat, int uid)
{
    return &arb_brainstorm__cards[s->p[seat].c[uid].id];
}

/* Golden Rule hook points: every rule parameter a card may override. */
int arb_brainstorm__hook_max_hand(const brn_state *s, int seat);
int arb_brainstorm__hook_start_draws(const brn_state *s, int seat);
int arb_brainstorm__hook_gen_charge(const brn_state *s, int seat);
int arb_brainstorm__hook_out_links(const brn_state *s, int seat);
int arb_brainstorm__hook_discards(const brn_state *s, int seat);
int arb_brainstorm__hook_transfer(const brn_state *s, int seat, int to_uid, int amount);

/* zones */
void arb_brainstorm__zone_remove(brn_player *p, int uid);
void arb_brainstorm__zone_add(brn_player *p, int uid, int zone);
int arb_brainstorm__zone_index(const brn_player *p, int uid);
/* Draw n cards; returns 0, or -1 when the Deck ran out (loss recorded by caller). */
int arb_brainstorm__draw(brn_state *s, int seat, int n, arb_events *ev);
void arb_brainstorm__finish(brn_state *s, int winner, int reason, arb_events *ev);
int arb_brainstorm__machine_modules(const brn_state *s, int seat);

/* flow */
void arb_brainstorm__enter(brn_state *s, int phase, arb_events *ev);
int arb_brainstorm__validate(const brn_state *s, const arb_action *a, arb_error *err);
void arb_brainstorm__exec(brn_state *s, const arb_action *a, arb_events *ev);

/* stack */
void arb_brainstorm__push(brn_state *s, int kind, int seat, int uid, int tseat, int tuid, arb_events *ev);
void arb_brainstorm__resolve_top(brn_state *s, arb_events *ev);
void arb_brainstorm__eoc_triggers(brn_state *s, arb_events *ev);

/* pulse */
int arb_brainstorm__boot_outputs(const brn_state *s, int seat, int skip_out);
int arb_brainstorm__boot_port(const brn_state *s, int seat, int uid);
int arb_brainstorm__boot_done(const brn_state *s, int seat);
int arb_brainstorm__focus_port(const brn_state *s, int seat, int from, int to);
int arb_brainstorm__focus_has_choice(const brn_state *s, int seat, int uid);
void arb_brainstorm__bootstrap_next(brn_state *s, int just_moved, arb_events *ev);
void arb_brainstorm__focus_next(brn_state *s, int just_moved, arb_events *ev);
/* Bootstrap: other choices left besides Module uid (reached through port) */
int arb_brainstorm__boot_others(const brn_state *s, int seat, int uid, int port);
void arb_brainstorm__give_charge(brn_state *s, int seat, int uid, int amount, arb_events *ev);
/* stack.c: the card has a triggered ability under s's rules version (a
 * Stack trigger item may name it) */
int arb_brainstorm__triggers(const brn_state *s, int seat, int uid);

/* legal enumeration shared by legal() and the agent */
size_t arb_brainstorm__legal(const brn_state *s, arb_action *out, size_t cap);

/* contract members in other files */
int arb_brainstorm__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err);
int arb_brainstorm__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err);
arb_decision arb_brainstorm__decision(const arb_game *g, const void *st);
uint64_t arb_brainstorm__hash(const arb_game *g, const void *st);
int arb_brainstorm__outcome(const arb_game *g, const void *st, arb_outcome *out);
uint32_t arb_brainstorm__turn(const arb_game *g, const void *st);
const char *arb_brainstorm__phase(const arb_game *g, const void *st);
size_t arb_brainstorm__legal_vt(const arb_game *g, const void *st, arb_action *out, size_t cap);
void arb_brainstorm__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root);
int arb_brainstorm__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err);
int arb_brainstorm__event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size);
int arb_brainstorm__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size);
size_t arb_brainstorm__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng);
unsigned arb_brainstorm__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap);
const arb_card *arb_brainstorm__card(const arb_game *g, unsigned idx);
void arb_brainstorm__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent);
#define BRN_NPRESETS 4
const arb_deck *arb_brainstorm__preset(const arb_game *g, unsigned idx);
int arb_brainstorm__card_by_slug(const char *slug);

extern const arb_verb arb_brainstorm__verbs[BRN_V_COUNT];
extern const char *const arb_brainstorm__decision_names[BRN_D_COUNT];
extern const char *const arb_brainstorm__event_names[BRN_E_COUNT];
extern const char *const arb_brainstorm__reason_names[BRN_R_COUNT];

#endif
