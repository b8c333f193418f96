/* rec2.h — the version-2 record codec (replays/FORMAT.md §B.3), shared by
 * the writer, the reader and the archive code. Records are byte-coded: one
 * op byte, then LEB128 varints and little-endian fixed fields. The acting
 * seat is carried by seat-change ops (and folded into checkpoints), not by
 * every action; think times are present in every action of a timed file
 * only. Not installed. */
#ifndef ARBITER_REPLAY_REC2_H
#define ARBITER_REPLAY_REC2_H

#include <stdint.h>
#include <string.h>

#include "arbiter/replay.h"

/* ops 0x00..0x7f: an action: bits 6-5 argument count (3: a count byte
 * follows), bits 4-0 verb (31: a verb byte follows). */
#define ARB_R2_CP_NEXT 0x80u    /* checkpoint, turn = previous + 1, 8-bit hash */
#define ARB_R2_CP_NEXT_SEAT 0x81u /* 0x81..0x85: the same, then the acting seat becomes op-0x82 */
#define ARB_R2_ELAPSED 0x86u    /* varint: elapsed_ms of the next action (untimed files) */
#define ARB_R2_CP_TURN 0x87u    /* checkpoint, varint turn, 8-bit hash */
#define ARB_R2_CP_FULL 0x88u    /* checkpoint, varint turn, 64-bit hash */
#define ARB_R2_SEAT 0x89u       /* 0x89..0x8d: the acting seat becomes op-0x8a */
#define ARB_R2_OUTCOME 0x8eu    /* winner+1, reason index (0xff: len + bytes), varint turns, 64-bit hash */
#define ARB_R2_UNKNOWN 0xc0u    /* 0xc0..0xff: varint length + bytes, skipped */
#define ARB_R2_SHORT_BITS 8
#define ARB_R2_REASON_STR 0xffu
#define ARB_R2_REC_MAX 96       /* bytes of the largest record the writer emits (no reason string) */

static inline uint8_t *arb_r2_put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t arb_r2_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t arb_r2_unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

static inline uint8_t *arb_r2_put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

/* Varint at p[0..end): 0 ok, 1 more bytes needed, 2 malformed (over 10
 * bytes or over 64 bits). */
static inline int arb_r2_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (p >= end) return 1;
        uint8_t b = *p++;
        if (shift == 63 && b > 1) return 2;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            *pp = p;
            return 0;
        }
    }
    return 2;
}

/* The think time of a timed file's action: 2 bytes little-endian below
 * 0x8000, else 0x8000 | low 15 bits, then varint(ms >> 15). */
static inline uint8_t *arb_r2_put_ms(uint8_t *p, uint32_t ms)
{
    if (ms < 0x8000u) return arb_r2_put_le(p, ms, 2);
    p = arb_r2_put_le(p, 0x8000u | (ms & 0x7fffu), 2);
    return arb_r2_put_varint(p, ms >> 15);
}

/* The writer's per-match coding state (the reader keeps the same). */
typedef struct arb_r2_state {
    int seat;                   /* acting seat of the next action */
    int have_cp;
    uint32_t cp_turn;           /* turn of the previous checkpoint */
    int timed;                  /* envelope flag: every action carries its time */
} arb_r2_state;

static inline void arb_r2_init(arb_r2_state *s, int timed)
{
    s->seat = 0;
    s->have_cp = 0;
    s->cp_turn = 0;
    s->timed = timed;
}

/* An action (with the seat change and elapsed prefix it needs). */
static inline uint8_t *arb_r2_action(uint8_t *p, arb_r2_state *s, const arb_action *a)
{
    if (a->seat != s->seat) {
        *p++ = (uint8_t)(ARB_R2_SEAT + (unsigned)(a->seat + 1));
        s->seat = a->seat;
    }
    if (!s->timed && a->elapsed_ms) {
        *p++ = ARB_R2_ELAPSED;
        p = arb_r2_put_varint(p, a->elapsed_ms);
    }
    unsigned n = a->nargs < 3 ? a->nargs : 3;
    *p++ = (uint8_t)(n << 5 | (a->verb < 31 ? a->verb : 31u));
    if (n == 3) *p++ = a->nargs;
    if (a->verb >= 31) *p++ = a->verb;
    if (s->timed) p = arb_r2_put_ms(p, a->elapsed_ms);
    for (unsigned i = 0; i < a->nargs; i++) p = arb_r2_put_varint(p, arb_r2_zigzag(a->args[i]));
    return p;
}

/* A checkpoint: full (64-bit hash) for the first one, else 8 bits; next_seat
 * (-2: no hint) folds the acting seat of the next action into it. */
static inline uint8_t *arb_r2_checkpoint(uint8_t *p, arb_r2_state *s, uint32_t turn, uint64_t hash, int next_seat)
{
    if (!s->have_cp) {
        *p++ = ARB_R2_CP_FULL;
        p = arb_r2_put_varint(p, turn);
        p = arb_r2_put_le(p, hash, 8);
    } else if (s->cp_turn != UINT32_MAX && turn == s->cp_turn + 1) {
        if (next_seat >= ARB_SEAT_ARBITER && next_seat < ARB_MAX_SEATS && next_seat != s->seat) {
            *p++ = (uint8_t)(ARB_R2_CP_NEXT_SEAT + (unsigned)(next_seat + 1));
            s->seat = next_seat;
        } else *p++ = ARB_R2_CP_NEXT;
        *p++ = (uint8_t)hash;
    } else {
        *p++ = ARB_R2_CP_TURN;
        p = arb_r2_put_varint(p, turn);
        *p++ = (uint8_t)hash;
    }
    s->have_cp = 1;
    s->cp_turn = turn;
    return p;
}

/* The outcome; reason_idx < 0: the reason goes as a string. */
static inline uint8_t *arb_r2_outcome(uint8_t *p, int winner, int reason_idx, const char *reason, size_t rlen,
                                      uint32_t turns, uint64_t hash)
{
    *p++ = ARB_R2_OUTCOME;
    *p++ = (uint8_t)(winner + 1);
    if (reason_idx >= 0 && reason_idx < (int)ARB_R2_REASON_STR) *p++ = (uint8_t)reason_idx;
    else {
        *p++ = ARB_R2_REASON_STR;
        *p++ = (uint8_t)rlen;
        memcpy(p, reason, rlen);
        p += rlen;
    }
    p = arb_r2_put_varint(p, turns);
    return arb_r2_put_le(p, hash, 8);
}

#endif
