/* arbiter/conform.h — the XML conformance suite: rule catalogs, cases,
 * a runner with coverage, and TAP / JUnit / JSON reports.
 *
 * A suite is loaded from files and directories (conformance/ by default):
 * conformance/GAME/rules.xml is that game's rule catalog,
 * conformance/GAME/NAME.xml are test sets, conformance/expectations.xml
 * lists known failures with a reason. Every file is validated against the
 * XSDs in conformance/schema/ (libxml2, no network, no DTD, no entities);
 * problems become diagnostics with file:line, not crashes.
 *
 * Each case runs in a fresh arb_match; its accepted actions are recorded as a
 * .tcgr replay and verified: it must reproduce the final hash. Results are
 * kept in load order whatever the number of jobs. */
#ifndef ARBITER_CONFORM_H
#define ARBITER_CONFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arbiter/error.h"
#include "arbiter/game.h"
#include "arbiter/match.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum arb_cf_status {
    ARB_CF_PASS = 0,
    ARB_CF_FAIL,        /* an assertion or expected acceptance/rejection failed */
    ARB_CF_WRONG_RULE,  /* rejected (or illegal) as expected, but by another rule */
    ARB_CF_ERROR,       /* the case could not run: bad action text, setup error… */
    ARB_CF_SKIP,        /* no engine for the game, or skipped by expectations */
    ARB_CF_XFAIL,       /* failed, and listed as a known failure */
    ARB_CF_XPASS        /* passed although listed as a known failure */
} arb_cf_status;

/* "PASS", "FAIL", "WRONG-RULE", "ERROR", "SKIP", "XFAIL", "XPASS". */
const char *arb_cf_status_name(int status);
/* Whether a status makes the run fail (FAIL, WRONG-RULE, ERROR, XPASS). */
int arb_cf_status_unexpected(int status);

typedef struct arb_conform_options {
    const char *schema_dir;   /* NULL: <suite root>/schema, found from the paths */
    const char *expectations; /* NULL: <suite root>/expectations.xml if present */
    const char *game;         /* filters; NULL = all */
    const char *set;          /* test-set name (glob) */
    const char *case_glob;    /* case ID glob */
    const char *rule;         /* only cases covering this rule ID */
    int jobs;                 /* worker threads; <= 1 runs in the caller */
    int replay_check;         /* record + verify each case as a .tcgr (1) */
    int invariants;           /* check the runner's invariants at every step (1) */
    /* Engines to use instead of the registry (NULL-terminated), for tests. */
    const arb_game *const *games;
    /* Asked after every case (may be NULL): nonzero stops the run, with why
     * (an engine adapter that died). The case it stops after is an ERROR
     * saying why, not the failure a dead engine looks like; the cases not
     * run are SKIP "not run: …". */
    int (*stop)(void *ctx, char *why, size_t size);
    void *stop_ctx;
    /* Each test case played on this engine as well (conform --engine: the
     * built-in engine of the adapter's game), which must agree with the
     * engine after the setup, every accepted action and every refusal on
     * everything observable: decision (clock included), turn, phase,
     * outcome, hash, legal actions (as a set), the full state tree (member
     * order included), the action's events and a refusal's code and rule.
     * The first difference is a FAIL naming the fields. NULL: none. */
    const arb_game *reference;
    /* With reference: asked after the setup and at the case's end with the
     * engine's match m and the reference's rm, in the same position. 0
     * kept; 1 a FAIL saying why; other an ERROR saying why (the adapter
     * failed). May be NULL. conform --engine checks the promises no single
     * answer shows here (arb_adapter_promises). */
    int (*promises)(void *ctx, const arb_match *m, const arb_match *rm, char *why, size_t size);
    void *promises_ctx;
} arb_conform_options;

#define ARB_CONFORM_OPTIONS_INIT { NULL, NULL, NULL, NULL, NULL, NULL, 1, 1, 1, NULL, NULL, NULL, NULL, NULL, NULL }

/* A problem found while loading or linting: "file:line: message". */
typedef struct arb_conform_diag {
    char where[ARB_WHERE_MAX];     /* "file:line", or "file" when line is 0 */
    char msg[ARB_MSG_MAX];
    int line;                      /* 0: the whole file */
} arb_conform_diag;

#define ARB_CF_MSG_MAX 768

typedef struct arb_conform_result {
    const char *game, *set, *id;   /* borrowed from the suite */
    const char *file;
    int line;                      /* the case's line */
    int at_line;                   /* the failing element's line; 0: the case as a whole */
    const char *covers;            /* space-separated rule IDs */
    uint64_t seed;
    int status;
    int listed;                    /* in expectations (known failure or skip) */
    const char *reason;            /* expectations reason, or NULL */
    char message[ARB_CF_MSG_MAX];  /* first failure: expected vs got (no location; valid UTF-8) */
    double ms;                     /* wall time of the case */
    uint32_t actions;              /* actions applied */
    int not_run;                   /* SKIP because opt.stop stopped the run */
} arb_conform_result;

/* One catalog entry and the cases that cover it. */
typedef struct arb_conform_entry {
    const char *game, *id, *kind;  /* kind: rule, rule-needing-interpretation, informational */
    int testable;                  /* kind != informational */
    int engine;                    /* the game has an engine in this build */
    unsigned ncases, npassing;
    const char *cases;             /* space-separated case IDs covering it */
    const char *uncovered_reason;  /* expectations <uncovered>, or NULL */
} arb_conform_entry;

typedef struct arb_conform_suite arb_conform_suite;

/* Load every catalog, test set and the expectations under paths (files or
 * directories, recursively, *.xml, sorted). Validation problems become
 * diagnostics; only a missing schema, an unreadable path or ENOMEM fail.
 * Loading sets libxml2's global error handler for its duration: do not load
 * two suites on two threads at once (running one suite on many is fine). */
int arb_conform_load(arb_conform_suite **out, const char *const *paths, size_t npaths,
                     const arb_conform_options *opt, arb_error *err);
/* The suite loaded when no path is given: $ARBITER_CONFORMANCE when set,
 * else the first of arb_conform_search_places() that holds
 * schema/conformance.xsd; NULL when none does (arb_conform_load then fails
 * naming every place). */
const char *arb_conform_default_dir(void);
/* The places searched, in order: ./conformance (a checkout), the checkout
 * of the build tree the running program is in (the parent and grandparent
 * of its directory, from /proc/self/exe), the installed copy
 * (PREFIX/share/arbiter/conformance). Stores up to cap of them in out
 * (static strings) and returns how many there are. */
unsigned arb_conform_search_places(const char **out, unsigned cap);
/* One document from memory (name is used in diagnostics); options.schema_dir
 * is required. For fuzzing and for programs that generate cases. */
int arb_conform_load_mem(arb_conform_suite **out, const char *name, const void *data, size_t len,
                         const arb_conform_options *opt, arb_error *err);
void arb_conform_free(arb_conform_suite *s); /* NULL ok */

/* Cross-file checks: case IDs unique per game, every referenced rule ID
 * and gap exists in the game's catalog, test-set game = its directory.
 * Adds diagnostics; returns how many it added. */
unsigned arb_conform_lint(arb_conform_suite *s);

unsigned arb_conform_ndiags(const arb_conform_suite *s);
const arb_conform_diag *arb_conform_diag_at(const arb_conform_suite *s, unsigned i);
unsigned arb_conform_nfiles(const arb_conform_suite *s);
unsigned arb_conform_ncases(const arb_conform_suite *s);  /* after filters */

/* Run the (filtered) cases. */
int arb_conform_run(arb_conform_suite *s, arb_error *err);
unsigned arb_conform_nresults(const arb_conform_suite *s);
const arb_conform_result *arb_conform_result_at(const arb_conform_suite *s, unsigned i);

/* Coverage of the catalogs by the results of the last run. */
unsigned arb_conform_nentries(const arb_conform_suite *s);
const arb_conform_entry *arb_conform_entry_at(const arb_conform_suite *s, unsigned i);
/* R/R* entries of games with an engine that no passing case covers and
 * that expectations do not list as uncovered. */
unsigned arb_conform_uncovered(const arb_conform_suite *s);
/* Whether the coverage gate applies: no set/case/rule filter and only
 * directories were given (a single file is a partial run). */
int arb_conform_gated(const arb_conform_suite *s);

/* Unexpected results + gated uncovered entries + diagnostics. 0 = green. */
unsigned arb_conform_failures(const arb_conform_suite *s);

/* Reports of the last run. */
int arb_conform_write_tap(const arb_conform_suite *s, FILE *out);
int arb_conform_write_junit(const arb_conform_suite *s, FILE *out);
int arb_conform_write_json(const arb_conform_suite *s, FILE *out);
/* Human coverage listing: per game, every entry with its cases. */
int arb_conform_write_coverage(const arb_conform_suite *s, FILE *out);

/* Re-run one case (by result index) while recording its accepted actions
 * through cb, for --save-failing. cb gets the setup or position used. */
typedef struct arb_conform_log {
    const arb_game *game;
    const arb_setup *setup;
    const arb_tnode *position;     /* NULL for a seeded setup */
    size_t nactions;
    const arb_action *actions;
    /* Appended: the case and its whole script in document order, for
     * drivers that play from the suite's positions (crosscheck). */
    const char *id;                /* the case ID */
    const char *set;               /* its test set */
    const char *file;              /* its file and line */
    int line;
    int status;                    /* how the case ran (ARB_CF_PASS …) */
    size_t nscript;                /* actions tried, accepted or refused */
    const arb_action *script;
    const unsigned char *refused;  /* refused[i]: script[i] was refused */
} arb_conform_log;
int arb_conform_case_log(const arb_conform_suite *s, unsigned result,
                         int (*cb)(void *ctx, const arb_conform_log *log), void *ctx,
                         arb_error *err);
/* Run every selected test case (deck cases aside, with the suite's options:
 * a driver loads it with invariants and replay_check off) and give cb each
 * one's start and script, in load order; nothing is kept as results. cb
 * returning nonzero stops the walk (that value is returned). */
int arb_conform_each_case(const arb_conform_suite *s, int (*cb)(void *ctx, const arb_conform_log *log), void *ctx,
                          arb_error *err);
/* Write result's accepted actions as a .tcgr at path (a judge replays it
 * with `arbiter verify`/`log`); deck cases have no log (ARB_ENOTFOUND). */
int arb_conform_save_case(const arb_conform_suite *s, unsigned result, const char *path,
                          arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
