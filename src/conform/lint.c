/* lint.c — cross-file checks of a loaded suite, beyond what the XSD can
 * say: case IDs unique per game, every rule ID a case covers or expects
 * exists in that game's catalog (and is not informational), cases covering
 * an R* entry cite one of its gaps, a file's game matches its directory, and
 * — when the game's engine is built in — action texts parse and event
 * names, decision kinds and outcome reasons are the engine's own (the
 * test262 linter's job: reject unknown references before anything runs). */
#include <stdlib.h>
#include <string.h>

#include "conform/conform_int.h"
#include "arbiter/toolkit.h"

static const cf_entry *find_entry(const arb_conform_suite *s, const char *game, const char *id)
{
    for (unsigned i = 0; i < s->nentries; i++) {
        const cf_entry *e = &s->entries[i];
        if (e->id && strcmp(e->id, id) == 0 && strcmp(s->files[e->file].game, game) == 0) return e;
    }
    return NULL;
}

/* Whether case c's gaps="G06 …" names one of entry e's gaps ("NAR-G06 …"). */
static int cites_gap(const cf_case *c, const cf_entry *e)
{
    if (!c->gaps || !e->gaps) return 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", c->gaps);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
        size_t l = strlen(tok);
        for (const char *p = strstr(e->gaps, tok); p; p = strstr(p + 1, tok))
            if (p > e->gaps && p[-1] == '-' && (p[l] == '\0' || p[l] == ' ')) return 1;
    }
    return 0;
}

static int has_catalog(const arb_conform_suite *s, const char *game)
{
    for (unsigned i = 0; i < s->nfiles; i++)
        if (s->files[i].kind == CF_RULES && strcmp(s->files[i].game, game) == 0) return 1;
    return 0;
}

/* Rule IDs referenced anywhere under n (reject/illegal/warning rule="…"). */
static unsigned lint_refs(arb_conform_suite *s, const cf_file *f, const xmlNode *n)
{
    unsigned bad = 0;
    for (const xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE) continue;
        char rule[64];
        if (arb_conform__attr(k, "rule", rule, sizeof rule) && rule[0] && !find_entry(s, f->game, rule)) {
            arb_conform__diag(s, f->path, (int)xmlGetLineNo((xmlNodePtr)k),
                              "rule ID %s is not in the %s catalog", rule, f->game);
            bad++;
        }
        bad += lint_refs(s, f, k);
    }
    return bad;
}

static int name_in(const char *const *names, unsigned n, const char *v)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(names[i], v) == 0) return 1;
    return 0;
}

/* The engine's own vocabulary: action text parses, event names, decision
 * kinds and outcome reasons exist. Only for games with an engine. */
static void lint_vocab(arb_conform_suite *s, const cf_file *f, const arb_game *g, const xmlNode *n)
{
    for (const xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE) continue;
        if (arb_conform__is(k, "position")) continue;
        char v[256];
        int line = (int)xmlGetLineNo((xmlNodePtr)k);
        if (xmlHasProp((xmlNodePtr)k, (const xmlChar *)"do")) {
            arb_action a;
            arb_error err = ARB_ERROR_INIT;
            if (arb_conform__action(g, k, v, sizeof v, &a, &err))
                arb_conform__diag(s, f->path, line, "'%s': %s", v, err.msg);
        }
        if (arb_conform__is(k, "event") && arb_conform__attr(k, "name", v, sizeof v) &&
            arb_game_event_find(g, v) < 0)
            arb_conform__diag(s, f->path, line, "the %s engine has no event named '%s'", g->id, v);
        if (arb_conform__is(k, "decision") && arb_conform__attr(k, "kind", v, sizeof v) &&
            !name_in(g->decision_names, g->ndecision_names, v))
            arb_conform__diag(s, f->path, line, "the %s engine has no decision kind '%s'", g->id, v);
        if (arb_conform__is(k, "outcome") && arb_conform__attr(k, "reason", v, sizeof v) &&
            arb_game_reason_find(g, v) < 0)
            arb_conform__diag(s, f->path, line, "the %s engine has no outcome reason '%s'", g->id, v);
        lint_vocab(s, f, g, k);
    }
}

unsigned arb_conform_lint(arb_conform_suite *s)
{
    unsigned before = s->ndiags;
    for (unsigned i = 0; i < s->nfiles; i++) {
        const cf_file *f = &s->files[i];
        if (f->kind == CF_RULES || f->kind == CF_SET || f->kind == CF_VIEWS) {
            /* conformance/<game>/x.xml must say game="<game>". */
            const char *slash = strrchr(f->path, '/');
            if (slash && f->game) {
                const char *start = slash;
                while (start > f->path && start[-1] != '/') start--;
                size_t dl = (size_t)(slash - start);
                char dir[64];
                snprintf(dir, sizeof dir, "%.*s", (int)(dl < 63 ? dl : 63), start);
                if (dl && strcmp(dir, f->game) != 0 && has_catalog(s, dir))
                    arb_conform__diag(s, f->path, 1, "game=\"%s\" but the file is in directory '%.*s'",
                                      f->game, (int)dl, start);
            }
        }
        if (f->kind == CF_RULES) {
            for (unsigned a = 0; a < s->nentries; a++) {
                if (s->entries[a].file != i) continue;
                for (unsigned b = 0; b < a; b++)
                    if (strcmp(s->entries[a].id, s->entries[b].id) == 0)
                        arb_conform__diag(s, f->path, s->entries[a].line, "entry ID %s is not unique (also line %d)",
                                          s->entries[a].id, s->entries[b].line);
            }
        }
        if (f->kind == CF_VIEWS && has_catalog(s, f->game)) lint_refs(s, f, xmlDocGetRootElement(f->doc));
        if (f->kind == CF_SET) {
            if (!has_catalog(s, f->game)) {
                arb_conform__diag(s, f->path, 1, "no rule catalog (rules.xml) loaded for game %s", f->game);
                continue;
            }
            lint_refs(s, f, xmlDocGetRootElement(f->doc));
            const arb_game *g = arb_conform__game(s, f->game);
            if (g) lint_vocab(s, f, g, xmlDocGetRootElement(f->doc));
        }
    }
    for (unsigned i = 0; i < s->ncases; i++) {
        const cf_case *c = &s->cases[i];
        const cf_file *f = &s->files[c->file];
        for (unsigned j = 0; j < i; j++) {
            const cf_case *d = &s->cases[j];
            if (strcmp(d->id, c->id) == 0 && strcmp(s->files[d->file].game, f->game) == 0) {
                arb_conform__diag(s, f->path, c->line, "case ID %s is not unique (also %s:%d)", c->id,
                                  s->files[d->file].path, d->line);
                break;
            }
        }
        if (!has_catalog(s, f->game)) continue;
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", c->covers ? c->covers : "");
        char *save = NULL;
        for (char *tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
            const cf_entry *e = find_entry(s, f->game, tok);
            if (!e) {
                arb_conform__diag(s, f->path, c->line, "case %s covers %s, which is not in the %s catalog",
                                  c->id, tok, f->game);
            } else if (e->kind && strcmp(e->kind, "informational") == 0) {
                arb_conform__diag(s, f->path, c->line, "case %s covers %s, an informational entry (no test)",
                                  c->id, tok);
            } else if (e->kind && (strcmp(e->kind, "rule-needing-interpretation") == 0 ||
                                   (strcmp(e->kind, "interpretation") == 0 && e->gaps)) && !cites_gap(c, e)) {
                /* The catalog: R* tests carry the gap ID, so they can be
                 * revised when the interpretation changes; so do tests of
                 * an interpretation-born rule that has a gap. */
                arb_conform__diag(s, f->path, c->line, "case %s covers %s (%s) but cites none of its gaps (%s) in gaps=\"…\"",
                                  c->id, tok, strcmp(e->kind, "interpretation") == 0 ? "interpretation" : "R*",
                                  e->gaps ? e->gaps : "none listed");
            }
        }
        if (c->gaps) {
            snprintf(buf, sizeof buf, "%s", c->gaps);
            for (char *tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
                int found = 0;
                for (unsigned k = 0; k < s->nentries && !found; k++) {
                    const cf_entry *e = &s->entries[k];
                    if (strcmp(s->files[e->file].game, f->game) == 0 && e->gaps) {
                        const char *p = strstr(e->gaps, tok);
                        found = p && p > e->gaps && p[-1] == '-';
                    }
                }
                if (!found)
                    arb_conform__diag(s, f->path, c->line, "case %s cites gap %s, which no %s entry uses",
                                      c->id, tok, f->game);
            }
        }
    }
    for (unsigned i = 0; i < s->nexpects; i++) {
        const cf_expect *x = &s->expects[i];
        if (x->what != 2) continue;
        int found = 0;
        for (unsigned k = 0; k < s->nentries && !found; k++) found = strcmp(s->entries[k].id, x->pattern) == 0;
        if (!found) arb_conform__diag(s, "expectations.xml", x->line, "uncovered rule %s is in no catalog", x->pattern);
    }
    return s->ndiags - before;
}
