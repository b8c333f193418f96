/* cmdtab_doc.c — the texts generated from a command's spec: `--help` (usage
 * lines, description, the options wrapped in two columns, notes, exit
 * codes) and its man page in roff (every usage line in SYNOPSIS). */
#include <string.h>

#include "cli/cli.h"

#define HELP_COL 24
#define HELP_WIDTH 79

/* "-o, --output FILE", "--json", "--jobs N" */
static void opt_label(const cli_opt *o, char *buf, size_t size)
{
    size_t n = 0;
    if (o->shortc) n += (size_t)snprintf(buf + n, size - n, "-%c, ", o->shortc);
    if (n < size) n += (size_t)snprintf(buf + n, size - n, "--%s", o->name);
    if (o->argname && n < size) snprintf(buf + n, size - n, " %s", o->argname);
}

/* Words of text from column col on, wrapped at HELP_WIDTH with indent. */
static void wrap(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    int gap = 0; /* a space is owed before the next word on this line */
    while (*p) {
        while (*p == ' ') p++;
        if (*p == '\n') { /* an explicit line break */
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            gap = 0;
            p++;
            continue;
        }
        size_t w = strcspn(p, " \n");
        if (!w) break;
        if (gap && col + 1 + (int)w > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (gap) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, w, out);
        col += (int)w;
        p += w;
        gap = 1;
    }
    fputc('\n', out);
}

static void help_usage(const cli_spec *s, FILE *out, int *first)
{
    for (const char *const *u = s->usage; u && *u; u++) {
        /* a long line continues under its first option */
        int col = fprintf(out, "%sarbiter ", *first ? "usage: " : "       ");
        const char *b = strstr(*u, " ["), *d = strstr(*u, " -");
        if (!b || (d && d < b)) b = d;
        size_t cmd = b ? (size_t)(b - *u) + 1 : strlen(*u);
        fwrite(*u, 1, cmd, out);
        wrap(out, *u + cmd, col + (int)cmd, col + (int)cmd);
        *first = 0;
    }
    for (const cli_spec *const *c = s->subs; c && *c; c++) help_usage(*c, out, first);
}

void cli_spec_help(const cli_spec *s, FILE *out)
{
    int first = 1;
    help_usage(s, out, &first);
    if (s->description) fprintf(out, "\n%s", s->description);
    if (s->subs) {
        fprintf(out, "\nSubcommands (each takes --help):\n");
        for (const cli_spec *const *c = s->subs; *c; c++) {
            const char *sp = strrchr((*c)->name, ' ');
            fprintf(out, "  %-12s ", sp ? sp + 1 : (*c)->name);
            wrap(out, (*c)->summary, 15, 15);
        }
    }
    if (s->opts && s->opts->name) {
        fprintf(out, "\nOptions:\n");
        for (const cli_opt *o = s->opts; o->name; o++) {
            char label[96];
            opt_label(o, label, sizeof label);
            int col = fprintf(out, "  %s", label);
            if (col + 2 > HELP_COL) {
                fprintf(out, "\n%*s", HELP_COL, "");
            } else {
                fprintf(out, "%*s", HELP_COL - col, "");
            }
            wrap(out, o->help, HELP_COL, HELP_COL);
        }
        fprintf(out, "  -h, --help%*sthis help\n", HELP_COL - 12, "");
    }
    if (s->notes) fprintf(out, "\n%s", s->notes);
    if (s->exit) {
        fprintf(out, "\nExit: ");
        wrap(out, s->exit, 6, 0);
    }
}

/* roff: backslashes and hyphens escaped, a line that starts with a control
 * character protected. */
static void roff(FILE *out, const char *s, size_t n)
{
    int bol = 1;
    for (size_t i = 0; i < n && s[i]; i++) {
        char c = s[i];
        if (bol && (c == '.' || c == '\'')) fputs("\\&", out);
        if (c == '\\') fputs("\\e", out);
        else if (c == '-') fputs("\\-", out);
        else fputc(c, out);
        bol = c == '\n';
    }
}

static void roffs(FILE *out, const char *s) { roff(out, s, strlen(s)); }

static void man_synopsis(const cli_spec *s, FILE *out)
{
    for (const char *const *u = s->usage; u && *u; u++) {
        fputs("\\fBarbiter\\fR ", out);
        roffs(out, *u);
        fputs("\n.br\n", out);
    }
    for (const cli_spec *const *c = s->subs; c && *c; c++) man_synopsis(*c, out);
}

static void man_options(const cli_spec *s, FILE *out)
{
    for (const cli_opt *o = s->opts; o && o->name; o++) {
        fputs(".TP\n", out);
        if (o->shortc) fprintf(out, "\\fB\\-%c\\fR, ", o->shortc);
        fputs("\\fB\\-\\-", out);
        roffs(out, o->name);
        fputs("\\fR", out);
        if (o->argname) {
            fputs(" \\fI", out);
            roffs(out, o->argname);
            fputs("\\fR", out);
        }
        fputc('\n', out);
        roffs(out, o->help);
        fputc('\n', out);
    }
}

static void man_block(FILE *out, const char *text)
{
    if (!text) return;
    fputs(".PP\n.nf\n", out);
    roffs(out, text);
    fputs(".fi\n", out);
}

int cli_spec_man(const cli_spec *s, const char *version, const char *date, FILE *out)
{
    char up[64];
    size_t n = 0;
    for (const char *p = s->name; *p && n + 1 < sizeof up; p++)
        up[n++] = *p == ' ' || *p == '-' ? '_' : (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    up[n] = '\0';
    fprintf(out, ".TH ARBITER\\-%s 1 \"%s\" \"arbiter %s\" \"User Commands\"\n", up, date, version);
    fputs(".SH NAME\narbiter\\-", out);
    roffs(out, s->name);
    fputs(" \\- ", out);
    roffs(out, s->summary);
    /* one filled line per usage, not hyphenated, so a long one wraps */
    fputs("\n.SH SYNOPSIS\n.nh\n.ad l\n", out);
    man_synopsis(s, out);
    fputs(".ad\n.hy\n.SH DESCRIPTION\n", out);
    man_block(out, s->description);
    for (const cli_spec *const *c = s->subs; c && *c; c++) {
        fputs(".SS ", out);
        roffs(out, (*c)->name);
        fputs("\n", out);
        roffs(out, (*c)->summary);
        fputc('\n', out);
        man_block(out, (*c)->description);
        if ((*c)->opts && (*c)->opts->name) man_options(*c, out);
        man_block(out, (*c)->notes);
    }
    if (s->opts && s->opts->name) {
        fputs(".SH OPTIONS\n", out);
        man_options(s, out);
        fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthis help\n", out);
    }
    if (s->notes) {
        fputs(".SH NOTES\n", out);
        man_block(out, s->notes);
    }
    if (s->exit) {
        fputs(".SH EXIT STATUS\n", out);
        roffs(out, s->exit);
        fputc('\n', out);
    }
    fputs(".SH SEE ALSO\n.BR arbiter (1)\n", out);
    return ferror(out) ? -1 : 0;
}
