/* export.c — the Brainstorm state tree: export_state and load_position.
 *
 * One tree shape (documented in conformance/brainstorm/STATE.md) serves
 * `state --json`, conformance assertions and diffs. A seat's view masks
 * what the rules hide: every Deck's contents (BRN-ZONE-DECK-HIDDEN, counts
 * only), the opponent's Hand (BRN-ZONE-HAND-VISIBILITY) and the PRNG.
 * load_position accepts the full export (fields may be omitted, see
 * STATE.md), validates it as strictly as an action, and names the path of
 * the first bad field in err->where. */
#include <stdio.h>
#include <string.h>

#include "games/brainstorm/brainstorm.h"

static const char *const stack_kinds[] = { "card", "trigger" };

static void card_obj(arb_tree *t, arb_tnode *arr, const brn_state *s, int seat, int uid)
{
    arb_tnode *o = arb_tree_add_map(t, arr, NULL);
    arb_tree_add_int(t, o, "uid", uid);
    arb_tree_add_str(t, o, "card", arb_brainstorm__def(s, seat, uid)->pub.id);
}

static void machine_obj(arb_tree *t, arb_tnode *arr, const brn_state *s, int seat, int uid)
{
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    const brn_cardst *c = &s->p[seat].c[uid];
    arb_tnode *o = arb_tree_add_map(t, arr, NULL);
    arb_tree_add_int(t, o, "uid", uid);
    arb_tree_add_str(t, o, "card", d->pub.id);
    if (d->type == BRN_T_CELL) {
        arb_tree_add_bool(t, o, "active", (c->flags & BRN_F_ACTIVE) != 0);
        return;
    }
    arb_tree_add_int(t, o, "charge", c->charge);
    if (d->type == BRN_T_MODULE) {
        arb_tree_add_bool(t, o, "focused", (c->flags & BRN_F_FOCUSED) != 0);
        arb_tree_add_bool(t, o, "pending", (c->flags & BRN_F_PENDING) != 0);
    }
    arb_tnode *u = arb_tree_add_arr(t, o, "used");
    for (int i = 0; i < d->outs; i++) arb_tree_add_bool(t, u, NULL, (c->used >> i) & 1);
}

void arb_brainstorm__export(const void *st, int view, arb_tree *t, arb_tnode *root)
{
    const brn_state *s = st;
    arb_decision d = arb_brainstorm__decision(s);
    arb_tree_add_str(t, root, "game", "brainstorm");
    arb_tree_add_int(t, root, "cycle", s->cycle);
    arb_tree_add_int(t, root, "lead", s->lead);
    arb_tree_add_str(t, root, "phase", arb_brainstorm__phase(s));
    arb_tnode *dn = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, dn, "seat", d.seat);
    arb_tree_add_str(t, dn, "kind", s->over ? "none" : arb_brainstorm__decision_names[d.kind]);
    arb_tree_add_int(t, root, "passes", s->passes);
    arb_tree_add_int(t, root, "run", s->run);
    arb_tree_add_bool(t, root, "chosen", s->chosen);
    arb_tnode *on = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, on, "over", s->over);
    arb_tree_add_int(t, on, "winner", s->over ? s->winner : -1);
    arb_tree_add_str(t, on, "reason", arb_brainstorm__reason_names[s->reason < BRN_NREASONS ? s->reason : 0]);
    arb_tnode *sk = arb_tree_add_arr(t, root, "stack");
    for (int i = 0; i < s->nstack; i++) {
        const brn_item *it = &s->stack[i];
        arb_tnode *o = arb_tree_add_map(t, sk, NULL);
        arb_tree_add_str(t, o, "kind", stack_kinds[it->kind ? 1 : 0]);
        arb_tree_add_int(t, o, "seat", it->seat);
        arb_tree_add_int(t, o, "uid", it->uid);
        arb_tree_add_str(t, o, "card", arb_brainstorm__def(s, it->seat, it->uid)->pub.id);
        if (it->tseat != BRN_NONE) {
            arb_tree_add_int(t, o, "target_seat", it->tseat);
            arb_tree_add_int(t, o, "target_uid", it->tuid);
        }
    }
    arb_tnode *pl = arb_tree_add_arr(t, root, "players");
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        const brn_player *p = &s->p[seat];
        arb_tnode *pn = arb_tree_add_map(t, pl, NULL);
        arb_tree_add_int(t, pn, "deck_count", p->nz[BRN_Z_DECK]);
        arb_tree_add_int(t, pn, "hand_count", p->nz[BRN_Z_HAND]);
        arb_tree_add_int(t, pn, "max_hand", arb_brainstorm__hook_max_hand(s, seat));
        arb_tree_add_int(t, pn, "boot_count", p->boot_count);
        if (view == ARB_VIEW_ALL) {            /* deck order: full view only, top first */
            arb_tnode *dk = arb_tree_add_arr(t, pn, "deck");
            for (int i = p->nz[BRN_Z_DECK] - 1; i >= 0; i--) card_obj(t, dk, s, seat, p->z[BRN_Z_DECK][i]);
        }
        if (view == ARB_VIEW_ALL || view == seat) {
            arb_tnode *hn = arb_tree_add_arr(t, pn, "hand");
            for (int i = 0; i < p->nz[BRN_Z_HAND]; i++) card_obj(t, hn, s, seat, p->z[BRN_Z_HAND][i]);
        }
        arb_tnode *mn = arb_tree_add_arr(t, pn, "machine");
        for (int i = 0; i < p->nz[BRN_Z_MACHINE]; i++) machine_obj(t, mn, s, seat, p->z[BRN_Z_MACHINE][i]);
        arb_tnode *sn = arb_tree_add_arr(t, pn, "scrapyard");
        for (int i = 0; i < p->nz[BRN_Z_SCRAP]; i++) card_obj(t, sn, s, seat, p->z[BRN_Z_SCRAP][i]);
        arb_tnode *ln = arb_tree_add_arr(t, pn, "links");
        for (int i = 0; i < p->nlinks; i++) {
            arb_tnode *o = arb_tree_add_map(t, ln, NULL);
            arb_tree_add_int(t, o, "from", p->links[i].from);
            arb_tree_add_int(t, o, "out", p->links[i].out);
            arb_tree_add_int(t, o, "to", p->links[i].to);
            arb_tree_add_int(t, o, "in", p->links[i].in);
        }
    }
    if (view == ARB_VIEW_ALL) {
        arb_tnode *rn = arb_tree_add_arr(t, root, "rng");
        for (int i = 0; i < 4; i++) arb_tree_add_int(t, rn, NULL, (int64_t)s->rng.s[i]);
    }
}

/* ---- load_position ----------------------------------------------------- */
typedef struct {
    arb_error *err;
    char path[128];
} ld;

#define LD_FAIL(L, rule, ...) \
    do { arb_error_set((L)->err, ARB_EINVAL, rule, __VA_ARGS__); \
         arb_error_where((L)->err, "%s", (L)->path); return ARB_EINVAL; } while (0)

/* Reject any key of map m not in the NULL-terminated allowed list. */
static int ld_keys(ld *L, const arb_tnode *m, const char *base, const char *const *allowed)
{
    if (!m || m->kind != ARB_T_MAP) {
        snprintf(L->path, sizeof L->path, "%s", base[0] ? base : "(root)");
        LD_FAIL(L, "BRN-ZONE-FIVE", "expected a map");
    }
    for (const arb_tnode *c = m->first; c; c = c->next) {
        int ok = 0;
        for (const char *const *k = allowed; *k; k++) ok |= strcmp(*k, c->key) == 0;
        if (!ok) {
            snprintf(L->path, sizeof L->path, "%s%s%s", base, base[0] ? "." : "", c->key);
            LD_FAIL(L, "BRN-ZONE-FIVE", "unknown field '%s'", c->key);
        }
    }
    return 0;
}

static int ld_int(ld *L, const arb_tnode *m, const char *key, const char *base,
                  int64_t lo, int64_t hi, int64_t *out)
{
    const arb_tnode *n = arb_tnode_get(m, key);
    if (!n) return 1;
    snprintf(L->path, sizeof L->path, "%s%s%s", base, base[0] ? "." : "", key);
    if (n->kind != ARB_T_INT && n->kind != ARB_T_BOOL) LD_FAIL(L, "BRN-ZONE-FIVE", "expected an integer");
    if (n->i < lo || n->i > hi) LD_FAIL(L, "BRN-ZONE-FIVE", "value %lld out of range %lld..%lld",
                                       (long long)n->i, (long long)lo, (long long)hi);
    *out = n->i;
    return 0;
}

static int ld_bool(ld *L, const arb_tnode *m, const char *key, const char *base, int *out)
{
    const arb_tnode *n = arb_tnode_get(m, key);
    if (!n) return 1;
    snprintf(L->path, sizeof L->path, "%s.%s", base, key);
    if (n->kind != ARB_T_BOOL && !(n->kind == ARB_T_INT && (n->i == 0 || n->i == 1)))
        LD_FAIL(L, "BRN-ZONE-FIVE", "expected a boolean");
    *out = (int)n->i;
    return 0;
}

static int name_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++) if (strcmp(names[i], s) == 0) return i;
    return -1;
}

/* Per-seat UID bookkeeping while loading. */
typedef struct {
    int explicit_uids;   /* -1 unknown, 0 auto, 1 explicit */
    int next;
    uint8_t seen[BRN_CARDS_MAX];
} ld_seat;

/* Read {uid?, card} and place a card of seat in zone. Returns uid or <0. */
static int ld_card(ld *L, brn_state *s, ld_seat *ls, int seat, const arb_tnode *o,
                   const char *base, int zone, const char *const *keys)
{
    /* A bare string is a card id with no uid and default state. */
    const arb_tnode *cn = o;
    if (!o || o->kind != ARB_T_STR) {
        if (ld_keys(L, o, base, keys)) return -1;
        cn = arb_tnode_get(o, "card");
    }
    snprintf(L->path, sizeof L->path, "%s.card", base);
    if (!cn || cn->kind != ARB_T_STR) LD_FAIL(L, "BRN-ZONE-FIVE", "a card needs \"card\": a card id");
    int id = arb_brainstorm__card_by_slug(cn->s);
    if (id < 0) LD_FAIL(L, "BRN-ZONE-FIVE", "unknown card id '%s'", cn->s);
    int64_t uid = -1;
    int has = o->kind == ARB_T_STR ? 1 : ld_int(L, o, "uid", base, 0, BRN_CARDS_MAX - 1, &uid);
    if (has < 0) return -1;
    int expl = has == 0;
    if (ls->explicit_uids >= 0 && ls->explicit_uids != expl) {
        snprintf(L->path, sizeof L->path, "%s", base);
        LD_FAIL(L, "BRN-ZONE-FIVE", "give a uid for every card of this seat or for none");
    }
    ls->explicit_uids = expl;
    if (!expl) {
        if (ls->next >= BRN_CARDS_MAX) { snprintf(L->path, sizeof L->path, "%s", base);
            LD_FAIL(L, "BRN-ZONE-FIVE", "more than %d cards", BRN_CARDS_MAX); }
        uid = ls->next++;
    }
    if (ls->seen[uid]) {
        snprintf(L->path, sizeof L->path, "%s.uid", base);
        LD_FAIL(L, "BRN-ZONE-FIVE", "uid %d appears twice: a card is in exactly one zone", (int)uid);
    }
    ls->seen[uid] = 1;
    brn_player *p = &s->p[seat];
    p->c[uid].id = (uint8_t)id;
    if (uid + 1 > p->ncards) p->ncards = (uint8_t)(uid + 1);
    const brn_carddef *d = &arb_brainstorm__cards[id];
    snprintf(L->path, sizeof L->path, "%s", base);
    if (d->type == BRN_T_GENERATOR && zone != BRN_Z_MACHINE)
        LD_FAIL(L, "BRN-ZONE-MACHINE", "a Generator is always on its owner's Machine");
    if (zone == BRN_Z_MACHINE && d->type == BRN_T_TACTIC)
        LD_FAIL(L, "BRN-ZONE-MACHINE", "a Tactic cannot be on the Machine");
    if (zone == BRN_Z_STACK && d->type != BRN_T_TACTIC && d->type != BRN_T_CELL)
        LD_FAIL(L, "BRN-ZONE-STACK", "only Tactics and Cells are played onto the Stack");
    if (zone == BRN_Z_MACHINE && d->type == BRN_T_GENERATOR) {
        if (p->gen != BRN_NONE) LD_FAIL(L, "BRN-ZONE-MACHINE", "a Machine holds one Generator");
        p->gen = (uint8_t)uid;
    }
    arb_brainstorm__zone_add(p, (int)uid, zone);
    return (int)uid;
}

static const char *const k_card[] = { "uid", "card", NULL };
static const char *const k_mach[] = { "uid", "card", "charge", "active", "focused", "pending", "used", NULL };
static const char *const k_link[] = { "from", "out", "to", "in", NULL };
static const char *const k_item[] = { "kind", "seat", "uid", "card", "target_seat", "target_uid", NULL };
static const char *const k_player[] = { "deck_count", "hand_count", "max_hand", "boot_count", "deck", "hand",
                                        "machine", "scrapyard", "links", NULL };
static const char *const k_root[] = { "game", "cycle", "lead", "phase", "decision", "passes", "run", "chosen",
                                      "outcome", "stack", "players", "rng", NULL };

static int ld_machine_state(ld *L, brn_state *s, int seat, int uid, const arb_tnode *o, const char *base)
{
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    brn_cardst *c = &s->p[seat].c[uid];
    int64_t v; int b, r;
    if ((r = ld_int(L, o, "charge", base, 0, BRN_CHARGE_MAX, &v)) < 0) return -1;
    if (r == 0) {
        if (d->type == BRN_T_CELL) LD_FAIL(L, "BRN-START-CHARGE", "a Cell holds no Charge");
        c->charge = (uint8_t)v;
    }
    if ((r = ld_bool(L, o, "active", base, &b)) < 0) return -1;
    if (r == 0 && b) {
        if (d->type != BRN_T_CELL) LD_FAIL(L, "BRN-RESET-CELLS", "only Cells are active");
        c->flags |= BRN_F_ACTIVE;
    }
    if ((r = ld_bool(L, o, "focused", base, &b)) < 0) return -1;
    if (r == 0 && b) {
        if (d->type != BRN_T_MODULE) LD_FAIL(L, "BRN-BOOT-FOCUS", "only Modules are focused");
        c->flags |= BRN_F_FOCUSED;
    }
    if ((r = ld_bool(L, o, "pending", base, &b)) < 0) return -1;
    if (r == 0 && b) {
        if (!(c->flags & BRN_F_FOCUSED) || s->phase != BRN_P_FOCUS)
            LD_FAIL(L, "BRN-FOCUS-CHOOSE", "only a focused Module awaits Focus, and only in focus");
        c->flags |= BRN_F_PENDING;
    }
    const arb_tnode *u = arb_tnode_get(o, "used");
    if (u) {
        snprintf(L->path, sizeof L->path, "%s.used", base);
        if (u->kind != ARB_T_ARR || u->n > d->outs)
            LD_FAIL(L, "BRN-BOOT-USED", "expected at most %d booleans, one per Output", d->outs);
        int i = 0;
        for (const arb_tnode *x = u->first; x; x = x->next, i++) {
            if (x->kind != ARB_T_BOOL && x->kind != ARB_T_INT) LD_FAIL(L, "BRN-BOOT-USED", "expected booleans");
            if (x->i) c->used |= (uint8_t)(1u << i);
        }
    }
    return 0;
}

static int ld_player(ld *L, brn_state *s, ld_seat *ls, int seat, const arb_tnode *pn)
{
    char base[64], eb[96];
    snprintf(base, sizeof base, "players.%d", seat);
    if (ld_keys(L, pn, base, k_player)) return -1;
    brn_player *p = &s->p[seat];
    /* Zones in uid-assignment order: deck (top first), hand, machine, scrapyard. */
    static const char *const zk[] = { "deck", "hand", "machine", "scrapyard" };
    static const int zz[] = { BRN_Z_DECK, BRN_Z_HAND, BRN_Z_MACHINE, BRN_Z_SCRAP };
    for (int k = 0; k < 4; k++) {
        const arb_tnode *arr = arb_tnode_get(pn, zk[k]);
        if (!arr) continue;
        snprintf(L->path, sizeof L->path, "%s.%s", base, zk[k]);
        if (arr->kind != ARB_T_ARR) LD_FAIL(L, "BRN-ZONE-FIVE", "expected a list of cards");
        int i = 0;
        for (const arb_tnode *o = arr->first; o; o = o->next, i++) {
            snprintf(eb, sizeof eb, "%s.%s.%d", base, zk[k], i);
            int uid = ld_card(L, s, ls, seat, o, eb, zz[k], zz[k] == BRN_Z_MACHINE ? k_mach : k_card);
            if (uid < 0) return -1;
            if (zz[k] == BRN_Z_MACHINE && o->kind == ARB_T_MAP && ld_machine_state(L, s, seat, uid, o, eb)) return -1;
        }
        if (zz[k] == BRN_Z_DECK) {  /* exported top first; stored top last */
            for (int a = 0, b = p->nz[BRN_Z_DECK] - 1; a < b; a++, b--) {
                uint8_t t = p->z[BRN_Z_DECK][a]; p->z[BRN_Z_DECK][a] = p->z[BRN_Z_DECK][b]; p->z[BRN_Z_DECK][b] = t;
            }
        }
    }
    if (arb_brainstorm__machine_modules(s, seat) > BRN_MACHINE_MODULES) {
        snprintf(L->path, sizeof L->path, "%s.machine", base);
        LD_FAIL(L, "BRN-EXP-ENABLE", "a Machine holds at most %d Modules (G06)", BRN_MACHINE_MODULES);
    }
    int64_t v;
    int r = ld_int(L, pn, "boot_count", base, 0, 255, &v);
    if (r < 0) return -1;
    if (r == 0) p->boot_count = (uint8_t)v;
    return 0;
}

static int ld_links(ld *L, brn_state *s, int seat, const arb_tnode *pn)
{
    char base[64];
    const arb_tnode *arr = arb_tnode_get(pn, "links");
    if (!arr) return 0;
    snprintf(L->path, sizeof L->path, "players.%d.links", seat);
    if (arr->kind != ARB_T_ARR) LD_FAIL(L, "BRN-ROUTE-LINK", "expected a list of links");
    int i = 0;
    for (const arb_tnode *o = arr->first; o; o = o->next, i++) {
        snprintf(base, sizeof base, "players.%d.links.%d", seat, i);
        if (ld_keys(L, o, base, k_link)) return -1;
        int64_t f = -1, out = -1, to = -1, in = -1;
        if (ld_int(L, o, "from", base, 0, BRN_CARDS_MAX - 1, &f) || ld_int(L, o, "out", base, 0, BRN_PORTS_MAX - 1, &out) ||
            ld_int(L, o, "to", base, 0, BRN_CARDS_MAX - 1, &to) || ld_int(L, o, "in", base, 0, BRN_PORTS_MAX - 1, &in)) {
            snprintf(L->path, sizeof L->path, "%s", base);
            LD_FAIL(L, "BRN-ROUTE-LINK", "a link needs from, out, to and in");
        }
        arb_action a;
        memset(&a, 0, sizeof a);
        a.seat = (int8_t)seat; a.verb = BRN_V_LINK; a.nargs = 4;
        a.args[0] = (int32_t)f; a.args[1] = (int32_t)out; a.args[2] = (int32_t)to; a.args[3] = (int32_t)in;
        /* The same checks as an action in Routing, with the hooks of this state. */
        brn_state tmp = *s;
        tmp.phase = BRN_P_ROUTING; tmp.actor = (uint8_t)seat; tmp.over = 0;
        arb_error e2 = ARB_ERROR_INIT;
        if (arb_brainstorm__validate(&tmp, &a, &e2)) {
            snprintf(L->path, sizeof L->path, "%s", base);
            LD_FAIL(L, e2.rule, "%s", e2.msg);
        }
        brn_link *l = &s->p[seat].links[s->p[seat].nlinks++];
        l->from = (uint8_t)f; l->out = (uint8_t)out; l->to = (uint8_t)to; l->in = (uint8_t)in;
    }
    return 0;
}

static int ld_stack(ld *L, brn_state *s, ld_seat *ls, const arb_tnode *arr)
{
    char base[64];
    snprintf(L->path, sizeof L->path, "stack");
    if (arr->kind != ARB_T_ARR) LD_FAIL(L, "BRN-ZONE-STACK", "expected a list");
    /* A match can end mid-resolution (a deck-out draw), leaving items behind. */
    if (arr->n && s->phase != BRN_P_ASSEMBLY && s->phase != BRN_P_PLUG && s->phase != BRN_P_SHOWDOWN &&
        s->phase != BRN_P_OVER)
        LD_FAIL(L, "BRN-ZONE-STACK", "the Stack is empty outside Assembly, Plug and Showdown");
    int i = 0;
    for (const arb_tnode *o = arr->first; o; o = o->next, i++) {
        snprintf(base, sizeof base, "stack.%d", i);
        if (ld_keys(L, o, base, k_item)) return -1;
        int64_t seat, ts = -1, tu = -1;
        if (ld_int(L, o, "seat", base, 0, 1, &seat)) {
            snprintf(L->path, sizeof L->path, "%s.seat", base);
            LD_FAIL(L, "BRN-ZONE-STACK", "a Stack item needs its seat");
        }
        const arb_tnode *kn = arb_tnode_get(o, "kind");
        int kind = BRN_S_CARD;
        if (kn) {
            snprintf(L->path, sizeof L->path, "%s.kind", base);
            if (kn->kind != ARB_T_STR || (kind = name_index(stack_kinds, 2, kn->s)) < 0)
                LD_FAIL(L, "BRN-ZONE-STACK", "kind is \"card\" or \"trigger\"");
        }
        int uid;
        if (kind == BRN_S_CARD) {
            /* The card itself is in the Stack zone. */
            uid = ld_card(L, s, &ls[seat], (int)seat, o, base, BRN_Z_STACK, k_item);
            if (uid < 0) return -1;
        } else {
            int64_t u;
            if (ld_int(L, o, "uid", base, 0, BRN_CARDS_MAX - 1, &u)) {
                snprintf(L->path, sizeof L->path, "%s.uid", base);
                LD_FAIL(L, "BRN-ZONE-STACK", "a trigger names its source card's uid");
            }
            uid = (int)u;
            if (uid >= s->p[seat].ncards || s->p[seat].c[uid].zone != BRN_Z_MACHINE ||
                !arb_brainstorm__triggers(s, (int)seat, uid))
                LD_FAIL(L, "BRN-EOC-TRIGGERS", "a trigger's source is a triggering card on its Machine");
        }
        int r1 = ld_int(L, o, "target_seat", base, 0, 1, &ts);
        int r2 = ld_int(L, o, "target_uid", base, 0, BRN_CARDS_MAX - 1, &tu);
        if (r1 < 0 || r2 < 0) return -1;
        const brn_carddef *d = arb_brainstorm__def(s, (int)seat, uid);
        snprintf(L->path, sizeof L->path, "%s", base);
        if ((kind == BRN_S_CARD && d->target != BRN_TGT_NONE) != (r1 == 0 && r2 == 0))
            LD_FAIL(L, "BRN-GOLDEN", "%s %s a target", d->pub.name,
                    d->target != BRN_TGT_NONE ? "needs" : "takes no");
        if (s->nstack >= BRN_STACK_MAX) LD_FAIL(L, "BRN-ZONE-STACK", "the Stack is full");
        brn_item *it = &s->stack[s->nstack++];
        it->kind = (uint8_t)kind; it->seat = (uint8_t)seat; it->uid = (uint8_t)uid;
        it->tseat = r1 == 0 ? (uint8_t)ts : BRN_NONE;
        it->tuid = r2 == 0 ? (uint8_t)tu : BRN_NONE;
    }
    return 0;
}

static int seat_owes(const brn_state *s, int seat)
{
    switch (s->phase) {
    case BRN_P_BOOTSTRAP: return !arb_brainstorm__boot_done(s, seat);
    case BRN_P_FOCUS:
        for (int i = 0; i < s->p[seat].nz[BRN_Z_MACHINE]; i++) {
            int uid = s->p[seat].z[BRN_Z_MACHINE][i];
            if ((s->p[seat].c[uid].flags & BRN_F_PENDING) && arb_brainstorm__focus_has_choice(s, seat, uid)) return 1;
        }
        return 0;
    case BRN_P_END:
        return s->p[seat].nz[BRN_Z_HAND] > arb_brainstorm__hook_max_hand(s, seat) && arb_brainstorm__hook_discards(s, seat);
    default: return 1;
    }
}

int arb_brainstorm__load(void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    brn_state *s = st;
    ld L0 = { err, "" }, *L = &L0;
    if (su && su->players != 0 && su->players != BRN_PLAYERS)
        return arb_error_set(err, ARB_EILLEGAL, "BRN-PLAYERS", "Brainstorm is played between 2 players");
    if (ld_keys(L, pos, "", k_root)) return ARB_EINVAL;
    int rules = arb_brainstorm__rules(su, err);
    if (rules < 0) return rules;
    memset(s, 0, sizeof *s);
    s->rules = (uint8_t)rules;
    arb_rng_seed(&s->rng, su ? su->seed : 0);
    s->cycle = 1; s->winner = -1; s->run = 0;
    for (int seat = 0; seat < BRN_PLAYERS; seat++) s->p[seat].gen = BRN_NONE;
    const arb_tnode *n;
    int64_t v;
    int r;
    if ((n = arb_tnode_get(pos, "game")) && (n->kind != ARB_T_STR || strcmp(n->s, "brainstorm") != 0)) {
        snprintf(L->path, sizeof L->path, "game");
        LD_FAIL(L, "BRN-ZONE-FIVE", "this position is not a brainstorm position");
    }
    if ((r = ld_int(L, pos, "cycle", "", 1, BRN_CYCLE_CAP, &v)) < 0) return ARB_EINVAL;
    if (r == 0) s->cycle = (uint16_t)v;
    if ((r = ld_int(L, pos, "lead", "", 0, 1, &v)) < 0) return ARB_EINVAL;
    if (r == 0) s->lead = (uint8_t)v;
    s->phase = BRN_P_EXPANSION;
    if ((n = arb_tnode_get(pos, "phase"))) {
        snprintf(L->path, sizeof L->path, "phase");
        int ph = n->kind == ARB_T_STR ? name_index(arb_brainstorm__phase_names, BRN_NPHASES, n->s) : -1;
        if (ph < BRN_P_EXPANSION)
            LD_FAIL(L, "BRN-CYCLE-PHASES", "phase is one of expansion, assembly, routing, bootstrap, plug, showdown, focus, end, over");
        s->phase = (uint8_t)ph;
    }
    if ((r = ld_int(L, pos, "run", "", 0, BRN_RUN_MAX, &v)) < 0) return ARB_EINVAL;
    if (r == 0) s->run = (uint8_t)v;
    else if (s->phase >= BRN_P_PLUG && s->phase <= BRN_P_FOCUS) s->run = 1;
    int b;
    if ((r = ld_bool(L, pos, "chosen", "", &b)) < 0) return ARB_EINVAL;
    if (r == 0) s->chosen = (uint8_t)b;
    if ((r = ld_int(L, pos, "passes", "", 0, 1, &v)) < 0) return ARB_EINVAL;
    if (r == 0) s->passes = (uint8_t)v;
    if ((n = arb_tnode_get(pos, "rng"))) {
        snprintf(L->path, sizeof L->path, "rng");
        if (n->kind != ARB_T_ARR || n->n != 4) LD_FAIL(L, "BRN-ZONE-FIVE", "rng is a list of 4 integers");
        int i = 0;
        for (const arb_tnode *x = n->first; x; x = x->next, i++) {
            if (x->kind != ARB_T_INT) LD_FAIL(L, "BRN-ZONE-FIVE", "rng is a list of 4 integers");
            s->rng.s[i] = (uint64_t)x->i;
        }
        if (!(s->rng.s[0] | s->rng.s[1] | s->rng.s[2] | s->rng.s[3]))
            LD_FAIL(L, "BRN-ZONE-FIVE", "an all-zero xoshiro256** state is invalid");
    }
    /* players: exactly 2 */
    const arb_tnode *pl = arb_tnode_get(pos, "players");
    snprintf(L->path, sizeof L->path, "players");
    if (!pl || pl->kind != ARB_T_ARR || pl->n != BRN_PLAYERS)
        LD_FAIL(L, "BRN-PLAYERS", "players is a list of exactly 2 players");
    ld_seat ls[BRN_PLAYERS];
    memset(ls, 0, sizeof ls);
    ls[0].explicit_uids = ls[1].explicit_uids = -1;
    int seat = 0;
    for (const arb_tnode *pn = pl->first; pn; pn = pn->next, seat++)
        if (ld_player(L, s, &ls[seat], seat, pn)) return ARB_EINVAL;
    if ((n = arb_tnode_get(pos, "stack")) && ld_stack(L, s, ls, n)) return ARB_EINVAL;
    /* every uid 0..ncards-1 must be placed */
    for (seat = 0; seat < BRN_PLAYERS; seat++)
        for (int u = 0; u < s->p[seat].ncards; u++)
            if (!ls[seat].seen[u]) {
                snprintf(L->path, sizeof L->path, "players.%d", seat);
                LD_FAIL(L, "BRN-ZONE-FIVE", "uid %d is in no zone: every card is in exactly one zone", u);
            }
    seat = 0;
    for (const arb_tnode *pn = pl->first; pn; pn = pn->next, seat++)
        if (ld_links(L, s, seat, pn)) return ARB_EINVAL;
    /* Charge and focus sanity now that every card is placed. */
    for (seat = 0; seat < BRN_PLAYERS; seat++) {
        const brn_player *p = &s->p[seat];
        for (int u = 0; u < p->ncards; u++) {
            const brn_carddef *d = arb_brainstorm__def(s, seat, u);
            if (p->c[u].used >> d->outs) {
                snprintf(L->path, sizeof L->path, "players.%d.machine", seat);
                LD_FAIL(L, "BRN-BOOT-USED", "card %d has no such Output", u);
            }
        }
    }
    /* outcome */
    if ((n = arb_tnode_get(pos, "outcome"))) {
        static const char *const ko[] = { "over", "winner", "reason", NULL };
        if (ld_keys(L, n, "outcome", ko)) return ARB_EINVAL;
        int over = 0;
        if ((r = ld_bool(L, n, "over", "outcome", &over)) < 0) return ARB_EINVAL;
        if (over) {
            if ((r = ld_int(L, n, "winner", "outcome", -1, 1, &v)) < 0) return ARB_EINVAL;
            s->winner = r == 0 ? (int8_t)v : -1;
            const arb_tnode *rn = arb_tnode_get(n, "reason");
            snprintf(L->path, sizeof L->path, "outcome.reason");
            int rs = rn ? (rn->kind == ARB_T_STR ? name_index(arb_brainstorm__reason_names, BRN_NREASONS, rn->s) : -1)
                        : BRN_R_DECKOUT;
            if (rs < 0) LD_FAIL(L, "BRN-ZONE-DECK-DRAW", "unknown reason");
            s->reason = (uint8_t)rs;
            s->over = 1;
            s->phase = BRN_P_OVER;
            s->actor = BRN_NONE;
        }
    }
    if (s->phase == BRN_P_OVER && !s->over) {
        snprintf(L->path, sizeof L->path, "phase");
        LD_FAIL(L, "BRN-ZONE-DECK-DRAW", "phase over needs outcome.over = true");
    }
    /* derived counts, when given, must agree */
    seat = 0;
    for (const arb_tnode *pn = pl->first; pn; pn = pn->next, seat++) {
        char base[32];
        snprintf(base, sizeof base, "players.%d", seat);
        const brn_player *p = &s->p[seat];
        if ((r = ld_int(L, pn, "deck_count", base, 0, BRN_CARDS_MAX, &v)) < 0) return ARB_EINVAL;
        if (r == 0 && v != p->nz[BRN_Z_DECK]) LD_FAIL(L, "BRN-ZONE-FIVE", "deck_count disagrees with deck");
        if ((r = ld_int(L, pn, "hand_count", base, 0, BRN_CARDS_MAX, &v)) < 0) return ARB_EINVAL;
        if (r == 0 && v != p->nz[BRN_Z_HAND]) LD_FAIL(L, "BRN-ZONE-FIVE", "hand_count disagrees with hand");
        if ((r = ld_int(L, pn, "max_hand", base, 0, 255, &v)) < 0) return ARB_EINVAL;
        if (r == 0 && v != arb_brainstorm__hook_max_hand(s, seat))
            LD_FAIL(L, "BRN-GOLDEN", "max_hand is derived from the cards (%d)", arb_brainstorm__hook_max_hand(s, seat));
    }
    /* decision */
    const arb_tnode *dn = arb_tnode_get(pos, "decision");
    if (!s->over) {
        int given = 0;
        if (dn) {
            static const char *const kd[] = { "seat", "kind", NULL };
            if (ld_keys(L, dn, "decision", kd)) return ARB_EINVAL;
            if ((r = ld_int(L, dn, "seat", "decision", 0, 1, &v)) < 0) return ARB_EINVAL;
            if (r == 0) { s->actor = (uint8_t)v; given = 1; }
        }
        if (given) {
            snprintf(L->path, sizeof L->path, "decision.seat");
            if (!seat_owes(s, s->actor))
                LD_FAIL(L, "BRN-ACTION-REQUIRED", "P%d owes no decision in %s", s->actor + 1,
                        arb_brainstorm__phase_names[s->phase]);
        } else {
            /* Settle as the rules do: the lead player first (G03). */
            int ph = s->phase;
            s->actor = s->lead;
            if (ph == BRN_P_BOOTSTRAP || ph == BRN_P_FOCUS || ph == BRN_P_END) {
                if (!seat_owes(s, s->lead)) {
                    if (seat_owes(s, s->lead ^ 1)) s->actor = s->lead ^ 1;
                    else if (ph == BRN_P_BOOTSTRAP) arb_brainstorm__bootstrap_next(s, -1, NULL);
                    else if (ph == BRN_P_FOCUS) arb_brainstorm__focus_next(s, -1, NULL);
                    else arb_brainstorm__enter(s, BRN_P_END, NULL);
                }
            }
        }
        if (dn && (n = arb_tnode_get(dn, "kind"))) {
            snprintf(L->path, sizeof L->path, "decision.kind");
            arb_decision d = arb_brainstorm__decision(s);
            if (n->kind != ARB_T_STR || (!s->over && strcmp(n->s, arb_brainstorm__decision_names[d.kind]) != 0))
                LD_FAIL(L, "BRN-ACTION-REQUIRED", "decision kind does not match the phase");
        }
    }
    return ARB_OK;
}
