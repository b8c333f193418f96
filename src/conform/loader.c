/* loader.c — finds and loads the conformance XML files, safely.
 *
 * XML here is hostile input like any other: files are read with a size
 * bound, a DOCTYPE (and with it every entity and external reference) is
 * refused before libxml2 sees the bytes, and libxml2 parses with
 * XML_PARSE_NONET and never NOENT/DTDLOAD. Each file is validated against
 * the XSDs of conformance/schema (read into memory, bounded) and every
 * parser or schema error becomes a diagnostic "file:line: message". The
 * suite keeps the documents; the runner reads cases from them; lint.c
 * checks them across files. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include "conform/conform_int.h"

#define GROW(arr, n, cap)                                                      \
    ((n) < (cap) ? 0 : grow_((void **)&(arr), &(cap), sizeof *(arr)))

static int grow_(void **arr, unsigned *cap, size_t elem)
{
    unsigned nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p) return -1;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *arr = p;
    *cap = nc;
    return 0;
}

void arb_conform__diag(arb_conform_suite *s, const char *file, int line, const char *fmt, ...)
{
    if (s->ndiags >= CF_DIAGS_MAX || GROW(s->diags, s->ndiags, s->capdiags)) return;
    arb_conform_diag *d = &s->diags[s->ndiags++];
    if (line > 0) snprintf(d->where, sizeof d->where, "%s:%d", file ? file : "?", line);
    else snprintf(d->where, sizeof d->where, "%s", file ? file : "?");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    arb_conform__utf8_cut(d->msg);
    arb_conform__utf8_cut(d->where);
    d->line = line > 0 ? line : 0;
    size_t n = strlen(d->msg);
    while (n && (d->msg[n - 1] == '\n' || d->msg[n - 1] == ' ')) d->msg[--n] = '\0';
}

void arb_conform__utf8_cut(char *s)
{
    size_t n = strlen(s), i = n, cont = 0;
    while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80 && cont < 4) { i--; cont++; }
    if (i == 0) return;
    unsigned char lead = (unsigned char)s[i - 1];
    size_t want = lead < 0x80 ? 0 : (lead & 0xE0) == 0xC0 ? 1 : (lead & 0xF0) == 0xE0 ? 2
                : (lead & 0xF8) == 0xF0 ? 3 : 0;
    if (lead >= 0x80 && cont < want) s[i - 1] = '\0';
}

char *arb_conform__strdup(arb_conform_suite *s, const char *str)
{
    if (!str) return NULL;
    if (GROW(s->strs, s->nstrs, s->capstrs)) return NULL;
    char *p = strdup(str);
    if (p) s->strs[s->nstrs++] = p;
    return p;
}

int arb_conform__attr(const xmlNode *n, const char *name, char *buf, size_t size)
{
    if (size) buf[0] = '\0';
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v) return 0;
    if ((size_t)snprintf(buf, size, "%s", (const char *)v) >= size && size) arb_conform__utf8_cut(buf);
    xmlFree(v);
    return 1;
}

int arb_conform__action(const arb_game *g, const xmlNode *n, char *text, size_t size, arb_action *a,
                        arb_error *err)
{
    char v[8];
    arb_conform__attr(n, "do", text, size);
    int malformed = arb_conform__attr(n, "malformed", v, sizeof v) && (!strcmp(v, "true") || !strcmp(v, "1"));
    return malformed ? arb_action_parse_malformed(g, text, a, err) : arb_action_parse(g, text, a, err);
}

int arb_conform__is(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

const arb_game *arb_conform__game(const arb_conform_suite *s, const char *id)
{
    if (!id) return NULL;
    if (s->opt.games) {
        for (const arb_game *const *g = s->opt.games; *g; g++)
            if (strcmp((*g)->id, id) == 0) return *g;
        return NULL;
    }
    return arb_game_find(id);
}

char *arb_conform__text(const xmlNode *n)
{
    xmlChar *v = xmlNodeGetContent(n);
    if (!v) return strdup("");
    char *out = strdup((const char *)v);
    xmlFree(v);
    return out;
}

/* ------------------------------------------------------------ reading */

static int read_bounded(const char *path, size_t max, char **out, size_t *len, arb_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
    }
    char *buf = malloc(max + 1);
    if (!buf) {
        fclose(f);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading %s", path);
    }
    size_t n = fread(buf, 1, max + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "read error");
    }
    if (n > max) {
        free(buf);
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_ELIMIT, NULL, "file is larger than %zu bytes", max);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return ARB_OK;
}

/* A DOCTYPE is the only door to entities and external references; refuse it
 * (and any stray ENTITY declaration) on the raw bytes, naming the line. */
static int forbidden_markup(const char *buf, size_t len, int *line, const char **what)
{
    static const char *const bad[] = { "<!DOCTYPE", "<!ENTITY", "<!ELEMENT", "<!ATTLIST" };
    int ln = 1;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n') ln++;
        if (buf[i] != '<' || i + 2 >= len || buf[i + 1] != '!') continue;
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            size_t bl = strlen(bad[k]);
            if (len - i >= bl && strncasecmp(buf + i, bad[k], bl) == 0) {
                *line = ln;
                *what = bad[k] + 2;
                return 1;
            }
        }
    }
    return 0;
}

typedef struct errctx {
    arb_conform_suite *s;
    const char *path;
    unsigned n;
} errctx;

static void xml_error(void *ctx, xmlErrorPtr e)
{
    errctx *ec = ctx;
    if (!e || ec->n++ >= 20) return;
    arb_conform__diag(ec->s, e->file ? e->file : ec->path, e->line, "%s", e->message ? e->message : "XML error");
}

static xmlSchemaPtr load_schema(arb_conform_suite *s, const char *dir, const char *name,
                                arb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *buf;
    size_t len;
    if (read_bounded(path, CF_XSD_MAX, &buf, &len, err)) return NULL;
    errctx ec = { s, path, 0 };
    xmlSetStructuredErrorFunc(&ec, xml_error);
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(buf, (int)len);
    xmlSchemaPtr schema = NULL;
    if (pc) {
        xmlSchemaSetParserStructuredErrors(pc, xml_error, &ec);
        schema = xmlSchemaParse(pc);
        xmlSchemaFreeParserCtxt(pc);
    }
    xmlSetStructuredErrorFunc(NULL, NULL);
    free(buf);
    if (!schema) {
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EFORMAT, NULL, "schema does not compile");
    }
    return schema;
}

/* ------------------------------------------------------------ files */

static int add_path(arb_conform_suite *s, const char *path, int depth, arb_error *err);

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(arb_conform_suite *s, const char *path, int depth, arb_error *err)
{
    if (depth > CF_DEPTH_MAX) {
        /* Reported, never silent: a file problem naming the directory. */
        arb_conform__diag(s, path, 0, "directory nested deeper than %d levels below the suite path: not searched",
                          CF_DEPTH_MAX);
        return ARB_OK;
    }
    DIR *d = opendir(path);
    if (!d) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open directory: %s", strerror(errno));
    }
    char **names = NULL;
    unsigned n = 0, cap = 0;
    int rc = ARB_OK;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        if (GROW(names, n, cap)) { rc = ARB_ENOMEM; break; }
        size_t need = strlen(path) + strlen(de->d_name) + 2;
        names[n] = malloc(need);
        if (!names[n]) { rc = ARB_ENOMEM; break; }
        snprintf(names[n], need, "%s/%s", path, de->d_name);
        n++;
    }
    closedir(d);
    if (!rc) qsort(names, n, sizeof *names, cmpstr);
    for (unsigned i = 0; i < n; i++) {
        if (!rc) rc = add_path(s, names[i], depth + 1, err);
        free(names[i]);
    }
    free(names);
    if (rc == ARB_ENOMEM) arb_error_set(err, ARB_ENOMEM, NULL, "out of memory listing %s", path);
    return rc;
}

static int add_path(arb_conform_suite *s, const char *path, int depth, arb_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) return add_dir(s, path, depth, err);
    if (depth == 0) s->partial = 1;
    if (depth > 0) {
        size_t l = strlen(path);
        if (l < 4 || strcmp(path + l - 4, ".xml") != 0) return ARB_OK;
    }
    /* A FIFO, device or socket is never opened (a FIFO would block): named
     * on the command line it is an error, met in a directory a noted skip. */
    if (!S_ISREG(st.st_mode)) {
        if (depth > 0) {
            arb_conform__diag(s, path, 0, "not a regular file (FIFO, device or socket): skipped");
            return ARB_OK;
        }
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "not a regular file (FIFO, device or socket): not opened");
    }
    if (s->nfiles >= CF_FILES_MAX) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_ELIMIT, NULL, "more than %d files", CF_FILES_MAX);
    }
    if (GROW(s->files, s->nfiles, s->capfiles)) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    s->files[s->nfiles].path = arb_conform__strdup(s, path);
    if (!s->files[s->nfiles].path) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    s->nfiles++;
    return ARB_OK;
}

/* The directory holding schema/: the given path or one of its parents. */
static char *find_root(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (int up = 0; up < 8; up++) {
        struct stat st;
        char probe[4200];
        int isdir = stat(buf, &st) == 0 && S_ISDIR(st.st_mode);
        if (isdir) {
            snprintf(probe, sizeof probe, "%s/schema/conformance.xsd", buf);
            if (stat(probe, &st) == 0) return strdup(buf);
        }
        char *slash = strrchr(buf, '/');
        if (!slash) {
            if (strcmp(buf, ".") == 0) break;
            snprintf(buf, sizeof buf, ".");
        } else if (slash == buf) {
            buf[1] = '\0';
        } else {
            *slash = '\0';
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ contents */

static char *prop(arb_conform_suite *s, const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v) return NULL;
    char *r = arb_conform__strdup(s, (const char *)v);
    xmlFree(v);
    return r;
}

static int glob_ok(const char *pattern, const char *s)
{
    return !pattern || !*pattern || fnmatch(pattern, s, 0) == 0;
}

static int covers_rule(const char *covers, const char *rule)
{
    size_t rl = strlen(rule);
    for (const char *p = covers; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        const char *e = p;
        while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
        if ((size_t)(e - p) == rl && strncmp(p, rule, rl) == 0) return 1;
        p = e;
    }
    return 0;
}

static void load_rules(arb_conform_suite *s, unsigned fi, xmlNodePtr root)
{
    unsigned n_entries = 0, n_kind[4] = { 0, 0, 0, 0 };
    long want[5] = { -1, -1, -1, -1, 0 }; /* interpretation="…" is optional */
    int counts_line = 0;
    static const char *const kinds[4] = { "rule", "rule-needing-interpretation", "informational", "interpretation" };
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (arb_conform__is(n, "counts")) {
            char v[32];
            counts_line = (int)xmlGetLineNo(n);
            if (arb_conform__attr(n, "entries", v, sizeof v)) want[0] = atol(v);
            for (int k = 0; k < 4; k++)
                if (arb_conform__attr(n, kinds[k], v, sizeof v)) want[k + 1] = atol(v);
        }
        if (!arb_conform__is(n, "entry")) continue;
        n_entries++;
        char kv[64];
        arb_conform__attr(n, "kind", kv, sizeof kv);
        for (int k = 0; k < 4; k++) n_kind[k] += strcmp(kv, kinds[k]) == 0;
        if (GROW(s->entries, s->nentries, s->capentries)) return;
        cf_entry *e = &s->entries[s->nentries++];
        e->file = fi;
        e->id = prop(s, n, "id");
        e->kind = prop(s, n, "kind");
        e->gaps = prop(s, n, "gaps");
        e->line = (int)xmlGetLineNo(n);
    }
    /* The generator's <counts> guard against a truncated or hand-edited catalog. */
    if (want[0] >= 0 && (want[0] != (long)n_entries || want[1] != (long)n_kind[0] || want[2] != (long)n_kind[1] ||
                         want[3] != (long)n_kind[2] || want[4] != (long)n_kind[3]))
        arb_conform__diag(s, s->files[fi].path, counts_line,
                          "<counts> says %ld entries (R %ld, R* %ld, I %ld, interpretation %ld), the file has %u "
                          "(R %u, R* %u, I %u, interpretation %u)",
                          want[0], want[1], want[2], want[3], want[4], n_entries, n_kind[0], n_kind[1], n_kind[2],
                          n_kind[3]);
}

static void load_set(arb_conform_suite *s, unsigned fi, xmlNodePtr root)
{
    cf_file *f = &s->files[fi];
    for (xmlNodePtr n = root->children; n; n = n->next) {
        int deck = arb_conform__is(n, "deck-case");
        if (!deck && !arb_conform__is(n, "test-case")) continue;
        if (s->ncases >= CF_CASES_MAX) {
            arb_conform__diag(s, f->path, (int)xmlGetLineNo(n), "more than %d cases", CF_CASES_MAX);
            return;
        }
        if (GROW(s->cases, s->ncases, s->capcases)) return;
        cf_case *c = &s->cases[s->ncases++];
        c->file = fi;
        c->node = n;
        c->deck = deck;
        c->id = prop(s, n, "id");
        c->covers = prop(s, n, "covers");
        c->gaps = prop(s, n, "gaps");
        c->line = (int)xmlGetLineNo(n);
        const arb_conform_options *o = &s->opt;
        c->selected = c->id && c->covers && (!o->game || strcmp(o->game, f->game) == 0) &&
                      glob_ok(o->set, f->name) && glob_ok(o->case_glob, c->id) &&
                      (!o->rule || covers_rule(c->covers, o->rule));
    }
}

static void load_views(arb_conform_suite *s, unsigned fi, xmlNodePtr root)
{
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (!arb_conform__is(n, "hidden")) continue;
        if (GROW(s->hidden, s->nhidden, s->caphidden)) return;
        cf_hidden *h = &s->hidden[s->nhidden++];
        char from[16];
        h->game = s->files[fi].game;
        arb_conform__attr(n, "zone", h->zone, sizeof h->zone);
        arb_conform__attr(n, "when", h->when, sizeof h->when);
        arb_conform__attr(n, "from", from, sizeof from);
        h->from_all = strcmp(from, "all") == 0;
        h->line = (int)xmlGetLineNo(n);
    }
}

/* Parse, validate and index one document held in memory (buf: len bytes,
 * NUL-terminated); the suite keeps the document. */
static void load_buffer(arb_conform_suite *s, unsigned fi, char *buf, size_t len, xmlSchemaPtr cases_xsd,
                        xmlSchemaPtr rules_xsd)
{
    cf_file *f = &s->files[fi];
    int line;
    const char *what;
    if (forbidden_markup(buf, len, &line, &what)) {
        arb_conform__diag(s, f->path, line, "%s declarations are not allowed (no DTD, entities or external references)", what);
        free(buf);
        return;
    }
    errctx ec = { s, f->path, 0 };
    xmlSetStructuredErrorFunc(&ec, xml_error);
    /* NONET: never fetch; no NOENT, DTDLOAD, DTDATTR or XINCLUDE. */
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, f->path, NULL, XML_PARSE_NONET | XML_PARSE_NOCDATA);
    free(buf);
    if (!doc) {
        xmlSetStructuredErrorFunc(NULL, NULL);
        if (!ec.n) arb_conform__diag(s, f->path, 0, "not well-formed XML");
        return;
    }
    if (doc->intSubset || doc->extSubset) {
        xmlSetStructuredErrorFunc(NULL, NULL);
        arb_conform__diag(s, f->path, 1, "DOCTYPE is not allowed");
        xmlFreeDoc(doc);
        return;
    }
    xmlNodePtr root = xmlDocGetRootElement(doc);
    int kind = 0;
    if (root && root->ns && strcmp((const char *)root->ns->href, CF_NS) == 0) {
        if (arb_conform__is(root, "rules")) kind = CF_RULES;
        else if (arb_conform__is(root, "test-set")) kind = CF_SET;
        else if (arb_conform__is(root, "expectations")) kind = CF_EXPECT;
        else if (arb_conform__is(root, "views")) kind = CF_VIEWS;
    }
    if (!kind) {
        xmlSetStructuredErrorFunc(NULL, NULL);
        arb_conform__diag(s, f->path, root ? (int)xmlGetLineNo(root) : 1,
                          "root element must be <rules>, <test-set>, <views> or <expectations> in namespace %s", CF_NS);
        xmlFreeDoc(doc);
        return;
    }
    xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(kind == CF_RULES ? rules_xsd : cases_xsd);
    int valid = -1;
    if (vc) {
        xmlSchemaSetValidStructuredErrors(vc, xml_error, &ec);
        valid = xmlSchemaValidateDoc(vc, doc);
        xmlSchemaFreeValidCtxt(vc);
    }
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (valid != 0) {
        if (!ec.n) arb_conform__diag(s, f->path, 0, "does not validate against the schema");
        xmlFreeDoc(doc);
        return;
    }
    f->doc = doc;
    f->kind = kind;
    f->game = prop(s, root, "game");
    f->name = prop(s, root, "name");
    if (kind == CF_RULES) load_rules(s, fi, root);
    else if (kind == CF_SET) load_set(s, fi, root);
    else if (kind == CF_VIEWS) load_views(s, fi, root);
    else arb_conform__expectations_load(s, fi);
}

static void load_file(arb_conform_suite *s, unsigned fi, xmlSchemaPtr cases_xsd, xmlSchemaPtr rules_xsd)
{
    cf_file *f = &s->files[fi];
    char *buf;
    size_t len;
    arb_error err = ARB_ERROR_INIT;
    if (read_bounded(f->path, CF_FILE_MAX, &buf, &len, &err)) {
        arb_conform__diag(s, f->path, 0, "%s", err.msg);
        return;
    }
    load_buffer(s, fi, buf, len, cases_xsd, rules_xsd);
}

/* No path given and no suite in any default place: say where it looked. */
static int no_default_suite(arb_error *err)
{
    const char *p[8];
    unsigned n = arb_conform_search_places(p, 8);
    char list[ARB_MSG_MAX] = "";
    size_t len = 0;
    for (unsigned i = 0; i < n && i < 8 && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", p[i]);
    return arb_error_set(err, ARB_EIO, NULL,
                         "no conformance suite found (set ARBITER_CONFORMANCE=DIR or give a PATH); "
                         "ARBITER_CONFORMANCE is unset and none of these holds schema/conformance.xsd: %s",
                         list);
}

int arb_conform_load(arb_conform_suite **out, const char *const *paths, size_t npaths,
                     const arb_conform_options *opt, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    const char *dflt[1] = { NULL };
    arb_conform_options o = ARB_CONFORM_OPTIONS_INIT;
    *out = NULL;
    if ((!paths || !npaths) && !(dflt[0] = arb_conform_default_dir())) return no_default_suite(err);
    arb_conform_suite *s = calloc(1, sizeof *s);
    if (!s) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    s->opt = opt ? *opt : o;
    if (!paths || !npaths) { paths = dflt; npaths = 1; }
    int rc = ARB_OK;
    for (size_t i = 0; i < npaths && !rc; i++) rc = add_path(s, paths[i], 0, err);
    if (rc) goto fail;

    /* The suite root (the directory holding schema/) comes from the paths;
     * it also locates the default expectations file. */
    for (size_t i = 0; i < npaths && !s->root; i++) s->root = find_root(paths[i]);
    const char *schema_dir = s->opt.schema_dir;
    char sd[4200];
    if (!schema_dir) {
        if (!s->root) {
            arb_error_where(err, "%s", paths[0]);
            rc = arb_error_set(err, ARB_ENOTFOUND, NULL,
                               "no schema/conformance.xsd in this directory or its parents (use --schema DIR)");
            goto fail;
        }
        snprintf(sd, sizeof sd, "%s/schema", s->root);
        schema_dir = sd;
    }
    xmlSchemaPtr cx = load_schema(s, schema_dir, "conformance.xsd", err);
    if (!cx) { rc = err->code ? err->code : ARB_EFORMAT; goto fail; }
    xmlSchemaPtr rx = load_schema(s, schema_dir, "rules.xsd", err);
    if (!rx) { xmlSchemaFree(cx); rc = err->code ? err->code : ARB_EFORMAT; goto fail; }

    /* The default expectations file, when not among the paths already. */
    if (!s->opt.expectations && s->root) {
        char ep[4200];
        struct stat st;
        snprintf(ep, sizeof ep, "%s/expectations.xml", s->root);
        int seen = 0;
        for (unsigned i = 0; i < s->nfiles; i++)
            if (strstr(s->files[i].path, "expectations.xml")) seen = 1;
        if (!seen && stat(ep, &st) == 0 && add_path(s, ep, 1, err)) {
            xmlSchemaFree(cx);
            xmlSchemaFree(rx);
            rc = err->code;
            goto fail;
        }
    } else if (s->opt.expectations) {
        if ((rc = add_path(s, s->opt.expectations, 1, err))) { xmlSchemaFree(cx); xmlSchemaFree(rx); goto fail; }
    }
    for (unsigned i = 0; i < s->nfiles; i++) load_file(s, i, cx, rx);
    /* A run over single files still needs each game's catalog. */
    for (unsigned i = 0, n = s->nfiles; i < n && s->root; i++) {
        const cf_file *f = &s->files[i];
        if (f->kind != CF_SET || !f->game) continue;
        int have = 0;
        for (unsigned k = 0; k < s->nfiles && !have; k++)
            have = s->files[k].game && s->files[k].kind == CF_RULES && strcmp(s->files[k].game, f->game) == 0;
        char rp[4200];
        struct stat st;
        snprintf(rp, sizeof rp, "%s/%s/rules.xml", s->root, f->game);
        if (have || stat(rp, &st) != 0) continue;
        unsigned before = s->nfiles;
        if (add_path(s, rp, 1, err) == ARB_OK && s->nfiles > before) load_file(s, before, cx, rx);
    }
    xmlSchemaFree(cx);
    xmlSchemaFree(rx);
    *out = s;
    return ARB_OK;
fail:
    arb_conform_free(s);
    return rc;
}

int arb_conform_load_mem(arb_conform_suite **out, const char *name, const void *data, size_t len,
                         const arb_conform_options *opt, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, data || !len);
    *out = NULL;
    if (!opt || !opt->schema_dir)
        return arb_error_set(err, ARB_EINVAL, NULL, "loading from memory needs options.schema_dir");
    if (len > CF_FILE_MAX) {
        arb_error_where(err, "%s", name);
        return arb_error_set(err, ARB_ELIMIT, NULL, "document is larger than %u bytes", CF_FILE_MAX);
    }
    arb_conform_suite *s = calloc(1, sizeof *s);
    if (!s) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    s->opt = *opt;
    int rc = ARB_OK;
    xmlSchemaPtr cx = NULL, rx = NULL;
    char *buf = NULL;
    if (!(cx = load_schema(s, opt->schema_dir, "conformance.xsd", err)) ||
        !(rx = load_schema(s, opt->schema_dir, "rules.xsd", err))) {
        rc = err->code ? err->code : ARB_EFORMAT;
        goto out;
    }
    if (GROW(s->files, s->nfiles, s->capfiles) || !(s->files[0].path = arb_conform__strdup(s, name)) ||
        !(buf = malloc(len + 1))) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        goto out;
    }
    s->nfiles = 1;
    s->partial = 1;
    memcpy(buf, data, len);
    buf[len] = '\0';
    load_buffer(s, 0, buf, len, cx, rx); /* takes buf */
    buf = NULL;
out:
    xmlSchemaFree(cx);
    xmlSchemaFree(rx);
    free(buf);
    if (rc) arb_conform_free(s);
    else *out = s;
    return rc;
}

void arb_conform_free(arb_conform_suite *s)
{
    if (!s) return;
    for (unsigned i = 0; i < s->nfiles; i++) xmlFreeDoc(s->files[i].doc);
    for (unsigned i = 0; i < s->nstrs; i++) free(s->strs[i]);
    free(s->strs);
    free(s->files);
    free(s->cases);
    free(s->entries);
    free(s->expects);
    free(s->hidden);
    free(s->diags);
    free(s->results);
    free(s->cov);
    free(s->covstr);
    free(s->root);
    free(s);
}

unsigned arb_conform_ndiags(const arb_conform_suite *s) { return s->ndiags; }
const arb_conform_diag *arb_conform_diag_at(const arb_conform_suite *s, unsigned i)
{
    return i < s->ndiags ? &s->diags[i] : NULL;
}
unsigned arb_conform_nfiles(const arb_conform_suite *s) { return s->nfiles; }
unsigned arb_conform_ncases(const arb_conform_suite *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->ncases; i++) n += s->cases[i].selected != 0;
    return n;
}
