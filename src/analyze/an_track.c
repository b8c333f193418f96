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
