/* progress.h — progress lines on a terminal's stderr (progress.c). */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

typedef struct cli_progress {
    int on, shown;
    const char *what, *unit;
    uint64_t total;             /* 0: unknown */
    int64_t t0, last;
} cli_progress;

void cli_progress_start(cli_progress *p, const char *what, const char *unit, uint64_t total);
void cli_progress_update(cli_progress *p, uint64_t done);
/* Erase the line (call before printing results that follow it). */
void cli_progress_end(cli_progress *p);

#endif
