/* arbiter/error.h — status codes and the error value every fallible call fills.
 *
 * An arb_error carries a code, the ID of the rule an action or deck broke
 * (empty when no rule applies), a human sentence, and where in which input
 * the problem is (file, byte offset or line). Callers own the struct; the
 * library only writes into it. */
#ifndef ARBITER_ERROR_H
#define ARBITER_ERROR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    ARB_OK = 0,
    ARB_EILLEGAL = -1,     /* an action or position breaks a rule (rule ID set) */
    ARB_EINVAL = -2,       /* malformed input: bad syntax, out-of-range value */
    ARB_ENOMEM = -3,
    ARB_EIO = -4,          /* open/read/write failed (errno text in msg) */
    ARB_ETRUNC = -5,       /* input ends before a complete record */
    ARB_ELIMIT = -6,       /* input exceeds a configured bound */
    ARB_EFORMAT = -7,      /* not this format, or corrupt */
    ARB_EUNSUPPORTED = -8, /* unknown game, rules version, rng or format version */
    ARB_EVERIFY = -9,      /* replay diverges from what it recorded */
    ARB_ENOTFOUND = -10,   /* unknown game, card, verb, path */
    ARB_EOVER = -11        /* the match is already over */
};

#define ARB_RULE_MAX 40
#define ARB_MSG_MAX 256
#define ARB_WHERE_MAX 256

typedef struct arb_error {
    int code;                   /* one of ARB_E*, ARB_OK when clear */
    char rule[ARB_RULE_MAX];    /* e.g. "NAR-LIMIT-ROSTER"; "" when none */
    char msg[ARB_MSG_MAX];      /* one sentence, no trailing newline */
    char where[ARB_WHERE_MAX];  /* "file.tcgr: offset 1234" / "x.xml:12"; "" */
} arb_error;

#define ARB_ERROR_INIT { 0, "", "", "" }

/* Set code, rule (NULL for none) and a printf-style message. Returns code. */
int arb_error_set(arb_error *err, int code, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Set the location, printf-style ("%s: offset %llu"). err may be NULL. */
void arb_error_where(arb_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void arb_error_clear(arb_error *err);
/* "where: RULE: msg" (parts omitted when empty). Returns bytes that would
 * have been written, like snprintf. */
size_t arb_error_format(const arb_error *err, char *buf, size_t size);
/* Stable short name of a code: "illegal", "invalid", "truncated", … */
const char *arb_strerror(int code);

/* Argument checks at public entry points (libgit2's GIT_ASSERT_ARG): an
 * argument the contract forbids (a NULL game, setup or out-pointer) is the
 * caller's bug, refused with ARB_EINVAL naming it instead of a crash. For
 * functions that return an ARB_E* code and take an arb_error (may be NULL). */
#define ARB_ASSERT_ARG(err, cond)                                                                         \
    do {                                                                                                  \
        if (!(cond)) return arb_error_set((err), ARB_EINVAL, NULL, "invalid argument: %s is false", #cond); \
    } while (0)

#ifdef __cplusplus
}
#endif
#endif
