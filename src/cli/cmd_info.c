/* cmd_info.c — `arbiter info FILE`: the header, record counts and outcome
 * of a replay, read with the bounded reader and no engine, so it works for
 * games this build does not know. */
#include <inttypes.h>
#include <string.h>

#include "cli/cli.h"

typedef struct info_sum {
    uint64_t elapsed_total;
    int has_outcome, winner;
    char reason[64];
    uint32_t turns, last_turn;
    uint64_t final_hash;
    int rc;
    arb_error err;
    arb_replay_status st;
} info_sum;

static void json_header(const arb_replay_header *h)
{
    printf("\"version\":%u,\"flags\":%u,\"timed\":%s,\"format\":", h->version, h->flags,
           (h->flags & ARB_REPLAY_FLAG_TIMED) ? "true" : "false");
    cli_json_str(stdout, h->format);
    printf(",\"game\":");
    cli_json_str(stdout, h->game);
    printf(",\"rules\":");
    cli_json_str(stdout, h->rules);
    printf(",\"rng\":");
    cli_json_str(stdout, h->rng);
    printf(",\"hash\":");
    cli_json_str(stdout, h->hash);
    printf(",\"engine\":");
    cli_json_str(stdout, h->engine);
    const arb_game *g = arb_game_find(h->game);
    if (g) { /* the engine this build replays the match with */
        char eb[96];
        printf(",\"engine_here\":");
        cli_json_str(stdout, arb_game_engine_name(g, eb, sizeof eb));
    }
    printf(",\"seed\":\"%" PRIu64 "\",\"started\":", h->seed);
    cli_json_str(stdout, h->started);
    printf(",\"players\":[");
    for (int s = 0; s < h->players; s++) {
        const arb_replay_player *P = &h->player[s];
        printf("%s{\"name\":", s ? "," : "");
        cli_json_str(stdout, P->name);
        printf(",\"deck_name\":");
        cli_json_str(stdout, P->deck_name);
        printf(",\"deck\":[");
        for (unsigned i = 0; i < P->ncards; i++) {
            if (i) putchar(',');
            cli_json_str(stdout, P->cards[i]);
        }
        printf("],\"attrs\":{");
        for (unsigned i = 0; i < P->nattrs; i++) {
            if (i) putchar(',');
            cli_json_str(stdout, P->attrs[i].key);
            putchar(':');
            cli_json_str(stdout, P->attrs[i].value);
        }
        printf("}}");
    }
    printf("],\"options\":{");
    for (unsigned i = 0; i < h->options.n; i++) {
        if (i) putchar(',');
        cli_json_str(stdout, h->options.kv[i].key);
        printf(":%" PRId64, h->options.kv[i].value);
    }
    printf("},\"position\":%s,\"seeded\":%s", h->position ? "true" : "false", h->position ? "false" : "true");
    if (h->position) printf(",\"setup\":\"setup not derived from the seed\"");
    if (h->has_fair) {
        printf(",\"fair\":{\"scheme\":\"%s\",\"commit\":\"", ARB_FAIR_SCHEME);
        cli_hex(stdout, h->fair.commit, sizeof h->fair.commit);
        printf("\",\"secret\":\"");
        cli_hex(stdout, h->fair.secret, sizeof h->fair.secret);
        printf("\",\"contributions\":[");
        for (int i = 0; i < h->fair.n; i++) {
            printf("%s\"", i ? "," : "");
            cli_hex(stdout, h->fair.contrib[i], h->fair.len[i]);
            printf("\"");
        }
        printf("]}");
    }
    if (h->has_commit) {
        printf(",\"commit\":\"");
        cli_hex(stdout, h->commit, sizeof h->commit);
        printf("\",\"salt\":\"");
        cli_hex(stdout, h->salt, h->salt_len);
        printf("\"");
    }
}

static const char *const info_usage[] = {
    "info [--json] FILE",
    NULL
};
static const cli_opt info_opts[] = {
    CLI_OPT_JSON("the header, counts and outcome as one JSON object (an archive: its members)"),
    CLI_OPT_END
};
const cli_spec cli_spec_info = {
    .name = "info",
    .summary = "print a replay's header, counts and outcome (an archive: its matches)",
    .usage = info_usage,
    .description =
        "Print a replay's header (game, rules version, rng, engine, seed, players\n"
        "and decks, options, start time, commitment), its record counts, sizes and\n"
        "recorded outcome. No engine is run: see 'arbiter verify' for that.\n",
    .opts = info_opts,
    .exit = "0 read completely; 3 unreadable, truncated or corrupt (what could be read is still printed); 2 usage.",
    .operands = CLI_ARG_FILE,
    .run = cmd_info,
};

int cmd_info(int argc, char **argv)
{
    int json = 0, c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_info, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos != 1) return cli_usage("info", "give exactly one replay file");
    const char *path = p.pos[0];
    if (arb_archive_is(path)) return cli_archive_info(path, json);
    arb_replay *r;
    info_sum s;
    memset(&s, 0, sizeof s);
    s.winner = -1;
    int rc = arb_replay_open(&r, path, NULL, &s.err);
    if (rc) return cli_fail("info", &s.err);
    const arb_replay_header *h = arb_replay_get_header(r);
    arb_replay_record rec;
    while ((rc = arb_replay_next(r, &rec, &s.err)) == 1) {
        if (rec.kind == ARB_REC_ACTION) s.elapsed_total += rec.action.elapsed_ms;
        else if (rec.kind == ARB_REC_CHECKPOINT) s.last_turn = rec.turn;
        else if (rec.kind == ARB_REC_OUTCOME) {
            s.has_outcome = 1;
            s.winner = rec.winner;
            snprintf(s.reason, sizeof s.reason, "%s", rec.reason);
            s.turns = rec.turn;
            s.final_hash = rec.hash;
        }
    }
    s.rc = rc;
    arb_replay_get_status(r, &s.st);
    double bpa = s.st.actions ? (double)s.st.file_bytes / (double)s.st.actions : 0.0;
    if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        putchar(',');
        json_header(h);
        printf(",\"records\":%" PRIu64 ",\"actions\":%" PRIu64 ",\"checkpoints\":%" PRIu64 ",\"outcomes\":%" PRIu64
               ",\"unknown_records\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"decompressed\":%" PRIu64
               ",\"bytes_per_action\":%.3f,\"elapsed_ms\":%" PRIu64 ",\"complete\":%s,\"truncated\":%s",
               s.st.records, s.st.actions, s.st.checkpoints, s.st.outcomes, s.st.unknown, s.st.file_bytes,
               s.st.decompressed, bpa, s.elapsed_total, rc == 0 ? "true" : "false", s.st.truncated ? "true" : "false");
        if (s.has_outcome) {
            printf(",\"outcome\":{\"winner\":%d,\"reason\":", s.winner);
            cli_json_str(stdout, s.reason);
            printf(",\"turns\":%" PRIu32 ",\"final_hash\":\"0x%016" PRIx64 "\"}", s.turns, s.final_hash);
        }
        if (rc < 0) {
            char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            arb_error_format(&s.err, buf, sizeof buf);
            printf(",\"error\":");
            cli_json_str(stdout, buf);
        }
        printf("}\n");
    } else {
        printf("file:       %s\n", cli_esc(path));
        uint8_t env[8];
        arb_replay_envelope(r, env);
        char body[64] = "";
        if (h->version == 2 && (h->flags & ARB_REPLAY_FLAG_RC)) {
            if (env[6]) snprintf(body, sizeof body, "; range-coded body, primer %u", env[6]);
            else snprintf(body, sizeof body, "; range-coded body");
        } else if (h->version == 2)
            snprintf(body, sizeof body, "; zlib body");
        printf("format:     %s (envelope version %u, flags 0x%02x%s%s)\n", cli_esc(h->format), h->version, h->flags,
               (h->flags & ARB_REPLAY_FLAG_TIMED) ? ": timed" : "", body);
        const arb_game *g = arb_game_find(h->game);
        char eb[96] = "";
        if (g) arb_game_engine_name(g, eb, sizeof eb);
        printf("game:       %s%s%s, rules %s, engine %s", cli_esc(h->game), g ? " — " : " (not in this build)",
               g ? g->title : "", cli_esc(h->rules), h->engine[0] ? cli_esc(h->engine) : "not recorded");
        /* format 2 leaves the informational engine build out: name the one
         * that replays it here (a v1 header's engine is printed as it is) */
        if (g && !h->engine[0]) printf(" (this build's: %s)", cli_esc(eb));
        putchar('\n');
        printf("rng:        %s; hash %s\n", cli_esc(h->rng), h->hash[0] ? cli_esc(h->hash) : "?");
        printf("seed:       %" PRIu64 "\n", h->seed);
        if (h->has_commit) {
            printf("commit:     ");
            cli_hex(stdout, h->commit, sizeof h->commit);
            printf("\nsalt:       ");
            cli_hex(stdout, h->salt, h->salt_len);
            putchar('\n');
        }
        printf("started:    %s\n", h->started[0] ? cli_esc(h->started) : "?");
        if (h->position)
            printf("start:      from an explicit position (header key 'position'): setup not derived from the seed\n");
        if (h->has_fair) {
            printf("fair seed:  %s, server commitment ", ARB_FAIR_SCHEME);
            cli_hex(stdout, h->fair.commit, sizeof h->fair.commit);
            printf(", %d contribution(s) (verify recomputes the seed)\n", h->fair.n);
        }
        for (int seat = 0; seat < h->players; seat++) {
            const arb_replay_player *P = &h->player[seat];
            printf("seat %d:     %s, deck %s%s%u cards", seat, cli_esc(P->name), P->deck_name[0] ? cli_esc(P->deck_name) : "", P->deck_name[0] ? ", " : "",
                   P->ncards);
            for (unsigned i = 0; i < P->nattrs; i++) printf(", %s: %s", cli_esc(P->attrs[i].key), cli_esc(P->attrs[i].value));
            putchar('\n');
        }
        if (h->options.n) {
            printf("options:   ");
            for (unsigned i = 0; i < h->options.n; i++) printf(" %s=%" PRId64, cli_esc(h->options.kv[i].key), h->options.kv[i].value);
            putchar('\n');
        }
        printf("records:    %" PRIu64 " (%" PRIu64 " actions, %" PRIu64 " checkpoints, %" PRIu64 " outcome)\n",
               s.st.records, s.st.actions, s.st.checkpoints, s.st.outcomes);
        printf("size:       %" PRIu64 " bytes (%" PRIu64 " decompressed), %.2f bytes/action\n", s.st.file_bytes,
               s.st.decompressed, bpa);
        if (h->flags & ARB_REPLAY_FLAG_TIMED) printf("clock:      %.1f s of recorded think time\n", (double)s.elapsed_total / 1000.0);
        if (s.has_outcome) {
            if (s.winner >= 0)
            {
                /* the form verify and log use: "P2 wins (reason) after N turns",
                 * with the player's name when it is not the default "P2" */
                const char *nm = h->player[s.winner < h->players ? s.winner : 0].name;
                char dflt[16];
                snprintf(dflt, sizeof dflt, "P%d", s.winner + 1);
                int named = nm[0] && strcmp(nm, dflt) != 0;
                printf("outcome:    P%d%s%s%s wins (%s) after %" PRIu32 " turn%s; final hash 0x%016" PRIx64 "\n", s.winner + 1,
                       named ? " (" : "", named ? cli_esc(nm) : "", named ? ")" : "", cli_esc(s.reason), s.turns,
                       ARB_PLURAL(s.turns), s.final_hash);
            }
            else
                printf("outcome:    draw (%s) after %" PRIu32 " turn%s; final hash 0x%016" PRIx64 "\n", cli_esc(s.reason),
                       s.turns, ARB_PLURAL(s.turns), s.final_hash);
        } else {
            printf("outcome:    none recorded (last checkpoint: turn %" PRIu32 ")\n", s.last_turn);
        }
        if (rc < 0) {
            char buf[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            arb_error_format(&s.err, buf, sizeof buf);
            printf("status:     %s\n", cli_esc(buf));
        }
    }
    arb_replay_close(r);
    return rc < 0 ? cli_exit_for(rc) == EXIT_INTERNAL ? EXIT_INTERNAL : EXIT_INPUT : EXIT_OK;
}
