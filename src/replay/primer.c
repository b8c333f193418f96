/* primer.c — the built-in primers (replays/FORMAT.md §D.8): which primer a
 * content is coded with (the one made from its game's contents: a primer
 * names its game in its first header), and the models each primer leaves,
 * built once. */
#include <pthread.h>
#include <string.h>

#include "replay/mpack.h"
#include "replay/primer.h"
#include "replay/rec2.h"

/* The game id a header (a MessagePack array whose first field it is)
 * names, in hl bytes. */
static int header_game(const uint8_t *c, size_t hl, const uint8_t **id, uint32_t *len)
{
    const uint8_t *p = c, *end = c + hl;
    uint32_t n;
    int is_bin;
    if (arb_mp_rd_array(&p, end, &n) != ARB_MP_OK || n == 0 || arb_mp_rd_str(&p, end, id, len, &is_bin) != ARB_MP_OK ||
        is_bin)
        return -1;
    return 0;
}

int arb_rc_primer_game(const arb_rc_primer *pr, const uint8_t **id, uint32_t *len)
{
    /* an item: flags byte, varint n, varint h, n content bytes (h of header) */
    const uint8_t *p = pr->bytes, *end = pr->bytes + pr->n;
    uint64_t n, h;
    if (p == end) return -1;
    p++;
    if (arb_r2_get_varint(&p, end, &n) || arb_r2_get_varint(&p, end, &h) || n > (uint64_t)(end - p) || h > n) return -1;
    return header_game(p, (size_t)h, id, len);
}

unsigned arb_rc_primer_for_content(const uint8_t *c, size_t hl)
{
    const uint8_t *id, *pid;
    uint32_t len, plen;
    if (header_game(c, hl, &id, &len)) return 0;
    for (unsigned k = 0; k < ARB_RC_NPRIMERS; k++)
        if (!arb_rc_primer_game(&arb_rc_primers[k], &pid, &plen) && plen == len && memcmp(pid, id, len) == 0)
            return arb_rc_primers[k].id;
    return 0;
}

/* Feed every item of primer k through m (§D.5's priming, item by item). */
static int prime_all(arb_rc_model *m, const arb_rc_primer *pr)
{
    const uint8_t *p = pr->bytes, *end = pr->bytes + pr->n;
    while (p < end) {
        uint8_t flags = *p++;
        uint64_t n, h;
        if (arb_r2_get_varint(&p, end, &n) || arb_r2_get_varint(&p, end, &h) || n > (uint64_t)(end - p) || h > n)
            return -1;
        if (arb_rc_prime(m, p, (size_t)n, (size_t)h, flags & 1)) return -1;
        p += n;
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

int arb_rc_model_start(arb_rc_model *m, unsigned id)
{
    if (arb_rc_model_init(m)) return -1;
    if (!id) return 0;
    const arb_rc_model *pm = arb_rc_primer_model(id);
    return pm && !arb_rc_model_base(m, pm) ? 0 : -1; /* built-in primers never change */
}

int arb_rc_code_standalone(const uint8_t *content, size_t n, size_t hl, int timed, int primed, uint8_t env[8],
                           uint8_t **out, size_t *outn)
{
    unsigned id = primed ? arb_rc_primer_for_content(content, hl) : 0;
    arb_rc_model m;
    int rc = arb_rc_model_start(&m, id) || arb_rc_encode(&m, content, n, hl, timed, out, outn) ? -1 : 0;
    arb_rc_model_free(&m);
    if (rc) return -1;
    env[5] |= 0x04u; /* ARB_REPLAY_FLAG_RC */
    env[6] = (uint8_t)id;
    return 0;
}
