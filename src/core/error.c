/* error.c — filling and formatting arb_error values. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/error.h"

int arb_error_set(arb_error *err, int code, const char *rule, const char *fmt, ...)
{
    if (!err) return code;
    err->code = code;
    snprintf(err->rule, sizeof err->rule, "%s", rule ? rule : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

void arb_error_where(arb_error *err, const char *fmt, ...)
{
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->where, sizeof err->where, fmt, ap);
    va_end(ap);
}

void arb_error_clear(arb_error *err)
{
    if (!err) return;
    err->code = 0;
    err->rule[0] = err->msg[0] = err->where[0] = '\0';
}

size_t arb_error_format(const arb_error *err, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s%s%s%s%s", err->where, err->where[0] ? ": " : "",
                     err->rule, err->rule[0] ? ": " : "",
                     err->msg[0] ? err->msg : arb_strerror(err->code));
    return n < 0 ? 0 : (size_t)n;
}

const char *arb_strerror(int code)
{
    switch (code) {
    case ARB_OK: return "ok";
    case ARB_EILLEGAL: return "illegal";
    case ARB_EINVAL: return "invalid input";
    case ARB_ENOMEM: return "out of memory";
    case ARB_EIO: return "i/o error";
    case ARB_ETRUNC: return "truncated";
    case ARB_ELIMIT: return "limit exceeded";
    case ARB_EFORMAT: return "bad format";
    case ARB_EUNSUPPORTED: return "unsupported";
    case ARB_EVERIFY: return "verification failed";
    case ARB_ENOTFOUND: return "not found";
    case ARB_EOVER: return "match over";
    default: return "unknown error";
    }
}
