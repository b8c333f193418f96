/* clock.c — server helpers (arbiter/server.h): the start time, think-time
 * stopwatches, the arbiter's timeout when a clock runs out, heap agents.
 * Engines never call these: the wall clock stays outside the rules. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/server.h"

int arb_started_now(char *buf, size_t size)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t;
    if (!buf || size < 21) return ARB_EINVAL;
    if (sde) {
        /* Decimal digits only: no sign, space, or 0x (a 1969 start is not a date). */
        unsigned long long v = 0;
        if (!*sde || strlen(sde) > 12) return ARB_EINVAL;
        for (const char *p = sde; *p; p++) {
            if (*p < '0' || *p > '9') return ARB_EINVAL;
            v = v * 10 + (unsigned)(*p - '0');
        }
        t = (time_t)v;
    } else {
        t = time(NULL);
    }
    struct tm tm;
    if (!gmtime_r(&t, &tm)) return ARB_EINVAL;
    return strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) ? ARB_OK : ARB_EINVAL;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void arb_stopwatch_start(arb_stopwatch *sw) { sw->t0_ns = now_ns(); }

uint32_t arb_stopwatch_lap_ms(arb_stopwatch *sw)
{
    int64_t t = now_ns(), ms = (t - sw->t0_ns) / 1000000;
    sw->t0_ns = t;
    if (ms < 0) return 0;
    return ms > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

int arb_match_clock_expired(const arb_match *m, uint32_t elapsed_ms, arb_action *out)
{
    arb_decision d = arb_match_decision(m);
    if (d.seat == ARB_SEAT_NONE || d.clock_left_ms < 0 || (int64_t)elapsed_ms < d.clock_left_ms) return 0;
    int v = arb_verb_find(arb_match_game(m), "timeout");
    if (v < 0) return 0;
    memset(out, 0, sizeof *out);
    out->seat = ARB_SEAT_ARBITER;
    out->verb = (uint8_t)v;
    out->elapsed_ms = d.clock_left_ms > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)d.clock_left_ms;
    return 1;
}

arb_agent *arb_agent_new(arb_agent_kind kind, uint64_t match_seed, int seat, int timed)
{
    arb_agent *ag = malloc(sizeof *ag);
    if (ag) arb_agent_init(ag, kind, match_seed, seat, timed);
    return ag;
}

void arb_agent_free(arb_agent *ag) { free(ag); }
