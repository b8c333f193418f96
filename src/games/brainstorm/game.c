/* game.c — the brainstorm vtable: binds the engine's files to the game
 * contract (include/arbiter/game.h). */
#include "games/brainstorm/brainstorm.h"

/* Every rules version the engine implements, oldest first (game.h). A
 * replay verifies under the one its header names; new matches get the last.
 *   brainstorm-draft0-1  the first release.
 *   brainstorm-draft0-2  L38: Bootstrap may choose every Module linked to a
 *                        Generator Output, used or not (two Links on one
 *                        Output with Splice Cell); L19/G04: "when this Cell
 *                        becomes active" (Power Cell) and Amplifier's
 *                        "whenever" trigger through the Stack. */
static const char *const rules_versions[] = {"brainstorm-draft0-1", "brainstorm-draft0-2"};
/* What the judge's report charts, and the events that open a Cycle or a
 * phase (game.h). */
static const char *const chart_paths[] = { "players.*.machine.*.charge", "#players.*.machine", "#players.*.hand" };
static const char *const chart_labels[] = { "Charge (sum over the machine)", "Cards in the machine", "Cards in hand" };
static const arb_marker markers[] = {
    { BRN_E_CYCLE, 1, 0, "reset", NULL, 0 },
    { BRN_E_PHASE, 0, 0, NULL, arb_brainstorm__phase_names, BRN_P_OVER },
};

extern const arb_game arb_game_brainstorm;


/* "over" was the game-over event's name before contract 3's vocabulary. */
static const char *const event_aliases[] = { "over", "game-over" };

const arb_game arb_game_brainstorm = {
    .contract = ARB_GAME_CONTRACT,
    .id = "brainstorm",
    .title = "Brainstorm TCG (Draft 0)",
    .rules_version = "brainstorm-draft0-2",
    .engine_version = "1.0.0",
    .rules_versions = rules_versions, .nrules_versions = 2,
    .min_players = BRN_PLAYERS,
    .max_players = BRN_PLAYERS,
    .state_size = sizeof(brn_state),
    .verbs = arb_brainstorm__verbs, .nverbs = BRN_V_COUNT,
    .decision_names = arb_brainstorm__decision_names, .ndecision_names = BRN_D_COUNT,
    .event_names = arb_brainstorm__event_names, .nevent_names = BRN_E_COUNT,
    .outcome_reasons = arb_brainstorm__reason_names, .noutcome_reasons = BRN_R_COUNT,
    .ncards = BRN_NCARDS,
    .card = arb_brainstorm__card,
    .card_export = arb_brainstorm__card_export,
    .deck_check = arb_brainstorm__deck_check,
    .npresets = BRN_NPRESETS,
    .preset = arb_brainstorm__preset,
    .setup = arb_brainstorm__setup,
    .load_position = arb_brainstorm__load,
    .decision = arb_brainstorm__decision,
    .legal = arb_brainstorm__legal_vt,
    .apply = arb_brainstorm__apply,
    .hash = arb_brainstorm__hash,
    .outcome = arb_brainstorm__outcome,
    .turn = arb_brainstorm__turn,
    .phase = arb_brainstorm__phase,
    .export_state = arb_brainstorm__export,
    .event_text = arb_brainstorm__event_text,
    .action_text = arb_brainstorm__action_text,
    .greedy = arb_brainstorm__greedy,
    .chart_paths = chart_paths, .chart_labels = chart_labels, .ncharts = 3,
    .markers = markers, .nmarkers = 2,
    .max_actions = BRN_MAX_ACTIONS,
    .event_aliases = event_aliases, .nevent_aliases = 1,
};
