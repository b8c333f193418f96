/* toolkit.c — the small shared pieces engines and their callers use instead
 * of repeating them: name lookups with an out-of-range fallback and the
 * outcome-reason matching that lets old replay spellings verify. */
#include <string.h>

#include "arbiter/toolkit.h"

int arb_name_index(const char *const *names, unsigned n, const char *s)
{
    for (unsigned i = 0; s && i < n; i++)
        if (names[i] && strcmp(names[i], s) == 0) return (int)i;
    return -1;
}

const char *arb_game_verb_name(const arb_game *g, unsigned verb)
{
    return g && verb < g->nverbs && g->verbs[verb].name ? g->verbs[verb].name : "unknown";
}

const char *arb_game_decision_name(const arb_game *g, unsigned kind)
{
    return g ? arb_name_at(g->decision_names, g->ndecision_names, kind, "unknown") : "unknown";
}

const char *arb_game_event_name(const arb_game *g, unsigned type)
{
    return g ? arb_name_at(g->event_names, g->nevent_names, type, "unknown") : "unknown";
}

const char *arb_game_reason_name(const arb_game *g, unsigned reason)
{
    return g ? arb_name_at(g->outcome_reasons, g->noutcome_reasons, reason, "unknown") : "unknown";
}

int arb_reason_same(const char *a, const char *b)
{
    if (!a || !b) return 0;
    for (;; a++, b++) {
        char x = *a == '_' ? '-' : *a, y = *b == '_' ? '-' : *b;
        if (x != y) return 0;
        if (!x) return 1;
    }
}

int arb_game_reason_find(const arb_game *g, const char *name)
{
    if (!g || !name) return -1;
    for (unsigned i = 0; i < g->noutcome_reasons; i++)
        if (g->outcome_reasons[i] && arb_reason_same(g->outcome_reasons[i], name)) return (int)i;
    return -1;
}
