/* pool.c — the ordered work pool behind --jobs (pool.h). Items q = 0, 1, …
 * live in slot q % w; [next, filled) wait for a worker, [finished, filled)
 * are not finished yet. Only the calling thread fills and finishes; it
 * works on items too while it waits, so N jobs are N threads in all. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pool.h"

struct cli_pool {
    unsigned jobs, w;
    size_t size;
    unsigned char *items;
    unsigned char *state;       /* per slot: 0 free, 1 queued, 2 taken, 3 worked */
    uint64_t filled, next, finished;
    int closed, stopped, rc;
    cli_pool_work work;
    cli_pool_done done;
    void *ctx;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th[256];
    unsigned started;
};

static void *item(cli_pool *p, uint64_t q) { return p->items + (size_t)(q % p->w) * p->size; }

/* Take the next queued item and work on it (mu held on entry and exit).
 * 0 when none is queued. */
static int work_one(cli_pool *p)
{
    if (p->next >= p->filled) return 0;
    uint64_t q = p->next++;
    p->state[q % p->w] = 2;
    pthread_mutex_unlock(&p->mu);
    p->work(item(p, q));
    pthread_mutex_lock(&p->mu);
    p->state[q % p->w] = 3;
    pthread_cond_broadcast(&p->cv);
    return 1;
}

static void *worker(void *arg)
{
    cli_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->next >= p->filled && !p->closed) pthread_cond_wait(&p->cv, &p->mu);
        if (!work_one(p) && p->closed) break;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cli_pool *cli_pool_new(unsigned jobs, size_t item_size, cli_pool_work work, cli_pool_done done, void *ctx)
{
    if (jobs < 1) jobs = 1;
    if (jobs > 256) jobs = 256;
    cli_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->jobs = jobs;
    p->w = jobs == 1 ? 1 : CLI_POOL_WINDOW(jobs);
    p->size = item_size;
    p->work = work;
    p->done = done;
    p->ctx = ctx;
    p->items = calloc(p->w, item_size);
    p->state = calloc(p->w, 1);
    if (!p->items || !p->state) {
        free(p->items);
        free(p->state);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (; p->started + 1 < jobs; p->started++)
        if (pthread_create(&p->th[p->started], NULL, worker, p)) break;
    return p;
}

/* Finish items in order while the oldest is worked (mu held); with
 * `wait`, work or wait until the oldest is done. */
static void finish_ready(cli_pool *p, int wait)
{
    while (p->finished < p->filled) {
        unsigned char *st = &p->state[p->finished % p->w];
        if (*st != 3) {
            if (!wait) return;
            if (!work_one(p)) pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        uint64_t q = p->finished;
        pthread_mutex_unlock(&p->mu);
        int rc = p->stopped ? 0 : p->done(p->ctx, item(p, q));
        pthread_mutex_lock(&p->mu);
        if (rc && !p->stopped) {
            p->stopped = 1;
            p->rc = rc;
        }
        *st = 0;
        p->finished++;
        wait = wait == 2 ? 2 : 0; /* one slot is enough to go on filling */
    }
}

void *cli_pool_slot(cli_pool *p)
{
    pthread_mutex_lock(&p->mu);
    if (p->filled - p->finished >= p->w) finish_ready(p, 1);
    void *it = p->stopped ? NULL : item(p, p->filled);
    pthread_mutex_unlock(&p->mu);
    if (it) memset(it, 0, p->size);
    return it;
}

void cli_pool_submit(cli_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->state[p->filled % p->w] = 1;
    p->filled++;
    pthread_cond_broadcast(&p->cv);
    if (p->jobs == 1) finish_ready(p, 2); /* inline: work it and finish it now */
    else finish_ready(p, 0);
    pthread_mutex_unlock(&p->mu);
}

void cli_pool_drain(cli_pool *p)
{
    pthread_mutex_lock(&p->mu);
    finish_ready(p, 2);
    pthread_mutex_unlock(&p->mu);
}

int cli_pool_end(cli_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->closed = 1;
    pthread_cond_broadcast(&p->cv);
    finish_ready(p, 2);
    pthread_mutex_unlock(&p->mu);
    for (unsigned t = 0; t < p->started; t++) pthread_join(p->th[t], NULL);
    int rc = p->rc;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->items);
    free(p->state);
    free(p);
    return rc;
}
