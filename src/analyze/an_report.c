/* an_report.c — one self-contained HTML file a judge can open or send:
 * header and players, outcome, one inline SVG chart per tracked quantity
 * over turns, and a timeline of every action with the engine's narration
 * and the rule ID of any rejection. Hidden information is toggled per seat
 * with CSS only (radio buttons): every text that differs between views is
 * written once per view, each view's text coming from the engine's
 * event_text(view), so the page never shows a seat more than the engine
 * would. No script, no network, no external font. The timeline is spooled
 * to a temporary file during the single replay, so memory stays flat. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"

#define Q_MAX 8
#define FALLBACK_CAND 24

typedef struct sample {
    uint32_t turn;
    int final;
    int64_t v[Q_MAX][ARB_MAX_SEATS];
    uint8_t have[Q_MAX][ARB_MAX_SEATS];
} sample;

typedef struct repctx {
    const arb_an_header *h;
    FILE *tl;                       /* timeline spool */
    unsigned nq;
    const char *paths[FALLBACK_CAND];
    const char *labels[FALLBACK_CAND];
    char fbpaths[FALLBACK_CAND][64];
    char fblabels[FALLBACK_CAND][48];   /* keys copied: the tree is freed */
    int fallback;
    sample *s;
    size_t ns, cap;
    uint32_t last_turn;
    int nomem;
    uint64_t rows;
} repctx;

static int take_sample(repctx *c, const arb_match *m, int final)
{
    if (c->ns == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        sample *ns = realloc(c->s, nc * sizeof *ns);
        if (!ns) { c->nomem = 1; return -1; }
        c->s = ns;
        c->cap = nc;
    }
    arb_tree *t = arb_match_export(m, ARB_VIEW_ALL);
    if (!t) { c->nomem = 1; return -1; }
    sample *s = &c->s[c->ns++];
    memset(s, 0, sizeof *s);
    s->turn = arb_match_turn(m);
    s->final = final;
    for (unsigned q = 0; q < c->nq && q < Q_MAX; q++)
        for (int p = 0; p < c->h->players; p++)
            s->have[q][p] = (uint8_t)arb_an__track_value(arb_tree_root(t), c->paths[q], p, &s->v[q][p]);
    arb_tree_free(t);
    c->last_turn = s->turn;
    return 0;
}

/* Choose the quantities from the initial state: the game's table entries
 * that exist (one per label), else every integer under players.0. */
static void choose_quantities(repctx *c, const arb_match *m)
{
    const char *const *paths, *const *labels;
    unsigned n = arb_an_tracked(c->h->game, &paths, &labels);
    arb_tree *t = arb_match_export(m, ARB_VIEW_ALL);
    if (!t) { c->nomem = 1; return; }
    const arb_tnode *root = arb_tree_root(t);
    for (unsigned i = 0; i < n && c->nq < Q_MAX; i++) {
        int64_t v;
        int dup = 0;
        for (unsigned k = 0; k < c->nq; k++) dup |= !strcmp(c->labels[k], labels[i]);
        if (!dup && arb_an__track_value(root, paths[i], 0, &v)) {
            c->paths[c->nq] = paths[i];
            c->labels[c->nq] = labels[i];
            c->nq++;
        }
    }
    if (!c->nq) {
        c->fallback = 1;
        const arb_tnode *p0 = arb_tnode_path(root, "players.0");
        for (const arb_tnode *x = p0 && p0->kind == ARB_T_MAP ? p0->first : NULL; x && c->nq < FALLBACK_CAND;
             x = x->next) {
            if (x->kind != ARB_T_INT || strlen(x->key) > 40) continue;
            snprintf(c->fbpaths[c->nq], sizeof c->fbpaths[0], "players.*.%s", x->key);
            c->paths[c->nq] = c->fbpaths[c->nq];
            snprintf(c->fblabels[c->nq], sizeof c->fblabels[0], "%s", x->key);
            c->labels[c->nq] = c->fblabels[c->nq];
            c->nq++;
        }
        if (c->nq > Q_MAX) c->nq = Q_MAX; /* only the first ones are sampled */
    }
    arb_tree_free(t);
}

/* Text that may differ per view: written once when all views agree, else
 * once per view in spans the CSS toggles. */
static void view_text(FILE *out, int players, char texts[][384])
{
    int same = 1;
    for (int p = 0; p < players; p++) same &= !strcmp(texts[0], texts[p + 1]);
    if (same) {
        arb_an__html_str(out, texts[0]);
        return;
    }
    fputs("<span class=\"va\">", out);
    arb_an__html_str(out, texts[0]);
    fputs("</span>", out);
    for (int p = 0; p < players; p++) {
        fprintf(out, "<span class=\"v%d\">", p);
        arb_an__html_str(out, texts[p + 1]);
        fputs("</span>", out);
    }
}

static void row_start(repctx *c, const char *cls, int64_t rec, const arb_an_step *st, int seat)
{
    char clk[32], sn[16];
    if (seat < 0 && !strncmp(cls, "ev", 2)) seat = -2; /* an event's -1 is "no seat" */
    fprintf(c->tl, "<tr class=\"%s\" data-rec=\"%" PRId64 "\"><td>", cls, rec);
    if (rec < 0) fputs("setup", c->tl);
    else fprintf(c->tl, "#%" PRId64, rec);
    fprintf(c->tl, "</td><td>%" PRIu32 "</td><td>", st->turn);
    arb_an__html_str(c->tl, st->phase ? st->phase : "");
    fprintf(c->tl, "</td><td>%s</td><td class=\"seat s%d\">%s</td><td>", arb_an_clock(st->clock_ms, clk, sizeof clk),
            seat, arb_an_seat_name(seat, sn, sizeof sn));
    c->rows++;
}

static void events_rows(repctx *c, const arb_an_step *st, int64_t rec)
{
    const arb_game *g = c->h->game;
    char texts[ARB_MAX_SEATS + 1][384];
    for (unsigned i = 0; i < st->nevents; i++) {
        const arb_event *e = &st->events[i];
        for (int v = -1; v < c->h->players; v++) {
            texts[v + 1][0] = '\0';
            arb_game_event_text(g, e, v, texts[v + 1], sizeof texts[0]);
        }
        int clock = arb_an__event_is_clock(g, e);
        row_start(c, clock ? "ev clock" : "ev", rec, st, e->seat);
        fputs("<span class=\"dot\">·</span> ", c->tl);
        view_text(c->tl, c->h->players, texts);
        if (e->hidden) fputs(" <span class=\"badge hid va\">hidden</span>", c->tl);
        if (clock) fputs(" <span class=\"badge clk\">clock</span>", c->tl);
        fputs("</td><td></td></tr>\n", c->tl);
    }
}

static int on_step(void *ctx, const arb_an_step *st)
{
    repctx *c = ctx;
    const arb_an_record *r = st->rec;
    const arb_game *g = c->h->game;
    if (!r) {
        choose_quantities(c, st->m);
        take_sample(c, st->m, 0);
        events_rows(c, st, -1);
        return c->nomem;
    }
    int64_t idx = (int64_t)r->index;
    char texts[ARB_MAX_SEATS + 1][384], sn[16], vb[24];
    if (r->kind == ARB_AN_ACTION) {
        const arb_action *a = &r->action;
        const char *verb = arb_an__verb_name(g, a->verb, vb, sizeof vb);
        const char *full = st->action_text[0] ? st->action_text : verb;
        snprintf(texts[0], sizeof texts[0], "%s", full);
        for (int p = 0; p < c->h->players; p++) {
            if (a->seat == ARB_SEAT_ARBITER || a->seat == p) snprintf(texts[p + 1], sizeof texts[0], "%s", full);
            else snprintf(texts[p + 1], sizeof texts[0], "%s: %s", arb_an_seat_name(a->seat, sn, sizeof sn), verb);
        }
        const char *cls = st->rejected ? "act rej" : a->seat == ARB_SEAT_ARBITER ? "act arb" : "act";
        row_start(c, cls, idx, st, a->seat);
        view_text(c->tl, c->h->players, texts);
        if (a->seat == ARB_SEAT_ARBITER) fputs(" <span class=\"badge arbb\">arbiter</span>", c->tl);
        fputs("</td><td>", c->tl);
        if (st->rejected) {
            fputs("<span class=\"rule\">", c->tl);
            arb_an__html_str(c->tl, st->reject.rule[0] ? st->reject.rule : arb_strerror(st->reject.code));
            fputs("</span> ", c->tl);
            arb_an__html_str(c->tl, st->reject.msg);
        }
        fputs("</td></tr>\n", c->tl);
        events_rows(c, st, idx);
    } else if (r->kind == ARB_AN_CHECKPOINT) {
        if (!st->check) {
            row_start(c, "cp bad", idx, st, -2);
            fprintf(c->tl, "checkpoint turn %" PRIu32 ": recorded hash %016" PRIx64 ", engine computes %016" PRIx64
                    "</td><td><span class=\"rule\">MISMATCH</span></td></tr>\n", r->turn, r->hash, st->computed_hash);
        }
    } else if (r->kind == ARB_AN_OUTCOME) {
        row_start(c, st->check ? "oc" : "oc bad", idx, st, r->winner);
        if (r->winner >= 0) fprintf(c->tl, "%s wins", arb_an_seat_name(r->winner, sn, sizeof sn));
        else fputs("draw", c->tl);
        fputs(" (", c->tl);
        arb_an__html_str(c->tl, r->reason);
        fprintf(c->tl, ") after %" PRIu32 " turns</td><td>%s</td></tr>\n", r->turn,
                st->check ? "" : "<span class=\"rule\">MISMATCH</span>");
    }
    if (arb_match_turn(st->m) != c->last_turn) take_sample(c, st->m, 0);
    return c->nomem;
}

static const char *const colors[ARB_MAX_SEATS] = { "#1f6fd1", "#d1491f", "#2e9e45", "#8a3fc4" };

static void chart(FILE *out, const repctx *c, unsigned q)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < c->ns; i++)
        for (int p = 0; p < c->h->players; p++)
            if (c->s[i].have[q][p]) {
                if (c->s[i].v[q][p] < lo) lo = c->s[i].v[q][p];
                if (c->s[i].v[q][p] > hi) hi = c->s[i].v[q][p];
            }
    if (lo > hi) return;
    if (lo == hi) { lo -= 1; hi += 1; }
    const double W = 560, H = 230, L = 56, R = 12, T = 22, B = 30;
    double pw = W - L - R, ph = H - T - B;
    size_t n = c->ns;
    double dx = n > 1 ? pw / (double)(n - 1) : 0;
    fputs("<figure class=\"chart\"><figcaption>", out);
    arb_an__html_str(out, c->labels[q]);
    fputs(" <code>", out);
    arb_an__html_str(out, c->paths[q]);
    fprintf(out, "</code></figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
            "width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>", W, H, W, H);
    arb_an__html_str(out, c->labels[q]);
    fputs(" by turn</title>\n", out);
    fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" class=\"plot\"/>\n", L, T, pw, ph);
    /* Integer ticks only (counters are integers): at most four steps. */
    int64_t span = hi - lo, steps = span < 4 ? span : 4;
    for (int64_t k = 0; k <= steps; k++) {
        int64_t val = lo + span * k / steps;
        double y = T + ph - ph * (double)(val - lo) / (double)span;
        fprintf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                "<text x=\"%.0f\" y=\"%.1f\" class=\"yl\">%" PRId64 "</text>\n", L, L + pw, y, y, L - 4, y + 4, val);
    }
    size_t step = n > 12 ? (n + 11) / 12 : 1;
    for (size_t i = 0; i < n; i += step) {
        double x = L + dx * (double)i;
        if (c->s[i].final) fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"xl\">end</text>\n", x, H - 10);
        else fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"xl\">%" PRIu32 "</text>\n", x, H - 10, c->s[i].turn);
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" class=\"axis\">turn</text>\n", L + pw, H - 1);
    for (int p = 0; p < c->h->players; p++) {
        fprintf(out, "<polyline class=\"series\" data-seat=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-opacity=\"0.85\" points=\"",
                p, colors[p]);
        for (size_t i = 0; i < n; i++) {
            if (!c->s[i].have[q][p]) continue;
            double x = L + dx * (double)i;
            double y = T + ph - ph * (double)(c->s[i].v[q][p] - lo) / (double)(hi - lo);
            fprintf(out, "%.1f,%.1f ", x, y);
        }
        fputs("\"/>\n", out);
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" style=\"fill:%s\" class=\"lg\">P%d</text>\n", L + 36.0 * p, T - 8,
                colors[p], p + 1);
    }
    fputs("</svg></figure>\n", out);
}

static int varies(const repctx *c, unsigned q)
{
    for (size_t i = 1; i < c->ns; i++)
        for (int p = 0; p < c->h->players; p++)
            if (c->s[i].have[q][p] != c->s[0].have[q][p] || c->s[i].v[q][p] != c->s[0].v[q][p]) return 1;
    return 0;
}

static const char css[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1b1b1b;background:#fafafa}"
    "header{background:#22303c;color:#fff;padding:12px 20px}h1{font-size:20px;margin:0 0 4px}"
    "main{padding:8px 20px}section{margin:16px 0}h2{font-size:16px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}"
    ".meta td:first-child{color:#555}.tl{width:100%}.tl tr:nth-child(even){background:#f0f0f0}"
    ".tl td:nth-child(-n+5){white-space:nowrap;color:#555;font-variant-numeric:tabular-nums}"
    ".ev td:nth-child(6){padding-left:24px;color:#333}.act td:nth-child(6){font-weight:600}"
    ".rej{background:#fde2e2!important}.bad{background:#fde2e2!important}.oc{background:#e3f4e6!important}"
    ".rule{font-family:monospace;color:#b00020;font-weight:700}.badge{font-size:11px;border-radius:3px;padding:0 4px;"
    "background:#ddd;color:#333}.hid{background:#fff0c2}.clk,.arbb{background:#dbe8ff}"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}figure.chart{margin:0;background:#fff;border:1px solid #ddd;padding:6px}"
    "figcaption{font-weight:600}figcaption code{font-weight:400;color:#777;font-size:12px}"
    "svg .plot{fill:#fff;stroke:#bbb}svg .grid{stroke:#eee}svg text{font-size:11px;fill:#555}"
    "svg .yl{text-anchor:end}svg .xl{text-anchor:middle}svg .axis{text-anchor:end}svg .lg{font-weight:700}"
    ".views{margin-top:6px}.views label{margin-right:8px;cursor:pointer;border:1px solid #8aa;border-radius:4px;"
    "padding:1px 8px}#view-all:checked~header label[for=view-all],#view-0:checked~header label[for=view-0],"
    "#view-1:checked~header label[for=view-1],#view-2:checked~header label[for=view-2],"
    "#view-3:checked~header label[for=view-3]{background:#fff;color:#22303c}"
    ".v0,.v1,.v2,.v3{display:none}"
    "#view-0:checked~main .va,#view-1:checked~main .va,#view-2:checked~main .va,#view-3:checked~main .va{display:none}"
    "#view-0:checked~main .v0,#view-1:checked~main .v1,#view-2:checked~main .v2,#view-3:checked~main .v3{display:inline}"
    "#view-0:checked~main .hide0,#view-1:checked~main .hide1,#view-2:checked~main .hide2,#view-3:checked~main .hide3"
    "{display:none}"
    ".viewnote{display:none}#view-0:checked~main .viewnote,#view-1:checked~main .viewnote,#view-2:checked~main .viewnote,"
    "#view-3:checked~main .viewnote{display:block;color:#555}";

/* " (Name)" after "P2" unless the name is the default "P2". */
static void seat_name(FILE *out, const arb_an_header *h, int p)
{
    char dflt[16];
    snprintf(dflt, sizeof dflt, "P%d", p + 1);
    if (!h->names[p][0] || !strcmp(h->names[p], dflt)) return;
    fputs(" (", out);
    arb_an__html_str(out, h->names[p]);
    fputc(')', out);
}

static void write_head(FILE *out, const char *name, const arb_an_header *h)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\">"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
          "<title>arbiter report: ", out);
    arb_an__html_str(out, name);
    fputs("</title><style>", out);
    fputs(css, out);
    fputs("</style></head><body>\n", out);
    /* The view toggle: radios before <main> so CSS sibling selectors reach
     * every hidden-information span. */
    fputs("<input type=\"radio\" name=\"view\" id=\"view-all\" checked hidden>", out);
    for (int p = 0; p < h->players; p++) fprintf(out, "<input type=\"radio\" name=\"view\" id=\"view-%d\" hidden>", p);
    fputs("\n<header><h1>", out);
    arb_an__html_str(out, h->game->title);
    fputs(" — match report</h1><div>", out);
    arb_an__html_str(out, name);
    fputs("</div><div class=\"views\">Show what is visible to: <label for=\"view-all\">judge (everything)</label>", out);
    for (int p = 0; p < h->players; p++) {
        fprintf(out, "<label for=\"view-%d\">P%d", p, p + 1);
        seat_name(out, h, p);
        fputs("</label>", out);
    }
    fputs("</div></header>\n<main>\n", out);
}

static void write_summary(FILE *out, const arb_an_header *h, const arb_an_walk_result *res, const arb_match *m)
{
    const arb_game *g = h->game;
    char buf[64];
    fputs("<section id=\"summary\"><h2>Match</h2><table class=\"meta\">", out);
    fputs("<tr><td>game</td><td>", out);
    arb_an__html_str(out, g->id);
    fputs("</td></tr><tr><td>rules / engine</td><td>", out);
    arb_an__html_str(out, h->rules);
    fputs(" / ", out);
    arb_an__html_str(out, h->engine);
    fprintf(out, "</td></tr><tr><td>seed</td><td>%" PRIu64 "</td></tr>", h->seed);
    if (h->started[0]) {
        fputs("<tr><td>started</td><td>", out);
        arb_an__html_str(out, h->started);
        fputs("</td></tr>", out);
    }
    fputs("<tr><td>options</td><td>", out);
    for (unsigned i = 0; i < h->options.n && i < ARB_OPTIONS_MAX; i++) {
        arb_an__html_str(out, h->options.kv[i].key);
        fprintf(out, "=%" PRId64 " ", h->options.kv[i].value);
    }
    fprintf(out, "%s</td></tr><tr><td>start</td><td>%s</td></tr>", h->options.n ? "" : "none",
            h->position ? "from an explicit position" : "seeded setup");
    fprintf(out, "<tr><td>records</td><td>%" PRIu64 " (%" PRIu64 " actions, %" PRIu64 " rejected), clock %s</td></tr>",
            res->records, res->actions, res->rejected, arb_an_clock(res->clock_ms, buf, sizeof buf));
    fputs("<tr><td>outcome</td><td id=\"outcome\">", out);
    if (res->outcome_seen) {
        const arb_an_record *o = &res->outcome;
        if (o->winner >= 0 && o->winner < h->players) {
            fprintf(out, "<b>P%d", o->winner + 1);
            seat_name(out, h, o->winner);
            fputs(" wins</b>", out);
        } else fputs("<b>draw</b>", out);
        fputs(" (", out);
        arb_an__html_str(out, o->reason);
        fprintf(out, ") after %" PRIu32 " turns", o->turn);
    } else {
        arb_outcome oc;
        fprintf(out, "no outcome recorded; the engine is at turn %" PRIu32 "%s", arb_match_turn(m),
                arb_match_outcome(m, &oc) ? " and says the match is over" : "");
    }
    if (res->mismatches) fprintf(out, " — <span class=\"rule\">%" PRIu64 " recorded value(s) do not match the engine</span>",
                                 res->mismatches);
    fputs("</td></tr>", out);
    if (res->truncated) {
        char w[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
        arb_error_format(&res->trunc, w, sizeof w);
        fputs("<tr><td>truncated</td><td class=\"rule\" id=\"truncated\">", out);
        arb_an__html_str(out, w);
        fputs("</td></tr>", out);
    }
    fputs("</table>\n<h2>Players</h2><table class=\"meta players\"><tr><th>seat</th><th>name</th><th>deck</th></tr>", out);
    for (int p = 0; p < h->players; p++) {
        fprintf(out, "<tr><td style=\"color:%s\"><b>P%d</b></td><td>", colors[p], p + 1);
        arb_an__html_str(out, h->names[p]);
        fprintf(out, "</td><td>%u cards: ", (unsigned)h->decks[p].ncards);
        /* Deck lists are in the header, public to the judge; grouped by card. */
        const arb_deck *d = &h->decks[p];
        for (unsigned i = 0; i < d->ncards; i++) {
            int seen = 0;
            for (unsigned k = 0; k < i; k++) seen |= d->cards[k] == d->cards[i];
            if (seen) continue;
            unsigned cnt = 0;
            for (unsigned k = i; k < d->ncards; k++) cnt += d->cards[k] == d->cards[i];
            const arb_card *c = d->cards[i] < g->ncards ? g->card(d->cards[i]) : NULL;
            fprintf(out, "%s%u× ", i ? ", " : "", cnt);
            arb_an__html_str(out, c ? c->name : "?");
        }
        fputs("</td></tr>", out);
    }
    fputs("</table></section>\n", out);
}

int arb_an_report(arb_an_source *src, FILE *out, arb_an_walk_result *res, arb_error *err)
{
    arb_an_walk_result r0;
    if (!res) res = &r0;
    repctx c;
    memset(&c, 0, sizeof c);
    c.h = &src->hdr;
    c.tl = tmpfile();
    if (!c.tl) return arb_error_set(err, ARB_EIO, NULL, "cannot create a temporary file for the timeline");
    arb_match *m = NULL;
    int rc = arb_an__walk(src, 1, on_step, &c, &m, res, err);
    if (!rc && c.nomem) rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    if (rc) goto out;
    if (take_sample(&c, m, 1)) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        goto out;
    }
    write_head(out, src->name, c.h);
    write_summary(out, c.h, res, m);
    fputs("<section id=\"charts\"><h2>Over the turns</h2><div class=\"charts\">\n", out);
    unsigned charted = 0;
    for (unsigned q = 0; q < c.nq; q++) {
        if (c.fallback && (!varies(&c, q) || charted >= Q_MAX)) continue;
        chart(out, &c, q);
        charted++;
    }
    if (!charted) fputs("<p>No tracked quantity in this game's state.</p>", out);
    fprintf(out, "</div></section>\n<section id=\"timeline\"><h2>Timeline (%" PRIu64 " rows)</h2>"
            "<p class=\"viewnote\">Showing only what this seat could see: other seats' hidden cards and the "
            "arguments of their actions are masked.</p>\n<table class=\"tl\"><thead><tr><th>record</th><th>turn</th>"
            "<th>phase</th><th>clock</th><th>seat</th><th>what happened</th><th>rejection</th></tr></thead><tbody>\n",
            c.rows);
    rewind(c.tl);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, c.tl)) > 0) fwrite(buf, 1, n, out);
    fputs("</tbody></table></section>\n</main>\n<footer style=\"padding:8px 20px;color:#777\">generated by arbiter "
          "from the replay alone; narration by the engine</footer></body></html>\n", out);
    if (ferror(out)) rc = arb_error_set(err, ARB_EIO, NULL, "cannot write the report");
out:
    fclose(c.tl);
    free(c.s);
    arb_match_free(m);
    return rc;
}
