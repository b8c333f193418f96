/* an_util.c — small shared pieces of the analyzer: clock and seat
 * formatting, JSON/HTML escaping, names with fallbacks for hostile values,
 * and the generic reading of card UIDs out of action arguments. */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/text.h"

const char *arb_an_clock(uint64_t ms, char *buf, size_t size)
{
    uint64_t s = ms / 1000, m = s / 60;
    if (m >= 60)
        snprintf(buf, size, "%" PRIu64 ":%02u:%02u.%03u", m / 60, (unsigned)(m % 60),
                 (unsigned)(s % 60), (unsigned)(ms % 1000));
    else
        snprintf(buf, size, "%u:%02u.%03u", (unsigned)m, (unsigned)(s % 60), (unsigned)(ms % 1000));
    return buf;
}

const char *arb_an_seat_name(int seat, char *buf, size_t size)
{
    if (seat == ARB_SEAT_ARBITER) snprintf(buf, size, "arbiter");
    else if (seat >= 0) snprintf(buf, size, "P%d", seat + 1);
    else snprintf(buf, size, "-");
    return buf;
}

void arb_an__json_str(FILE *out, const char *s) { arb_json_str(out, s); }

const char *arb_an__hash_str(char *buf, size_t size, uint64_t hash, unsigned bits)
{
    if (bits == 0 || bits >= 64) snprintf(buf, size, "0x%016" PRIx64, hash);
    else snprintf(buf, size, "0x%0*" PRIx64 " (low %u bits)", (int)((bits + 3) / 4), hash, bits);
    return buf;
}

void arb_an__html_str(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            if (*p == '\n' || *p == '\t') { fputc(*p, out); break; }
            size_t len;
            long cp = arb_text_control_at((const char *)p, &len);
            if (cp >= 0) {
                /* controls (C0, DEL, C1) and bidirectional controls become
                 * visible \uXXXX text, as in terminal output */
                fprintf(out, "\\u%04lx", (unsigned long)cp);
                p += len - 1;
                break;
            }
            fputc(*p, out);
        }
    }
}

static const char *name_or(const char *const *names, unsigned n, unsigned i, const char *what,
                           char *buf, size_t size)
{
    if (names && i < n && names[i]) return names[i];
    snprintf(buf, size, "%s#%u", what, i);
    return buf;
}

const char *arb_an__decision_name(const arb_game *g, unsigned kind, char *buf, size_t size)
{
    return name_or(g->decision_names, g->ndecision_names, kind, "decision", buf, size);
}

const char *arb_an__event_name(const arb_game *g, unsigned type, char *buf, size_t size)
{
    return name_or(g->event_names, g->nevent_names, type, "event", buf, size);
}

const char *arb_an__verb_name(const arb_game *g, unsigned verb, char *buf, size_t size)
{
    if (verb < g->nverbs && g->verbs[verb].name) return g->verbs[verb].name;
    snprintf(buf, size, "verb#%u", verb);
    return buf;
}

const char *arb_an__card_id(const arb_an_header *h, int seat, int32_t uid)
{
    if (!h->game || seat < 0 || seat >= h->players || uid < 0) return NULL;
    const arb_deck *d = &h->decks[seat];
    if (uid >= d->ncards) return NULL;
    unsigned idx = d->cards[uid];
    if (idx >= h->game->ncards || !h->game->card) return NULL;
    const arb_card *c = h->game->card(h->game, idx);
    return c ? c->id : NULL;
}

/* The verb's args_help is a space-separated list of argument names
 * ("UID [TARGET]", "HAND_INDEX SEAT"). By the project convention an
 * argument that names a card of the acting seat is called UID (or CARD, or
 * ends in _UID), so this is the only place that knows how to find cards in
 * actions without knowing the game. */
int arb_an__arg_is_card(const arb_game *g, unsigned verb, unsigned i)
{
    if (verb >= g->nverbs || !g->verbs[verb].args_help) return 0;
    const char *p = g->verbs[verb].args_help;
    for (unsigned k = 0;; k++) {
        while (*p == ' ' || *p == '[' || *p == ']') p++;
        if (!*p) return 0;
        const char *start = p;
        while (*p && *p != ' ' && *p != '[' && *p != ']') p++;
        size_t len = (size_t)(p - start);
        if (k == i) {
            char tok[32];
            if (len >= sizeof tok) len = sizeof tok - 1;
            for (size_t j = 0; j < len; j++) tok[j] = (char)toupper((unsigned char)start[j]);
            tok[len] = '\0';
            if (strcmp(tok, "UID") == 0 || strcmp(tok, "CARD") == 0 || strcmp(tok, "CARD_UID") == 0)
                return 1;
            return len > 4 && strcmp(tok + len - 4, "_UID") == 0;
        }
    }
}

/* Clock events are named by the engines with "timeout", "clock",
 * "disconnect" or "reconnect" in the event name (the contract's arbiter
 * verbs); the log flags them so a judge sees every clock ruling. */
int arb_an__event_is_clock(const arb_game *g, const arb_event *e)
{
    char buf[24];
    const char *n = arb_an__event_name(g, e->type, buf, sizeof buf);
    return strstr(n, "timeout") || strstr(n, "clock") || strstr(n, "disconnect") ||
           strstr(n, "reconnect") || strstr(n, "forfeit");
}
