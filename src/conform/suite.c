/* suite.c — runs the selected cases of a loaded suite, on worker threads
 * when asked, and keeps results in load order so output is the same
 * whatever --jobs is. Also the status vocabulary and the overall verdict
 * (unexpected results + uncovered catalog entries + diagnostics). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "conform/conform_int.h"

static const char *const status_names[] = { "PASS", "FAIL", "WRONG-RULE", "ERROR", "SKIP", "XFAIL", "XPASS" };

const char *arb_cf_status_name(int status)
{
    return status >= 0 && status <= ARB_CF_XPASS ? status_names[status] : "?";
}

int arb_cf_status_unexpected(int status)
{
    return status == ARB_CF_FAIL || status == ARB_CF_WRONG_RULE || status == ARB_CF_ERROR ||
           status == ARB_CF_XPASS;
}

typedef struct work {
    arb_conform_suite *s;
    unsigned *order;               /* case index of each result */
    unsigned n, next;
    int stopped;                   /* opt.stop said so: the rest is not run */
    char why[ARB_CF_MSG_MAX - 64];
    pthread_mutex_t mu;
} work;

static void not_run(const arb_conform_suite *s, const cf_case *c, arb_conform_result *r, int status, const char *fmt,
                    const char *why)
{
    const cf_file *f = &s->files[c->file];
    uint64_t seed = r->seed;
    memset(r, 0, sizeof *r);
    r->game = f->game, r->set = f->name, r->id = c->id, r->file = f->path, r->line = c->line;
    r->covers = c->covers, r->seed = seed;
    r->status = status;
    snprintf(r->message, sizeof r->message, fmt, why);
    r->not_run = status == ARB_CF_SKIP;
}

static void *worker(void *arg)
{
    work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        unsigned i = w->next < w->n ? w->next++ : w->n;
        pthread_mutex_unlock(&w->mu);
        if (i >= w->n) break;
        const cf_case *c = &w->s->cases[w->order[i]];
        pthread_mutex_lock(&w->mu);
        int stopped = w->stopped;
        pthread_mutex_unlock(&w->mu);
        if (stopped) {
            not_run(w->s, c, &w->s->results[i], ARB_CF_SKIP, "not run: %s", w->why);
            continue;
        }
        arb_conform__run_case(w->s, c, &w->s->results[i], NULL, NULL);
        char why[sizeof w->why];
        if (w->s->opt.stop && w->s->opt.stop(w->s->opt.stop_ctx, why, sizeof why)) {
            pthread_mutex_lock(&w->mu);
            int first = !w->stopped;
            if (first) w->stopped = 1, snprintf(w->why, sizeof w->why, "%s", why);
            pthread_mutex_unlock(&w->mu);
            /* the case that saw it ends as an ERROR saying why, whatever
             * the dead engine's answers made it look like */
            if (first) not_run(w->s, c, &w->s->results[i], ARB_CF_ERROR, "%s", why);
            else not_run(w->s, c, &w->s->results[i], ARB_CF_SKIP, "not run: %s", why);
        }
    }
    return NULL;
}

int arb_conform_run(arb_conform_suite *s, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    free(s->results);
    s->results = NULL;
    s->nresults = 0;
    unsigned n = arb_conform_ncases(s);
    unsigned *order = malloc((n ? n : 1) * sizeof *order);
    s->results = calloc(n ? n : 1, sizeof *s->results);
    if (!order || !s->results) {
        free(order);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory for %u results", n);
    }
    for (unsigned i = 0, k = 0; i < s->ncases; i++)
        if (s->cases[i].selected) order[k++] = i;
    work w = { s, order, n, 0, 0, "", PTHREAD_MUTEX_INITIALIZER };
    int jobs = s->opt.jobs < 1 ? 1 : s->opt.jobs > 256 ? 256 : s->opt.jobs;
    if ((unsigned)jobs > n) jobs = n ? (int)n : 1;
    if (jobs <= 1) {
        worker(&w);
    } else {
        pthread_t th[256];
        int started = 0;
        for (; started < jobs; started++)
            if (pthread_create(&th[started], NULL, worker, &w)) break;
        if (!started) worker(&w);
        for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    }
    pthread_mutex_destroy(&w.mu);
    free(order);
    if (w.stopped) s->partial = 1; /* cases not run: no coverage gate */
    s->nresults = n;
    for (unsigned i = 0; i < n; i++) arb_conform__expectations_apply(s, &s->results[i]);
    s->ran = 1;
    s->gated = !s->opt.set && !s->opt.case_glob && !s->opt.rule && !s->partial;
    if (arb_conform__coverage(s)) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory computing coverage");
    return ARB_OK;
}

unsigned arb_conform_nresults(const arb_conform_suite *s) { return s->nresults; }
const arb_conform_result *arb_conform_result_at(const arb_conform_suite *s, unsigned i)
{
    return i < s->nresults ? &s->results[i] : NULL;
}
int arb_conform_gated(const arb_conform_suite *s) { return s->gated; }

unsigned arb_conform_failures(const arb_conform_suite *s)
{
    unsigned n = s->ndiags;
    for (unsigned i = 0; i < s->nresults; i++) n += arb_cf_status_unexpected(s->results[i].status) != 0;
    if (s->gated) n += arb_conform_uncovered(s);
    return n;
}

int arb_conform_case_log(const arb_conform_suite *s, unsigned result,
                         int (*cb)(void *ctx, const arb_conform_log *log), void *ctx, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    if (result >= s->nresults) return arb_error_set(err, ARB_ENOTFOUND, NULL, "no result %u", result);
    const arb_conform_result *want = &s->results[result];
    for (unsigned i = 0; i < s->ncases; i++) {
        const cf_case *c = &s->cases[i];
        if (c->id == want->id && !c->deck) {
            arb_conform_result tmp;
            arb_conform__run_case(s, c, &tmp, cb, ctx);
            return ARB_OK;
        }
    }
    return arb_error_set(err, ARB_ENOTFOUND, NULL, "case %s has no action log", want->id);
}

/* arb_conform_each_case: the caller's callback, until it says stop. */
typedef struct each_ctx {
    int (*cb)(void *ctx, const arb_conform_log *log);
    void *ctx;
    int rc;
} each_ctx;

static int each_cb(void *ctx, const arb_conform_log *log)
{
    each_ctx *e = ctx;
    if (!e->rc) e->rc = e->cb(e->ctx, log);
    return 0;
}

int arb_conform_each_case(const arb_conform_suite *s, int (*cb)(void *ctx, const arb_conform_log *log), void *ctx,
                          arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    ARB_ASSERT_ARG(err, cb);
    each_ctx e = { cb, ctx, 0 };
    for (unsigned i = 0; i < s->ncases && !e.rc; i++) {
        const cf_case *c = &s->cases[i];
        if (!c->selected || c->deck) continue;
        arb_conform_result tmp;
        arb_conform__run_case(s, c, &tmp, each_cb, &e);
    }
    return e.rc;
}
