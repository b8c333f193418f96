/* arbiter/rng.h — the one PRNG every engine draws from.
 *
 * Algorithm "xoshiro256**-splitmix64-v1":
 *   - seeding: the four 64-bit state words are the first four outputs of
 *     SplitMix64 started at the 64-bit seed (z += 0x9e3779b97f4a7c15;
 *     z = (z ^ z>>30) * 0xbf58476d1ce4e5b9; z = (z ^ z>>27) * 0x94d049bb133111eb;
 *     out = z ^ z>>31);
 *   - next: xoshiro256** 1.0 (Blackman & Vigna, 2018);
 *   - bounded integers in [0, n): Lemire's multiply-shift with rejection
 *     (Lemire 2019, "Fast random integer generation in an interval"),
 *     using the 64-bit output's high 32 bits x: m = x * n (64-bit);
 *     l = (uint32)m; if l < n { t = (-n) % n; while l < t redraw }; result m>>32;
 *   - shuffle: Fisher–Yates from the last index down, j = bounded(i + 1).
 * The state is plain data: copying it forks the stream. Test vectors live
 * in tests/check_core.c and replays/FORMAT.md. */
#ifndef ARBITER_RNG_H
#define ARBITER_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_RNG_NAME "xoshiro256**-splitmix64-v1"

typedef struct arb_rng {
    uint64_t s[4];
} arb_rng;

void arb_rng_seed(arb_rng *r, uint64_t seed);
uint64_t arb_rng_next(arb_rng *r);
/* Uniform in [0, n); n must be >= 1 (asserted). */
uint32_t arb_rng_below(arb_rng *r, uint32_t n);
/* Fisher–Yates over n elements of the given size (at most 64 bytes each). */
void arb_rng_shuffle(arb_rng *r, void *base, size_t n, size_t size);
/* SplitMix64 step, exposed for deriving independent seeds (agents, shards). */
uint64_t arb_splitmix64(uint64_t *state);

#ifdef __cplusplus
}
#endif
#endif
