/* an_stats.c — statistics over many replays, per game, in memory that does
 * not grow with the number of files: one fixed aggregate per registered
 * game, filled by one replay of each file at a time.
 *
 * Generic definitions (no game is special-cased):
 *   first player  found at the first action answering a decision that is
 *                 not part of the setup (neither the decision kind nor the
 *                 phase is named like review, mulligan, keep, setup, draft,
 *                 opening or pregame): the engine's top-level integer
 *                 "first" in the full state tree when it has one (>= 0),
 *                 else the seat that owed that decision.
 *   card play     an accepted action with a card argument (UID/CARD…, see
 *                 arb_an__arg_is_card) naming a card that was in the
 *                 acting seat's hand (players.N.hand, entries with "uid")
 *                 before the action and is not after it: whatever the verb
 *                 (play, deploy, equip, attach, boost, react, move,
 *                 impulse, enable…). Counted per card and per verb ("by
 *                 kind"), so equips and reactions count as much as
 *                 strategic plays. A verb named like discard or archive
 *                 (gubby_discard, archive…) takes a card out of the hand
 *                 without playing it: counted apart, as discards.
 *   timeout       an accepted arbiter action "timeout"; disconnects alike.
 *   forfeit       a finished match whose outcome reason names a timeout,
 *                 forfeit, clock, disconnect or concession.
 *
 * Honesty (#15): a file that does not verify (the caller's verdict from
 * arb_replay_verify, and the walk's own checks: a rejected action, a
 * checkpoint or outcome that does not match, no outcome) is counted as a
 * match that does not verify and listed by name, and nothing else of it
 * is counted: no outcome, win rate, length or card play comes from a file
 * whose recorded history is not the one the engine reproduces. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/toolkit.h"

#define REASONS_MAX 32

#define ERRORS_KEPT 8
#define TOP_CARDS 10

typedef struct game_stats {
    const arb_game *g;
    uint64_t matches, complete, truncated, unverified, rejected;
    uint64_t by_players[ARB_MAX_SEATS + 1];
    uint64_t seat_matches[ARB_MAX_SEATS], seat_wins[ARB_MAX_SEATS];
    uint64_t wins, draws, unfinished;
    uint64_t reasons[REASONS_MAX + 1]; /* last: a reason the engine does not name */
    uint64_t first_known, first_wins, first_decided, first_seat[ARB_MAX_SEATS];
    uint64_t turns, actions;
    uint64_t timeouts, disconnects, forfeits;
    uint64_t card_actions, discards;
    uint64_t from_results;             /* matches counted from verify results */
    uint64_t counted;                  /* verified matches: what the figures are over */
    uint64_t from_position;            /* matches that start from a position */
    uint32_t *cards;                   /* per pool index */
    uint64_t by_verb[256];             /* card plays per verb (verbs are uint8) */
} game_stats;

/* Engines not in the registry (tests, embedders) get one of a few spare
 * slots, so the memory stays fixed. */
#define SPARE_GAMES 4

#define UNVERIFIED_KEPT 16

struct arb_an_stats {
    uint64_t files, errors;
    unsigned nkept;
    char kept[ERRORS_KEPT][ARB_MSG_MAX + ARB_WHERE_MAX + 8];
    uint64_t unverified;
    unsigned nunv;
    char unv[UNVERIFIED_KEPT][ARB_MSG_MAX + 256];
    uint64_t duplicates;                /* matches seen before, not counted again */
    unsigned ndup;
    char dup[UNVERIFIED_KEPT][ARB_MSG_MAX + 256];
    unsigned ngames, cap;
    game_stats *games;
};

static void game_init(game_stats *gs, const arb_game *g)
{
    gs->g = g;
}


arb_an_stats *arb_an_stats_new(void)
{
    arb_an_stats *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ngames = arb_game_count();
    s->cap = s->ngames + SPARE_GAMES;
    s->games = calloc(s->cap, sizeof *s->games);
    if (!s->games) { free(s); return NULL; }
    for (unsigned i = 0; i < s->ngames; i++) game_init(&s->games[i], arb_game_at(i));
    return s;
}

void arb_an_stats_free(arb_an_stats *s)
{
    if (!s) return;
    for (unsigned i = 0; i < s->ngames; i++) free(s->games[i].cards);
    free(s->games);
    free(s);
}

uint64_t arb_an_stats_errors(const arb_an_stats *s) { return s->errors; }

uint64_t arb_an_stats_truncated(const arb_an_stats *s)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < s->ngames; i++) n += s->games[i].truncated;
    return n;
}

void arb_an_stats_add_error(arb_an_stats *s, const arb_error *err)
{
    s->files++;
    s->errors++;
    if (s->nkept < ERRORS_KEPT) arb_error_format(err, s->kept[s->nkept++], sizeof s->kept[0]);
}

void arb_an_stats_add_duplicate(arb_an_stats *s, const char *name, const char *why)
{
    s->files++;
    s->duplicates++;
    if (s->ndup < UNVERIFIED_KEPT)
        snprintf(s->dup[s->ndup++], sizeof s->dup[0], "%s%s%s", name, why && why[0] ? ": " : "", why ? why : "");
}

/* One replay's walk fills its summary as it goes (first player, clock
 * events, card plays per pool index and per verb). */
typedef struct filectx {
    const arb_an_header *h;
    arb_an_summary *sm;
    int verb_timeout, verb_disconnect;
    arb_match *before;          /* the state before the current record */
    arb_tree *before_t;         /* its tree, when a step exported it (or NULL) */
    arb_tree *after_t;          /* the current record's state's tree (or NULL) */
    int nomem;
    int no_cards;               /* ARB_AN_SUM_NO_CARDS */
} filectx;

/* Whether the hand of seat in the tree t holds a card with this uid: 1, 0,
 * or -1 when the tree has no hand of entries with a "uid" to tell. */
static int in_hand(arb_tree *t, int seat, int32_t uid)
{
    if (!t) return 0;
    char path[32];
    snprintf(path, sizeof path, "players.%d.hand", seat);
    const arb_tnode *h = arb_tnode_path(arb_tree_root(t), path);
    int found = h && h->kind == ARB_T_ARR && h->first ? 0 : -1;
    for (const arb_tnode *e = found ? NULL : h->first; e && !found; e = e->next) {
        const arb_tnode *u = e->kind == ARB_T_MAP ? arb_tnode_get(e, "uid") : NULL;
        if (!u || u->kind != ARB_T_INT) found = -1;
        else found = u->i == uid;
    }
    return found;
}

static int setup_kind(const char *k)
{
    return strstr(k, "review") || strstr(k, "mulligan") || strstr(k, "keep") || strstr(k, "setup") ||
           strstr(k, "draft") || strstr(k, "opening") || strstr(k, "pregame");
}

static void count_play(filectx *c, const arb_an_step *st);

static int on_step(void *ctx, const arb_an_step *st)
{
    filectx *c = ctx;
    const arb_an_record *r = st->rec;
    if (r && r->kind == ARB_AN_ACTION && !st->rejected) count_play(c, st);
    if (c->no_cards) return 0; /* "before" serves card plays only */
    if (!c->before && arb_match_clone(&c->before, st->m)) {
        c->nomem = 1;
        return 1;
    }
    arb_match_copy(c->before, st->m);
    /* the state after this record is the next one's "before": a tree
     * exported of it serves both (one export per card action, not two) */
    arb_tree_free(c->before_t);
    c->before_t = c->after_t;
    c->after_t = NULL;
    return 0;
}

static void count_play(filectx *c, const arb_an_step *st)
{
    const arb_an_record *r = st->rec;
    const arb_game *g = c->h->game;
    const arb_action *a = &r->action;
    if (a->seat == ARB_SEAT_ARBITER) {
        if (a->verb == c->verb_timeout) c->sm->timeouts++;
        if (a->verb == c->verb_disconnect) c->sm->disconnects++;
        return;
    }
    if (c->sm->first < 0 && st->decision_seat == a->seat) {
        char kb[24];
        if (!setup_kind(arb_an__decision_name(g, st->decision_kind, kb, sizeof kb)) &&
            !setup_kind(st->phase ? st->phase : "")) {
            c->sm->first = a->seat;
            arb_tree *t = arb_match_export(st->m, ARB_VIEW_ALL);
            const arb_tnode *f = t ? arb_tnode_get(arb_tree_root(t), "first") : NULL;
            if (f && f->kind == ARB_T_INT && f->i >= 0 && f->i < c->h->players) c->sm->first = (int)f->i;
            arb_tree_free(t);
        }
    }
    if (c->no_cards || !c->before || a->seat < 0 || a->seat >= c->h->players) return;
    for (unsigned i = 0; i < a->nargs && i < ARB_ARGS_MAX; i++) {
        if (!arb_an__arg_is_card(g, a->verb, i)) continue;
        const arb_deck *d = &c->h->decks[a->seat];
        if (a->args[i] < 0 || a->args[i] >= d->ncards || d->cards[a->args[i]] >= g->ncards) continue;
        /* A card that stays in the hand (or was never there) is not played;
         * an engine whose tree does not tell counts every card action. */
        if (!c->before_t) c->before_t = arb_match_export(c->before, ARB_VIEW_ALL);
        int was = in_hand(c->before_t, a->seat, a->args[i]);
        if (was == 1 && !c->after_t) c->after_t = arb_match_export(st->m, ARB_VIEW_ALL);
        if (was == 0 || (was == 1 && in_hand(c->after_t, a->seat, a->args[i]) == 1)) continue;
        c->sm->by_verb[a->verb]++;
        const char *vn = g->verbs[a->verb].name ? g->verbs[a->verb].name : "";
        if (strstr(vn, "discard") || strstr(vn, "archive")) {
            c->sm->discards++;
            break;
        }
        if (c->sm->played) c->sm->played[d->cards[a->args[i]]]++;
        c->sm->card_actions++;
        break; /* one card per action: the one played */
    }
}

int arb_an_summarize(arb_an_source *src, arb_an_summary *out, arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, out);
    return arb_an_summarize_ex(src, 0, out, err);
}

int arb_an_summarize_ex(arb_an_source *src, unsigned flags, arb_an_summary *out, arb_error *err)
{
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, out);
    const arb_an_header *h = &src->hdr;
    memset(out, 0, sizeof *out);
    out->first = -1;
    filectx c;
    memset(&c, 0, sizeof c);
    c.h = h;
    c.sm = out;
    c.no_cards = (flags & ARB_AN_SUM_NO_CARDS) != 0;
    c.verb_timeout = arb_verb_find(h->game, "timeout");
    c.verb_disconnect = arb_verb_find(h->game, "disconnect");
    if (h->game->ncards) {
        if (!(out->played = calloc(h->game->ncards, sizeof *out->played)))
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        out->nplayed = h->game->ncards;
    }
    arb_match *m = NULL;
    int rc = arb_an__walk(src, 0, on_step, &c, &m, &out->walk, err);
    arb_match_free(c.before);
    arb_tree_free(c.before_t);
    arb_tree_free(c.after_t);
    if (!rc && c.nomem) rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    if (!rc) out->turns = m ? arb_match_turn(m) : 0;
    else arb_an_summary_free(out);
    arb_match_free(m);
    return rc;
}

void arb_an_summary_free(arb_an_summary *s)
{
    if (!s) return;
    free(s->played);
    s->played = NULL;
    s->nplayed = 0;
}

static int forfeit_reason(const char *r)
{
    return strstr(r, "timeout") || strstr(r, "forfeit") || strstr(r, "clock") || strstr(r, "disconnect") ||
           strstr(r, "conce");
}

static game_stats *slot(arb_an_stats *s, const arb_game *g, const char *where, arb_error *err)
{
    for (unsigned i = 0; i < s->ngames; i++)
        if (s->games[i].g == g) return &s->games[i];
    if (s->ngames < s->cap) {
        game_stats *gs = &s->games[s->ngames++];
        game_init(gs, g);
        return gs;
    }
    arb_error_set(err, ARB_EUNSUPPORTED, NULL, "game '%s' is not registered and the spare slots are used", g->id);
    arb_error_where(err, "%s", where);
    arb_an_stats_add_error(s, err);
    return NULL;
}

/* Outcome counters shared by replays and verification results. */
static void count_outcome(game_stats *gs, int players, int winner, const char *reason)
{
    gs->complete++;
    if (winner >= 0 && winner < players) {
        gs->wins++;
        gs->seat_wins[winner]++;
    } else {
        gs->draws++;
    }
    unsigned k = REASONS_MAX;
    for (unsigned i = 0; i < gs->g->noutcome_reasons && i < REASONS_MAX; i++)
        if (arb_reason_same(gs->g->outcome_reasons[i], reason)) k = i;
    gs->reasons[k]++;
    gs->forfeits += forfeit_reason(reason) != 0;
}

static void note_unverified(arb_an_stats *s, const char *name, const char *why)
{
    s->unverified++;
    if (s->nunv < UNVERIFIED_KEPT)
        snprintf(s->unv[s->nunv++], sizeof s->unv[0], "%s%s%s", name, why && why[0] ? ": " : "", why ? why : "");
}

int arb_an_stats_add_result(arb_an_stats *s, const arb_an_result *r, const char *where, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    ARB_ASSERT_ARG(err, r);
    const arb_game *g = arb_game_find(r->game ? r->game : "");
    if (!g) {
        arb_error_set(err, ARB_EUNSUPPORTED, NULL, "game '%s' is not compiled into this build", r->game ? r->game : "");
        arb_error_where(err, "%s", where);
        arb_an_stats_add_error(s, err);
        return ARB_EUNSUPPORTED;
    }
    if (r->players < 1 || r->players > ARB_MAX_SEATS) {
        arb_error_set(err, ARB_EINVAL, NULL, "a %s result with %d players", g->id, r->players);
        arb_error_where(err, "%s", where);
        arb_an_stats_add_error(s, err);
        return ARB_EINVAL;
    }
    game_stats *gs = slot(s, g, where, err);
    if (!gs) return ARB_EUNSUPPORTED;
    s->files++;
    gs->matches++;
    gs->from_results++;
    gs->by_players[r->players]++;
    if (!r->verified) {
        gs->unverified++;
        note_unverified(s, where, "the verification result is not ok");
        return ARB_OK;
    }
    gs->counted++;
    gs->actions += r->actions;
    gs->turns += r->turns;
    for (int i = 0; i < r->players; i++) gs->seat_matches[i]++;
    if (r->over) count_outcome(gs, r->players, r->winner, r->reason ? r->reason : "");
    else gs->unfinished++;
    return ARB_OK;
}

static int count_file(arb_an_stats *s, game_stats *gs, const arb_an_source *src, const arb_an_summary *sm,
                      const char *why, int verified);

/* The verifier refused it: nothing of it is counted (not even its card
 * plays, which the walk would add as it goes). */
static int add_unverified(arb_an_stats *s, game_stats *gs, const arb_an_header *h, const char *name, const char *why)
{
    s->files++;
    gs->matches++;
    gs->by_players[h->players]++;
    gs->from_position += h->position != NULL;
    gs->unverified++;
    note_unverified(s, name, why && why[0] ? why : "it does not verify");
    return ARB_OK;
}

int arb_an_stats_add(arb_an_stats *s, arb_an_source *src, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    ARB_ASSERT_ARG(err, src);
    return arb_an_stats_add_checked(s, src, -1, NULL, err);
}

int arb_an_stats_add_checked(arb_an_stats *s, arb_an_source *src, int verified, const char *why, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    ARB_ASSERT_ARG(err, src);
    const arb_an_header *h = &src->hdr;
    game_stats *gs = slot(s, h->game, src->name, err);
    if (!gs) return ARB_EUNSUPPORTED;
    if (!gs->cards && gs->g->ncards) {
        gs->cards = calloc(gs->g->ncards, sizeof *gs->cards);
        if (!gs->cards) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    if (verified == 0) return add_unverified(s, gs, h, src->name, why);
    arb_an_summary sm;
    int rc = arb_an_summarize(src, &sm, err);
    if (rc) {
        arb_an_stats_add_error(s, err);
        return rc;
    }
    rc = arb_an_stats_add_summary(s, src, &sm, verified, why, err);
    arb_an_summary_free(&sm);
    return rc;
}

int arb_an_stats_add_summary(arb_an_stats *s, const arb_an_source *src, const arb_an_summary *sm, int verified,
                             const char *why, arb_error *err)
{
    ARB_ASSERT_ARG(err, s);
    ARB_ASSERT_ARG(err, src);
    ARB_ASSERT_ARG(err, sm);
    game_stats *gs = slot(s, src->hdr.game, src->name, err);
    if (!gs) return ARB_EUNSUPPORTED;
    if (!gs->cards && gs->g->ncards) {
        gs->cards = calloc(gs->g->ncards, sizeof *gs->cards);
        if (!gs->cards) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    }
    if (verified == 0) return add_unverified(s, gs, &src->hdr, src->name, why);
    if (count_file(s, gs, src, sm, why, verified)) {
        /* its card plays too: nothing of a file that is not counted is */
        for (unsigned i = 0; i < sm->nplayed && i < gs->g->ncards; i++) gs->cards[i] += sm->played[i];
        for (unsigned i = 0; i < 256; i++) gs->by_verb[i] += sm->by_verb[i];
        gs->discards += sm->discards;
    }
    return ARB_OK;
}

/* After the walk: count the file (1), or say why it is not counted (0). */
static int count_file(arb_an_stats *s, game_stats *gs, const arb_an_source *src, const arb_an_summary *sm,
                      const char *why, int verified)
{
    const arb_an_header *h = &src->hdr;
    const arb_an_walk_result *res = &sm->walk;
    s->files++;
    gs->matches++;
    gs->by_players[h->players]++;
    gs->truncated += res->truncated != 0;
    gs->from_position += h->position != NULL;
    gs->rejected += res->rejected;
    if (res->truncated) {
        /* A cut file's outcome, length and seats are not known: it is
         * counted as truncated, named, and in no figure (#27 N12). */
        char w[ARB_MSG_MAX - 8], t[ARB_MSG_MAX - 24];
        arb_error_format(&res->trunc, t, sizeof t);
        snprintf(w, sizeof w, "truncated (%s)", t);
        note_unverified(s, src->name, w);
        return 0;
    }
    if (verified == 0 || res->mismatches || res->rejected || (!res->outcome_seen && verified < 0)) {
        char w[160];
        if (!why || !why[0]) {
            snprintf(w, sizeof w, "%s", res->rejected ? "an action the engine rejects"
                                       : res->mismatches ? "a checkpoint or the outcome does not match the engine"
                                                         : "no outcome record");
            why = w;
        }
        gs->unverified++;
        note_unverified(s, src->name, why);
        return 0;
    }
    gs->counted++;
    gs->actions += res->actions;
    gs->turns += sm->turns;
    gs->timeouts += sm->timeouts;
    gs->disconnects += sm->disconnects;
    gs->card_actions += sm->card_actions;
    for (int i = 0; i < h->players; i++) gs->seat_matches[i]++;
    if (sm->first >= 0) {
        gs->first_known++;
        gs->first_seat[sm->first]++;
    }
    if (res->outcome_seen) {
        const arb_an_record *o = &res->outcome;
        count_outcome(gs, h->players, o->winner, o->reason);
        if (sm->first >= 0) {
            gs->first_decided++;
            gs->first_wins += o->winner >= 0 && o->winner < h->players && o->winner == sm->first;
        }
    } else {
        gs->unfinished++;
    }
    return 1;
}

static double rate(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

typedef struct topcard { unsigned idx; uint32_t n; } topcard;

static unsigned top_cards(const game_stats *gs, topcard *top)
{
    unsigned n = 0;
    for (unsigned i = 0; gs->cards && i < gs->g->ncards; i++) {
        if (!gs->cards[i]) continue;
        topcard c = { i, gs->cards[i] };
        unsigned j = n < TOP_CARDS ? n++ : TOP_CARDS;
        if (j == TOP_CARDS) {
            if (c.n <= top[TOP_CARDS - 1].n) continue;
            j = TOP_CARDS - 1;
        }
        while (j > 0 && top[j - 1].n < c.n) { top[j] = top[j - 1]; j--; }
        top[j] = c;
    }
    return n;
}

static void print_json(const arb_an_stats *s, FILE *out)
{
    fprintf(out, "{\"files\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"error_messages\":[", s->files, s->errors);
    for (unsigned i = 0; i < s->nkept; i++) {
        fputs(i ? "," : "", out);
        arb_an__json_str(out, s->kept[i]);
    }
    fprintf(out, "],\"unverified\":%" PRIu64 ",\"unverified_files\":[", s->unverified);
    for (unsigned i = 0; i < s->nunv; i++) {
        fputs(i ? "," : "", out);
        arb_an__json_str(out, s->unv[i]);
    }
    fprintf(out, "],\"duplicates\":%" PRIu64 ",\"duplicate_files\":[", s->duplicates);
    for (unsigned i = 0; i < s->ndup; i++) {
        fputs(i ? "," : "", out);
        arb_an__json_str(out, s->dup[i]);
    }
    fputs("],\"games\":[", out);
    int firstg = 1;
    for (unsigned gi = 0; gi < s->ngames; gi++) {
        const game_stats *gs = &s->games[gi];
        if (!gs->matches) continue;
        const arb_game *g = gs->g;
        fprintf(out, "%s{\"game\":", firstg ? "" : ",");
        firstg = 0;
        arb_an__json_str(out, g->id);
        fprintf(out, ",\"matches\":%" PRIu64 ",\"complete\":%" PRIu64 ",\"unfinished\":%" PRIu64
                ",\"truncated\":%" PRIu64 ",\"unverified\":%" PRIu64 ",\"rejected_actions\":%" PRIu64
                ",\"from_results\":%" PRIu64 ",\"counted\":%" PRIu64 ",\"from_position\":%" PRIu64,
                gs->matches, gs->complete, gs->unfinished, gs->truncated, gs->unverified, gs->rejected,
                gs->from_results, gs->counted, gs->from_position);
        if (gs->from_position) fputs(",\"setup\":\"setup not derived from the seed in from_position matches\"", out);
        fputs(",\"players\":{", out);
        int f = 1;
        for (int p = 1; p <= ARB_MAX_SEATS; p++)
            if (gs->by_players[p]) {
                fprintf(out, "%s\"%d\":%" PRIu64, f ? "" : ",", p, gs->by_players[p]);
                f = 0;
            }
        fprintf(out, "},\"wins\":%" PRIu64 ",\"draws\":%" PRIu64 ",\"reasons\":{", gs->wins, gs->draws);
        f = 1;
        for (unsigned k = 0; k <= REASONS_MAX; k++) {
            if (!gs->reasons[k]) continue;
            fputs(f ? "" : ",", out);
            arb_an__json_str(out, k < REASONS_MAX ? g->outcome_reasons[k] : "other");
            fprintf(out, ":%" PRIu64, gs->reasons[k]);
            f = 0;
        }
        fputs("},\"by_seat\":[", out);
        for (int p = 0; p < ARB_MAX_SEATS; p++) {
            if (!gs->seat_matches[p]) continue;
            fprintf(out, "%s{\"seat\":%d,\"matches\":%" PRIu64 ",\"wins\":%" PRIu64 ",\"win_rate\":%.4f}",
                    p ? "," : "", p, gs->seat_matches[p], gs->seat_wins[p], rate(gs->seat_wins[p], gs->seat_matches[p]));
        }
        fprintf(out, "],\"first_player\":{\"known\":%" PRIu64 ",\"decided\":%" PRIu64 ",\"wins\":%" PRIu64
                ",\"win_rate\":%.4f,\"by_seat\":[", gs->first_known, gs->first_decided, gs->first_wins,
                rate(gs->first_wins, gs->first_decided));
        for (int p = 0; p < ARB_MAX_SEATS; p++)
            if (gs->seat_matches[p]) fprintf(out, "%s%" PRIu64, p ? "," : "", gs->first_seat[p]);
        fprintf(out, "]},\"avg_turns\":%.2f,\"avg_actions\":%.2f,\"total_actions\":%" PRIu64
                ",\"timeouts\":%" PRIu64 ",\"disconnects\":%" PRIu64 ",\"forfeits\":%" PRIu64
                ",\"card_plays\":%" PRIu64 ",\"hand_discards\":%" PRIu64 ",\"from_hand_by_kind\":{",
                rate(gs->turns, gs->counted), rate(gs->actions, gs->counted), gs->actions, gs->timeouts,
                gs->disconnects, gs->forfeits, gs->card_actions, gs->discards);
        f = 1;
        for (unsigned v = 0; v < g->nverbs && v < 256; v++) {
            if (!gs->by_verb[v]) continue;
            fputs(f ? "" : ",", out);
            arb_an__json_str(out, g->verbs[v].name ? g->verbs[v].name : "?");
            fprintf(out, ":%" PRIu64, gs->by_verb[v]);
            f = 0;
        }
        fputs("},\"top_cards\":[", out);
        topcard top[TOP_CARDS];
        unsigned n = top_cards(gs, top);
        for (unsigned i = 0; i < n; i++) {
            const arb_card *c = g->card(g, top[i].idx);
            fputs(i ? ",{\"card\":" : "{\"card\":", out);
            arb_an__json_str(out, c ? c->id : "?");
            fputs(",\"name\":", out);
            arb_an__json_str(out, c ? c->name : "?");
            fprintf(out, ",\"count\":%" PRIu32 "}", top[i].n);
        }
        fputs("]}", out);
    }
    fputs("]}\n", out);
}

static void print_text(const arb_an_stats *s, FILE *out)
{
    fprintf(out, "%" PRIu64 " replay%s, %" PRIu64 " unreadable\n", s->files, s->files == 1 ? "" : "s", s->errors);
    for (unsigned i = 0; i < s->nkept; i++) {
        fputs("  error: ", out);
        arb_text_put(out, s->kept[i]); /* messages quote file data */
        fputc('\n', out);
    }
    if (s->errors > s->nkept) fprintf(out, "  … and %" PRIu64 " more errors\n", s->errors - s->nkept);
    if (s->unverified) {
        fprintf(out, "%" PRIu64 " file%s do not verify and are left out of every figure below:\n", s->unverified,
                s->unverified == 1 ? "" : "s");
        for (unsigned i = 0; i < s->nunv; i++) fprintf(out, "  does not verify: %s\n", s->unv[i]);
        if (s->unverified > s->nunv) fprintf(out, "  … and %" PRIu64 " more\n", s->unverified - s->nunv);
    }
    if (s->duplicates) {
        fprintf(out, "%" PRIu64 " duplicate%s skipped (a match is counted once):\n", s->duplicates,
                s->duplicates == 1 ? "" : "s");
        for (unsigned i = 0; i < s->ndup; i++) {
            fputs("  duplicate: ", out);
            arb_text_put(out, s->dup[i]);
            fputc('\n', out);
        }
        if (s->duplicates > s->ndup) fprintf(out, "  … and %" PRIu64 " more\n", s->duplicates - s->ndup);
    }
    for (unsigned gi = 0; gi < s->ngames; gi++) {
        const game_stats *gs = &s->games[gi];
        if (!gs->matches) continue;
        const arb_game *g = gs->g;
        fprintf(out, "\n%s (%s): %" PRIu64 " match%s, %" PRIu64 " finished, %" PRIu64 " unfinished",
                g->title, g->id, gs->matches, gs->matches == 1 ? "" : "es", gs->complete, gs->unfinished);
        if (gs->truncated) fprintf(out, ", %" PRIu64 " truncated", gs->truncated);
        if (gs->unverified) fprintf(out, ", %" PRIu64 " do not verify (not counted)", gs->unverified);
        fputc('\n', out);
        if (gs->from_position)
            fprintf(out, "  %" PRIu64 " start from a position: setup not derived from the seed\n", gs->from_position);
        if (gs->from_results)
            fprintf(out, "  (%" PRIu64 " counted from verification results: no first-player, card or clock data)\n",
                    gs->from_results);
        fprintf(out, "  outcomes: %" PRIu64 " wins, %" PRIu64 " draws\n", gs->wins, gs->draws);
        for (unsigned k = 0; k <= REASONS_MAX; k++)
            if (gs->reasons[k])
                fprintf(out, "    %-16s %6" PRIu64 "  %5.1f%%\n", k < REASONS_MAX ? g->outcome_reasons[k] : "other",
                        gs->reasons[k], 100 * rate(gs->reasons[k], gs->complete));
        fputs("  win rate by seat:", out);
        for (int p = 0; p < ARB_MAX_SEATS; p++)
            if (gs->seat_matches[p])
                fprintf(out, "  P%d %.1f%% (%" PRIu64 "/%" PRIu64 ")", p + 1,
                        100 * rate(gs->seat_wins[p], gs->seat_matches[p]), gs->seat_wins[p], gs->seat_matches[p]);
        if (gs->from_results == gs->matches) {
            /* only verification results: who went first was never read */
            fputs("\n  first player wins: not known (no replay read)", out);
        } else {
            fprintf(out, "\n  first player wins: %.1f%% (%" PRIu64 "/%" PRIu64 "); first player was",
                    100 * rate(gs->first_wins, gs->first_decided), gs->first_wins, gs->first_decided);
            for (int p = 0; p < ARB_MAX_SEATS; p++)
                if (gs->seat_matches[p]) fprintf(out, " P%d ×%" PRIu64, p + 1, gs->first_seat[p]);
        }
        fprintf(out, "\n  average length: %.1f turns, %.1f actions\n", rate(gs->turns, gs->counted),
                rate(gs->actions, gs->counted));
        fprintf(out, "  clock: %" PRIu64 " timeouts, %" PRIu64 " disconnects, %" PRIu64 " forfeits\n", gs->timeouts,
                gs->disconnects, gs->forfeits);
        topcard top[TOP_CARDS];
        unsigned n = top_cards(gs, top);
        if (gs->card_actions || gs->discards) {
            fprintf(out, "  cards out of the hand by an action: %" PRIu64 " plays, %" PRIu64 " discards; by kind:",
                    gs->card_actions, gs->discards);
            for (unsigned v = 0; v < g->nverbs && v < 256; v++)
                if (gs->by_verb[v]) fprintf(out, " %s %" PRIu64, g->verbs[v].name ? g->verbs[v].name : "?", gs->by_verb[v]);
            fputc('\n', out);
        }
        if (n) fputs("  most played cards:\n", out);
        for (unsigned i = 0; i < n; i++) {
            const arb_card *c = g->card(g, top[i].idx);
            fprintf(out, "    %6" PRIu32 "  %s\n", top[i].n, c ? c->name : "?");
        }
    }
}

void arb_an_stats_print(const arb_an_stats *s, FILE *out, int json)
{
    if (json) print_json(s, out);
    else print_text(s, out);
}
