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
    arb_tree_add_str(t, m, "card", nar_def(p, uid)->pub.id);
}

void arb_naramo__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    (void)g;
    const nar_state *s = st;
    arb_decision d = arb_naramo__decision(g, st);
    arb_tree_add_str(t, root, "game", "naramo");
    /* The rules version: public, and part of the hash from naramo-2 on. */
    arb_tree_add_str(t, root, "rules", arb_game_rules_name(&arb_game_naramo, s->rules));
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
    arb_tree_add_str(t, oc, "reason", arb_naramo__reason_names[s->reason < NAR_R_COUNT ? s->reason : 0]);
    if (view == ARB_VIEW_ALL) {
        arb_tree_add_rng(t, root, "rng", &s->rng);
    }
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int q = 0; q < 2; q++) {
        const nar_player *p = &s->p[q];
        arb_tnode *m = arb_tree_add_map(t, pl, NULL);
        if (view == ARB_VIEW_ALL) {
            arb_tnode *c = arb_tree_add_arr(t, m, "cards");
            for (int i = 0; i < p->ncards; i++) arb_tree_add_str(t, c, NULL, nar_def(p, i)->pub.id);
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
            arb_tree_add_str(t, e, "card", nar_def(p, p->effects[i].uid)->pub.id);
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
            arb_tree_add_str(t, e, "card", nar_def(p, uid)->pub.id);
            arb_tree_add_bool(t, e, "exhausted", (p->flags[uid] & NAR_F_EXHAUSTED) != 0);
            arb_tree_add_bool(t, e, "stationed", (p->flags[uid] & NAR_F_STATIONED) != 0);
        }
        arb_tnode *eq = arb_tree_add_arr(t, m, "equipment");
        for (int i = 0; i < p->nequip; i++) {
            arb_tnode *e = arb_tree_add_map(t, eq, NULL);
            arb_tree_add_int(t, e, "uid", p->equip[i]);
            arb_tree_add_str(t, e, "card", nar_def(p, p->equip[i])->pub.id);
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
            arb_tree_add_str(t, e, "card", nar_def(&s->p[b->owner], b->uid)->pub.id);
            arb_tree_add_int(t, e, "duration", b->duration);
            arb_tree_add_int(t, e, "seq", b->seq);
        }
        arb_tnode *di = arb_tree_add_arr(t, m, "discard");
        for (int i = 0; i < p->ndiscard; i++) card_obj(t, di, p, p->discard[i]);
    }
}

/* ---- load_position --------------------------------------------------
 * Read through the core position reader (arb_pos_*): the reader tracks the
 * path, so every helper here reads at "the current node" and descends with
 * arb_pos_push / arb_pos_index. */
#define TRY ARB_POS_TRY

typedef struct lctx {
    arb_pos P;
    nar_state *s;
    int explicit_[2];       /* seat has a `cards` list */
    uint8_t seen[2][NAR_CARDS];
    int64_t maxseq;         /* highest board seq read so far */
} lctx;

/* One zone entry at the reader's path: returns the uid (>= 0) or an error
 * (< 0). extra lists the zone's own keys; the entry map is returned in *mp
 * (NULL for scalars). */
static int zone_entry(lctx *L, int seat, const arb_tnode *e, const char *const *extra, const arb_tnode **mp)
{
    arb_pos *P = &L->P;
    nar_player *p = &L->s->p[seat];
    *mp = NULL;
    int uid = -1, card = -1;
    const arb_tnode *u = NULL, *c = NULL;
    if (e->kind == ARB_T_STR) {
        c = e;
    } else if (e->kind == ARB_T_INT) {
        u = e;
    } else if (e->kind == ARB_T_MAP) {
        const char *allowed[12] = {"uid", "card"};
        int k = 2;
        for (const char *const *x = extra; x && *x && k < 11; x++) allowed[k++] = *x;
        allowed[k] = NULL;
        TRY(arb_pos_keys(P, e, allowed));
        *mp = e;
        u = arb_tnode_get(e, "uid");
        c = arb_tnode_get(e, "card");
        if (!u && !c) return arb_pos_fail(P, NULL, NULL, "an entry needs a card or a uid");
    } else {
        return arb_pos_fail(P, NULL, NULL, "expected a card id, a uid or a card object");
    }
    const char *ck = c == e ? NULL : "card", *uk = u == e ? NULL : "uid";
    if (c) TRY(arb_pos_card_node(P, c, ck, "NAR-CARDTYPES-FIVE", &card));
    if (u) {
        int64_t v;
        if (!L->explicit_[seat]) return arb_pos_fail(P, uk, NULL, "a uid needs players.N.cards");
        TRY(arb_pos_int_node(P, u, uk, 0, p->ncards - 1, &v));
        uid = (int)v;
        if (card >= 0 && card != p->card[uid]) return arb_pos_fail(P, "card", NULL, "card does not match the uid");
    }
    if (uid < 0) {
        if (L->explicit_[seat]) return arb_pos_fail(P, NULL, NULL, "with players.N.cards every entry needs a uid");
        if (p->ncards >= NAR_CARDS) return arb_pos_fail(P, NULL, NULL, "too many cards for one seat (64)");
        uid = p->ncards++;
        p->card[uid] = (uint16_t)card;
    }
    if (L->seen[seat][uid]) return arb_pos_fail(P, NULL, NULL, "this card is already in another zone");
    L->seen[seat][uid] = 1;
    return uid;
}

/* A zone of the player map pm: at most max entries (else max_rule /
 * max_msg), each read by fn, or, for a plain list of uids (fn NULL), appended
 * to pz->out (of card type pz->type when >= 0). An absent zone leaves the
 * state untouched. */
typedef int (*entry_fn)(lctx *L, int q, const arb_tnode *e);
typedef struct plain_zone {
    uint8_t *out, *n;
    int type;
    const char *rule, *msg;
} plain_zone;

static int load_zone(lctx *L, int q, const arb_tnode *pm, const char *key, int max, const char *max_rule,
                     const char *max_msg, entry_fn fn, const plain_zone *pz)
{
    const arb_tnode *z, *em;
    TRY(arb_pos_arr(&L->P, pm, key, UINT32_MAX, NULL, &z));
    if (!z) return 0;
    size_t mk = arb_pos_push(&L->P, key);
    int i = 0;
    for (const arb_tnode *e = z->first; e; e = e->next, i++) {
        size_t mi = arb_pos_index(&L->P, i);
        if (i >= max) return arb_pos_fail(&L->P, NULL, max_rule, "%s", max_msg ? max_msg : "too many cards");
        if (fn) {
            TRY(fn(L, q, e));
        } else {
            int uid;
            TRY(uid = zone_entry(L, q, e, NULL, &em));
            if (pz->type >= 0 && nar_def(&L->s->p[q], uid)->type != pz->type)
                return arb_pos_fail(&L->P, NULL, pz->rule, "%s", pz->msg);
            pz->out[(*pz->n)++] = (uint8_t)uid;
        }
        arb_pos_pop(&L->P, mi);
    }
    arb_pos_pop(&L->P, mk);
    return 0;
}

static int roster_entry(lctx *L, int q, const arb_tnode *e)
{
    static const char *const ex[] = {"exhausted", "stationed", NULL};
    nar_player *p = &L->s->p[q];
    const arb_tnode *em;
    int uid;
    TRY(uid = zone_entry(L, q, e, ex, &em));
    const nar_carddef *c = nar_def(p, uid);
    if (c->type != NAR_T_PERSONNEL) return arb_pos_fail(&L->P, NULL, "NAR-ZONE-ROSTER", "only Personnel go in the Roster");
    if (c->flags & NAR_UNIQUE)
        for (int k = 0; k < p->nroster; k++)
            if (p->card[p->roster[k]] == p->card[uid])
                return arb_pos_fail(&L->P, NULL, "NAR-DECK-UNIQUE-PLAY", "a Unique card is already in play");
    uint8_t ex1 = 0, st1 = 0;
    TRY(arb_pos_flag(&L->P, em, "exhausted", &ex1));
    TRY(arb_pos_flag(&L->P, em, "stationed", &st1));
    p->flags[uid] = (uint8_t)((ex1 ? NAR_F_EXHAUSTED : 0) | (st1 ? NAR_F_STATIONED : 0));
    p->roster[p->nroster++] = (uint8_t)uid;
    return 0;
}

static int equip_entry(lctx *L, int q, const arb_tnode *e)
{
    static const char *const ex[] = {"host", NULL};
    nar_player *p = &L->s->p[q];
    const arb_tnode *em;
    int uid;
    TRY(uid = zone_entry(L, q, e, ex, &em));
    if (nar_def(p, uid)->type != NAR_T_EQUIPMENT)
        return arb_pos_fail(&L->P, NULL, "NAR-P2-PLAY-EQUIPMENT", "only Equipment attaches to Personnel");
    int64_t host = -1;
    TRY(arb_pos_int(&L->P, em, "host", 0, NAR_CARDS - 1, &host));
    int found = 0;
    for (int k = 0; k < p->nroster; k++) found |= p->roster[k] == host;
    if (!found) return arb_pos_fail(&L->P, NULL, "NAR-P2-PLAY-EQUIPMENT", "host must be the uid of a Personnel in this Roster");
    p->equip[p->nequip] = (uint8_t)uid;
    p->equip_host[p->nequip++] = (uint8_t)host;
    return 0;
}

static int load_zones(lctx *L, int q, const arb_tnode *pm)
{
    nar_player *p = &L->s->p[q];
    const plain_zone deck = {p->deck, &p->ndeck, -1, NULL, NULL}, hand = {p->hand, &p->nhand, -1, NULL, NULL},
                     site = {p->site, &p->nsite, NAR_T_FACILITY, "NAR-ZONE-SITE", "only Facilities go in the Site"},
                     discard = {p->discard, &p->ndiscard, -1, NULL, NULL};
    TRY(load_zone(L, q, pm, "deck", NAR_CARDS, NULL, NULL, NULL, &deck));
    for (int a = 0, b = p->ndeck - 1; a < b; a++, b--) { /* exported top first; stored top last */
        uint8_t t = p->deck[a]; p->deck[a] = p->deck[b]; p->deck[b] = t;
    }
    TRY(load_zone(L, q, pm, "hand", NAR_CARDS, NULL, NULL, NULL, &hand));
    TRY(load_zone(L, q, pm, "roster", NAR_ROSTER_MAX, "NAR-LIMIT-ROSTER", "a Roster holds at most 7 Personnel", roster_entry, NULL));
    TRY(load_zone(L, q, pm, "equipment", NAR_CARDS, NULL, NULL, equip_entry, NULL));
    TRY(load_zone(L, q, pm, "site", NAR_SITE_MAX, "NAR-LIMIT-SITE", "a Site holds at most 6 Facilities", NULL, &site));
    TRY(load_zone(L, q, pm, "discard", NAR_CARDS, NULL, NULL, NULL, &discard));
    return 0;
}

static int board_entry(lctx *L, int q, const arb_tnode *e)
{
    static const char *const ex[] = {"owner", "duration", "seq", NULL};
    nar_state *s = L->s;
    int64_t owner = q;
    if (e->kind == ARB_T_MAP) TRY(arb_pos_int(&L->P, e, "owner", 0, 1, &owner));
    const arb_tnode *em;
    int uid;
    TRY(uid = zone_entry(L, (int)owner, e, ex, &em));
    const nar_carddef *c = nar_def(&s->p[owner], uid);
    if (c->type != NAR_T_INCIDENT) return arb_pos_fail(&L->P, NULL, "NAR-ZONE-ALARM", "only Incidents go on an Alarm Board");
    int64_t dur = c->duration, seq = L->maxseq + 1;
    TRY(arb_pos_int(&L->P, em, "duration", -1, 100, &dur));
    TRY(arb_pos_int(&L->P, em, "seq", 0, INT32_MAX, &seq));
    if (dur == 0) return arb_pos_fail(&L->P, NULL, "NAR-P4-DURATION-DISCARD", "an Incident at DURATION 0 is already discarded");
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < s->p[b].nboard; k++)
            if (s->p[b].board[k].seq == seq) return arb_pos_fail(&L->P, NULL, NULL, "seq must be unique");
    nar_bentry *be = &s->p[q].board[s->p[q].nboard++];
    be->owner = (uint8_t)owner;
    be->uid = (uint8_t)uid;
    be->duration = (int8_t)dur;
    be->seq = (uint32_t)seq;
    if (seq > L->maxseq) L->maxseq = seq;
    return 0;
}

static const char *const top_keys[] = {"game", "rules", "shift", "active", "first", "phase", "step", "decision", "clock",
                                       "next_seq", "pending", "outcome", "players", "rng", NULL};
static const char *const player_keys[] = {
    "cards", "core", "hack", "power_orders", "clearance", "swipes", "scram_used", "shutdown",
    "shutdown_until", "review_used", "decked", "act_used", "doctrine_used", "edg_used", "timeouts",
    "connected", "disconnected_at", "effects", "deck", "deck_count", "hand", "hand_count", "roster",
    "equipment", "site", "board", "discard", NULL};

static int load_player_scalars(lctx *L, int q, const arb_tnode *pm)
{
    arb_pos *P = &L->P;
    nar_state *s = L->s;
    nar_player *p = &s->p[q];
    int64_t v;
    v = p->core; TRY(arb_pos_int(P, pm, "core", 0, NAR_CORE_LOAD_MAX_K, &v)); p->core = (int32_t)v;
    v = 0; TRY(arb_pos_int(P, pm, "hack", 0, NAR_COUNTER_MAX, &v)); p->hack = (uint8_t)v;
    v = 0; TRY(arb_pos_int(P, pm, "power_orders", 0, NAR_COUNTER_MAX, &v)); p->po = (uint8_t)v;
    v = NAR_SWIPES_BASE; TRY(arb_pos_int(P, pm, "swipes", 0, NAR_SWIPES_CAP + 1, &v)); p->swipes = (uint8_t)v;
    v = 0; TRY(arb_pos_int(P, pm, "shutdown_until", 0, UINT32_MAX, &v)); p->shutdown_until = (uint32_t)v;
    v = 0; TRY(arb_pos_int(P, pm, "timeouts", 0, NAR_FORFEIT_TIMEOUTS, &v)); p->timeouts = (uint8_t)v;
    v = -1; TRY(arb_pos_int(P, pm, "disconnected_at", -1, INT64_MAX / 2, &v)); p->disc_at = v;
    int lv = p->clearance;
    TRY(arb_pos_enum(P, pm, "clearance", arb_naramo__clearance_names, 4, &lv));
    p->clearance = (uint8_t)lv;
    p->review_used = s->shift > 0;
    TRY(arb_pos_flag(P, pm, "scram_used", &p->scram_used));
    TRY(arb_pos_flag(P, pm, "shutdown", &p->shutdown));
    TRY(arb_pos_flag(P, pm, "review_used", &p->review_used));
    TRY(arb_pos_flag(P, pm, "decked", &p->decked));
    TRY(arb_pos_flag(P, pm, "act_used", &p->act_used));
    TRY(arb_pos_flag(P, pm, "doctrine_used", &p->doctrine_used));
    TRY(arb_pos_flag(P, pm, "edg_used", &p->edg_used));
    uint8_t conn = p->disc_at < 0;
    TRY(arb_pos_flag(P, pm, "connected", &conn));
    if (conn != (p->disc_at < 0))
        return arb_pos_fail(P, "connected", "NAR-CLOCK-DISCONNECT", "connected must be false exactly when disconnected_at >= 0");
    return 0;
}

static int effect_entry(lctx *L, int q, const arb_tnode *e)
{
    static const char *const ek[] = {"uid", "card", "until_shift", NULL};
    nar_player *p = &L->s->p[q];
    TRY(arb_pos_keys(&L->P, e, ek));
    int64_t uid = -1, until = 0;
    TRY(arb_pos_int(&L->P, e, "uid", 0, p->ncards ? p->ncards - 1 : 0, &uid));
    TRY(arb_pos_int(&L->P, e, "until_shift", 0, UINT32_MAX, &until));
    if (uid < 0 || uid >= p->ncards || nar_def(p, (int)uid)->effect != NAR_FX_PR_DID)
        return arb_pos_fail(&L->P, NULL, NULL, "uid must name this seat's Defense in Depth");
    p->effects[p->neffects].uid = (uint8_t)uid;
    p->effects[p->neffects++].until = (uint32_t)until;
    return 0;
}

static int kind_by_name(const char *name)
{
    for (int k = 0; k < NAR_D_COUNT; k++)
        if (k != NAR_D_RECONNECT && strcmp(arb_naramo__decision_names[k], name) == 0) return k;
    return -1;
}

/* The `cards` list, when given: every zone then names uids into it. */
static int load_cards(lctx *L, int q, const arb_tnode *pm)
{
    nar_player *p = &L->s->p[q];
    const arb_tnode *cards;
    TRY(arb_pos_arr(&L->P, pm, "cards", NAR_CARDS, NULL, &cards));
    if (!cards) return 0;
    size_t mk = arb_pos_push(&L->P, "cards");
    int i = 0, c;
    for (const arb_tnode *e = cards->first; e; e = e->next, i++) {
        size_t mi = arb_pos_index(&L->P, i);
        TRY(arb_pos_card_node(&L->P, e, NULL, "NAR-CARDTYPES-FIVE", &c));
        p->card[i] = (uint16_t)c;
        arb_pos_pop(&L->P, mi);
    }
    arb_pos_pop(&L->P, mk);
    p->ncards = (uint8_t)i;
    L->explicit_[q] = 1;
    return 0;
}

/* After every zone: each listed card placed, counts and the clock agree. */
static int check_player(lctx *L, int q, const arb_tnode *pm)
{
    nar_state *s = L->s;
    nar_player *p = &s->p[q];
    if (L->explicit_[q])
        for (int i = 0; i < p->ncards; i++)
            if (!L->seen[q][i]) {
                char w[32];
                snprintf(w, sizeof w, "cards.%d", i);
                return arb_pos_fail(&L->P, w, NULL, "this card is in no zone");
            }
    int64_t hc = p->nhand, dc = p->ndeck;
    TRY(arb_pos_int(&L->P, pm, "hand_count", p->nhand, p->nhand, &hc));
    TRY(arb_pos_int(&L->P, pm, "deck_count", p->ndeck, p->ndeck, &dc));
    if (p->disc_at >= 0 && (uint64_t)p->disc_at > s->match_ms)
        return arb_pos_fail(&L->P, "disconnected_at", NULL, "disconnected_at is later than clock.match_ms");
    if (p->disc_at >= 0 && (uint64_t)p->disc_at + NAR_GRACE_MS <= s->match_ms && !s->over)
        return arb_pos_fail(&L->P, "disconnected_at", "NAR-CLOCK-DISCONNECT", "the reconnect grace has already expired");
    return 0;
}

/* Root scalars: shift, active, first, rng, clock, decision keys, outcome. */
static int load_root(lctx *L, const arb_tnode *pos)
{
    arb_pos *P = &L->P;
    nar_state *s = L->s;
    int64_t v;
    v = 1; TRY(arb_pos_int(P, pos, "shift", 0, INT32_MAX - 65536, &v)); s->shift = (uint32_t)v;
    v = 0; TRY(arb_pos_int(P, pos, "active", 0, 1, &v)); s->active = (int8_t)v;
    v = s->shift ? s->active : -1; TRY(arb_pos_int(P, pos, "first", -1, 1, &v)); s->first = (int8_t)v;
    if ((s->shift == 0) != (s->first < 0))
        return arb_pos_fail(P, "first", "NAR-SETUP-ORDER", "the first player is drawn after the Reviews (shift 0 <=> first -1)");
    ARB_POS_TRY(arb_pos_rng(P, pos, "rng", &s->rng));
    static const char *const ck[] = {"enabled", "shift_ms", "match_ms", NULL};
    static const char *const dk[] = {"seat", "kind", "clock_left_ms", NULL};
    static const char *const ok[] = {"over", "winner", "reason", NULL};
    const arb_tnode *cl = arb_tnode_get(pos, "clock"), *dn = arb_tnode_get(pos, "decision"), *oc = arb_tnode_get(pos, "outcome");
    size_t mk = arb_pos_push(P, "clock");
    if (cl) {
        TRY(arb_pos_keys(P, cl, ck));
        TRY(arb_pos_flag(P, cl, "enabled", &s->clock_on));
        v = 0; TRY(arb_pos_int(P, cl, "shift_ms", 0, UINT32_MAX, &v)); s->shift_ms = (uint32_t)v;
        v = s->shift_ms; TRY(arb_pos_int(P, cl, "match_ms", s->shift_ms, INT64_MAX / 2, &v)); s->match_ms = (uint64_t)v;
    }
    arb_pos_pop(P, mk);
    mk = arb_pos_push(P, "decision");
    if (dn) TRY(arb_pos_keys(P, dn, dk));
    arb_pos_pop(P, mk);
    mk = arb_pos_push(P, "outcome");
    if (oc) {
        TRY(arb_pos_keys(P, oc, ok));
        TRY(arb_pos_flag(P, oc, "over", &s->over));
        v = -1; TRY(arb_pos_int(P, oc, "winner", -1, 1, &v)); s->winner = (int8_t)v;
        const arb_tnode *rs = arb_tnode_get(oc, "reason");
        int k = rs && rs->kind == ARB_T_STR ? arb_game_reason_find(&arb_game_naramo, rs->s) : -1;
        if (rs && k < 0) return arb_pos_fail(P, "reason", NULL, "unknown reason");
        if (rs) s->reason = (uint8_t)k;
    }
    arb_pos_pop(P, mk);
    return 0;
}

/* pending: the open prompt's sub-state (strike, alarm, deploy, SSE order). */
static int load_pending(lctx *L, const arb_tnode *pe)
{
    static const char *const pk[] = {"strike_uid", "strike_value", "alarm_seq", "alarm_owner", "alarm_uid",
                                     "deployed", "order", NULL};
    arb_pos *P = &L->P;
    nar_state *s = L->s;
    nar_player *A = &s->p[s->active];
    int64_t v;
    size_t mk = arb_pos_push(P, "pending");
    TRY(arb_pos_keys(P, pe, pk));
    v = -1; TRY(arb_pos_int(P, pe, "strike_uid", -1, NAR_CARDS - 1, &v)); s->strike_uid = (int8_t)v;
    v = 0; TRY(arb_pos_int(P, pe, "strike_value", 0, NAR_STRIKE_LOAD_MAX_K, &v)); s->strike_value = (int16_t)v;
    v = -1; TRY(arb_pos_int(P, pe, "alarm_seq", -1, INT32_MAX, &v)); s->alarm_seq = (int32_t)v;
    v = -1; TRY(arb_pos_int(P, pe, "alarm_owner", -1, 1, &v)); s->alarm_owner = (int8_t)v;
    v = -1; TRY(arb_pos_int(P, pe, "alarm_uid", -1, NAR_CARDS - 1, &v)); s->alarm_uid = (int8_t)v;
    v = 0; TRY(arb_pos_int(P, pe, "deployed", 0, 2, &v)); s->deployed = (uint8_t)v;
    const arb_tnode *o;
    TRY(arb_pos_arr(P, pe, "order", UINT32_MAX, NULL, &o));
    size_t mo = arb_pos_push(P, "order");
    int i = 0;
    for (const arb_tnode *e = o ? o->first : NULL; e; e = e->next, i++) {
        size_t mi = arb_pos_index(P, i);
        if (i >= NAR_SITE_MAX || e->kind != ARB_T_INT) return arb_pos_fail(P, NULL, NULL, "expected a site uid");
        int in = 0;
        for (int k = 0; k < A->nsite; k++) in |= A->site[k] == e->i;
        for (int k = 0; k < s->order_n; k++) in &= s->order[k] != e->i;
        if (!in) return arb_pos_fail(P, NULL, "NAR-P1-SSE-ORDER", "not a pending SHIFT START Facility of the active player");
        const nar_carddef *c = nar_def(A, (int)e->i);
        if (c->effect != NAR_FX_SS_CORE && c->effect != NAR_FX_SS_CLEARANCE && c->effect != NAR_FX_SS_REACTOR_HALL)
            return arb_pos_fail(P, NULL, "NAR-P1-SSE-ORDER", "that Facility has no SHIFT START effect");
        s->order[s->order_n++] = (uint8_t)e->i;
        arb_pos_pop(P, mi);
    }
    arb_pos_pop(P, mo);
    arb_pos_pop(P, mk);
    return 0;
}

/* Consistency of the open prompt with the rest of the position. */
static int check_prompt(lctx *L, int kind)
{
    arb_pos *P = &L->P;
    nar_state *s = L->s;
    nar_player *A = &s->p[s->active];
    int striking = kind == NAR_D_BLOCK || kind == NAR_D_STRIKE;
    if (striking != (s->strike_uid >= 0))
        return arb_pos_fail(P, "pending.strike_uid", NULL, "a strike is pending exactly in steps block and strike");
    if (striking) {
        int ok = 0;
        for (int i = 0; i < A->nroster; i++) ok |= A->roster[i] == s->strike_uid;
        if (!ok || !(nar_def(A, s->strike_uid)->flags & NAR_RAIDER))
            return arb_pos_fail(P, "pending.strike_uid", "NAR-P2-STRIKE", "the striker must be a RAIDER in the active Roster");
    }
    if ((kind == NAR_D_ALARM) != (s->alarm_uid >= 0) || (kind == NAR_D_ALARM) != (s->alarm_owner >= 0))
        return arb_pos_fail(P, "pending.alarm_uid", NULL, "an alarm prompt is pending exactly in step alarm");
    if (kind == NAR_D_ALARM) {
        int ok = 0;
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < s->p[b].nboard; i++) {
                const nar_bentry *e = &s->p[b].board[i];
                if (e->owner == s->alarm_owner && e->uid == s->alarm_uid && (int64_t)e->seq == s->alarm_seq &&
                    nar_def(&s->p[e->owner], e->uid)->effect == NAR_FX_AL_GUBBY)
                    ok = 1;
            }
        if (!ok)
            return arb_pos_fail(P, "pending.alarm_uid", "NAR-TIME-GUBBY", "the open alarm must be a Gubby on a board with seq = alarm_seq");
    }
    if (kind == NAR_D_ORDER ? !arb_naramo__can_ss_order(s) : s->order_n != 0)
        return arb_pos_fail(P, "pending.order", "NAR-P1-SSE-ORDER",
                            "an order prompt needs two different pending SHIFT START cards (and only then)");
    if (kind == NAR_D_DISCARD && A->nhand <= NAR_HAND_END)
        return arb_pos_fail(P, "step", "NAR-P4-HAND", "discard is owed only above 7 cards in hand");
    if (!s->over && s->clock_on && s->shift_ms >= NAR_CLOCK_MS)
        return arb_pos_fail(P, "clock.shift_ms", "NAR-CLOCK-SHIFT90", "the clock has already run out");
    if (!s->over) {
        arb_action one[1];
        if (arb_naramo__legal(&arb_game_naramo, s, one, 1) == 0) return arb_pos_fail(P, "step", NULL, "the open prompt has no legal answer");
    }
    return 0;
}

static int for_players(lctx *L, const arb_tnode *const pm[2], int (*fn)(lctx *, int, const arb_tnode *))
{
    for (int q = 0; q < 2; q++) {
        size_t mk = arb_pos_push(&L->P, "players");
        arb_pos_index(&L->P, q);
        TRY(fn(L, q, pm[q]));
        arb_pos_pop(&L->P, mk);
    }
    return 0;
}

static int player_first(lctx *L, int q, const arb_tnode *pm)
{
    TRY(arb_pos_keys(&L->P, pm, player_keys));
    L->s->p[q].core = NAR_NOMINAL_K;
    L->s->p[q].disc_at = -1;
    TRY(load_cards(L, q, pm));
    TRY(load_player_scalars(L, q, pm));
    return load_zones(L, q, pm);
}

static int player_board(lctx *L, int q, const arb_tnode *pm)
{
    return load_zone(L, q, pm, "board", NAR_BOARD_MAX, "NAR-LIMIT-ALARM", "an Alarm Board holds at most 3 Incidents", board_entry, NULL);
}

static int player_last(lctx *L, int q, const arb_tnode *pm)
{
    TRY(load_zone(L, q, pm, "effects", NAR_EFFECTS, NULL, "at most 4 lasting effects", effect_entry, NULL));
    return check_player(L, q, pm);
}

int arb_naramo__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)g;
    nar_state tmp;
    nar_state *s = &tmp;
    lctx L;
    memset(&L, 0, sizeof L);
    arb_pos_init(&L.P, &arb_game_naramo, err, NULL);
    L.s = s;
    memset(s, 0, sizeof *s);
    if (su && su->players != 2) return ARB_ILLEGAL(err, "NAR-MATCH-TWO", "a NARAMO match has exactly two players");
    int rules = arb_game_rules_select(&arb_game_naramo, su, err);
    if (rules < 0) return rules;
    s->rules = (uint8_t)rules;
    TRY(arb_pos_keys(&L.P, pos, top_keys));
    arb_rng_seed(&s->rng, su ? su->seed : 0);
    s->clock_on = su ? arb_options_get(&su->options, "clock", 1) != 0 : 1;
    s->strike_uid = -1;
    s->alarm_seq = -1;
    s->alarm_owner = s->alarm_uid = -1;
    s->winner = -1;
    TRY(arb_pos_game(&L.P, pos));
    const char *rv = NULL; /* given: must be the setup's rules version */
    TRY(arb_pos_str(&L.P, pos, "rules", &rv));
    if (rv && strcmp(rv, arb_game_rules_name(&arb_game_naramo, (unsigned)rules)) != 0)
        return arb_pos_fail(&L.P, "rules", NULL, "the position is for rules '%s', the setup plays '%s'", rv,
                            arb_game_rules_name(&arb_game_naramo, (unsigned)rules));
    TRY(load_root(&L, pos));
    const arb_tnode *pl = arb_tnode_get(pos, "players");
    if (!pl || pl->kind != ARB_T_ARR || pl->n != 2)
        return arb_pos_fail(&L.P, "players", "NAR-MATCH-TWO", "players must be an array of exactly 2 maps");
    const arb_tnode *pm[2] = {arb_tnode_at(pl, 0), arb_tnode_at(pl, 1)};
    TRY(for_players(&L, pm, player_first));
    L.maxseq = -1;
    TRY(for_players(&L, pm, player_board));
    int64_t maxseq = L.maxseq;
    TRY(for_players(&L, pm, player_last));
    int64_t v = maxseq + 1;
    TRY(arb_pos_int(&L.P, pos, "next_seq", maxseq + 1, INT32_MAX - 65536, &v));
    s->next_seq = (uint32_t)v;
    int kind = s->over ? NAR_D_OVER : s->shift == 0 ? NAR_D_REVIEW : NAR_D_OPS;
    const arb_tnode *stp = arb_tnode_get(pos, "step");
    if (stp && (stp->kind != ARB_T_STR || (kind = kind_by_name(stp->s)) < 0))
        return arb_pos_fail(&L.P, "step", NULL, "unknown step");
    s->kind = (uint8_t)kind;
    const arb_tnode *ph = arb_tnode_get(pos, "phase");
    if (ph && (ph->kind != ARB_T_STR || strcmp(ph->s, arb_naramo__phase_of((unsigned)kind)) != 0))
        return arb_pos_fail(&L.P, "phase", NULL, "phase does not match step");
    if ((kind == NAR_D_OVER) != (s->over != 0)) return arb_pos_fail(&L.P, "step", NULL, "step over <=> outcome.over");
    if ((kind == NAR_D_REVIEW) != (s->shift == 0))
        return arb_pos_fail(&L.P, "step", "NAR-SETUP-ORDER", "step review <=> shift 0");
    const arb_tnode *pe = arb_tnode_get(pos, "pending");
    if (pe) TRY(load_pending(&L, pe));
    TRY(check_prompt(&L, kind));
    memcpy(st, s, sizeof *s);
    return ARB_OK;
}
