/* an_int.h — what the analyzer's files share and nobody else sees: the
 * source vtable, growable buffers, JSON and HTML escaping, the tree walk
 * helpers. */
#ifndef ARBITER_ANALYZE_AN_INT_H
#define ARBITER_ANALYZE_AN_INT_H

#include <stdio.h>

#include "arbiter/analyze.h"
#include "arbiter/replay.h"
#include "arbiter/text.h"

typedef struct arb_an_source_ops {
    int (*next)(void *self, arb_an_record *rec, arb_error *err);
    void (*close)(void *self);
    /* Back to the first record (NULL: the source cannot: a second
     * analysis of it is refused instead of seeing only the rest). */
    int (*rewind)(void *self, arb_error *err);
} arb_an_source_ops;

struct arb_an_source {
    const arb_an_source_ops *ops;
    void *self;
    arb_an_header hdr;
    char name[256];
    int started;                    /* a record has been asked for */
    int done, done_rc;
    arb_error done_err;
};

/* Before a walk: rewind a source that has been read (ARB_OK when it is
 * at its first record). */
int arb_an__source_rewind(arb_an_source *s, arb_error *err);

int arb_an__source_new(arb_an_source **out, const char *name, const arb_an_source_ops *ops,
                       void *self);

/* Text escaping for the two output languages. */
void arb_an__json_str(FILE *out, const char *s);
/* A recorded state hash as printed everywhere: "0x" and 16 hex digits, or
 * for a checkpoint that keeps only its low bits (format 2's mid-match
 * checkpoints keep 8) "0xe8 (low 8 bits)". Returns buf. */
const char *arb_an__hash_str(char *buf, size_t size, uint64_t hash, unsigned bits);
void arb_an__html_str(FILE *out, const char *s);

/* The name of a decision kind, outcome reason, event type or verb, with a
 * numeric fallback for out-of-range values from hostile files. */
const char *arb_an__decision_name(const arb_game *g, unsigned kind, char *buf, size_t size);
const char *arb_an__event_name(const arb_game *g, unsigned type, char *buf, size_t size);
const char *arb_an__verb_name(const arb_game *g, unsigned verb, char *buf, size_t size);

/* Card ID of seat's card uid per the header's deck lists, or NULL. */
const char *arb_an__card_id(const arb_an_header *h, int seat, int32_t uid);
/* Whether arg i of verb v names a card of the acting seat (its help token
 * is UID, CARD or HAND_UID…: see an_util.c). */
int arb_an__arg_is_card(const arb_game *g, unsigned verb, unsigned i);

/* Event flags for narration: arbiter/clock events. */
int arb_an__event_is_clock(const arb_game *g, const arb_event *e);

/* A tracked path's value for seat ('*' replaced, '#' = list length). */
int arb_an__track_value(const arb_tnode *root, const char *path, int seat, int64_t *v);

/* Label each of n events with the turn and phase in which it happens,
 * starting from those of the state before the action (an_track.c). */
void arb_an__label_events(const arb_game *g, const arb_event *ev, unsigned n, uint32_t turn,
                          const char *phase, uint32_t *turns, const char **phases);

/* The verifier's judgement (arb_replay_verify), one record at a time on
 * the analyzer's match, so that every command stops where `verify` stops
 * (an_walk.c). judge_init after setup; judge_step applies an action to m
 * (unless it may not be applied at all) or checks a checkpoint/outcome. */
typedef struct arb_an__judge {
    uint32_t turn;                  /* the engine's turn at the last checkpoint */
    int need_cp;                    /* the turn changed since: a checkpoint is owed */
    int outcome_read;               /* nothing may follow an outcome record */
} arb_an__judge;

typedef struct arb_an__verdict {
    int rejected;                   /* the engine refused the action */
    arb_error reject;               /* its code, rule ID and sentence */
    int check;                      /* CHECKPOINT/OUTCOME: 1 match, 0 mismatch; else -1 */
    uint64_t computed_hash;
    arb_verify_kind diverged;       /* what verify calls this record, ARB_DIV_NONE */
    char detail[ARB_MSG_MAX];       /* "illegal-action: RULE sentence" */
} arb_an__verdict;

void arb_an__judge_init(arb_an__judge *j, const arb_match *m);
void arb_an__judge_step(arb_an__judge *j, arb_match *m, const arb_an_record *rec, arb_an__verdict *v);
/* err = "NAME: record K (decompressed offset X): detail" for a divergence. */
void arb_an__judge_error(arb_error *err, const char *name, const arb_an_record *rec, const arb_an__verdict *v);

/* arb_an_walk with the action descriptions optional (they cost a state
 * copy per action; `state --at` and stats do without). */
int arb_an__walk(arb_an_source *src, int want_text, arb_an_step_fn fn, void *ctx,
                 arb_match **mout, arb_an_walk_result *res, arb_error *err);

/* The actions legal() lists at this point, in its order: at most max of
 * them into *out (malloc'd, the caller frees it). Returns how many legal()
 * lists (more than max when cut), or (size_t)-1 when out of memory. */
size_t arb_an__legal(const arb_match *m, size_t max, arb_action **out);

/* The report's generated tables (Makefile): a rulebook citation per rule
 * ID from the rule catalogs (game: the catalog's directory), ended by a
 * zero row; each game's board layout
 * (src/games/<id>/board.json) as lines, ended by a NULL game. */
typedef struct arb_an_rule_cite {
    const char *game, *id, *section, *source, *text;
} arb_an_rule_cite;
extern const arb_an_rule_cite arb_an__rule_cites[];
typedef struct arb_an_board_layout {
    const char *game;
    const char *const *lines;
} arb_an_board_layout;
extern const arb_an_board_layout arb_an__board_layouts[];

#endif
