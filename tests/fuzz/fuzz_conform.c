/* fuzz_conform.c — libFuzzer target for the conformance XML loader and
 * runner: any byte string is loaded from memory as one suite document
 * (DOCTYPE refusal, libxml2 parse, XSD validation), linted, and when it is
 * a valid test set for a compiled-in game its cases run against the engine,
 * so hostile positions and scripts reach load_position and apply, with the
 * replay check on (every case recorded and verified as a .tcgr: temporary
 * files under TMPDIR, removed after each case).
 * The reports are checked: the JUnit XML must be well-formed (libxml2) and
 * the JSON report valid JSON (a small strict validator below). The XSDs
 * are found from the working directory upwards (conformance/schema) or in
 * $ARBITER_SCHEMA. Built and run by `make fuzz`; seeds in
 * tests/fuzz/corpus_conform/. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libxml/parser.h>

#include "arbiter/arbiter.h"
#include "arbiter/conform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *schema_dir(void)
{
    static char dir[512];
    if (dir[0]) return dir;
    const char *env = getenv("ARBITER_SCHEMA");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    static const char *const tries[] = { "conformance/schema", "../conformance/schema", "../../conformance/schema",
                                          "../../../conformance/schema" };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        char probe[600];
        struct stat st;
        snprintf(probe, sizeof probe, "%s/conformance.xsd", tries[i]);
        if (stat(probe, &st) == 0) {
            snprintf(dir, sizeof dir, "%s", tries[i]);
            return dir;
        }
    }
    fprintf(stderr, "fuzz_conform: no conformance/schema found; set ARBITER_SCHEMA\n");
    abort();
}

/* Strict RFC 8259 syntax check (numbers with fractions allowed): returns
 * the position after one value, or NULL. */
static const char *jv(const char *p, const char *e, int depth);
static const char *jws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}
static const char *jstr(const char *p, const char *e)
{
    if (p >= e || *p != '"') return NULL;
    for (p++; p < e; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') return p + 1;
        if (c < 0x20) return NULL;
        if (c == '\\') {
            if (++p >= e) return NULL;
            if (*p == 'u') {
                for (int k = 0; k < 4; k++)
                    if (++p >= e || !strchr("0123456789abcdefABCDEF", *p)) return NULL;
            } else if (!strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return NULL;
}
static const char *jv(const char *p, const char *e, int depth)
{
    p = jws(p, e);
    if (p >= e || depth > 200) return NULL;
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int obj = *p == '{';
        p = jws(p + 1, e);
        if (p < e && *p == close) return p + 1;
        for (;;) {
            if (obj) {
                p = jstr(jws(p, e), e);
                if (!p) return NULL;
                p = jws(p, e);
                if (p >= e || *p != ':') return NULL;
                p++;
            }
            p = jv(p, e, depth + 1);
            if (!p) return NULL;
            p = jws(p, e);
            if (p < e && *p == ',') { p++; continue; }
            if (p < e && *p == close) return p + 1;
            return NULL;
        }
    }
    if (*p == '"') return jstr(p, e);
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        if (*p == '-') p++;
        if (p >= e || *p < '0' || *p > '9') return NULL;
        if (*p == '0') p++;
        else while (p < e && *p >= '0' && *p <= '9') p++;
        if (p < e && *p == '.') {
            p++;
            if (p >= e || *p < '0' || *p > '9') return NULL;
            while (p < e && *p >= '0' && *p <= '9') p++;
        }
        if (p < e && (*p == 'e' || *p == 'E')) {
            p++;
            if (p < e && (*p == '+' || *p == '-')) p++;
            if (p >= e || *p < '0' || *p > '9') return NULL;
            while (p < e && *p >= '0' && *p <= '9') p++;
        }
        return p;
    }
    static const char *const lits[] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(lits[i]);
        if ((size_t)(e - p) >= l && !memcmp(p, lits[i], l)) return p + l;
    }
    return NULL;
}

static void check_reports(arb_conform_suite *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) abort();
    arb_conform_write_junit(s, f);
    fclose(f);
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, "junit.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        fprintf(stderr, "fuzz_conform: the JUnit report is not well-formed XML:\n%.2000s\n", buf);
        abort();
    }
    xmlFreeDoc(doc);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    if (!f) abort();
    arb_conform_write_json(s, f);
    fclose(f);
    const char *end = jv(buf, buf + len, 0);
    if (!end || jws(end, buf + len) != buf + len) {
        fprintf(stderr, "fuzz_conform: the JSON report is not valid JSON:\n%.2000s\n", buf);
        abort();
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    arb_conform_options opt = ARB_CONFORM_OPTIONS_INIT;
    opt.schema_dir = schema_dir();
    opt.replay_check = 1;
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    if (arb_conform_load_mem(&s, "fuzz.xml", data, size, &opt, &err) != ARB_OK) return 0;
    arb_conform_lint(s);
    if (arb_conform_ncases(s) > 0 && arb_conform_run(s, &err) == ARB_OK) check_reports(s);
    arb_conform_free(s);
    return 0;
}
