/* pool.h — --jobs N for the commands that walk many matches (stats,
 * select): items are filled in order on the calling thread, worked on by N
 * threads (the calling thread among them), and finished on the calling
 * thread in the order they were filled, so output and aggregates are the
 * same whatever N is. Memory is a window of CLI_POOL_WINDOW(N) items
 * (pool.c). */
#ifndef CLI_POOL_H
#define CLI_POOL_H

#include <stddef.h>

#define CLI_POOL_WINDOW(jobs) (4 * (unsigned)(jobs) + 8)

typedef struct cli_pool cli_pool;
/* work: any thread, one item at a time; done: the calling thread, in
 * order; a nonzero return from done stops the pool (returned by
 * cli_pool_end). */
typedef void (*cli_pool_work)(void *item);
typedef int (*cli_pool_done)(void *ctx, void *item);

/* NULL when out of memory. jobs 1: work and done run inline. */
cli_pool *cli_pool_new(unsigned jobs, size_t item_size, cli_pool_work work, cli_pool_done done, void *ctx);
/* The next item to fill (zeroed), finishing earlier items to make room;
 * NULL once the pool has stopped. */
void *cli_pool_slot(cli_pool *p);
/* The slot from cli_pool_slot is filled: queue it. */
void cli_pool_submit(cli_pool *p);
/* Work and finish everything queued so far (the pool goes on): what is
 * printed next comes after it. */
void cli_pool_drain(cli_pool *p);
/* Work and finish everything queued, join the threads, free the pool;
 * returns the first nonzero done() return, else 0. */
int cli_pool_end(cli_pool *p);

#endif
