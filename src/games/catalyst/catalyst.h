/* catalyst.h — internals shared by the files of the CATALYST engine (rulebook
 * seeds/001, catalog section CAT-…): the house constants (all in one place),
 * the card definitions, the fixed-size match state and the cross-file
 * functions. Nothing here is public; the only exported symbol of the engine
 * is `arb_game_catalyst`. */
#ifndef ARB_GAMES_CATALYST_H
#define ARB_GAMES_CATALYST_H

#include <stdint.h>

#include "arbiter/game.h"
#include "arbiter/toolkit.h"

extern const arb_game arb_game_catalyst; /* game.c */
#include "arbiter/hash.h"

/* ---- house constants (interpretations.md names the gap behind each) ---- */
#define CAT_MAX_CARDS 64        /* per seat: deck list / position card list */
#define CAT_POSITIONS 6         /* G05: F1 F2 F3 B1 B2 B3 */
#define CAT_START_HAND 6        /* CAT-SETUP-DRAW6 */
#define CAT_MULL_MAX 3          /* CAT-MULL-MAX */
#define CAT_MULL_KEEP2 5        /* CAT-MULL-SECOND */
#define CAT_MULL_KEEP3 4        /* CAT-MULL-THIRD */
#define CAT_ACTIONS 3           /* CAT-ACT-THREE */
#define CAT_HAND_MIN 2          /* CAT-END-HAND-MIN, reading A (G14) */
#define CAT_HAND_MAX 7          /* CAT-END-HAND-MAX */
#define CAT_VAULT_SIZE 40       /* G20 */
#define CAT_COPIES 3            /* G20 */
#define CAT_TURN_CAP 1000       /* I-TURNCAP: safety net, a draw; never reached by the rules (vaults run out first) */
/* Most actions a match holds (arb_game.max_actions, FORMAT.md §8.1): the
 * turn cap times 256 decisions a turn (3 Actions, their Reaction windows,
 * mulligans, upkeep and discards; the longest of the golden corpus and 300
 * self-play (2 and 4 seats) matches: 1351 actions in 137 turns). */
#define CAT_MAX_ACTIONS (CAT_TURN_CAP * 256u)
#define CAT_SHARDS_LOAD_MAX 1000000 /* bound on shards in a loaded position */
#define CAT_POWER_MAX 1000000   /* Power is clamped here (bonuses are bounded by Shards spent) */
#define CAT_SHIELD_MAX 60000    /* prevention stacked by Flash Barriers, saturating */

/* Positions: index = depth * 3 + column (G05, G06). */
#define CAT_POS_DEPTH(p) ((p) / 3)
#define CAT_POS_COL(p) ((p) % 3)
#define CAT_MAP_FRONT 0x07u
#define CAT_MAP_BACK 0x38u
#define CAT_MAP_ALL 0x3Fu

enum { CAT_KIND_CATALYST, CAT_KIND_UNIT, CAT_KIND_IMPULSE };

/* Impulse effects and abilities of the pool. */
enum { CAT_FX_NONE, CAT_FX_SHIELD, CAT_FX_POWER, CAT_FX_SHARDS };
#define CAT_AB_ACTION_GAIN 0x01u   /* "[A]: gain 1 Shard." (ability 0) */
#define CAT_AB_PAY_POWER 0x02u     /* "Pay 1 Shard: +1 Power this turn." (ability 1) */

typedef struct cat_def {
    arb_card card;
    uint8_t kind;
    uint8_t cost, acost, upkeep;
    uint8_t power, health, range, map;
    uint8_t start_gain;    /* at the start of your turn, gain N Shards */
    uint8_t end_gain_any;  /* at the end of turn (every turn, G15), gain N */
    uint8_t end_gain_own;  /* at the end of your turn, gain N */
    uint8_t abilities;     /* CAT_AB_* */
    uint8_t fx, fx_amount; /* Impulse effect */
} cat_def;

#define CAT_NDEFS 18
#define CAT_NPRESETS 3
extern const cat_def arb_catalyst__defs[CAT_NDEFS];
#define arb_catalyst__ndefs ((unsigned)CAT_NDEFS)

/* ---- state ---- */
enum { CAT_Z_NONE = 0, CAT_Z_VAULT, CAT_Z_HAND, CAT_Z_FIELD, CAT_Z_ARCHIVE };
enum { CAT_PH_MULLIGAN, CAT_PH_START, CAT_PH_ACTION, CAT_PH_END, CAT_PH_OVER };
enum {
    CAT_D_MULLIGAN, CAT_D_MULL_KEEP, CAT_D_DEACTIVATE, CAT_D_UPKEEP, CAT_D_ACTION,
    CAT_D_REACTION, CAT_D_ARCHIVE, CAT_D_NONE, CAT_D_COUNT
};

#define CAT_F_FACEDOWN 0x01u
#define CAT_F_ACTIVATED 0x02u
#define CAT_F_UNSTABLE 0x04u
#define CAT_F_REINFORCED 0x08u
#define CAT_F_UPKEEP_DUE 0x10u
#define CAT_F_KEPT 0x20u        /* mulligan: chosen to keep */
#define CAT_NOCARD 0xFFu

typedef struct cat_card {
    uint8_t def, zone, pos, flags;
    uint8_t damage;             /* < health while in play (G07) */
    uint8_t pad_[3];
    uint16_t shield;            /* damage still prevented this turn */
    uint16_t pad2_;
    int32_t bonus;              /* +Power this turn */
} cat_card;

typedef struct cat_player {
    uint8_t ncards, nvault, nhand, narchive;
    uint8_t alive, drew_empty, mulligans, keep_left;
    int32_t shards;
    uint8_t field[CAT_POSITIONS];   /* uid or CAT_NOCARD */
    uint8_t pad_[2];
    uint8_t vault[CAT_MAX_CARDS];   /* vault[nvault-1] is the top */
    uint8_t hand[CAT_MAX_CARDS];
    uint8_t archive[CAT_MAX_CARDS]; /* oldest first */
    cat_card c[CAT_MAX_CARDS];      /* by uid */
} cat_player;

typedef struct cat_pending {        /* a declared Strike awaiting its Reaction window */
    uint8_t on, seat, uid, tseat, tpos;
    uint8_t pad_[3];
} cat_pending;

typedef struct cat_state {
    arb_rng rng;
    uint32_t turn;
    uint8_t nplayers, first, active, phase;
    uint8_t dkind, dseat, actions, over;
    int8_t winner;
    uint8_t reason;
    uint8_t pad_[2];
    cat_pending pend;
    cat_player p[ARB_MAX_SEATS];
} cat_state;

/* outcome reasons: 0 "none" while the match goes on (game.h). The replay
 * format's table (FORMAT.md §B.7) predates "none": there, and in the state
 * hash, a reason is this index minus 1 (arb_catalyst__replay_reasons). */
enum { CAT_R_NONE, CAT_R_LAST, CAT_R_ALL_LOST, CAT_R_TURN_CAP, CAT_R_COUNT };

/* Verbs: the order is the replay format. Append only. */
enum {
    CAT_V_KEEP, CAT_V_MULLIGAN, CAT_V_KEEP_CARD, CAT_V_DEACTIVATE, CAT_V_DONE,
    CAT_V_PAY, CAT_V_DECLINE, CAT_V_DEPLOY, CAT_V_DEPLOY_FD, CAT_V_ABILITY,
    CAT_V_STRIKE, CAT_V_MOVE, CAT_V_SWAP, CAT_V_RETREAT, CAT_V_DRAW,
    CAT_V_ENGAGE, CAT_V_REINFORCE, CAT_V_IMPULSE, CAT_V_END, CAT_V_PASS,
    CAT_V_ARCHIVE, CAT_V_TIMEOUT, CAT_V_DISCONNECT, CAT_V_RECONNECT, CAT_V_COUNT
};

/* Events: the order is part of narration and conformance. Append only.
 * `seat` is the seat the event concerns; a/b/c as listed (uid = card UID,
 * def = pool index so narration can name the card without the state). */
enum {
    CAT_E_FIRST,        /* seat goes first */
    CAT_E_CATALYST,     /* a uid, b def, c pos: Catalyst put into play */
    CAT_E_SHUFFLE,      /* a cards in the Vault */
    CAT_E_DRAW,         /* hidden: a uid, b def, c why (0 setup/mulligan, 1 start, 2 action, 3 hand adjust) */
    CAT_E_DRAW_EMPTY,   /* must draw from an empty Vault: marked for loss (G18) */
    CAT_E_MULLIGAN,     /* a = mulligans taken now */
    CAT_E_KEEP,         /* keeps the hand of a cards */
    CAT_E_KEEP_CARD,    /* hidden: a uid, b def kept after a mulligan */
    CAT_E_RETURN,       /* a unkept cards go back to the Vault */
    CAT_E_TURN,         /* a = turn number */
    CAT_E_PHASE,        /* a = phase index */
    CAT_E_DEACTIVATE,   /* a uid, b def, c pos (a = b = -1 face down) */
    CAT_E_GAIN,         /* a Shards from def b (-1 none), c why (0 start, 1 end, 2 ability, 3 impulse) */
    CAT_E_UPKEEP_PAID,  /* a uid, b def, c Shards */
    CAT_E_UPKEEP_ARCHIVED, /* a uid, b def, c (0 declined, 1 cannot pay) */
    CAT_E_SKIP_DRAW,    /* starting player skips the first Start-Phase draw */
    CAT_E_ACTIONS,      /* a Actions for the turn */
    CAT_E_DEPLOY,       /* a uid, b def, c pos: face up */
    CAT_E_DEPLOY_FD,    /* hidden: a uid, b def, c pos: face down */
    CAT_E_ABILITY,      /* a uid, b def, c ability */
    CAT_E_STRIKE,       /* a attacker pos, b attacker def, c = target seat * 8 + target pos */
    CAT_E_DAMAGE,       /* seat = target's controller: a damage, b pos, c prevented */
    CAT_E_DESTROYED,    /* a uid, b def, c pos: Archived by damage */
    CAT_E_MOVE,         /* a from pos, b to pos */
    CAT_E_SWAP,         /* a pos, b pos */
    CAT_E_RETREAT,      /* a uid, b def, c pos (hidden when it was face down) */
    CAT_E_ENGAGE,       /* a uid, b def, c Shards paid */
    CAT_E_REINFORCE,    /* a pos */
    CAT_E_IMPULSE,      /* a uid, b def, c target pos (-1 none) */
    CAT_E_REACTION,     /* Reaction window opens for seat (a attacker seat) */
    CAT_E_PASS,         /* seat closes the Reaction window */
    CAT_E_END_ACTIONS,  /* ends the Action Phase with a Actions unused */
    CAT_E_CLEANUP,      /* Cleanup done */
    CAT_E_HAND_ARCHIVE, /* a uid, b def: Archived from hand */
    CAT_E_LOSE,         /* a: 0 Catalyst gone, 1 empty Vault */
    CAT_E_WIN,          /* game-over: seat wins (-1: draw), a reason, b turns (game.h) */
    CAT_E_PAY,          /* a Shards, b def, c uid (deploy / impulse) */
    CAT_E_COUNT
};

extern const char *const arb_catalyst__event_names[CAT_E_COUNT];
extern const char *const arb_catalyst__pos_names[CAT_POSITIONS];
extern const char *const arb_catalyst__phase_names[CAT_PH_OVER + 1];
extern const char *const arb_catalyst__decision_names[CAT_D_COUNT];
extern const char *const arb_catalyst__reason_names[CAT_R_COUNT];
extern const arb_verb arb_catalyst__verbs[CAT_V_COUNT];

static inline const cat_def *cat_defof(const cat_player *pl, unsigned uid)
{
    return &arb_catalyst__defs[pl->c[uid].def];
}

/* Power/health as the rules see them now (face-down: G11). */
int arb_catalyst__power(const cat_player *pl, unsigned uid);
int arb_catalyst__health(const cat_player *pl, unsigned uid);
int arb_catalyst__distance(unsigned pos_a, unsigned pos_t);
int arb_catalyst__pos_parse(const char *s);

/* cards.c */
const arb_card *arb_catalyst__card(const arb_game *g, unsigned idx);
void arb_catalyst__card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent);
unsigned arb_catalyst__deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap);
unsigned arb_catalyst__npresets(void);
const arb_deck *arb_catalyst__preset(const arb_game *g, unsigned idx);

/* rules.c */
int arb_catalyst__setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err);
arb_decision arb_catalyst__decision(const arb_game *g, const void *st);
size_t arb_catalyst__legal(const arb_game *g, const void *st, arb_action *out, size_t cap);
int arb_catalyst__apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err);
int arb_catalyst__validate(const cat_state *s, const arb_action *a, arb_error *err);
uint64_t arb_catalyst__hash(const arb_game *g, const void *st);

/* export.c */
void arb_catalyst__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root);
int arb_catalyst__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err);

/* narrate.c */
int arb_catalyst__event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size);
int arb_catalyst__action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size);

/* agent.c */
size_t arb_catalyst__greedy(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng);

#endif
