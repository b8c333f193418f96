/* an_track.c — which quantities the HTML report charts, per game: tree
 * paths into the engine's full state export ('*' = each seat, a second '*'
 * = the sum over a list's elements, a leading '#' = the length of a list). This table is the only game-specific knowledge
 * in the analyzer, and it is optional: a game without an entry, or whose
 * paths are absent from its tree, gets a chart of every integer directly
 * under players.N that changes during the match (an_report.c). Paths that
 * an engine does not export are simply skipped, so listing alternatives
 * costs nothing. */
#include <string.h>

#include "analyze/an_int.h"

#define TRACK_MAX 8

typedef struct track_entry {
    const char *game;
    const char *paths[TRACK_MAX];
    const char *labels[TRACK_MAX];
} track_entry;

static const track_entry table[] = {
    { "naramo",
      { "players.*.core", "players.*.power_orders", "players.*.hack", "#players.*.hand", NULL },
      { "Core temperature (K)", "Power Orders", "HACK counters", "Cards in hand", NULL } },
    { "operator",
      { "players.*.health", "players.*.staged_damage", "#players.*.hand", NULL },
      { "Health", "Staged damage", "Cards in hand", NULL } },
    { "catalyst",
      { "players.*.shards", "#players.*.battlefield", "#players.*.vault", "#players.*.hand", NULL },
      { "Shards", "Cards in play", "Cards in the Vault", "Cards in hand", NULL } },
    { "brainstorm",
      { "players.*.machine.*.charge", "#players.*.machine", "#players.*.hand", NULL },
      { "Charge (sum over the machine)", "Cards in the machine", "Cards in hand", NULL } },
};

unsigned arb_an_tracked(const arb_game *g, const char *const **paths, const char *const **labels)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].game, g->id)) continue;
        unsigned n = 0;
        while (n < TRACK_MAX && table[i].paths[n]) n++;
        *paths = table[i].paths;
        *labels = table[i].labels;
        return n;
    }
    *paths = NULL;
    *labels = NULL;
    return 0;
}

/* Resolve a tracked path for seat under the state root. A second '*'
 * sums the rest of the path over every element of that list ("the Charge
 * on all of a player's Modules"); elements without the field count 0.
 * Returns 1 and the value, or 0 when the path is absent or not a number
 * or list. */
int arb_an__track_value(const arb_tnode *root, const char *path, int seat, int64_t *v)
{
    char buf[128];
    int count = path[0] == '#';
    if (count) path++;
    const char *star = strchr(path, '*');
    if (star) snprintf(buf, sizeof buf, "%.*s%d%s", (int)(star - path), path, seat, star + 1);
    else snprintf(buf, sizeof buf, "%s", path);
    char *sum = strstr(buf, ".*.");
    if (sum && !count) {
        *sum = '\0';
        const arb_tnode *list = arb_tnode_path(root, buf);
        if (!list || (list->kind != ARB_T_ARR && list->kind != ARB_T_MAP)) return 0;
        int64_t total = 0;
        for (const arb_tnode *e = list->first; e; e = e->next) {
            const arb_tnode *x = arb_tnode_path(e, sum + 3);
            if (x && (x->kind == ARB_T_INT || x->kind == ARB_T_BOOL)) total += x->i;
        }
        *v = total;
        return 1;
    }
    const arb_tnode *n = arb_tnode_path(root, buf);
    if (!n) {
        /* A zone exported as a count only ("hand_count") still charts. */
        if (!count) return 0;
        size_t len = strlen(buf);
        if (len + 7 >= sizeof buf) return 0;
        memcpy(buf + len, "_count", 7);
        n = arb_tnode_path(root, buf);
        if (!n || n->kind != ARB_T_INT) return 0;
        *v = n->i;
        return 1;
    }
    if (count) {
        if (n->kind != ARB_T_ARR && n->kind != ARB_T_MAP) return 0;
        *v = n->n;
        return 1;
    }
    if (n->kind != ARB_T_INT && n->kind != ARB_T_BOOL) return 0;
    *v = n->i;
    return 1;
}

/* ---- turn and phase markers ---------------------------------------------
 * One action can cross phases and turns (naramo's `end` runs the Incident
 * phase, the Shift End and the next shift's Shift Start; a Brainstorm pass
 * can close a Cycle and open the next). The engine's events are emitted in
 * order, and each game emits a few that open a turn or a phase; this table
 * names them, so each event is labelled with the turn and phase in which it
 * happens rather than those of the action that caused it. Like the tracked
 * quantities this is data about the engines' event vocabularies (their
 * STATE.md "Events" sections), checked against the engines by
 * check_analyze (the last turn marker of every action of the golden corpus
 * names the turn the engine reports afterwards). */

typedef struct marker_entry {
    const char *game;
    const char *event;
    int turn_from_a;                /* the event's a is the new turn */
    const char *phase;              /* fixed phase it opens, or NULL */
    int after;                      /* the phase opens after this event */
    const char *const *phases;      /* phase named by index a, or NULL */
    unsigned nphases;
} marker_entry;

static const char *const catalyst_phases[] = { "mulligan", "start", "action", "end" };
static const char *const operator_phases[] = { "draw", "first-equip", "action", "combat", "second-equip", "end" };
static const char *const brainstorm_phases[] = { "reset", "start", "expansion", "assembly", "routing",
                                                 "bootstrap", "plug", "showdown", "focus", "end" };

static const marker_entry markers[] = {
    { "naramo", "shift_begin", 1, "shift_start", 0, NULL, 0 },
    /* "closes out Operations" is the last event of the Operations phase. */
    { "naramo", "end_shift", 0, "incident", 1, NULL, 0 },
    /* Shift End opens with the end of "until your next Shift End" effects,
     * the end of a SHUT DOWN, or (always) the Power Order check. */
    { "naramo", "effect_end", 0, "shift_end", 0, NULL, 0 },
    { "naramo", "shutdown_end", 0, "shift_end", 0, NULL, 0 },
    { "naramo", "po_check", 0, "shift_end", 0, NULL, 0 },
    { "catalyst", "turn", 1, "start", 0, NULL, 0 },
    { "catalyst", "phase", 0, NULL, 0, catalyst_phases, 4 },
    { "operator", "turn", 1, "draw", 0, NULL, 0 },
    { "operator", "phase", 0, NULL, 0, operator_phases, 6 },
    { "brainstorm", "cycle", 1, "reset", 0, NULL, 0 },
    { "brainstorm", "phase", 0, NULL, 0, brainstorm_phases, 10 },
};

void arb_an__label_events(const arb_game *g, const arb_event *ev, unsigned n, uint32_t turn,
                          const char *phase, uint32_t *turns, const char **phases)
{
    const marker_entry *mine[16];
    unsigned nm = 0;
    for (size_t i = 0; i < sizeof markers / sizeof markers[0] && nm < 16; i++)
        if (!strcmp(markers[i].game, g->id)) mine[nm++] = &markers[i];
    const char *next_phase = NULL;
    for (unsigned i = 0; i < n; i++) {
        const arb_event *e = &ev[i];
        if (next_phase) phase = next_phase;
        next_phase = NULL;
        const char *name = e->type < g->nevent_names && g->event_names ? g->event_names[e->type] : NULL;
        for (unsigned k = 0; name && k < nm; k++) {
            if (strcmp(mine[k]->event, name)) continue;
            if (mine[k]->turn_from_a && e->a > 0) turn = (uint32_t)e->a;
            if (mine[k]->phase && mine[k]->after) next_phase = mine[k]->phase;
            else if (mine[k]->phase) phase = mine[k]->phase;
            if (mine[k]->phases && e->a >= 0 && (unsigned)e->a < mine[k]->nphases) phase = mine[k]->phases[e->a];
        }
        turns[i] = turn;
        phases[i] = phase;
    }
}
