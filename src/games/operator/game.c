/* game.c — the OPERATOR TCG vtable (arb_game_operator) and the name
 * tables it publishes: verbs, decisions, events, outcome reasons, phases.
 * Verb and event numbers are replay data: append only. */
#include "games/operator/operator.h"

const arb_verb arb_operator__verbs[OPS_V_COUNT] = {
    [OPS_V_DISCARD] = { "discard", 1, 1, "UID", "opening: discard one card of the 4 drawn" },
    [OPS_V_EQUIP] = { "equip", 2, 2, "UID SLOT", "equip a card from hand: SLOT 1 second weapon, 2 armor, 3 cover" },
    [OPS_V_DONE] = { "done", 0, 0, "", "finish the opening equips, an Equip Phase, the Boost step or the reactions" },
    [OPS_V_MOVE] = { "move", 1, 2, "MOVE_UID [COVER_UID]", "leave Cover with a MOVE card (Cover to Cover with a new COVER)" },
    [OPS_V_ATTACH] = { "attach", 2, 2, "MOD_UID SLOT", "attach a Modifier: SLOT 0 Personality (fallback), 1 weapon, 2 armor" },
    [OPS_V_ATTACK] = { "attack", 2, 2, "SEAT WEAPON", "attack SEAT announcing WEAPON 0 fallback or 1 equipped card" },
    [OPS_V_PLAY] = { "play", 1, 1, "UID", "Action Phase: use a strategic card" },
    [OPS_V_PASS] = { "pass", 0, 0, "", "Action Phase: do nothing (or stop attacking)" },
    [OPS_V_BOOST] = { "boost", 1, 1, "UID", "combat Step 2: play one Boost card" },
    [OPS_V_REACT] = { "react", 1, 1, "UID", "combat Step 5 (target only): play a MOVE/ACTION reaction" },
    [OPS_V_TIMEOUT] = { "timeout", 0, 0, "", "arbiter: rejected, OPERATOR has no clock (OPS-G28)" },
    [OPS_V_DISCONNECT] = { "disconnect", 1, 1, "SEAT", "arbiter: rejected, OPERATOR has no clock (OPS-G28)" },
    [OPS_V_RECONNECT] = { "reconnect", 1, 1, "SEAT", "arbiter: rejected, OPERATOR has no clock (OPS-G28)" },
};

/* decision kind = phase + 1; "over" once the match is over (game.h). 0,
 * "none", is never owed: it stays so that positions written with it load. */
const char *const arb_operator__decision_names[OPS_D_COUNT] = {
    "none", "opening-discard", "opening-equip", "first-equip", "action", "boost", "react",
    "second-equip", "over"
};
const char *const arb_operator__phase_names[OPS_PH_COUNT] = {
    "opening", "opening", "first-equip", "action", "combat", "combat", "second-equip", "over"
};
const char *const arb_operator__event_names[OPS_E_COUNT] = {
    "setup", "draw", "draw-skip", "reshuffle", "discard", "equip", "first-player", "turn", "phase",
    "staged-tick", "move", "attach", "strategic", "heal", "pass", "attack", "announce", "boost",
    "cover-check", "miss", "cover-broken", "attack-power", "react", "damage", "armor-broken",
    "staged-damage", "eliminated", "end-effect", "game-over", "extra-move", "opening-done"
};
const char *const arb_operator__reason_names[OPS_R_COUNT] = {
    "none", "elimination", "mutual-elimination", "turn-cap"
};
const char *const arb_operator__combat_types[] = { "ranged-cover", "ranged-open", "close" };

/* What the judge's report charts, and the events that open a turn or a
 * phase (game.h): OPS_E_PHASE names its phase by OPS_PN_* in a. */
static const char *const chart_paths[] = { "players.*.health", "players.*.staged_damage", "#players.*.hand" };
static const char *const chart_labels[] = { "Health", "Staged damage", "Cards in hand" };
static const char *const event_phases[] = { "draw", "first-equip", "action", "combat", "second-equip", "end" };
static const arb_marker markers[] = {
    { OPS_E_TURN, 1, 0, "draw", NULL, 0 },
    { OPS_E_PHASE, 0, 0, NULL, event_phases, 6 },
};

const arb_game arb_game_operator = {
    .contract = ARB_GAME_CONTRACT,
    .id = "operator",
    .title = "OPERATOR TCG",
    .rules_version = "ops-1",
    .engine_version = "1.0.0",
    .min_players = 2,
    .max_players = ARB_MAX_SEATS,
    .state_size = sizeof(ops_state),
    .verbs = arb_operator__verbs, .nverbs = OPS_V_COUNT,
    .decision_names = arb_operator__decision_names, .ndecision_names = OPS_D_COUNT,
    .event_names = arb_operator__event_names, .nevent_names = OPS_E_COUNT,
    .outcome_reasons = arb_operator__reason_names, .noutcome_reasons = OPS_R_COUNT,
    .ncards = OPS_NCARDS,
    .card = arb_operator__pubcard,
    .card_export = arb_operator__card_export,
    .deck_check = arb_operator__deck_check,
    .npresets = OPS_NPRESETS,
    .preset = arb_operator__preset,
    .setup = arb_operator__setup,
    .load_position = arb_operator__load,
    .decision = arb_operator__decision,
    .legal = arb_operator__legal,
    .apply = arb_operator__apply,
    .hash = arb_operator__hash,
    .outcome = arb_operator__outcome,
    .turn = arb_operator__turn,
    .phase = arb_operator__phase,
    .export_state = arb_operator__export,
    .event_text = arb_operator__event_text,
    .action_text = arb_operator__action_text,
    .greedy = arb_operator__greedy,
    .chart_paths = chart_paths, .chart_labels = chart_labels, .ncharts = 3,
    .markers = markers, .nmarkers = 2,
    .max_actions = OPS_MAX_ACTIONS,
};
