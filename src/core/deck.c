/* deck.c — deck file parsing and preset lookup (syntax in deck.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arbiter/deck.h"
#include "arbiter/text.h"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

int arb_deck_parse(arb_deck *out, const arb_game *g, const char *text, size_t len,
                   const char *fname, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, g);
    ARB_ASSERT_ARG(err, text || !len);
    memset(out, 0, sizeof *out);
    if (len > ARB_DECK_FILE_MAX) {
        arb_error_where(err, "%s", fname);
        return arb_error_set(err, ARB_ELIMIT, NULL, "deck file is %zu bytes, more than %d", len,
                             ARB_DECK_FILE_MAX);
    }
    size_t pos = 0;
    unsigned lineno = 0;
    char line[512];
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n') end++;
        lineno++;
        size_t n = end - pos;
        if (memchr(text + pos, '\0', n)) {
            arb_error_where(err, "%s:%u", fname, lineno);
            return arb_error_set(err, ARB_EINVAL, NULL, "NUL byte in deck file");
        }
        if (n >= sizeof line) {
            arb_error_where(err, "%s:%u", fname, lineno);
            return arb_error_set(err, ARB_ELIMIT, NULL, "line is longer than %zu bytes", sizeof line - 1);
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos = end + 1;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (!*s) continue;
        char *colon = strchr(s, ':');
        if (colon && !isdigit((unsigned char)*s)) {
            *colon = '\0';
            char *key = trim(s), *val = trim(colon + 1);
            int rc = strcasecmp(key, "name") == 0
                         ? (strlen(val) < sizeof out->name ? (snprintf(out->name, sizeof out->name, "%s", val), 0)
                                                           : ARB_ELIMIT)
                         : arb_deck_attr_set(out, key, val);
            if (rc) {
                arb_error_where(err, "%s:%u", fname, lineno);
                return arb_error_set(err, ARB_ELIMIT, NULL, "attribute '%s' is too long or one too many (at most %d)",
                                     key, ARB_DECK_ATTRS);
            }
            continue;
        }
        long count = 1;
        if (isdigit((unsigned char)*s)) {
            char *e = s;
            uint64_t cv = 0;
            while (isdigit((unsigned char)*e)) e++;
            if (arb_parse_u64(s, (size_t)(e - s), 0, 1, 40, &cv) || !isspace((unsigned char)*e)) {
                arb_error_where(err, "%s:%u", fname, lineno);
                return arb_error_set(err, ARB_EINVAL, NULL, "expected 'COUNT NAME' with COUNT 1..40");
            }
            count = (long)cv;
            s = trim(e);
        }
        int idx = arb_card_find(g, s);
        if (idx < 0) {
            arb_error_where(err, "%s:%u", fname, lineno);
            arb_near nr;
            char hint[256];
            arb_near_init(&nr, s);
            for (unsigned c = 0; c < g->ncards; c++) arb_near_add(&nr, g->card(g, c)->name);
            return arb_error_set(err, ARB_ENOTFOUND, NULL, "no %s card is named '%s'%s (see `arbiter cards --game %s`)",
                                 g->id, s, arb_near_format(&nr, hint, sizeof hint), g->id);
        }
        if (out->ncards + count > ARB_DECK_MAX) {
            arb_error_where(err, "%s:%u", fname, lineno);
            return arb_error_set(err, ARB_ELIMIT, NULL, "deck has more than %d cards", ARB_DECK_MAX);
        }
        for (long i = 0; i < count; i++) out->cards[out->ncards++] = (uint16_t)idx;
    }
    return ARB_OK;
}

int arb_deck_load(arb_deck *out, const arb_game *g, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, g);
    ARB_ASSERT_ARG(err, path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open deck file: %s", strerror(errno));
    }
    char *buf = malloc(ARB_DECK_FILE_MAX + 1);
    if (!buf) { fclose(f); return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); }
    size_t n = fread(buf, 1, ARB_DECK_FILE_MAX + 1, f);
    int rderr = ferror(f);
    fclose(f);
    int rc;
    if (rderr) {
        arb_error_where(err, "%s", path);
        rc = arb_error_set(err, ARB_EIO, NULL, "read error");
    } else {
        rc = arb_deck_parse(out, g, buf, n, path, err);
    }
    free(buf);
    return rc;
}

const arb_deck *arb_deck_preset(const arb_game *g, const char *name)
{
    for (unsigned i = 0; i < g->npresets; i++) {
        const arb_deck *d = g->preset(g, i);
        if (strcasecmp(d->name, name) == 0) return d;
    }
    return NULL;
}

int arb_deck_resolve(arb_deck *out, const arb_game *g, const char *spec, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, g);
    ARB_ASSERT_ARG(err, spec);
    const arb_deck *p = arb_deck_preset(g, spec);
    if (p) { *out = *p; return ARB_OK; }
    if (!strchr(spec, '/') && !strchr(spec, '.')) {
        FILE *f = fopen(spec, "rb");
        if (!f) {
            arb_near nr;
            char hint[256];
            arb_near_init(&nr, spec);
            for (unsigned i = 0; i < g->npresets; i++) arb_near_add(&nr, g->preset(g, i)->name);
            return arb_error_set(err, ARB_ENOTFOUND, NULL,
                                 "'%s' is neither a %s preset deck nor a file%s (presets: `arbiter deck list --game %s`)",
                                 spec, g->id, arb_near_format(&nr, hint, sizeof hint), g->id);
        }
        fclose(f);
    }
    return arb_deck_load(out, g, spec, err);
}
