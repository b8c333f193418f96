/* fuzz_record.c — libFuzzer target for `arbiter record`'s input side: the
 * bounded line reader (arb_line_read at the 4096-byte limit, NUL, CR/LF,
 * over-long lines) and both line syntaxes: the text action syntax and the
 * strict NDJSON action object (cli_record_json_action). The first byte
 * picks a compiled-in game, the seed, and the syntax (bit 7: NDJSON); the
 * rest is stdin. Invariants: an accepted line has no NUL and fits the
 * limit; an over-long line is reported with its true length; a rejected
 * action leaves the state hash untouched. Seeds: tests/fuzz/corpus_record/. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "cli/record_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char line[CLI_RECORD_LINE_MAX + 2];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || arb_game_count() == 0 || size > (1u << 17)) return 0;
    const arb_game *g = arb_game_at(data[0] % arb_game_count());
    int json = data[0] & 0x80;
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.seed = (data[0] >> 3) & 15;
    su.players = g->min_players;
    for (int s = 0; s < su.players; s++) su.decks[s] = g->preset(g, (unsigned)s % g->npresets);
    arb_match *m;
    arb_error err = ARB_ERROR_INIT;
    if (arb_match_new(&m, g, &su, &err)) return 0;
    FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
    if (!f) abort();
    size_t len, consumed_lines = 0;
    uint64_t lineno = 0;
    int lr;
    while ((lr = arb_line_read(f, line, CLI_RECORD_LINE_MAX, &len, &lineno)) != ARB_LINE_EOF) {
        consumed_lines++;
        if (lr == ARB_LINE_ERROR) abort();
        if (lr == ARB_LINE_LONG) {
            if (len <= CLI_RECORD_LINE_MAX) abort();
            continue;
        }
        if (lr == ARB_LINE_NUL) continue;
        if (len > CLI_RECORD_LINE_MAX || strlen(line) != len) abort();
        if (arb_match_decision(m).seat == ARB_SEAT_NONE) continue;
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#') continue;
        arb_action a;
        arb_error e = ARB_ERROR_INIT;
        int rc = json ? cli_record_json_action(g, p, len - (size_t)(p - line), &a, &e) : arb_action_parse(g, p, &a, &e);
        if (rc) continue;
        uint64_t h = arb_match_hash(m);
        if (arb_match_apply(m, &a, &e) != ARB_OK && arb_match_hash(m) != h) abort(); /* rejection mutated */
    }
    if (lineno != consumed_lines) abort();
    fclose(f);
    arb_match_free(m);
    return 0;
}
