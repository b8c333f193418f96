/* report.c — the run's results as TAP 14, JUnit XML, JSON and a coverage
 * listing. TAP and JUnit are what CI systems read (GitLab and Jenkins take
 * JUnit's classname/name/file/line, a <failure> with the expected-vs-got
 * message, and <properties> with the rule IDs and seed); JSON is the same
 * data for programs. All output follows result order, which is load order. */
#include <stdio.h>
#include <string.h>

#include "conform/conform_int.h"

static void xml_esc(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        default:
            if (*p < 0x20) fputc(' ', f); /* not representable in XML 1.0 */
            else fputc(*p, f);
        }
    }
}

static void json_str(FILE *f, const char *s) { arb_json_str(f, s ? s : ""); }

/* ------------------------------------------------------------ TAP 14 */

int arb_conform_write_tap(const arb_conform_suite *s, FILE *f)
{
    fprintf(f, "TAP version 14\n1..%u\n", s->nresults);
    for (unsigned i = 0; i < s->nresults; i++) {
        const arb_conform_result *r = &s->results[i];
        int ok = r->status == ARB_CF_PASS || r->status == ARB_CF_SKIP;
        if (r->status == ARB_CF_XFAIL) ok = 0;
        fprintf(f, "%s %u - %s/%s/%s", ok ? "ok" : "not ok", i + 1, r->game, r->set, r->id);
        if (r->status == ARB_CF_SKIP) fprintf(f, " # SKIP %s", r->message);
        else if (r->status == ARB_CF_XFAIL) fprintf(f, " # TODO known failure: %s", r->reason ? r->reason : "");
        fputc('\n', f);
        if (r->status != ARB_CF_PASS && r->status != ARB_CF_SKIP) {
            fprintf(f, "  ---\n  status: %s\n  message: ", arb_cf_status_name(r->status));
            json_str(f, r->message);
            fprintf(f, "\n  at:\n    file: ");
            json_str(f, r->file);
            fprintf(f, "\n    line: %d\n  covers: ", r->line);
            json_str(f, r->covers);
            fprintf(f, "\n  seed: %llu\n  ...\n", (unsigned long long)r->seed);
        }
    }
    return ferror(f) ? ARB_EIO : ARB_OK;
}

/* ------------------------------------------------------------ JUnit */

int arb_conform_write_junit(const arb_conform_suite *s, FILE *f)
{
    unsigned fails = 0, errors = 0, skips = 0;
    double total = 0;
    for (unsigned i = 0; i < s->nresults; i++) {
        int st = s->results[i].status;
        fails += st == ARB_CF_FAIL || st == ARB_CF_WRONG_RULE || st == ARB_CF_XPASS;
        errors += st == ARB_CF_ERROR;
        skips += st == ARB_CF_SKIP || st == ARB_CF_XFAIL;
        total += s->results[i].ms;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"arbiter conform\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n",
            s->nresults, fails, errors, skips, total / 1000.0);
    for (unsigned i = 0; i < s->nresults;) {
        const arb_conform_result *first = &s->results[i];
        unsigned j = i, sf = 0, se = 0, ss = 0;
        double t = 0;
        while (j < s->nresults && s->results[j].game == first->game && s->results[j].set == first->set) {
            int st = s->results[j].status;
            sf += st == ARB_CF_FAIL || st == ARB_CF_WRONG_RULE || st == ARB_CF_XPASS;
            se += st == ARB_CF_ERROR;
            ss += st == ARB_CF_SKIP || st == ARB_CF_XFAIL;
            t += s->results[j].ms;
            j++;
        }
        fprintf(f, "  <testsuite name=\"");
        xml_esc(f, first->game);
        fputc('.', f);
        xml_esc(f, first->set);
        fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\" file=\"", j - i, sf, se, ss,
                t / 1000.0);
        xml_esc(f, first->file);
        fprintf(f, "\">\n");
        for (unsigned k = i; k < j; k++) {
            const arb_conform_result *r = &s->results[k];
            fprintf(f, "    <testcase classname=\"");
            xml_esc(f, r->game);
            fputc('.', f);
            xml_esc(f, r->set);
            fprintf(f, "\" name=\"");
            xml_esc(f, r->id);
            fprintf(f, "\" file=\"");
            xml_esc(f, r->file);
            fprintf(f, "\" line=\"%d\" time=\"%.4f\">\n", r->line, r->ms / 1000.0);
            fprintf(f, "      <properties>\n        <property name=\"covers\" value=\"");
            xml_esc(f, r->covers);
            fprintf(f, "\"/>\n        <property name=\"seed\" value=\"%llu\"/>\n", (unsigned long long)r->seed);
            fprintf(f, "        <property name=\"status\" value=\"%s\"/>\n", arb_cf_status_name(r->status));
            if (r->reason) {
                fprintf(f, "        <property name=\"expectation\" value=\"");
                xml_esc(f, r->reason);
                fprintf(f, "\"/>\n");
            }
            fprintf(f, "      </properties>\n");
            const char *tag = NULL;
            switch (r->status) {
            case ARB_CF_FAIL: case ARB_CF_WRONG_RULE: case ARB_CF_XPASS: tag = "failure"; break;
            case ARB_CF_ERROR: tag = "error"; break;
            case ARB_CF_SKIP: case ARB_CF_XFAIL: tag = "skipped"; break;
            default: break;
            }
            if (tag) {
                fprintf(f, "      <%s message=\"", tag);
                if (r->status == ARB_CF_XFAIL) fputs("known failure: ", f);
                xml_esc(f, r->status == ARB_CF_XFAIL && r->reason ? r->reason : r->message);
                fprintf(f, "\" type=\"%s\">", arb_cf_status_name(r->status));
                xml_esc(f, r->file);
                fprintf(f, ":%d: %s: ", r->line, arb_cf_status_name(r->status));
                xml_esc(f, r->message);
                fprintf(f, "</%s>\n", tag);
            }
            fprintf(f, "    </testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
        i = j;
    }
    fprintf(f, "</testsuites>\n");
    return ferror(f) ? ARB_EIO : ARB_OK;
}

/* ------------------------------------------------------------ JSON */

int arb_conform_write_json(const arb_conform_suite *s, FILE *f)
{
    unsigned counts[ARB_CF_XPASS + 1] = { 0 };
    for (unsigned i = 0; i < s->nresults; i++) counts[s->results[i].status]++;
    fprintf(f, "{\"summary\":{\"cases\":%u", s->nresults);
    for (int st = 0; st <= ARB_CF_XPASS; st++) {
        fputc(',', f);
        json_str(f, arb_cf_status_name(st));
        fprintf(f, ":%u", counts[st]);
    }
    fprintf(f, ",\"uncovered\":%u,\"gated\":%s,\"diagnostics\":%u,\"failures\":%u},\n\"results\":[",
            arb_conform_uncovered(s), s->gated ? "true" : "false", s->ndiags, arb_conform_failures(s));
    for (unsigned i = 0; i < s->nresults; i++) {
        const arb_conform_result *r = &s->results[i];
        fprintf(f, "%s\n{\"game\":", i ? "," : "");
        json_str(f, r->game);
        fprintf(f, ",\"set\":");
        json_str(f, r->set);
        fprintf(f, ",\"id\":");
        json_str(f, r->id);
        fprintf(f, ",\"status\":\"%s\",\"file\":", arb_cf_status_name(r->status));
        json_str(f, r->file);
        fprintf(f, ",\"line\":%d,\"covers\":[", r->line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", r->covers ? r->covers : "");
        char *save = NULL;
        int first = 1;
        for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
            if (!first) fputc(',', f);
            json_str(f, t);
            first = 0;
        }
        fprintf(f, "],\"seed\":%llu,\"actions\":%u,\"ms\":%.3f,\"message\":", (unsigned long long)r->seed, r->actions, r->ms);
        json_str(f, r->message);
        if (r->reason) {
            fprintf(f, ",\"expectation\":");
            json_str(f, r->reason);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n\"coverage\":[");
    for (unsigned i = 0; i < s->ncov; i++) {
        const arb_conform_entry *c = &s->cov[i];
        fprintf(f, "%s\n{\"game\":", i ? "," : "");
        json_str(f, c->game);
        fprintf(f, ",\"id\":");
        json_str(f, c->id);
        fprintf(f, ",\"kind\":");
        json_str(f, c->kind);
        fprintf(f, ",\"engine\":%s,\"cases\":%u,\"passing\":%u,\"case_ids\":", c->engine ? "true" : "false", c->ncases,
                c->npassing);
        json_str(f, c->cases);
        if (c->uncovered_reason) {
            fprintf(f, ",\"uncovered_reason\":");
            json_str(f, c->uncovered_reason);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n\"diagnostics\":[");
    for (unsigned i = 0; i < s->ndiags; i++) {
        fprintf(f, "%s\n{\"where\":", i ? "," : "");
        json_str(f, s->diags[i].where);
        fprintf(f, ",\"message\":");
        json_str(f, s->diags[i].msg);
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
        fprintf(f, "%s: %u/%u R/R* entries covered by a passing case (%.1f %%)%s\n", game, covered, testable,
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
