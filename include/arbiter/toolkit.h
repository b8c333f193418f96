/* arbiter/toolkit.h — what every engine shares, so that engines differ only
 * where their rules differ: one rejection style, name lookups with an
 * out-of-range fallback, one legal-action buffer, deck-issue helpers and the
 * strict position reader (arb_pos_*). Everything here is libc-only core code;
 * an engine outside the tree (a fifth game) may use it too. */
#ifndef ARBITER_TOOLKIT_H
#define ARBITER_TOOLKIT_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rejections ---------------------------------------------------------
 * The one way an engine refuses an action, a setup or a position:
 *     return ARB_ILLEGAL(err, "NAR-LIMIT-ROSTER", "your Roster holds %d", n);
 * ARB_ILLEGAL: the input breaks a rule (rule ID required); ARB_INVALID: it
 * is malformed (bad argument count, no such card). Both are expressions
 * worth the code, so they also fit in a conditional. err may be NULL. */
#define ARB_ILLEGAL(err, rule, ...) arb_error_set((err), ARB_EILLEGAL, (rule), __VA_ARGS__)
#define ARB_INVALID(err, rule, ...) arb_error_set((err), ARB_EINVAL, (rule), __VA_ARGS__)
#define ARB_REJECT(err, code, rule, ...) arb_error_set((err), (code), (rule), __VA_ARGS__)

/* ---- the legal-action buffer --------------------------------------------
 * legal(st, out, cap) writes at most cap actions and returns how many there
 * are: every engine builds its list through one of these. */
typedef struct arb_legal {
    arb_action *out;
    size_t cap, n;              /* n counts every action offered, also past cap */
    int seat;                   /* the seat of the actions arb_legal_add makes */
} arb_legal;

static inline arb_legal arb_legal_init(arb_action *out, size_t cap, int seat)
{
    arb_legal L = { out, cap, 0, seat };
    return L;
}

/* Offer a (copied when it fits). */
static inline void arb_legal_push(arb_legal *L, const arb_action *a)
{
    if (L->n < L->cap) L->out[L->n] = *a;
    L->n++;
}

/* Offer L->seat's verb with nargs of a0..a3 (unused arguments are 0). */
static inline arb_action arb_legal_action(int seat, unsigned verb, unsigned nargs, int32_t a0, int32_t a1,
                                          int32_t a2, int32_t a3)
{
    arb_action a = { 0, (int8_t)seat, (uint8_t)verb, (uint8_t)nargs, 0, { a0, a1, a2, a3, 0, 0 } };
    return a;
}

static inline void arb_legal_add(arb_legal *L, unsigned verb, unsigned nargs, int32_t a0, int32_t a1,
                                 int32_t a2, int32_t a3)
{
    arb_action a = arb_legal_action(L->seat, verb, nargs, a0, a1, a2, a3);
    arb_legal_push(L, &a);
}

/* a and b are the same action: seat, verb, arguments and elapsed time. */
static inline int arb_action_same(const arb_action *a, const arb_action *b)
{
    if (a->seat != b->seat || a->verb != b->verb || a->nargs != b->nargs || a->elapsed_ms != b->elapsed_ms) return 0;
    for (unsigned i = 0; i < a->nargs && i < ARB_ARGS_MAX; i++)
        if (a->args[i] != b->args[i]) return 0;
    return 1;
}

/* ---- names ------------------------------------------------------------- */
/* names[i] when i < n and names[i] is set, else fallback. */
static inline const char *arb_name_at(const char *const *names, unsigned n, unsigned i,
                                      const char *fallback)
{
    return names && i < n && names[i] ? names[i] : fallback;
}
/* Index of s in names[0..n) (NULL entries skipped), or -1. */
int arb_name_index(const char *const *names, unsigned n, const char *s);
/* The game's tables, with the fallback "unknown". */
const char *arb_game_verb_name(const arb_game *g, unsigned verb);
const char *arb_game_decision_name(const arb_game *g, unsigned kind);
const char *arb_game_event_name(const arb_game *g, unsigned type);
const char *arb_game_reason_name(const arb_game *g, unsigned reason);
/* Index of an outcome reason by name, -1 if none. '-' and '_' compare
 * equal, so the spellings of older replays ("deck_out") still match the
 * current one ("deck-out"). */
int arb_game_reason_find(const arb_game *g, const char *name);
/* Do two reason names denote the same reason ('-' == '_')? */
int arb_reason_same(const char *a, const char *b);
/* Index of an event type by name, -1 if none; '-' and '_' compare equal as
 * for reasons, so case files and adapters that spell naramo's events the
 * old way ("shift_begin") still name the kebab-case event ("shift-begin"). */
int arb_game_event_find(const arb_game *g, const char *name);
/* Is s a kebab-case name: one or more runs of [a-z0-9] joined by single
 * '-' (the vocabulary of game.h that arb_game_check enforces)? */
int arb_name_kebab(const char *s);

/* ---- the precheck -------------------------------------------------------
 * What every apply() checks first, in one order with one set of messages:
 * the refusal precedence every engine shares (conformance/ADAPTER.md).
 *   1. the match is over                   ARB_EOVER    r->over
 *   2. a verb past the game's table        ARB_EINVAL   r->verb
 *   3. an argument count outside the verb's ARB_EINVAL  r->nargs[verb], else r->nargs_any
 *   4. who may act at all: in a game without a clock (r->clock == 0) any
 *      arbiter action and any arbiter verb (verb >= r->arbiter_verbs),
 *      ARB_EILLEGAL r->no_clock; in a game with one, a seat using an
 *      arbiter verb (r->arbiter_verb[verb], else r->arbiter_any) or the
 *      arbiter a seat's verb (r->seat_verb), ARB_EILLEGAL; then a seat
 *      outside 0..players-1, ARB_EINVAL r->seat
 *   5. a seat that does not owe the decision: ARB_EILLEGAL wrong_seat
 *      (the engine's rule for the state it is in), unless wrong_seat is
 *      NULL; arbiter actions of a clock game are not checked here.
 * Returns ARB_OK when the action passes all five; the engine then checks
 * what its rules say about the action itself. The tables hold rule IDs
 * only (NULL: the refusal names no rule). */
typedef struct arb_precheck_rules {
    const char *over;                   /* 1 */
    const char *verb;                   /* 2 */
    const char *const *nargs;           /* 3: per verb (nverbs entries), or NULL */
    const char *nargs_any;
    int clock;                          /* 4: the arbiter records clock and connection events */
    unsigned arbiter_verbs;             /*    verbs from this number on are the arbiter's */
    const char *no_clock;               /*    clock == 0 */
    const char *const *arbiter_verb;    /*    clock: per verb, or NULL */
    const char *arbiter_any;
    const char *seat_verb;
    const char *seat;                   /*    a seat outside the match */
} arb_precheck_rules;

int arb_action_precheck(const arb_game *g, const arb_precheck_rules *r, int over, int players, int owing,
                        const char *wrong_seat, const arb_action *a, arb_error *err);

/* ---- the greedy agent ---------------------------------------------------
 * The index in legal[0..n) of the action with the highest score(st, a):
 * the first of the best, and among equal scores a uniform pick by
 * reservoir sampling (the k-th equal replaces the pick with probability
 * 1/k, one draw from rng per tie), so greedy self-play still varies with
 * the seed. rng NULL: the first of the best. n 0: 0. */
size_t arb_greedy_pick(const void *st, const arb_action *legal, size_t n,
                       int (*score)(const void *st, const arb_action *a), arb_rng *rng);

/* ---- rules versions -----------------------------------------------------
 * The rules version a setup asks for (su or su->rules NULL: the newest), as
 * its 1-based number in g's rules_versions (1 for a game of one version),
 * the number an engine keeps in its state; ARB_EUNSUPPORTED naming the
 * versions this build knows otherwise. */
int arb_game_rules_select(const arb_game *g, const arb_setup *su, arb_error *err);
/* The name of rules version number n (as rules_select returns it); a
 * number out of range names the oldest. */
const char *arb_game_rules_name(const arb_game *g, unsigned n);

/* ---- deck checks ------------------------------------------------------
 * Append one finding to out[0..cap) (printf-style message) and count it in
 * *n, also past cap: deck_check returns the total. warning 0 = violation. */
void arb_deck_issue_add(arb_deck_issue *out, unsigned cap, unsigned *n, int warning, const char *rule,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* ---- the strict position reader -----------------------------------------
 * Every engine's load_position reads its tree through these getters, so the
 * same mistake gets the same message in every game. The reader tracks the
 * path of the node being read ("players.1.hand.3"); a refusal sets
 * err->where to it (plus the key at fault), err->rule and one sentence:
 *   unknown field 'x' · expected a map · expected an integer · N is out of
 *   range LO..HI · expected true or false · expected a string · unknown
 *   value 'x' (one of: …) · unknown card 'x' · expected an array · at most N
 *   entries.
 * A refusal with a rule ID is ARB_EILLEGAL (the position breaks that rule);
 * a malformed tree is ARB_EINVAL with the reader's shape_rule (NULL, or a
 * game's zone rule such as "BRN-ZONE-FIVE"). Getters return ARB_OK or the
 * (negative) code; an absent key leaves *out untouched and returns ARB_OK.
 * Cards are found by ID or printed name, case-insensitively (arb_card_find),
 * the same rule deck files use. */
typedef struct arb_pos {
    arb_error *err;             /* never NULL after arb_pos_init */
    const arb_game *game;       /* for card lookups */
    const char *shape_rule;     /* rule ID of malformed-tree refusals, or NULL */
    size_t len;
    char path[ARB_WHERE_MAX];
    arb_error local_;
} arb_pos;

void arb_pos_init(arb_pos *P, const arb_game *g, arb_error *err, const char *shape_rule);
/* Descend into key / index; returns the mark arb_pos_pop restores. */
size_t arb_pos_push(arb_pos *P, const char *key);
size_t arb_pos_index(arb_pos *P, long idx);
void arb_pos_pop(arb_pos *P, size_t mark);
/* Refuse at the current path (".key" appended when key is set). rule NULL:
 * ARB_EINVAL with shape_rule; else ARB_EILLEGAL with rule. Returns the code. */
int arb_pos_fail(arb_pos *P, const char *key, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The same with an explicit code (ARB_ELIMIT for too many cards …). */
int arb_pos_failc(arb_pos *P, const char *key, int code, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* n must be a map whose every key is in allowed (NULL-terminated). */
int arb_pos_keys(arb_pos *P, const arb_tnode *n, const char *const *allowed);
/* Typed getters of m[key]. */
int arb_pos_int(arb_pos *P, const arb_tnode *m, const char *key, int64_t lo, int64_t hi, int64_t *out);
int arb_pos_bool(arb_pos *P, const arb_tnode *m, const char *key, int *out);
int arb_pos_flag(arb_pos *P, const arb_tnode *m, const char *key, uint8_t *out);
int arb_pos_str(arb_pos *P, const arb_tnode *m, const char *key, const char **out);
int arb_pos_enum(arb_pos *P, const arb_tnode *m, const char *key, const char *const *names,
                 unsigned n, int *out);
/* m[key] must be an array of at most max entries (absent: *out = NULL). */
int arb_pos_arr(arb_pos *P, const arb_tnode *m, const char *key, uint32_t max, const char *max_rule,
                const arb_tnode **out);
/* The same checks on a node itself (key names it in messages, may be NULL). */
int arb_pos_int_node(arb_pos *P, const arb_tnode *n, const char *key, int64_t lo, int64_t hi, int64_t *out);
int arb_pos_bool_node(arb_pos *P, const arb_tnode *n, const char *key, int *out);
int arb_pos_enum_node(arb_pos *P, const arb_tnode *n, const char *key, const char *const *names,
                      unsigned count, int *out);
/* A card ID (or name) string node: pool index in *out, else a refusal with
 * rule (the game's card-pool rule, or NULL). */
int arb_pos_card_node(arb_pos *P, const arb_tnode *n, const char *key, const char *rule, int *out);
/* "game" must name P->game when present. */
int arb_pos_game(arb_pos *P, const arb_tnode *root);

/* The PRNG in a state tree, one form for every engine: m[key] = an array of
 * the 4 xoshiro256** words s[0..3], each 16 lower-case hex digits (a JSON
 * string: exact through any JSON library, unlike numbers above 2^53). */
arb_tnode *arb_tree_add_rng(arb_tree *t, arb_tnode *m, const char *key, const arb_rng *r);
/* Read it back: absent → 0 and *r untouched; present → 1 with *r set, or a
 * refusal. Also read, for positions written by arbiter 0.1: words as
 * (signed) integers, and one string of 64 hex digits. An
 * all-zero state is refused (xoshiro never leaves it). */
int arb_pos_rng(arb_pos *P, const arb_tnode *m, const char *key, arb_rng *r);

/* Propagate a reader's refusal: TRY-style helper for engines. */
#define ARB_POS_TRY(x) do { int arb_rc_ = (x); if (arb_rc_ < 0) return arb_rc_; } while (0)

#ifdef __cplusplus
}
#endif
#endif
