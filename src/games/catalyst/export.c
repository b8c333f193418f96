/* export.c — the CATALYST state tree (conformance/catalyst/STATE.md): one
 * writer for the full state and for every seat's view (hidden parts
 * masked), and the position loader, which accepts exactly the full export's
 * shape (fields may be left out → documented defaults) and validates it as
 * strictly as an action, naming the offending path in err->where. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "games/catalyst/catalyst.h"

/* ----------------------------------------------------------------- export */

static void card_ref(arb_tree *t, arb_tnode *arr, const cat_player *pl, unsigned uid)
{
    arb_tnode *m = arb_tree_add_map(t, arr, NULL);
    arb_tree_add_int(t, m, "uid", uid);
    arb_tree_add_str(t, m, "card", cat_defof(pl, uid)->card.id);
}

static void export_field_card(arb_tree *t, arb_tnode *bf, const cat_player *pl, unsigned pos, int masked)
{
    unsigned u = pl->field[pos];
    const cat_card *c = &pl->c[u];
    int fd = (c->flags & CAT_F_FACEDOWN) != 0;
    arb_tnode *m = arb_tree_add_map(t, bf, arb_catalyst__pos_names[pos]);
    if (!(fd && masked)) {
        arb_tree_add_int(t, m, "uid", u);
        arb_tree_add_str(t, m, "card", cat_defof(pl, u)->card.id);
    }
    arb_tree_add_bool(t, m, "face_down", fd);
    arb_tree_add_bool(t, m, "activated", (c->flags & CAT_F_ACTIVATED) != 0);
    arb_tree_add_bool(t, m, "unstable", (c->flags & CAT_F_UNSTABLE) != 0);
    arb_tree_add_bool(t, m, "reinforced", (c->flags & CAT_F_REINFORCED) != 0);
    arb_tree_add_bool(t, m, "upkeep_due", (c->flags & CAT_F_UPKEEP_DUE) != 0);
    arb_tree_add_int(t, m, "damage", c->damage);
    arb_tree_add_int(t, m, "bonus", c->bonus);
    arb_tree_add_int(t, m, "shield", c->shield);
    arb_tree_add_int(t, m, "power", arb_catalyst__power(pl, u));
    arb_tree_add_int(t, m, "health", arb_catalyst__health(pl, u));
}

void arb_catalyst__export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    (void)g;
    const cat_state *s = st;
    int full = view == ARB_VIEW_ALL;
    arb_tree_add_str(t, root, "game", "catalyst");
    arb_tree_add_int(t, root, "turn", s->turn);
    arb_tree_add_str(t, root, "phase", s->phase <= CAT_PH_OVER ? arb_catalyst__phase_names[s->phase] : "?");
    arb_tree_add_int(t, root, "active", s->active);
    arb_tree_add_int(t, root, "first", s->first);
    arb_tree_add_int(t, root, "actions", s->actions);
    arb_tnode *d = arb_tree_add_map(t, root, "decision");
    arb_tree_add_int(t, d, "seat", s->over ? ARB_SEAT_NONE : s->dseat);
    arb_tree_add_str(t, d, "kind", arb_catalyst__decision_names[s->dkind < CAT_D_COUNT ? s->dkind : CAT_D_NONE]);
    if (s->pend.on) {
        arb_tnode *p = arb_tree_add_map(t, root, "pending");
        arb_tree_add_int(t, p, "seat", s->pend.seat);
        arb_tree_add_int(t, p, "uid", s->pend.uid);
        arb_tree_add_int(t, p, "target_seat", s->pend.tseat);
        arb_tree_add_str(t, p, "target_pos", arb_catalyst__pos_names[s->pend.tpos % CAT_POSITIONS]);
    } else {
        arb_tree_add_null(t, root, "pending");
    }
    arb_tnode *o = arb_tree_add_map(t, root, "outcome");
    arb_tree_add_bool(t, o, "over", s->over);
    arb_tree_add_int(t, o, "winner", s->over ? s->winner : -1);
    arb_tree_add_str(t, o, "reason", s->over ? arb_catalyst__reason_names[s->reason % CAT_R_COUNT] : "");
    if (full) {
        arb_tree_add_rng(t, root, "rng", &s->rng);
    }
    arb_tnode *players = arb_tree_add_arr(t, root, "players");
    for (unsigned i = 0; i < s->nplayers; i++) {
        const cat_player *pl = &s->p[i];
        int own = full || view == (int)i;
        arb_tnode *m = arb_tree_add_map(t, players, NULL);
        arb_tree_add_int(t, m, "seat", i);
        arb_tree_add_bool(t, m, "alive", pl->alive);
        arb_tree_add_int(t, m, "shards", pl->shards);
        arb_tree_add_int(t, m, "mulligans", pl->mulligans);
        arb_tree_add_int(t, m, "keep_left", pl->keep_left);
        arb_tree_add_bool(t, m, "drew_empty", pl->drew_empty);
        if (own) {
            arb_tnode *cards = arb_tree_add_arr(t, m, "cards");
            for (unsigned u = 0; u < pl->ncards; u++) arb_tree_add_str(t, cards, NULL, cat_defof(pl, u)->card.id);
        }
        arb_tree_add_int(t, m, "vault_count", pl->nvault);
        if (full) {
            arb_tnode *v = arb_tree_add_arr(t, m, "vault");
            for (unsigned k = pl->nvault; k-- > 0;) card_ref(t, v, pl, pl->vault[k]);
        }
        arb_tree_add_int(t, m, "hand_count", pl->nhand);
        if (own) {
            arb_tnode *h = arb_tree_add_arr(t, m, "hand");
            for (unsigned k = 0; k < pl->nhand; k++) {
                card_ref(t, h, pl, pl->hand[k]);
                if (pl->c[pl->hand[k]].flags & CAT_F_KEPT) arb_tree_add_bool(t, h->last, "kept", 1);
            }
        }
        arb_tree_add_int(t, m, "archive_count", pl->narchive);
        arb_tnode *ar = arb_tree_add_arr(t, m, "archive");
        for (unsigned k = 0; k < pl->narchive; k++) card_ref(t, ar, pl, pl->archive[k]);
        arb_tnode *bf = arb_tree_add_map(t, m, "battlefield");
        for (unsigned p = 0; p < CAT_POSITIONS; p++)
            if (pl->field[p] != CAT_NOCARD) export_field_card(t, bf, pl, p, !own);
    }
}

/* ------------------------------------------------------------------- load */

typedef struct ld {
    arb_pos P;                  /* the core position reader */
    /* No `cards` list: UIDs are given by reading order (hand, battlefield in
     * position order, archive, vault), starting at base[zone]. */
    int autouid;
    int base[CAT_Z_ARCHIVE + 1];
} ld;








/* A zone entry: an integer UID or {uid, card[, kept]}. */
static int zone_entry(ld *L, const arb_tnode *e, cat_player *pl, int *uid, int *kept, int zone, int index)
{
    *kept = 0;
    int64_t v;
    if (L->autouid) {
        *uid = L->base[zone] + index;
        if (e->kind == ARB_T_STR) return ARB_OK;
        if (e->kind == ARB_T_MAP && arb_tnode_get(e, "uid"))
            return arb_pos_fail(&L->P, "uid", NULL, "a UID needs the player's `cards` list");
        if (e->kind == ARB_T_MAP) {
            for (const arb_tnode *c = e->first; c; c = c->next) {
                if (strcmp(c->key, "card") == 0) continue;
                if (strcmp(c->key, "kept") == 0) {
                    if (arb_pos_bool_node(&L->P, c, "kept", kept)) return L->P.err->code;
                } else {
                    return arb_pos_fail(&L->P, c->key, NULL, "unknown field");
                }
            }
            return ARB_OK;
        }
    }
    if (e->kind == ARB_T_INT) {
        if (arb_pos_int_node(&L->P, e, NULL, 0, pl->ncards - 1, &v)) return L->P.err->code;
        *uid = (int)v;
        return ARB_OK;
    }
    if (e->kind != ARB_T_MAP) return arb_pos_fail(&L->P, NULL, NULL, "expected a UID or {\"uid\": …}");
    const arb_tnode *u = arb_tnode_get(e, "uid");
    if (!u) return arb_pos_fail(&L->P, "uid", NULL, "missing");
    if (arb_pos_int_node(&L->P, u, "uid", 0, pl->ncards - 1, &v)) return L->P.err->code;
    *uid = (int)v;
    for (const arb_tnode *c = e->first; c; c = c->next) {
        if (strcmp(c->key, "uid") == 0) continue;
        if (strcmp(c->key, "card") == 0) {
            if (c->kind != ARB_T_STR || strcmp(c->s, cat_defof(pl, (unsigned)v)->card.id) != 0)
                return arb_pos_fail(&L->P, "card", NULL, "does not match the card list for this UID");
        } else if (strcmp(c->key, "kept") == 0) {
            if (arb_pos_bool_node(&L->P, c, "kept", kept)) return L->P.err->code;
        } else {
            return arb_pos_fail(&L->P, c->key, NULL, "unknown field");
        }
    }
    return ARB_OK;
}

static int place(ld *L, cat_player *pl, int uid, int zone)
{
    if (pl->c[uid].zone != CAT_Z_NONE) return arb_pos_fail(&L->P, NULL, NULL, "this UID is already in another zone");
    pl->c[uid].zone = (uint8_t)zone;
    return ARB_OK;
}

static int load_zone(ld *L, const arb_tnode *arr, const char *key, cat_player *pl, int zone, uint8_t *list,
                     uint8_t *n, int top_first)
{
    size_t l0 = arb_pos_push(&L->P, key);
    if (arr->kind != ARB_T_ARR) return arb_pos_fail(&L->P, NULL, NULL, "expected an array");
    if (arr->n > CAT_MAX_CARDS) return arb_pos_failc(&L->P, NULL, ARB_ELIMIT, NULL, "too many cards");
    uint32_t i = 0;
    for (const arb_tnode *e = arr->first; e; e = e->next, i++) {
        size_t l1 = arb_pos_index(&L->P, (long)i);
        int uid = 0, kept = 0;
        if (zone_entry(L, e, pl, &uid, &kept, zone, (int)i) || place(L, pl, uid, zone)) return L->P.err->code;
        if (kept && zone != CAT_Z_HAND) return arb_pos_fail(&L->P, "kept", NULL, "only hand cards can be kept");
        if (kept) pl->c[uid].flags |= CAT_F_KEPT;
        list[(*n)++] = (uint8_t)uid;
        arb_pos_pop(&L->P, l1);
    }
    if (top_first)
        for (unsigned a = 0, b = *n ? *n - 1u : 0; a < b; a++, b--) {
            uint8_t tmp = list[a];
            list[a] = list[b];
            list[b] = tmp;
        }
    arb_pos_pop(&L->P, l0);
    return ARB_OK;
}

static const char *const field_keys[] = { "uid", "card", "face_down", "activated", "unstable", "reinforced",
                                          "upkeep_due", "damage", "bonus", "shield", "power", "health" };

static int load_battlefield(ld *L, const arb_tnode *bf, cat_player *pl)
{
    size_t l0 = arb_pos_push(&L->P, "battlefield");
    if (bf->kind != ARB_T_MAP) return arb_pos_fail(&L->P, NULL, NULL, "expected a map of positions (F1…B3)");
    for (const arb_tnode *e = bf->first; e; e = e->next) {
        int pos = arb_catalyst__pos_parse(e->key);
        if (pos < 0) return arb_pos_failc(&L->P, e->key, ARB_EINVAL, "CAT-ZONE-BATTLEFIELD", "not a position F1 F2 F3 B1 B2 B3");
        size_t l1 = arb_pos_push(&L->P, e->key);
        if (e->kind != ARB_T_MAP) return arb_pos_fail(&L->P, NULL, NULL, "expected a card object");
        if (pl->field[pos] != CAT_NOCARD) return arb_pos_failc(&L->P, NULL, ARB_EINVAL, "CAT-ZONE-BATTLEFIELD", "position given twice");
        const arb_tnode *un = arb_tnode_get(e, "uid");
        int64_t v;
        if (L->autouid) {
            if (un) return arb_pos_fail(&L->P, "uid", NULL, "a UID needs the player's `cards` list");
            int rank = 0; /* UIDs follow position order, whatever the document order */
            for (const arb_tnode *o = bf->first; o; o = o->next) rank += arb_catalyst__pos_parse(o->key) < pos;
            v = L->base[CAT_Z_FIELD] + rank;
        } else {
            if (!un) return arb_pos_fail(&L->P, "uid", NULL, "missing");
            if (arb_pos_int_node(&L->P, un, "uid", 0, pl->ncards - 1, &v)) return L->P.err->code;
        }
        if (place(L, pl, (int)v, CAT_Z_FIELD)) return L->P.err->code;
        unsigned u = (unsigned)v;
        cat_card *c = &pl->c[u];
        pl->field[pos] = (uint8_t)u;
        c->pos = (uint8_t)pos;
        int64_t power = -1, health = -1;
        for (const arb_tnode *f = e->first; f; f = f->next) {
            int k = arb_name_index(field_keys, sizeof field_keys / sizeof field_keys[0], f->key), b = 0;
            switch (k) {
            case 0: break;
            case 1:
                if (L->autouid) break;
                if (f->kind != ARB_T_STR || strcmp(f->s, cat_defof(pl, u)->card.id) != 0)
                    return arb_pos_fail(&L->P, "card", NULL, "does not match the card list for this UID");
                break;
            case 2: case 3: case 4: case 5: case 6: {
                static const uint8_t bits[] = { CAT_F_FACEDOWN, CAT_F_ACTIVATED, CAT_F_UNSTABLE, CAT_F_REINFORCED,
                                                CAT_F_UPKEEP_DUE };
                if (arb_pos_bool_node(&L->P, f, f->key, &b)) return L->P.err->code;
                if (b) c->flags |= bits[k - 2];
                break;
            }
            case 7: if (arb_pos_int_node(&L->P, f, f->key, 0, 255, &v)) return L->P.err->code; c->damage = (uint8_t)v; break;
            case 8: if (arb_pos_int_node(&L->P, f, f->key, -CAT_POWER_MAX, CAT_POWER_MAX, &v)) return L->P.err->code; c->bonus = (int32_t)v; break;
            case 9: if (arb_pos_int_node(&L->P, f, f->key, 0, CAT_SHIELD_MAX, &v)) return L->P.err->code; c->shield = (uint16_t)v; break;
            case 10: if (arb_pos_int_node(&L->P, f, f->key, 0, CAT_POWER_MAX, &power)) return L->P.err->code; break;
            case 11: if (arb_pos_int_node(&L->P, f, f->key, 0, 255, &health)) return L->P.err->code; break;
            default: return arb_pos_fail(&L->P, f->key, NULL, "unknown field");
            }
        }
        const cat_def *d = cat_defof(pl, u);
        if (d->kind == CAT_KIND_IMPULSE)
            return arb_pos_failc(&L->P, NULL, ARB_EINVAL, "CAT-FREE-IMPULSE", "an Impulse card is never in play (I-IMPULSE-PLAY)");
        if (d->kind == CAT_KIND_CATALYST && (c->flags & (CAT_F_FACEDOWN | CAT_F_UNSTABLE | CAT_F_UPKEEP_DUE)))
            return arb_pos_failc(&L->P, NULL, ARB_EINVAL, "CAT-SETUP-CATALYST", "a Catalyst is face up, never Unstable and pays no Upkeep (G04)");
        if ((c->flags & CAT_F_REINFORCED) && !(c->flags & CAT_F_ACTIVATED))
            return arb_pos_failc(&L->P, "reinforced", ARB_EINVAL, "CAT-FREE-REINFORCE", "a Reinforced card is Activated");
        if (c->damage >= arb_catalyst__health(pl, u))
            return arb_pos_failc(&L->P, "damage", ARB_EINVAL, "CAT-STRIKE", "damage must stay below Health (G07)");
        if (power >= 0 && power != arb_catalyst__power(pl, u))
            return arb_pos_fail(&L->P, "power", NULL, "does not match the card's Power and bonus");
        if (health >= 0 && health != arb_catalyst__health(pl, u))
            return arb_pos_fail(&L->P, "health", NULL, "does not match the card's Health");
        arb_pos_pop(&L->P, l1);
    }
    arb_pos_pop(&L->P, l0);
    return ARB_OK;
}

static int find_def(const char *id)
{
    for (unsigned k = 0; k < CAT_NDEFS; k++)
        if (strcmp(arb_catalyst__defs[k].card.id, id) == 0) return (int)k;
    return -1;
}

static int auto_add(ld *L, cat_player *pl, const arb_tnode *e, const char *key, long idx)
{
    const arb_tnode *c = e->kind == ARB_T_MAP ? arb_tnode_get(e, "card") : e;
    size_t l = key ? arb_pos_push(&L->P, key) : arb_pos_index(&L->P, idx);
    if (!c || c->kind != ARB_T_STR)
        return arb_pos_fail(&L->P, NULL, NULL, "without a `cards` list every card names its card id");
    int d = find_def(c->s);
    if (d < 0) return arb_pos_failc(&L->P, NULL, ARB_EINVAL, "CAT-DECK-POOL", "not a CATALYST card id");
    if (pl->ncards >= CAT_MAX_CARDS) return arb_pos_failc(&L->P, NULL, ARB_ELIMIT, "CAT-DECK-SIZE", "more than 64 cards");
    pl->c[pl->ncards++].def = (uint8_t)d;
    arb_pos_pop(&L->P, l);
    return ARB_OK;
}

/* The per-seat card list from the zones (reading order), plus a Prime
 * Catalyst at B2 when no Catalyst is listed. Returns 1 in *add_catalyst then. */
static int auto_cards(ld *L, const arb_tnode *m, cat_player *pl, int *add_catalyst)
{
    static const char *const zones[] = { "hand", "battlefield", "archive", "vault" };
    static const int zid[] = { CAT_Z_HAND, CAT_Z_FIELD, CAT_Z_ARCHIVE, CAT_Z_VAULT };
    for (int z = 0; z < 4; z++) {
        L->base[zid[z]] = pl->ncards;
        const arb_tnode *arr = arb_tnode_get(m, zones[z]);
        if (!arr) continue;
        if (zid[z] == CAT_Z_FIELD) {
            if (arr->kind != ARB_T_MAP) continue; /* reported by the loader */
            size_t l = arb_pos_push(&L->P, "battlefield");
            for (int p = 0; p < CAT_POSITIONS; p++)
                for (const arb_tnode *e = arr->first; e; e = e->next)
                    if (strcmp(e->key, arb_catalyst__pos_names[p]) == 0 && auto_add(L, pl, e, e->key, 0))
                        return L->P.err->code;
            arb_pos_pop(&L->P, l);
        } else {
            if (arr->kind != ARB_T_ARR) continue;
            long i = 0;
            for (const arb_tnode *e = arr->first; e; e = e->next, i++) {
                size_t l = arb_pos_push(&L->P, zones[z]);
                if (auto_add(L, pl, e, NULL, i)) return L->P.err->code;
                arb_pos_pop(&L->P, l);
            }
        }
    }
    int cats = 0;
    for (unsigned u = 0; u < pl->ncards; u++) cats += arb_catalyst__defs[pl->c[u].def].kind == CAT_KIND_CATALYST;
    *add_catalyst = cats == 0;
    if (cats == 0) {
        if (pl->ncards >= CAT_MAX_CARDS) return arb_pos_failc(&L->P, "cards", ARB_ELIMIT, "CAT-DECK-SIZE", "more than 64 cards");
        pl->c[pl->ncards++].def = (uint8_t)find_def("prime-catalyst");
    }
    return ARB_OK;
}

static const char *const player_keys[] = { "seat", "alive", "shards", "mulligans", "keep_left", "drew_empty",
                                           "cards", "vault_count", "vault", "hand_count", "hand",
                                           "archive_count", "archive", "battlefield" };

static int load_player(ld *L, const arb_tnode *m, cat_player *pl, unsigned seat)
{
    if (m->kind != ARB_T_MAP) return arb_pos_fail(&L->P, NULL, NULL, "expected a player object");
    memset(pl, 0, sizeof *pl);
    memset(pl->field, CAT_NOCARD, sizeof pl->field);
    pl->alive = 1;
    const arb_tnode *cards = arb_tnode_get(m, "cards");
    int add_catalyst = 0;
    L->autouid = cards == NULL;
    if (!cards) {
        if (auto_cards(L, m, pl, &add_catalyst)) return L->P.err->code;
    } else {
        if (cards->kind != ARB_T_ARR || cards->n == 0)
            return arb_pos_fail(&L->P, "cards", NULL, "expected a non-empty array");
        if (cards->n > CAT_MAX_CARDS) return arb_pos_failc(&L->P, "cards", ARB_ELIMIT, "CAT-DECK-SIZE", "more than 64 cards");
        unsigned i = 0;
        for (const arb_tnode *c = cards->first; c; c = c->next, i++) {
            size_t l = arb_pos_push(&L->P, "cards");
            arb_pos_index(&L->P, (long)i);
            int idx = c->kind == ARB_T_STR ? find_def(c->s) : -1;
            if (idx < 0) return arb_pos_failc(&L->P, NULL, ARB_EINVAL, "CAT-DECK-POOL", "not a CATALYST card id");
            pl->c[i].def = (uint8_t)idx;
            arb_pos_pop(&L->P, l);
        }
        pl->ncards = (uint8_t)cards->n;
    }
    unsigned catalysts = 0;
    for (unsigned u = 0; u < pl->ncards; u++) catalysts += arb_catalyst__defs[pl->c[u].def].kind == CAT_KIND_CATALYST;
    if (catalysts != 1) return arb_pos_failc(&L->P, "cards", ARB_EINVAL, "CAT-DECK-CATALYST", "exactly one Catalyst per seat (G20)");
    int64_t v = 0, counts[3] = { -1, -1, -1 };
    int b = 0, have_vault = 0, rc;
    for (const arb_tnode *f = m->first; f; f = f->next) {
        int k = arb_name_index(player_keys, sizeof player_keys / sizeof player_keys[0], f->key);
        rc = ARB_OK;
        switch (k) {
        case 0: rc = arb_pos_int_node(&L->P, f, f->key, seat, seat, &v); break;
        case 1: rc = arb_pos_bool_node(&L->P, f, f->key, &b); pl->alive = (uint8_t)b; break;
        case 2: rc = arb_pos_int_node(&L->P, f, f->key, 0, CAT_SHARDS_LOAD_MAX, &v); pl->shards = (int32_t)v; break;
        case 3: rc = arb_pos_int_node(&L->P, f, f->key, 0, CAT_MULL_MAX, &v); pl->mulligans = (uint8_t)v; break;
        case 4: rc = arb_pos_int_node(&L->P, f, f->key, 0, CAT_MULL_KEEP2, &v); pl->keep_left = (uint8_t)v; break;
        case 5: rc = arb_pos_bool_node(&L->P, f, f->key, &b); pl->drew_empty = (uint8_t)b; break;
        case 6: break;
        case 7: rc = arb_pos_int_node(&L->P, f, f->key, 0, CAT_MAX_CARDS, &counts[0]); break;
        case 8: rc = load_zone(L, f, f->key, pl, CAT_Z_VAULT, pl->vault, &pl->nvault, 1); have_vault = 1; break;
        case 9: rc = arb_pos_int_node(&L->P, f, f->key, 0, CAT_MAX_CARDS, &counts[1]); break;
        case 10: rc = load_zone(L, f, f->key, pl, CAT_Z_HAND, pl->hand, &pl->nhand, 0); break;
        case 11: rc = arb_pos_int_node(&L->P, f, f->key, 0, CAT_MAX_CARDS, &counts[2]); break;
        case 12: rc = load_zone(L, f, f->key, pl, CAT_Z_ARCHIVE, pl->archive, &pl->narchive, 0); break;
        case 13: rc = load_battlefield(L, f, pl); break;
        default: return arb_pos_fail(&L->P, f->key, NULL, "unknown field");
        }
        if (rc) return rc;
    }
    if (add_catalyst) {
        if (pl->field[4] != CAT_NOCARD)
            return arb_pos_failc(&L->P, "battlefield.B2", ARB_EINVAL, "CAT-SETUP-CATALYST", "B2 is taken: list the Catalyst explicitly");
        unsigned u = pl->ncards - 1u;
        pl->field[4] = (uint8_t)u;
        pl->c[u].zone = CAT_Z_FIELD;
        pl->c[u].pos = 4;
    }
    /* Cards placed nowhere: the Vault, when it is not listed (top = lowest UID). */
    for (unsigned u = pl->ncards; u-- > 0;) {
        if (pl->c[u].zone != CAT_Z_NONE) continue;
        if (have_vault) return arb_pos_fail(&L->P, "vault", NULL, "card UID %u is in no zone", u);
        pl->vault[pl->nvault++] = (uint8_t)u;
        pl->c[u].zone = CAT_Z_VAULT;
    }
    if ((counts[0] >= 0 && counts[0] != pl->nvault) || (counts[1] >= 0 && counts[1] != pl->nhand) ||
        (counts[2] >= 0 && counts[2] != pl->narchive))
        return arb_pos_fail(&L->P, counts[0] >= 0 && counts[0] != pl->nvault ? "vault_count"
                                   : counts[1] >= 0 && counts[1] != pl->nhand ? "hand_count"
                                                                               : "archive_count",
                            NULL, "does not match the zone's cards");
    for (unsigned u = 0; u < pl->ncards; u++) {
        const cat_card *c = &pl->c[u];
        if (arb_catalyst__defs[c->def].kind == CAT_KIND_CATALYST && c->zone != CAT_Z_FIELD && c->zone != CAT_Z_ARCHIVE)
            return arb_pos_failc(&L->P, "cards", ARB_EINVAL, "CAT-SETUP-CATALYST", "the Catalyst is in play or (destroyed) in the Archive, never in Vault or hand (G04)");
    }
    return ARB_OK;
}

static const char *const root_keys[] = { "game", "turn", "phase", "active", "first", "actions", "decision",
                                         "pending", "outcome", "rng", "players", NULL };

/* decision: {seat, kind} (kind -1 / seat -1 when not given). */
static int ld_decision(ld *L, const cat_state *s, const arb_tnode *f, int *kind, int *dseat)
{
    int rc = ARB_OK;
    int64_t v = -1;
    if (f->kind != ARB_T_MAP) return arb_pos_fail(&L->P, "decision", NULL, "expected {seat, kind}");
    size_t l = arb_pos_push(&L->P, "decision");
    for (const arb_tnode *g = f->first; g; g = g->next) {
        if (strcmp(g->key, "seat") == 0) rc = arb_pos_int_node(&L->P, g, g->key, ARB_SEAT_NONE, s->nplayers - 1, &v), *dseat = (int)v;
        else if (strcmp(g->key, "kind") == 0 && g->kind == ARB_T_STR && strcmp(g->s, "none") == 0)
            *kind = CAT_D_NONE; /* the spelling before the vocabulary of game.h */
        else if (strcmp(g->key, "kind") == 0) rc = arb_pos_enum_node(&L->P, g, g->key, arb_catalyst__decision_names, CAT_D_COUNT, kind);
        else return arb_pos_fail(&L->P, g->key, NULL, "unknown field");
        if (rc) return rc;
    }
    arb_pos_pop(&L->P, l);
    return ARB_OK;
}

/* pending: null, or the declared Strike awaiting its Reaction window. */
static int ld_pending(ld *L, cat_state *s, const arb_tnode *f)
{
    int rc = ARB_OK;
    if (f->kind == ARB_T_NULL) return ARB_OK;
    if (f->kind != ARB_T_MAP) return arb_pos_fail(&L->P, "pending", NULL, "expected null or a Strike");
    size_t l = arb_pos_push(&L->P, "pending");
    int64_t ps = -1, pu = -1, ts = -1;
    int tp = -1;
    for (const arb_tnode *g = f->first; g; g = g->next) {
        if (strcmp(g->key, "seat") == 0) rc = arb_pos_int_node(&L->P, g, g->key, 0, s->nplayers - 1, &ps);
        else if (strcmp(g->key, "uid") == 0) rc = arb_pos_int_node(&L->P, g, g->key, 0, CAT_MAX_CARDS - 1, &pu);
        else if (strcmp(g->key, "target_seat") == 0) rc = arb_pos_int_node(&L->P, g, g->key, 0, s->nplayers - 1, &ts);
        else if (strcmp(g->key, "target_pos") == 0) rc = arb_pos_enum_node(&L->P, g, g->key, arb_catalyst__pos_names, CAT_POSITIONS, &tp);
        else return arb_pos_fail(&L->P, g->key, NULL, "unknown field");
        if (rc) return rc;
    }
    if (ps < 0 || pu < 0 || ts < 0 || tp < 0)
        return arb_pos_fail(&L->P, NULL, NULL, "needs seat, uid, target_seat and target_pos");
    if (pu >= s->p[ps].ncards || s->p[ps].c[pu].zone != CAT_Z_FIELD || ps == ts ||
        s->p[ts].field[tp] == CAT_NOCARD)
        return arb_pos_failc(&L->P, NULL, ARB_EINVAL, "CAT-STRIKE", "the attacker must be in play and the target an opponent's card");
    s->pend.on = 1;
    s->pend.seat = (uint8_t)ps;
    s->pend.uid = (uint8_t)pu;
    s->pend.tseat = (uint8_t)ts;
    s->pend.tpos = (uint8_t)tp;
    arb_pos_pop(&L->P, l);
    return ARB_OK;
}

static int ld_outcome(ld *L, cat_state *s, const arb_tnode *f, int *over)
{
    int rc = ARB_OK;
    int64_t v = -1;
    if (f->kind != ARB_T_MAP) return arb_pos_fail(&L->P, "outcome", NULL, "expected {over, winner, reason}");
    size_t l = arb_pos_push(&L->P, "outcome");
    for (const arb_tnode *g = f->first; g; g = g->next) {
        if (strcmp(g->key, "over") == 0) rc = arb_pos_bool_node(&L->P, g, g->key, over);
        else if (strcmp(g->key, "winner") == 0) rc = arb_pos_int_node(&L->P, g, g->key, -1, s->nplayers - 1, &v), s->winner = (int8_t)v;
        else if (strcmp(g->key, "reason") == 0) {
            if (g->kind != ARB_T_STR) return arb_pos_fail(&L->P, g->key, NULL, "expected a string");
            int r = g->s[0] ? arb_name_index(arb_catalyst__reason_names, CAT_R_COUNT, g->s) : 0;
            if (r < 0) return arb_pos_fail(&L->P, g->key, NULL, "unknown reason");
            s->reason = (uint8_t)r;
        } else return arb_pos_fail(&L->P, g->key, NULL, "unknown field");
        if (rc) return rc;
    }
    arb_pos_pop(&L->P, l);
    return ARB_OK;
}

/* Consistency of phase, decision and outcome; settles the owed decision. */
static int check_flow(ld *L, cat_state *s, int kind, int dseat, int over, int have_actions)
{
    s->over = (uint8_t)over;
    if (over != (s->phase == CAT_PH_OVER)) return arb_pos_fail(&L->P, "phase", NULL, "phase \"over\" iff outcome.over");
    if (!over) s->winner = -1, s->reason = CAT_R_NONE;
    if (over && s->reason == CAT_R_NONE)
        return arb_pos_fail(&L->P, "outcome.reason", NULL, "a match that is over has a reason");
    if (over && s->winner >= 0 && !s->p[s->winner].alive)
        return arb_pos_fail(&L->P, "outcome.winner", NULL, "the winner has left the game");
    if (!s->p[s->active].alive && !over) return arb_pos_fail(&L->P, "active", NULL, "the active seat has left the game");
    if (kind < 0) {
        static const int dflt[] = { CAT_D_MULLIGAN, CAT_D_DEACTIVATE, CAT_D_ACTION, CAT_D_ARCHIVE, CAT_D_NONE };
        kind = s->pend.on ? CAT_D_REACTION : dflt[s->phase];
        if (kind == CAT_D_MULLIGAN && s->p[s->active].keep_left) kind = CAT_D_MULL_KEEP;
    }
    if (dseat < 0 && kind == CAT_D_REACTION) /* the window opens after the Active Player */
        for (unsigned k = 1; k < s->nplayers && dseat < 0; k++)
            if (s->p[(s->active + k) % s->nplayers].alive) dseat = (int)((s->active + k) % s->nplayers);
    if (dseat < 0) dseat = s->active;
    if (!have_actions) s->actions = kind == CAT_D_ACTION || kind == CAT_D_REACTION ? CAT_ACTIONS : 0;
    static const int phase_of[] = { CAT_PH_MULLIGAN, CAT_PH_MULLIGAN, CAT_PH_START, CAT_PH_START,
                                    CAT_PH_ACTION, CAT_PH_ACTION, CAT_PH_END, CAT_PH_OVER };
    if (phase_of[kind] != s->phase) return arb_pos_fail(&L->P, "decision.kind", NULL, "does not belong to the phase");
    if ((kind == CAT_D_REACTION) != (s->pend.on != 0))
        return arb_pos_fail(&L->P, "pending", NULL, "a pending Strike exists exactly in a reaction decision");
    if (kind == CAT_D_REACTION) {
        if (dseat == s->active) return arb_pos_fail(&L->P, "decision.seat", NULL, "a non-active seat owes a reaction");
        if (s->pend.seat != s->active) return arb_pos_fail(&L->P, "pending.seat", NULL, "the active player strikes");
    } else if (kind == CAT_D_MULLIGAN || kind == CAT_D_MULL_KEEP) {
        if (dseat < 0) return arb_pos_fail(&L->P, "decision.seat", NULL, "a seat owes the mulligan decision");
        if ((kind == CAT_D_MULL_KEEP) != (s->p[dseat].keep_left != 0))
            return arb_pos_fail(&L->P, "decision.kind", NULL, "mulligan-keep iff keep_left > 0");
    } else if (kind != CAT_D_NONE && dseat != s->active) {
        return arb_pos_failc(&L->P, "decision.seat", ARB_EINVAL, "CAT-TURN-ACTIVE", "the active player owes this decision");
    }
    for (unsigned k = 0; k < s->nplayers; k++) {
        const cat_player *pl = &s->p[k];
        unsigned open = 0, kept = 0;
        for (unsigned h = 0; h < pl->nhand; h++) {
            if (pl->c[pl->hand[h]].flags & CAT_F_KEPT) kept++;
            else open++;
        }
        if (pl->keep_left && !(kind == CAT_D_MULL_KEEP && (int)k == dseat)) {
            char where[40];
            snprintf(where, sizeof where, "players.%u.keep_left", k);
            return arb_pos_fail(&L->P, where, NULL, "only the seat owing mulligan-keep has cards left to keep");
        }
        if (kept && !pl->keep_left) {
            char where[40];
            snprintf(where, sizeof where, "players.%u.hand", k);
            return arb_pos_fail(&L->P, where, NULL, "\"kept\" marks cards only during a mulligan-keep choice");
        }
        if (pl->keep_left > open) {
            char where[40];
            snprintf(where, sizeof where, "players.%u.keep_left", k);
            return arb_pos_fail(&L->P, where, NULL, "more cards to keep than unkept cards in hand");
        }
    }
    if (kind == CAT_D_NONE) dseat = 0;
    if (kind == CAT_D_ARCHIVE && s->p[s->active].nhand <= CAT_HAND_MAX)
        return arb_pos_failc(&L->P, "decision.kind", ARB_EINVAL, "CAT-END-HAND-MAX", "archive is owed only with more than 7 cards in hand");
    if (kind == CAT_D_UPKEEP) {
        int due = 0;
        for (unsigned p = 0; p < CAT_POSITIONS; p++) {
            uint8_t u = s->p[s->active].field[p];
            due |= u != CAT_NOCARD && (s->p[s->active].c[u].flags & CAT_F_UPKEEP_DUE);
        }
        if (!due) return arb_pos_failc(&L->P, "decision.kind", ARB_EINVAL, "CAT-START-UPKEEP-PAY", "no card has Upkeep due");
    }
    if (dseat >= 0 && !s->p[dseat].alive && kind != CAT_D_NONE)
        return arb_pos_fail(&L->P, "decision.seat", NULL, "that seat has left the game");
    s->dkind = (uint8_t)kind;
    s->dseat = (uint8_t)dseat;
    return ARB_OK;
}

int arb_catalyst__load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)g;
    arb_error local = ARB_ERROR_INIT;
    if (!err) err = &local;
    int rules = arb_game_rules_select(&arb_game_catalyst, su, err);
    if (rules < 0) return rules;
    ld L;
    memset(&L, 0, sizeof L);
    arb_pos_init(&L.P, &arb_game_catalyst, err, NULL);
    cat_state tmp, *s = &tmp;
    memset(s, 0, sizeof *s);
    int rc = arb_pos_keys(&L.P, pos, root_keys);
    if (rc) return rc;
    arb_rng_seed(&s->rng, su ? su->seed : 0);
    s->turn = 1;
    s->phase = CAT_PH_ACTION;
    s->winner = -1;
    const arb_tnode *players = arb_tnode_get(pos, "players");
    if (!players || players->kind != ARB_T_ARR)
        return arb_pos_fail(&L.P, "players", NULL, "missing or not an array of seats");
    if (players->n < 2 || players->n > ARB_MAX_SEATS)
        return arb_pos_failc(&L.P, "players", ARB_EILLEGAL, "CAT-TURN-CLOCKWISE", "2 to 4 players (G21)");
    if (su && su->players && (unsigned)su->players != players->n)
        return arb_pos_fail(&L.P, "players", NULL, "the number of seats differs from the match's player count");
    s->nplayers = (uint8_t)players->n;
    unsigned i = 0;
    for (const arb_tnode *p = players->first; p; p = p->next, i++) {
        size_t l = arb_pos_push(&L.P, "players");
        arb_pos_index(&L.P, (long)i);
        if (load_player(&L, p, &s->p[i], i)) return err->code;
        arb_pos_pop(&L.P, l);
    }
    int64_t v;
    int have_actions = 0, kind = -1, dseat = -1, over = 0;
    for (const arb_tnode *f = pos->first; f; f = f->next) {
        int k = arb_name_index(root_keys, sizeof root_keys / sizeof root_keys[0], f->key), e;
        rc = ARB_OK;
        switch (k) {
        case 0:
            if (f->kind != ARB_T_STR || strcmp(f->s, "catalyst") != 0)
                return arb_pos_fail(&L.P, "game", NULL, "must be \"catalyst\"");
            break;
        case 1: rc = arb_pos_int_node(&L.P, f, f->key, 1, CAT_TURN_CAP, &v); s->turn = (uint32_t)v; break;
        case 2: rc = arb_pos_enum_node(&L.P, f, f->key, arb_catalyst__phase_names, CAT_PH_OVER + 1, &e); s->phase = (uint8_t)e; break;
        case 3: rc = arb_pos_int_node(&L.P, f, f->key, 0, s->nplayers - 1, &v); s->active = (uint8_t)v; break;
        case 4: rc = arb_pos_int_node(&L.P, f, f->key, 0, s->nplayers - 1, &v); s->first = (uint8_t)v; break;
        case 5: rc = arb_pos_int_node(&L.P, f, f->key, 0, CAT_ACTIONS, &v); s->actions = (uint8_t)v; have_actions = 1; break;
        case 6: rc = ld_decision(&L, s, f, &kind, &dseat); break;
        case 7: rc = ld_pending(&L, s, f); break;
        case 8: rc = ld_outcome(&L, s, f, &over); break;
        case 9: rc = arb_pos_rng(&L.P, pos, "rng", &s->rng); if (rc > 0) rc = 0; break;
        case 10: break;
        default: return arb_pos_fail(&L.P, f->key, NULL, "unknown field");
        }
        if (rc) return rc;
    }
    if ((rc = check_flow(&L, s, kind, dseat, over, have_actions))) return rc;
    memcpy(st, s, sizeof *s);
    return ARB_OK;
}
