/* an_log.c — the play-by-play: one line per record and per engine event,
 * with record index, turn, phase, cumulative clock, seat and the engine's
 * own narration (event_text, action_text). With a seat's view, events go
 * through event_text(view = seat), which is where each engine masks what
 * that seat may not see, and other seats' actions are shown by verb only
 * because their arguments (card UIDs) could identify hidden cards. --json
 * gives each event's a, b, c too, except another seat's hidden event. */
#include <inttypes.h>
#include <string.h>

#include "analyze/an_int.h"

typedef struct logctx {
    const arb_an_log_opts *o;
    const arb_an_header *h;
    FILE *out;
    unsigned long entries;
} logctx;

typedef struct line {
    int64_t record;             /* -1 setup */
    const char *kind;           /* action, event, checkpoint, outcome */
    uint32_t turn;
    const char *phase;
    uint64_t clock_ms;
    int seat;
    const char *text;
    const char *flags[4];
    unsigned nflags;
    const char *rule;           /* rejected action */
    const char *verb;           /* action: verb name */
    const arb_action *action;   /* args */
    const char *event;          /* event name */
    const char *decision;       /* action: the decision it answered */
    int hidden;                 /* hidden event */
    const int32_t *eargs;       /* event: a, b, c when this view may see them */
    int ok;                     /* checkpoint/outcome match: 1/0, -1 n/a */
} line;

static void emit(logctx *c, const line *l)
{
    FILE *out = c->out;
    char clk[32], seat[16];
    arb_an_clock(l->clock_ms, clk, sizeof clk);
    /* An event's seat -1 means "no seat", not the arbiter. */
    if (l->event && l->seat < 0) snprintf(seat, sizeof seat, "-");
    else arb_an_seat_name(l->seat, seat, sizeof seat);
    if (c->o->json) {
        fprintf(out, "%s\n{\"record\":%" PRId64 ",\"kind\":\"%s\",\"turn\":%" PRIu32 ",\"phase\":",
                c->entries ? "," : "", l->record, l->kind, l->turn);
        arb_an__json_str(out, l->phase ? l->phase : "");
        fprintf(out, ",\"clock_ms\":%" PRIu64 ",\"clock\":\"%s\",\"seat\":%d,\"seat_name\":\"%s\",\"text\":",
                l->clock_ms, clk, l->seat, seat);
        arb_an__json_str(out, l->text);
        fputs(",\"flags\":[", out);
        for (unsigned i = 0; i < l->nflags; i++) fprintf(out, "%s\"%s\"", i ? "," : "", l->flags[i]);
        fputc(']', out);
        if (l->verb) {
            fputs(",\"verb\":", out);
            arb_an__json_str(out, l->verb);
            if (l->action) {
                fputs(",\"args\":[", out);
                for (unsigned i = 0; i < l->action->nargs && i < ARB_ARGS_MAX; i++)
                    fprintf(out, "%s%" PRId32, i ? "," : "", l->action->args[i]);
                fprintf(out, "],\"elapsed_ms\":%" PRIu32, l->action->elapsed_ms);
            }
        }
        if (l->decision) {
            fputs(",\"decision\":", out);
            arb_an__json_str(out, l->decision);
        }
        if (l->rule) {
            fputs(",\"rejected\":true,\"rule\":", out);
            arb_an__json_str(out, l->rule);
        }
        if (l->event) {
            fputs(",\"event\":", out);
            arb_an__json_str(out, l->event);
            fprintf(out, ",\"hidden\":%s", l->hidden ? "true" : "false");
            if (l->eargs)
                fprintf(out, ",\"a\":%" PRId32 ",\"b\":%" PRId32 ",\"c\":%" PRId32, l->eargs[0], l->eargs[1],
                        l->eargs[2]);
        }
        if (l->ok >= 0) fprintf(out, ",\"ok\":%s", l->ok ? "true" : "false");
        fputc('}', out);
    } else {
        char idx[24];
        if (l->record < 0) snprintf(idx, sizeof idx, "setup");
        else snprintf(idx, sizeof idx, "#%" PRId64, l->record);
        fprintf(out, "%7s  T%-3" PRIu32 " %-12s %10s  %-7s ", idx, l->turn, l->phase ? l->phase : "", clk,
                seat);
        if (!strcmp(l->kind, "event")) fputs("  · ", out);
        for (unsigned i = 0; i < l->nflags; i++) fprintf(out, "[%s] ", l->flags[i]);
        arb_text_put(out, l->text); /* may quote file data (rejection messages, unknown keys) */
        fputc('\n', out);
    }
    c->entries++;
}

static int in_range(const arb_an_log_opts *o, int64_t rec)
{
    if (rec < 0) return o->from <= 0;
    if (o->from >= 0 && rec < o->from) return 0;
    if (o->to >= 0 && rec > o->to) return 0;
    return 1;
}

static void emit_events(logctx *c, const arb_an_step *st, int64_t record)
{
    const arb_game *g = c->h->game;
    for (unsigned i = 0; i < st->nevents; i++) {
        const arb_event *e = &st->events[i];
        char text[320], ename[24];
        text[0] = '\0';
        arb_game_event_text(g, e, c->o->view, text, sizeof text);
        line l = { 0 };
        l.record = record;
        l.kind = "event";
        l.turn = st->event_turn ? st->event_turn[i] : st->turn;
        l.phase = st->event_phase ? st->event_phase[i] : st->phase;
        l.clock_ms = st->clock_ms;
        l.seat = e->seat;
        l.text = text;
        l.ok = -1;
        l.event = arb_an__event_name(g, e->type, ename, sizeof ename);
        l.hidden = e->hidden;
        /* a, b, c of a hidden event name what only its seat may see. */
        int32_t args[3] = {e->a, e->b, e->c};
        if (!e->hidden || c->o->view == ARB_VIEW_ALL || c->o->view == e->seat) l.eargs = args;
        if (arb_an__event_is_clock(g, e)) l.flags[l.nflags++] = "clock";
        if (e->hidden && c->o->view == ARB_VIEW_ALL) l.flags[l.nflags++] = "hidden";
        emit(c, &l);
    }
}

static int on_step(void *ctx, const arb_an_step *st)
{
    logctx *c = ctx;
    const arb_game *g = c->h->game;
    const arb_an_record *r = st->rec;
    int64_t idx = r ? (int64_t)r->index : -1;
    if (c->o->to >= 0 && idx > c->o->to) return 1;
    if (!in_range(c->o, idx)) return 0;
    if (!r) {
        emit_events(c, st, -1);
        return 0;
    }
    line l = { 0 };
    l.record = idx;
    l.turn = st->turn;
    l.phase = st->phase;
    l.clock_ms = st->clock_ms;
    l.ok = -1;
    char text[512], vbuf[24], a[64], b[64];
    if (r->kind == ARB_AN_ACTION) {
        const arb_action *act = &r->action;
        l.kind = "action";
        l.seat = act->seat;
        l.verb = arb_an__verb_name(g, act->verb, vbuf, sizeof vbuf);
        if (st->decision_seat != ARB_SEAT_NONE) l.decision = arb_an__decision_name(g, st->decision_kind, b, sizeof b);
        l.action = act;
        int masked = c->o->view != ARB_VIEW_ALL && act->seat != ARB_SEAT_ARBITER && act->seat != c->o->view;
        if (masked) snprintf(text, sizeof text, "%s: %s", arb_an_seat_name(act->seat, a, sizeof a), l.verb);
        else snprintf(text, sizeof text, "%s", st->action_text[0] ? st->action_text : l.verb);
        if (masked) l.action = NULL;
        if (act->seat == ARB_SEAT_ARBITER) l.flags[l.nflags++] = "arbiter";
        if (st->rejected) {
            l.flags[l.nflags++] = "REJECTED";
            l.rule = st->reject.rule;
            size_t n = strlen(text);
            snprintf(text + n, sizeof text - n, " — rejected: %s%s%s", st->reject.rule,
                     st->reject.rule[0] ? ": " : "", st->reject.msg);
        }
        l.text = text;
        emit(c, &l);
        emit_events(c, st, idx);
    } else if (r->kind == ARB_AN_CHECKPOINT) {
        l.kind = "checkpoint";
        l.seat = -2;
        l.ok = st->check;
        char hs[48];
        arb_an__hash_str(hs, sizeof hs, r->hash, r->hash_bits);
        if (st->check)
            snprintf(text, sizeof text, "checkpoint: turn %" PRIu32 ", hash %s (matches)", r->turn, hs);
        else
            snprintf(text, sizeof text,
                     "checkpoint: turn %" PRIu32 ", hash %s — MISMATCH: the engine is at turn %" PRIu32
                     " with hash 0x%016" PRIx64, r->turn, hs, arb_match_turn(st->m), st->computed_hash);
        if (!st->check) l.flags[l.nflags++] = "MISMATCH";
        l.text = text;
        emit(c, &l);
    } else if (r->kind == ARB_AN_OUTCOME) {
        l.kind = "outcome";
        l.seat = r->winner;
        l.ok = st->check;
        if (r->winner >= 0)
            snprintf(text, sizeof text, "outcome: %s wins (%s) after %" PRIu32 " turns%s",
                     arb_an_seat_name(r->winner, a, sizeof a), r->reason, r->turn,
                     st->check ? "" : " — MISMATCH with the engine's result");
        else
            snprintf(text, sizeof text, "outcome: draw (%s) after %" PRIu32 " turns%s", r->reason, r->turn,
                     st->check ? "" : " — MISMATCH with the engine's result");
        if (!st->check) l.flags[l.nflags++] = "MISMATCH";
        l.text = text;
        emit(c, &l);
    } else {
        l.kind = "unknown";
        l.seat = -2;
        snprintf(text, sizeof text, "record of unknown kind %d (skipped)", r->kind);
        l.text = text;
        emit(c, &l);
    }
    return 0;
}

int arb_an_log(arb_an_source *src, const arb_an_log_opts *o, FILE *out, arb_an_walk_result *res,
               arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, out);
    arb_an_log_opts dflt = ARB_AN_LOG_OPTS_INIT;
    if (!o) o = &dflt;
    arb_an_walk_result r0;
    if (!res) res = &r0;
    const arb_an_header *h = &src->hdr;
    if (o->view != ARB_VIEW_ALL && (o->view < 0 || o->view >= h->players))
        return arb_error_set(err, ARB_EINVAL, NULL, "seat %d is not in this %d-player match", o->view,
                             h->players);
    logctx c = { o, h, out, 0 };
    char sn[16];
    if (o->json) {
        fputs("{\"file\":", out);
        arb_an__json_str(out, src->name);
        fputs(",\"game\":", out);
        arb_an__json_str(out, h->game->id);
        fprintf(out, ",\"seed\":\"%" PRIu64 "\",\"view\":", h->seed);
        if (o->view == ARB_VIEW_ALL) fputs("\"all\"", out);
        else fprintf(out, "%d", o->view);
        fputs(",\"players\":[", out);
        for (int i = 0; i < h->players; i++) {
            fputs(i ? "," : "", out);
            arb_an__json_str(out, h->names[i]);
        }
        fputs("],\"entries\":[", out);
    } else {
        arb_text_put(out, src->name);
        fprintf(out, ": %s, seed %" PRIu64, h->game->title, h->seed);
        for (int i = 0; i < h->players; i++) {
            fprintf(out, "%s%s \"", i ? " vs " : ", ", arb_an_seat_name(i, sn, sizeof sn));
            arb_text_put(out, h->names[i]); /* player names come from the file */
            fputc('"', out);
        }
        if (o->view != ARB_VIEW_ALL) fprintf(out, "; as seen by %s", arb_an_seat_name(o->view, sn, sizeof sn));
        fputc('\n', out);
    }
    int rc = arb_an__walk(src, 1, on_step, &c, NULL, res, err);
    char where[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    if (o->json) {
        fprintf(out, "\n],\"records\":%" PRIu64 ",\"actions\":%" PRIu64 ",\"rejected\":%" PRIu64
                ",\"mismatches\":%" PRIu64 ",\"complete\":%s,\"stopped\":%s,\"truncated\":%s",
                res->records, res->actions, res->rejected, res->mismatches,
                !rc && res->outcome_seen && !res->diverged ? "true" : "false", res->stopped ? "true" : "false",
                res->truncated ? "true" : "false");
        fprintf(out, ",\"diverged\":%s", res->diverged ? "true" : "false");
        if (res->diverged) {
            arb_error_format(&res->divergence, where, sizeof where);
            fputs(",\"divergence\":", out);
            arb_an__json_str(out, where);
        }
        if (res->truncated) {
            arb_error_format(&res->trunc, where, sizeof where);
            fputs(",\"truncation\":", out);
            arb_an__json_str(out, where);
        }
        if (rc) {
            arb_error_format(err, where, sizeof where);
            fputs(",\"error\":", out);
            arb_an__json_str(out, where);
        }
        fputs("}\n", out);
    } else if (res->diverged) {
        arb_error_format(&res->divergence, where, sizeof where);
        fprintf(out, "-- not shown past record #%" PRIu64 ", which `verify` refuses: ", res->last_index);
        arb_text_put(out, where);
        fputc('\n', out);
    } else if (res->truncated && !res->stopped) {
        arb_error_format(&res->trunc, where, sizeof where);
        fprintf(out, "-- truncated after record #%" PRIu64 ": %s\n", res->last_index, where);
    }
    return rc;
}
