/* conform_int.h — what the files of src/conform share: the loaded suite
 * (libxml2 documents kept alive, the cases found in them, the catalogs and
 * expectations) and the cross-file internals arb_conform__*. The runner
 * walks the case's XML nodes directly, read-only, so loading never has to
 * translate the vocabulary into a second representation. */
#ifndef ARBITER_CONFORM_INT_H
#define ARBITER_CONFORM_INT_H

#include <libxml/tree.h>

#include "arbiter/conform.h"
#include "arbiter/match.h"
#include "arbiter/tree.h"

#define CF_NS "urn:arbiter:conformance:1"
#define CF_FILE_MAX (4u << 20)     /* bytes of one XML file */
#define CF_XSD_MAX (256u << 10)    /* bytes of one schema */
#define CF_FILES_MAX 4096
#define CF_CASES_MAX 100000
#define CF_DIAGS_MAX 1000
#define CF_DEPTH_MAX 6             /* directory recursion */
#define CF_ACTIONS_MAX 100000      /* actions of one case, repeats included */

enum { CF_RULES = 1, CF_SET, CF_EXPECT, CF_VIEWS };

typedef struct cf_file {
    char *path;
    xmlDocPtr doc;
    int kind;                      /* CF_*, 0 if unusable */
    char *game;                    /* rules/test-set game */
    char *name;                    /* test-set name */
} cf_file;

typedef struct cf_case {
    unsigned file;
    xmlNodePtr node;
    int deck;                      /* deck-case */
    char *id, *covers, *gaps;
    int line;
    int selected;                  /* passes the filters */
} cf_case;

typedef struct cf_entry {
    unsigned file;
    char *id, *kind, *gaps;
    int line;
} cf_entry;

/* views.xml: a zone hidden from other seats (or from all). */
typedef struct cf_hidden {
    const char *game;
    char zone[32], when[32];
    int from_all;
    int line;
} cf_hidden;

typedef struct cf_expect {
    int what;                      /* 0 known-failure, 1 skip, 2 uncovered */
    char *game, *pattern, *status, *reason;
    int line;
    unsigned hits;
} cf_expect;

struct arb_conform_suite {
    arb_conform_options opt;
    char *root;                    /* directory holding schema/ */
    cf_file *files; unsigned nfiles, capfiles;
    cf_case *cases; unsigned ncases, capcases;
    cf_entry *entries; unsigned nentries, capentries;
    cf_expect *expects; unsigned nexpects, capexpects;
    cf_hidden *hidden; unsigned nhidden, caphidden;
    arb_conform_diag *diags; unsigned ndiags, capdiags;
    arb_conform_result *results; unsigned nresults;
    arb_conform_entry *cov; unsigned ncov;
    char *covstr;                  /* storage of arb_conform_entry.cases */
    int ran, gated;
    int partial;                   /* a path named a single file */
    char **strs; unsigned nstrs, capstrs;  /* owned strings */
};

/* loader.c */
void arb_conform__diag(arb_conform_suite *s, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
char *arb_conform__strdup(arb_conform_suite *s, const char *str);
/* Drop a trailing incomplete UTF-8 sequence (left by a cut at a byte
 * bound), so a truncated string stays valid UTF-8. */
void arb_conform__utf8_cut(char *s);
/* Attribute value into buf ("" and 0 when absent, 1 when present). */
int arb_conform__attr(const xmlNode *n, const char *name, char *buf, size_t size);
int arb_conform__is(const xmlNode *n, const char *name);
/* The action of an <act>/<reject>: its do= text into text, parsed by the
 * text syntax, or with malformed="true" as a replay or the C API can carry
 * it (arb_action_parse_malformed). */
int arb_conform__action(const arb_game *g, const xmlNode *n, char *text, size_t size, arb_action *a,
                        arb_error *err);
const arb_game *arb_conform__game(const arb_conform_suite *s, const char *id);
/* Text content of an element (trimmed of the indentation lines) into a new
 * malloc'd string; NULL on ENOMEM. */
char *arb_conform__text(const xmlNode *n);

/* position.c: a <position> element → state tree under parent. */
int arb_conform__position(arb_tree *t, arb_tnode *parent, const xmlNode *pos, arb_error *err);
/* Parse a scalar or "[a, b]" text into a node under parent (key may be NULL). */
int arb_conform__value(arb_tree *t, arb_tnode *parent, const char *key, const char *text,
                       arb_error *err);

/* expectations.c */
void arb_conform__expectations_load(arb_conform_suite *s, unsigned file);
/* Adjust a finished result: XFAIL/XPASS for listed cases. */
void arb_conform__expectations_apply(arb_conform_suite *s, arb_conform_result *r);
/* Skip entry for a case, or NULL. */
const cf_expect *arb_conform__expectations_skip(const arb_conform_suite *s, const char *game,
                                                const char *id);
const cf_expect *arb_conform__expectations_uncovered(const arb_conform_suite *s, const char *rule);

/* invariants.c: the game contract checked at every step (see there). The
 * first violation sets failed (the invariant's name) and msg. */
typedef struct cf_inv {
    arb_action *legal;
    size_t caplegal;
    arb_match *copy;               /* scratch state for legal-accepted */
    const char *failed;
    char msg[ARB_CF_MSG_MAX];
    unsigned view_checked, view_skipped;
    uint32_t turn;                 /* turn() at the last step (turn-grows) */
    int stepped, was_over;
} cf_inv;
/* After setup or an accepted action: events-dropped, narration-hidden,
 * outcome-open, decision-owed, turn-grows, legal-unique, legal-accepted,
 * view-hidden. 0 or -1 (I->msg says why). */
int arb_conform__inv_step(cf_inv *I, const arb_conform_suite *s, const arb_game *g, const arb_match *m,
                          const arb_setup *su);
/* Before a <reject>: the action is not among legal()'s. */
int arb_conform__inv_reject(cf_inv *I, const arb_game *g, const arb_match *m, const arb_action *a);
void arb_conform__inv_free(cf_inv *I);

/* runner.c */
/* Run case i; when logcb is set, call it with the accepted action log. */
void arb_conform__run_case(const arb_conform_suite *s, const cf_case *c, arb_conform_result *r,
                           int (*logcb)(void *ctx, const arb_conform_log *log), void *ctx);

/* record.c: write a case's log as a .tcgr (final checkpoint if unfinished);
 * round trip = record into a temporary file, verify, compare hashes. */
int arb_conform__record(const arb_conform_log *lg, const char *path, uint64_t *final_hash, arb_error *err);
int arb_conform__roundtrip(const arb_conform_log *lg, uint64_t want_hash, char *msg, size_t size);

/* coverage.c */
int arb_conform__coverage(arb_conform_suite *s);

/* reference.c: engine match m against the reference's rm in the same
 * position (arb_conform_options.reference): 0 the same, 1 with msg naming
 * the first differences; the last action's events too when events. */
int arb_conform__ref_compare(const arb_match *m, const arb_match *rm, int events, char *msg, size_t size);
/* a in rg's verb numbers (matched by name; a verb number past g's list is
 * kept): 0, or -1 when rg has no such verb. */
int arb_conform__ref_action(const arb_game *g, const arb_game *rg, const arb_action *a, arb_action *out);

#endif
