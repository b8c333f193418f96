/* cmd_record.c — `arbiter record`: drive a match from actions on stdin, one
 * per line, in the text syntax ("[+MS] SEAT VERB [ARG…]") or as NDJSON
 * objects with --json, recording each accepted action live. After every
 * line it answers on stdout: the action accepted (with the engine's
 * events), or rejected with its rule ID and not recorded; then the
 * decision owed next and the legal actions. A game server or a person
 * feeds a match in this way. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/match_args.h"
#include "arbiter/toolkit.h"
#include "cli/record_io.h"

/* The NDJSON action object, read with the library's strict JSON reader
 * (duplicate keys, trailing data after the object, fractional numbers are
 * refused there) and checked field by field here: only the keys below,
 * "verb" exactly one verb name (or its index) with no arguments of its
 * own, "args" integers, and "action" alone. Builds the text syntax for
 * arb_action_parse. Exposed (cli/record_io.h) for the fuzz target. */
int cli_record_json_action(const arb_game *g, const char *line, size_t len, arb_action *a, arb_error *err)
{
    arb_tree *t = arb_tree_new();
    if (!t) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    arb_error jerr = ARB_ERROR_INIT;
    int rc = arb_tree_parse_json(t, arb_tree_root(t), "v", line, len, &jerr);
    if (rc) {
        rc = jerr.code == ARB_ENOMEM ? arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading JSON")
                                     : arb_error_set(err, ARB_EINVAL, NULL, "%s: %s", jerr.where, jerr.msg);
        arb_tree_free(t);
        return rc;
    }
    const arb_tnode *o = arb_tnode_get(arb_tree_root(t), "v");
    const arb_tnode *seat = NULL, *verb = NULL, *args = NULL, *elapsed = NULL, *action = NULL;
    char text[CLI_RECORD_LINE_MAX + 64], shown[80];
    size_t used = 0;
    rc = ARB_OK;
    if (o->kind != ARB_T_MAP) {
        rc = arb_error_set(err, ARB_EINVAL, NULL, "expected a JSON object");
        goto out;
    }
    for (const arb_tnode *c = o->first; c; c = c->next) {
        if (!strcmp(c->key, "seat")) seat = c;
        else if (!strcmp(c->key, "verb")) verb = c;
        else if (!strcmp(c->key, "args")) args = c;
        else if (!strcmp(c->key, "elapsed_ms")) elapsed = c;
        else if (!strcmp(c->key, "action")) action = c;
        else {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "unknown key \"%s\"", arb_text_escape(shown, sizeof shown, c->key));
            goto out;
        }
    }
    if (action) {
        if (seat || verb || args || elapsed) {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "\"action\" stands alone (no \"seat\", \"verb\", \"args\" or \"elapsed_ms\" beside it)");
            goto out;
        }
        if (action->kind != ARB_T_STR || arb_text_needs_escape(action->s)) {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "\"action\" must be a string without control characters");
            goto out;
        }
        snprintf(text, sizeof text, "%s", action->s);
        rc = arb_action_parse(g, text, a, err);
        goto out;
    }
    if (!seat || !verb) {
        rc = arb_error_set(err, ARB_EINVAL, NULL, "an action needs \"seat\" and \"verb\" (or \"action\")");
        goto out;
    }
    int64_t ms = 0;
    if (elapsed) {
        if (elapsed->kind != ARB_T_INT || elapsed->i < 0 || elapsed->i > UINT32_MAX) {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "\"elapsed_ms\" must be an integer 0..%u", UINT32_MAX);
            goto out;
        }
        ms = elapsed->i;
    }
    used = (size_t)snprintf(text, sizeof text, "+%lld ", (long long)ms);
    if (seat->kind == ARB_T_INT && seat->i >= 0 && seat->i < ARB_MAX_SEATS)
        used += (size_t)snprintf(text + used, sizeof text - used, "%lld", (long long)seat->i);
    else if (seat->kind == ARB_T_STR && !strcmp(seat->s, "arbiter"))
        used += (size_t)snprintf(text + used, sizeof text - used, "arbiter");
    else {
        rc = arb_error_set(err, ARB_EINVAL, NULL, "\"seat\" must be 0..%d or \"arbiter\"", ARB_MAX_SEATS - 1);
        goto out;
    }
    const char *vname = NULL;
    if (verb->kind == ARB_T_INT) {
        if (verb->i < 0 || verb->i >= (int64_t)g->nverbs) {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "verb %lld is unknown", (long long)verb->i);
            goto out;
        }
        vname = g->verbs[verb->i].name;
    } else if (verb->kind == ARB_T_STR) {
        for (unsigned i = 0; i < g->nverbs && !vname; i++)
            if (!strcmp(g->verbs[i].name, verb->s)) vname = g->verbs[i].name;
        if (!vname) {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "\"verb\" \"%s\" is not one %s verb name (arguments go in \"args\")",
                               arb_text_escape(shown, sizeof shown, verb->s), g->id);
            goto out;
        }
    } else {
        rc = arb_error_set(err, ARB_EINVAL, NULL, "\"verb\" must be a verb name or index");
        goto out;
    }
    used += (size_t)snprintf(text + used, sizeof text - used, " %s", vname);
    if (args) {
        if (args->kind != ARB_T_ARR || args->n > ARB_ARGS_MAX) {
            rc = arb_error_set(err, ARB_EINVAL, NULL, "\"args\" must be an array of at most %d integers", ARB_ARGS_MAX);
            goto out;
        }
        for (const arb_tnode *c = args->first; c; c = c->next) {
            if (c->kind != ARB_T_INT || c->i < INT32_MIN || c->i > INT32_MAX) {
                rc = arb_error_set(err, ARB_EINVAL, NULL, "\"args\" must hold 32-bit integers");
                goto out;
            }
            used += (size_t)snprintf(text + used, sizeof text - used, " %lld", (long long)c->i);
        }
    }
    rc = arb_action_parse(g, text, a, err);
out:
    arb_tree_free(t);
    return rc;
}

typedef struct rctx {
    const arb_game *g;
    arb_match *m;
    int json;
    arb_action *legal;
} rctx;

static void prompt(rctx *c)
{
    arb_decision d = arb_match_decision(c->m);
    if (d.seat == ARB_SEAT_NONE) return;
    const char *dn = arb_name_at(c->g->decision_names, c->g->ndecision_names, d.kind, "decision");
    size_t n = arb_match_legal(c->m, c->legal, ARB_AGENT_LEGAL_MAX);
    if (n > ARB_AGENT_LEGAL_MAX) n = ARB_AGENT_LEGAL_MAX;
    char buf[256];
    if (c->json) {
        printf("{\"type\":\"owed\",\"turn\":%u,\"seat\":%d,\"decision\":", arb_match_turn(c->m), d.seat);
        cli_json_str(stdout, dn);
        printf(",\"clock_left_ms\":%" PRId64 ",\"phase\":", d.clock_left_ms);
        cli_json_str(stdout, arb_match_phase(c->m));
        printf(",\"legal\":[");
        for (size_t i = 0; i < n; i++) {
            arb_action_format(c->g, &c->legal[i], buf, sizeof buf);
            if (i) putchar(',');
            cli_json_str(stdout, buf);
        }
        printf("]}\n");
    } else {
        printf("owed: turn %u seat %d %s", arb_match_turn(c->m), d.seat, dn);
        if (d.clock_left_ms >= 0) printf(" clock %" PRId64, d.clock_left_ms);
        printf("\nlegal:");
        for (size_t i = 0; i < n; i++) {
            arb_action_format(c->g, &c->legal[i], buf, sizeof buf);
            printf("%s %s", i ? " |" : "", buf);
        }
        putchar('\n');
    }
    fflush(stdout);
}

static void answer_error(rctx *c, const char *type, const arb_error *err)
{
    if (c->json) {
        printf("{\"type\":\"%s\",\"code\":\"%s\",\"rule\":", type, arb_strerror(err->code));
        cli_json_str(stdout, err->rule);
        printf(",\"message\":");
        cli_json_str(stdout, err->msg);
        printf("}\n");
    } else if (strcmp(type, "rejected") == 0) {
        printf("rejected %s: %s\n", err->rule[0] ? err->rule : arb_strerror(err->code), err->msg);
    } else {
        printf("error: %s\n", err->msg);
    }
}

static const char *const record_usage[] = {
    "record --game G --seed S [--players N] [--decks D1,D2,…] [--json] -o FILE < actions",
    NULL
};
static const cli_opt record_opts[] = {
    CLI_MATCH_OPTS,
    { "timed", 't', 0, CLI_ARG_NONE, NULL, "mark the replay as timed (elapsed times are real)", 0, 0, CLI_SH_NONE },
    { "archive", 'A', 0, CLI_ARG_NONE, NULL, "-o FILE is an archive: the finished match is appended (the archive is created when missing; a member a crash cut short is dropped first, with a note)", 0, 0, CLI_SH_NONE },
    CLI_OPT_JSON("NDJSON input and output"),
    CLI_OPT_END
};
const cli_spec cli_spec_record = {
    .name = "record",
    .summary = "drive a match from actions on stdin, recorded live",
    .usage = record_usage,
    .description =
        "Read actions from stdin, one per line, apply each to the match and record\n"
        "it live. Text syntax: '[+MS] SEAT VERB [ARG…]' where SEAT is 0-based or\n"
        "'arbiter' and +MS the elapsed milliseconds (see 'arbiter verbs --game G');\n"
        "blank lines and lines starting with '#' are skipped. A line holds at most\n"
        "4096 bytes, not counting its ending (LF or CRLF); a longer line, or one\n"
        "with a NUL byte, is answered with an error and skipped whole, and the next\n"
        "line is read normally. With --json each line\n"
        "is an object {\"seat\":0|\"arbiter\",\"verb\":\"play\",\"args\":[3],\"elapsed_ms\":0}\n"
        "or {\"action\":\"0 play 3\"}, and every answer is one JSON object per line.\n"
        "Strict JSON: a duplicate key, an unknown key, data after the object, or a\n"
        "\"verb\" that is not exactly one verb name (\"play 22\") is an error.\n"
        "\n"
        "Answers (text): 'ok N: DESCRIPTION' then 'event: …' lines, or\n"
        "'rejected RULE: MESSAGE' (not recorded), or 'error: MESSAGE' (bad syntax);\n"
        "then 'owed: turn T seat S DECISION [clock MS]' and 'legal: A | B | …';\n"
        "at the end 'over: winner S (REASON) after T turns, final hash 0x…' (or\n"
        "'over: draw (REASON) …'; S is the winning seat).\n",
    .opts = record_opts,
    .notes =
        "  Start time in the header: SOURCE_DATE_EPOCH when set, else now.\n",
    .exit = "0 the match ended and was recorded as FILE; 3 stdin ended before the match did (the file is finished without an outcome and left as FILE.part, every accepted action kept: 'arbiter verify --unfinished FILE.part' checks it); 2 usage; 4 I/O failure (a read error on stdin also leaves FILE.part with every accepted action kept).",
    .operands = CLI_ARG_FILE,
    .run = cmd_record,
};




int cmd_record(int argc, char **argv)
{
    cli_match_args a;
    memset(&a, 0, sizeof a);
    a.level = -1;
    int json = 0, c, rc;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_record, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        if ((rc = cli_match_arg(&a, "record", c, p.arg)) >= 0) {
            if (rc) return rc;
            continue;
        }
        switch (c) {
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos > 0) return cli_usage("record", "unexpected argument '%s'", p.pos[0]);
    if (a.archive) a.archive = 2; /* record appends to the archive (a server's day) */
    if ((rc = cli_match_start(&a, "record"))) {
        cli_match_args_free(&a);
        return rc;
    }
    rctx ctx = { a.g, a.m, json, malloc(sizeof(arb_action) * ARB_AGENT_LEGAL_MAX) };
    char *line = malloc(CLI_RECORD_LINE_MAX + 2);
    if (!ctx.legal || !line) {
        rc = EXIT_INTERNAL;
        goto done;
    }
    prompt(&ctx);
    uint64_t recorded = 0;
    uint64_t lineno = 0;
    int over = 0;
    rc = EXIT_OK;
    int read_error = 0;
    while (!over) {
        size_t len;
        int lr = arb_line_read(stdin, line, CLI_RECORD_LINE_MAX, &len, &lineno);
        if (lr == ARB_LINE_EOF) break;
        if (lr == ARB_LINE_ERROR) { read_error = 1; break; }
        arb_error err = ARB_ERROR_INIT;
        if (lr == ARB_LINE_LONG || lr == ARB_LINE_NUL) {
            if (lr == ARB_LINE_LONG)
                arb_error_set(&err, ARB_ELIMIT, NULL, "line %" PRIu64 " is longer than %d bytes (%zu); skipped whole",
                              lineno, CLI_RECORD_LINE_MAX, len);
            else
                arb_error_set(&err, ARB_EINVAL, NULL, "line %" PRIu64 ": NUL byte; skipped whole", lineno);
            answer_error(&ctx, "error", &err);
            fflush(stdout);
            continue;
        }
        const char *lp = line;
        while (*lp == ' ' || *lp == '\t') lp++;
        if (!*lp || *lp == '#') continue;
        arb_action act;
        int prc = json ? cli_record_json_action(a.g, lp, len - (size_t)(lp - line), &act, &err)
                       : arb_action_parse(a.g, lp, &act, &err);
        if (prc == ARB_ENOMEM) {
            rc = cli_fail("record", &err);
            break;
        }
        if (prc) {
            char msg[200];
            memcpy(msg, err.msg, sizeof msg - 1);
            msg[sizeof msg - 1] = '\0';
            snprintf(err.msg, sizeof err.msg, "line %" PRIu64 ": %s", lineno, msg);
            answer_error(&ctx, "error", &err);
            fflush(stdout);
            continue;
        }
        char desc[256] = "";
        arb_match_action_text(a.m, &act, desc, sizeof desc);
        int src = arb_replay_record_step(a.w, a.m, &act, &err);
        if (src == ARB_EIO || src == ARB_ENOMEM || src == ARB_ELIMIT) { /* ELIMIT: the game's bound on actions */
            rc = cli_fail("record", &err);
            goto done;
        }
        if (src) {
            answer_error(&ctx, "rejected", &err);
            prompt(&ctx);
            continue;
        }
        unsigned nev;
        const arb_event *ev = arb_match_events(a.m, &nev);
        char et[256];
        if (json) {
            printf("{\"type\":\"ok\",\"action\":%" PRIu64 ",\"text\":", recorded);
            cli_json_str(stdout, desc);
            printf(",\"events\":[");
            for (unsigned i = 0; i < nev; i++) {
                arb_match_event_text(a.m, &ev[i], ARB_VIEW_ALL, et, sizeof et);
                if (i) putchar(',');
                cli_json_str(stdout, et);
            }
            printf("]}\n");
        } else {
            printf("ok %" PRIu64 ": %s\n", recorded, desc);
            for (unsigned i = 0; i < nev; i++) {
                arb_match_event_text(a.m, &ev[i], ARB_VIEW_ALL, et, sizeof et);
                printf("event: %s\n", et);
            }
        }
        recorded++;
        arb_outcome o;
        if (arb_match_outcome(a.m, &o)) {
            over = 1;
            const char *reason = arb_game_reason_name(a.g, o.reason);
            if (json) {
                printf("{\"type\":\"over\",\"winner\":%d,\"reason\":", o.winner);
                cli_json_str(stdout, reason);
                printf(",\"turns\":%u,\"final_hash\":\"0x%016" PRIx64 "\"}\n", o.turns, arb_match_hash(a.m));
            } else {
                char who[24];
                if (o.winner >= 0) snprintf(who, sizeof who, "winner %d", o.winner);
                else snprintf(who, sizeof who, "draw");
                printf("over: %s (%s) after %u turn%s, final hash 0x%016" PRIx64 "\n", who, reason, o.turns,
                       ARB_PLURAL(o.turns), arb_match_hash(a.m));
            }
        } else {
            prompt(&ctx);
        }
        fflush(stdout);
    }
    /* Whatever stopped the loop, the writer is closed so every accepted
     * action is in the file. */
    arb_error err = ARB_ERROR_INIT;
    if (a.aw && !over) {
        /* an archive takes finished matches only */
        arb_replay_writer_free(a.w);
        a.w = NULL;
        fprintf(stderr, "arbiter record: stdin ended before the match did; the %" PRIu64
                        " actions were not added to the archive %s\n", recorded, a.out);
        rc = EXIT_INPUT;
        goto done;
    }
    /* A match without an outcome is finished as a file but keeps the name
     * FILE.part: nothing under FILE looks like a finished match. */
    int crc = over ? arb_replay_writer_close(a.w, &err) : arb_replay_writer_close_unfinished(a.w, &err);
    a.w = NULL;
    if (crc) {
        rc = cli_fail("record", &err);
        goto done;
    }
    if (!over) {
        const char *why = read_error ? "a read error on stdin" : rc ? "an error" : "stdin ended before the match did";
        char pp[4200];
        snprintf(pp, sizeof pp, "%s.part", a.out);
        fprintf(stderr, "arbiter record: %s; %s holds the %" PRIu64 " accepted action%s and no outcome "
                        "(arbiter verify --unfinished %s checks them)\n",
                why, cli_esc(pp), recorded, ARB_PLURAL(recorded), cli_esc(pp));
        if (read_error) rc = EXIT_INTERNAL;
        else if (!rc) rc = EXIT_INPUT;
    }
done:
    if (a.w) arb_replay_writer_free(a.w);
    {
        int arc = cli_match_archive_close(&a, "record", 1);
        if (!rc) rc = arc;
    }
    arb_match_free(a.m);
    cli_match_args_free(&a);
    free(ctx.legal);
    free(line);
    return rc;
}
