/* report.c — the run's results as TAP 13, JUnit XML, JSON and a coverage
 * listing. Every report carries everything that fails the run: one entry per
 * case, then one failing entry per file problem (a file that does not load,
 * validate or lint: its cases never ran) and, when the coverage gate
 * applies, one per uncovered catalog entry — so a CI that reads only the
 * report sees the same verdict as the exit code.
 *
 * TAP is version 13 with YAML diagnostics (Test::Harness 3.44's `prove`
 * refuses "TAP version 14"; npm tap-parser reads both). JUnit validates
 * against the Jenkins JUnit XSD (tests/report/jenkins-junit.xsd), which has
 * no testcase `file`/`line` attributes: a failure's message is the
 * expected-vs-got sentence, its body starts with "file:line" and says how
 * to rerun the case (with the suite's path), and system-out names the case's
 * file and line. Every string is written as valid UTF-8 (an invalid byte
 * becomes U+FFFD) with what XML 1.0 / YAML cannot carry escaped or
 * replaced. Output follows result order, which is load order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform/conform_int.h"

/* ------------------------------------------------------------ strings */

/* Next code point of a NUL-terminated string; *p advances. Invalid or
 * truncated sequences (overlongs and surrogates included) give U+FFFD and
 * consume one byte. */
static unsigned long utf8_next(const unsigned char **p)
{
    const unsigned char *s = *p;
    unsigned long c = s[0];
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) { *p = s + 1; return 0xFFFD; }
    if (n == 0) { *p = s + 1; return c; }
    c &= 0x3Fu >> n;
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) { *p = s + 1; return 0xFFFD; }
        c = (c << 6) | (s[i] & 0x3F);
    }
    static const unsigned long min[4] = { 0, 0x80, 0x800, 0x10000 };
    if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) { *p = s + 1; return 0xFFFD; }
    *p = s + n + 1;
    return c;
}

static void put_utf8(FILE *f, unsigned long c)
{
    if (c < 0x80) fputc((int)c, f);
    else if (c < 0x800) { fputc((int)(0xC0 | (c >> 6)), f); fputc((int)(0x80 | (c & 0x3F)), f); }
    else if (c < 0x10000) {
        fputc((int)(0xE0 | (c >> 12)), f); fputc((int)(0x80 | ((c >> 6) & 0x3F)), f); fputc((int)(0x80 | (c & 0x3F)), f);
    } else {
        fputc((int)(0xF0 | (c >> 18)), f); fputc((int)(0x80 | ((c >> 12) & 0x3F)), f);
        fputc((int)(0x80 | ((c >> 6) & 0x3F)), f); fputc((int)(0x80 | (c & 0x3F)), f);
    }
}

/* XML 1.0 attribute or text content. Characters XML 1.0 cannot carry at all
 * (C0 controls but tab and newline, U+FFFE, U+FFFF) become a space. */
static void xml_esc(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned long c = utf8_next(&p);
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        default:
            if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) fputc(' ', f);
            else put_utf8(f, c);
        }
    }
}

/* A double-quoted scalar valid as JSON and as YAML 1.1/1.2: controls, DEL
 * and C1 controls as \uXXXX, everything else as UTF-8. */
static void quoted(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    while (*p) {
        unsigned long c = utf8_next(&p);
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFFFE || c == 0xFFFF) fprintf(f, "\\u%04lx", c);
            else put_utf8(f, c);
        }
    }
    fputc('"', f);
}

/* A TAP description or directive text: one line, no '#' (which would start
 * a directive) unescaped. */
static void tap_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned long c = utf8_next(&p);
        if (c == '#') fputs("\\#", f);
        else if (c == '\\') fputs("\\\\", f);
        else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F)) fputc(' ', f);
        else put_utf8(f, c);
    }
}

/* ------------------------------------------------------------ problems */

/* A failing entry that is not a case: a file problem or an uncovered
 * catalog entry. */
typedef struct problem {
    const char *kind;              /* "file" or "coverage" */
    const char *status;            /* "INVALID" or "UNCOVERED" */
    const char *game;              /* "" when unknown */
    const char *name;              /* rule ID, or the diagnostic's where */
    char file[ARB_WHERE_MAX];
    int line;
    char msg[ARB_MSG_MAX + 600];
} problem;

static int uncovered_entry(const arb_conform_suite *s, unsigned i)
{
    const arb_conform_entry *c = &s->cov[i];
    return s->gated && c->testable && c->engine && !c->npassing && !c->uncovered_reason;
}

static unsigned nproblems(const arb_conform_suite *s)
{
    unsigned n = s->ndiags;
    for (unsigned i = 0; i < s->ncov; i++) n += uncovered_entry(s, i);
    return n;
}

/* The game of a diagnostic's file: the file's own game= when it loaded,
 * else its directory's when that is a game of the suite (a file that does
 * not validate has no game= of its own). */
static const char *diag_game(const arb_conform_suite *s, const char *file)
{
    for (unsigned i = 0; i < s->nfiles; i++)
        if (s->files[i].game && strcmp(s->files[i].path, file) == 0) return s->files[i].game;
    const char *slash = strrchr(file, '/');
    if (!slash) return "";
    const char *start = slash;
    while (start > file && start[-1] != '/') start--;
    size_t l = (size_t)(slash - start);
    for (unsigned i = 0; i < s->nfiles; i++) {
        const char *g = s->files[i].game;
        if (s->files[i].kind == CF_RULES && g && strlen(g) == l && strncmp(g, start, l) == 0) return g;
    }
    return "";
}

/* The k-th problem: diagnostics first (load order), then uncovered entries
 * (catalog order). */
static void problem_at(const arb_conform_suite *s, unsigned k, problem *p)
{
    memset(p, 0, sizeof *p);
    if (k < s->ndiags) {
        const arb_conform_diag *d = &s->diags[k];
        p->kind = "file";
        p->status = "INVALID";
        p->name = d->where;
        snprintf(p->file, sizeof p->file, "%s", d->where);
        p->line = d->line;
        if (d->line > 0) {
            char *colon = strrchr(p->file, ':');
            if (colon) *colon = '\0';
        }
        p->game = diag_game(s, p->file);
        snprintf(p->msg, sizeof p->msg, "%s", d->msg);
        return;
    }
    k -= s->ndiags;
    for (unsigned i = 0; i < s->ncov; i++) {
        if (!uncovered_entry(s, i) || k--) continue;
        const arb_conform_entry *c = &s->cov[i];
        const cf_entry *e = &s->entries[i];
        p->kind = "coverage";
        p->status = "UNCOVERED";
        p->game = c->game;
        p->name = c->id;
        snprintf(p->file, sizeof p->file, "%s", s->files[e->file].path);
        p->line = e->line;
        if (c->ncases)
            snprintf(p->msg, sizeof p->msg, "catalog entry %s (%s) has no passing case; its cases: %s", c->id,
                     c->kind, c->cases);
        else
            snprintf(p->msg, sizeof p->msg, "catalog entry %s (%s) is covered by no case", c->id, c->kind);
        arb_conform__utf8_cut(p->msg);
        return;
    }
}

/* Location of a result: the failing element, else the case. */
static int result_line(const arb_conform_result *r) { return r->at_line > 0 ? r->at_line : r->line; }

static int failed(int st) { return st == ARB_CF_FAIL || st == ARB_CF_WRONG_RULE || st == ARB_CF_XPASS; }

/* ------------------------------------------------------------ TAP 13 */

int arb_conform_write_tap(const arb_conform_suite *s, FILE *f)
{
    unsigned np = nproblems(s);
    fprintf(f, "TAP version 13\n1..%u\n", s->nresults + np);
    for (unsigned i = 0; i < s->nresults; i++) {
        const arb_conform_result *r = &s->results[i];
        int ok = r->status == ARB_CF_PASS || r->status == ARB_CF_SKIP;
        fprintf(f, "%s %u - ", ok ? "ok" : "not ok", i + 1);
        tap_text(f, r->game);
        fputc('/', f);
        tap_text(f, r->set);
        fputc('/', f);
        tap_text(f, r->id);
        if (r->status == ARB_CF_SKIP) {
            fputs(" # SKIP ", f);
            tap_text(f, r->message);
        } else if (r->status == ARB_CF_XFAIL) {
            fputs(" # TODO known failure: ", f);
            tap_text(f, r->reason);
        }
        fputc('\n', f);
        if (r->status != ARB_CF_PASS && r->status != ARB_CF_SKIP) {
            fprintf(f, "  ---\n  status: %s\n  message: ", arb_cf_status_name(r->status));
            quoted(f, r->message);
            fprintf(f, "\n  at:\n    file: ");
            quoted(f, r->file);
            fprintf(f, "\n    line: %d\n  case_line: %d\n  covers: ", result_line(r), r->line);
            quoted(f, r->covers);
            fprintf(f, "\n  seed: %llu\n  ...\n", (unsigned long long)r->seed);
        }
    }
    for (unsigned k = 0; k < np; k++) {
        problem p;
        problem_at(s, k, &p);
        fprintf(f, "not ok %u - ", s->nresults + k + 1);
        if (!strcmp(p.kind, "file")) {
            fputs("file problem: ", f);
            tap_text(f, p.name);
        } else {
            tap_text(f, p.game);
            fputs("/coverage/", f);
            tap_text(f, p.name);
        }
        fprintf(f, "\n  ---\n  status: %s\n  message: ", p.status);
        quoted(f, p.msg);
        fprintf(f, "\n  at:\n    file: ");
        quoted(f, p.file);
        fprintf(f, "\n    line: %d\n  ...\n", p.line);
    }
    return ferror(f) ? ARB_EIO : ARB_OK;
}

/* ------------------------------------------------------------ JUnit */

static void junit_counts(const arb_conform_result *r, unsigned n, unsigned *fails, unsigned *errors,
                         unsigned *skips, double *ms)
{
    for (unsigned i = 0; i < n; i++) {
        int st = r[i].status;
        *fails += failed(st);
        *errors += st == ARB_CF_ERROR;
        *skips += st == ARB_CF_SKIP || st == ARB_CF_XFAIL;
        *ms += r[i].ms;
    }
}

/* A path as one shell word: as is when it is plain, else single-quoted. */
static void sh_word(FILE *f, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") == strlen(w)) {
        xml_esc(f, w);
        return;
    }
    fputc('\'', f);
    for (const char *p = w; *p; p++) {
        char c[2] = { *p, 0 };
        xml_esc(f, *p == '\'' ? "'\\''" : c);
    }
    fputc('\'', f);
}

static void junit_case(FILE *f, const arb_conform_suite *s, const arb_conform_result *r)
{
    fprintf(f, "    <testcase classname=\"");
    xml_esc(f, r->game);
    fputc('.', f);
    xml_esc(f, r->set);
    fprintf(f, "\" name=\"");
    xml_esc(f, r->id);
    fprintf(f, "\" time=\"%.4f\">\n", r->ms / 1000.0);
    switch (r->status) {
    case ARB_CF_SKIP: case ARB_CF_XFAIL:
        /* The schema's <skipped> is text only. */
        fprintf(f, "      <skipped>");
        if (r->status == ARB_CF_XFAIL) fputs("known failure: ", f);
        xml_esc(f, r->status == ARB_CF_XFAIL && r->reason ? r->reason : r->message);
        fprintf(f, "</skipped>\n");
        break;
    case ARB_CF_FAIL: case ARB_CF_WRONG_RULE: case ARB_CF_XPASS: case ARB_CF_ERROR: {
        const char *tag = r->status == ARB_CF_ERROR ? "error" : "failure";
        fprintf(f, "      <%s type=\"%s\" message=\"", tag, arb_cf_status_name(r->status));
        xml_esc(f, r->message);
        fprintf(f, "\">");
        xml_esc(f, r->file);
        fprintf(f, ":%d\nrerun: arbiter conform --game ", result_line(r));
        xml_esc(f, r->game);
        fprintf(f, " --case ");
        sh_word(f, r->id);
        if (s->root) {
            fputc(' ', f);
            sh_word(f, s->root);
        }
        fprintf(f, "</%s>\n", tag);
        break;
    }
    default: break;
    }
    /* What Jenkins shows beside the case: the rules it proves, the seed. */
    fprintf(f, "      <system-out>status: %s&#10;covers: ", arb_cf_status_name(r->status));
    xml_esc(f, r->covers);
    fprintf(f, "&#10;seed: %llu&#10;case: ", (unsigned long long)r->seed);
    xml_esc(f, r->file);
    fprintf(f, ":%d", r->line);
    if (r->reason && r->status != ARB_CF_XFAIL) {
        fputs("&#10;expectation: ", f);
        xml_esc(f, r->reason);
    }
    fprintf(f, "</system-out>\n    </testcase>\n");
}

int arb_conform_write_junit(const arb_conform_suite *s, FILE *f)
{
    unsigned fails = 0, errors = 0, skips = 0, np = nproblems(s);
    double total = 0;
    junit_counts(s->results, s->nresults, &fails, &errors, &skips, &total);
    unsigned nfile = s->ndiags, ncov = np - s->ndiags;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"arbiter conform\" tests=\"%u\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n",
            s->nresults + np, fails + ncov, errors + nfile, total / 1000.0);
    for (unsigned i = 0; i < s->nresults;) {
        const arb_conform_result *first = &s->results[i];
        unsigned j = i, sf = 0, se = 0, ss = 0;
        double t = 0;
        while (j < s->nresults && s->results[j].game == first->game && s->results[j].set == first->set) j++;
        junit_counts(first, j - i, &sf, &se, &ss, &t);
        fprintf(f, "  <testsuite name=\"");
        xml_esc(f, first->game);
        fputc('.', f);
        xml_esc(f, first->set);
        fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n", j - i, sf, se,
                ss, t / 1000.0);
        for (unsigned k = i; k < j; k++) junit_case(f, s, &s->results[k]);
        fprintf(f, "  </testsuite>\n");
        i = j;
    }
    if (np) {
        fprintf(f, "  <testsuite name=\"arbiter conform: files and coverage\" tests=\"%u\" failures=\"%u\" "
                   "errors=\"%u\" skipped=\"0\" time=\"0\">\n", np, ncov, nfile);
        for (unsigned k = 0; k < np; k++) {
            problem p;
            problem_at(s, k, &p);
            int isfile = !strcmp(p.kind, "file");
            fprintf(f, "    <testcase classname=\"");
            xml_esc(f, p.game[0] ? p.game : "conform");
            fprintf(f, ".%s\" name=\"", isfile ? "files" : "coverage");
            xml_esc(f, p.name);
            fprintf(f, "\" time=\"0\">\n      <%s type=\"%s\" message=\"", isfile ? "error" : "failure", p.status);
            xml_esc(f, p.msg);
            fprintf(f, "\">");
            xml_esc(f, p.file);
            if (p.line > 0) fprintf(f, ":%d", p.line);
            xml_esc(f, isfile ? "\nthe file's cases did not run (or ran from a file that fails lint)"
                              : "\nadd a passing case that covers it, or list it as <uncovered> in expectations.xml");
            fprintf(f, "</%s>\n    </testcase>\n", isfile ? "error" : "failure");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    return ferror(f) ? ARB_EIO : ARB_OK;
}

/* ------------------------------------------------------------ JSON */

int arb_conform_write_json(const arb_conform_suite *s, FILE *f)
{
    unsigned counts[ARB_CF_XPASS + 1] = { 0 };
    for (unsigned i = 0; i < s->nresults; i++) counts[s->results[i].status]++;
    unsigned np = nproblems(s);
    fprintf(f, "{\"summary\":{\"cases\":%u", s->nresults);
    for (int st = 0; st <= ARB_CF_XPASS; st++) {
        fputc(',', f);
        quoted(f, arb_cf_status_name(st));
        fprintf(f, ":%u", counts[st]);
    }
    fprintf(f, ",\"uncovered\":%u,\"gated\":%s,\"diagnostics\":%u,\"problems\":%u,\"failures\":%u},\n\"results\":[",
            arb_conform_uncovered(s), s->gated ? "true" : "false", s->ndiags, np, arb_conform_failures(s));
    for (unsigned i = 0; i < s->nresults; i++) {
        const arb_conform_result *r = &s->results[i];
        fprintf(f, "%s\n{\"game\":", i ? "," : "");
        quoted(f, r->game);
        fprintf(f, ",\"set\":");
        quoted(f, r->set);
        fprintf(f, ",\"id\":");
        quoted(f, r->id);
        fprintf(f, ",\"status\":\"%s\",\"unexpected\":%s,\"file\":", arb_cf_status_name(r->status),
                arb_cf_status_unexpected(r->status) ? "true" : "false");
        quoted(f, r->file);
        fprintf(f, ",\"line\":%d,\"case_line\":%d,\"covers\":[", result_line(r), r->line);
        const char *p = r->covers ? r->covers : "";
        int first = 1;
        while (*p) {
            while (*p == ' ' || *p == '\t' || *p == '\n') p++;
            size_t l = strcspn(p, " \t\n");
            if (!l) break;
            char tok[ARB_RULE_MAX + 32];
            snprintf(tok, sizeof tok, "%.*s", (int)(l < sizeof tok - 1 ? l : sizeof tok - 1), p);
            if (!first) fputc(',', f);
            quoted(f, tok);
            first = 0;
            p += l;
        }
        fprintf(f, "],\"seed\":\"%llu\",\"actions\":%u,\"ms\":%.3f,\"message\":", (unsigned long long)r->seed, r->actions, r->ms);
        quoted(f, r->message);
        if (r->reason) {
            fprintf(f, ",\"expectation\":");
            quoted(f, r->reason);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n\"problems\":[");
    for (unsigned k = 0; k < np; k++) {
        problem p;
        problem_at(s, k, &p);
        fprintf(f, "%s\n{\"kind\":\"%s\",\"status\":\"%s\",\"unexpected\":true,\"game\":", k ? "," : "", p.kind,
                p.status);
        quoted(f, p.game);
        fprintf(f, ",\"name\":");
        quoted(f, p.name);
        fprintf(f, ",\"file\":");
        quoted(f, p.file);
        fprintf(f, ",\"line\":%d,\"message\":", p.line);
        quoted(f, p.msg);
        fputc('}', f);
    }
    fprintf(f, "],\n\"coverage\":[");
    for (unsigned i = 0; i < s->ncov; i++) {
        const arb_conform_entry *c = &s->cov[i];
        fprintf(f, "%s\n{\"game\":", i ? "," : "");
        quoted(f, c->game);
        fprintf(f, ",\"id\":");
        quoted(f, c->id);
        fprintf(f, ",\"kind\":");
        quoted(f, c->kind);
        fprintf(f, ",\"engine\":%s,\"cases\":%u,\"passing\":%u,\"case_ids\":", c->engine ? "true" : "false", c->ncases,
                c->npassing);
        quoted(f, c->cases);
        if (c->uncovered_reason) {
            fprintf(f, ",\"uncovered_reason\":");
            quoted(f, c->uncovered_reason);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n\"diagnostics\":[");
    for (unsigned i = 0; i < s->ndiags; i++) {
        fprintf(f, "%s\n{\"where\":", i ? "," : "");
        quoted(f, s->diags[i].where);
        fprintf(f, ",\"message\":");
        quoted(f, s->diags[i].msg);
        fputc('}', f);
    }
    fprintf(f, "]}\n");
    return ferror(f) ? ARB_EIO : ARB_OK;
}

/* ------------------------------------------------------------ coverage */

static const char *short_kind(const char *k)
{
    if (!k) return "?";
    if (!strcmp(k, "rule")) return "R";
    if (!strcmp(k, "rule-needing-interpretation")) return "R*";
    if (!strcmp(k, "interpretation")) return "IR";
    return "I";
}

int arb_conform_write_coverage(const arb_conform_suite *s, FILE *f)
{
    for (unsigned i = 0; i < s->ncov;) {
        const char *game = s->cov[i].game;
        unsigned j = i, testable = 0, covered = 0;
        while (j < s->ncov && s->cov[j].game == game) {
            if (s->cov[j].testable) {
                testable++;
                covered += s->cov[j].npassing > 0;
            }
            j++;
        }
        fprintf(f, "%s: %u/%u testable entries covered by a passing case (%.1f %%)%s\n", game, covered, testable,
                testable ? 100.0 * covered / testable : 100.0,
                s->cov[i].engine ? "" : " — no engine in this build, not gated");
        for (unsigned k = i; k < j; k++) {
            const arb_conform_entry *c = &s->cov[k];
            const char *mark = !c->testable ? "-" : c->npassing ? "ok" : c->uncovered_reason ? "KNOWN"
                             : c->engine ? "MISSING" : "todo";
            fprintf(f, "  %-7s %-2s %-34s %s", mark, short_kind(c->kind), c->id, c->cases[0] ? c->cases : "");
            if (!c->npassing && c->uncovered_reason) fprintf(f, "(uncovered: %s)", c->uncovered_reason);
            fputc('\n', f);
        }
        i = j;
    }
    return ferror(f) ? ARB_EIO : ARB_OK;
}
