/* json_tree.h — a small strict JSON parser for tests: parses a document
 * into an arb_tree so tests can check fields of `--json` output with
 * arb_tnode_path and compare them with engine exports (arb_tnode_equal).
 * Numbers with a fraction or exponent become strings holding the literal
 * (tests read them with atof); everything else maps one to one. */
#ifndef ARBITER_TESTS_JSON_TREE_H
#define ARBITER_TESTS_JSON_TREE_H

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/tree.h"

typedef struct jparse {
    const char *p, *end;
    arb_tree *t;
    int depth;
    const char *error;
} jparse;

static void jp_ws(jparse *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')) j->p++;
}

static char *jp_string(jparse *j)
{
    if (j->p >= j->end || *j->p != '"') { j->error = "string expected"; return NULL; }
    j->p++;
    size_t cap = 64, n = 0;
    char *s = malloc(cap);
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if ((unsigned char)c < 0x20) { j->error = "control character in string"; free(s); return NULL; }
        if (c == '\\') {
            if (j->p >= j->end) break;
            char e = *j->p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case '/': case '\\': case '"': c = e; break;
            case 'u': {
                if (j->end - j->p < 4) { j->error = "bad \\u"; free(s); return NULL; }
                char hex[5] = { j->p[0], j->p[1], j->p[2], j->p[3], 0 };
                long v = strtol(hex, NULL, 16);
                j->p += 4;
                c = v < 0x80 ? (char)v : '?';
                break;
            }
            default: j->error = "bad escape"; free(s); return NULL;
            }
        }
        if (n + 2 > cap) s = realloc(s, cap *= 2);
        s[n++] = c;
    }
    if (j->p >= j->end) { j->error = "unterminated string"; free(s); return NULL; }
    j->p++;
    s[n] = '\0';
    return s;
}

static int jp_value(jparse *j, arb_tnode *parent, const char *key)
{
    jp_ws(j);
    if (j->p >= j->end) { j->error = "value expected"; return -1; }
    if (++j->depth > 64) { j->error = "too deep"; return -1; }
    int rc = 0;
    char c = *j->p;
    if (c == '{') {
        arb_tnode *m = arb_tree_add_map(j->t, parent, key);
        j->p++;
        jp_ws(j);
        if (j->p < j->end && *j->p == '}') j->p++;
        else for (;;) {
            jp_ws(j);
            char *k = jp_string(j);
            if (!k) return -1;
            jp_ws(j);
            if (j->p >= j->end || *j->p != ':') { free(k); j->error = "':' expected"; return -1; }
            j->p++;
            rc = jp_value(j, m, k);
            free(k);
            if (rc) return rc;
            jp_ws(j);
            if (j->p < j->end && *j->p == ',') { j->p++; continue; }
            if (j->p < j->end && *j->p == '}') { j->p++; break; }
            j->error = "',' or '}' expected";
            return -1;
        }
    } else if (c == '[') {
        arb_tnode *a = arb_tree_add_arr(j->t, parent, key);
        j->p++;
        jp_ws(j);
        if (j->p < j->end && *j->p == ']') j->p++;
        else for (;;) {
            if ((rc = jp_value(j, a, NULL))) return rc;
            jp_ws(j);
            if (j->p < j->end && *j->p == ',') { j->p++; continue; }
            if (j->p < j->end && *j->p == ']') { j->p++; break; }
            j->error = "',' or ']' expected";
            return -1;
        }
    } else if (c == '"') {
        char *s = jp_string(j);
        if (!s) return -1;
        arb_tree_add_str(j->t, parent, key, s);
        free(s);
    } else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
        int v = *j->p == 't';
        arb_tree_add_bool(j->t, parent, key, v);
        j->p += v ? 4 : 5;
    } else if (!strncmp(j->p, "null", 4)) {
        arb_tree_add_null(j->t, parent, key);
        j->p += 4;
    } else if (c == '-' || isdigit((unsigned char)c)) {
        const char *s = j->p;
        if (*j->p == '-') j->p++;
        while (j->p < j->end && isdigit((unsigned char)*j->p)) j->p++;
        int frac = 0;
        while (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E' || *j->p == '+' || *j->p == '-' ||
                                 isdigit((unsigned char)*j->p))) { frac = 1; j->p++; }
        if (frac) arb_tree_add_strn(j->t, parent, key, s, (size_t)(j->p - s));
        else arb_tree_add_int(j->t, parent, key, strtoll(s, NULL, 10));
    } else {
        j->error = "unexpected character";
        return -1;
    }
    j->depth--;
    return 0;
}

/* Parse text (len bytes) into a new tree whose root holds the document
 * under key "doc". NULL on a syntax error (*error set). */
static inline arb_tree *json_parse(const char *text, size_t len, const char **error)
{
    jparse j = { text, text + len, arb_tree_new(), 0, NULL };
    if (!j.t) return NULL;
    if (jp_value(&j, arb_tree_root(j.t), "doc") == 0) {
        jp_ws(&j);
        if (j.p != j.end) j.error = "trailing characters";
    }
    if (j.error) {
        if (error) *error = j.error;
        arb_tree_free(j.t);
        return NULL;
    }
    return j.t;
}

static inline const arb_tnode *json_doc(arb_tree *t) { return arb_tnode_get(arb_tree_root(t), "doc"); }

#endif
