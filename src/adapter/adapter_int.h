/* adapter_int.h — what the protocol's client (client.c) and server
 * (server.c) share: the JSON shapes of actions, events, decks and errors
 * (proto.c). */
#ifndef ARBITER_ADAPTER_INT_H
#define ARBITER_ADAPTER_INT_H

#include <stdio.h>

#include "arbiter/adapter.h"
#include "arbiter/hash.h"
#include "arbiter/tree.h"

/* {"seat":0|"arbiter","verb":"play","args":[3],"ms":0}; a verb number
 * outside the game's verbs is written as that integer. */
void arb_adapter__write_action(FILE *f, const arb_game *g, const arb_action *a);
/* [action,…] of a[0..n) */
void arb_adapter__write_actions(FILE *f, const arb_game *g, const arb_action *a, size_t n);
/* The same text into *buf (grown as needed; *cap its size): its length,
 * or 0 when out of memory or a verb name needs escaping. */
size_t arb_adapter__format_actions(char **buf, size_t *cap, const arb_game *g, const arb_action *a, size_t n);
/* {"type":"draw","seat":0,"hidden":true,"a":1,"b":0,"c":0} */
void arb_adapter__write_event(FILE *f, const arb_game *g, const arb_event *e);
/* {"name":"…","cards":["id",…],"attrs":{"k":"v"}} */
void arb_adapter__write_deck(FILE *f, const arb_game *g, const arb_deck *d);
/* {"k":v,…} */
void arb_adapter__write_options(FILE *f, const arb_options *o);
/* An integer in decimal; a hash as "16 lowercase hex digits" (quoted):
 * without printf, which the per-step answers spent most of their time in. */
void arb_adapter__put_int(FILE *f, int64_t v);
void arb_adapter__put_hash(FILE *f, uint64_t h);
/* "all" for ARB_VIEW_ALL, else the seat number. */
void arb_adapter__write_seat(FILE *f, int seat);

/* Readers: ARB_EINVAL with err->where naming the JSON path on a bad shape. */
int arb_adapter__read_action(const arb_game *g, const arb_tnode *n, const char *path, arb_action *out,
                             arb_error *err);
int arb_adapter__read_event(const arb_game *g, const arb_tnode *n, const char *path, arb_event *out,
                            arb_error *err);
int arb_adapter__read_deck(const arb_game *g, const arb_tnode *n, const char *path, arb_deck *out,
                           arb_error *err);
int arb_adapter__read_options(const arb_tnode *n, const char *path, arb_options *out, arb_error *err);
/* A seat (integer), "arbiter" or "none". */
int arb_adapter__read_seat(const arb_tnode *n, int *out);
/* A decimal uint64 in a string (or a non-negative integer). */
int arb_adapter__read_u64(const arb_tnode *n, uint64_t *out);

/* A contract-3 game over a contract-2 plug-in's vtable (plugin_c2.c); *out
 * is allocated for the life of the process. */
struct arb_game_c2;
int arb_adapter__shim_c2(const struct arb_game_c2 *o, arb_game **out, arb_error *err);

/* client.c's requests past its caches, for promises.c: begin locks the
 * adapter of proxy state st and gives a live handle of it (-1: the
 * adapter failed); raw sends {"op":op,"state":h[,"action":act]} and reads
 * the answer (*r valid until the next request): ARB_OK, a refusal's code
 * with err filled, or ARB_EIO (sticky); raw_hash reads an answer's "hash"
 * (-1 and sticky when malformed); raw_fail makes a malformed answer to op
 * sticky; end unlocks. No proxy call may come between begin and end. */
int arb_adapter__raw_begin(const void *st, arb_adapter **out, int64_t *h);
int arb_adapter__raw(arb_adapter *a, const char *op, int64_t h, const arb_action *act, const arb_tnode **r,
                     arb_error *err);
int arb_adapter__raw_hash(arb_adapter *a, const arb_tnode *r, const char *op, uint64_t *out);
void arb_adapter__raw_fail(arb_adapter *a, const char *op, const char *what);
void arb_adapter__raw_end(arb_adapter *a);

/* Protocol error codes: "illegal", "invalid", "over", … <-> ARB_E*. */
const char *arb_adapter__code_name(int code);
int arb_adapter__code_parse(const char *name);

#endif
