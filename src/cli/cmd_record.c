/* cmd_record.c — `arbiter record`: drive a match from actions on stdin, one
 * per line, in the text syntax ("[+MS] SEAT VERB [ARG…]") or as NDJSON
 * objects with --json, recording each accepted action live. After every
 * line it answers on stdout: the action accepted (with the engine's
 * events), or rejected with its rule ID and not recorded; then the
 * decision owed next and the legal actions. A game server or a person
 * feeds a match in this way. */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/match_args.h"

#define LINE_MAX_BYTES 4096

static void record_help(void)
{
    printf("usage: arbiter record --game G --seed S [--players N] [--decks D1,D2,…]\n"
           "                      [--json] -o FILE < actions\n"
           "\n"
           "Read actions from stdin, one per line, apply each to the match and record\n"
           "it live. Text syntax: '[+MS] SEAT VERB [ARG…]' where SEAT is 0-based or\n"
           "'arbiter' and +MS the elapsed milliseconds (see 'arbiter verbs --game G');\n"
           "blank lines and lines starting with '#' are skipped. With --json each line\n"
           "is an object {\"seat\":0|\"arbiter\",\"verb\":\"play\",\"args\":[3],\"elapsed_ms\":0}\n"
           "or {\"action\":\"0 play 3\"}, and every answer is one JSON object per line.\n"
           "\n"
           "Answers (text): 'ok N: DESCRIPTION' then 'event: …' lines, or\n"
           "'rejected RULE: MESSAGE' (not recorded), or 'error: MESSAGE' (bad syntax);\n"
           "then 'owed: turn T seat S DECISION [clock MS]' and 'legal: A | B | …';\n"
           "at the end 'over: winner S (REASON) after T turns'.\n"
           "\n"
           CLI_MATCH_HELP
           "  --timed           mark the replay as timed (elapsed times are real)\n"
           "  --archive         -o FILE is an archive: the finished match is appended\n"
           "                    (the archive is created when missing; a member a crash\n"
           "                    cut short is dropped first, with a note)\n"
           "  --json            NDJSON input and output\n"
           "\n"
           "Exit: 0 the match ended and was recorded; 3 stdin ended before the match\n"
           "did (the file is closed without an outcome); 2 usage; 4 I/O failure.\n");
}

/* Minimal reader for the flat NDJSON action object: string, integer and
 * integer-array values. Builds the text syntax for arb_action_parse. */
static const char *skip_ws(const char *p)
{
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

static const char *json_string(const char *p, char *out, size_t size)
{
    if (*p != '"') return NULL;
    p++;
    size_t n = 0;
    while (*p && *p != '"') {
        char c = *p++;
        if (c == '\\') {
            c = *p++;
            if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c != '"' && c != '\\' && c != '/') return NULL;
        }
        if (n + 1 >= size) return NULL;
        out[n++] = c;
    }
    if (*p != '"') return NULL;
    out[n] = '\0';
    return p + 1;
}

static const char *json_int(const char *p, long long *v)
{
    char *end;
    *v = strtoll(p, &end, 10);
    return end == p ? NULL : end;
}

static int json_action(const arb_game *g, const char *line, arb_action *a, arb_error *err)
{
    char seat[16] = "", verb[64] = "", action[LINE_MAX_BYTES] = "", argtxt[256] = "";
    long long elapsed = 0;
    int have_elapsed = 0;
    const char *p = skip_ws(line);
    if (*p != '{') return arb_error_set(err, ARB_EINVAL, NULL, "expected a JSON object");
    p = skip_ws(p + 1);
    while (*p && *p != '}') {
        char key[32];
        if (!(p = json_string(p, key, sizeof key))) return arb_error_set(err, ARB_EINVAL, NULL, "bad JSON key");
        p = skip_ws(p);
        if (*p != ':') return arb_error_set(err, ARB_EINVAL, NULL, "expected ':' after \"%s\"", key);
        p = skip_ws(p + 1);
        if (strcmp(key, "seat") == 0) {
            long long v;
            if (*p == '"') p = json_string(p, seat, sizeof seat);
            else if ((p = json_int(p, &v))) snprintf(seat, sizeof seat, "%lld", v);
        } else if (strcmp(key, "verb") == 0) {
            long long v;
            if (*p == '"') p = json_string(p, verb, sizeof verb);
            else if ((p = json_int(p, &v))) {
                if (v < 0 || v >= (long long)g->nverbs) return arb_error_set(err, ARB_EINVAL, NULL, "verb %lld is unknown", v);
                snprintf(verb, sizeof verb, "%s", g->verbs[v].name);
            }
        } else if (strcmp(key, "elapsed_ms") == 0) {
            p = json_int(p, &elapsed);
            have_elapsed = 1;
        } else if (strcmp(key, "action") == 0) {
            p = json_string(p, action, sizeof action);
        } else if (strcmp(key, "args") == 0) {
            if (*p != '[') return arb_error_set(err, ARB_EINVAL, NULL, "\"args\" is not an array");
            p = skip_ws(p + 1);
            size_t used = 0;
            while (p && *p && *p != ']') {
                long long v;
                if (!(p = json_int(p, &v))) break;
                used += (size_t)snprintf(argtxt + used, used < sizeof argtxt ? sizeof argtxt - used : 0, " %lld", v);
                p = skip_ws(p);
                if (*p == ',') p = skip_ws(p + 1);
            }
            if (!p || *p != ']' || used >= sizeof argtxt)
                return arb_error_set(err, ARB_EINVAL, NULL, "\"args\" is not an array of integers");
            p++;
        } else {
            return arb_error_set(err, ARB_EINVAL, NULL, "unknown key \"%s\"", key);
        }
        if (!p) return arb_error_set(err, ARB_EINVAL, NULL, "bad value for \"%s\"", key);
        p = skip_ws(p);
        if (*p == ',') p = skip_ws(p + 1);
    }
    if (*p != '}') return arb_error_set(err, ARB_EINVAL, NULL, "unterminated JSON object");
    char text[LINE_MAX_BYTES + 64];
    if (action[0]) snprintf(text, sizeof text, "%s", action);
    else {
        if (!seat[0] || !verb[0]) return arb_error_set(err, ARB_EINVAL, NULL, "an action needs \"seat\" and \"verb\" (or \"action\")");
        if (have_elapsed && elapsed < 0) return arb_error_set(err, ARB_EINVAL, NULL, "elapsed_ms is negative");
        snprintf(text, sizeof text, "+%lld %s %s%s", have_elapsed ? elapsed : 0, seat, verb, argtxt);
    }
    return arb_action_parse(g, text, a, err);
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
    const char *dn = d.kind < c->g->ndecision_names ? c->g->decision_names[d.kind] : "decision";
    size_t n = arb_match_legal(c->m, c->legal, ARB_AGENT_LEGAL_MAX);
    if (n > ARB_AGENT_LEGAL_MAX) n = ARB_AGENT_LEGAL_MAX;
    char buf[256];
    if (c->json) {
        printf("{\"type\":\"owed\",\"turn\":%u,\"seat\":%d,\"decision\":", arb_match_turn(c->m), d.seat);
        cli_json_str(stdout, dn);
        printf(",\"clock_left_ms\":%" PRId64 ",\"phase\":", d.clock_left_ms);
        cli_json_str(stdout, c->g->phase(arb_match_state(c->m)));
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

int cmd_record(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_MATCH_LONGOPTS,
        { "json", no_argument, NULL, 'x' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    cli_match_args a;
    memset(&a, 0, sizeof a);
    a.level = -1;
    int json = 0, c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if ((rc = cli_match_arg(&a, "record", c, optarg)) >= 0) {
            if (rc) return rc;
            continue;
        }
        switch (c) {
        case 'x': json = 1; break;
        case 'h': record_help(); return EXIT_OK;
        default: return cli_usage("record", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return cli_usage("record", "unexpected argument '%s'", argv[optind]);
    if (a.archive) a.archive = 2; /* record appends to the archive (a server's day) */
    if ((rc = cli_match_start(&a, "record"))) {
        cli_match_args_free(&a);
        return rc;
    }
    rctx ctx = { a.g, a.m, json, malloc(sizeof(arb_action) * ARB_AGENT_LEGAL_MAX) };
    char *line = malloc(LINE_MAX_BYTES + 2);
    if (!ctx.legal || !line) {
        rc = EXIT_INTERNAL;
        goto done;
    }
    prompt(&ctx);
    uint64_t recorded = 0;
    unsigned long lineno = 0;
    int over = 0;
    rc = EXIT_OK;
    while (!over && fgets(line, LINE_MAX_BYTES + 2, stdin)) {
        lineno++;
        size_t len = strlen(line);
        arb_error err = ARB_ERROR_INIT;
        if (len > LINE_MAX_BYTES) {
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n') {}
            arb_error_set(&err, ARB_ELIMIT, NULL, "line %lu is longer than %d bytes", lineno, LINE_MAX_BYTES);
            answer_error(&ctx, "error", &err);
            continue;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        const char *p = skip_ws(line);
        if (!*p || *p == '#') continue;
        arb_action act;
        int prc = json ? json_action(a.g, p, &act, &err) : arb_action_parse(a.g, p, &act, &err);
        if (prc) {
            char msg[200];
            memcpy(msg, err.msg, sizeof msg - 1);
            msg[sizeof msg - 1] = '\0';
            snprintf(err.msg, sizeof err.msg, "line %lu: %s", lineno, msg);
            answer_error(&ctx, "error", &err);
            fflush(stdout);
            continue;
        }
        char desc[256] = "";
        if (act.verb < a.g->nverbs) a.g->action_text(arb_match_state(a.m), &act, desc, sizeof desc);
        int src = arb_replay_record_step(a.w, a.m, &act, &err);
        if (src == ARB_EIO || src == ARB_ENOMEM) {
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
                a.g->event_text(&ev[i], ARB_VIEW_ALL, et, sizeof et);
                if (i) putchar(',');
                cli_json_str(stdout, et);
            }
            printf("]}\n");
        } else {
            printf("ok %" PRIu64 ": %s\n", recorded, desc);
            for (unsigned i = 0; i < nev; i++) {
                a.g->event_text(&ev[i], ARB_VIEW_ALL, et, sizeof et);
                printf("event: %s\n", et);
            }
        }
        recorded++;
        arb_outcome o;
        if (arb_match_outcome(a.m, &o)) {
            over = 1;
            const char *reason = o.reason < a.g->noutcome_reasons ? a.g->outcome_reasons[o.reason] : "unknown";
            if (json) {
                printf("{\"type\":\"over\",\"winner\":%d,\"reason\":", o.winner);
                cli_json_str(stdout, reason);
                printf(",\"turns\":%u,\"final_hash\":\"0x%016" PRIx64 "\"}\n", o.turns, arb_match_hash(a.m));
            } else {
                printf("over: %s (%s) after %u turns, final hash 0x%016" PRIx64 "\n",
                       o.winner >= 0 ? "winner" : "draw", reason, o.turns, arb_match_hash(a.m));
                if (o.winner >= 0) printf("winner: seat %d\n", o.winner);
            }
        } else {
            prompt(&ctx);
        }
        fflush(stdout);
    }
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
    int crc = arb_replay_writer_close(a.w, &err);
    a.w = NULL;
    if (crc) {
        rc = cli_fail("record", &err);
        goto done;
    }
    if (!over) {
        fprintf(stderr, "arbiter record: stdin ended before the match did; %s holds %" PRIu64
                        " actions and no outcome\n", a.out, recorded);
        rc = EXIT_INPUT;
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
