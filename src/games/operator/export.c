/* export.c — the OPERATOR state tree (export_state) and its inverse
 * (load_position). One shape serves `state --json`, conformance assertions
 * ("players.1.discard_top.id") and diffs; a seat's view is the same tree
 * with the other hands, every deck order and the PRNG left out. The shape is
 * documented field by field in conformance/operator/STATE.md. Loading
 * builds the state in a local copy and validates it as strictly as an
 * action; st is written only on success. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/operator/operator.h"

static const char *const slot_keys[OPS_SLOTS] = { "personality", "weapon", "armor" };
static const char *const slot_keys_nt[] = { "personality", "weapon", "armor", NULL };
static const char *const mode_names[] = { "ranged", "close" };
static const char *const source_names[] = { "fallback", "card" };

/* ---- export ---------------------------------------------------------------------- */
static void card_obj(arb_tree *t, arb_tnode *parent, const char *key, const ops_player *p, int uid)
{
    if (uid < 0) { arb_tree_add_null(t, parent, key); return; }
    arb_tnode *m = arb_tree_add_map(t, parent, key);
    arb_tree_add_int(t, m, "uid", uid);
    arb_tree_add_str(t, m, "id", ops_uc(p, uid)->pub.id);
}

static void pile(arb_tree *t, arb_tnode *parent, const char *key, const ops_player *p,
                 const uint8_t *uids, int n)
{
    arb_tnode *a = arb_tree_add_arr(t, parent, key);
    for (int i = 0; i < n; i++) card_obj(t, a, NULL, p, uids[i]);
}

static int weapon_two_handed(const ops_state *s, int seat)
{
    const ops_player *p = &s->p[seat];
    if (p->weapon < 0) return 0;
    const ops_card *w = ops_uc(p, p->weapon);
    if (w->flags & OPS_F_TWOHANDED) return 1;
    /* OPS-GL-DUAL-MISMATCH: a DUAL weapon without a name match counts as Two Handed. */
    return (w->flags & OPS_F_DUAL) && !arb_operator__dual_doubles(s, seat, p->weapon);
}

void arb_operator__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    (void)g;
    const ops_state *s = st;
    arb_tree_add_str(t, root, "game", "operator");
    arb_tree_add_int(t, root, "turn", s->turn);
    arb_tree_add_str(t, root, "phase", arb_operator__phase_names[s->phase]);
    arb_tree_add_int(t, root, "active", s->active);
    arb_tree_add_int(t, root, "first", s->first);
    arb_tnode *d = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, d, "seat", s->over ? ARB_SEAT_NONE : s->owner);
    arb_tree_add_str(t, d, "kind", arb_operator__decision_names[s->over ? OPS_D_OVER : s->phase + 1]);
    arb_tnode *ts = arb_tree_add_map(t, root, "turn_state");
    arb_tree_add_int(t, ts, "moves_used", s->moves_used);
    arb_tree_add_int(t, ts, "moves_allowed", s->moves_allowed);
    arb_tree_add_int(t, ts, "attacks_made", s->attacks_made);
    arb_tree_add_int(t, ts, "attacks_allowed", s->attacks_allowed);
    arb_tnode *att = arb_tree_add_arr(t, ts, "attacked");
    for (int q = 0; q < s->players; q++)
        if (s->attacked & (1u << q)) arb_tree_add_int(t, att, NULL, q);
    arb_tree_add_bool(t, ts, "acted", s->acted);
    arb_tree_add_int(t, ts, "end_draws", s->end_draws);
    if (s->cb.target < 0) arb_tree_add_null(t, root, "combat");
    else {
        const ops_combat *c = &s->cb;
        const ops_player *A = &s->p[s->active];
        arb_tnode *cm = arb_tree_add_map(t, root, "combat");
        arb_tree_add_int(t, cm, "attacker", s->active);
        arb_tree_add_int(t, cm, "target", c->target);
        arb_tree_add_str(t, cm, "type", arb_operator__combat_types[c->type]);
        arb_tree_add_str(t, cm, "mode", mode_names[c->mode]);
        arb_tree_add_str(t, cm, "weapon_source", source_names[c->source]);
        card_obj(t, cm, "weapon", A, c->source == OPS_SRC_CARD ? c->wuid : -1);
        card_obj(t, cm, "boost", A, c->boost);
        arb_tree_add_int(t, cm, "reactions", c->reactions);
        arb_tree_add_bool(t, cm, "armor_piercing", c->ap);
        arb_tree_add_int(t, cm, "staged_damage", c->sd);
        arb_tree_add_int(t, cm, "power", c->power);
        arb_tree_add_int(t, cm, "cover_total", c->cover_total);
        arb_tree_add_int(t, cm, "attack", c->attack);
        arb_tree_add_int(t, cm, "absorbed", c->absorbed);
        arb_tree_add_int(t, cm, "damage", c->damage);
    }
    arb_tnode *o = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, o, "over", s->over);
    arb_tree_add_int(t, o, "winner", s->over ? s->winner : -1);
    arb_tree_add_str(t, o, "reason", arb_operator__reason_names[s->over ? s->reason : 0]);
    if (view == ARB_VIEW_ALL) {
        arb_tree_add_rng(t, root, "rng", &s->rng);
    }
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int i = 0; i < s->players; i++) {
        const ops_player *p = &s->p[i];
        arb_tnode *m = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_int(t, m, "seat", i);
        card_obj(t, m, "operator", p, p->personality);
        arb_tree_add_int(t, m, "health", p->health);
        arb_tree_add_int(t, m, "staged_damage", p->sd);
        arb_tree_add_bool(t, m, "eliminated", p->eliminated);
        arb_tree_add_bool(t, m, "in_cover", p->cover >= 0);
        /* The deck list is the owner's secret (the deck is shuffled face
         * down, rule S9): another seat sees the cards as they reach a public
         * zone, never the list. */
        if (view == ARB_VIEW_ALL || view == i) {
            arb_tnode *cl = arb_tree_add_arr(t, m, "cards");
            for (int u = 0; u < p->ncards; u++) arb_tree_add_str(t, cl, NULL, ops_uc(p, u)->pub.id);
        }
        arb_tree_add_int(t, m, "hand_count", p->nhand);
        if (view == ARB_VIEW_ALL || view == i) pile(t, m, "hand", p, p->hand, p->nhand);
        arb_tree_add_int(t, m, "deck_count", p->ndeck);
        if (view == ARB_VIEW_ALL) pile(t, m, "deck", p, p->deck, p->ndeck);
        pile(t, m, "discard", p, p->discard, p->ndiscard);
        card_obj(t, m, "discard_top", p, p->ndiscard ? p->discard[p->ndiscard - 1] : -1);
        card_obj(t, m, "cover", p, p->cover);
        card_obj(t, m, "weapon", p, p->weapon);
        arb_tree_add_bool(t, m, "weapon_two_handed", weapon_two_handed(s, i));
        card_obj(t, m, "armor", p, p->armor);
        arb_tnode *mods = arb_tree_add_map(t, m, "mods");
        for (int k = 0; k < OPS_SLOTS; k++) pile(t, mods, slot_keys[k], p, p->mods[k], p->nmods[k]);
        arb_tnode *op = arb_tree_add_map(t, m, "opened");
        arb_tree_add_bool(t, op, "weapon", (p->opened & OPS_OPENED_WEAPON) != 0);
        arb_tree_add_bool(t, op, "cover", (p->opened & OPS_OPENED_COVER) != 0);
        arb_tree_add_bool(t, op, "armor", (p->opened & OPS_OPENED_ARMOR) != 0);
    }
}

/* ---- load ------------------------------------------------------------------------- */
/* Everything is read through the core position reader (arb_pos_*): the same
 * path tracking, key checks, ranges and messages as every other engine. */
#define TRY ARB_POS_TRY

typedef struct {
    ops_player *p;
    int have_list;
    uint8_t placed[OPS_MAX_CARDS];
} pctx;

/* A card reference at the reader's path: {"uid":n[,"id":s]}, a UID
 * integer, or a card id string. */
static int ref(arb_pos *L, pctx *P, const arb_tnode *n, int *uid)
{
    const arb_tnode *ii = NULL;
    int64_t u = -1;
    if (n->kind == ARB_T_MAP) {
        static const char *const k[] = { "uid", "id", NULL };
        TRY(arb_pos_keys(L, n, k));
        const arb_tnode *ui = arb_tnode_get(n, "uid");
        ii = arb_tnode_get(n, "id");
        if (ui) TRY(arb_pos_int_node(L, ui, "uid", 0, INT32_MAX, &u));
        if (!ui && !ii) return arb_pos_fail(L, NULL, NULL, "a card needs a uid or an id");
    } else if (n->kind == ARB_T_INT) {
        TRY(arb_pos_int_node(L, n, NULL, 0, INT32_MAX, &u));
    } else if (n->kind == ARB_T_STR) {
        ii = n;
    } else {
        return arb_pos_fail(L, NULL, NULL, "expected a card (object, uid or id)");
    }
    ops_player *p = P->p;
    int idx = -1;
    if (ii) TRY(arb_pos_card_node(L, ii, ii == n ? NULL : "id", NULL, &idx));
    if (u >= 0) {
        if (!P->have_list) return arb_pos_fail(L, NULL, NULL, "a uid needs the seat's 'cards' list");
        if (u >= p->ncards) return arb_pos_fail(L, NULL, NULL, "uid %" PRId64 " is out of range 0..%d", u, p->ncards - 1);
        if (idx >= 0 && p->card[u] != idx) return arb_pos_fail(L, NULL, NULL, "uid and id disagree (%s)", ii->s);
    } else if (P->have_list) {
        for (u = 0; u < p->ncards; u++)
            if (p->card[u] == idx && !P->placed[u]) break;
        if (u >= p->ncards) return arb_pos_fail(L, NULL, NULL, "no unplaced '%s' left in the seat's 'cards' list", ii->s);
    } else {
        if (p->ncards >= OPS_MAX_CARDS) return arb_pos_fail(L, NULL, NULL, "too many cards for one seat");
        u = p->ncards++;
        p->card[u] = (uint16_t)idx;
    }
    if (P->placed[u]) return arb_pos_fail(L, NULL, NULL, "card is already in another zone");
    P->placed[u] = 1;
    *uid = (int)u;
    return 0;
}

static int pile_in(arb_pos *L, pctx *P, const arb_tnode *m, const char *key, uint8_t *out, uint8_t *n, int cap)
{
    const arb_tnode *a = arb_tnode_get(m, key);
    *n = 0;
    if (!a || a->kind == ARB_T_NULL) return 0;
    TRY(arb_pos_arr(L, m, key, (uint32_t)cap, NULL, &a));
    size_t mk = arb_pos_push(L, key);
    int i = 0;
    for (const arb_tnode *c = a->first; c; c = c->next, i++) {
        size_t mi = arb_pos_index(L, i);
        int uid;
        TRY(ref(L, P, c, &uid));
        out[(*n)++] = (uint8_t)uid;
        arb_pos_pop(L, mi);
    }
    arb_pos_pop(L, mk);
    return 0;
}

static int slot_in(arb_pos *L, pctx *P, const arb_tnode *m, const char *key, int8_t *out)
{
    const arb_tnode *c = arb_tnode_get(m, key);
    *out = OPS_NONE8;
    if (!c || c->kind == ARB_T_NULL) return 0;
    size_t mk = arb_pos_push(L, key);
    int uid;
    TRY(ref(L, P, c, &uid));
    arb_pos_pop(L, mk);
    *out = (int8_t)uid;
    return 0;
}

/* Kinds per zone: Personality, Cover, weapon, armor and the Modifiers. */
static int check_kinds(arb_pos *L, const ops_player *p)
{
    for (int u = 0; u < p->ncards; u++)
        if (u != p->personality && ops_uc(p, u)->kind == OPS_K_PERSONALITY)
            return arb_pos_fail(L, "cards", "OPS-DECK-OPERATOR", "a second Personality card cannot be in play");
    if (p->cover >= 0 && ops_uc(p, p->cover)->kind != OPS_K_COVER)
        return arb_pos_fail(L, "cover", "OPS-ZONE-COVER", "the Cover Zone holds only Cover cards");
    if (p->weapon >= 0 && ops_uc(p, p->weapon)->kind != OPS_K_WEAPON)
        return arb_pos_fail(L, "weapon", "OPS-ZONE-WEAPON", "the Second Weapon slot holds only weapons");
    if (p->armor >= 0 && ops_uc(p, p->armor)->kind != OPS_K_ARMOR)
        return arb_pos_fail(L, "armor", "OPS-ZONE-ARMOR", "the Armor slot holds only Armor");
    for (int k = 0; k < OPS_SLOTS; k++)
        for (int i = 0; i < p->nmods[k]; i++) {
            const ops_card *c = ops_uc(p, p->mods[k][i]);
            int ok = c->kind == OPS_K_MODIFIER &&
                     (k == OPS_SLOT_PERSONALITY ? c->mod_target != OPS_MT_ARMOR
                      : k == OPS_SLOT_WEAPON ? p->weapon >= 0 && c->mod_target != OPS_MT_ARMOR &&
                                                   (c->mod_target != OPS_MT_RANGED ||
                                                    (ops_uc(p, p->weapon)->flags & OPS_F_RANGED))
                                             : p->armor >= 0 && c->mod_target == OPS_MT_ARMOR);
            if (!ok) {
                char sub[40];
                snprintf(sub, sizeof sub, "mods.%s.%d", slot_keys[k], i);
                return arb_pos_fail(L, sub, "OPS-MOD-ATTACH", "not a valid Modifier for this item");
            }
        }
    return 0;
}

static int load_player(arb_pos *L, ops_state *s, int seat, const arb_tnode *m)
{
    static const char *const keys[] = {
        "seat", "operator", "health", "staged_damage", "eliminated", "in_cover", "cards", "hand_count",
        "hand", "deck_count", "deck", "discard", "discard_top", "cover", "weapon", "weapon_two_handed",
        "armor", "mods", "opened", NULL
    };
    TRY(arb_pos_keys(L, m, keys));
    ops_player *p = &s->p[seat];
    pctx P;
    memset(&P, 0, sizeof P);
    P.p = p;
    int64_t v = seat;
    TRY(arb_pos_int(L, m, "seat", seat, seat, &v));
    const arb_tnode *cl;
    TRY(arb_pos_arr(L, m, "cards", OPS_MAX_CARDS, NULL, &cl));
    if (cl) {
        size_t mk = arb_pos_push(L, "cards");
        int i = 0, idx;
        for (const arb_tnode *c = cl->first; c; c = c->next, i++) {
            size_t mi = arb_pos_index(L, i);
            TRY(arb_pos_card_node(L, c, NULL, NULL, &idx));
            p->card[p->ncards++] = (uint16_t)idx;
            arb_pos_pop(L, mi);
        }
        arb_pos_pop(L, mk);
        P.have_list = 1;
    }
    const arb_tnode *opn = arb_tnode_get(m, "operator");
    if (!opn) return arb_pos_fail(L, "operator", "OPS-DECK-OPERATOR", "every seat needs its Operator (Personality) card");
    int uid;
    size_t mk = arb_pos_push(L, "operator");
    TRY(ref(L, &P, opn, &uid));
    arb_pos_pop(L, mk);
    p->personality = (uint8_t)uid;
    if (ops_uc(p, uid)->kind != OPS_K_PERSONALITY)
        return arb_pos_fail(L, "operator", "OPS-SETUP-PERSONALITY", "the Personality Zone holds a Personality card");
    TRY(pile_in(L, &P, m, "hand", p->hand, &p->nhand, OPS_MAX_CARDS));
    TRY(pile_in(L, &P, m, "deck", p->deck, &p->ndeck, OPS_MAX_CARDS));
    TRY(pile_in(L, &P, m, "discard", p->discard, &p->ndiscard, OPS_MAX_CARDS));
    TRY(slot_in(L, &P, m, "cover", &p->cover));
    TRY(slot_in(L, &P, m, "weapon", &p->weapon));
    TRY(slot_in(L, &P, m, "armor", &p->armor));
    const arb_tnode *mods = arb_tnode_get(m, "mods");
    if (mods) {
        mk = arb_pos_push(L, "mods");
        TRY(arb_pos_keys(L, mods, slot_keys_nt));
        for (int k = 0; k < OPS_SLOTS; k++)
            TRY(pile_in(L, &P, mods, slot_keys[k], p->mods[k], &p->nmods[k], OPS_MAX_MODS));
        arb_pos_pop(L, mk);
    }
    for (int u = 0; u < p->ncards; u++)
        if (!P.placed[u]) {
            char sub[32];
            snprintf(sub, sizeof sub, "cards.%d", u);
            return arb_pos_fail(L, sub, NULL, "card '%s' is in no zone", ops_uc(p, u)->pub.id);
        }
    TRY(check_kinds(L, p));
    v = OPS_START_HEALTH;
    TRY(arb_pos_int(L, m, "health", -OPS_MAX_HEALTH_POS, OPS_MAX_HEALTH_POS, &v));
    p->health = (int16_t)v;
    v = 0;
    TRY(arb_pos_int(L, m, "staged_damage", 0, OPS_MAX_SD, &v));
    p->sd = (uint8_t)v;
    TRY(arb_pos_flag(L, m, "eliminated", &p->eliminated));
    if (!p->eliminated && p->health <= 0)
        return arb_pos_fail(L, "health", "OPS-G02", "a player at 0 Health or less is eliminated");
    const arb_tnode *op = arb_tnode_get(m, "opened");
    if (op) {
        static const char *const ok[] = { "weapon", "cover", "armor", NULL };
        mk = arb_pos_push(L, "opened");
        int w = 0, c = 0, a = 0;
        TRY(arb_pos_keys(L, op, ok));
        TRY(arb_pos_bool(L, op, "weapon", &w));
        TRY(arb_pos_bool(L, op, "cover", &c));
        TRY(arb_pos_bool(L, op, "armor", &a));
        arb_pos_pop(L, mk);
        p->opened = (uint8_t)((w ? OPS_OPENED_WEAPON : 0) | (c ? OPS_OPENED_COVER : 0) | (a ? OPS_OPENED_ARMOR : 0));
    }
    return 0;
}

/* Derived fields may be given; they must then agree with the loaded state. */
static int same_ref(const arb_tnode *in, const arb_tnode *ex)
{
    if (in->kind == ARB_T_NULL || ex->kind == ARB_T_NULL) return in->kind == ex->kind;
    const arb_tnode *eu = arb_tnode_get(ex, "uid"), *ei = arb_tnode_get(ex, "id");
    if (in->kind == ARB_T_INT) return in->i == eu->i;
    if (in->kind == ARB_T_STR) return strcmp(in->s, ei->s) == 0;
    if (in->kind == ARB_T_MAP) {
        const arb_tnode *iu = arb_tnode_get(in, "uid"), *ii = arb_tnode_get(in, "id");
        if (iu && (iu->kind != ARB_T_INT || iu->i != eu->i)) return 0;
        if (ii && (ii->kind != ARB_T_STR || strcmp(ii->s, ei->s) != 0)) return 0;
        return 1;
    }
    return 0;
}

static int check_derived(arb_pos *L, const ops_state *s, const arb_tnode *pos)
{
    arb_tree *t = arb_tree_new();
    if (!t) return arb_error_set(L->err, ARB_ENOMEM, NULL, "out of memory");
    arb_tnode *root = arb_tree_root(t);
    arb_operator__export(&arb_game_operator, s, ARB_VIEW_ALL, t, root);
    int rc = 0;
    static const char *const top[] = { "game", "phase", NULL };
    for (const char *const *k = top; *k && !rc; k++) {
        const arb_tnode *in = arb_tnode_get(pos, *k);
        if (in && !arb_tnode_equal(in, arb_tnode_get(root, *k)))
            rc = arb_pos_fail(L, *k, NULL, "'%s' disagrees with the rest of the position", *k);
    }
    const arb_tnode *ip = arb_tnode_get(pos, "players"), *ep = arb_tnode_get(root, "players");
    static const char *const pk[] = { "in_cover", "hand_count", "deck_count", "weapon_two_handed", NULL };
    for (int i = 0; !rc && i < s->players; i++) {
        const arb_tnode *im = arb_tnode_at(ip, (uint32_t)i), *em = arb_tnode_at(ep, (uint32_t)i);
        char sub[48];
        for (const char *const *k = pk; *k && !rc; k++) {
            const arb_tnode *in = arb_tnode_get(im, *k);
            if (in && !arb_tnode_equal(in, arb_tnode_get(em, *k))) {
                snprintf(sub, sizeof sub, "players.%d.%s", i, *k);
                rc = arb_pos_fail(L, sub, NULL, "'%s' disagrees with the zones", *k);
            }
        }
        const arb_tnode *in = arb_tnode_get(im, "discard_top");
        if (!rc && in && !same_ref(in, arb_tnode_get(em, "discard_top"))) {
            snprintf(sub, sizeof sub, "players.%d.discard_top", i);
            rc = arb_pos_fail(L, sub, NULL, "discard_top is not the last card of discard");
        }
    }
    arb_tree_free(t);
    return rc;
}

static int combat_weapon(arb_pos *L, ops_state *s, const arb_tnode *c)
{
    ops_combat *cb = &s->cb;
    const ops_player *A = &s->p[s->active];
    int mode_now = A->cover >= 0 ? OPS_MODE_RANGED : OPS_MODE_CLOSE, e = mode_now;
    TRY(arb_pos_enum(L, c, "mode", mode_names, 2, &e));
    if (e != mode_now) return arb_pos_fail(L, "mode", "OPS-WPN-PRIMARY", "the weapon mode follows the attacker's Cover (G05)");
    cb->mode = (uint8_t)e;
    int src = 0, wuid = -1;
    arb_operator__weapon_for(s, s->active, cb->mode, &src, &wuid);
    e = src;
    TRY(arb_pos_enum(L, c, "weapon_source", source_names, 2, &e));
    if (e != src)
        return arb_pos_fail(L, "weapon_source", "OPS-COMBAT-STEP2-MUSTEQUIPPED",
                            "the weapon source is fixed by the equipped weapon and the mode");
    cb->source = (uint8_t)src;
    cb->wuid = (int8_t)wuid;
    const arb_tnode *w = arb_tnode_get(c, "weapon");
    if (w && !(w->kind == ARB_T_NULL ? wuid < 0 : wuid >= 0 && w->kind == ARB_T_MAP &&
                                                     arb_tnode_get(w, "uid") &&
                                                     arb_tnode_get(w, "uid")->kind == ARB_T_INT &&
                                                     arb_tnode_get(w, "uid")->i == wuid))
        return arb_pos_fail(L, "weapon", NULL, "the weapon disagrees with the attacker's slots");
    cb->boost = OPS_NONE8;
    const arb_tnode *bo = arb_tnode_get(c, "boost");
    if (bo && bo->kind != ARB_T_NULL) {
        const arb_tnode *bu = bo->kind == ARB_T_MAP ? arb_tnode_get(bo, "uid") : bo;
        if (!bu || bu->kind != ARB_T_INT || bu->i < 0 || bu->i >= A->ncards ||
            ops_uc(A, (int)bu->i)->kind != OPS_K_BOOST)
            return arb_pos_fail(L, "boost", NULL, "boost must be the UID of one of the attacker's Boost cards");
        cb->boost = (int8_t)bu->i;
    }
    return 0;
}

static int load_combat(arb_pos *L, ops_state *s, const arb_tnode *c)
{
    static const char *const keys[] = {
        "attacker", "target", "type", "mode", "weapon_source", "weapon", "boost", "reactions",
        "armor_piercing", "staged_damage", "power", "cover_total", "attack", "absorbed", "damage", NULL
    };
    size_t mk = arb_pos_push(L, "combat");
    TRY(arb_pos_keys(L, c, keys));
    ops_combat *cb = &s->cb;
    int64_t v = s->active;
    const ops_player *A = &s->p[s->active];
    TRY(arb_pos_int(L, c, "attacker", s->active, s->active, &v));
    v = -1;
    TRY(arb_pos_int(L, c, "target", 0, s->players - 1, &v));
    if (v < 0 || v == s->active || s->p[v].eliminated)
        return arb_pos_fail(L, "target", "OPS-G23", "the target must be another player still in the game");
    cb->target = (int8_t)v;
    /* Step 1 fixed the type at the attack; only a Cover broken in Step 3 can
     * make it differ from the present Cover state (then: react). */
    int now = s->p[cb->target].cover >= 0 ? OPS_CT_RANGED_COVER : A->cover >= 0 ? OPS_CT_RANGED_OPEN : OPS_CT_CLOSE;
    int e = now;
    TRY(arb_pos_enum(L, c, "type", arb_operator__combat_types, 3, &e));
    cb->type = (uint8_t)e;
    if (e != now && !(e == OPS_CT_RANGED_COVER && s->phase == OPS_PH_REACT))
        return arb_pos_fail(L, "type", "OPS-COMBAT-TYPES", "the combat type disagrees with the Cover state");
    TRY(combat_weapon(L, s, c));
    static const struct { const char *key; int64_t lo, dflt; } nums[] = {
        { "reactions", 0, 0 }, { "staged_damage", 0, 0 }, { "power", 0, 0 }, { "cover_total", -1, -1 },
        { "attack", 0, 0 }, { "absorbed", 0, 0 }, { "damage", 0, 0 }
    };
    int64_t got[7];
    for (int i = 0; i < 7; i++) {
        int64_t hi = i == 0 ? OPS_MAX_REACTIONS : i == 1 ? OPS_MAX_SD : 999;
        got[i] = nums[i].dflt;
        TRY(arb_pos_int(L, c, nums[i].key, nums[i].lo, hi, &got[i]));
    }
    int ap = 0;
    TRY(arb_pos_bool(L, c, "armor_piercing", &ap));
    cb->ap = (uint8_t)ap;
    cb->reactions = (uint8_t)got[0];
    cb->sd = (uint8_t)got[1];
    cb->power = (int16_t)got[2];
    cb->cover_total = (int16_t)got[3];
    cb->attack = (int16_t)got[4];
    cb->absorbed = (int16_t)got[5];
    cb->damage = (int16_t)got[6];
    arb_pos_pop(L, mk);
    return 0;
}

static int load_turn_state(arb_pos *L, ops_state *s, const arb_tnode *ts)
{
    static const char *const ok[] = { "moves_used", "moves_allowed", "attacks_made", "attacks_allowed",
                                      "attacked", "acted", "end_draws", NULL };
    static const char *const nk[] = { "moves_used", "moves_allowed", "attacks_made", "attacks_allowed", "end_draws" };
    uint8_t *nv[] = { &s->moves_used, &s->moves_allowed, &s->attacks_made, &s->attacks_allowed, &s->end_draws };
    size_t mk = arb_pos_push(L, "turn_state");
    TRY(arb_pos_keys(L, ts, ok));
    for (int i = 0; i < 5; i++) {
        int64_t v = *nv[i];
        TRY(arb_pos_int(L, ts, nk[i], 0, 99, &v));
        *nv[i] = (uint8_t)v;
    }
    TRY(arb_pos_flag(L, ts, "acted", &s->acted));
    const arb_tnode *at;
    TRY(arb_pos_arr(L, ts, "attacked", 64, NULL, &at));
    for (const arb_tnode *x = at ? at->first : NULL; x; x = x->next) {
        if (x->kind != ARB_T_INT || x->i < 0 || x->i >= s->players || x->i == s->active)
            return arb_pos_fail(L, "attacked", NULL, "not another seat");
        s->attacked |= (uint8_t)(1u << x->i);
    }
    arb_pos_pop(L, mk);
    return 0;
}

/* outcome and decision: who owes what, or how the match ended. */
static int load_flow(arb_pos *L, ops_state *s, const arb_tnode *pos, int64_t *dseat)
{
    const arb_tnode *o = arb_tnode_get(pos, "outcome"), *d = arb_tnode_get(pos, "decision");
    int over = 0, reason = 0, kind = OPS_D_FIRST_EQUIP;
    int64_t winner = -1;
    if (o) {
        static const char *const ok[] = { "over", "winner", "reason", NULL };
        size_t mk = arb_pos_push(L, "outcome");
        TRY(arb_pos_keys(L, o, ok));
        TRY(arb_pos_bool(L, o, "over", &over));
        TRY(arb_pos_int(L, o, "winner", -1, s->players - 1, &winner));
        TRY(arb_pos_enum(L, o, "reason", arb_operator__reason_names, OPS_R_COUNT, &reason));
        if (over != (reason != 0)) return arb_pos_fail(L, "reason", NULL, "an over match needs a reason, a running one none");
        arb_pos_pop(L, mk);
    }
    int alive = 0, last = -1;
    for (int q = 0; q < s->players; q++)
        if (!s->p[q].eliminated) { alive++; last = q; }
    if (!over && alive < 2) return arb_pos_fail(L, "players", "OPS-G02", "a running match needs two players still in the game");
    if (over && reason == OPS_R_ELIMINATION && (alive != 1 || winner != last))
        return arb_pos_fail(L, "outcome.winner", "OPS-G02", "the winner is the last player standing");
    if (d) {
        static const char *const ok[] = { "seat", "kind", NULL };
        size_t mk = arb_pos_push(L, "decision");
        TRY(arb_pos_keys(L, d, ok));
        TRY(arb_pos_enum(L, d, "kind", arb_operator__decision_names, OPS_D_COUNT, &kind));
        TRY(arb_pos_int(L, d, "seat", ARB_SEAT_NONE, s->players - 1, dseat));
        arb_pos_pop(L, mk);
    } else {
        const arb_tnode *ph = arb_tnode_get(pos, "phase");
        if (ph && ph->kind == ARB_T_STR && strcmp(ph->s, "action") == 0) kind = OPS_D_ACTION;
        else if (ph && ph->kind == ARB_T_STR && strcmp(ph->s, "second-equip") == 0) kind = OPS_D_SECOND_EQUIP;
    }
    if (over) {
        if (kind != OPS_D_NONE && kind != OPS_D_OVER) return arb_pos_fail(L, "decision.kind", NULL, "an over match owes no decision");
        s->over = 1; s->winner = (int8_t)winner; s->reason = (uint8_t)reason;
        s->phase = OPS_PH_OVER; s->owner = ARB_SEAT_NONE;
        return 0;
    }
    if (kind == OPS_D_NONE || kind == OPS_D_OVER) return arb_pos_fail(L, "decision.kind", NULL, "a running match owes a decision");
    s->phase = (uint8_t)(kind - 1);
    if (s->phase >= OPS_PH_EQUIP1 && s->p[s->active].eliminated)
        return arb_pos_fail(L, "active", NULL, "the active player is eliminated");
    if (s->phase <= OPS_PH_OPEN_EQUIP) {
        s->owner = (int8_t)(*dseat >= 0 ? *dseat : 0);
        if (s->turn != 0) return arb_pos_fail(L, "turn", "OPS-SETUP-ORDER", "the opening happens before turn 1 (turn 0)");
    } else {
        if (s->turn == 0) return arb_pos_fail(L, "turn", "OPS-SETUP-ORDER", "turns start at 1 after the opening");
        s->owner = (int8_t)s->active;
    }
    return 0;
}

int arb_operator__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)g;
    int rules = arb_game_rules_select(&arb_game_operator, su, err);
    if (rules < 0) return rules;
    static ops_state zero;
    ops_state s = zero;
    arb_pos L;
    arb_pos_init(&L, &arb_game_operator, err, NULL);
    static const char *const keys[] = {
        "game", "turn", "phase", "active", "first", "decision", "turn_state", "combat", "outcome",
        "rng", "players", NULL
    };
    TRY(arb_pos_keys(&L, pos, keys));
    TRY(arb_pos_game(&L, pos));
    const arb_tnode *pl = arb_tnode_get(pos, "players");
    if (!pl || pl->kind != ARB_T_ARR) return arb_pos_fail(&L, "players", NULL, "a list of players is required");
    if (pl->n < 2 || pl->n > ARB_MAX_SEATS) return arb_pos_fail(&L, "players", "OPS-G29", "OPERATOR is played by 2 to 4 players");
    if (su && su->players && (unsigned)su->players != pl->n)
        return arb_pos_fail(&L, "players", NULL, "the position's player count differs from the match's");
    s.players = (uint8_t)pl->n;
    s.winner = -1;
    s.cb.target = OPS_NONE8;
    arb_rng_seed(&s.rng, su ? su->seed : 0);
    int i = 0;
    for (const arb_tnode *m = pl->first; m; m = m->next, i++) {
        size_t mk = arb_pos_push(&L, "players");
        arb_pos_index(&L, i);
        TRY(load_player(&L, &s, i, m));
        arb_pos_pop(&L, mk);
    }
    TRY(arb_pos_rng(&L, pos, "rng", &s.rng));
    int64_t v = 1;
    TRY(arb_pos_int(&L, pos, "turn", 0, OPS_TURN_CAP, &v));
    s.turn = (uint32_t)v;
    v = 0;
    TRY(arb_pos_int(&L, pos, "active", 0, s.players - 1, &v));
    s.active = (uint8_t)v;
    v = 0;
    TRY(arb_pos_int(&L, pos, "first", 0, s.players - 1, &v));
    s.first = (uint8_t)v;
    int64_t dseat = -99;
    TRY(load_flow(&L, &s, pos, &dseat));
    s.moves_allowed = 1; s.attacks_allowed = 1;
    const arb_tnode *ts = arb_tnode_get(pos, "turn_state");
    if (ts) TRY(load_turn_state(&L, &s, ts));
    const arb_tnode *c = arb_tnode_get(pos, "combat");
    int in_combat = !s.over && (s.phase == OPS_PH_BOOST || s.phase == OPS_PH_REACT);
    if (in_combat) {
        if (!c || c->kind == ARB_T_NULL) return arb_pos_fail(&L, "combat", NULL, "a combat decision needs the combat");
        TRY(load_combat(&L, &s, c));
        if (s.phase == OPS_PH_REACT) {
            s.owner = s.cb.target;
            if (s.cb.damage <= 0)
                return arb_pos_fail(&L, "combat.damage", "OPS-COMBAT-STEP5-REACT", "reactions are owed only while damage remains");
        }
        if (!(s.attacked & (1u << s.cb.target)) || s.attacks_made == 0)
            return arb_pos_fail(&L, "turn_state.attacked", NULL, "the combat's target must be among the attacked seats");
    } else if (c && c->kind != ARB_T_NULL)
        return arb_pos_fail(&L, "combat", NULL, "combat is only part of a boost or react decision");
    if (!s.over && dseat != -99 && dseat != s.owner)
        return arb_pos_fail(&L, "decision.seat", NULL, "the seat owing this decision is another one");
    TRY(check_derived(&L, &s, pos));
    memcpy(st, &s, sizeof s);
    return ARB_OK;
}
