/* an_report.c — the judge's viewer: one self-contained HTML file (no
 * network, no external script or font; one inline script and stylesheet,
 * src/analyze/report.{js,css}) that opens on the verdict (VERIFIED or DOES
 * NOT VERIFY with the first divergence linked), then a board drawn from the
 * engine's state tree at the selected record, a slider and keys to step
 * through the records, a turn list, a timeline where every record has an
 * element id="r<INDEX>" (so a ruling can cite file.html#r<INDEX>), charts
 * whose points link to their records, and the match's header.
 *
 * States are stored as differences: per view, the state after setup and,
 * for every record, the list of fields it changed (JSON paths), so the page
 * grows with what happened rather than with records × state size.
 *
 * Views: the judge's file (view ARB_VIEW_ALL) carries the full tree and
 * every seat's view, with a toggle. A seat's file (opts->view = seat)
 * carries only what that seat could see: the engine's export_state(seat)
 * and event_text(seat), other seats' actions by verb only (their
 * arguments, rejection messages and deck lists are left out: each could
 * name a hidden card), no state hash and no start position; the card
 * texts are those of the cards named in that seat's trees and its own
 * deck. The timeline and the difference lists are spooled to temporary
 * files during the single replay, so memory stays flat.
 *
 * The ruling panel cites, for every action, the rules that govern its verb
 * (the layout's "rules" map, governing_rules below) and for a rejection
 * the rule the engine names, each with its catalog citation. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/text.h"
#include "arbiter/toolkit.h"

extern const char *const arb_an__report_css[];
extern const char *const arb_an__report_js[];

#define Q_MAX 8
#define FALLBACK_CAND 24
#define VIEWS_MAX (ARB_MAX_SEATS + 1)
#define PATH_MAX_DEPTH 64
#define ROWS_PER_CHUNK 100
#define LEGAL_SHOWN 200                 /* legal actions listed per decision */
#define RULES_CITED 256                 /* distinct rule IDs cited per page */
#define RULES_PER_ACTION 24             /* rule IDs cited for one action */

typedef struct sample {
    uint32_t turn;                  /* the state's, after the record */
    int64_t rec;                    /* record after which it was taken, -1 setup */
    uint32_t rec_turn;              /* the turn that record was made in */
    int final;
    int64_t v[Q_MAX][ARB_MAX_SEATS];
    uint8_t have[Q_MAX][ARB_MAX_SEATS];
} sample;

typedef struct viewstream {
    int view;
    arb_tree *prev;                 /* the previous record's document */
    arb_tree *first;                /* the document after setup */
    FILE *ops;                      /* "[…],[…]" one list per record */
} viewstream;

/* Distinct strings, each once (the legal actions' texts): open addressing
 * on an FNV-1a hash, the table kept at most half full. */
#define STRTAB_MAX (1u << 22)
typedef struct strtab {
    char *buf;                      /* the strings, each NUL-ended */
    size_t len, cap;
    size_t *at;                     /* where string i starts */
    uint32_t n, capn;
    uint32_t *slot;                 /* index + 1, 0 empty */
    uint32_t nslot;
} strtab;

typedef struct repctx {
    const arb_an_header *h;
    const arb_an_report_opts *o;
    int seatfile;                   /* o->view is a seat */
    FILE *tl;                       /* timeline spool */
    FILE *recs;                     /* per record: turn after it */
    char *kinds;                    /* per record: a c o x u */
    size_t nkinds, capkinds;
    viewstream vs[VIEWS_MAX];
    int nviews;
    uint8_t *used;                  /* card pool index named in a carried tree */
    unsigned nq;
    const char *paths[FALLBACK_CAND];
    const char *labels[FALLBACK_CAND];
    char fbpaths[FALLBACK_CAND][64];
    char fblabels[FALLBACK_CAND][48];
    int fallback;
    sample *s;
    size_t ns, cap;
    uint32_t last_turn;
    uint32_t rec_turn;              /* the turn the last record was made in */
    int nomem;
    int timed;
    uint64_t rows, nrec;
    int64_t first_bad;              /* the walk's first divergence, -1 none */
    char first_bad_what[160];
    /* the difference writer's path */
    const char *pkey[PATH_MAX_DEPTH];
    int64_t pidx[PATH_MAX_DEPTH];
    int depth;
    int nops;
    FILE *cur;
    long *off;                      /* where each op of the record starts */
    size_t noff, capoff;
    /* the legal actions at each decision, and the rule IDs cited */
    FILE *lg;                       /* one entry per record and the setup */
    strtab lgs;                     /* their texts */
    char *lgprev;                   /* the previous entry written out */
    size_t lgprevlen;
    uint64_t nlg;                   /* entries written */
    char rules[RULES_CITED][ARB_RULE_MAX];
    int nrules;
    /* the rules that govern each action (board.json "rules"), per record */
    arb_tree *layout;               /* the game's board layout, parsed */
    const arb_tnode *verb_rules;    /* its "rules" map, or NULL */
    FILE *ar;                       /* per record: 0, or 1 + index in ars */
    strtab ars;                     /* the distinct lists ("ID ID …") */
} repctx;

/* ------------------------------------------------------------ JSON out */

/* A JSON string safe inside <script>: '<', '>' and '&' as \u escapes. */
static void js_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '<' || *p == '>' || *p == '&') fprintf(out, "\\u%04x", *p);
        else {
            size_t len;
            long cp = arb_text_control_at((const char *)p, &len);
            if (cp < 0) fputc(*p, out);
            else { fprintf(out, "\\u%04lx", (unsigned long)cp); p += len - 1; }
        }
    }
    fputc('"', out);
}

/* A JSON array of n strings. */
static void js_strs(FILE *out, const char *const *v, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', out);
        js_str(out, v[i]);
    }
    fputc(']', out);
}

/* A strtab's strings, comma-separated, in index order (no brackets). */
static void js_strtab(FILE *out, const strtab *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        if (i) fputc(',', out);
        js_str(out, t->buf + t->at[i]);
    }
}

static void mark_card(repctx *c, const char *s)
{
    const arb_game *g = c->h->game;
    if (!c->used || !g->card) return;
    for (unsigned i = 0; i < g->ncards; i++) {
        const arb_card *cd = g->card(g, i);
        if (cd && cd->id && !strcmp(cd->id, s)) { c->used[i] = 1; return; }
    }
}

static void js_node(repctx *c, FILE *out, const arb_tnode *n)
{
    switch (n->kind) {
    case ARB_T_NULL: fputs("null", out); break;
    case ARB_T_BOOL: fputs(n->i ? "true" : "false", out); break;
    case ARB_T_INT:
        /* JavaScript numbers are exact to 2^53: larger ones (PRNG words)
         * are written as strings so the board shows them digit for digit. */
        if (n->i > 9007199254740991LL || n->i < -9007199254740991LL) fprintf(out, "\"%" PRId64 "\"", n->i);
        else fprintf(out, "%" PRId64, n->i);
        break;
    case ARB_T_STR:
        mark_card(c, n->s);
        js_str(out, n->s);
        break;
    case ARB_T_ARR:
    case ARB_T_MAP:
        fputc(n->kind == ARB_T_ARR ? '[' : '{', out);
        for (const arb_tnode *x = n->first; x; x = x->next) {
            if (x != n->first) fputc(',', out);
            if (n->kind == ARB_T_MAP) {
                js_str(out, x->key);
                fputc(':', out);
            }
            js_node(c, out, x);
        }
        fputc(n->kind == ARB_T_ARR ? ']' : '}', out);
        break;
    }
}

/* ----------------------------------------------------- the differences */

static void op_path(repctx *c)
{
    FILE *out = c->cur;
    if (c->nops++) fputc(',', out);
    if (c->noff == c->capoff) {
        size_t nc = c->capoff ? c->capoff * 2 : 64;
        long *no = realloc(c->off, nc * sizeof *no);
        if (!no) c->nomem = 1;
        else { c->off = no; c->capoff = nc; }
    }
    if (c->noff < c->capoff) c->off[c->noff++] = ftell(out);
    fputs("[[", out);
    for (int i = 0; i < c->depth; i++) {
        if (i) fputc(',', out);
        if (c->pkey[i]) js_str(out, c->pkey[i]);
        else fprintf(out, "%" PRId64, c->pidx[i]);
    }
    fputc(']', out);
}

static void op_set(repctx *c, const arb_tnode *v)
{
    op_path(c);
    fputc(',', c->cur);
    js_node(c, c->cur, v);
    fputc(']', c->cur);
}

static int scalar_equal(const arb_tnode *a, const arb_tnode *b)
{
    if (a->kind == ARB_T_STR) return !strcmp(a->s, b->s);
    return a->i == b->i;
}

static void diff(repctx *c, const arb_tnode *a, const arb_tnode *b);

static void diff_child(repctx *c, const char *key, int64_t idx, const arb_tnode *a, const arb_tnode *b)
{
    if (c->depth >= PATH_MAX_DEPTH) return;
    c->pkey[c->depth] = key;
    c->pidx[c->depth] = idx;
    c->depth++;
    if (!a) op_set(c, b);
    else diff(c, a, b);
    c->depth--;
}

static void diff(repctx *c, const arb_tnode *a, const arb_tnode *b)
{
    if (a->kind != b->kind || c->depth >= PATH_MAX_DEPTH - 1) {
        if (a->kind != b->kind || !arb_tnode_equal(a, b)) op_set(c, b);
        return;
    }
    if (b->kind == ARB_T_MAP) {
        /* Keys usually come in the same order: try the parallel child
         * first, search only on a miss. */
        const arb_tnode *ax = a->first;
        int in_order = a->n == b->n;
        for (const arb_tnode *bx = b->first; bx; bx = bx->next) {
            const arb_tnode *match = NULL;
            if (ax && !strcmp(ax->key, bx->key)) match = ax;
            else {
                in_order = 0;
                match = arb_tnode_get(a, bx->key);
            }
            diff_child(c, bx->key, 0, match, bx);
            if (ax) ax = ax->next;
        }
        if (!in_order)
            for (const arb_tnode *x = a->first; x; x = x->next)
                if (!arb_tnode_get(b, x->key) && c->depth < PATH_MAX_DEPTH) {
                    c->pkey[c->depth] = x->key;
                    c->depth++;
                    op_path(c);
                    fputc(']', c->cur);
                    c->depth--;
                }
    } else if (b->kind == ARB_T_ARR) {
        /* Same length: element by element (a card's counter changed).
         * Else one splice of what lies between the common prefix and
         * suffix (a card drawn from the top, played from the middle). */
        if (a->n == b->n) {
            const arb_tnode *ax = a->first;
            int64_t i = 0;
            for (const arb_tnode *bx = b->first; bx; bx = bx->next, i++, ax = ax->next) diff_child(c, NULL, i, ax, bx);
            return;
        }
        const arb_tnode *ae[ARB_DECK_MAX * 2], *be[ARB_DECK_MAX * 2];
        if (a->n > ARB_DECK_MAX * 2 || b->n > ARB_DECK_MAX * 2) {
            op_set(c, b);
            return;
        }
        uint32_t na = 0, nb = 0;
        for (const arb_tnode *x = a->first; x; x = x->next) ae[na++] = x;
        for (const arb_tnode *x = b->first; x; x = x->next) be[nb++] = x;
        uint32_t pre = 0, suf = 0;
        while (pre < na && pre < nb && arb_tnode_equal(ae[pre], be[pre])) pre++;
        while (suf < na - pre && suf < nb - pre && arb_tnode_equal(ae[na - 1 - suf], be[nb - 1 - suf])) suf++;
        op_path(c);
        fprintf(c->cur, ",0,%" PRIu32 ",%" PRIu32 ",[", pre, na - pre - suf);
        for (uint32_t i = pre; i < nb - suf; i++) {
            if (i > pre) fputc(',', c->cur);
            js_node(c, c->cur, be[i]);
        }
        fputs("]]", c->cur);
    } else if (!scalar_equal(a, b)) {
        op_set(c, b);
    }
}

/* The document the board is drawn from: the shape of `arbiter state
 * --json` (turn, phase, clock_ms, decision, outcome, state), so the state
 * tree's paths are the board's. */
static arb_tree *document(repctx *c, const arb_match *m, int view, const arb_an_step *st)
{
    const arb_game *g = c->h->game;
    arb_tree *t = arb_tree_new();
    if (!t) return NULL;
    arb_tnode *root = arb_tree_root(t);
    char buf[32];
    arb_tree_add_int(t, root, "turn", arb_match_turn(m));
    arb_tree_add_str(t, root, "phase", arb_match_phase(m));
    arb_tree_add_int(t, root, "clock_ms", (int64_t)st->clock_ms);
    if (st->rejected) {
        arb_tnode *rj = arb_tree_add_map(t, root, "rejected");
        arb_tree_add_str(t, rj, "rule", st->reject.rule);
    }
    arb_decision d = arb_match_decision(m);
    arb_tnode *dn = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, dn, "seat", d.seat);
    if (d.seat != ARB_SEAT_NONE) arb_tree_add_str(t, dn, "kind", arb_an__decision_name(g, d.kind, buf, sizeof buf));
    else arb_tree_add_null(t, dn, "kind");
    arb_tree_add_int(t, dn, "clock_left_ms", d.clock_left_ms);
    arb_outcome o;
    memset(&o, 0, sizeof o);
    arb_tnode *on = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, on, "over", arb_match_outcome(m, &o));
    if (o.over) {
        arb_tree_add_int(t, on, "winner", o.winner);
        arb_tree_add_str(t, on, "reason", arb_name_at(g->outcome_reasons, g->noutcome_reasons, o.reason, ""));
        arb_tree_add_int(t, on, "turns", o.turns);
    }
    arb_tnode *sn = arb_tree_add_map(t, root, "state");
    g->export_state(g, arb_match_state(m), view, t, sn);
    if (arb_tree_failed(t)) {
        arb_tree_free(t);
        return NULL;
    }
    return t;
}

/* One record's differences of one view, as JSON text and op offsets. */
typedef struct oplist {
    char *buf;
    size_t len;
    long *off;
    size_t n;
} oplist;

static int diff_record(repctx *c, const arb_tree *prev, const arb_tree *t, oplist *ol)
{
    memset(ol, 0, sizeof *ol);
    FILE *ms = open_memstream(&ol->buf, &ol->len);
    if (!ms) return c->nomem = 1;
    c->cur = ms;
    c->depth = 0;
    c->nops = 0;
    c->noff = 0;
    diff(c, arb_tree_root((arb_tree *)prev), arb_tree_root((arb_tree *)t));
    if (fclose(ms) || c->nomem) return c->nomem = 1;
    ol->n = c->noff;
    if (ol->n) {
        ol->off = malloc(ol->n * sizeof *ol->off);
        if (!ol->off) return c->nomem = 1;
        memcpy(ol->off, c->off, ol->n * sizeof *ol->off);
    }
    return 0;
}

static void op_text(const oplist *ol, size_t i, const char **p, size_t *n)
{
    size_t end = i + 1 < ol->n ? (size_t)ol->off[i + 1] - 1 : ol->len;
    *p = ol->buf + ol->off[i];
    *n = end - (size_t)ol->off[i];
}

/* Every view's difference list for the record. A seat's list in the
 * judge's file names the judge's identical ops by index (most of a
 * seat's view is public), which halves the page. */
static int views_step(repctx *c, const arb_an_step *st)
{
    oplist all;
    memset(&all, 0, sizeof all);
    for (int k = 0; k < c->nviews; k++) {
        viewstream *v = &c->vs[k];
        arb_tree *t = document(c, st->m, v->view, st);
        if (!t) return c->nomem = 1;
        if (!v->first) {
            v->first = t;
            v->prev = t;
            /* Mark the cards the setup state names. */
            FILE *null = fopen("/dev/null", "w");
            if (null) {
                js_node(c, null, arb_tree_root(t));
                fclose(null);
            }
            continue;
        }
        oplist ol;
        if (diff_record(c, v->prev, t, &ol)) {
            arb_tree_free(t);
            free(ol.buf);
            free(ol.off);
            break;
        }
        fputs(c->nrec > 1 ? ",[" : "[", v->ops);
        if (k == 0) {
            fwrite(ol.buf, 1, ol.len, v->ops);
            all = ol;
        } else {
            for (size_t i = 0; i < ol.n; i++) {
                const char *p, *q;
                size_t n, m;
                op_text(&ol, i, &p, &n);
                size_t hit = all.n;
                for (size_t j = 0; j < all.n && hit == all.n; j++) {
                    op_text(&all, j, &q, &m);
                    if (m == n && !memcmp(p, q, n)) hit = j;
                }
                if (i) fputc(',', v->ops);
                if (hit < all.n) fprintf(v->ops, "%zu", hit);
                else fwrite(p, 1, n, v->ops);
            }
            free(ol.buf);
            free(ol.off);
        }
        fputc(']', v->ops);
        if (v->prev != v->first) arb_tree_free(v->prev);
        v->prev = t;
    }
    free(all.buf);
    free(all.off);
    return c->nomem;
}

/* -------------------------------------------------------------- charts */

static int take_sample(repctx *c, const arb_match *m, int64_t rec, int final)
{
    if (c->ns == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        sample *ns = realloc(c->s, nc * sizeof *ns);
        if (!ns) { c->nomem = 1; return -1; }
        c->s = ns;
        c->cap = nc;
    }
    arb_tree *t = arb_match_export(m, c->o->view);
    if (!t) { c->nomem = 1; return -1; }
    sample *s = &c->s[c->ns++];
    memset(s, 0, sizeof *s);
    s->turn = arb_match_turn(m);
    s->rec = rec;
    s->rec_turn = rec < 0 ? s->turn : c->rec_turn;
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
    arb_tree *t = arb_match_export(m, c->o->view);
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

/* A round step (1, 2 or 5 × 10^k) giving at most `most` intervals. */
static int64_t nice_step(int64_t span, int most)
{
    int64_t step = 1;
    for (;;) {
        static const int m[3] = { 1, 2, 5 };
        for (int i = 0; i < 3; i++)
            if (span <= step * m[i] * most) return step * m[i];
        if (step > INT64_MAX / 100) return step;
        step *= 10;
    }
}

static int64_t floor_to(int64_t v, int64_t s) { return v >= 0 ? v / s * s : -((-v + s - 1) / s) * s; }

/* The seats' colours (Okabe-Ito: told apart under the common colour
 * blindnesses, each at least 3:1 on white) and a dash pattern each as the
 * second cue; the legend names the seat beside a sample of its line. */
static const char *const colors[ARB_MAX_SEATS] = { "#0072b2", "#b34700", "#007552", "#1b1b1b" };
static const char *const dashes[ARB_MAX_SEATS] = { "none", "7 3", "2 3", "9 3 2 3" };

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
    int64_t ystep = nice_step(hi - lo ? hi - lo : 1, 4);
    lo = floor_to(lo, ystep);
    hi = floor_to(hi, ystep) + (floor_to(hi, ystep) < hi || hi == lo ? ystep : 0);
    const double W = 560, H = 230, L = 56, R = 12, T = 22, B = 30;
    double pw = W - L - R, ph = H - T - B;
    size_t n = c->ns;
    uint32_t t0 = n ? c->s[0].turn : 0, t1 = n ? c->s[n - 1].turn : 0;
    if (t1 <= t0) t1 = t0 + 1;
    /* x: by sample index (several samples can share a turn: setup, end). */
    double dx = n > 1 ? pw / (double)(n - 1) : 0;
    fputs("<figure class=\"chart\"><figcaption>", out);
    arb_an__html_str(out, c->labels[q]);
    fputs(" <code>", out);
    arb_an__html_str(out, c->paths[q]);
    fprintf(out, "</code></figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
            "width=\"%.0f\" height=\"%.0f\"><title>", W, H, W, H);
    arb_an__html_str(out, c->labels[q]);
    fputs(" by turn (points link to their records)</title>\n", out);
    fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" class=\"plot\"/>\n", L, T, pw, ph);
    for (int64_t val = lo; val <= hi; val += ystep) {
        double y = T + ph - ph * (double)(val - lo) / (double)(hi - lo);
        fprintf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                "<text x=\"%.0f\" y=\"%.1f\" class=\"yl\">%" PRId64 "</text>\n", L, L + pw, y, y, L - 4, y + 4, val);
    }
    /* Round turn ticks: the first sample of each turn that is a multiple
     * of the step. */
    int64_t xstep = nice_step((int64_t)(t1 - t0), 10);
    uint32_t last = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = c->s[i].turn;
        if (t == last || c->s[i].final || (t % (uint32_t)xstep) != 0) continue;
        last = t;
        fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"xl\">%" PRIu32 "</text>\n", L + dx * (double)i, H - 12, t);
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" class=\"axis\">turn</text>\n", L + pw, H - 1);
    for (int p = 0; p < c->h->players; p++) {
        fprintf(out, "<polyline class=\"series\" data-seat=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                "stroke-dasharray=\"%s\" points=\"", p, colors[p], dashes[p]);
        for (size_t i = 0; i < n; i++) {
            if (!c->s[i].have[q][p]) continue;
            double y = T + ph - ph * (double)(c->s[i].v[q][p] - lo) / (double)(hi - lo);
            fprintf(out, "%.1f,%.1f ", L + dx * (double)i, y);
        }
        fputs("\"/>\n", out);
        fprintf(out, "\n<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2\" "
                "stroke-dasharray=\"%s\"/><text x=\"%.0f\" y=\"%.0f\" class=\"lg\">P%d</text>\n", L + 58.0 * p,
                L + 58.0 * p + 22, T - 12, T - 12, colors[p], dashes[p], L + 58.0 * p + 25, T - 8, p + 1);
    }
    /* One link column per sample, cut at the plot's edges so that no two
     * overlap: a click selects that record. The marker line shows the
     * selected record (report.js moves it to the last sample at or
     * before it). */
    for (size_t i = 0; i < n; i++) {
        double w = n > 1 ? dx : pw, x0 = L + dx * (double)i - w / 2, x1 = x0 + w;
        if (x0 < L) x0 = L;
        if (x1 > L + pw) x1 = L + pw;
        fprintf(out, "<a href=\"#r%" PRId64 "\" data-r=\"%" PRId64 "\" data-x=\"%.1f\"><rect class=\"hit\" x=\"%.1f\" "
                "y=\"%.0f\" width=\"%.1f\" height=\"%.0f\"><title>", c->s[i].rec, c->s[i].rec, L + dx * (double)i, x0, T, x1 - x0, ph);
        /* The record's turn is its timeline row's: the one it was made in. */
        if (c->s[i].rec < 0) fprintf(out, "turn %" PRIu32 ", the setup", c->s[i].turn);
        else if (c->s[i].rec_turn == c->s[i].turn) fprintf(out, "turn %" PRIu32 ", record #%" PRId64, c->s[i].turn, c->s[i].rec);
        else
            fprintf(out, "turn %" PRIu32 " begins after record #%" PRId64 " (turn %" PRIu32 ")", c->s[i].turn, c->s[i].rec,
                    c->s[i].rec_turn);
        fputs("</title></rect></a>", out);
    }
    fprintf(out, "<line class=\"curx\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>", L, L, T, T + ph);
    fputs("\n</svg></figure>\n", out);
}

static int varies(const repctx *c, unsigned q)
{
    for (size_t i = 1; i < c->ns; i++)
        for (int p = 0; p < c->h->players; p++)
            if (c->s[i].have[q][p] != c->s[0].have[q][p] || c->s[i].v[q][p] != c->s[0].v[q][p]) return 1;
    return 0;
}

/* ------------------------------------------------------------ timeline */

/* Text that may differ per view. The judge's file writes it once when all
 * views agree, else once per view in spans the view toggle shows; a seat's
 * file writes that seat's text only. */
static void view_text(repctx *c, FILE *out, char texts[][384])
{
    int players = c->h->players;
    if (c->seatfile) {
        arb_an__html_str(out, texts[c->o->view + 1]);
        return;
    }
    int same = 1;
    for (int p = 0; p < players; p++) same &= !strcmp(texts[0], texts[p + 1]);
    if (same) {
        arb_an__html_str(out, texts[0]);
        return;
    }
    /* One span per distinct text, classed with every view that reads it. */
    int done[ARB_MAX_SEATS + 1] = { 0 };
    for (int i = 0; i <= players; i++) {
        if (done[i]) continue;
        fputs("<span class=\"", out);
        for (int k = i; k <= players; k++) {
            if (done[k] || strcmp(texts[i], texts[k])) continue;
            done[k] = 1;
            if (k == 0) fputs("va", out);
            else fprintf(out, "%sv%d", k == i ? "" : " ", k - 1);
        }
        fputs("\">", out);
        arb_an__html_str(out, texts[i]);
        fputs("</span>", out);
    }
}

/* Rows are written with the end tags HTML lets one omit (</td>, </tr>):
 * a long match has tens of thousands of cells. */
static void row_start(repctx *c, const char *cls, int64_t rec, int first, uint32_t turn, const char *phase,
                      uint64_t clock_ms, int seat)
{
    char clk[32], sn[16];
    /* Chunks of rows the browser lays out only when they scroll into
     * view (content-visibility), so a long match opens at once. */
    if (c->rows && c->rows % ROWS_PER_CHUNK == 0) fputs("</table></div><div class=chunk><table class=tl>\n", c->tl);
    if (first) fprintf(c->tl, "<tr id=r%" PRId64 " class=\"%s s%d\" data-r=%" PRId64 "><td>", rec, cls, seat, rec);
    else fprintf(c->tl, "<tr class=\"%s s%d\" data-r=%" PRId64 "><td>", cls, seat, rec);
    if (rec < 0 && first) fputs("setup", c->tl);
    else if (first) fprintf(c->tl, "<a href=#r%" PRId64 ">#%" PRId64 "</a>", rec, rec);
    fprintf(c->tl, "<td>%" PRIu32 "<td>", turn);
    arb_an__html_str(c->tl, phase ? phase : "");
    fprintf(c->tl, "<td class=ck>%s<td>%s<td class=tx>", first ? arb_an_clock(clock_ms, clk, sizeof clk) : "",
            seat == -2 ? "-" : arb_an_seat_name(seat, sn, sizeof sn));
    c->rows++;
}

static void events_rows(repctx *c, const arb_an_step *st, int64_t rec, int first)
{
    const arb_game *g = c->h->game;
    char texts[ARB_MAX_SEATS + 1][384];
    for (unsigned i = 0; i < st->nevents; i++) {
        const arb_event *e = &st->events[i];
        for (int v = -1; v < c->h->players; v++) {
            texts[v + 1][0] = '\0';
            if (v >= 0 && c->seatfile && v != c->o->view) continue;
            if (v < 0 && c->seatfile) continue;
            arb_game_event_text(g, e, v, texts[v + 1], sizeof texts[0]);
        }
        int clock = arb_an__event_is_clock(g, e);
        row_start(c, clock ? "ev clock" : "ev", rec, first && i == 0, st->event_turn ? st->event_turn[i] : st->turn,
                  st->event_phase ? st->event_phase[i] : st->phase, st->clock_ms, e->seat < 0 ? -2 : e->seat);
        view_text(c, c->tl, texts);
        if (e->hidden && !c->seatfile) fputs(" <span class=\"badge hid va\">hidden</span>", c->tl);
        if (clock) fputs(" <span class=\"badge clk\">clock</span>", c->tl);
        fputc('\n', c->tl);
    }
}

static void kind_push(repctx *c, char k)
{
    if (c->nkinds == c->capkinds) {
        size_t nc = c->capkinds ? c->capkinds * 2 : 256;
        char *nk = realloc(c->kinds, nc);
        if (!nk) { c->nomem = 1; return; }
        c->kinds = nk;
        c->capkinds = nc;
    }
    c->kinds[c->nkinds++] = k;
}

static void note_bad(repctx *c, int64_t idx, const char *what)
{
    if (c->first_bad >= 0) return;
    c->first_bad = idx;
    snprintf(c->first_bad_what, sizeof c->first_bad_what, "%s", what);
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int strtab_grow(strtab *t)
{
    uint32_t ns = t->nslot ? t->nslot * 2 : 1024;
    uint32_t *sl = calloc(ns, sizeof *sl);
    if (!sl) return -1;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t k = fnv1a(t->buf + t->at[i]) & (ns - 1);
        while (sl[k]) k = (k + 1) & (ns - 1);
        sl[k] = i + 1;
    }
    free(t->slot);
    t->slot = sl;
    t->nslot = ns;
    return 0;
}

/* The index of s in t, added when new; -1 out of memory or full. */
static int64_t strtab_intern(strtab *t, const char *s)
{
    if ((uint64_t)t->n * 2 >= t->nslot && strtab_grow(t)) return -1;
    uint32_t k = fnv1a(s) & (t->nslot - 1);
    for (; t->slot[k]; k = (k + 1) & (t->nslot - 1))
        if (!strcmp(t->buf + t->at[t->slot[k] - 1], s)) return t->slot[k] - 1;
    size_t l = strlen(s) + 1;
    if (t->n >= STRTAB_MAX) return -1;
    if (t->len + l > t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 4096;
        while (nc < t->len + l) nc *= 2;
        char *nb = realloc(t->buf, nc);
        if (!nb) return -1;
        t->buf = nb;
        t->cap = nc;
    }
    if (t->n == t->capn) {
        uint32_t nc = t->capn ? t->capn * 2 : 256;
        size_t *na = realloc(t->at, nc * sizeof *na);
        if (!na) return -1;
        t->at = na;
        t->capn = nc;
    }
    memcpy(t->buf + t->len, s, l);
    t->at[t->n] = t->len;
    t->len += l;
    t->slot[k] = t->n + 1;
    return t->n++;
}

static void strtab_free(strtab *t)
{
    free(t->buf);
    free(t->at);
    free(t->slot);
}

/* The actions legal at the decision open after this step, for the ruling
 * panel at the record that answers it: a list of action texts by their
 * index in the page's text table (-N last when legal() lists N, more than
 * LEGAL_SHOWN), 1 for "as the previous
 * decision", 0 for none shown (nobody to act; in a seat's file, another
 * seat's decision: its legal actions could name that seat's hidden cards). */
static void legal_step(repctx *c, const arb_match *m)
{
    arb_decision d = arb_match_decision(m);
    const char *sep = c->nlg++ ? "," : "";
    if (d.seat == ARB_SEAT_NONE || (c->seatfile && d.seat != c->o->view)) {
        fprintf(c->lg, "%s0", sep);
        free(c->lgprev);
        c->lgprev = calloc(1, 1);
        c->lgprevlen = 0;
        if (!c->lgprev) c->nomem = 1;
        return;
    }
    arb_action *a;
    size_t n = arb_an__legal(m, LEGAL_SHOWN, &a);
    char *buf = NULL;
    size_t len = 0;
    FILE *ms = n == (size_t)-1 ? NULL : open_memstream(&buf, &len);
    if (!ms) {
        free(a);
        c->nomem = 1;
        return;
    }
    char text[256];
    fputc('[', ms);
    for (size_t i = 0; i < n && i < LEGAL_SHOWN; i++) {
        arb_action_format(c->h->game, &a[i], text, sizeof text);
        int64_t k = strtab_intern(&c->lgs, text);
        if (k < 0) c->nomem = 1;
        fprintf(ms, "%s%" PRId64, i ? "," : "", k);
    }
    if (n > LEGAL_SHOWN) fprintf(ms, ",-%zu", n);
    fputc(']', ms);
    free(a);
    if (fclose(ms)) {
        free(buf);
        c->nomem = 1;
        return;
    }
    if (c->lgprev && c->lgprevlen == len && !memcmp(c->lgprev, buf, len)) {
        fprintf(c->lg, "%s1", sep);
        free(buf);
        return;
    }
    fputs(sep, c->lg);
    fwrite(buf, 1, len, c->lg);
    free(c->lgprev);
    c->lgprev = buf;
    c->lgprevlen = len;
}

/* A rule ID the page cites (a rejection's, or one that governs an
 * action): its rulebook citation goes into the page once. */
static void cite_rule(repctx *c, const char *rule)
{
    if (!rule[0]) return;
    for (int i = 0; i < c->nrules; i++)
        if (!strcmp(c->rules[i], rule)) return;
    if (c->nrules < RULES_CITED) snprintf(c->rules[c->nrules++], ARB_RULE_MAX, "%s", rule);
}

/* The card a seat's action names by its first argument (a uid of that
 * seat's, as the view shows it before the action): its type, or NULL. */
static const char *arg_card_type(const repctx *c, const arb_action *a)
{
    const arb_game *g = c->h->game;
    if (a->nargs < 1 || a->seat < 0 || !c->vs[0].prev || !g->card) return NULL;
    const arb_tnode *pl = arb_tnode_path(arb_tree_root(c->vs[0].prev), "state.players");
    const arb_tnode *stack[PATH_MAX_DEPTH], *n = pl ? arb_tnode_at(pl, (uint32_t)a->seat) : NULL;
    int depth = 0;
    if (n) stack[depth++] = n;
    while (depth > 0) {
        n = stack[--depth];
        if (n->kind == ARB_T_MAP) {
            const arb_tnode *u = arb_tnode_get(n, "uid"), *id = arb_tnode_get(n, "card");
            if (!id) id = arb_tnode_get(n, "id");
            if (u && u->kind == ARB_T_INT && u->i == a->args[0] && id && id->kind == ARB_T_STR) {
                int k = arb_card_find(g, id->s);
                const arb_card *cd = k >= 0 ? g->card(g, (unsigned)k) : NULL;
                return cd && cd->type ? cd->type : NULL;
            }
        }
        if (n->kind == ARB_T_MAP || n->kind == ARB_T_ARR)
            for (const arb_tnode *x = n->first; x && depth < PATH_MAX_DEPTH; x = x->next)
                if (x->kind == ARB_T_MAP || x->kind == ARB_T_ARR) stack[depth++] = x;
    }
    return NULL;
}

/* The rules that govern an action, from the layout's "rules" map: those
 * of "VERB", of "VERB@NAME" for the decision kind it answered and for the
 * phase it was made in, and of "VERB:TYPE" for the type of the card its
 * first argument names, when the page shows the arguments (a seat's file
 * shows another seat's actions by verb only, so its citations depend on
 * nothing that seat did not see). Each is cited; the record's list goes
 * into the page. */
static void governing_rules(repctx *c, const arb_an_step *st, const arb_action *a, int shown)
{
    const arb_game *g = c->h->game;
    char key[96], vb[24], list[RULES_PER_ACTION * (ARB_RULE_MAX + 1)];
    const char *ids[RULES_PER_ACTION];
    int n = 0;
    const char *verb = arb_an__verb_name(g, a->verb, vb, sizeof vb);
    const char *kind = st->decision_kind < g->ndecision_names ? g->decision_names[st->decision_kind] : NULL;
    const char *type = shown ? arg_card_type(c, a) : NULL;
    const char *suffix[4][2] = { { "", "" }, { "@", kind }, { "@", st->phase }, { ":", type } };
    for (int k = 0; k < 4 && c->verb_rules; k++) {
        if (!suffix[k][1]) continue;
        if (k == 2 && kind && !strcmp(kind, st->phase)) continue;
        snprintf(key, sizeof key, "%s%s%s", verb, suffix[k][0], suffix[k][1]);
        const arb_tnode *l = arb_tnode_get(c->verb_rules, key);
        for (const arb_tnode *x = l && l->kind == ARB_T_ARR ? l->first : NULL; x; x = x->next) {
            if (x->kind != ARB_T_STR || n >= RULES_PER_ACTION || strlen(x->s) >= ARB_RULE_MAX) continue;
            int dup = 0;
            for (int i = 0; i < n && !dup; i++) dup = !strcmp(ids[i], x->s);
            if (!dup) ids[n++] = x->s;
        }
    }
    list[0] = '\0';
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        cite_rule(c, ids[i]);
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? " " : "", ids[i]);
    }
    int64_t k = n ? strtab_intern(&c->ars, list) : -1;
    if (n && k < 0) c->nomem = 1;
    fprintf(c->ar, "%s%" PRId64, c->nrec > 1 ? "," : "", k + 1);
}

static int on_step(void *ctx, const arb_an_step *st)
{
    repctx *c = ctx;
    const arb_an_record *r = st->rec;
    const arb_game *g = c->h->game;
    if (!r) {
        choose_quantities(c, st->m);
        take_sample(c, st->m, -1, 0);
        events_rows(c, st, -1, 1);
        views_step(c, st);
        legal_step(c, st->m);
        return c->nomem;
    }
    c->nrec++;
    c->rec_turn = st->turn;
    int64_t idx = (int64_t)r->index;
    char texts[ARB_MAX_SEATS + 1][384], sn[16], vb[24];
    if (r->kind == ARB_AN_ACTION) {
        const arb_action *a = &r->action;
        if (a->elapsed_ms) c->timed = 1;
        const char *verb = arb_an__verb_name(g, a->verb, vb, sizeof vb);
        const char *full = st->action_text[0] ? st->action_text : verb;
        snprintf(texts[0], sizeof texts[0], "%s", full);
        for (int p = 0; p < c->h->players; p++) {
            if (a->seat == ARB_SEAT_ARBITER || a->seat == p) snprintf(texts[p + 1], sizeof texts[0], "%s", full);
            else snprintf(texts[p + 1], sizeof texts[0], "%s: %s", arb_an_seat_name(a->seat, sn, sizeof sn), verb);
        }
        const char *cls = st->rejected ? "act rej" : a->seat == ARB_SEAT_ARBITER ? "act arb" : "act";
        row_start(c, cls, idx, 1, st->turn, st->phase, st->clock_ms, a->seat);
        view_text(c, c->tl, texts);
        if (a->seat == ARB_SEAT_ARBITER) fputs(" <span class=\"badge arbb\">arbiter</span>", c->tl);
        /* Another seat's arguments and rejection message could name its
         * hidden card. */
        int mine = !c->seatfile || a->seat == c->o->view || a->seat == ARB_SEAT_ARBITER;
        governing_rules(c, st, a, mine);
        if (st->rejected) {
            fputs("<br><span class=\"rule\">rejected ", c->tl);
            arb_an__html_str(c->tl, st->reject.rule[0] ? st->reject.rule : arb_strerror(st->reject.code));
            fputs("</span> ", c->tl);
            if (mine) arb_an__html_str(c->tl, st->reject.msg);
            char w[160];
            snprintf(w, sizeof w, "the engine rejects the action (%s)", st->reject.rule[0] ? st->reject.rule : "?");
            note_bad(c, idx, w);
            cite_rule(c, st->reject.rule);
        }
        fputc('\n', c->tl);
        events_rows(c, st, idx, 0);
        kind_push(c, st->rejected ? 'x' : 'a');
    } else if (r->kind == ARB_AN_CHECKPOINT) {
        row_start(c, st->check ? "cp" : "cp bad", idx, 1, st->turn, st->phase, st->clock_ms, -2);
        if (st->check) {
            fprintf(c->tl, "checkpoint, turn %" PRIu32 ": the engine's state hash matches", r->turn);
            if (!c->seatfile) fprintf(c->tl, " (0x%016" PRIx64 ")", r->hash);
            fputc('\n', c->tl);
        } else {
            fprintf(c->tl, "checkpoint, turn %" PRIu32 ": recorded hash ", r->turn);
            if (!c->seatfile) fprintf(c->tl, "0x%016" PRIx64 ", engine computes 0x%016" PRIx64, r->hash, st->computed_hash);
            else fputs("differs from the engine's", c->tl);
            fputs(" <span class=\"rule\">MISMATCH</span>\n", c->tl);
            note_bad(c, idx, "a checkpoint's state hash does not match the engine");
        }
        kind_push(c, 'c');
    } else if (r->kind == ARB_AN_OUTCOME) {
        row_start(c, st->check ? "oc" : "oc bad", idx, 1, st->turn, st->phase, st->clock_ms, r->winner < 0 ? -2 : r->winner);
        if (r->winner >= 0) fprintf(c->tl, "%s wins", arb_an_seat_name(r->winner, sn, sizeof sn));
        else fputs("draw", c->tl);
        fputs(" (", c->tl);
        arb_an__html_str(c->tl, r->reason);
        fprintf(c->tl, ") after %" PRIu32 " turn%s%s\n", r->turn, r->turn == 1 ? "" : "s",
                st->check ? "" : " <span class=\"rule\">MISMATCH</span>");
        if (!st->check) note_bad(c, idx, "the recorded outcome is not the engine's");
        kind_push(c, 'o');
    } else {
        row_start(c, "unk bad", idx, 1, st->turn, st->phase, st->clock_ms, -2);
        fprintf(c->tl, "record of unknown kind %d (skipped)\n", r->kind);
        kind_push(c, 'u');
    }
    if (r->kind != ARB_AN_ACTION) fprintf(c->ar, "%s0", c->nrec > 1 ? "," : "");
    fprintf(c->recs, "%s%" PRIu32, c->nrec > 1 ? "," : "", arb_match_turn(st->m));
    views_step(c, st);
    legal_step(c, st->m);
    if (arb_match_turn(st->m) != c->last_turn) take_sample(c, st->m, idx, 0);
    return c->nomem;
}

/* -------------------------------------------------------------- header */

/* " (Name)" after "P2" unless the name is the default "P2". */
static void seat_name(FILE *out, const arb_an_header *h, int p)
{
    char dflt[16];
    snprintf(dflt, sizeof dflt, "P%d", p + 1);
    if (!h->names[p][0] || !strcmp(h->names[p], dflt)) return;
    fputs(" (<bdi>", out);
    arb_an__html_str(out, h->names[p]);
    fputs("</bdi>)", out);
}

static void lines(FILE *out, const char *const *l)
{
    for (; *l; l++) fputs(*l, out);
}

static void write_verdict(FILE *out, const repctx *c, const arb_an_walk_result *res, const arb_match *m)
{
    const arb_an_report_opts *o = c->o;
    const arb_an_header *h = c->h;
    int ok;
    int64_t at = -1;
    char what[ARB_MSG_MAX + 200];
    what[0] = '\0';
    if (o->verdict_set) {
        ok = o->verified;
        at = o->divergence;
        snprintf(what, sizeof what, "%s", o->detail);
    } else {
        ok = !res->rejected && !res->mismatches && !res->diverged && res->outcome_seen && !res->truncated;
        at = c->first_bad;
        if (at >= 0) snprintf(what, sizeof what, "%s", c->first_bad_what);
        else if (res->truncated) {
            at = (int64_t)res->last_index;
            snprintf(what, sizeof what, "the file is truncated after record #%" PRIu64, res->last_index);
        } else if (!res->outcome_seen) {
            at = res->records ? (int64_t)res->last_index : -1;
            snprintf(what, sizeof what, "the file ends without an outcome");
        }
    }
    int unfinished = o->verdict_set && o->unfinished && !o->seal_broken;
    fprintf(out, "<section id=\"verdict\" class=\"%s\" data-verified=\"%d\"%s><div class=\"vword\">%s</div>",
            ok ? "ok" : unfinished ? "unfinished" : "bad", ok, unfinished ? " data-unfinished=\"1\"" : "",
            ok ? "VERIFIED" : unfinished ? "CONSISTENT, NOT FINISHED" : "DOES NOT VERIFY");
    fputs("<div class=\"vline\">", out);
    if (unfinished) {
        fprintf(out, "Replayed by the %s engine %s under rules %s: every recorded action legal and every checkpoint "
                "reproduced (%" PRIu64 " record%s), but ", h->game->id, h->game->engine_version, h->rules, res->records,
                ARB_PLURAL(res->records));
        arb_an__html_str(out, what);
        fputs(": the match is not finished, and no result follows from this file.", out);
    } else if (ok) {
        fprintf(out, "Replayed by the %s engine %s under rules %s: every action legal, every checkpoint and the "
                "outcome reproduced (%" PRIu64 " record%s).", h->game->id, h->game->engine_version, h->rules, res->records,
                ARB_PLURAL(res->records));
    } else if (o->seal_broken) {
        fputs("Signature invalid: the file is not the one that was signed", out);
        if (what[0]) {
            fputs(" — ", out);
            arb_an__html_str(out, what);
        }
        fputs(". The board and timeline below show the file as recorded; neither its content nor who recorded "
              "it is proven.", out);
    } else {
        fputs("First divergence: ", out);
        if (at >= 0) fprintf(out, "<a id=\"divergence\" href=\"#r%" PRId64 "\">record #%" PRId64 "</a>", at, at);
        else fputs("the header", out);
        if (what[0]) {
            fputs(" — ", out);
            arb_an__html_str(out, what);
        }
        if (res->diverged)
            fprintf(out, ". The board and timeline below show the file as recorded up to record #%" PRIu64
                    ", the first the verifier refuses; nothing after it is read.", res->last_index);
        else
            fputs(". The board and timeline below show the file as recorded; what follows the divergence is "
                  "not a verified history.", out);
    }
    fputs("</div>", out);
    /* The seal: filled by the caller from the verifier's signer field. */
    fputs("<div class=\"vsig\" id=\"signature\">", out);
    if (o->seal_broken) {
        arb_an__html_str(out, o->signed_by ? o->signed_by : "SIGNATURE INVALID");
    } else if (o->signed_by && o->signed_by[0]) {
        fputs("Signed by ", out);
        arb_an__html_str(out, o->signed_by);
    } else {
        fputs("Not signed: the file proves a legal history, not who recorded it.", out);
    }
    fputs("</div>", out);
    if (h->position)
        fputs("<div class=\"vstart\" id=\"position-start\">Started from an explicit position, not from the seeded "
              "setup (setup not derived from the seed): the history before that position is not part of this file.</div>", out);
    fputs("<div class=\"vline\" id=\"outcome\">", out);
    if (res->outcome_seen) {
        const arb_an_record *oc = &res->outcome;
        if (oc->winner >= 0 && oc->winner < h->players) {
            fprintf(out, "<b>P%d", oc->winner + 1);
            seat_name(out, h, oc->winner);
            fputs(" wins</b>", out);
        } else fputs("<b>draw</b>", out);
        fputs(" (", out);
        arb_an__html_str(out, oc->reason);
        fprintf(out, ") after %" PRIu32 " turn%s%s", oc->turn, oc->turn == 1 ? "" : "s", ok ? "" : " — as recorded");
    } else {
        arb_outcome x;
        fprintf(out, "No outcome recorded; the engine is at turn %" PRIu32 "%s.", arb_match_turn(m),
                arb_match_outcome(m, &x) ? " and says the match is over" : "");
    }
    fputs("</div></section>\n", out);
}

static void write_summary(FILE *out, const repctx *c, const arb_an_walk_result *res)
{
    const arb_an_header *h = c->h;
    const arb_game *g = h->game;
    char buf[64];
    fputs("<section id=\"summary\"><h2>Match</h2><table class=\"meta\">", out);
    fputs("<tr><td>game</td><td>", out);
    arb_an__html_str(out, g->title);
    fputs(" (", out);
    arb_an__html_str(out, g->id);
    fputs(")</td></tr><tr><td>rules / engine</td><td>", out);
    arb_an__html_str(out, h->rules);
    fputs(" / ", out);
    /* A format-2 writer leaves the informational engine build out: the
     * page names the engine this build replays it with. */
    arb_an__html_str(out, h->engine[0] ? h->engine : "not recorded");
    char eb[96];
    arb_game_engine_name(g, eb, sizeof eb);
    if (!h->engine[0]) {
        fputs(" (this build's: ", out);
        arb_an__html_str(out, eb);
        fputc(')', out);
    }
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
    fprintf(out, "<tr><td>records</td><td>%" PRIu64 " (%" PRIu64 " action%s, %" PRIu64 " rejected)%s%s</td></tr>",
            res->records, res->actions, ARB_PLURAL(res->actions), res->rejected, c->timed ? ", clock " : "",
            c->timed ? arb_an_clock(res->clock_ms, buf, sizeof buf) : "");
    if (res->truncated) {
        char w[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
        arb_error_format(&res->trunc, w, sizeof w);
        fputs("<tr><td>truncated</td><td class=\"rule\" id=\"truncated\">", out);
        arb_an__html_str(out, w);
        fputs("</td></tr>", out);
    }
    if (res->diverged) {
        char w[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
        arb_error_format(&res->divergence, w, sizeof w);
        fprintf(out, "<tr><td>shown up to</td><td class=\"rule\" id=\"diverged\">record #%" PRIu64
                ", the first the verifier refuses (nothing after it is read): ", res->last_index);
        arb_an__html_str(out, w);
        fputs("</td></tr>", out);
    }
    if (c->seatfile)
        fprintf(out, "<tr><td>view</td><td id=\"seat-view\">P%d's file: only what P%d could see</td></tr>",
                c->o->view + 1, c->o->view + 1);
    fputs("</table>\n<h2>Players</h2><table class=\"meta players\"><tr><th>seat</th><th>name</th><th>deck</th></tr>", out);
    for (int p = 0; p < h->players; p++) {
        fprintf(out, "<tr><td style=\"color:%s\"><b>P%d</b></td><td><bdi>", colors[p], p + 1);
        arb_an__html_str(out, h->names[p]);
        fprintf(out, "</bdi></td><td>%u card%s", (unsigned)h->decks[p].ncards, ARB_PLURAL(h->decks[p].ncards));
        if (c->seatfile && p != c->o->view) {
            fputs(" (list not shown to another seat)</td></tr>", out);
            continue;
        }
        fputs(": ", out);
        const arb_deck *d = &h->decks[p];
        for (unsigned i = 0; i < d->ncards; i++) {
            int seen = 0;
            for (unsigned k = 0; k < i; k++) seen |= d->cards[k] == d->cards[i];
            if (seen) continue;
            unsigned cnt = 0;
            for (unsigned k = i; k < d->ncards; k++) cnt += d->cards[k] == d->cards[i];
            const arb_card *cd = d->cards[i] < g->ncards ? g->card(g, d->cards[i]) : NULL;
            fprintf(out, "%s%u× ", i ? ", " : "", cnt);
            arb_an__html_str(out, cd ? cd->name : "?");
        }
        fputs("</td></tr>", out);
    }
    fputs("</table></section>\n", out);
}

static void copy_file(FILE *from, FILE *to)
{
    char buf[8192];
    size_t n;
    rewind(from);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0) fwrite(buf, 1, n, to);
}

static void view_key(FILE *out, int view)
{
    if (view == ARB_VIEW_ALL) fputs("\"all\"", out);
    else fprintf(out, "\"%d\"", view);
}

/* A rulebook quote that names a card of the pool ("e.g., Dodge, Duck,
 * Jump"). A seat's file leaves such a quote out (the rule ID, section and
 * rulebook line stay): the quote is public text and says nothing about
 * any deck, but the file's promise is about bytes — no name of a card the
 * seat never saw appears in it — and a reader cannot tell a quoted name
 * from a leaked one. The judge's file quotes in full. */
static int names_a_card(const arb_game *g, const char *text)
{
    for (unsigned i = 0; g->card && i < g->ncards; i++) {
        const arb_card *cd = g->card(g, i);
        if (cd && cd->name && cd->name[0] && strstr(text, cd->name)) return 1;
    }
    return 0;
}

static void write_data(FILE *out, repctx *c)
{
    const arb_an_header *h = c->h;
    const arb_game *g = h->game;
    fputs("<script type=\"application/json\" id=\"arb-data\">{\"game\":", out);
    js_str(out, g->id);
    fprintf(out, ",\"players\":%d,\"names\":[", h->players);
    for (int p = 0; p < h->players; p++) {
        if (p) fputc(',', out);
        js_str(out, h->names[p]);
    }
    fputs("],\"view0\":", out);
    view_key(out, c->o->view);
    fprintf(out, ",\"timed\":%s,\"n\":%" PRIu64 ",\"rt\":[", c->timed ? "true" : "false", c->nrec);
    copy_file(c->recs, out);
    fputs("],\"rk\":\"", out);
    fwrite(c->kinds, 1, c->nkinds, out);
    fputs("\",\"cards\":{", out);
    int first = 1;
    for (unsigned i = 0; g->card && i < g->ncards; i++) {
        if (!c->used[i]) continue;
        const arb_card *cd = g->card(g, i);
        if (!cd || !cd->id) continue;
        if (!first) fputc(',', out);
        first = 0;
        js_str(out, cd->id);
        fputc(':', out);
        const char *text[] = { cd->name ? cd->name : cd->id, cd->type ? cd->type : "", cd->group ? cd->group : "",
                               cd->text ? cd->text : "" };
        js_strs(out, text, 4);
    }
    fputs("},\"rules\":{", out);
    for (int i = 0; i < c->nrules; i++) {
        const arb_an_rule_cite *rc = arb_an__rule_cites;
        while (rc->id && strcmp(rc->id, c->rules[i])) rc++;
        if (i) fputc(',', out);
        js_str(out, c->rules[i]);
        fputc(':', out);
        if (!rc->id) {
            fputs("null", out);
            continue;
        }
        const char *cite[] = { rc->section, rc->source, names_a_card(g, rc->text) && c->seatfile ? "" : rc->text };
        js_strs(out, cite, 3);
    }
    fputs("},\"ar\":[", out);
    copy_file(c->ar, out);
    fputs("],\"ars\":[", out);
    js_strtab(out, &c->ars);
    fputs("],\"lg\":[", out);
    copy_file(c->lg, out);
    fputs("],\"lgs\":[", out);
    js_strtab(out, &c->lgs);
    fputs("],\"board\":", out);
    const arb_an_board_layout *bl = arb_an__board_layouts;
    while (bl->game && strcmp(bl->game, g->id)) bl++;
    if (bl->game) lines(out, bl->lines);
    else fputs("null", out);
    fputs(",\"s0\":{", out);
    for (int k = 0; k < c->nviews; k++) {
        if (k) fputc(',', out);
        view_key(out, c->vs[k].view);
        fputc(':', out);
        js_node(c, out, arb_tree_root(c->vs[k].first));
    }
    fputs("},\"d\":{", out);
    for (int k = 0; k < c->nviews; k++) {
        if (k) fputc(',', out);
        view_key(out, c->vs[k].view);
        fputs(":[", out);
        copy_file(c->vs[k].ops, out);
        fputc(']', out);
    }
    fputs("}}</script>\n", out);
}

/* The document head every page shares: CSP (no network, inline only), the
 * title, the style sheet; the body is opened. seat < 0: the judge's file. */
static void page_head(FILE *out, const char *name, int seat)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\">"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "script-src 'unsafe-inline'; img-src data:\">"
          "<title>arbiter report: ", out);
    arb_an__html_str(out, name);
    if (seat >= 0) fprintf(out, " (P%d's view)", seat + 1);
    fputs("</title><style>", out);
    lines(out, arb_an__report_css);
    fprintf(out, "</style></head><body data-view=\"%s\">\n", seat >= 0 ? "seat" : "all");
}

int arb_an_report_unreadable(FILE *out, const char *name, const arb_error *why)
{
    page_head(out, name, -1);
    char msg[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    arb_error_format(why, msg, sizeof msg);
    fprintf(out, "<main><section id=\"verdict\" class=\"bad\" data-verified=\"0\" data-unreadable=\"1\">"
                 "<div class=\"vword\">%s</div><div class=\"vline\">",
            why->code == ARB_EUNSUPPORTED ? "UNSUPPORTED" : why->code == ARB_ETRUNC ? "TRUNCATED" : "UNREADABLE");
    arb_an__html_str(out, msg);
    fputs(".</div><div class=\"vsig\">No record of this file could be read, so there is no board or timeline: "
          "the file is not a replay this arbiter can read (damaged, cut before its header, or of a game, rules "
          "version or format it does not implement). Nothing about the match follows from it.</div></section>\n"
          "<header><h1>", out);
    arb_an__html_str(out, name);
    fputs("</h1></header></main>\n</body></html>\n", out);
    return ferror(out) ? ARB_EIO : ARB_OK;
}

void arb_an_report_index_begin(FILE *out, const char *title)
{
    page_head(out, title, -1);
    fputs("<header><h1>", out);
    arb_an__html_str(out, title);
    fputs("</h1><div class=\"sub\">One page per match; each opens on its own verdict.</div></header>\n"
          "<table class=\"index\"><thead><tr><th>match</th><th>verdict</th><th>detail</th></tr></thead><tbody>\n",
          out);
}

void arb_an_report_index_row(FILE *out, const char *page, const char *label, const char *word, const char *detail)
{
    static const char hex[] = "0123456789ABCDEF";
    int ok = !strcmp(word, "VERIFIED");
    fprintf(out, "<tr class=\"%s\"><td>", ok ? "oc" : "bad");
    if (page) {
        /* the page's file name as a relative URL: every byte but
         * [A-Za-z0-9._-] percent-encoded (a name holds %2F for '/') */
        fputs("<a href=\"", out);
        for (const unsigned char *p = (const unsigned char *)page; *p; p++) {
            if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' ||
                *p == '-' || *p == '_')
                fputc(*p, out);
            else
                fprintf(out, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
        }
        fputs("\"><bdi>", out);
        arb_an__html_str(out, label);
        fputs("</bdi></a>", out);
    } else {
        fputs("<bdi>", out);
        arb_an__html_str(out, label);
        fputs("</bdi>", out);
    }
    fputs("</td><td><b>", out);
    arb_an__html_str(out, word);
    fputs("</b></td><td>", out);
    arb_an__html_str(out, detail ? detail : "");
    fputs("</td></tr>\n", out);
}

int arb_an_report_index_end(FILE *out)
{
    fputs("</tbody></table>\n</body></html>\n", out);
    return ferror(out) ? ARB_EIO : ARB_OK;
}

static void write_page(FILE *out, const char *name, repctx *c, const arb_an_walk_result *res, const arb_match *m)
{
    const arb_an_header *h = c->h;
    page_head(out, name, c->seatfile ? c->o->view : -1);
    /* One main landmark holds the page but its footer (axe's region rule:
     * content outside landmarks; it was one finding per timeline cell). */
    fputs("<main>", out);
    write_verdict(out, c, res, m);
    fputs("<header><h1>", out);
    arb_an__html_str(out, h->game->title);
    fputs(" — ", out);
    for (int p = 0; p < h->players; p++) {
        fprintf(out, "%sP%d", p ? " vs " : "", p + 1);
        seat_name(out, h, p);
    }
    fputs("</h1><div class=\"sub\">", out);
    arb_an__html_str(out, name);
    if (c->seatfile) fprintf(out, " · <b>P%d's view</b>: other seats' hidden cards are not in this file", c->o->view + 1);
    fputs("</div></header>\n", out);

    /* The controls stay on top (sticky), the verdict's word with them
     * (report.js copies it from the verdict). */
    fputs("<div id=\"controls\"><a id=\"vbadge\" href=\"#verdict\"></a>"
            "<button id=\"prev\" title=\"previous record (←)\" aria-label=\"previous record\">◀</button>"
            "<input type=\"range\" id=\"slider\" min=\"-1\" value=\"-1\" aria-label=\"record\">"
            "<button id=\"next\" title=\"next record (→)\" aria-label=\"next record\">▶</button><span id=\"pos\"></span>"
            "<span class=\"grp\"><button id=\"play\" aria-pressed=\"false\">autoplay</button>"
            "<select id=\"speed\" aria-label=\"autoplay speed\"><option value=\"1\">1/s</option>"
            "<option value=\"2\">2/s</option><option value=\"4\" selected>4/s</option><option value=\"10\">10/s</option>"
            "<option value=\"30\">30/s</option></select></span>"
            "<span class=\"grp\"><button id=\"prej\" title=\"previous rejection or divergence\">◀ rejection</button>"
            "<button id=\"nrej\" title=\"next rejection or divergence\">rejection ▶</button></span>"
            "<span class=\"grp\"><button id=\"ndec\">next decision of</button><select id=\"dseat\" "
            "aria-label=\"seat whose next decision to select\">", out);
    for (int p = 0; p < h->players; p++) fprintf(out, "<option value=\"%d\">P%d</option>", p, p + 1);
    fputs("<option value=\"-1\">arbiter</option></select></span>"
          "<form id=\"find\" role=\"search\"><input id=\"q\" type=\"search\" aria-label=\"search the timeline\" "
          "placeholder=\"search the timeline\"> <button>find</button></form>"
          "<form id=\"jump\"><label>turn <input id=\"jt\" type=\"number\" min=\"0\" style=\"width:4em\"></label> "
          "<button>go</button></form>", out);
    if (!c->seatfile) {
        fputs("<span class=\"views\" role=\"group\" aria-label=\"whose view\">view: "
              "<button class=\"vbtn on\" data-view=\"all\" aria-pressed=\"true\">judge</button>", out);
        for (int p = 0; p < h->players; p++)
            fprintf(out, "<button class=\"vbtn\" data-view=\"%d\" aria-pressed=\"false\">P%d</button>", p, p + 1);
        fputs("</span>", out);
    }
    fputs("<label><input type=\"checkbox\" id=\"f-act\"> actions only</label>"
          "<label><input type=\"checkbox\" id=\"f-rej\"> rejections only</label>"
          "<label>seat <select id=\"f-seat\"><option value=\"\">all</option>", out);
    for (int p = 0; p < h->players; p++) fprintf(out, "<option value=\"%d\">P%d</option>", p, p + 1);
    fputs("<option value=\"a\">arbiter</option></select></label><div id=\"live\" role=\"status\" aria-live=\"polite\">"
          "</div></div>\n<nav id=\"turns\" aria-label=\"turns\"></nav>\n", out);

    if (!c->timed) fputs("<style>.ck{display:none}</style>", out);
    fputs("<div id=\"work\"><section id=\"board\"><noscript>The board needs the page's inline script; the timeline "
          "and charts below work without it.</noscript></section>\n", out);
    fprintf(out, "<section id=\"tlwrap\"><table class=\"tl head\"><tr><th>record<th>turn<th>phase<th class=ck>clock"
            "<th>seat<th>what happened (%" PRIu64 " rows)</table><div id=\"tl\" class=\"%s\">"
            "<div class=chunk><table class=tl>\n", c->rows, c->timed ? "timed" : "untimed");
    copy_file(c->tl, out);
    fputs("</table></div></div></section></div>\n", out);

    fputs("<section id=\"charts\"><h2>Over the turns</h2><div class=\"charts\">\n", out);
    unsigned charted = 0;
    char skipped[512] = "";
    for (unsigned q = 0; q < c->nq; q++) {
        /* A quantity that never changes (all zero, say) gets no chart. */
        if (!varies(c, q) || charted >= Q_MAX) {
            size_t l = strlen(skipped);
            if (l + strlen(c->labels[q]) + 4 < sizeof skipped)
                snprintf(skipped + l, sizeof skipped - l, "%s%s", l ? ", " : "", c->labels[q]);
            continue;
        }
        chart(out, c, q);
        charted++;
    }
    if (!charted) fputs("<p>No tracked quantity changes during this match.</p>", out);
    fputs("</div>", out);
    if (skipped[0]) {
        fputs("<p class=\"note\">Not charted (constant through the match): ", out);
        arb_an__html_str(out, skipped);
        fputs(".</p>", out);
    }
    fputs("</section>\n", out);
    write_summary(out, c, res);
    write_data(out, c);
    fputs("<script>", out);
    lines(out, arb_an__report_js);
    fputs("</script>\n</main><footer>generated by arbiter from the replay alone; narration and state trees by the engine. "
          "Cite a record as this file's address followed by #r&lt;INDEX&gt;.</footer></body></html>\n", out);
}

/* The game's board layout parsed, for its "rules" map (verb → the rule
 * IDs that govern it); a game without a layout cites none. */
static int load_verb_rules(repctx *c, arb_error *err)
{
    const arb_an_board_layout *bl = arb_an__board_layouts;
    while (bl->game && strcmp(bl->game, c->h->game->id)) bl++;
    if (!bl->game) return ARB_OK;
    size_t len = 0;
    for (const char *const *l = bl->lines; *l; l++) len += strlen(*l);
    char *text = malloc(len + 1);
    if (!text || !(c->layout = arb_tree_new())) {
        free(text);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    len = 0;
    for (const char *const *l = bl->lines; *l; l++) {
        size_t n = strlen(*l);
        memcpy(text + len, *l, n);
        len += n;
    }
    int rc = arb_tree_parse_json(c->layout, arb_tree_root(c->layout), "board", text, len, err);
    free(text);
    if (rc) {
        char why[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
        arb_error_format(err, why, sizeof why);
        return arb_error_set(err, rc, NULL, "src/games/%s/board.json: %s", bl->game, why);
    }
    c->verb_rules = arb_tnode_path(arb_tree_root(c->layout), "board.rules");
    return ARB_OK;
}

int arb_an_report_ex(arb_an_source *src, const arb_an_report_opts *o, FILE *out, arb_an_walk_result *res,
                     arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, out);
    arb_an_report_opts dflt = ARB_AN_REPORT_OPTS_INIT;
    if (!o) o = &dflt;
    arb_an_walk_result r0;
    if (!res) res = &r0;
    const arb_an_header *h = &src->hdr;
    if (o->view != ARB_VIEW_ALL && (o->view < 0 || o->view >= h->players))
        return arb_error_set(err, ARB_EINVAL, NULL, "seat %d is not in this %d-player match", o->view, h->players);
    repctx c;
    memset(&c, 0, sizeof c);
    c.h = h;
    c.o = o;
    c.seatfile = o->view != ARB_VIEW_ALL;
    c.first_bad = -1;
    int rc = ARB_OK;
    arb_match *m = NULL;
    c.tl = tmpfile();
    c.recs = tmpfile();
    c.lg = tmpfile();
    c.ar = tmpfile();
    c.used = calloc(h->game->ncards ? h->game->ncards : 1, 1);
    if (!c.tl || !c.recs || !c.lg || !c.ar) {
        rc = arb_error_set(err, ARB_EIO, NULL, "cannot create a temporary file for the report");
        goto out;
    }
    if (!c.used) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        goto out;
    }
    c.vs[c.nviews++].view = o->view;
    if (!c.seatfile)
        for (int p = 0; p < h->players && p < ARB_MAX_SEATS; p++) c.vs[c.nviews++].view = p;
    for (int k = 0; k < c.nviews; k++)
        if (!(c.vs[k].ops = tmpfile())) {
            rc = arb_error_set(err, ARB_EIO, NULL, "cannot create a temporary file for the report");
            goto out;
        }
    /* The card texts a view may carry: its own deck's (every deck for the
     * judge), and every card named in its trees (marked as they are
     * written). */
    for (int p = 0; p < h->players; p++) {
        if (c.seatfile && p != o->view) continue;
        for (unsigned i = 0; i < h->decks[p].ncards; i++)
            if (h->decks[p].cards[i] < h->game->ncards) c.used[h->decks[p].cards[i]] = 1;
    }
    if (load_verb_rules(&c, err)) {
        rc = err->code;
        goto out;
    }
    rc = arb_an__walk(src, 1, on_step, &c, &m, res, err);
    if (!rc && c.nomem) rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    if (rc) goto out;
    if (take_sample(&c, m, res->records ? (int64_t)res->last_index : -1, 1)) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        goto out;
    }
    write_page(out, src->name, &c, res, m);
    if (ferror(out)) rc = arb_error_set(err, ARB_EIO, NULL, "cannot write the report");
out:
    if (c.tl) fclose(c.tl);
    if (c.recs) fclose(c.recs);
    if (c.lg) fclose(c.lg);
    if (c.ar) fclose(c.ar);
    free(c.lgprev);
    strtab_free(&c.lgs);
    strtab_free(&c.ars);
    arb_tree_free(c.layout);
    for (int k = 0; k < c.nviews; k++) {
        if (c.vs[k].ops) fclose(c.vs[k].ops);
        if (c.vs[k].prev != c.vs[k].first) arb_tree_free(c.vs[k].prev);
        arb_tree_free(c.vs[k].first);
    }
    free(c.used);
    free(c.off);
    free(c.kinds);
    free(c.s);
    arb_match_free(m);
    return rc;
}

int arb_an_report(arb_an_source *src, FILE *out, arb_an_walk_result *res, arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, out);
    return arb_an_report_ex(src, NULL, out, res, err);
}
