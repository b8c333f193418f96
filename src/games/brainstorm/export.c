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

void arb_brainstorm__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    (void)g;
    const brn_state *s = st;
    arb_decision d = arb_brainstorm__decision(g, s);
    arb_tree_add_str(t, root, "game", "brainstorm");
    /* The rules version: public, and part of the hash from draft0-2 on. */
    arb_tree_add_str(t, root, "rules", arb_game_rules_name(&arb_game_brainstorm, s->rules));
    arb_tree_add_int(t, root, "cycle", s->cycle);
    arb_tree_add_int(t, root, "lead", s->lead);
    arb_tree_add_str(t, root, "phase", arb_brainstorm__phase(g, s));
    arb_tnode *dn = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, dn, "seat", d.seat);
    arb_tree_add_str(t, dn, "kind", arb_brainstorm__decision_names[d.kind]);
    arb_tree_add_int(t, root, "passes", s->passes);
    arb_tree_add_int(t, root, "run", s->run);
    arb_tree_add_bool(t, root, "chosen", s->chosen);
    arb_tnode *on = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, on, "over", s->over);
    arb_tree_add_int(t, on, "winner", s->over ? s->winner : -1);
    arb_tree_add_str(t, on, "reason", arb_brainstorm__reason_names[s->reason < BRN_R_COUNT ? s->reason : 0]);
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
        arb_tree_add_rng(t, root, "rng", &s->rng);
    }
}

/* ---- load_position -----------------------------------------------------
 * Read through the core position reader (arb_pos_*); a malformed tree is
 * refused under BRN-ZONE-FIVE, the rule every zone of the game answers to. */
#define TRY ARB_POS_TRY

/* Per-seat UID bookkeeping while loading. */
typedef struct {
    int explicit_uids;   /* -1 unknown, 0 auto, 1 explicit */
    int next;
    uint8_t seen[BRN_CARDS_MAX];
} ld_seat;

/* Read {uid?, card} at the reader's path and place a card of seat in zone.
 * Returns the uid or a negative code. */
static int ld_card(arb_pos *L, brn_state *s, ld_seat *ls, int seat, const arb_tnode *o, int zone,
                   const char *const *keys)
{
    const arb_tnode *cn = o; /* a bare string is a card id with no uid and default state */
    if (!o || o->kind != ARB_T_STR) {
        TRY(arb_pos_keys(L, o, keys));
        cn = arb_tnode_get(o, "card");
        if (!cn) return arb_pos_fail(L, "card", NULL, "a card needs \"card\": a card id");
    }
    int id;
    TRY(arb_pos_card_node(L, cn, cn == o ? NULL : "card", NULL, &id));
    int64_t uid = -1;
    int expl = o->kind == ARB_T_MAP && arb_tnode_get(o, "uid");
    if (expl) TRY(arb_pos_int(L, o, "uid", 0, BRN_CARDS_MAX - 1, &uid));
    if (ls->explicit_uids >= 0 && ls->explicit_uids != expl)
        return arb_pos_fail(L, NULL, NULL, "give a uid for every card of this seat or for none");
    ls->explicit_uids = expl;
    if (!expl) {
        if (ls->next >= BRN_CARDS_MAX) return arb_pos_fail(L, NULL, NULL, "more than %d cards", BRN_CARDS_MAX);
        uid = ls->next++;
    }
    if (ls->seen[uid]) return arb_pos_fail(L, "uid", NULL, "uid %d appears twice: a card is in exactly one zone", (int)uid);
    ls->seen[uid] = 1;
    brn_player *p = &s->p[seat];
    p->c[uid].id = (uint8_t)id;
    if (uid + 1 > p->ncards) p->ncards = (uint8_t)(uid + 1);
    const brn_carddef *d = &arb_brainstorm__cards[id];
    if (d->type == BRN_T_GENERATOR && zone != BRN_Z_MACHINE)
        return arb_pos_fail(L, NULL, "BRN-ZONE-MACHINE", "a Generator is always on its owner's Machine");
    if (zone == BRN_Z_MACHINE && d->type == BRN_T_TACTIC)
        return arb_pos_fail(L, NULL, "BRN-ZONE-MACHINE", "a Tactic cannot be on the Machine");
    if (zone == BRN_Z_STACK && d->type != BRN_T_TACTIC && d->type != BRN_T_CELL)
        return arb_pos_fail(L, NULL, "BRN-ZONE-STACK", "only Tactics and Cells are played onto the Stack");
    if (zone == BRN_Z_MACHINE && d->type == BRN_T_GENERATOR) {
        if (p->gen != BRN_NONE) return arb_pos_fail(L, NULL, "BRN-ZONE-MACHINE", "a Machine holds one Generator");
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
static const char *const k_root[] = { "game", "rules", "cycle", "lead", "phase", "decision", "passes", "run", "chosen",
                                      "outcome", "stack", "players", "rng", NULL };

static int ld_machine_state(arb_pos *L, brn_state *s, int seat, int uid, const arb_tnode *o)
{
    const brn_carddef *d = arb_brainstorm__def(s, seat, uid);
    brn_cardst *c = &s->p[seat].c[uid];
    int64_t v = -1;
    int active = 0, focused = 0, pending = 0;
    TRY(arb_pos_int(L, o, "charge", 0, BRN_CHARGE_MAX, &v));
    if (v >= 0) {
        if (d->type == BRN_T_CELL) return arb_pos_fail(L, "charge", "BRN-START-CHARGE", "a Cell holds no Charge");
        c->charge = (uint8_t)v;
    }
    TRY(arb_pos_bool(L, o, "active", &active));
    if (active && d->type != BRN_T_CELL) return arb_pos_fail(L, "active", "BRN-RESET-CELLS", "only Cells are active");
    TRY(arb_pos_bool(L, o, "focused", &focused));
    if (focused && d->type != BRN_T_MODULE) return arb_pos_fail(L, "focused", "BRN-BOOT-FOCUS", "only Modules are focused");
    TRY(arb_pos_bool(L, o, "pending", &pending));
    if (pending && (!focused || s->phase != BRN_P_FOCUS))
        return arb_pos_fail(L, "pending", "BRN-FOCUS-CHOOSE", "only a focused Module awaits Focus, and only in focus");
    c->flags |= (uint8_t)((active ? BRN_F_ACTIVE : 0) | (focused ? BRN_F_FOCUSED : 0) | (pending ? BRN_F_PENDING : 0));
    const arb_tnode *u;
    TRY(arb_pos_arr(L, o, "used", d->outs, "BRN-BOOT-USED", &u));
    int i = 0;
    for (const arb_tnode *x = u ? u->first : NULL; x; x = x->next, i++) {
        int b;
        size_t mk = arb_pos_push(L, "used");
        TRY(arb_pos_bool_node(L, x, NULL, &b));
        arb_pos_pop(L, mk);
        if (b) c->used |= (uint8_t)(1u << i);
    }
    return 0;
}

static int ld_player(arb_pos *L, brn_state *s, ld_seat *ls, int seat, const arb_tnode *pn)
{
    TRY(arb_pos_keys(L, pn, k_player));
    brn_player *p = &s->p[seat];
    /* Zones in uid-assignment order: deck (top first), hand, machine, scrapyard. */
    static const char *const zk[] = { "deck", "hand", "machine", "scrapyard" };
    static const int zz[] = { BRN_Z_DECK, BRN_Z_HAND, BRN_Z_MACHINE, BRN_Z_SCRAP };
    for (int k = 0; k < 4; k++) {
        const arb_tnode *arr;
        TRY(arb_pos_arr(L, pn, zk[k], BRN_CARDS_MAX, NULL, &arr));
        if (!arr) continue;
        size_t mk = arb_pos_push(L, zk[k]);
        int i = 0;
        for (const arb_tnode *o = arr->first; o; o = o->next, i++) {
            size_t mi = arb_pos_index(L, i);
            int uid = ld_card(L, s, ls, seat, o, zz[k], zz[k] == BRN_Z_MACHINE ? k_mach : k_card);
            if (uid < 0) return uid;
            if (zz[k] == BRN_Z_MACHINE && o->kind == ARB_T_MAP) TRY(ld_machine_state(L, s, seat, uid, o));
            arb_pos_pop(L, mi);
        }
        arb_pos_pop(L, mk);
        if (zz[k] == BRN_Z_DECK) { /* exported top first; stored top last */
            for (int a = 0, b = p->nz[BRN_Z_DECK] - 1; a < b; a++, b--) {
                uint8_t t = p->z[BRN_Z_DECK][a]; p->z[BRN_Z_DECK][a] = p->z[BRN_Z_DECK][b]; p->z[BRN_Z_DECK][b] = t;
            }
        }
    }
    if (arb_brainstorm__machine_modules(s, seat) > BRN_MACHINE_MODULES)
        return arb_pos_fail(L, "machine", "BRN-EXP-ENABLE", "a Machine holds at most %d Modules (G06)", BRN_MACHINE_MODULES);
    int64_t v = p->boot_count;
    TRY(arb_pos_int(L, pn, "boot_count", 0, 255, &v));
    p->boot_count = (uint8_t)v;
    return 0;
}

static int ld_links(arb_pos *L, brn_state *s, int seat, const arb_tnode *pn)
{
    const arb_tnode *arr;
    TRY(arb_pos_arr(L, pn, "links", BRN_LINKS_MAX, "BRN-ROUTE-LINK", &arr));
    if (!arr) return 0;
    size_t mk = arb_pos_push(L, "links");
    int i = 0;
    for (const arb_tnode *o = arr->first; o; o = o->next, i++) {
        size_t mi = arb_pos_index(L, i);
        TRY(arb_pos_keys(L, o, k_link));
        static const char *const lk[] = { "from", "out", "to", "in" };
        int64_t v[4] = { -1, -1, -1, -1 };
        for (int k = 0; k < 4; k++) {
            if (!arb_tnode_get(o, lk[k])) return arb_pos_fail(L, NULL, "BRN-ROUTE-LINK", "a link needs from, out, to and in");
            TRY(arb_pos_int(L, o, lk[k], 0, (k & 1) ? BRN_PORTS_MAX - 1 : BRN_CARDS_MAX - 1, &v[k]));
        }
        arb_action a;
        memset(&a, 0, sizeof a);
        a.seat = (int8_t)seat; a.verb = BRN_V_LINK; a.nargs = 4;
        for (int k = 0; k < 4; k++) a.args[k] = (int32_t)v[k];
        /* The same checks as an action in Routing, with the hooks of this state. */
        brn_state tmp = *s;
        tmp.phase = BRN_P_ROUTING; tmp.actor = (uint8_t)seat; tmp.over = 0;
        arb_error e2 = ARB_ERROR_INIT;
        if (arb_brainstorm__validate(&tmp, &a, &e2)) return arb_pos_fail(L, NULL, e2.rule, "%s", e2.msg);
        brn_link *l = &s->p[seat].links[s->p[seat].nlinks++];
        l->from = (uint8_t)v[0]; l->out = (uint8_t)v[1]; l->to = (uint8_t)v[2]; l->in = (uint8_t)v[3];
        arb_pos_pop(L, mi);
    }
    arb_pos_pop(L, mk);
    return 0;
}

static int ld_item(arb_pos *L, brn_state *s, ld_seat *ls, const arb_tnode *o)
{
    TRY(arb_pos_keys(L, o, k_item));
    int64_t seat = -1, ts = -1, tu = -1;
    TRY(arb_pos_int(L, o, "seat", 0, 1, &seat));
    if (seat < 0) return arb_pos_fail(L, "seat", "BRN-ZONE-STACK", "a Stack item needs its seat");
    int kind = BRN_S_CARD, uid;
    TRY(arb_pos_enum(L, o, "kind", stack_kinds, 2, &kind));
    if (kind == BRN_S_CARD) { /* the card itself is in the Stack zone */
        if ((uid = ld_card(L, s, &ls[seat], (int)seat, o, BRN_Z_STACK, k_item)) < 0) return uid;
    } else {
        int64_t u = -1;
        TRY(arb_pos_int(L, o, "uid", 0, BRN_CARDS_MAX - 1, &u));
        if (u < 0) return arb_pos_fail(L, "uid", "BRN-ZONE-STACK", "a trigger names its source card's uid");
        uid = (int)u;
        if (uid >= s->p[seat].ncards || s->p[seat].c[uid].zone != BRN_Z_MACHINE ||
            !arb_brainstorm__triggers(s, (int)seat, uid))
            return arb_pos_fail(L, NULL, "BRN-EOC-TRIGGERS", "a trigger's source is a triggering card on its Machine");
    }
    TRY(arb_pos_int(L, o, "target_seat", 0, 1, &ts));
    TRY(arb_pos_int(L, o, "target_uid", 0, BRN_CARDS_MAX - 1, &tu));
    const brn_carddef *d = arb_brainstorm__def(s, (int)seat, uid);
    if ((kind == BRN_S_CARD && d->target != BRN_TGT_NONE) != (ts >= 0 && tu >= 0))
        return arb_pos_fail(L, NULL, "BRN-GOLDEN", "%s %s a target", d->pub.name, d->target != BRN_TGT_NONE ? "needs" : "takes no");
    if (s->nstack >= BRN_STACK_MAX) return arb_pos_fail(L, NULL, "BRN-ZONE-STACK", "the Stack is full");
    brn_item *it = &s->stack[s->nstack++];
    it->kind = (uint8_t)kind; it->seat = (uint8_t)seat; it->uid = (uint8_t)uid;
    it->tseat = ts >= 0 ? (uint8_t)ts : BRN_NONE;
    it->tuid = tu >= 0 ? (uint8_t)tu : BRN_NONE;
    return 0;
}

static int ld_stack(arb_pos *L, brn_state *s, ld_seat *ls, const arb_tnode *pos)
{
    const arb_tnode *arr;
    TRY(arb_pos_arr(L, pos, "stack", BRN_STACK_MAX, "BRN-ZONE-STACK", &arr));
    if (!arr) return 0;
    size_t mk = arb_pos_push(L, "stack");
    /* A match can end mid-resolution (a deck-out draw), leaving items behind. */
    if (arr->n && s->phase != BRN_P_ASSEMBLY && s->phase != BRN_P_PLUG && s->phase != BRN_P_SHOWDOWN &&
        s->phase != BRN_P_OVER)
        return arb_pos_fail(L, NULL, "BRN-ZONE-STACK", "the Stack is empty outside Assembly, Plug and Showdown");
    int i = 0;
    for (const arb_tnode *o = arr->first; o; o = o->next, i++) {
        size_t mi = arb_pos_index(L, i);
        TRY(ld_item(L, s, ls, o));
        arb_pos_pop(L, mi);
    }
    arb_pos_pop(L, mk);
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

/* Root scalars: cycle, lead, phase, run, chosen, passes, rng. */
static int ld_root(arb_pos *L, brn_state *s, const arb_tnode *pos)
{
    int64_t v = s->cycle;
    TRY(arb_pos_int(L, pos, "cycle", 1, BRN_CYCLE_CAP, &v));
    s->cycle = (uint16_t)v;
    v = s->lead;
    TRY(arb_pos_int(L, pos, "lead", 0, 1, &v));
    s->lead = (uint8_t)v;
    int ph = BRN_P_EXPANSION;
    TRY(arb_pos_enum(L, pos, "phase", arb_brainstorm__phase_names, BRN_P_COUNT, &ph));
    if (ph < BRN_P_EXPANSION)
        return arb_pos_fail(L, "phase", "BRN-CYCLE-PHASES",
                            "phase is one of expansion, assembly, routing, bootstrap, plug, showdown, focus, end, over");
    s->phase = (uint8_t)ph;
    v = -1;
    TRY(arb_pos_int(L, pos, "run", 0, BRN_RUN_MAX, &v));
    s->run = v >= 0 ? (uint8_t)v : s->phase >= BRN_P_PLUG && s->phase <= BRN_P_FOCUS ? 1 : 0;
    TRY(arb_pos_flag(L, pos, "chosen", &s->chosen));
    v = 0;
    TRY(arb_pos_int(L, pos, "passes", 0, 1, &v));
    s->passes = (uint8_t)v;
    ARB_POS_TRY(arb_pos_rng(L, pos, "rng", &s->rng));
    return 0;
}

static int ld_outcome(arb_pos *L, brn_state *s, const arb_tnode *n)
{
    static const char *const ko[] = { "over", "winner", "reason", NULL };
    size_t mk = arb_pos_push(L, "outcome");
    TRY(arb_pos_keys(L, n, ko));
    int over = 0;
    TRY(arb_pos_bool(L, n, "over", &over));
    if (over) {
        int64_t v = -1;
        TRY(arb_pos_int(L, n, "winner", -1, 1, &v));
        s->winner = (int8_t)v;
        const arb_tnode *rn = arb_tnode_get(n, "reason");
        /* "" is reason 0's spelling before game.h's vocabulary ("none") */
        int rs = rn && rn->kind == ARB_T_STR ? (rn->s[0] ? arb_game_reason_find(&arb_game_brainstorm, rn->s) : 0)
                 : rn ? -1 : BRN_R_DECKOUT;
        if (rs < 0) return arb_pos_fail(L, "reason", "BRN-ZONE-DECK-DRAW", "unknown reason");
        s->reason = (uint8_t)rs;
        s->over = 1;
        s->phase = BRN_P_OVER;
        s->actor = BRN_NONE;
    }
    arb_pos_pop(L, mk);
    return 0;
}

/* Derived counts, when given, must agree. */
static int ld_derived(arb_pos *L, const brn_state *s, int seat, const arb_tnode *pn)
{
    const brn_player *p = &s->p[seat];
    int64_t v = -1;
    TRY(arb_pos_int(L, pn, "deck_count", 0, BRN_CARDS_MAX, &v));
    if (v >= 0 && v != p->nz[BRN_Z_DECK]) return arb_pos_fail(L, "deck_count", NULL, "deck_count disagrees with deck");
    v = -1;
    TRY(arb_pos_int(L, pn, "hand_count", 0, BRN_CARDS_MAX, &v));
    if (v >= 0 && v != p->nz[BRN_Z_HAND]) return arb_pos_fail(L, "hand_count", NULL, "hand_count disagrees with hand");
    v = -1;
    TRY(arb_pos_int(L, pn, "max_hand", 0, 255, &v));
    if (v >= 0 && v != arb_brainstorm__hook_max_hand(s, seat))
        return arb_pos_fail(L, "max_hand", "BRN-GOLDEN", "max_hand is derived from the cards (%d)", arb_brainstorm__hook_max_hand(s, seat));
    return 0;
}

static int ld_decision(arb_pos *L, brn_state *s, const arb_tnode *dn)
{
    int64_t v = -1;
    if (dn) {
        static const char *const kd[] = { "seat", "kind", NULL };
        size_t mk = arb_pos_push(L, "decision");
        TRY(arb_pos_keys(L, dn, kd));
        TRY(arb_pos_int(L, dn, "seat", 0, 1, &v));
        arb_pos_pop(L, mk);
    }
    if (v >= 0) {
        s->actor = (uint8_t)v;
        if (!seat_owes(s, s->actor))
            return arb_pos_fail(L, "decision.seat", "BRN-ACTION-REQUIRED", "P%d owes no decision in %s", s->actor + 1,
                                arb_brainstorm__phase_names[s->phase]);
    } else { /* settle as the rules do: the lead player first (G03) */
        int ph = s->phase;
        s->actor = s->lead;
        if ((ph == BRN_P_BOOTSTRAP || ph == BRN_P_FOCUS || ph == BRN_P_END) && !seat_owes(s, s->lead)) {
            if (seat_owes(s, s->lead ^ 1)) s->actor = s->lead ^ 1;
            else if (ph == BRN_P_BOOTSTRAP) arb_brainstorm__bootstrap_next(s, -1, NULL);
            else if (ph == BRN_P_FOCUS) arb_brainstorm__focus_next(s, -1, NULL);
            else arb_brainstorm__enter(s, BRN_P_END, NULL);
        }
    }
    const arb_tnode *n = dn ? arb_tnode_get(dn, "kind") : NULL;
    if (n) {
        arb_decision d = arb_brainstorm__decision(&arb_game_brainstorm, s);
        if (n->kind != ARB_T_STR || (!s->over && strcmp(n->s, arb_brainstorm__decision_names[d.kind]) != 0))
            return arb_pos_fail(L, "decision.kind", "BRN-ACTION-REQUIRED", "decision kind does not match the phase");
    }
    return 0;
}

int arb_brainstorm__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)g;
    brn_state *s = st;
    arb_pos L0, *L = &L0;
    arb_pos_init(L, &arb_game_brainstorm, err, "BRN-ZONE-FIVE");
    if (su && su->players != 0 && su->players != BRN_PLAYERS)
        return ARB_ILLEGAL(err, "BRN-PLAYERS", "Brainstorm is played between 2 players");
    TRY(arb_pos_keys(L, pos, k_root));
    int rules = arb_game_rules_select(&arb_game_brainstorm, su, err);
    if (rules < 0) return rules;
    memset(s, 0, sizeof *s);
    s->rules = (uint8_t)rules;
    arb_rng_seed(&s->rng, su ? su->seed : 0);
    s->cycle = 1; s->winner = -1; s->run = 0;
    for (int seat = 0; seat < BRN_PLAYERS; seat++) s->p[seat].gen = BRN_NONE;
    TRY(arb_pos_game(L, pos));
    const char *rv = NULL; /* given: must be the setup's rules version */
    TRY(arb_pos_str(L, pos, "rules", &rv));
    if (rv && strcmp(rv, arb_game_rules_name(&arb_game_brainstorm, (unsigned)rules)) != 0)
        return arb_pos_fail(L, "rules", NULL, "the position is for rules '%s', the setup plays '%s'", rv,
                            arb_game_rules_name(&arb_game_brainstorm, (unsigned)rules));
    TRY(ld_root(L, s, pos));
    const arb_tnode *pl = arb_tnode_get(pos, "players");
    if (!pl || pl->kind != ARB_T_ARR || pl->n != BRN_PLAYERS)
        return arb_pos_fail(L, "players", "BRN-PLAYERS", "players is a list of exactly 2 players");
    ld_seat ls[BRN_PLAYERS];
    memset(ls, 0, sizeof ls);
    ls[0].explicit_uids = ls[1].explicit_uids = -1;
    const arb_tnode *pn[BRN_PLAYERS] = { arb_tnode_at(pl, 0), arb_tnode_at(pl, 1) };
    size_t mk = arb_pos_push(L, "players");
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        size_t mi = arb_pos_index(L, seat);
        TRY(ld_player(L, s, &ls[seat], seat, pn[seat]));
        arb_pos_pop(L, mi);
    }
    arb_pos_pop(L, mk);
    TRY(ld_stack(L, s, ls, pos));
    /* every uid 0..ncards-1 must be placed */
    for (int seat = 0; seat < BRN_PLAYERS; seat++)
        for (int u = 0; u < s->p[seat].ncards; u++)
            if (!ls[seat].seen[u]) {
                char w[32];
                snprintf(w, sizeof w, "players.%d", seat);
                return arb_pos_fail(L, w, NULL, "uid %d is in no zone: every card is in exactly one zone", u);
            }
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        size_t m0 = arb_pos_push(L, "players");
        arb_pos_index(L, seat);
        TRY(ld_links(L, s, seat, pn[seat]));
        const brn_player *p = &s->p[seat]; /* Outputs used exist, now that every card is placed */
        for (int u = 0; u < p->ncards; u++)
            if (p->c[u].used >> arb_brainstorm__def(s, seat, u)->outs)
                return arb_pos_fail(L, "machine", "BRN-BOOT-USED", "card %d has no such Output", u);
        arb_pos_pop(L, m0);
    }
    const arb_tnode *n = arb_tnode_get(pos, "outcome");
    if (n) TRY(ld_outcome(L, s, n));
    if (s->phase == BRN_P_OVER && !s->over)
        return arb_pos_fail(L, "phase", "BRN-ZONE-DECK-DRAW", "phase over needs outcome.over = true");
    for (int seat = 0; seat < BRN_PLAYERS; seat++) {
        size_t m0 = arb_pos_push(L, "players");
        arb_pos_index(L, seat);
        TRY(ld_derived(L, s, seat, pn[seat]));
        arb_pos_pop(L, m0);
    }
    if (!s->over) TRY(ld_decision(L, s, arb_tnode_get(pos, "decision")));
    return ARB_OK;
}
