/* progress.c — a progress line on stderr for long commands (verify, play
 * --games, conform, stats): only when stderr is a terminal, at most ten
 * updates a second, erased when the work ends, so pipes, files and CI logs
 * never see it. ARBITER_PROGRESS=0 turns it off, =1 forces it on. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void cli_progress_start(cli_progress *p, const char *what, const char *unit, uint64_t total)
{
    const char *env = getenv("ARBITER_PROGRESS");
    memset(p, 0, sizeof *p);
    p->on = env && *env ? strcmp(env, "0") != 0 : isatty(STDERR_FILENO);
    p->what = what;
    p->unit = unit;
    p->total = total;
    p->t0 = p->last = now_ms();
}

void cli_progress_update(cli_progress *p, uint64_t done)
{
    if (!p->on) return;
    int64_t t = now_ms();
    if (t - p->last < 100 && done != p->total) return;
    p->last = t;
    p->shown = 1;
    double s = (double)(t - p->t0) / 1000.0;
    if (p->total)
        fprintf(stderr, "\r%s: %llu/%llu %s (%.0f%%), %.1f s\033[K", p->what, (unsigned long long)done,
                (unsigned long long)p->total, p->unit, 100.0 * (double)done / (double)p->total, s);
    else
        fprintf(stderr, "\r%s: %llu %s, %.1f s\033[K", p->what, (unsigned long long)done, p->unit, s);
    fflush(stderr);
}

void cli_progress_end(cli_progress *p)
{
    if (p->on && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = 0;
}
