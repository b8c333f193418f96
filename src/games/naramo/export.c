/* export.c — the NARAMO state tree (export_state) and its inverse
 * (load_position), shape documented in conformance/naramo/STATE.md.
 *
 * One writer serves `state --json`, conformance assertions and diffs; a
 * seat's view is the same tree without the opponent's hand, any deck order,
 * the uid → card list and the PRNG. The loader accepts the full export (or a
 * hand-written subset with documented defaults) and checks it as strictly as
 * an action: unknown keys, out-of-range values, impossible zones and prompts
 * with no legal answer are rejected with err->where naming the path. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "games/naramo/naramo.h"

/* ---- export --------------------------------------------------------- */

static void card_obj(arb_tree *t, arb_tnode *arr, const nar_player *p, int uid)
{
    arb_tnode *m = arb_tree_add_map(t, arr, NULL);
    arb_tree_add_int(t, m, "uid", uid);
    arb_tree_add_str(t, m, "card", nar_def(p, uid)->id);
}

void arb_naramo__export(const void *st, int view, arb_tree *t, arb_tnode *root)
{
    const nar_state *s = st;
    arb_decision d = arb_naramo__decision(st);
    arb_tree_add_str(t, root, "game", "naramo");
    arb_tree_add_int(t, root, "shift", s->shift);
    arb_tree_add_int(t, root, "active", s->active);
    arb_tree_add_int(t, root, "first", s->first);
    arb_tree_add_str(t, root, "phase", arb_naramo__phase_of(s->kind));
    arb_tree_add_str(t, root, "step", arb_naramo__decision_names[s->kind]);
    arb_tnode *dn = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, dn, "seat", d.seat);
    arb_tree_add_str(t, dn, "kind", arb_naramo__decision_names[d.kind]);
    arb_tree_add_int(t, dn, "clock_left_ms", d.clock_left_ms);
    arb_tnode *cl = arb_tree_add_map(t, root, "clock");
    arb_tree_add_bool(t, cl, "enabled", s->clock_on);
    arb_tree_add_int(t, cl, "shift_ms", s->shift_ms);
    arb_tree_add_int(t, cl, "match_ms", (int64_t)s->match_ms);
    arb_tree_add_int(t, root, "next_seq", s->next_seq);
    arb_tnode *pe = arb_tree_add_map(t, root, "pending");
    arb_tree_add_int(t, pe, "strike_uid", s->strike_uid);
    arb_tree_add_int(t, pe, "strike_value", s->strike_value);
    arb_tree_add_int(t, pe, "alarm_seq", s->alarm_seq);
    arb_tree_add_int(t, pe, "alarm_owner", s->alarm_owner);
    arb_tree_add_int(t, pe, "alarm_uid", s->alarm_uid);
    arb_tree_add_int(t, pe, "deployed", s->deployed);
    arb_tnode *po = arb_tree_add_arr(t, pe, "order");
    for (int i = 0; i < s->order_n; i++) arb_tree_add_int(t, po, NULL, s->order[i]);
    arb_tnode *oc = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, oc, "over", s->over);
    arb_tree_add_int(t, oc, "winner", s->over ? s->winner : -1);
    arb_tree_add_str(t, oc, "reason", arb_naramo__outcome_names[s->reason < NR__COUNT ? s->reason : 0]);
    if (view == ARB_VIEW_ALL) {
        arb_tnode *r = arb_tree_add_arr(t, root, "rng");
        for (int i = 0; i < 4; i++) arb_tree_add_int(t, r, NULL, (int64_t)s->rng.s[i]);
    }
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int q = 0; q < 2; q++) {
        const nar_player *p = &s->p[q];
        arb_tnode *m = arb_tree_add_map(t, pl, NULL);
        if (view == ARB_VIEW_ALL) {
            arb_tnode *c = arb_tree_add_arr(t, m, "cards");
            for (int i = 0; i < p->ncards; i++) arb_tree_add_str(t, c, NULL, nar_def(p, i)->id);
        }
        arb_tree_add_int(t, m, "core", p->core);
        arb_tree_add_int(t, m, "hack", p->hack);
        arb_tree_add_int(t, m, "power_orders", p->po);
        arb_tree_add_str(t, m, "clearance", arb_naramo__clearance_names[p->clearance & 3]);
        arb_tree_add_int(t, m, "swipes", p->swipes);
        arb_tree_add_bool(t, m, "scram_used", p->scram_used);
        arb_tree_add_bool(t, m, "shutdown", p->shutdown);
        arb_tree_add_int(t, m, "shutdown_until", p->shutdown_until);
        arb_tree_add_bool(t, m, "review_used", p->review_used);
        arb_tree_add_bool(t, m, "decked", p->decked);
        arb_tree_add_bool(t, m, "act_used", p->act_used);
        arb_tree_add_bool(t, m, "doctrine_used", p->doctrine_used);
        arb_tree_add_bool(t, m, "edg_used", p->edg_used);
        arb_tree_add_int(t, m, "timeouts", p->timeouts);
        arb_tree_add_bool(t, m, "connected", p->disc_at < 0);
        arb_tree_add_int(t, m, "disconnected_at", p->disc_at);
        arb_tnode *ef = arb_tree_add_arr(t, m, "effects");
        for (int i = 0; i < p->neffects; i++) {
            arb_tnode *e = arb_tree_add_map(t, ef, NULL);
            arb_tree_add_int(t, e, "uid", p->effects[i].uid);
            arb_tree_add_str(t, e, "card", nar_def(p, p->effects[i].uid)->id);
            arb_tree_add_int(t, e, "until_shift", p->effects[i].until);
        }
        if (view == ARB_VIEW_ALL) {
            arb_tnode *dk = arb_tree_add_arr(t, m, "deck");
            for (int i = p->ndeck - 1; i >= 0; i--) card_obj(t, dk, p, p->deck[i]);
        }
        arb_tree_add_int(t, m, "deck_count", p->ndeck);
        if (view == ARB_VIEW_ALL || view == q) {
            arb_tnode *h = arb_tree_add_arr(t, m, "hand");
            for (int i = 0; i < p->nhand; i++) card_obj(t, h, p, p->hand[i]);
        }
        arb_tree_add_int(t, m, "hand_count", p->nhand);
        arb_tnode *ro = arb_tree_add_arr(t, m, "roster");
        for (int i = 0; i < p->nroster; i++) {
            int uid = p->roster[i];
            arb_tnode *e = arb_tree_add_map(t, ro, NULL);
            arb_tree_add_int(t, e, "uid", uid);
            arb_tree_add_str(t, e, "card", nar_def(p, uid)->id);
            arb_tree_add_bool(t, e, "exhausted", (p->flags[uid] & NAR_F_EXHAUSTED) != 0);
            arb_tree_add_bool(t, e, "stationed", (p->flags[uid] & NAR_F_STATIONED) != 0);
        }
        arb_tnode *eq = arb_tree_add_arr(t, m, "equipment");
        for (int i = 0; i < p->nequip; i++) {
            arb_tnode *e = arb_tree_add_map(t, eq, NULL);
            arb_tree_add_int(t, e, "uid", p->equip[i]);
            arb_tree_add_str(t, e, "card", nar_def(p, p->equip[i])->id);
            arb_tree_add_int(t, e, "host", p->equip_host[i]);
        }
        arb_tnode *si = arb_tree_add_arr(t, m, "site");
        for (int i = 0; i < p->nsite; i++) card_obj(t, si, p, p->site[i]);
        arb_tnode *bo = arb_tree_add_arr(t, m, "board");
        for (int i = 0; i < p->nboard; i++) {
            const nar_bentry *b = &p->board[i];
            arb_tnode *e = arb_tree_add_map(t, bo, NULL);
            arb_tree_add_int(t, e, "owner", b->owner);
            arb_tree_add_int(t, e, "uid", b->uid);
            arb_tree_add_str(t, e, "card", nar_def(&s->p[b->owner], b->uid)->id);
            arb_tree_add_int(t, e, "duration", b->duration);
            arb_tree_add_int(t, e, "seq", b->seq);
        }
        arb_tnode *di = arb_tree_add_arr(t, m, "discard");
        for (int i = 0; i < p->ndiscard; i++) card_obj(t, di, p, p->discard[i]);
    }
}

/* ---- load_position -------------------------------------------------- */

typedef struct lctx {
    arb_error *err;
    nar_state *s;
    int explicit_[2];       /* seat has a `cards` list */
    uint8_t seen[2][NAR_CARDS];
} lctx;

static int failp(lctx *L, const char *rule, const char *path, const char *msg)
{
    arb_error_set(L->err, rule ? ARB_EILLEGAL : ARB_EINVAL, rule, "%s", msg);
    arb_error_where(L->err, "%s", path);
    return rule ? ARB_EILLEGAL : ARB_EINVAL;
}

static int keys_ok(lctx *L, const arb_tnode *m, const char *path, const char *const *allowed)
{
    char where[160];
    if (!m || m->kind != ARB_T_MAP) return failp(L, NULL, path, "expected a map");
    for (const arb_tnode *c = m->first; c; c = c->next) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, c->key) == 0) { ok = 1; break; }
        if (!ok) {
            snprintf(where, sizeof where, "%s%s%s", path, *path ? "." : "", c->key);
            return failp(L, NULL, where, "unknown field");
        }
    }
    return 0;
}

static void subpath(char *out, size_t n, const char *path, const char *key)
{
    snprintf(out, n, "%s%s%s", path, *path ? "." : "", key);
}

/* Integer field: absent leaves *out alone. */
static int get_int(lctx *L, const arb_tnode *m, const char *path, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const arb_tnode *n = arb_tnode_get(m, key);
    if (!n) return 0;
    char w[160];
    subpath(w, sizeof w, path, key);
    if (n->kind != ARB_T_INT) return failp(L, NULL, w, "expected an integer");
    if (n->i < lo || n->i > hi) return failp(L, NULL, w, "value out of range");
    *out = n->i;
    return 0;
}

static int get_bool(lctx *L, const arb_tnode *m, const char *path, const char *key, uint8_t *out)
{
    const arb_tnode *n = arb_tnode_get(m, key);
    if (!n) return 0;
    char w[160];
    subpath(w, sizeof w, path, key);
    if (n->kind != ARB_T_BOOL) return failp(L, NULL, w, "expected true or false");
    *out = (uint8_t)(n->i != 0);
    return 0;
}

static int find_card(const char *s)
{
    for (unsigned i = 0; i < arb_naramo__ncards; i++)
        if (strcasecmp(arb_naramo__cards[i].id, s) == 0 || strcasecmp(arb_naramo__cards[i].name, s) == 0) return (int)i;
    return -1;
}

/* One zone entry: returns the uid (>= 0) or an error (< 0). extra lists the
 * zone's own keys; the entry map is returned in *mp (NULL for scalars). */
static int zone_entry(lctx *L, int seat, const arb_tnode *e, const char *w, const char *const *extra,
                      const arb_tnode **mp)
{
    nar_player *p = &L->s->p[seat];
    *mp = NULL;
    int uid = -1, card = -1;
    if (e->kind == ARB_T_STR) {
        card = find_card(e->s);
        if (card < 0) return failp(L, "NAR-CARDTYPES-FIVE", w, "unknown card");
    } else if (e->kind == ARB_T_INT) {
        if (!L->explicit_[seat]) return failp(L, NULL, w, "a uid needs players.N.cards");
        if (e->i < 0 || e->i >= p->ncards) return failp(L, NULL, w, "uid out of range");
        uid = (int)e->i;
    } else if (e->kind == ARB_T_MAP) {
        const char *allowed[12] = {"uid", "card"};
        int k = 2;
        for (const char *const *x = extra; x && *x && k < 11; x++) allowed[k++] = *x;
        allowed[k] = NULL;
        int rc = keys_ok(L, e, w, allowed);
        if (rc) return rc;
        *mp = e;
        const arb_tnode *u = arb_tnode_get(e, "uid"), *c = arb_tnode_get(e, "card");
        char cw[160];
        subpath(cw, sizeof cw, w, "card");
        if (c) {
            if (c->kind != ARB_T_STR || (card = find_card(c->s)) < 0) return failp(L, "NAR-CARDTYPES-FIVE", cw, "unknown card");
        }
        if (u) {
            char uw[160];
            subpath(uw, sizeof uw, w, "uid");
            if (!L->explicit_[seat]) return failp(L, NULL, uw, "a uid needs players.N.cards");
            if (u->kind != ARB_T_INT || u->i < 0 || u->i >= p->ncards) return failp(L, NULL, uw, "uid out of range");
            uid = (int)u->i;
            if (card >= 0 && card != p->card[uid]) return failp(L, NULL, cw, "card does not match the uid");
        } else if (card < 0) {
            return failp(L, NULL, w, "an entry needs a card or a uid");
        }
    } else {
        return failp(L, NULL, w, "expected a card id, a uid or a card object");
    }
    if (uid < 0) {
        if (L->explicit_[seat]) return failp(L, NULL, w, "with players.N.cards every entry needs a uid");
        if (p->ncards >= NAR_CARDS) return failp(L, NULL, w, "too many cards for one seat (64)");
        uid = p->ncards++;
        p->card[uid] = (uint16_t)card;
    }
    if (L->seen[seat][uid]) return failp(L, NULL, w, "this card is already in another zone");
    L->seen[seat][uid] = 1;
    return uid;
}

static int zone_arr(lctx *L, const arb_tnode *m, const char *path, const char *key, const arb_tnode **out)
{
    *out = arb_tnode_get(m, key);
    if (*out && (*out)->kind != ARB_T_ARR) {
        char w[160];
        subpath(w, sizeof w, path, key);
        return failp(L, NULL, w, "expected an array");
    }
    return 0;
}

#define TRY(x) do { int rc_ = (x); if (rc_ < 0) return rc_; } while (0)

/* A zone that is a plain list of uids (deck, hand, site, discard): at most
 * max entries (else max_rule/max_msg, or "too many cards"), each of the
 * given card type when type >= 0 (else type_rule/type_msg), appended to
 * out[*n]. An absent zone leaves out untouched. */
static int load_uids(lctx *L, int q, const arb_tnode *pm, const char *pp, const char *key, int max,
                     const char *max_rule, const char *max_msg, int type, const char *type_rule,
                     const char *type_msg, uint8_t *out, uint8_t *n)
{
    const arb_tnode *z, *em;
    char zp[160], w[200];
    TRY(zone_arr(L, pm, pp, key, &z));
    if (!z) return 0;
    subpath(zp, sizeof zp, pp, key);
    int i = 0;
    for (const arb_tnode *e = z->first; e; e = e->next, i++) {
        snprintf(w, sizeof w, "%s.%d", zp, i);
        if (i >= max) return failp(L, max_rule, w, max_msg ? max_msg : "too many cards");
        int uid;
        TRY(uid = zone_entry(L, q, e, w, NULL, &em));
        if (type >= 0 && nar_def(&L->s->p[q], uid)->type != type) return failp(L, type_rule, w, type_msg);
        out[(*n)++] = (uint8_t)uid;
    }
    return 0;
}

static int load_zones(lctx *L, int q, const arb_tnode *pm, const char *pp)
{
    nar_state *s = L->s;
    nar_player *p = &s->p[q];
    const arb_tnode *z;
    char zp[160], w[200];
    int uid;
    const arb_tnode *em;
    /* deck: exported top first; stored with the top at the end */
    uint8_t tmp[NAR_CARDS], ndeck = 0;
    TRY(load_uids(L, q, pm, pp, "deck", NAR_CARDS, NULL, NULL, -1, NULL, NULL, tmp, &ndeck));
    for (int i = 0; i < ndeck; i++) p->deck[i] = tmp[ndeck - 1 - i];
    p->ndeck = ndeck;
    TRY(load_uids(L, q, pm, pp, "hand", NAR_CARDS, NULL, NULL, -1, NULL, NULL, p->hand, &p->nhand));
    TRY(zone_arr(L, pm, pp, "roster", &z));
    if (z) {
        static const char *const ex[] = {"exhausted", "stationed", NULL};
        subpath(zp, sizeof zp, pp, "roster");
        int n = 0;
        for (const arb_tnode *e = z->first; e; e = e->next, n++) {
            snprintf(w, sizeof w, "%s.%d", zp, n);
            if (n >= NAR_ROSTER_MAX) return failp(L, "NAR-LIMIT-ROSTER", w, "a Roster holds at most 7 Personnel");
            TRY(uid = zone_entry(L, q, e, w, ex, &em));
            const nar_carddef *c = nar_def(p, uid);
            if (c->type != NAR_T_PERSONNEL) return failp(L, "NAR-ZONE-ROSTER", w, "only Personnel go in the Roster");
            if (c->flags & NAR_UNIQUE)
                for (int i = 0; i < p->nroster; i++)
                    if (p->card[p->roster[i]] == p->card[uid]) return failp(L, "NAR-DECK-UNIQUE-PLAY", w, "a Unique card is already in play");
            uint8_t ex1 = 0, st1 = 0;
            if (em) { TRY(get_bool(L, em, w, "exhausted", &ex1)); TRY(get_bool(L, em, w, "stationed", &st1)); }
            p->flags[uid] = (uint8_t)((ex1 ? NAR_F_EXHAUSTED : 0) | (st1 ? NAR_F_STATIONED : 0));
            p->roster[p->nroster++] = (uint8_t)uid;
        }
    }
    TRY(zone_arr(L, pm, pp, "equipment", &z));
    if (z) {
        static const char *const ex[] = {"host", NULL};
        subpath(zp, sizeof zp, pp, "equipment");
        int n = 0;
        for (const arb_tnode *e = z->first; e; e = e->next, n++) {
            snprintf(w, sizeof w, "%s.%d", zp, n);
            if (n >= NAR_CARDS) return failp(L, NULL, w, "too many cards");
            TRY(uid = zone_entry(L, q, e, w, ex, &em));
            if (nar_def(p, uid)->type != NAR_T_EQUIPMENT) return failp(L, "NAR-P2-PLAY-EQUIPMENT", w, "only Equipment attaches to Personnel");
            int64_t host = -1;
            if (em) TRY(get_int(L, em, w, "host", 0, NAR_CARDS - 1, &host));
            int found = 0;
            for (int i = 0; i < p->nroster; i++) found |= p->roster[i] == host;
            if (!found) return failp(L, "NAR-P2-PLAY-EQUIPMENT", w, "host must be the uid of a Personnel in this Roster");
            p->equip[p->nequip] = (uint8_t)uid;
            p->equip_host[p->nequip++] = (uint8_t)host;
        }
    }
    TRY(load_uids(L, q, pm, pp, "site", NAR_SITE_MAX, "NAR-LIMIT-SITE", "a Site holds at most 6 Facilities",
                  NAR_T_FACILITY, "NAR-ZONE-SITE", "only Facilities go in the Site", p->site, &p->nsite));
    TRY(load_uids(L, q, pm, pp, "discard", NAR_CARDS, NULL, NULL, -1, NULL, NULL, p->discard, &p->ndiscard));
    return 0;
}

static int load_board(lctx *L, int q, const arb_tnode *pm, const char *pp, int64_t *maxseq)
{
    nar_state *s = L->s;
    const arb_tnode *z;
    char zp[160], w[200];
    TRY(zone_arr(L, pm, pp, "board", &z));
    if (!z) return 0;
    static const char *const ex[] = {"owner", "duration", "seq", NULL};
    subpath(zp, sizeof zp, pp, "board");
    int n = 0;
    for (const arb_tnode *e = z->first; e; e = e->next, n++) {
        snprintf(w, sizeof w, "%s.%d", zp, n);
        if (n >= NAR_BOARD_MAX) return failp(L, "NAR-LIMIT-ALARM", w, "an Alarm Board holds at most 3 Incidents");
        int64_t owner = q;
        if (e->kind == ARB_T_MAP) TRY(get_int(L, e, w, "owner", 0, 1, &owner));
        const arb_tnode *em;
        int uid;
        TRY(uid = zone_entry(L, (int)owner, e, w, ex, &em));
        const nar_carddef *c = nar_def(&s->p[owner], uid);
        if (c->type != NAR_T_INCIDENT) return failp(L, "NAR-ZONE-ALARM", w, "only Incidents go on an Alarm Board");
        int64_t dur = c->duration, seq = *maxseq + 1;
        if (em) {
            TRY(get_int(L, em, w, "duration", -1, 100, &dur));
            TRY(get_int(L, em, w, "seq", 0, INT32_MAX, &seq));
        }
        if (dur == 0) return failp(L, "NAR-P4-DURATION-DISCARD", w, "an Incident at DURATION 0 is already discarded");
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < s->p[b].nboard; i++)
                if (s->p[b].board[i].seq == seq) return failp(L, NULL, w, "seq must be unique");
        nar_bentry *be = &s->p[q].board[s->p[q].nboard++];
        be->owner = (uint8_t)owner;
        be->uid = (uint8_t)uid;
        be->duration = (int8_t)dur;
        be->seq = (uint32_t)seq;
        if (seq > *maxseq) *maxseq = seq;
    }
    return 0;
}

static const char *const top_keys[] = {"game", "shift", "active", "first", "phase", "step", "decision", "clock",
                                       "next_seq", "pending", "outcome", "players", "rng", NULL};
static const char *const player_keys[] = {
    "cards", "core", "hack", "power_orders", "clearance", "swipes", "scram_used", "shutdown",
    "shutdown_until", "review_used", "decked", "act_used", "doctrine_used", "edg_used", "timeouts",
    "connected", "disconnected_at", "effects", "deck", "deck_count", "hand", "hand_count", "roster",
    "equipment", "site", "board", "discard", NULL};

static int load_player_scalars(lctx *L, int q, const arb_tnode *pm, const char *pp)
{
    nar_state *s = L->s;
    nar_player *p = &s->p[q];
    int64_t v;
    v = p->core; TRY(get_int(L, pm, pp, "core", 0, 1000000, &v)); p->core = (int32_t)v;
    v = 0; TRY(get_int(L, pm, pp, "hack", 0, 255, &v)); p->hack = (uint8_t)v;
    v = 0; TRY(get_int(L, pm, pp, "power_orders", 0, 255, &v)); p->po = (uint8_t)v;
    v = NAR_SWIPES_BASE; TRY(get_int(L, pm, pp, "swipes", 0, NAR_SWIPES_CAP + 1, &v)); p->swipes = (uint8_t)v;
    v = 0; TRY(get_int(L, pm, pp, "shutdown_until", 0, UINT32_MAX, &v)); p->shutdown_until = (uint32_t)v;
    v = 0; TRY(get_int(L, pm, pp, "timeouts", 0, NAR_FORFEIT_TIMEOUTS, &v)); p->timeouts = (uint8_t)v;
    v = -1; TRY(get_int(L, pm, pp, "disconnected_at", -1, INT64_MAX / 2, &v)); p->disc_at = v;
    const arb_tnode *c = arb_tnode_get(pm, "clearance");
    if (c) {
        char w[160];
        subpath(w, sizeof w, pp, "clearance");
        int lv = -1;
        for (int i = 0; i < 4; i++)
            if (c->kind == ARB_T_STR && strcmp(c->s, arb_naramo__clearance_names[i]) == 0) lv = i;
        if (lv < 0) return failp(L, NULL, w, "clearance must be D, C, B or A");
        p->clearance = (uint8_t)lv;
    }
    p->review_used = s->shift > 0;
    TRY(get_bool(L, pm, pp, "scram_used", &p->scram_used));
    TRY(get_bool(L, pm, pp, "shutdown", &p->shutdown));
    TRY(get_bool(L, pm, pp, "review_used", &p->review_used));
    TRY(get_bool(L, pm, pp, "decked", &p->decked));
    TRY(get_bool(L, pm, pp, "act_used", &p->act_used));
    TRY(get_bool(L, pm, pp, "doctrine_used", &p->doctrine_used));
    TRY(get_bool(L, pm, pp, "edg_used", &p->edg_used));
    uint8_t conn = p->disc_at < 0;
    TRY(get_bool(L, pm, pp, "connected", &conn));
    if (conn != (p->disc_at < 0)) {
        char w[160];
        subpath(w, sizeof w, pp, "connected");
        return failp(L, "NAR-CLOCK-DISCONNECT", w, "connected must be false exactly when disconnected_at >= 0");
    }
    return 0;
}

static int load_effects(lctx *L, int q, const arb_tnode *pm, const char *pp)
{
    nar_player *p = &L->s->p[q];
    const arb_tnode *z;
    char zp[160], w[200];
    TRY(zone_arr(L, pm, pp, "effects", &z));
    if (!z) return 0;
    subpath(zp, sizeof zp, pp, "effects");
    static const char *const ek[] = {"uid", "card", "until_shift", NULL};
    int n = 0;
    for (const arb_tnode *e = z->first; e; e = e->next, n++) {
        snprintf(w, sizeof w, "%s.%d", zp, n);
        if (n >= NAR_EFFECTS) return failp(L, NULL, w, "at most 4 lasting effects");
        TRY(keys_ok(L, e, w, ek));
        int64_t uid = -1, until = 0;
        TRY(get_int(L, e, w, "uid", 0, p->ncards ? p->ncards - 1 : 0, &uid));
        TRY(get_int(L, e, w, "until_shift", 0, UINT32_MAX, &until));
        if (uid < 0 || uid >= p->ncards || nar_def(p, (int)uid)->effect != NAR_E_PR_DID)
            return failp(L, NULL, w, "uid must name this seat's Defense in Depth");
        p->effects[p->neffects].uid = (uint8_t)uid;
        p->effects[p->neffects++].until = (uint32_t)until;
    }
    return 0;
}

static int kind_by_name(const char *name)
{
    for (int k = 0; k < NK__COUNT; k++)
        if (k != NK_RECONNECT && strcmp(arb_naramo__decision_names[k], name) == 0) return k;
    return -1;
}

int arb_naramo__load(void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    nar_state tmp;
    nar_state *s = &tmp;
    lctx L;
    memset(&L, 0, sizeof L);
    L.err = err;
    L.s = s;
    memset(s, 0, sizeof *s);
    if (su && su->players != 2) return arb_error_set(err, ARB_EILLEGAL, "NAR-MATCH-TWO", "a NARAMO match has exactly two players");
    int rules = arb_naramo__rules(su, err);
    if (rules < 0) return rules;
    s->rules = (uint8_t)rules;
    TRY(keys_ok(&L, pos, "", top_keys));
    arb_rng_seed(&s->rng, su ? su->seed : 0);
    s->clock_on = su ? arb_options_get(&su->options, "clock", 1) != 0 : 1;
    s->strike_uid = -1;
    s->alarm_seq = -1;
    s->alarm_owner = s->alarm_uid = -1;
    s->winner = -1;
    int64_t v;
    const arb_tnode *g = arb_tnode_get(pos, "game");
    if (g && (g->kind != ARB_T_STR || strcmp(g->s, "naramo") != 0)) return failp(&L, NULL, "game", "this is a naramo position");
    v = 1; TRY(get_int(&L, pos, "", "shift", 0, INT32_MAX - 65536, &v)); s->shift = (uint32_t)v;
    v = 0; TRY(get_int(&L, pos, "", "active", 0, 1, &v)); s->active = (int8_t)v;
    v = s->shift ? s->active : -1; TRY(get_int(&L, pos, "", "first", -1, 1, &v)); s->first = (int8_t)v;
    if ((s->shift == 0) != (s->first < 0)) return failp(&L, "NAR-SETUP-ORDER", "first", "the first player is drawn after the Reviews (shift 0 <=> first -1)");
    const arb_tnode *r = arb_tnode_get(pos, "rng");
    if (r) {
        if (r->kind != ARB_T_ARR || r->n != 4) return failp(&L, NULL, "rng", "rng is an array of 4 integers");
        int i = 0, nz = 0;
        for (const arb_tnode *e = r->first; e; e = e->next, i++) {
            if (e->kind != ARB_T_INT) return failp(&L, NULL, "rng", "rng is an array of 4 integers");
            s->rng.s[i] = (uint64_t)e->i;
            nz |= e->i != 0;
        }
        if (!nz) return failp(&L, NULL, "rng", "an all-zero xoshiro state is invalid");
    }
    const arb_tnode *cl = arb_tnode_get(pos, "clock");
    if (cl) {
        static const char *const ck[] = {"enabled", "shift_ms", "match_ms", NULL};
        TRY(keys_ok(&L, cl, "clock", ck));
        TRY(get_bool(&L, cl, "clock", "enabled", &s->clock_on));
        v = 0; TRY(get_int(&L, cl, "clock", "shift_ms", 0, UINT32_MAX, &v)); s->shift_ms = (uint32_t)v;
        v = s->shift_ms; TRY(get_int(&L, cl, "clock", "match_ms", s->shift_ms, INT64_MAX / 2, &v)); s->match_ms = (uint64_t)v;
    }
    const arb_tnode *dn = arb_tnode_get(pos, "decision");
    if (dn) {
        static const char *const dk[] = {"seat", "kind", "clock_left_ms", NULL};
        TRY(keys_ok(&L, dn, "decision", dk));
    }
    const arb_tnode *oc = arb_tnode_get(pos, "outcome");
    if (oc) {
        static const char *const ok[] = {"over", "winner", "reason", NULL};
        TRY(keys_ok(&L, oc, "outcome", ok));
        TRY(get_bool(&L, oc, "outcome", "over", &s->over));
        v = -1; TRY(get_int(&L, oc, "outcome", "winner", -1, 1, &v)); s->winner = (int8_t)v;
        const arb_tnode *rs = arb_tnode_get(oc, "reason");
        if (rs) {
            int k = -1;
            for (int i = 0; i < NR__COUNT; i++)
                if (rs->kind == ARB_T_STR && strcmp(rs->s, arb_naramo__outcome_names[i]) == 0) k = i;
            if (k < 0) return failp(&L, NULL, "outcome.reason", "unknown reason");
            s->reason = (uint8_t)k;
        }
    }
    /* players */
    const arb_tnode *pl = arb_tnode_get(pos, "players");
    if (!pl || pl->kind != ARB_T_ARR || pl->n != 2) return failp(&L, "NAR-MATCH-TWO", "players", "players must be an array of exactly 2 maps");
    const arb_tnode *pm[2] = {arb_tnode_at(pl, 0), arb_tnode_at(pl, 1)};
    char pp[2][32];
    for (int q = 0; q < 2; q++) {
        snprintf(pp[q], sizeof pp[q], "players.%d", q);
        TRY(keys_ok(&L, pm[q], pp[q], player_keys));
        nar_player *p = &s->p[q];
        p->core = NAR_NOMINAL_K;
        p->disc_at = -1;
        const arb_tnode *cards = arb_tnode_get(pm[q], "cards");
        if (cards) {
            char w[160];
            subpath(w, sizeof w, pp[q], "cards");
            if (cards->kind != ARB_T_ARR) return failp(&L, NULL, w, "expected an array of card ids");
            if (cards->n > NAR_CARDS) return failp(&L, NULL, w, "at most 64 cards per seat");
            int i = 0;
            for (const arb_tnode *e = cards->first; e; e = e->next, i++) {
                char ew[180];
                snprintf(ew, sizeof ew, "%s.%d", w, i);
                int c = e->kind == ARB_T_STR ? find_card(e->s) : -1;
                if (c < 0) return failp(&L, "NAR-CARDTYPES-FIVE", ew, "unknown card");
                p->card[i] = (uint16_t)c;
            }
            p->ncards = (uint8_t)i;
            L.explicit_[q] = 1;
        }
        TRY(load_player_scalars(&L, q, pm[q], pp[q]));
        TRY(load_zones(&L, q, pm[q], pp[q]));
    }
    int64_t maxseq = -1;
    for (int q = 0; q < 2; q++) TRY(load_board(&L, q, pm[q], pp[q], &maxseq));
    for (int q = 0; q < 2; q++) {
        nar_player *p = &s->p[q];
        TRY(load_effects(&L, q, pm[q], pp[q]));
        if (L.explicit_[q])
            for (int i = 0; i < p->ncards; i++)
                if (!L.seen[q][i]) {
                    char w[160];
                    snprintf(w, sizeof w, "%s.cards.%d", pp[q], i);
                    return failp(&L, NULL, w, "this card is in no zone");
                }
        int64_t hc = p->nhand, dc = p->ndeck;
        char w[160];
        TRY(get_int(&L, pm[q], pp[q], "hand_count", p->nhand, p->nhand, &hc));
        TRY(get_int(&L, pm[q], pp[q], "deck_count", p->ndeck, p->ndeck, &dc));
        if (p->disc_at >= 0 && (uint64_t)p->disc_at > s->match_ms) {
            subpath(w, sizeof w, pp[q], "disconnected_at");
            return failp(&L, NULL, w, "disconnected_at is later than clock.match_ms");
        }
        if (p->disc_at >= 0 && (uint64_t)p->disc_at + NAR_GRACE_MS <= s->match_ms && !s->over) {
            subpath(w, sizeof w, pp[q], "disconnected_at");
            return failp(&L, "NAR-CLOCK-DISCONNECT", w, "the reconnect grace has already expired");
        }
    }
    v = maxseq + 1; TRY(get_int(&L, pos, "", "next_seq", maxseq + 1, INT32_MAX - 65536, &v)); s->next_seq = (uint32_t)v;
    /* step and pending */
    int kind = s->over ? NK_OVER : s->shift == 0 ? NK_REVIEW : NK_OPS;
    const arb_tnode *stp = arb_tnode_get(pos, "step");
    if (stp) {
        if (stp->kind != ARB_T_STR || (kind = kind_by_name(stp->s)) < 0) return failp(&L, NULL, "step", "unknown step");
    }
    s->kind = (uint8_t)kind;
    const arb_tnode *ph = arb_tnode_get(pos, "phase");
    if (ph && (ph->kind != ARB_T_STR || strcmp(ph->s, arb_naramo__phase_of((unsigned)kind)) != 0))
        return failp(&L, NULL, "phase", "phase does not match step");
    if ((kind == NK_OVER) != (s->over != 0)) return failp(&L, NULL, "step", "step over <=> outcome.over");
    if ((kind == NK_REVIEW) != (s->shift == 0)) return failp(&L, "NAR-SETUP-ORDER", "step", "step review <=> shift 0");
    const arb_tnode *pe = arb_tnode_get(pos, "pending");
    nar_player *A = &s->p[s->active];
    if (pe) {
        static const char *const pk[] = {"strike_uid", "strike_value", "alarm_seq", "alarm_owner", "alarm_uid",
                                         "deployed", "order", NULL};
        TRY(keys_ok(&L, pe, "pending", pk));
        v = -1; TRY(get_int(&L, pe, "pending", "strike_uid", -1, NAR_CARDS - 1, &v)); s->strike_uid = (int8_t)v;
        v = 0; TRY(get_int(&L, pe, "pending", "strike_value", 0, 30000, &v)); s->strike_value = (int16_t)v;
        v = -1; TRY(get_int(&L, pe, "pending", "alarm_seq", -1, INT32_MAX, &v)); s->alarm_seq = (int32_t)v;
        v = -1; TRY(get_int(&L, pe, "pending", "alarm_owner", -1, 1, &v)); s->alarm_owner = (int8_t)v;
        v = -1; TRY(get_int(&L, pe, "pending", "alarm_uid", -1, NAR_CARDS - 1, &v)); s->alarm_uid = (int8_t)v;
        v = 0; TRY(get_int(&L, pe, "pending", "deployed", 0, 2, &v)); s->deployed = (uint8_t)v;
        const arb_tnode *o = arb_tnode_get(pe, "order");
        if (o) {
            if (o->kind != ARB_T_ARR) return failp(&L, NULL, "pending.order", "expected an array of site uids");
            int i = 0;
            for (const arb_tnode *e = o->first; e; e = e->next, i++) {
                char w[64];
                snprintf(w, sizeof w, "pending.order.%d", i);
                if (i >= NAR_SITE_MAX || e->kind != ARB_T_INT) return failp(&L, NULL, w, "expected a site uid");
                int in = 0;
                for (int k = 0; k < A->nsite; k++) in |= A->site[k] == e->i;
                for (int k = 0; k < s->order_n; k++) in &= s->order[k] != e->i;
                if (!in) return failp(&L, "NAR-P1-SSE-ORDER", w, "not a pending SHIFT START Facility of the active player");
                const nar_carddef *c = nar_def(A, (int)e->i);
                if (c->effect != NAR_E_SS_CORE100 && c->effect != NAR_E_SS_CORE50 && c->effect != NAR_E_SS_CLEARANCE &&
                    c->effect != NAR_E_SS_REACTOR_HALL)
                    return failp(&L, "NAR-P1-SSE-ORDER", w, "that Facility has no SHIFT START effect");
                s->order[s->order_n++] = (uint8_t)e->i;
            }
        }
    }
    /* consistency of the open prompt */
    int striking = kind == NK_BLOCK || kind == NK_STRIKE;
    if (striking != (s->strike_uid >= 0)) return failp(&L, NULL, "pending.strike_uid", "a strike is pending exactly in steps block and strike");
    if (striking) {
        int ok = 0;
        for (int i = 0; i < A->nroster; i++) ok |= A->roster[i] == s->strike_uid;
        if (!ok || !(nar_def(A, s->strike_uid)->flags & NAR_RAIDER))
            return failp(&L, "NAR-P2-STRIKE", "pending.strike_uid", "the striker must be a RAIDER in the active Roster");
    }
    if ((kind == NK_ALARM) != (s->alarm_uid >= 0) || (kind == NK_ALARM) != (s->alarm_owner >= 0))
        return failp(&L, NULL, "pending.alarm_uid", "an alarm prompt is pending exactly in step alarm");
    if (kind == NK_ALARM) {
        int ok = 0;
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < s->p[b].nboard; i++) {
                const nar_bentry *e = &s->p[b].board[i];
                if (e->owner == s->alarm_owner && e->uid == s->alarm_uid && (int64_t)e->seq == s->alarm_seq &&
                    nar_def(&s->p[e->owner], e->uid)->effect == NAR_E_AL_GUBBY)
                    ok = 1;
            }
        if (!ok) return failp(&L, "NAR-TIME-GUBBY", "pending.alarm_uid", "the open alarm must be a Gubby on a board with seq = alarm_seq");
    }
    if (kind == NK_ORDER ? !arb_naramo__can_ss_order(s) : s->order_n != 0)
        return failp(&L, "NAR-P1-SSE-ORDER", "pending.order", "an order prompt needs two different pending SHIFT START cards (and only then)");
    if (kind == NK_DISCARD && A->nhand <= NAR_HAND_END)
        return failp(&L, "NAR-P4-HAND", "step", "discard is owed only above 7 cards in hand");
    if (!s->over && s->clock_on && s->shift_ms >= NAR_CLOCK_MS)
        return failp(&L, "NAR-CLOCK-SHIFT90", "clock.shift_ms", "the clock has already run out");
    if (!s->over) {
        arb_action one[1];
        if (arb_naramo__legal(s, one, 1) == 0) return failp(&L, NULL, "step", "the open prompt has no legal answer");
    }
    memcpy(st, s, sizeof *s);
    return ARB_OK;
}
