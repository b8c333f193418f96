/* game.c — the CATALYST vtable (`arb_game_catalyst`), its name tables
 * (verbs, decisions, events, outcome reasons — all part of the replay and
 * conformance vocabulary, append only), the canonical state hash and the
 * small derived-stat helpers every other file of the engine shares. */
#include <stdlib.h>
#include <string.h>

#include "games/catalyst/catalyst.h"

const arb_verb arb_catalyst__verbs[CAT_V_COUNT] = {
    [CAT_V_KEEP] = { "keep", 0, 0, "", "keep the opening hand (CAT-MULL-KEEP)" },
    [CAT_V_MULLIGAN] = { "mulligan", 0, 0, "", "shuffle the hand back and draw 6 new cards (CAT-MULL-OPTION)" },
    [CAT_V_KEEP_CARD] = { "keep-card", 1, 1, "UID", "after the 2nd/3rd mulligan, keep this new card (one per decision)" },
    [CAT_V_DEACTIVATE] = { "deactivate", 1, 1, "UID", "Start Phase: Deactivate one of your Activated cards" },
    [CAT_V_DONE] = { "done", 0, 0, "", "Start Phase: stop Deactivating" },
    [CAT_V_PAY] = { "pay", 1, 1, "UID", "Start Phase: pay this card's Upkeep" },
    [CAT_V_DECLINE] = { "decline", 1, 1, "UID", "Start Phase: do not pay this card's Upkeep (it is Archived)" },
    [CAT_V_DEPLOY] = { "deploy", 2, 2, "UID POS", "Deploy face up at POS (0..5 = F1 F2 F3 B1 B2 B3)" },
    [CAT_V_DEPLOY_FD] = { "deploy-facedown", 2, 2, "UID POS", "Deploy face down (Disengaged) for 1 Shard + 1 Action" },
    [CAT_V_ABILITY] = { "ability", 2, 2, "UID N", "use ability N of a card (0: [A] ability, 1: free ability)" },
    [CAT_V_STRIKE] = { "strike", 3, 3, "UID SEAT POS", "Strike the card of SEAT at POS with your card UID" },
    [CAT_V_MOVE] = { "move", 2, 2, "UID POS", "Reposition: move your card to the empty POS" },
    [CAT_V_SWAP] = { "swap", 2, 2, "UID UID", "Reposition: swap two of your cards" },
    [CAT_V_RETREAT] = { "retreat", 1, 1, "UID", "return one of your cards in play to your hand" },
    [CAT_V_DRAW] = { "draw", 0, 0, "", "Action: draw a card from your Vault" },
    [CAT_V_ENGAGE] = { "engage", 1, 1, "UID", "turn a face-down card face up for its cost minus 1 Shard" },
    [CAT_V_REINFORCE] = { "reinforce", 1, 1, "UID", "Activate a face-down card: -1 damage per Strike on your cards this turn" },
    [CAT_V_IMPULSE] = { "impulse", 1, 2, "UID [TARGET_UID]", "play an Impulse card (also as a Reaction)" },
    [CAT_V_END] = { "end", 0, 0, "", "end the Action Phase (the End Phase follows)" },
    [CAT_V_PASS] = { "pass", 0, 0, "", "close your Reaction window" },
    [CAT_V_ARCHIVE] = { "archive", 1, 1, "UID", "End Phase: Archive a card from your hand (down to 7)" },
    [CAT_V_TIMEOUT] = { "timeout", 0, 0, "", "arbiter: rejected, CATALYST has no clock (CAT-NOCLOCK)" },
    [CAT_V_DISCONNECT] = { "disconnect", 1, 1, "SEAT", "arbiter: rejected, CATALYST has no clock (CAT-NOCLOCK)" },
    [CAT_V_RECONNECT] = { "reconnect", 1, 1, "SEAT", "arbiter: rejected, CATALYST has no clock (CAT-NOCLOCK)" },
};

const char *const arb_catalyst__decision_names[CAT_D_COUNT] = {
    [CAT_D_MULLIGAN] = "mulligan", [CAT_D_MULL_KEEP] = "mulligan-keep", [CAT_D_DEACTIVATE] = "deactivate",
    [CAT_D_UPKEEP] = "upkeep", [CAT_D_ACTION] = "action", [CAT_D_REACTION] = "reaction",
    [CAT_D_ARCHIVE] = "archive", [CAT_D_NONE] = "over",
};

const char *const arb_catalyst__phase_names[CAT_PH_OVER + 1] = { "mulligan", "start", "action", "end", "over" };

const char *const arb_catalyst__reason_names[CAT_R_COUNT] = {
    [CAT_R_NONE] = "none", [CAT_R_LAST] = "last-player", [CAT_R_ALL_LOST] = "all-lost", [CAT_R_TURN_CAP] = "turn-cap",
};

const char *const arb_catalyst__event_names[CAT_E_COUNT] = {
    [CAT_E_FIRST] = "first-player", [CAT_E_CATALYST] = "catalyst", [CAT_E_SHUFFLE] = "shuffle",
    [CAT_E_DRAW] = "draw", [CAT_E_DRAW_EMPTY] = "draw-empty", [CAT_E_MULLIGAN] = "mulligan",
    [CAT_E_KEEP] = "keep", [CAT_E_KEEP_CARD] = "keep-card", [CAT_E_RETURN] = "return",
    [CAT_E_TURN] = "turn", [CAT_E_PHASE] = "phase", [CAT_E_DEACTIVATE] = "deactivate",
    [CAT_E_GAIN] = "gain", [CAT_E_UPKEEP_PAID] = "upkeep-paid", [CAT_E_UPKEEP_ARCHIVED] = "upkeep-archived",
    [CAT_E_SKIP_DRAW] = "skip-draw", [CAT_E_ACTIONS] = "actions", [CAT_E_DEPLOY] = "deploy",
    [CAT_E_DEPLOY_FD] = "deploy-facedown", [CAT_E_ABILITY] = "ability", [CAT_E_STRIKE] = "strike",
    [CAT_E_DAMAGE] = "damage", [CAT_E_DESTROYED] = "destroyed", [CAT_E_MOVE] = "move",
    [CAT_E_SWAP] = "swap", [CAT_E_RETREAT] = "retreat", [CAT_E_ENGAGE] = "engage",
    [CAT_E_REINFORCE] = "reinforce", [CAT_E_IMPULSE] = "impulse", [CAT_E_REACTION] = "reaction",
    [CAT_E_PASS] = "pass", [CAT_E_END_ACTIONS] = "end-actions", [CAT_E_CLEANUP] = "cleanup",
    [CAT_E_HAND_ARCHIVE] = "hand-archive", [CAT_E_LOSE] = "lose", [CAT_E_WIN] = "game-over", [CAT_E_PAY] = "pay",
};

int arb_catalyst__power(const cat_player *pl, unsigned uid)
{
    const cat_card *c = &pl->c[uid];
    if (c->flags & CAT_F_FACEDOWN) return 0; /* G11 */
    int64_t p = (int64_t)arb_catalyst__defs[c->def].power + c->bonus;
    return p < 0 ? 0 : p > CAT_POWER_MAX ? CAT_POWER_MAX : (int)p;
}

int arb_catalyst__health(const cat_player *pl, unsigned uid)
{
    const cat_card *c = &pl->c[uid];
    return (c->flags & CAT_F_FACEDOWN) ? 1 : arb_catalyst__defs[c->def].health; /* G11 */
}

int arb_catalyst__distance(unsigned a, unsigned t) /* G06 */
{
    return (int)CAT_POS_DEPTH(a) + (int)CAT_POS_DEPTH(t) + abs((int)CAT_POS_COL(a) - (int)CAT_POS_COL(t));
}

int arb_catalyst__pos_parse(const char *s)
{
    for (int p = 0; p < CAT_POSITIONS; p++)
        if (strcmp(s, arb_catalyst__pos_names[p]) == 0) return p;
    return -1;
}

/* Canonical hash: every field in declaration order, little-endian, only the
 * live part of each zone (the layout is documented in STATE.md). The bytes
 * are laid out in a local buffer and handed to the hasher in one call, which
 * is several times faster than one hasher call per field. */
#define PUT8(v) (buf[n++] = (uint8_t)(v))
#define PUT16(v) (PUT8(v), PUT8((uint16_t)(v) >> 8))
#define PUT32(v) (PUT16((uint32_t)(v)), PUT16((uint32_t)(v) >> 16))
#define PUT64(v) (PUT32((uint64_t)(v)), PUT32((uint64_t)(v) >> 32))

uint64_t arb_catalyst__hash(const arb_game *g, const void *st)
{
    (void)g;
    const cat_state *s = st;
    uint8_t buf[96 + ARB_MAX_SEATS * (24 + 3 * (1 + CAT_MAX_CARDS) + 11 * CAT_MAX_CARDS)];
    size_t n = 0;
    arb_hasher h;
    arb_hasher_init(&h);
    arb_hasher_str(&h, "catalyst");
    for (int i = 0; i < 4; i++) PUT64(s->rng.s[i]);
    PUT32(s->turn);
    PUT8(s->nplayers); PUT8(s->first); PUT8(s->active);
    PUT8(s->phase); PUT8(s->dkind); PUT8(s->dseat);
    PUT8(s->actions); PUT8(s->over); PUT8(s->winner);
    PUT8(s->reason ? s->reason - 1 : 0); /* the replay table's index (catalyst.h) */
    PUT8(s->pend.on); PUT8(s->pend.seat); PUT8(s->pend.uid);
    PUT8(s->pend.tseat); PUT8(s->pend.tpos);
    for (unsigned i = 0; i < s->nplayers && i < ARB_MAX_SEATS; i++) {
        const cat_player *pl = &s->p[i];
        unsigned nv = pl->nvault <= CAT_MAX_CARDS ? pl->nvault : CAT_MAX_CARDS;
        unsigned nh = pl->nhand <= CAT_MAX_CARDS ? pl->nhand : CAT_MAX_CARDS;
        unsigned na = pl->narchive <= CAT_MAX_CARDS ? pl->narchive : CAT_MAX_CARDS;
        unsigned nc = pl->ncards <= CAT_MAX_CARDS ? pl->ncards : CAT_MAX_CARDS;
        PUT8(pl->ncards); PUT8(pl->alive); PUT8(pl->drew_empty);
        PUT8(pl->mulligans); PUT8(pl->keep_left);
        PUT32(pl->shards);
        for (unsigned p = 0; p < CAT_POSITIONS; p++) PUT8(pl->field[p]);
        PUT8(pl->nvault); memcpy(buf + n, pl->vault, nv); n += nv;
        PUT8(pl->nhand); memcpy(buf + n, pl->hand, nh); n += nh;
        PUT8(pl->narchive); memcpy(buf + n, pl->archive, na); n += na;
        for (unsigned u = 0; u < nc; u++) {
            const cat_card *c = &pl->c[u];
            PUT8(c->def); PUT8(c->zone); PUT8(c->pos);
            PUT8(c->flags); PUT8(c->damage);
            PUT16(c->shield); PUT32(c->bonus);
        }
    }
    arb_hasher_bytes(&h, buf, n);
    return arb_hasher_final(&h);
}

#undef PUT8
#undef PUT16
#undef PUT32
#undef PUT64

static int cat_outcome(const arb_game *g, const void *st, arb_outcome *out)
{
    (void)g;
    const cat_state *s = st;
    out->over = s->over;
    out->winner = s->over ? s->winner : -1;
    out->reason = s->reason;
    out->turns = s->turn;
    return out->over;
}

static uint32_t cat_turn(const arb_game *g, const void *st) { (void)g; return ((const cat_state *)st)->turn; }

static const char *cat_phase(const arb_game *g, const void *st)
{
    (void)g;
    const cat_state *s = st;
    return s->phase <= CAT_PH_OVER ? arb_catalyst__phase_names[s->phase] : "?";
}

/* What the judge's report charts, and the events that open a turn or a
 * phase (game.h). */
static const char *const chart_paths[] = { "players.*.shards", "#players.*.battlefield", "#players.*.vault",
                                           "#players.*.hand" };
static const char *const chart_labels[] = { "Shards", "Cards in play", "Cards in the Vault", "Cards in hand" };
static const arb_marker markers[] = {
    { CAT_E_TURN, 1, 0, "start", NULL, 0 },
    { CAT_E_PHASE, 0, 0, NULL, arb_catalyst__phase_names, CAT_PH_OVER },
};

/* "win" was the game-over event's name before contract 3's vocabulary. */
static const char *const event_aliases[] = { "win", "game-over" };
/* The replay format's reason table (catalyst.h): outcome reasons 1.. */
static const char *const replay_reasons[CAT_R_COUNT - 1] = { "last-player", "all-lost", "turn-cap" };

const arb_game arb_game_catalyst = {
    .contract = ARB_GAME_CONTRACT,
    .id = "catalyst",
    .title = "CATALYST",
    .rules_version = "catalyst-rules-1",
    .engine_version = "1.0.0",
    .min_players = 2,
    .max_players = 4,
    .state_size = sizeof(cat_state),
    .verbs = arb_catalyst__verbs, .nverbs = CAT_V_COUNT,
    .decision_names = arb_catalyst__decision_names, .ndecision_names = CAT_D_COUNT,
    .event_names = arb_catalyst__event_names, .nevent_names = CAT_E_COUNT,
    .outcome_reasons = arb_catalyst__reason_names, .noutcome_reasons = CAT_R_COUNT,
    .ncards = CAT_NDEFS,
    .card = arb_catalyst__card,
    .card_export = arb_catalyst__card_export,
    .deck_check = arb_catalyst__deck_check,
    .npresets = CAT_NPRESETS,
    .preset = arb_catalyst__preset,
    .setup = arb_catalyst__setup,
    .load_position = arb_catalyst__load,
    .decision = arb_catalyst__decision,
    .legal = arb_catalyst__legal,
    .apply = arb_catalyst__apply,
    .hash = arb_catalyst__hash,
    .outcome = cat_outcome,
    .turn = cat_turn,
    .phase = cat_phase,
    .export_state = arb_catalyst__export,
    .event_text = arb_catalyst__event_text,
    .action_text = arb_catalyst__action_text,
    .greedy = arb_catalyst__greedy,
    .chart_paths = chart_paths, .chart_labels = chart_labels, .ncharts = 4,
    .markers = markers, .nmarkers = 2,
    .max_actions = CAT_MAX_ACTIONS,
    .event_aliases = event_aliases, .nevent_aliases = 1,
    .replay_reasons = replay_reasons, .nreplay_reasons = CAT_R_COUNT - 1,
};
