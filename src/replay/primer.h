/* primer.h — the built-in primers of the range-coded body (replays/FORMAT.md
 * §D.8): fixed streams of replay contents, one per game, that a single
 * file's models are primed with before its body is coded, named by the
 * envelope's byte 6. Frozen: an id's bytes never change. Not installed. */
#ifndef ARBITER_REPLAY_PRIMER_H
#define ARBITER_REPLAY_PRIMER_H

#include <stddef.h>
#include <stdint.h>

#include "replay/rcbody.h"

typedef struct arb_rc_primer {
    unsigned id;           /* the envelope's byte 6 */
    const uint8_t *bytes;  /* items: flags byte (bit 0 timed), varint n, varint h, n content bytes */
    size_t n;
} arb_rc_primer;

#define ARB_RC_NPRIMERS 4
extern const arb_rc_primer arb_rc_primers[ARB_RC_NPRIMERS];

/* The game whose files a writer codes with primer pr: the game id its
 * first item's header names (a primer is made of that game's contents, so
 * the replay code names no game). 0 and *id (not NUL-terminated) / *len,
 * or -1 for a primer that does not start with a header. */
int arb_rc_primer_game(const arb_rc_primer *pr, const uint8_t **id, uint32_t *len);

/* The primer a writer uses for a content whose header (hl bytes) names its
 * game first (§B.2): its id, or 0 (none: the game has no primer). */
unsigned arb_rc_primer_for_content(const uint8_t *content, size_t hl);

/* The models primed with primer id (built once per process, thread-safe,
 * never freed); NULL: no such primer, or out of memory. */
const arb_rc_model *arb_rc_primer_model(unsigned id);

/* Initialise m as a file naming primer id starts (id 0: empty models).
 * -1: out of memory, or no such primer (m is then empty, still to be
 * freed). */
int arb_rc_model_start(arb_rc_model *m, unsigned id);

/* A standalone file's range-coded body (FORMAT.md §B.5, §D.8): content
 * (hl bytes of header first) coded from the models of its game's primer
 * (primed 0: from empty models); sets env's flag bit 2 and byte 6 (the
 * primer's id, 0: none). *out is malloc'd. 0 ok, -1 no memory. */
int arb_rc_code_standalone(const uint8_t *content, size_t n, size_t hl, int timed, int primed, uint8_t env[8],
                           uint8_t **out, size_t *outn);

#endif
