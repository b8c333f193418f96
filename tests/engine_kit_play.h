/* engine_kit_play.h — the one self-play property harness every engine's
 * `property` Check case runs (tests/check_<game>.c): ek_selfplay(spec) plays
 * ek_games() seeded games (ARB_TEST_GAMES) straight against the engine's
 * vtable and checks the contract (include/arbiter/game.h) after every
 * action, once for every engine:
 *
 *  - decisions: a seat of the match or the arbiter, a named kind, no clock
 *    where the game has none; outcome() open ({0, -1, 0}) while it runs,
 *    turn() never decreasing;
 *  - legal ⇒ accepted: every legal action applies on a copy (every
 *    legal_every steps, every step in the full games), each listed for the
 *    seat that owes the decision;
 *  - sampled actions (the engine's generator): a listed timeless one is
 *    accepted, an unlisted one refused with ARB_EILLEGAL/ARB_EINVAL and the
 *    engine's rule ID, the state byte for byte and hash for hash unchanged
 *    and no event emitted;
 *  - the chosen action (random or greedy agent, or the engine's choose
 *    hook) is accepted, its events fit and each has a text;
 *  - a greedy game's choice and legal() do not change when what the seat
 *    cannot see is scrambled (the scramble hook), nor does its view;
 *  - views (the check_view hook) and export → load_position round trips
 *    (same hash) at their cadence and at the end;
 *  - termination under max_steps (and max_turns); once over: decision
 *    {ARB_SEAT_NONE, "over", -1}, legal() empty, apply() ARB_EOVER;
 *  - determinism: setup twice gives the same bytes, and replaying the log
 *    gives the same events, bytes and hash.
 *
 * Engine invariants are hooks (after_step, at_end, check_view). A failure
 * names the game index, seed, players, agent, step and action, with the
 * command that reruns that game alone (ARB_TEST_GAME=I plays only game I:
 * every game draws from generators seeded by its own seed). Hooks fail with
 * EK_REQ(cond, fmt, ...), which adds the same context. Only failures talk to
 * Check (a passing ck_assert costs a pipe write, which would dominate). */
#ifndef ARBITER_ENGINE_KIT_PLAY_H
#define ARBITER_ENGINE_KIT_PLAY_H

#include <stdarg.h>

#include "arbiter/rng.h"
#include "arbiter/tree.h"
#include "engine_kit.h"

#define EK_PLAY_STEPS 20000

/* For scramble hooks: an opponent's hand and deck (uids, at most 255 each)
 * dealt again at random from their union, so only what that opponent hides
 * changes; the counts stay. */
static inline void ek_deal_hidden(arb_rng *r, uint8_t *hand, int nhand, uint8_t *deck, int ndeck)
{
    uint8_t pool[2 * 256];
    int k = 0;
    for (int i = 0; i < nhand; i++) pool[k++] = hand[i];
    for (int i = 0; i < ndeck; i++) pool[k++] = deck[i];
    arb_rng_shuffle(r, pool, (size_t)k, 1);
    memcpy(hand, pool, (size_t)nhand);
    memcpy(deck, pool + nhand, (size_t)ndeck);
}

/* One game of the run: defaults from the spec, then the plan hook. */
typedef struct ek_plan {
    int index;     /* 0..games-1 */
    uint64_t seed; /* the match seed */
    int players;
    int greedy;  /* 0: the random agent, 1: the greedy one */
    int variant; /* the engine's own (naramo: timed play) */
    int full;    /* every legal action at every step */
} ek_plan;

typedef struct ek_play_spec ek_play_spec;

/* The running game, as the hooks see it. */
typedef struct ek_play {
    const ek_play_spec *spec;
    const arb_game *g;
    ek_plan plan;
    arb_setup su;
    arb_deck decks[ARB_MAX_SEATS];
    unsigned step;           /* actions applied so far */
    arb_decision d;          /* the decision owed now */
    const arb_action *legal; /* legal() now */
    size_t nlegal;
    const arb_action *action; /* the action under test (NULL: none) */
    arb_action last;          /* the last one applied (step > 0) */
    int roundtrip, views;     /* this game checks round trips, views */
    unsigned long rejections; /* sampled rejections checked, whole run */
    unsigned long actions, roundtrips, max_steps;
} ek_play;

struct ek_play_spec {
    const arb_game *game;
    const char *tcase;             /* the Check case that runs it (NULL: "property") */
    const char *program;           /* "check_naramo" (rerun hint) */
    uint64_t seed_base, seed_step; /* game i: seed_base + i * seed_step */
    int players_min, players_max;  /* cycled by index (0: the game's range) */
    void (*plan)(ek_plan *p);      /* adjust a game's defaults */
    void (*setup)(ek_play *p);     /* adjust p->su (options, decks) */
    unsigned max_steps;            /* 0: EK_PLAY_STEPS */
    unsigned max_turns;            /* outcome turns bound (0: none) */
    int samples;                   /* sampled actions a step */
    void (*sample)(ek_play *p, const void *st, arb_rng *r, arb_action *out);
    const char *rule_prefix;  /* a refusal's rule starts with it */
    int einval_unnamed;       /* ARB_EINVAL may come without a rule */
    int illegal_only;         /* a sampled refusal is ARB_EILLEGAL */
    int timed_unlisted_ok;    /* an unlisted arbiter or timed sample may be accepted */
    int no_clock;             /* every decision's clock_left_ms is -1 */
    int seated_only;          /* no decision is the arbiter's */
    unsigned legal_every;     /* legal ⇒ accepted every k steps (0: full games only) */
    int full_every;           /* every k-th game is full (0: none) */
    int no_positions;         /* load_position cannot restore a state: no round trips */
    unsigned roundtrip_every; /* round trips every k steps (0: at the end only) ... */
    int roundtrip_games;      /* ... of every k-th game (0: 1) */
    unsigned view_every;      /* every seat's view every k steps (0: never) ... */
    int view_games;           /* ... of every k-th game (0: 1) */
    unsigned blind_every;     /* greedy blindness every k steps (0: never) */
    void (*check_view)(ek_play *p, const void *st, int seat);
    void (*scramble)(ek_play *p, void *st, int seat, arb_rng *r);
    int (*choose)(ek_play *p, const void *st, arb_rng *r, arb_action *out); /* 1: play *out */
    /* at each decision, after the sampled actions (p->legal is current) */
    void (*before_step)(ek_play *p, const void *st);
    /* after each action with its events, and once after setup (a NULL) */
    void (*after_step)(ek_play *p, const void *st, const arb_action *a, const arb_events *ev);
    void (*at_end)(ek_play *p, const void *st, const arb_outcome *o);
};

static ek_play *ek__cur;

/* Fail with the running game's context (file and line of the check). */
static void ek__play_fail(const char *file, int line, const char *fmt, ...)
{
    char msg[1024], ctx[1024] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const ek_play *p = ek__cur;
    if (p) {
        char act[300] = "", last[300] = "";
        if (p->action) snprintf(act, sizeof act, ", action '%s'", ek__action(p->g, p->action));
        if (p->step) snprintf(last, sizeof last, " after '%s'", ek__action(p->g, &p->last));
        snprintf(ctx, sizeof ctx,
                 "%s property game %d (seed %llu, %d players, %s agent, variant %d), step %u%s%s; "
                 "rerun it alone: ARB_TEST_GAME=%d CK_RUN_CASE=%s build/tests/%s",
                 p->g->id, p->plan.index, (unsigned long long)p->plan.seed, p->plan.players,
                 p->plan.greedy ? "greedy" : "random", p->plan.variant, p->step, act, last, p->plan.index,
                 p->spec->tcase ? p->spec->tcase : "property", p->spec->program ? p->spec->program : "check_<game>");
    }
    ck_abort_msg("%s:%d: %s\n  in %s", file, line, msg, ctx);
}

#define EK_REQ(c, ...)                                                                                                 \
    do {                                                                                                               \
        if (!(c)) ek__play_fail(__FILE__, __LINE__, __VA_ARGS__);                                                      \
    } while (0)

static int ek__same(const arb_action *a, const arb_action *b)
{
    if (a->seat != b->seat || a->verb != b->verb || a->nargs != b->nargs) return 0;
    for (int i = 0; i < a->nargs && i < ARB_ARGS_MAX; i++)
        if (a->args[i] != b->args[i]) return 0;
    return 1;
}

static int ek__listed(const arb_action *a, const arb_action *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ek__same(a, &l[i])) return 1;
    return 0;
}

/* ARB_TEST_GAME: the index of the one game to play (-1: all). */
static int ek__only(int games)
{
    const char *e = getenv("ARB_TEST_GAME");
    if (!e || !*e) return -1;
    char *end;
    long v = strtol(e, &end, 10);
    ck_assert_msg(*end == '\0' && v >= 0 && v < games, "ARB_TEST_GAME=%s is not a game index 0..%d", e, games - 1);
    return (int)v;
}

/* load_position(export_state(st)) has st's hash, decision and legal count. */
static void ek__roundtrip(ek_play *p, const void *st, void *scratch)
{
    const arb_game *g = p->g;
    arb_tree *t = arb_tree_new();
    g->export_state(g, st, ARB_VIEW_ALL, t, arb_tree_root(t));
    EK_REQ(!arb_tree_failed(t), "the export failed");
    arb_setup su;
    memset(&su, 0, sizeof su);
    su.players = p->plan.players;
    su.seed = p->plan.seed ^ 0x9e3779b97f4a7c15ull; /* the export carries the PRNG, not the seed */
    arb_error e = ARB_ERROR_INIT;
    int rc = g->load_position(g, scratch, arb_tree_root(t), &su, &e);
    EK_REQ(rc == ARB_OK, "load_position(export) refused: %s: %s %s", e.where, e.rule, e.msg);
    EK_REQ(g->hash(g, scratch) == g->hash(g, st), "the round trip changed the hash (phase %s)", g->phase(g, st));
    arb_decision a = g->decision(g, st), b = g->decision(g, scratch);
    EK_REQ(a.seat == b.seat && a.kind == b.kind, "the round trip changed the decision");
    arb_tree_free(t);
    p->roundtrips++;
}

/* What seat sees of st does not change when what it cannot see does. */
static void ek__view_blind(ek_play *p, const void *st, void *scratch, int seat, arb_rng *r)
{
    const arb_game *g = p->g;
    memcpy(scratch, st, g->state_size);
    p->spec->scramble(p, scratch, seat, r);
    arb_tree *t1 = arb_tree_new(), *t2 = arb_tree_new();
    g->export_state(g, st, seat, t1, arb_tree_root(t1));
    g->export_state(g, scratch, seat, t2, arb_tree_root(t2));
    EK_REQ(arb_tnode_equal(arb_tree_root(t1), arb_tree_root(t2)), "seat %d's view reveals hidden information", seat);
    arb_tree_free(t1);
    arb_tree_free(t2);
}

static uint64_t ek__events_hash(uint64_t h, const arb_events *ev)
{
    for (uint32_t i = 0; i < ev->n; i++) {
        const arb_event *e = &ev->buf[i];
        int64_t f[6] = { e->type, e->seat, e->hidden, e->a, e->b, e->c };
        for (int k = 0; k < 6; k++) h = (h ^ (uint64_t)f[k]) * 0x100000001b3ull;
    }
    return (h ^ ev->n) * 0x100000001b3ull;
}

/* Every event has a type the game names and a text. */
static void ek__events_ok(ek_play *p, const arb_events *ev)
{
    char buf[512];
    EK_REQ(ev->dropped == 0, "%u events dropped (buffer of %u)", ev->dropped, ev->cap);
    for (uint32_t i = 0; i < ev->n; i++) {
        EK_REQ(ev->buf[i].type < p->g->nevent_names, "event %u has type %u of %u", i, ev->buf[i].type,
               p->g->nevent_names);
        EK_REQ(p->g->event_text(p->g, &ev->buf[i], ARB_VIEW_ALL, buf, sizeof buf) > 0, "event %u (%s) has no text", i,
               p->g->event_names[ev->buf[i].type]);
    }
}

static void ek__play_one(ek_play *p, void *st, void *init, void *cp, void *scr, arb_action *log, uint64_t *evh_log)
{
    const ek_play_spec *sp = p->spec;
    const arb_game *g = p->g;
    static arb_action legal[EK_LEGAL], legal2[EK_LEGAL];
    static arb_event evbuf[EK_EVENTS];
    arb_events ev = { evbuf, EK_EVENTS, 0, 0 };
    unsigned max_steps = sp->max_steps ? sp->max_steps : EK_PLAY_STEPS;
    arb_error err = ARB_ERROR_INIT;
    uint64_t sm = p->plan.seed ^ 0x5bd1e995u;
    arb_rng pick, probe;
    arb_rng_seed(&pick, arb_splitmix64(&sm));
    arb_rng_seed(&probe, arb_splitmix64(&sm));

    memset(st, 0, g->state_size);
    int rc = g->setup(g, st, &p->su, &ev, &err);
    EK_REQ(rc == ARB_OK, "setup refused: %s %s", err.rule, err.msg);
    ek__events_ok(p, &ev);
    if (sp->after_step) sp->after_step(p, st, NULL, &ev);
    uint64_t evh = ek__events_hash(0xcbf29ce484222325ull, &ev);
    memcpy(init, st, g->state_size);
    uint32_t turn = g->turn(g, st);
    p->step = 0;
    for (;;) {
        p->action = NULL;
        p->legal = legal;
        p->nlegal = 0;
        arb_decision d = g->decision(g, st);
        p->d = d;
        if (d.seat == ARB_SEAT_NONE) break;
        EK_REQ(p->step < max_steps, "no end after %u actions", max_steps);
        EK_REQ((!sp->seated_only && d.seat == ARB_SEAT_ARBITER) || (d.seat >= 0 && d.seat < p->plan.players),
               "decision for seat %d", d.seat);
        EK_REQ(d.kind < g->ndecision_names, "decision kind %u of %u", d.kind, g->ndecision_names);
        EK_REQ(!sp->no_clock || d.clock_left_ms == -1, "a decision carries a clock (%lld ms)",
               (long long)d.clock_left_ms);
        arb_outcome o;
        EK_REQ(g->outcome(g, st, &o) == 0 && !o.over && o.winner == -1 && o.reason == 0,
               "a running match's outcome is not {0, -1, 0} (over %d, winner %d, reason %u)", o.over, o.winner,
               o.reason);
        uint32_t t = g->turn(g, st);
        EK_REQ(t >= turn, "turn() went back from %u to %u", turn, t);
        turn = t;
        size_t n = g->legal(g, st, legal, EK_LEGAL);
        EK_REQ(n > 0 && n <= EK_LEGAL, "legal() lists %zu actions (decision %s)", n, g->decision_names[d.kind]);
        p->nlegal = n;
        /* legal ⇒ accepted, on a copy */
        if (p->plan.full || (sp->legal_every && p->step % sp->legal_every == 0))
            for (size_t i = 0; i < n; i++) {
                p->action = &legal[i];
                EK_REQ(legal[i].seat == d.seat, "legal() lists an action of seat %d for seat %d", legal[i].seat,
                       d.seat);
                memcpy(cp, st, g->state_size);
                rc = g->apply(g, cp, &legal[i], NULL, &err);
                EK_REQ(rc == ARB_OK, "a legal action was refused: %s %s (where '%s')", err.rule, err.msg, err.where);
            }
        /* sampled actions: listed ⇒ accepted, unlisted ⇒ refused, changing nothing */
        for (int k = 0; k < sp->samples; k++) {
            arb_action x;
            memset(&x, 0, sizeof x);
            sp->sample(p, st, &probe, &x);
            p->action = &x;
            int listed = x.seat >= 0 && x.elapsed_ms == 0 && ek__listed(&x, legal, n);
            memcpy(cp, st, g->state_size);
            uint64_t h = g->hash(g, st);
            arb_error e2 = ARB_ERROR_INIT;
            ev.n = ev.dropped = 0;
            rc = g->apply(g, cp, &x, &ev, &e2);
            if (listed) {
                EK_REQ(rc == ARB_OK, "a listed action was refused: %s %s", e2.rule, e2.msg);
                continue;
            }
            if (rc == ARB_OK) {
                EK_REQ(sp->timed_unlisted_ok && (x.seat == ARB_SEAT_ARBITER || x.elapsed_ms != 0),
                       "an action legal() does not list was accepted");
                continue;
            }
            p->rejections++;
            EK_REQ(rc == ARB_EILLEGAL || (!sp->illegal_only && rc == ARB_EINVAL), "refused with code %d (%s)", rc,
                   e2.msg);
            if (!(sp->einval_unnamed && rc == ARB_EINVAL)) {
                EK_REQ(e2.rule[0] != '\0', "refused without a rule ID: %s", e2.msg);
                EK_REQ(!sp->rule_prefix || strncmp(e2.rule, sp->rule_prefix, strlen(sp->rule_prefix)) == 0,
                       "refused with rule '%s', not one of the game's (%s…)", e2.rule, sp->rule_prefix);
            }
            EK_REQ(memcmp(cp, st, g->state_size) == 0, "the refusal (%s) changed the state's bytes", e2.rule);
            EK_REQ(g->hash(g, cp) == h, "the refusal (%s) changed the hash", e2.rule);
            EK_REQ(ev.n == 0 && ev.dropped == 0, "the refusal (%s) emitted %u events", e2.rule, ev.n + ev.dropped);
        }
        p->action = NULL;
        if (sp->before_step) sp->before_step(p, st);
        if (p->roundtrip && sp->roundtrip_every && p->step % sp->roundtrip_every == 0) ek__roundtrip(p, st, cp);
        if (p->views && sp->view_every && p->step % sp->view_every == 0) {
            for (int v = 0; v < p->plan.players; v++) {
                if (sp->check_view) sp->check_view(p, st, v);
                if (sp->scramble) ek__view_blind(p, st, scr, v, &probe);
            }
        }
        /* the greedy agent decides from its own view */
        if (p->plan.greedy && sp->scramble && sp->blind_every && d.seat >= 0 && p->step % sp->blind_every == 0) {
            memcpy(scr, st, g->state_size);
            sp->scramble(p, scr, d.seat, &probe);
            size_t n2 = g->legal(g, scr, legal2, EK_LEGAL);
            EK_REQ(n2 == n && memcmp(legal, legal2, n * sizeof *legal) == 0, "hidden information changed legal()");
            arb_rng r1 = pick, r2 = pick;
            size_t k1 = g->greedy(g, st, legal, n, &r1), k2 = g->greedy(g, scr, legal2, n2, &r2);
            EK_REQ(k1 == k2, "the greedy choice depends on hidden information (%zu vs %zu)", k1, k2);
        }
        arb_action a;
        if (!sp->choose || !sp->choose(p, st, &pick, &a)) {
            size_t k = p->plan.greedy ? g->greedy(g, st, legal, n, &pick) : arb_rng_below(&pick, (uint32_t)n);
            EK_REQ(k < n, "the greedy agent chose %zu of %zu", k, n);
            a = legal[k];
        }
        p->action = &a;
        ev.n = ev.dropped = 0;
        rc = g->apply(g, st, &a, &ev, &err);
        EK_REQ(rc == ARB_OK, "the chosen action was refused: %s %s (where '%s')", err.rule, err.msg, err.where);
        ek__events_ok(p, &ev);
        log[p->step] = p->last = a;
        evh_log[p->step] = evh = ek__events_hash(evh, &ev);
        p->step++;
        if (sp->after_step) sp->after_step(p, st, &a, &ev);
    }
    /* over */
    p->action = NULL;
    p->nlegal = 0;
    arb_outcome o;
    EK_REQ(g->outcome(g, st, &o) && o.over, "nobody owes a decision, but outcome() is not over");
    EK_REQ(o.winner >= -1 && o.winner < p->plan.players, "winner %d", o.winner);
    EK_REQ(o.reason < g->noutcome_reasons, "outcome reason %u of %u", o.reason, g->noutcome_reasons);
    EK_REQ(!sp->max_turns || o.turns <= sp->max_turns, "%u turns, more than %u", o.turns, sp->max_turns);
    EK_REQ(strcmp(g->decision_names[p->d.kind], "over") == 0 && p->d.clock_left_ms == -1,
           "the decision of a finished match is not {none, \"over\", -1}");
    EK_REQ(g->legal(g, st, legal, EK_LEGAL) == 0, "legal() lists actions after the end");
    if (p->step) {
        memcpy(cp, st, g->state_size);
        p->action = &log[p->step - 1];
        rc = g->apply(g, cp, &log[p->step - 1], NULL, &err);
        EK_REQ(rc == ARB_EOVER && memcmp(cp, st, g->state_size) == 0, "an action after the end: code %d, not ARB_EOVER",
               rc);
        p->action = NULL;
    }
    if (p->roundtrip) ek__roundtrip(p, st, cp);
    if (sp->at_end) sp->at_end(p, st, &o);
    /* determinism: the same setup, then the log, gives the same events and bytes */
    memset(cp, 0, g->state_size);
    ev.n = ev.dropped = 0;
    EK_REQ(g->setup(g, cp, &p->su, &ev, &err) == ARB_OK, "setup refused on the replay");
    EK_REQ(memcmp(cp, init, g->state_size) == 0, "setup with the same seed gave other bytes");
    uint64_t rh = ek__events_hash(0xcbf29ce484222325ull, &ev);
    for (unsigned i = 0; i < p->step; i++) {
        p->action = &log[i];
        ev.n = ev.dropped = 0;
        rc = g->apply(g, cp, &log[i], &ev, &err);
        EK_REQ(rc == ARB_OK, "replay: action %u refused: %s %s", i, err.rule, err.msg);
        rh = ek__events_hash(rh, &ev);
        EK_REQ(rh == evh_log[i], "replay: action %u emitted other events", i);
    }
    p->action = NULL;
    EK_REQ(g->hash(g, cp) == g->hash(g, st) && memcmp(cp, st, g->state_size) == 0,
           "the replayed log ends in another state");
    p->actions += p->step;
    if (p->step > p->max_steps) p->max_steps = p->step;
}

/* Play the spec's games (ek_games(), or the one ARB_TEST_GAME names). */
static void ek_selfplay(const ek_play_spec *sp)
{
    const arb_game *g = sp->game;
    ck_assert_ptr_nonnull(g);
    ck_assert_msg(sp->sample != NULL, "%s: the spec has no sample hook", g->id);
    int games = ek_games(), only = ek__only(games);
    int pmin = sp->players_min ? sp->players_min : g->min_players;
    int pmax = sp->players_max ? sp->players_max : g->max_players;
    unsigned max_steps = sp->max_steps ? sp->max_steps : EK_PLAY_STEPS;
    static ek_play p;
    memset(&p, 0, sizeof p);
    p.spec = sp;
    p.g = g;
    void *st = calloc(1, g->state_size), *init = calloc(1, g->state_size);
    void *cp = calloc(1, g->state_size), *scr = calloc(1, g->state_size);
    arb_action *log = calloc(max_steps, sizeof *log);
    uint64_t *evh = calloc(max_steps, sizeof *evh);
    ck_assert(st && init && cp && scr && log && evh);
    ek__cur = &p;
    for (int i = 0; i < games; i++) {
        if (only >= 0 && i != only) continue;
        ek_plan *pl = &p.plan;
        pl->index = i;
        pl->seed = sp->seed_base + (uint64_t)i * (sp->seed_step ? sp->seed_step : 1);
        pl->players = pmin + i % (pmax - pmin + 1);
        pl->greedy = i % 2;
        pl->variant = 0;
        pl->full = sp->full_every && i % sp->full_every == 0;
        if (sp->plan) sp->plan(pl);
        p.roundtrip = !sp->no_positions && i % (sp->roundtrip_games ? sp->roundtrip_games : 1) == 0;
        p.views = i % (sp->view_games ? sp->view_games : 1) == 0;
        memset(&p.su, 0, sizeof p.su);
        p.su.seed = pl->seed;
        p.su.players = pl->players;
        /* every pairing of presets: seat s takes digit s of i in base npresets */
        unsigned q = (unsigned)i;
        for (int s = 0; s < pl->players; s++, q /= g->npresets) {
            p.decks[s] = *g->preset(g, q % g->npresets);
            p.su.decks[s] = &p.decks[s];
        }
        if (sp->setup) sp->setup(&p);
        ek__play_one(&p, st, init, cp, scr, log, evh);
    }
    ek__cur = NULL;
    int played = only >= 0 ? 1 : games;
    if (sp->samples)
        ck_assert_msg(p.rejections > (unsigned long)played, "%s: only %lu sampled refusals in %d games", g->id,
                      p.rejections, played);
    fprintf(stderr, "%s property: %d games, %lu actions (longest %lu), %lu refusals checked, %lu round trips\n", g->id,
            played, p.actions, p.max_steps, p.rejections, p.roundtrips);
    free(st);
    free(init);
    free(cp);
    free(scr);
    free(log);
    free(evh);
}

#endif
