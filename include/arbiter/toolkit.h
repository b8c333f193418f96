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

/* ---- names ------------------------------------------------------------- */
/* names[i] when i < n and names[i] is set, else fallback. */
static inline const char *arb_name_at(const char *const *names, unsigned n, unsigned i,
                                      const char *fallback)
{
    return names && i < n && names[i] ? names[i] : fallback;
}
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

#ifdef __cplusplus
}
#endif
#endif
