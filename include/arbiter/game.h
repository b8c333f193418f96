/* arbiter/game.h — the game contract: one const vtable per game.
 *
 * Every engine (naramo, catalyst, operator, brainstorm) sits behind this
 * interface, and everything above the engines (recorder, verifier,
 * conformance runner, analyzer, agents, CLI) uses only it. The model:
 *
 *   - A match state is plain data of fixed size (arb_game.state_size). The
 *     caller allocates it; copying the bytes clones the match. It holds the
 *     PRNG, so a copy continues identically.
 *   - At every point exactly one seat owes a decision (arb_decision). Two
 *     player shifts with opponent prompts, N-player turns with reactions and
 *     simultaneous cycles serialized by priority passing all reduce to this.
 *     The arbiter (clock, disconnects) acts through actions whose seat is
 *     ARB_SEAT_ARBITER; games without a clock reject them with a rule ID.
 *   - A choice with several parts is a sequence of single decisions.
 *   - legal() enumerates every action apply() accepts for the owed decision
 *     (arbiter actions excepted); apply() validates and applies one action or
 *     rejects it with a rule ID, leaving the state byte-for-byte untouched.
 *   - apply() and setup() never allocate and never read time or addresses.
 *
 * Ownership: arb_game values are static and const. All buffers passed in
 * (state, events, errors, trees) are the caller's. Strings returned by name
 * functions are static. */
#ifndef ARBITER_GAME_H
#define ARBITER_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/error.h"
#include "arbiter/rng.h"
#include "arbiter/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_MAX_SEATS 4
#define ARB_SEAT_ARBITER (-1)  /* clock events, disconnects */
#define ARB_SEAT_NONE (-2)     /* nobody owes anything: the match is over */
#define ARB_VIEW_ALL (-1)      /* export everything (judge / full state) */
#define ARB_ARGS_MAX 6
#define ARB_DECK_MAX 96
#define ARB_DECK_ATTRS 4

/* One decision, as made by a seat or the arbiter. */
typedef struct arb_action {
    uint32_t elapsed_ms;        /* since the previous action of the match */
    int8_t seat;                /* 0..players-1, or ARB_SEAT_ARBITER */
    uint8_t verb;               /* index into arb_game.verbs */
    uint8_t nargs;
    uint8_t pad_;
    int32_t args[ARB_ARGS_MAX]; /* meaning per verb, see the game's verbs */
} arb_action;

/* A verb's name and argument count, for the text syntax and the replay
 * format ("play 3", "deploy 2 1"). Verb numbers are part of the replay
 * format: append new verbs, never renumber. */
typedef struct arb_verb {
    const char *name;
    uint8_t min_args, max_args;
    const char *args_help;      /* "HAND_INDEX", "SEAT" … for --help */
    const char *help;           /* one line */
} arb_verb;

/* Who owes what. kind indexes arb_game.decision_names. */
typedef struct arb_decision {
    int seat;                   /* seat, or ARB_SEAT_NONE when over */
    uint16_t kind;
    /* Milliseconds the owing seat has left before the arbiter may time it
     * out, or -1 when no clock runs (always once over). Drivers use it to
     * inject "timeout". */
    int64_t clock_left_ms;
} arb_decision;

/* Engine events for narration and for conformance assertions. */
typedef struct arb_event {
    uint16_t type;              /* index into arb_game.event_names */
    int8_t seat;                /* the seat it concerns, or -1 */
    uint8_t hidden;             /* 1: only `seat` may see args (a draw) */
    int32_t a, b, c;            /* per event type; card indexes, amounts */
} arb_event;

/* Caller-owned append buffer. Engines append with arb_events_push; when
 * full, further events are counted in dropped, never written past cap. */
typedef struct arb_events {
    arb_event *buf;
    uint32_t cap, n, dropped;
} arb_events;

static inline void arb_events_push(arb_events *ev, uint16_t type, int seat,
                                   int hidden, int32_t a, int32_t b, int32_t c)
{
    if (!ev) return;
    if (ev->n >= ev->cap) { ev->dropped++; return; }
    arb_event *e = &ev->buf[ev->n++];
    e->type = type; e->seat = (int8_t)seat; e->hidden = (uint8_t)(hidden != 0);
    e->a = a; e->b = b; e->c = c;
}

/* A deck: card indexes into the game's pool plus declared attributes
 * ("bloc" = "DEFENSE"). Parsed from deck files by arb_deck_parse. */
typedef struct arb_deck_attr {
    char key[16];
    char value[48];
} arb_deck_attr;

typedef struct arb_deck {
    char name[64];
    uint16_t ncards;
    uint16_t cards[ARB_DECK_MAX];
    uint8_t nattrs;
    arb_deck_attr attrs[ARB_DECK_ATTRS];
} arb_deck;

/* Match options, a small ordered key → integer map ("clock" = 1). */
#define ARB_OPTIONS_MAX 8
typedef struct arb_options {
    uint8_t n;
    struct { char key[24]; int64_t value; } kv[ARB_OPTIONS_MAX];
} arb_options;

typedef struct arb_setup {
    uint64_t seed;
    int players;
    const arb_deck *decks[ARB_MAX_SEATS];
    arb_options options;
    /* Rules version to play under: one of the game's rules_versions (the
     * replay header's `rules`); NULL plays the newest (rules_version). */
    const char *rules;
} arb_setup;

/* Outcome of a finished match. While it goes on: over 0, winner -1,
 * reason 0 (conformance checks this at every step: outcome-open). */
typedef struct arb_outcome {
    int over;                   /* 0 while the match goes on */
    int winner;                 /* seat, or -1 for a draw */
    uint16_t reason;            /* index into arb_game.outcome_reasons (not a "none" at 0) */
    uint32_t turns;             /* turns (shifts, cycles) played */
} arb_outcome;

/* A printable card of the pool. */
typedef struct arb_card {
    const char *id;             /* stable slug, used in replay headers */
    const char *name;           /* as printed: "Coolant Pumps" */
    const char *type;           /* "Facility", "Weapon", … */
    const char *group;          /* faction, class or "" */
    const char *text;           /* rules text, "" when none */
} arb_card;

/* One finding of a deck check. */
typedef struct arb_deck_issue {
    int warning;                /* 0: violation (illegal), 1: warning only */
    char rule[ARB_RULE_MAX];
    char msg[160];
} arb_deck_issue;

/* The contract every engine fulfils. arb_game_check() verifies the parts a
 * program can check; the conformance suite and the unit tests check the
 * rest. Obligations:
 *
 *  - contract is the version of this header the game was written for, and a
 *    minimum: members are only ever appended, so a game of contract N has
 *    every member up to N's and callers test g->contract >= N before they
 *    use a member newer than ARB_GAME_CONTRACT_MIN (SQLite's iVersion).
 *    arb_game_check refuses a contract newer than this build and one older
 *    than ARB_GAME_CONTRACT_MIN (contract 2 had no game argument in the
 *    slots; the plug-in loader shims such plug-ins, arbiter/plugin.h);
 *    check_toolkit runs it over every compiled-in game and the test games.
 *  - Every slot takes its game first (const arb_game *g): a game built at
 *    run time (an adapter's proxy, a plug-in shim) keeps what it needs in
 *    g->app_data instead of in static variables. Compiled-in engines ignore
 *    g. A slot never calls another slot through g (the engine calls its own
 *    functions).
 *  - Every member is set except the four marked "may be NULL", and each of
 *    those says what callers do then. Callers never call through the
 *    vtable for these four: they use arb_game_event_text,
 *    arb_game_action_text / arb_match_action_text, arb_game_card_export
 *    and the agents, which apply the fallbacks.
 *  - Name tables have exactly n* non-NULL entries; numbers are replay data
 *    (append, never renumber). Outcome reasons are spelled in kebab-case
 *    ("deck-out"); older spellings with '_' still match (arb_reason_same).
 *    Only outcome reason 0 may be "" (a "no outcome yet" slot).
 *  - npresets >= 2 (tests pair preset i with preset i+1; with none they
 *    would divide by zero), every preset passes deck_check without a
 *    violation, and preset(i) for i < npresets never returns NULL. Presets
 *    and cards are constant data: two threads may call preset() and card()
 *    together (no lazy initialisation).
 *  - Position round trip: load_position(export_state(st, ARB_VIEW_ALL))
 *    yields a state with the same hash, decision and legal actions as st.
 *    load_position refuses a state that cannot be (a card in two zones, a
 *    count past its zone): it states the engine's invariants, and builds
 *    with ARB_CHECK_STATE (make sanitize) assert them after every action
 *    arb_match_apply accepts.
 *  - apply() on a rejected action leaves the state byte-for-byte unchanged;
 *    legal() lists exactly what apply() accepts (arbiter actions aside).
 *  - setup/apply/legal/hash/export never allocate, never read time,
 *    addresses or global mutable state, so matches run in parallel threads.
 *
 * What a fifth engine must also know (none of it can be checked by a
 * program, all of it is relied on):
 *
 *  - State: state_size bytes of plain data, no pointers (copying the bytes
 *    clones the match). Callers allocate it with malloc or as an array of
 *    max_align_t, so its alignment is at most _Alignof(max_align_t); a
 *    state type that asks for more (_Alignas(64)) is not supported.
 *  - Hash: hash() feeds the fields, in a documented order, to an
 *    arb_hasher (arbiter/hash.h: XXH3-64 over little-endian encodings,
 *    never raw struct bytes), and the game's STATE.md lists that order so
 *    that another implementation (tests/hash, an adapter) reproduces it.
 *    The state hash is replay data: changing it breaks every recorded
 *    checkpoint.
 *  - Checkpoints: the recorder writes a checkpoint (turn, hash) whenever
 *    turn() changes, and the verifier expects one there; turn() is 1-based
 *    and never decreases, so an engine decides where checkpoints fall by
 *    what it calls a turn.
 *  - Over: once outcome() says over, decision() is {ARB_SEAT_NONE, the
 *    decision named "over", -1}, legal() is empty and apply() refuses with
 *    ARB_EOVER. While the match goes on, outcome() is {0, -1, 0, turns}:
 *    reason 0 is the "none" reason (outcome_reasons[0], spelled "none").
 *    The action that ends the match emits one public event named
 *    "game-over": seat = the winner (-1: a draw), a = the outcome reason
 *    (index into outcome_reasons), b = the turns (outcome().turns), c = 0.
 *    conform's invariants check it at every end (game-over-event).
 *  - Files: a new game is a directory src/games/<id>/ (the Makefile finds
 *    it and generates the registry entry arb_game_<id>), a catalog and
 *    cases under conformance/<id>/, a STATE.md and interpretations.md
 *    beside its catalog, presets, and a golden replay in replays/. Nothing
 *    outside those names a game. */
#define ARB_GAME_CONTRACT 3
#define ARB_GAME_CONTRACT_MIN 3     /* the oldest layout callers can call */

typedef struct arb_game arb_game;
struct arb_game {
    unsigned contract;          /* ARB_GAME_CONTRACT of the header it was built with */
    const char *id;             /* "naramo" */
    const char *title;          /* "NARAMO TCG" */
    const char *rules_version;  /* the newest; bump on any rules change */
    const char *engine_version;
    /* Every rules version the engine still implements, oldest first, the
     * last equal to rules_version; NULL (0) when it implements only that
     * one. A replay verifies under the version its header names. */
    const char *const *rules_versions; unsigned nrules_versions;
    int min_players, max_players;
    size_t state_size;          /* bytes of one match state */

    const arb_verb *verbs;      unsigned nverbs;
    const char *const *decision_names; unsigned ndecision_names;
    const char *const *event_names;    unsigned nevent_names;
    const char *const *outcome_reasons; unsigned noutcome_reasons;

    /* Card pool: card(i) is non-NULL for every i < ncards. */
    unsigned ncards;
    const arb_card *(*card)(const arb_game *g, unsigned idx);
    /* Stats of card idx under parent (cost, power, …). May be NULL: the
     * card has no stats beyond arb_card (arb_game_card_export adds none). */
    void (*card_export)(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent);

    /* Deck legality: fills up to cap issues (violations first is not
     * required), returns the total number found (may exceed cap). The deck
     * is illegal when any issue has warning == 0. */
    unsigned (*deck_check)(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap);
    /* Preset decks shipped with the engine: at least 2, all legal. */
    unsigned npresets;
    const arb_deck *(*preset)(const arb_game *g, unsigned idx);

    /* Build the initial state from seed, players, decks and options: every
     * random event comes from a PRNG seeded with su->seed. Rejects illegal
     * player counts and decks with the rule ID. Emits setup events. */
    int (*setup)(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err);
    /* Build a state from an explicit position (same shape as export with
     * ARB_VIEW_ALL; fields left out take documented defaults). su gives the
     * seed for the PRNG, players and options; decks may be NULL. Validated
     * as strictly as an action through the core position reader (arb_pos_*
     * in arbiter/toolkit.h): unknown fields, out-of-range values and
     * impossible zones are rejected with err->where naming the path. */
    int (*load_position)(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su,
                         arb_error *err);

    arb_decision (*decision)(const arb_game *g, const void *st);
    /* Every legal action of the seat owing the decision, in a stable order.
     * Writes at most cap, returns the total (call again with more room). */
    size_t (*legal)(const arb_game *g, const void *st, arb_action *out, size_t cap);
    /* Validate and apply. On rejection returns ARB_EILLEGAL (or ARB_EINVAL
     * for a malformed action, ARB_EOVER after the end) with err->rule set,
     * and the state is unchanged. Events may be NULL. */
    int (*apply)(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err);

    uint64_t (*hash)(const arb_game *g, const void *st);
    int (*outcome)(const arb_game *g, const void *st, arb_outcome *out); /* returns out->over */
    uint32_t (*turn)(const arb_game *g, const void *st);                 /* 1-based, grows */
    const char *(*phase)(const arb_game *g, const void *st);             /* "operations", never NULL */

    /* The state tree seen by view (a seat, or ARB_VIEW_ALL), under root. */
    void (*export_state)(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root);
    /* One line of narration for ev as seen by view (a hidden event of
     * another seat reads "P2 draws a card"). Returns snprintf's value.
     * May be NULL: callers print "<event name> P<seat> a b c" (hidden
     * arguments masked), as arb_game_event_text does. */
    int (*event_text)(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size);
    /* A readable description of an action in the current state
     * ("P1 plays Coolant Pumps (hand 3)"), before it is applied; only
     * called with verb < nverbs. May be NULL: callers print the action's
     * text syntax (arb_action_format), as arb_game_action_text does. */
    int (*action_text)(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size);

    /* Greedy agent: index into legal[0..n) for the seat owing the decision,
     * using only what export_state(st, seat) would show. May be NULL: the
     * greedy agent then picks uniformly at random (arb_agent). */
    size_t (*greedy)(const arb_game *g, const void *st, const arb_action *legal, size_t n, arb_rng *rng);

    /* ---- contract 3: members appended from here on ---- */

    /* Whatever a game built at run time needs in its slots (the adapter
     * proxy's connection, a shimmed plug-in's own vtable); NULL for the
     * compiled-in engines. Owned by whoever built the game. */
    void *app_data;

    /* What the judge's report charts (arbiter/analyze.h, arb_an_tracked):
     * ncharts tree paths into export_state(ARB_VIEW_ALL), '*' for each
     * seat ("players.*.core"), a second '*' summing over a list
     * ("players.*.machine.*.charge"), a leading '#' for a list's length,
     * each with its label. May be 0 (NULL): the report charts every integer
     * under players.N that changes during the match. */
    const char *const *chart_paths; const char *const *chart_labels; unsigned ncharts;
    /* The events that open a turn or a phase (arb_marker), so that the
     * analyzer labels every event with the turn and phase it happens in,
     * also when one action crosses several. May be 0: every event of an
     * action gets the turn and phase the engine reports before it. */
    const struct arb_marker *markers; unsigned nmarkers;

    /* Most actions one match of this game can hold under its rules (its
     * turn cap times what a turn can take, with room to spare), so that a
     * replay claiming more is refused before anything walks it
     * (replays/FORMAT.md §8.1). 0: the engine declares none and readers use
     * ARB_GAME_MAX_ACTIONS_DEFAULT. Read it through arb_game_max_actions. */
    uint32_t max_actions;

    /* Names this game's events had before (nevent_aliases pairs: old name,
     * current name), so that case files and scripts written against an
     * older vocabulary keep reading (arb_game_event_find). May be 0. */
    const char *const *event_aliases; unsigned nevent_aliases;
    /* The replay format's outcome-reason table of this game
     * (replays/FORMAT.md §B.7) when it is not outcome_reasons: a game whose
     * table predates reason 0 "none" (catalyst) keeps its recorded
     * indices. Replays store reasons by this table's index; everything else
     * uses outcome_reasons. May be 0: the format's table is outcome_reasons.
     * Read it through arb_game_replay_reasons. */
    const char *const *replay_reasons; unsigned nreplay_reasons;
};

/* A turn or phase marker: event type `event` opens turn a (turn_from_a),
 * the fixed phase `phase` (at the event, or after it: after = 1, "closes
 * out Operations"), or the phase phases[a] of a list of nphases. */
typedef struct arb_marker {
    uint16_t event;             /* index into event_names */
    uint8_t turn_from_a;
    uint8_t after;
    const char *phase;          /* or NULL */
    const char *const *phases;  /* or NULL */
    unsigned nphases;
} arb_marker;

/* The bound of a game that declares none (and of an unknown game). */
#define ARB_GAME_MAX_ACTIONS_DEFAULT (1u << 20)

/* Registry: every engine compiled in, sorted by id. */
const arb_game *arb_game_find(const char *id);      /* NULL if unknown */
unsigned arb_game_count(void);
const arb_game *arb_game_at(unsigned i);

/* The engine build's name, as a v1 header's `engine` key holds it:
 * g->engine_version when it already names the game (naramo-engine-1.0),
 * else "ID-engine-VERSION"; written to buf (n bytes) and returned. */
const char *arb_game_engine_name(const arb_game *g, char *buf, size_t n);

/* Helpers over the vtable. */
int arb_verb_find(const arb_game *g, const char *name); /* -1 if unknown */
int arb_card_find(const arb_game *g, const char *id_or_name); /* -1 */
/* Index of rules (NULL: the newest) in g's rules_versions, 0 = oldest;
 * -1 when this build does not implement that version. */
int arb_game_rules_index(const arb_game *g, const char *rules);
/* g->max_actions, or ARB_GAME_MAX_ACTIONS_DEFAULT when g is NULL, declares
 * none or is a plug-in (arbiter/plugin.h: one built before the member was
 * appended does not have it). */
uint32_t arb_game_max_actions(const arb_game *g);
/* The replay format's outcome-reason table of g (g->replay_reasons, or
 * g->outcome_reasons when it has none); *n gets its length. */
const char *const *arb_game_replay_reasons(const arb_game *g, unsigned *n);
int64_t arb_options_get(const arb_options *o, const char *key, int64_t dflt);
int arb_options_set(arb_options *o, const char *key, int64_t value);
const char *arb_deck_attr_get(const arb_deck *d, const char *key); /* NULL */
int arb_deck_attr_set(arb_deck *d, const char *key, const char *value);

/* Text syntax of one action, shared by `record`, conformance cases and
 * `log`: "[+MS] SEAT VERB [ARG…]" where SEAT is a number or "arbiter", MS
 * the elapsed milliseconds (default 0). Returns ARB_OK or ARB_EINVAL with a
 * message naming the column. */
int arb_action_parse(const arb_game *g, const char *line, arb_action *out,
                     arb_error *err);
/* The same syntax for an action a replay record or the C API can carry but
 * the text refuses (conformance cases of malformed actions): any count of 0
 * to ARB_ARGS_MAX arguments whatever the verb's, and "verb#N" for verb
 * number N, which may lie past the game's verb table. */
int arb_action_parse_malformed(const arb_game *g, const char *line, arb_action *out,
                               arb_error *err);
/* Inverse of arb_action_parse; always writes "+MS" when elapsed_ms != 0. */
int arb_action_format(const arb_game *g, const arb_action *a, char *buf, size_t size);

/* The vtable's optional members with their fallbacks (see arb_game). */
int arb_game_action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size);
int arb_game_event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size);
void arb_game_card_export(const arb_game *g, unsigned idx, arb_tree *t, arb_tnode *parent);
/* Check the obligations a program can check (contract version, required
 * members, name tables, >= 2 legal presets, cards, and the vocabulary:
 * kebab-case names, the decision "over", the event "game-over", reason 0
 * "none"): ARB_OK, or ARB_EUNSUPPORTED with a message naming the first
 * broken one. arb_game_check_layout checks all but the vocabulary: what the
 * plug-in loader asks of a contract-2 plug-in, built before the vocabulary
 * was fixed. */
int arb_game_check(const arb_game *g, arb_error *err);
int arb_game_check_layout(const arb_game *g, arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
