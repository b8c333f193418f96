/* arbiter/tree.h — the state tree: named fields, lists, integers, strings.
 *
 * One tree shape per game serves three consumers: `state --json`, the
 * conformance suite's assertions on state values ("players.0.core"), and
 * field-by-field diffs. Positions (a match started from explicit zones and
 * counters) are given to engines as the same kind of tree. Maps keep their
 * insertion order, so output is deterministic. Nodes live in an arena owned
 * by the arb_tree; they are freed all at once by arb_tree_free. */
#ifndef ARBITER_TREE_H
#define ARBITER_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum arb_tkind {
    ARB_T_NULL = 0,
    ARB_T_BOOL,
    ARB_T_INT,
    ARB_T_STR,
    ARB_T_ARR,
    ARB_T_MAP
} arb_tkind;

typedef struct arb_tnode arb_tnode;
struct arb_tnode {
    arb_tkind kind;
    const char *key;      /* set when the parent is a map, else NULL */
    int64_t i;            /* BOOL (0/1) and INT */
    const char *s;        /* STR (NUL-terminated, arena-owned) */
    uint32_t n;           /* ARR/MAP: number of children */
    arb_tnode *first, *last, *next;
};

typedef struct arb_tree arb_tree;

arb_tree *arb_tree_new(void);            /* NULL on ENOMEM */
void arb_tree_free(arb_tree *t);          /* NULL ok */
/* Empty t for reuse (its first chunk of memory kept); NULL ok. */
void arb_tree_reset(arb_tree *t);
/* The root, a MAP, created with the tree. */
arb_tnode *arb_tree_root(arb_tree *t);
/* Set by any builder call that failed to allocate; builders then return a
 * shared dummy node so callers need not check each call. */
int arb_tree_failed(const arb_tree *t);

/* Builders: append a child to parent (a MAP needs key, an ARR ignores it).
 * Strings are copied into the arena. */
arb_tnode *arb_tree_add_map(arb_tree *t, arb_tnode *parent, const char *key);
arb_tnode *arb_tree_add_arr(arb_tree *t, arb_tnode *parent, const char *key);
arb_tnode *arb_tree_add_int(arb_tree *t, arb_tnode *parent, const char *key, int64_t v);
arb_tnode *arb_tree_add_bool(arb_tree *t, arb_tnode *parent, const char *key, int v);
arb_tnode *arb_tree_add_str(arb_tree *t, arb_tnode *parent, const char *key, const char *s);
arb_tnode *arb_tree_add_strn(arb_tree *t, arb_tnode *parent, const char *key, const char *s, size_t n);
arb_tnode *arb_tree_add_null(arb_tree *t, arb_tnode *parent, const char *key);
/* Deep copy of src (from any tree) under parent. */
arb_tnode *arb_tree_add_copy(arb_tree *t, arb_tnode *parent, const char *key, const arb_tnode *src);

/* Readers. */
const arb_tnode *arb_tnode_get(const arb_tnode *map, const char *key); /* NULL if absent */
const arb_tnode *arb_tnode_at(const arb_tnode *arr, uint32_t i);       /* NULL if out of range */
/* Dotted path: "players.0.hand.2.name"; numeric parts index arrays. */
const arb_tnode *arb_tnode_path(const arb_tnode *root, const char *path);
/* Equal kind and value; maps compare key by key in order. */
int arb_tnode_equal(const arb_tnode *a, const arb_tnode *b);

/* JSON output: compact when indent is 0, else pretty with that many spaces. */
void arb_tnode_json(const arb_tnode *n, FILE *out, int indent);
/* s as a JSON string literal (quotes, backslash, control characters and
 * DEL escaped). The one escaper every JSON writer of arbiter uses. */
void arb_json_str(FILE *out, const char *s);
/* A scalar's value as text into buf ("true", "12", the string itself,
 * "[3 items]"). Returns buf. */
const char *arb_tnode_text(const arb_tnode *n, char *buf, size_t size);

/* Field-by-field differences: calls fn for every path whose value differs
 * (a or b NULL when the field exists on one side only). Stops early when fn
 * returns non-zero. Returns the number of differences visited. */
typedef int (*arb_tree_diff_fn)(void *ctx, const char *path,
                                const arb_tnode *a, const arb_tnode *b);
unsigned arb_tree_diff(const arb_tnode *a, const arb_tnode *b,
                       arb_tree_diff_fn fn, void *ctx);
/* Maps are ordered (conformance/ADAPTER.md §5), which arb_tree_diff does
 * not see: the path of the first map, at any depth, whose members common to
 * a and b come in another order, into path ("" for the root), and 1; 0 when
 * every map agrees. */
int arb_tree_order_differs(const arb_tnode *a, const arb_tnode *b, char *path, size_t size);

/* Parse one JSON value from text[0..len) and append it under parent (with
 * key when parent is a map). Integers must fit int64; fractional numbers,
 * duplicate keys, NUL characters and nesting beyond 64 levels are refused.
 * Errors are ARB_EFORMAT with err->where = "offset N". Strings are limited
 * to 64 KiB. (err is declared in arbiter/error.h.) */
struct arb_error;
int arb_tree_parse_json(arb_tree *t, arb_tnode *parent, const char *key,
                        const char *text, size_t len, struct arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
