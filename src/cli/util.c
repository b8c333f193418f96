/* util.c — error reporting and option helpers shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_exit_for(int code)
{
    switch (code) {
    case ARB_OK: return EXIT_OK;
    case ARB_EVERIFY: case ARB_EILLEGAL: return EXIT_VERIFY;
    case ARB_ENOMEM: return EXIT_INTERNAL;
    default: return EXIT_INPUT;
    }
}

int cli_fail(const char *cmd, const arb_error *err)
{
    char buf[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
    arb_error_format(err, buf, sizeof buf);
    fprintf(stderr, "arbiter %s: %s\n", cmd, buf);
    return cli_exit_for(err->code);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "arbiter %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'arbiter %s --help')\n", cmd);
    return EXIT_USAGE;
}

const arb_game *cli_game(const char *cmd, const char *name)
{
    if (!name) {
        cli_usage(cmd, "--game is required");
        return NULL;
    }
    const arb_game *g = arb_game_find(name);
    if (!g) {
        fprintf(stderr, "arbiter %s: unknown game '%s'; known games:", cmd, name);
        for (unsigned i = 0; i < arb_game_count(); i++) fprintf(stderr, " %s", arb_game_at(i)->id);
        fputc('\n', stderr);
    }
    return g;
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    if (!s || !*s || *s == '-') return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

void cli_json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

int cli_progress_enabled(void) { return isatty(STDERR_FILENO); }
