/* an_track.c — which quantities the HTML report charts and which events open
 * a turn or a phase, both read from the game (game.h: chart_paths, markers),
 * so the analyzer names no game. Paths are tree paths into the engine's
 * full state export ('*' = each seat, a second '*' = the sum over a list's
 * elements, a leading '#' = the length of a list). Both are optional: a
 * game without charts, or whose paths are absent from its tree, gets a
 * chart of every integer directly under players.N that changes during the
 * match (an_report.c); paths an engine does not export are skipped. */
#include <string.h>

#include "analyze/an_int.h"

unsigned arb_an_tracked(const arb_game *g, const char *const **paths, const char *const **labels)
{
    int has = g && g->contract >= 3 && g->ncharts && g->chart_paths && g->chart_labels;
    *paths = has ? g->chart_paths : NULL;
    *labels = has ? g->chart_labels : NULL;
    return has ? g->ncharts : 0;
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
 * order, and the game names the few that open a turn or a phase
 * (g->markers), so each event is labelled with the turn and phase in which
 * it happens rather than those of the action that caused it; check_analyze
 * checks the markers against the engines (the last turn marker of every
 * action of the golden corpus names the turn the engine reports). */

void arb_an__label_events(const arb_game *g, const arb_event *ev, unsigned n, uint32_t turn,
                          const char *phase, uint32_t *turns, const char **phases)
{
    const arb_marker *mk = g->contract >= 3 ? g->markers : NULL;
    unsigned nm = mk ? g->nmarkers : 0;
    const char *next_phase = NULL;
    for (unsigned i = 0; i < n; i++) {
        const arb_event *e = &ev[i];
        if (next_phase) phase = next_phase;
        next_phase = NULL;
        for (unsigned k = 0; k < nm; k++) {
            const arb_marker *m = &mk[k];
            if (m->event != e->type) continue;
            if (m->turn_from_a && e->a > 0) turn = (uint32_t)e->a;
            if (m->phase && m->after) next_phase = m->phase;
            else if (m->phase) phase = m->phase;
            if (m->phases && e->a >= 0 && (unsigned)e->a < m->nphases) phase = m->phases[e->a];
        }
        turns[i] = turn;
        phases[i] = phase;
    }
}
