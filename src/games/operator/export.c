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

void arb_operator__export(const void *st, int view, arb_tree *t, arb_tnode *root)
{
    const ops_state *s = st;
    char buf[20];
    arb_tree_add_str(t, root, "game", "operator");
    arb_tree_add_int(t, root, "turn", s->turn);
    arb_tree_add_str(t, root, "phase", arb_operator__phase_names[s->phase]);
    arb_tree_add_int(t, root, "active", s->active);
    arb_tree_add_int(t, root, "first", s->first);
    arb_tnode *d = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, d, "seat", s->over ? ARB_SEAT_NONE : s->owner);
    arb_tree_add_str(t, d, "kind", arb_operator__decision_names[s->over ? 0 : s->phase + 1]);
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
        arb_tnode *r = arb_tree_add_arr(t, root, "rng");
        for (int i = 0; i < 4; i++) {
            snprintf(buf, sizeof buf, "%016" PRIx64, s->rng.s[i]);
            arb_tree_add_str(t, r, NULL, buf);
        }
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
        arb_tnode *cl = arb_tree_add_arr(t, m, "cards");
        for (int u = 0; u < p->ncards; u++) arb_tree_add_str(t, cl, NULL, ops_uc(p, u)->pub.id);
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
typedef struct {
    arb_error *err;
    char path[160];
} lctx;

static int fail(lctx *L, const char *sub, const char *rule, const char *fmt, const char *detail)
{
    if (sub && *sub) arb_error_where(L->err, "%s%s%s", L->path, *L->path ? "." : "", sub);
    else arb_error_where(L->err, "%s", L->path);
    return arb_error_set(L->err, rule ? ARB_EILLEGAL : ARB_EINVAL, rule, fmt, detail ? detail : "");
}

/* Every key of map must be in allowed. */
static int keys_ok(lctx *L, const arb_tnode *map, const char *const *allowed)
{
    if (!map || map->kind != ARB_T_MAP) return fail(L, NULL, NULL, "expected a map%s", NULL);
    for (const arb_tnode *c = map->first; c; c = c->next) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, c->key) == 0) { ok = 1; break; }
        if (!ok) return fail(L, c->key, NULL, "unknown field '%s'", c->key);
    }
    return 0;
}

static int get_int(lctx *L, const arb_tnode *map, const char *key, int64_t lo, int64_t hi,
                   int64_t dflt, int64_t *out)
{
    const arb_tnode *n = arb_tnode_get(map, key);
    *out = dflt;
    if (!n) return 0;
    if (n->kind != ARB_T_INT || n->i < lo || n->i > hi) {
        char msg[64];
        snprintf(msg, sizeof msg, "%" PRId64 "..%" PRId64, lo, hi);
        return fail(L, key, NULL, "expected an integer in %s", msg);
    }
    *out = n->i;
    return 0;
}

static int get_bool(lctx *L, const arb_tnode *map, const char *key, int *out)
{
    const arb_tnode *n = arb_tnode_get(map, key);
    *out = 0;
    if (!n) return 0;
    if (n->kind != ARB_T_BOOL) return fail(L, key, NULL, "expected true or false%s", NULL);
    *out = (int)n->i;
    return 0;
}

static int get_enum(lctx *L, const arb_tnode *map, const char *key, const char *const *names,
                    int n, int dflt, int *out)
{
    const arb_tnode *x = arb_tnode_get(map, key);
    *out = dflt;
    if (!x) return 0;
    if (x->kind == ARB_T_STR)
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], x->s) == 0) { *out = i; return 0; }
    return fail(L, key, NULL, "unknown value for '%s'", key);
}

static int card_by_id(const char *id)
{
    for (unsigned i = 0; i < arb_operator__ncards; i++)
        if (strcmp(arb_operator__cards[i].pub.id, id) == 0 || strcmp(arb_operator__cards[i].pub.name, id) == 0)
            return (int)i;
    return -1;
}

typedef struct {
    ops_player *p;
    int have_list;
    uint8_t placed[OPS_MAX_CARDS];
} pctx;

/* A card reference: {"uid":n[,"id":s]}, a UID integer, or a card id string. */
static int ref(lctx *L, pctx *P, const arb_tnode *n, const char *sub, int *uid)
{
    const char *id = NULL;
    int64_t u = -1;
    if (n->kind == ARB_T_MAP) {
        static const char *const k[] = { "uid", "id", NULL };
        size_t plen = strlen(L->path);
        snprintf(L->path + plen, sizeof L->path - plen, "%s%s", plen ? "." : "", sub);
        int rc = keys_ok(L, n, k);
        L->path[plen] = 0;
        if (rc) return rc;
        const arb_tnode *ui = arb_tnode_get(n, "uid"), *ii = arb_tnode_get(n, "id");
        if (ii && ii->kind != ARB_T_STR) return fail(L, sub, NULL, "card id must be a string%s", NULL);
        if (ii) id = ii->s;
        if (ui) {
            if (ui->kind != ARB_T_INT) return fail(L, sub, NULL, "uid must be an integer%s", NULL);
            u = ui->i;
        }
        if (!ui && !ii) return fail(L, sub, NULL, "a card needs a uid or an id%s", NULL);
    } else if (n->kind == ARB_T_INT) u = n->i;
    else if (n->kind == ARB_T_STR) id = n->s;
    else return fail(L, sub, NULL, "expected a card (object, uid or id)%s", NULL);
    ops_player *p = P->p;
    int idx = -1;
    if (id && (idx = card_by_id(id)) < 0) return fail(L, sub, NULL, "unknown card '%s'", id);
    if (u >= 0 || n->kind == ARB_T_INT) {
        if (!P->have_list) return fail(L, sub, NULL, "a uid needs the seat's 'cards' list%s", NULL);
        if (u < 0 || u >= p->ncards) return fail(L, sub, NULL, "uid out of range%s", NULL);
        if (idx >= 0 && p->card[u] != idx) return fail(L, sub, NULL, "uid and id disagree (%s)", id);
    } else if (P->have_list) {
        for (u = 0; u < p->ncards; u++)
            if (p->card[u] == idx && !P->placed[u]) break;
        if (u >= p->ncards) return fail(L, sub, NULL, "no unplaced '%s' left in the seat's 'cards' list", id);
    } else {
        if (p->ncards >= OPS_MAX_CARDS) return fail(L, sub, NULL, "too many cards for one seat%s", NULL);
        u = p->ncards++;
        p->card[u] = (uint16_t)idx;
    }
    if (P->placed[u]) return fail(L, sub, NULL, "card is already in another zone%s", NULL);
    P->placed[u] = 1;
    *uid = (int)u;
    return 0;
}

static int pile_in(lctx *L, pctx *P, const arb_tnode *m, const char *key, uint8_t *out, uint8_t *n,
                   int cap)
{
    const arb_tnode *a = arb_tnode_get(m, key);
    *n = 0;
    if (!a || a->kind == ARB_T_NULL) return 0;
    if (a->kind != ARB_T_ARR) return fail(L, key, NULL, "expected a list of cards%s", NULL);
    if ((int)a->n > cap) return fail(L, key, NULL, "too many cards%s", NULL);
    int i = 0;
    for (const arb_tnode *c = a->first; c; c = c->next, i++) {
        char sub[48];
        snprintf(sub, sizeof sub, "%s.%d", key, i);
        int uid, rc = ref(L, P, c, sub, &uid);
        if (rc) return rc;
        out[(*n)++] = (uint8_t)uid;
    }
    return 0;
}

static int slot_in(lctx *L, pctx *P, const arb_tnode *m, const char *key, int8_t *out)
{
    const arb_tnode *c = arb_tnode_get(m, key);
    *out = OPS_NONE8;
    if (!c || c->kind == ARB_T_NULL) return 0;
    int uid, rc = ref(L, P, c, key, &uid);
    if (rc) return rc;
    *out = (int8_t)uid;
    return 0;
}

static int load_player(lctx *L, ops_state *s, int seat, const arb_tnode *m)
{
    static const char *const keys[] = {
        "seat", "operator", "health", "staged_damage", "eliminated", "in_cover", "cards", "hand_count",
        "hand", "deck_count", "deck", "discard", "discard_top", "cover", "weapon", "weapon_two_handed",
        "armor", "mods", "opened", NULL
    };
    int rc = keys_ok(L, m, keys);
    if (rc) return rc;
    ops_player *p = &s->p[seat];
    pctx P;
    memset(&P, 0, sizeof P);
    P.p = p;
    int64_t v;
    if ((rc = get_int(L, m, "seat", seat, seat, seat, &v))) return rc;
    const arb_tnode *cl = arb_tnode_get(m, "cards");
    if (cl) {
        if (cl->kind != ARB_T_ARR) return fail(L, "cards", NULL, "expected a list of card ids%s", NULL);
        if (cl->n > OPS_MAX_CARDS) return fail(L, "cards", NULL, "too many cards for one seat%s", NULL);
        int i = 0;
        for (const arb_tnode *c = cl->first; c; c = c->next, i++) {
            char sub[32];
            snprintf(sub, sizeof sub, "cards.%d", i);
            int idx = c->kind == ARB_T_STR ? card_by_id(c->s) : -1;
            if (idx < 0) return fail(L, sub, NULL, "unknown card%s", NULL);
            p->card[p->ncards++] = (uint16_t)idx;
        }
        P.have_list = 1;
    }
    const arb_tnode *opn = arb_tnode_get(m, "operator");
    if (!opn) return fail(L, "operator", "OPS-DECK-OPERATOR", "every seat needs its Operator (Personality) card%s", NULL);
    int uid;
    if ((rc = ref(L, &P, opn, "operator", &uid))) return rc;
    p->personality = (uint8_t)uid;
    if (ops_uc(p, uid)->kind != OPS_K_PERSONALITY)
        return fail(L, "operator", "OPS-SETUP-PERSONALITY", "the Personality Zone holds a Personality card%s", NULL);
    if ((rc = pile_in(L, &P, m, "hand", p->hand, &p->nhand, OPS_MAX_CARDS))) return rc;
    if ((rc = pile_in(L, &P, m, "deck", p->deck, &p->ndeck, OPS_MAX_CARDS))) return rc;
    if ((rc = pile_in(L, &P, m, "discard", p->discard, &p->ndiscard, OPS_MAX_CARDS))) return rc;
    if ((rc = slot_in(L, &P, m, "cover", &p->cover))) return rc;
    if ((rc = slot_in(L, &P, m, "weapon", &p->weapon))) return rc;
    if ((rc = slot_in(L, &P, m, "armor", &p->armor))) return rc;
    const arb_tnode *mods = arb_tnode_get(m, "mods");
    if (mods) {
        size_t plen = strlen(L->path);
        snprintf(L->path + plen, sizeof L->path - plen, ".mods");
        static const char *const mk[] = { "personality", "weapon", "armor", NULL };
        rc = keys_ok(L, mods, mk);
        for (int k = 0; !rc && k < OPS_SLOTS; k++)
            rc = pile_in(L, &P, mods, slot_keys[k], p->mods[k], &p->nmods[k], OPS_MAX_MODS);
        L->path[plen] = 0;
        if (rc) return rc;
    }
    for (int u = 0; u < p->ncards; u++)
        if (!P.placed[u]) {
            char sub[32];
            snprintf(sub, sizeof sub, "cards.%d", u);
            return fail(L, sub, NULL, "card '%s' is in no zone", ops_uc(p, u)->pub.id);
        }
    /* Kinds per zone. */
    for (int u = 0; u < p->ncards; u++)
        if (u != p->personality && ops_uc(p, u)->kind == OPS_K_PERSONALITY)
            return fail(L, "cards", "OPS-DECK-OPERATOR", "a second Personality card cannot be in play%s", NULL);
    if (p->cover >= 0 && ops_uc(p, p->cover)->kind != OPS_K_COVER)
        return fail(L, "cover", "OPS-ZONE-COVER", "the Cover Zone holds only Cover cards%s", NULL);
    if (p->weapon >= 0 && ops_uc(p, p->weapon)->kind != OPS_K_WEAPON)
        return fail(L, "weapon", "OPS-ZONE-WEAPON", "the Second Weapon slot holds only weapons%s", NULL);
    if (p->armor >= 0 && ops_uc(p, p->armor)->kind != OPS_K_ARMOR)
        return fail(L, "armor", "OPS-ZONE-ARMOR", "the Armor slot holds only Armor%s", NULL);
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
                return fail(L, sub, "OPS-MOD-ATTACH", "not a valid Modifier for this item%s", NULL);
            }
        }
    int b;
    if ((rc = get_int(L, m, "health", -OPS_MAX_HEALTH_POS, OPS_MAX_HEALTH_POS, OPS_START_HEALTH, &v))) return rc;
    p->health = (int16_t)v;
    if ((rc = get_int(L, m, "staged_damage", 0, OPS_MAX_SD, 0, &v))) return rc;
    p->sd = (uint8_t)v;
    if ((rc = get_bool(L, m, "eliminated", &b))) return rc;
    p->eliminated = (uint8_t)b;
    if (!p->eliminated && p->health <= 0)
        return fail(L, "health", "OPS-G02", "a player at 0 Health or less is eliminated%s", NULL);
    const arb_tnode *op = arb_tnode_get(m, "opened");
    if (op) {
        static const char *const ok[] = { "weapon", "cover", "armor", NULL };
        size_t plen = strlen(L->path);
        snprintf(L->path + plen, sizeof L->path - plen, ".opened");
        rc = keys_ok(L, op, ok);
        int w = 0, c = 0, a = 0;
        if (!rc) rc = get_bool(L, op, "weapon", &w);
        if (!rc) rc = get_bool(L, op, "cover", &c);
        if (!rc) rc = get_bool(L, op, "armor", &a);
        L->path[plen] = 0;
        if (rc) return rc;
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

static int check_derived(lctx *L, const ops_state *s, const arb_tnode *pos)
{
    arb_tree *t = arb_tree_new();
    if (!t) return arb_error_set(L->err, ARB_ENOMEM, NULL, "out of memory");
    arb_tnode *root = arb_tree_root(t);
    arb_operator__export(s, ARB_VIEW_ALL, t, root);
    int rc = 0;
    static const char *const top[] = { "game", "phase", NULL };
    for (const char *const *k = top; *k && !rc; k++) {
        const arb_tnode *in = arb_tnode_get(pos, *k);
        if (in && !arb_tnode_equal(in, arb_tnode_get(root, *k)))
            rc = fail(L, *k, NULL, "'%s' disagrees with the rest of the position", *k);
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
                rc = fail(L, sub, NULL, "'%s' disagrees with the zones", *k);
            }
        }
        const arb_tnode *in = arb_tnode_get(im, "discard_top");
        if (!rc && in && !same_ref(in, arb_tnode_get(em, "discard_top"))) {
            snprintf(sub, sizeof sub, "players.%d.discard_top", i);
            rc = fail(L, sub, NULL, "discard_top is not the last card of discard%s", NULL);
        }
    }
    arb_tree_free(t);
    return rc;
}

static int load_combat(lctx *L, ops_state *s, const arb_tnode *c)
{
    static const char *const keys[] = {
        "attacker", "target", "type", "mode", "weapon_source", "weapon", "boost", "reactions",
        "armor_piercing", "staged_damage", "power", "cover_total", "attack", "absorbed", "damage", NULL
    };
    size_t plen = strlen(L->path);
    snprintf(L->path + plen, sizeof L->path - plen, "combat");
    int rc = keys_ok(L, c, keys);
    ops_combat *cb = &s->cb;
    int64_t v = 0;
    int e = 0;
    const ops_player *A = &s->p[s->active];
    if (!rc) rc = get_int(L, c, "attacker", s->active, s->active, s->active, &v);
    if (!rc) rc = get_int(L, c, "target", 0, s->players - 1, -1, &v);
    if (!rc && (v < 0 || v == s->active || s->p[v].eliminated))
        rc = fail(L, "target", "OPS-G23", "the target must be another player still in the game%s", NULL);
    if (!rc) cb->target = (int8_t)v;
    if (!rc) rc = get_enum(L, c, "type", arb_operator__combat_types, 3,
                           s->p[cb->target].cover >= 0 ? OPS_CT_RANGED_COVER
                           : A->cover >= 0 ? OPS_CT_RANGED_OPEN : OPS_CT_CLOSE, &e);
    cb->type = (uint8_t)e;
    if (!rc) {
        /* Step 1 fixed the type at the attack; only a Cover broken in Step 3
         * can make it differ from the present Cover state (then: react). */
        int now = s->p[cb->target].cover >= 0 ? OPS_CT_RANGED_COVER : A->cover >= 0 ? OPS_CT_RANGED_OPEN : OPS_CT_CLOSE;
        if (e != now && !(e == OPS_CT_RANGED_COVER && s->phase == OPS_PH_REACT))
            rc = fail(L, "type", "OPS-COMBAT-TYPES", "the combat type disagrees with the Cover state%s", NULL);
    }
    int mode_now = A->cover >= 0 ? OPS_MODE_RANGED : OPS_MODE_CLOSE;
    if (!rc) rc = get_enum(L, c, "mode", mode_names, 2, mode_now, &e);
    if (!rc && e != mode_now)
        rc = fail(L, "mode", "OPS-WPN-PRIMARY", "the weapon mode follows the attacker's Cover (G05)%s", NULL);
    cb->mode = (uint8_t)e;
    int src = 0, wuid = -1;
    if (!rc) {
        arb_operator__weapon_for(s, s->active, cb->mode, &src, &wuid);
        rc = get_enum(L, c, "weapon_source", source_names, 2, src, &e);
        if (!rc && e != src)
            rc = fail(L, "weapon_source", "OPS-COMBAT-STEP2-MUSTEQUIPPED", "the weapon source is fixed by the equipped weapon and the mode%s", NULL);
    }
    cb->source = (uint8_t)src;
    cb->wuid = (int8_t)wuid;
    const arb_tnode *w = arb_tnode_get(c, "weapon");
    if (!rc && w && !(w->kind == ARB_T_NULL ? wuid < 0 : wuid >= 0 && w->kind == ARB_T_MAP &&
                                                          arb_tnode_get(w, "uid") &&
                                                          arb_tnode_get(w, "uid")->kind == ARB_T_INT &&
                                                          arb_tnode_get(w, "uid")->i == wuid))
        rc = fail(L, "weapon", NULL, "the weapon disagrees with the attacker's slots%s", NULL);
    cb->boost = OPS_NONE8;
    const arb_tnode *bo = arb_tnode_get(c, "boost");
    if (!rc && bo && bo->kind != ARB_T_NULL) {
        const arb_tnode *bu = bo->kind == ARB_T_MAP ? arb_tnode_get(bo, "uid") : bo;
        if (!bu || bu->kind != ARB_T_INT || bu->i < 0 || bu->i >= A->ncards ||
            ops_uc(A, (int)bu->i)->kind != OPS_K_BOOST)
            rc = fail(L, "boost", NULL, "boost must be the UID of one of the attacker's Boost cards%s", NULL);
        else cb->boost = (int8_t)bu->i;
    }
    if (!rc) rc = get_int(L, c, "reactions", 0, OPS_MAX_REACTIONS, 0, &v);
    cb->reactions = (uint8_t)v;
    if (!rc) rc = get_bool(L, c, "armor_piercing", &e);
    cb->ap = (uint8_t)e;
    if (!rc) rc = get_int(L, c, "staged_damage", 0, OPS_MAX_SD, 0, &v);
    cb->sd = (uint8_t)v;
    if (!rc) rc = get_int(L, c, "power", 0, 999, 0, &v);
    cb->power = (int16_t)v;
    if (!rc) rc = get_int(L, c, "cover_total", -1, 999, -1, &v);
    cb->cover_total = (int16_t)v;
    if (!rc) rc = get_int(L, c, "attack", 0, 999, 0, &v);
    cb->attack = (int16_t)v;
    if (!rc) rc = get_int(L, c, "absorbed", 0, 999, 0, &v);
    cb->absorbed = (int16_t)v;
    if (!rc) rc = get_int(L, c, "damage", 0, 999, 0, &v);
    cb->damage = (int16_t)v;
    L->path[plen] = 0;
    return rc;
}

int arb_operator__load(void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    static ops_state zero;
    ops_state s = zero;
    lctx L;
    memset(&L, 0, sizeof L);
    L.err = err;
    static const char *const keys[] = {
        "game", "turn", "phase", "active", "first", "decision", "turn_state", "combat", "outcome",
        "rng", "players", NULL
    };
    int rc = keys_ok(&L, pos, keys);
    if (rc) return rc;
    const arb_tnode *g = arb_tnode_get(pos, "game");
    if (g && (g->kind != ARB_T_STR || strcmp(g->s, "operator") != 0))
        return fail(&L, "game", NULL, "this position is not for operator%s", NULL);
    const arb_tnode *pl = arb_tnode_get(pos, "players");
    if (!pl || pl->kind != ARB_T_ARR) return fail(&L, "players", NULL, "a list of players is required%s", NULL);
    if (pl->n < 2 || pl->n > ARB_MAX_SEATS) return fail(&L, "players", "OPS-G29", "OPERATOR is played by 2 to 4 players%s", NULL);
    if (su && su->players && (unsigned)su->players != pl->n)
        return fail(&L, "players", NULL, "the position's player count differs from the match's%s", NULL);
    s.players = (uint8_t)pl->n;
    s.winner = -1;
    s.cb.target = OPS_NONE8;
    arb_rng_seed(&s.rng, su ? su->seed : 0);
    int i = 0;
    for (const arb_tnode *m = pl->first; m; m = m->next, i++) {
        snprintf(L.path, sizeof L.path, "players.%d", i);
        if ((rc = load_player(&L, &s, i, m))) return rc;
    }
    L.path[0] = 0;
    const arb_tnode *r = arb_tnode_get(pos, "rng");
    if (r) {
        if (r->kind != ARB_T_ARR || r->n != 4) return fail(&L, "rng", NULL, "rng is 4 hex words%s", NULL);
        int k = 0;
        for (const arb_tnode *w = r->first; w; w = w->next, k++) {
            char *end = NULL;
            if (w->kind != ARB_T_STR || strlen(w->s) != 16) return fail(&L, "rng", NULL, "rng words are 16 hex digits%s", NULL);
            s.rng.s[k] = strtoull(w->s, &end, 16);
            if (!end || *end) return fail(&L, "rng", NULL, "rng words are 16 hex digits%s", NULL);
        }
        if (!(s.rng.s[0] | s.rng.s[1] | s.rng.s[2] | s.rng.s[3])) return fail(&L, "rng", NULL, "an all-zero rng state is invalid%s", NULL);
    }
    int64_t v;
    int b;
    if ((rc = get_int(&L, pos, "turn", 0, OPS_TURN_CAP, 1, &v))) return rc;
    s.turn = (uint32_t)v;
    if ((rc = get_int(&L, pos, "active", 0, s.players - 1, 0, &v))) return rc;
    s.active = (uint8_t)v;
    if ((rc = get_int(&L, pos, "first", 0, s.players - 1, 0, &v))) return rc;
    s.first = (uint8_t)v;
    /* Outcome. */
    const arb_tnode *o = arb_tnode_get(pos, "outcome");
    int over = 0, reason = 0;
    int64_t winner = -1;
    if (o) {
        static const char *const ok[] = { "over", "winner", "reason", NULL };
        snprintf(L.path, sizeof L.path, "outcome");
        if (!(rc = keys_ok(&L, o, ok)) && !(rc = get_bool(&L, o, "over", &over)) &&
            !(rc = get_int(&L, o, "winner", -1, s.players - 1, -1, &winner)))
            rc = get_enum(&L, o, "reason", arb_operator__reason_names, OPS_R_COUNT, 0, &reason);
        if (!rc && over != (reason != 0)) rc = fail(&L, "reason", NULL, "an over match needs a reason, a running one none%s", NULL);
        L.path[0] = 0;
        if (rc) return rc;
    }
    int alive = 0, last = -1;
    for (int q = 0; q < s.players; q++)
        if (!s.p[q].eliminated) { alive++; last = q; }
    if (!over && alive < 2) return fail(&L, "players", "OPS-G02", "a running match needs two players still in the game%s", NULL);
    if (over && reason == OPS_R_ELIMINATION && (alive != 1 || winner != last))
        return fail(&L, "outcome.winner", "OPS-G02", "the winner is the last player standing%s", NULL);
    /* Decision / phase. */
    const arb_tnode *d = arb_tnode_get(pos, "decision");
    int kind = 3; /* first-equip */
    int64_t dseat = -99;
    if (d) {
        static const char *const ok[] = { "seat", "kind", NULL };
        snprintf(L.path, sizeof L.path, "decision");
        if (!(rc = keys_ok(&L, d, ok)) && !(rc = get_enum(&L, d, "kind", arb_operator__decision_names, 9, 3, &kind)))
            rc = get_int(&L, d, "seat", ARB_SEAT_NONE, s.players - 1, -99, &dseat);
        L.path[0] = 0;
        if (rc) return rc;
    } else {
        const arb_tnode *ph = arb_tnode_get(pos, "phase");
        if (ph && ph->kind == ARB_T_STR && strcmp(ph->s, "action") == 0) kind = 4;
        else if (ph && ph->kind == ARB_T_STR && strcmp(ph->s, "second-equip") == 0) kind = 7;
    }
    if (over) {
        if (kind != 0 && kind != 8) return fail(&L, "decision.kind", NULL, "an over match owes no decision%s", NULL);
        s.over = 1; s.winner = (int8_t)winner; s.reason = (uint8_t)reason;
        s.phase = OPS_PH_OVER; s.owner = ARB_SEAT_NONE;
    } else {
        if (kind == 0 || kind == 8) return fail(&L, "decision.kind", NULL, "a running match owes a decision%s", NULL);
        s.phase = (uint8_t)(kind - 1);
        if (s.phase >= OPS_PH_EQUIP1 && s.p[s.active].eliminated)
            return fail(&L, "active", NULL, "the active player is eliminated%s", NULL);
        if (s.phase <= OPS_PH_OPEN_EQUIP) {
            s.owner = (int8_t)(dseat >= 0 ? dseat : 0);
            if (s.turn != 0) return fail(&L, "turn", "OPS-SETUP-ORDER", "the opening happens before turn 1 (turn 0)%s", NULL);
        } else {
            if (s.turn == 0) return fail(&L, "turn", "OPS-SETUP-ORDER", "turns start at 1 after the opening%s", NULL);
            s.owner = (int8_t)s.active;
        }
    }
    /* Turn state. */
    s.moves_allowed = 1; s.attacks_allowed = 1;
    const arb_tnode *ts = arb_tnode_get(pos, "turn_state");
    if (ts) {
        static const char *const ok[] = { "moves_used", "moves_allowed", "attacks_made", "attacks_allowed",
                                          "attacked", "acted", "end_draws", NULL };
        snprintf(L.path, sizeof L.path, "turn_state");
        if ((rc = keys_ok(&L, ts, ok))) return rc;
        if ((rc = get_int(&L, ts, "moves_used", 0, 99, 0, &v))) return rc;
        s.moves_used = (uint8_t)v;
        if ((rc = get_int(&L, ts, "moves_allowed", 0, 99, 1, &v))) return rc;
        s.moves_allowed = (uint8_t)v;
        if ((rc = get_int(&L, ts, "attacks_made", 0, 99, 0, &v))) return rc;
        s.attacks_made = (uint8_t)v;
        if ((rc = get_int(&L, ts, "attacks_allowed", 0, 99, 1, &v))) return rc;
        s.attacks_allowed = (uint8_t)v;
        if ((rc = get_bool(&L, ts, "acted", &b))) return rc;
        s.acted = (uint8_t)b;
        if ((rc = get_int(&L, ts, "end_draws", 0, 99, 0, &v))) return rc;
        s.end_draws = (uint8_t)v;
        const arb_tnode *at = arb_tnode_get(ts, "attacked");
        if (at) {
            if (at->kind != ARB_T_ARR) return fail(&L, "attacked", NULL, "expected a list of seats%s", NULL);
            for (const arb_tnode *x = at->first; x; x = x->next) {
                if (x->kind != ARB_T_INT || x->i < 0 || x->i >= s.players || x->i == s.active)
                    return fail(&L, "attacked", NULL, "not another seat%s", NULL);
                s.attacked |= (uint8_t)(1u << x->i);
            }
        }
        L.path[0] = 0;
    }
    /* Combat. */
    const arb_tnode *c = arb_tnode_get(pos, "combat");
    int in_combat = !over && (s.phase == OPS_PH_BOOST || s.phase == OPS_PH_REACT);
    if (in_combat) {
        if (!c || c->kind == ARB_T_NULL) return fail(&L, "combat", NULL, "a combat decision needs the combat%s", NULL);
        if ((rc = load_combat(&L, &s, c))) return rc;
        if (s.phase == OPS_PH_REACT) {
            s.owner = s.cb.target;
            if (s.cb.damage <= 0) return fail(&L, "combat.damage", "OPS-COMBAT-STEP5-REACT", "reactions are owed only while damage remains%s", NULL);
        }
        if (!(s.attacked & (1u << s.cb.target)) || s.attacks_made == 0)
            return fail(&L, "turn_state.attacked", NULL, "the combat's target must be among the attacked seats%s", NULL);
    } else if (c && c->kind != ARB_T_NULL)
        return fail(&L, "combat", NULL, "combat is only part of a boost or react decision%s", NULL);
    if (!over && dseat != -99 && dseat != s.owner)
        return fail(&L, "decision.seat", NULL, "the seat owing this decision is another one%s", NULL);
    if ((rc = check_derived(&L, &s, pos))) return rc;
    memcpy(st, &s, sizeof s);
    return ARB_OK;
}
