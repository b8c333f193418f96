/* an_source.c — the analyzer's abstract input: a header plus a stream of
 * records. The analysis code sees only this, so it works the same over a
 * .tcgr file (an_file.c) or records held in memory (tests, embedders). A
 * source is a small vtable so another reader can be plugged in without
 * touching the analyzer. */
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"

typedef struct mem_source {
    const arb_an_record *recs;
    size_t n, pos;
    int truncated;
} mem_source;

static int mem_next(void *self, arb_an_record *rec, arb_error *err)
{
    mem_source *m = self;
    if (m->pos < m->n) {
        *rec = m->recs[m->pos++];
        return 1;
    }
    if (m->truncated) {
        arb_error_set(err, ARB_ETRUNC, NULL, "the replay ends inside a record (truncated)");
        return ARB_ETRUNC;
    }
    return 0;
}

static void mem_close(void *self) { free(self); }

static int mem_rewind(void *self, arb_error *err)
{
    (void)err;
    ((mem_source *)self)->pos = 0;
    return ARB_OK;
}

static const arb_an_source_ops mem_ops = { mem_next, mem_close, mem_rewind };

int arb_an__source_new(arb_an_source **out, const char *name, const arb_an_source_ops *ops,
                       void *self)
{
    arb_an_source *s = calloc(1, sizeof *s);
    *out = s;
    if (!s) return ARB_ENOMEM;
    s->ops = ops;
    s->self = self;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "(memory)");
    return ARB_OK;
}

int arb_an_open_mem(arb_an_source **out, const char *name, const arb_an_header *hdr,
                    const arb_an_record *recs, size_t n, int truncated, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    *out = NULL;
    if (!hdr || !hdr->game || hdr->players < 1 || hdr->players > ARB_MAX_SEATS)
        return arb_error_set(err, ARB_EINVAL, NULL, "a source needs a game and 1..%d players",
                             ARB_MAX_SEATS);
    mem_source *m = calloc(1, sizeof *m);
    if (!m) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    m->recs = recs;
    m->n = n;
    m->truncated = truncated;
    arb_an_source *s;
    if (arb_an__source_new(&s, name, &mem_ops, m)) {
        free(m);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    s->hdr = *hdr;
    *out = s;
    return ARB_OK;
}

void arb_an_source_free(arb_an_source *s)
{
    if (!s) return;
    if (s->ops && s->ops->close) s->ops->close(s->self);
    free(s);
}

const arb_an_header *arb_an_source_header(const arb_an_source *s) { return &s->hdr; }
const char *arb_an_source_name(const arb_an_source *s) { return s->name; }

int arb_an__source_rewind(arb_an_source *s, arb_error *err)
{
    if (!s->started) return ARB_OK;
    if (!s->ops->rewind)
        return arb_error_set(err, ARB_EINVAL, NULL, "%s: this source has been read already and cannot start over",
                             s->name);
    int rc = s->ops->rewind(s->self, err);
    if (rc) return rc;
    s->started = s->done = s->done_rc = 0;
    return ARB_OK;
}

int arb_an_source_next(arb_an_source *s, arb_an_record *rec, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    s->started = 1;
    if (s->done) {
        if (s->done_rc < 0) *err = s->done_err;
        return s->done_rc;
    }
    int rc = s->ops->next(s->self, rec, err);
    if (rc <= 0) {
        s->done = 1;
        s->done_rc = rc;
        if (rc < 0 && !err->where[0]) arb_error_where(err, "%s", s->name);
        if (rc < 0) s->done_err = *err;
    }
    return rc;
}
