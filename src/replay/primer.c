/* primer.c — the built-in primers (replays/FORMAT.md §D.8): which primer a
 * content is coded with, and the models each primer leaves, built once. */
#include <pthread.h>
#include <string.h>

#include "replay/primer.h"

unsigned arb_rc_primer_for_content(const uint8_t *c, size_t hl)
{
    /* the header is a MessagePack array whose first field is the game id */
    size_t i = 1, n;
    if (hl < 2 || (c[0] & 0xf0) != 0x90) {
        if (hl < 4 || c[0] != 0xdc) return 0;
        i = 3;
    }
    if ((c[i] & 0xe0) == 0xa0) n = c[i++] & 0x1fu;
    else if (c[i] == 0xd9 && i + 1 < hl) { n = c[i + 1]; i += 2; }
    else return 0;
    if (n > hl - i) return 0;
    for (unsigned k = 0; k < ARB_RC_NPRIMERS; k++)
        if (strlen(arb_rc_primers[k].game) == n && memcmp(arb_rc_primers[k].game, c + i, n) == 0) return arb_rc_primers[k].id;
    return 0;
}

static int varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
    *v = 0;
    for (unsigned s = 0; s < 64 && *i < n; s += 7) {
        uint8_t b = p[(*i)++];
        *v |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) return 0;
    }
    return -1;
}

/* Feed every item of primer k through m (§D.5's priming, item by item). */
static int prime_all(arb_rc_model *m, const arb_rc_primer *pr)
{
    size_t i = 0;
    while (i < pr->n) {
        uint8_t flags = pr->bytes[i++];
        uint64_t n, h;
        if (varint(pr->bytes, pr->n, &i, &n) || varint(pr->bytes, pr->n, &i, &h) || n > pr->n - i || h > n) return -1;
        if (arb_rc_prime(m, pr->bytes + i, (size_t)n, (size_t)h, flags & 1)) return -1;
        i += (size_t)n;
    }
    return 0;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static arb_rc_model models[ARB_RC_NPRIMERS];
static int built[ARB_RC_NPRIMERS]; /* 1 built, -1 failed */

const arb_rc_model *arb_rc_primer_model(unsigned id)
{
    if (id < 1 || id > ARB_RC_NPRIMERS) return NULL;
    unsigned k = id - 1;
    pthread_mutex_lock(&mu);
    if (!built[k]) {
        built[k] = !arb_rc_model_init(&models[k]) && !prime_all(&models[k], &arb_rc_primers[k]) ? 1 : -1;
        if (built[k] < 0) arb_rc_model_free(&models[k]);
    }
    int ok = built[k] > 0;
    pthread_mutex_unlock(&mu);
    return ok ? &models[k] : NULL;
}

int arb_rc_code_standalone(const uint8_t *content, size_t n, size_t hl, int timed, int primed, uint8_t env[8],
                           uint8_t **out, size_t *outn)
{
    unsigned id = primed ? arb_rc_primer_for_content(content, hl) : 0;
    const arb_rc_model *pm = id ? arb_rc_primer_model(id) : NULL;
    if (id && !pm) return -1;
    arb_rc_model m;
    int rc = arb_rc_model_init(&m) || (pm && arb_rc_model_copy(&m, pm)) || arb_rc_encode(&m, content, n, hl, timed, out, outn)
                 ? -1 : 0;
    arb_rc_model_free(&m);
    if (rc) return -1;
    env[5] |= 0x04u; /* ARB_REPLAY_FLAG_RC */
    env[6] = (uint8_t)id;
    return 0;
}
