/* position.c — maps a case's <position> element onto an arb_tree.
 *
 * The XML stays game-agnostic: element and attribute names are the keys of
 * the engine's state tree (conformance/<game>/STATE.md), so a case reads
 * like a Forge puzzle, zone by zone. Rules: attributes and text-only
 * elements are scalars (-12 → int, true/false → bool, null, "quoted" →
 * string, anything else → string); an element whose children are all
 * <item> is a list; other elements are maps; "[a, b, 3]" (text or
 * attribute value) is an inline list of scalars; an empty <item/> is an
 * empty map, any other empty element an empty list. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform/conform_int.h"

#define POS_DEPTH_MAX 32

static int is_int(const char *s, int64_t *v)
{
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (!isdigit((unsigned char)*p)) return 0;
    const char *d = p;
    while (isdigit((unsigned char)*p)) p++;
    if (*p) return 0;
    /* up to 19 digits and within int64 (a signed 64-bit rng word has 19
     * digits and a sign) */
    if (p - d > 19) return 0;
    errno = 0;
    *v = strtoll(s, NULL, 10);
    return errno != ERANGE;
}

static int scalar(arb_tree *t, arb_tnode *parent, const char *key, const char *s, size_t n)
{
    char buf[512];
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    int64_t v;
    if (n >= 2 && buf[0] == '"' && buf[n - 1] == '"') arb_tree_add_strn(t, parent, key, buf + 1, n - 2);
    else if (is_int(buf, &v)) arb_tree_add_int(t, parent, key, v);
    else if (strcmp(buf, "true") == 0) arb_tree_add_bool(t, parent, key, 1);
    else if (strcmp(buf, "false") == 0) arb_tree_add_bool(t, parent, key, 0);
    else if (strcmp(buf, "null") == 0) arb_tree_add_null(t, parent, key);
    else arb_tree_add_str(t, parent, key, buf);
    return ARB_OK;
}

int arb_conform__value(arb_tree *t, arb_tnode *parent, const char *key, const char *text, arb_error *err)
{
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n == 0) {
        arb_tree_add_arr(t, parent, key);
        return ARB_OK;
    }
    if (s[0] != '[') return scalar(t, parent, key, s, n);
    if (s[n - 1] != ']') return arb_error_set(err, ARB_EINVAL, NULL, "inline list '%.*s' lacks its closing ]", (int)n, s);
    arb_tnode *arr = arb_tree_add_arr(t, parent, key);
    const char *p = s + 1, *end = s + n - 1;
    while (p < end) {
        while (p < end && isspace((unsigned char)*p)) p++;
        if (p >= end) break;
        const char *q = p;
        int inq = 0;
        while (q < end && (inq || *q != ',')) {
            if (*q == '"') inq = !inq;
            q++;
        }
        const char *e = q;
        while (e > p && isspace((unsigned char)e[-1])) e--;
        if (e == p) return arb_error_set(err, ARB_EINVAL, NULL, "empty item in inline list '%.*s'", (int)n, s);
        scalar(t, arr, NULL, p, (size_t)(e - p));
        p = q < end ? q + 1 : q;
    }
    return ARB_OK;
}

static int node_value(arb_tree *t, arb_tnode *parent, const char *key, const xmlNode *n, int depth,
                      arb_error *err);

static int fill_map(arb_tree *t, arb_tnode *map, const xmlNode *n, int depth, arb_error *err)
{
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
        const char *txt = v ? (const char *)v : "";
        int rc = txt[0] == '[' ? arb_conform__value(t, map, (const char *)a->name, txt, err)
                               : scalar(t, map, (const char *)a->name, txt, strlen(txt));
        xmlFree(v);
        if (rc) return rc;
    }
    for (const xmlNode *k = n->children; k; k = k->next) {
        if (k->type == XML_TEXT_NODE) {
            for (const xmlChar *c = k->content; c && *c; c++)
                if (!isspace(*c)) {
                    arb_error_where(err, "line %ld", xmlGetLineNo((xmlNodePtr)k));
                    return arb_error_set(err, ARB_EINVAL, NULL, "<%s> mixes text with fields", (const char *)n->name);
                }
            continue;
        }
        if (k->type != XML_ELEMENT_NODE) continue;
        if (strcmp((const char *)k->name, "item") == 0) {
            arb_error_where(err, "line %ld", xmlGetLineNo((xmlNodePtr)k));
            return arb_error_set(err, ARB_EINVAL, NULL, "<item> inside <%s>, which also has named fields", (const char *)n->name);
        }
        int rc = node_value(t, map, (const char *)k->name, k, depth + 1, err);
        if (rc) return rc;
    }
    return ARB_OK;
}

static int node_value(arb_tree *t, arb_tnode *parent, const char *key, const xmlNode *n, int depth,
                      arb_error *err)
{
    if (depth > POS_DEPTH_MAX) {
        arb_error_where(err, "line %ld", xmlGetLineNo((xmlNodePtr)n));
        return arb_error_set(err, ARB_ELIMIT, NULL, "position nested deeper than %d", POS_DEPTH_MAX);
    }
    int elems = 0, items = 0;
    for (const xmlNode *k = n->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE) {
            elems++;
            items += strcmp((const char *)k->name, "item") == 0;
        }
    if (elems && items == elems && !n->properties) {
        arb_tnode *arr = arb_tree_add_arr(t, parent, key);
        for (const xmlNode *k = n->children; k; k = k->next) {
            if (k->type != XML_ELEMENT_NODE) continue;
            int rc = node_value(t, arr, NULL, k, depth + 1, err);
            if (rc) return rc;
        }
        return ARB_OK;
    }
    if (elems || n->properties) return fill_map(t, arb_tree_add_map(t, parent, key), n, depth, err);
    /* An empty <item/> is an empty map (a player with every default). */
    if (!n->children && strcmp((const char *)n->name, "item") == 0) {
        arb_tree_add_map(t, parent, key);
        return ARB_OK;
    }
    char *text = arb_conform__text(n);
    if (!text) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    int rc = arb_conform__value(t, parent, key, text, err);
    free(text);
    if (rc) arb_error_where(err, "line %ld", xmlGetLineNo((xmlNodePtr)n));
    return rc;
}

int arb_conform__position(arb_tree *t, arb_tnode *parent, const xmlNode *pos, arb_error *err)
{
    int rc = fill_map(t, parent, pos, 0, err);
    if (!rc && arb_tree_failed(t)) rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory building a position");
    return rc;
}
