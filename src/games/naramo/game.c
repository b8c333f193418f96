/* game.c — the NARAMO vtable and its name tables (verbs, decisions, events,
 * outcome reasons). Verb, event and reason numbers are part of the replay
 * format and of conformance cases: append, never renumber. */
#include "games/naramo/naramo.h"

const arb_verb arb_naramo__verbs[NAR_V_COUNT] = {
    {"review", 0, 0, "", "Roster Review: shuffle your hand back and draw 6 (once)"},
    {"keep", 0, 0, "", "keep the opening hand"},
    {"order", 1, 1, "UID", "resolve that Facility's SHIFT START effect next"},
    {"play", 1, 2, "UID [TARGET]", "play a card from hand (TARGET: your Personnel, for Equipment)"},
    {"station", 1, 1, "UID", "station one of your Personnel"},
    {"recall", 1, 1, "UID", "recall a stationed Personnel"},
    {"strike", 1, 1, "UID", "a READY RAIDER strikes the opponent"},
    {"exhaust", 1, 1, "UID", "use a READY Personnel's Exhaust: ability"},
    {"scram", 0, 0, "", "SCRAM the reactor (core >= 2,400 K, once per match)"},
    {"edg", 0, 0, "", "Emergency Diesel Generators: +1 Swipe, once per shift"},
    {"end", 0, 0, "", "end the shift: Incident phase and Shift End run in one go"},
    {"gubby_discard", 1, 1, "UID", "answer Gubby's alarm by discarding that card"},
    {"gubby_heat", 0, 0, "", "answer Gubby's alarm by taking +100 K"},
    {"deploy", 2, 2, "UID SEAT", "deploy an Incident from hand onto SEAT's shift"},
    {"decline", 0, 0, "", "deploy nothing this Incident phase"},
    {"clear", 1, 1, "BOARD_INDEX", "pay the CLEAR cost of the Incident at that index of your board"},
    {"done", 0, 0, "", "stop paying CLEAR costs"},
    {"block", 1, 1, "UID", "block the strike with a READY Personnel"},
    {"noblock", 0, 0, "", "let the strike through"},
    {"heat", 0, 0, "", "take the strike's heat"},
    {"hack", 0, 0, "", "take a HACK counter instead of the heat"},
    {"discard", 1, 1, "UID", "discard a card at Shift End (down to 7)"},
    {"timeout", 0, 0, "", "arbiter: the running clock or a reconnect grace ran out"},
    {"disconnect", 1, 1, "SEAT", "arbiter: SEAT's connection dropped"},
    {"reconnect", 1, 1, "SEAT", "arbiter: SEAT reconnected"},
};

const char *const arb_naramo__decision_names[NAR_D_COUNT] = {
    "review", "order", "operations", "block", "strike", "alarm", "deploy", "clear",
    "discard", "reconnect", "over"};

const char *const arb_naramo__event_names[NAR_E_COUNT] = {
    "init-reactors", "shuffle", "draw", "draw-empty", "review", "keep", "first-player",
    "seventh-card", "shift-begin", "report-in", "base-load", "base-load-skipped",
    "shift-start-effect", "core", "clearance", "power-orders", "hack", "swipes", "play",
    "station", "recall", "strike", "block", "noblock", "take-heat", "take-hack", "exhaust",
    "scram", "edg", "end-shift", "alarm", "deploy", "decline", "clear", "clears-done",
    "po-check", "overheat", "duration", "incident-discard", "discard", "effect-end",
    "shutdown-end", "leave-play", "timeout", "forfeit", "disconnect", "reconnect", "game-over"};

const char *const arb_naramo__reason_names[NAR_R_COUNT] = {
    "none", "meltdown", "power-orders", "deck-out", "timeouts", "disconnect", "draw"};

const char *const arb_naramo__clearance_names[4] = {"D", "C", "B", "A"};

/* Every rules version the engine implements, oldest first (game.h). A
 * replay verifies under the one its header names; new matches get the last.
 *   naramo-1  the first release.
 *   naramo-2  L38 three consecutive timeouts: a timeout while the opponent
 *             owes a prompt is the opponent's, and breaks the shift player's
 *             run (interpretations.md, G22). */
static const char *const rules_versions[] = {"naramo-1", "naramo-2"};
/* What the judge's report charts, and the events that open a shift or a
 * phase (game.h; STATE.md "Events"): one `end` runs the Incident phase, the
 * Shift End and the next Shift Start. */
static const char *const chart_paths[] = { "players.*.core", "players.*.power_orders", "players.*.hack",
                                           "#players.*.hand" };
static const char *const chart_labels[] = { "Core temperature (K)", "Power Orders", "HACK counters", "Cards in hand" };
static const arb_marker markers[] = {
    { NAR_E_SHIFT_BEGIN, 1, 0, "shift_start", NULL, 0 },
    /* "closes out Operations" is the last event of the Operations phase. */
    { NAR_E_END_SHIFT, 0, 1, "incident", NULL, 0 },
    /* Shift End opens with the end of "until your next Shift End" effects,
     * the end of a SHUT DOWN, or (always) the Power Order check. */
    { NAR_E_EFFECT_END, 0, 0, "shift_end", NULL, 0 },
    { NAR_E_SHUTDOWN_END, 0, 0, "shift_end", NULL, 0 },
    { NAR_E_PO_CHECK, 0, 0, "shift_end", NULL, 0 },
};

extern const arb_game arb_game_naramo;


const arb_game arb_game_naramo = {
    .contract = ARB_GAME_CONTRACT,
    .id = "naramo",
    .title = "NARAMO TCG",
    .rules_version = "naramo-2",
    .engine_version = "naramo-engine-1.0",
    .rules_versions = rules_versions, .nrules_versions = 2,
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(nar_state),
    .verbs = arb_naramo__verbs, .nverbs = NAR_V_COUNT,
    .decision_names = arb_naramo__decision_names, .ndecision_names = NAR_D_COUNT,
    .event_names = arb_naramo__event_names, .nevent_names = NAR_E_COUNT,
    .outcome_reasons = arb_naramo__reason_names, .noutcome_reasons = NAR_R_COUNT,
    .ncards = NAR_NCARDS,
    .card = arb_naramo__card,
    .card_export = arb_naramo__card_export,
    .deck_check = arb_naramo__deck_check,
    .npresets = NAR_NPRESETS,
    .preset = arb_naramo__preset,
    .setup = arb_naramo__setup,
    .load_position = arb_naramo__load,
    .decision = arb_naramo__decision,
    .legal = arb_naramo__legal,
    .apply = arb_naramo__apply,
    .hash = arb_naramo__hash,
    .outcome = arb_naramo__outcome,
    .turn = arb_naramo__turn,
    .phase = arb_naramo__phase,
    .export_state = arb_naramo__export,
    .event_text = arb_naramo__event_text,
    .action_text = arb_naramo__action_text,
    .greedy = arb_naramo__greedy,
    .chart_paths = chart_paths, .chart_labels = chart_labels, .ncharts = 4,
    .markers = markers, .nmarkers = sizeof markers / sizeof markers[0],
    .max_actions = NAR_MAX_ACTIONS,
};
