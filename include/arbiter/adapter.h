/* arbiter/adapter.h — engines outside the build, through the engine protocol
 * (conformance/ADAPTER.md): newline-delimited JSON over an adapter process's
 * stdin and stdout.
 *
 * Client side: arb_adapter_open starts the adapter command, shakes hands and
 * presents it as an arb_game (a proxy) that every driver — the conformance
 * runner, the verifier, crosscheck, perft — uses like a compiled-in engine.
 * A proxy state is a small value (the adapter and a node of an immutable
 * action history), so copying its bytes still clones a match: the remote
 * states are only a cache, rebuilt from the setup and the actions when a
 * copy needs one that was moved on.
 *
 * The vtable slots that cannot return an error (decision, legal, hash,
 * export …) return neutral values when the adapter fails; the failure is
 * sticky and named by arb_adapter_failed, which every driver checks.
 *
 * Server side: arb_adapter_serve answers the protocol for a compiled-in
 * engine on two streams (`arbiter engine-serve`), optionally with one of the
 * documented deliberate faults. */
#ifndef ARBITER_ADAPTER_H
#define ARBITER_ADAPTER_H

#include <stdio.h>

#include "arbiter/game.h"
#include "arbiter/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_ADAPTER_PROTOCOL 2            /* the newest; 1 is still spoken both ways */
#define ARB_ADAPTER_PROBES_MAX 64         /* actions in one protocol-2 probe */
#define ARB_ADAPTER_LINE_MAX (4u << 20)   /* bytes of one message, newline included */
#define ARB_ADAPTER_TIMEOUT_MS 10000      /* per request */
#define ARB_ADAPTER_STATES_MAX 65536      /* live state handles in a server */

typedef struct arb_adapter arb_adapter;

typedef struct arb_adapter_opts {
    int timeout_ms;        /* per request; <= 0: ARB_ADAPTER_TIMEOUT_MS */
    size_t line_max;       /* 0: ARB_ADAPTER_LINE_MAX */
    const char *game;      /* the game the caller expects, or NULL for any */
} arb_adapter_opts;

#define ARB_ADAPTER_OPTS_INIT { 0, 0, NULL }

/* Start `/bin/sh -c cmd`, handshake, build the proxy game. At most 8
 * adapters are open at once in a process (ARB_ELIMIT beyond). */
int arb_adapter_open(arb_adapter **out, const char *cmd, const arb_adapter_opts *opts, arb_error *err);
/* Says bye, waits briefly, kills the process if needed. NULL ok. */
void arb_adapter_close(arb_adapter *a);
/* The proxy game; valid until arb_adapter_close. */
const arb_game *arb_adapter_game(const arb_adapter *a);
/* The adapter behind a proxy game, or NULL for any other game. */
arb_adapter *arb_adapter_of(const arb_game *g);
/* NULL while healthy, else the sticky failure: "request 12 (legal): the
 * adapter sent no answer within 10000 ms". */
const char *arb_adapter_failed(const arb_adapter *a);
/* Requests sent so far. */
unsigned long long arb_adapter_requests(const arb_adapter *a);
/* Drop every proxy state (their history and remote handles): every state
 * made through this adapter becomes invalid. For drivers that play many
 * matches (crosscheck). */
void arb_adapter_forget(arb_adapter *a);

/* Read ahead, in one round trip, the answers a differential driver is about
 * to ask of proxy state st: decision, outcome, hash, legal and the state
 * tree of every view (all and seats 0..players-1). The next such calls are
 * answered from them; any other request drops them. */
int arb_adapter_prefetch(const void *st, int players);
/* One differential step in one round trip: apply acts[0..n) in order to
 * proxy state st (rcs[i] and errs[i] get each verdict, evs[i] — may be
 * NULL — each accepted action's events), then read ahead as
 * arb_adapter_prefetch does for the resulting state. Returns ARB_OK, or an
 * error when the adapter failed (sticky). */
#define ARB_ADAPTER_STEP_MAX 16
int arb_adapter_step(void *st, const arb_action *acts, size_t n, int *rcs, arb_error *errs, arb_events *evs,
                     int players);
/* Protocol 2 (arb_adapter_protocol 2): in one round trip, try each of
 * pr->acts (when pr and pr->n; at most ARB_ADAPTER_PROBES_MAX) on a scratch
 * copy of proxy state st — pr->rcs[i] and pr->errs[i] get the verdicts,
 * pr->hash the hash of st after them — then apply act (NULL: nothing) and
 * learn the next decision, outcome and hash, the legal actions when legal
 * is set and the state tree of each of views[0..nviews) (ARB_VIEW_ALL or a
 * seat), which the proxy's decision, legal, hash and export then answer
 * without a request. ex (may be NULL) is what the caller expects, for a
 * differential driver's fast path: the legal list (in the proxy's verb
 * numbers) and the "trees" list as compact JSON; a member of the answer
 * that is byte for byte the expected one (the reference adapter's
 * spelling) is taken as read, not parsed — ex->trees_same then says the
 * trees agreed (and arb_adapter_tree has none); any other answer is read
 * in full. Returns the verdict on act (ev gets its events), or ARB_EIO
 * when the adapter failed (sticky). */
typedef struct arb_adapter_probes {
    const arb_action *acts;
    size_t n;
    int *rcs;
    arb_error *errs;
    uint64_t hash;
} arb_adapter_probes;
typedef struct arb_adapter_expect {
    const arb_action *legal;
    size_t nlegal;
    const char *trees;      /* "[tree,…]", one per view asked, or NULL */
    size_t trees_len;
    int trees_same;         /* out */
} arb_adapter_expect;
int arb_adapter_step2(void *st, arb_adapter_probes *pr, const arb_action *act, arb_events *ev, int legal,
                      const int *views, unsigned nviews, arb_adapter_expect *ex, arb_error *err);
/* The state tree of view that arb_adapter_step2 brought for st, or NULL;
 * valid until st's node is moved on or the adapter forgets its states. */
const arb_tnode *arb_adapter_tree(const void *st, int view);
/* The protocol hello agreed on: 2, or 1 for an adapter that refused 2. */
int arb_adapter_protocol(const arb_adapter *a);
/* Whether the read-ahead state tree of view is byte for byte the compact
 * JSON json (arb_tnode_json with indent 0): a fast path for comparing
 * trees; 0 means "not known to be equal", never "different". */
int arb_adapter_state_is(const void *st, int view, const char *json, size_t len);

/* The promises of ADAPTER.md section 3 that no single answer shows,
 * checked on proxy state st past the proxy's caches, against the reference
 * engine ref in state rst (the same position): `legal` asked twice gives
 * the same list in the same order; `describe` of up to 8 legal actions is
 * ref's text (or "", no text); a `clone` moved on by the first legal
 * action leaves st's hash as it was (the clone is freed). 0 kept, 1 broken
 * (why: one line naming the first broken promise and what was seen),
 * ARB_EIO the adapter failed (sticky).
 * About 14 requests; st's handle and caches are left as they were. */
int arb_adapter_promises(const void *st, const arb_game *ref, const void *rst, char *why, size_t size);

/* Faults of the reference adapter, for testing the tools that must catch
 * them (NULL-terminated list of names, and one line of description each). */
extern const char *const arb_adapter_fault_names[];
extern const char *const arb_adapter_fault_help[];
int arb_adapter_fault_find(const char *name); /* -1 when unknown */
/* Whether fault can show in game g at all (clock-off-by-one needs a game
 * whose decisions have a clock: a fresh match of g with its first preset
 * decks is asked). */
int arb_adapter_fault_shows(const arb_game *g, int fault);

/* Serve the protocol for g on in/out until "bye" or end of input. fault is
 * an index into arb_adapter_fault_names or -1. Returns 0 on a clean end. */
int arb_adapter_serve(const arb_game *g, int fault, FILE *in, FILE *out, arb_error *err);
/* The same, speaking protocols 1..protocol only (1: a protocol-1 adapter,
 * which refuses a hello offering 2 and knows no step or probe). */
int arb_adapter_serve_protocol(const arb_game *g, int fault, int protocol, FILE *in, FILE *out, arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
