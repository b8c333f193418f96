/* rng.c — xoshiro256** seeded by SplitMix64, Lemire bounded integers and
 * Fisher–Yates. The exact algorithm is a format promise: see rng.h. */
#include <assert.h>
#include <string.h>

#include "arbiter/rng.h"

uint64_t arb_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void arb_rng_seed(arb_rng *r, uint64_t seed)
{
    uint64_t sm = seed;
    for (int i = 0; i < 4; i++) r->s[i] = arb_splitmix64(&sm);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t arb_rng_next(arb_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t arb_rng_below(arb_rng *r, uint32_t n)
{
    assert(n >= 1);
    uint32_t x = (uint32_t)(arb_rng_next(r) >> 32);
    uint64_t m = (uint64_t)x * n;
    uint32_t l = (uint32_t)m;
    if (l < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (l < t) {
            x = (uint32_t)(arb_rng_next(r) >> 32);
            m = (uint64_t)x * n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void arb_rng_shuffle(arb_rng *r, void *base, size_t n, size_t size)
{
    assert(size <= 64);
    unsigned char tmp[64], *b = base;
    if (n < 2) return;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = arb_rng_below(r, (uint32_t)(i + 1));
        if (j != i) {
            memcpy(tmp, b + i * size, size);
            memcpy(b + i * size, b + j * size, size);
            memcpy(b + j * size, tmp, size);
        }
    }
}
