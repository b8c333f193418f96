/* util.c — error reporting and option helpers shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
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

static _Thread_local FILE *msgs_to;
FILE *cli_msgs(void) { return msgs_to ? msgs_to : stderr; }
void cli_msgs_to(FILE *f) { msgs_to = f; }

void cli_msgs_begin(cli_msgbuf *b)
{
    b->p = NULL;
    b->n = 0;
    b->f = open_memstream(&b->p, &b->n); /* NULL: the messages go to stderr at once */
    msgs_to = b->f;
}

void cli_msgs_end(cli_msgbuf *b)
{
    msgs_to = NULL;
    if (b->f) fclose(b->f);
    b->f = NULL;
}

void cli_msgs_print(cli_msgbuf *b)
{
    if (b->p) fwrite(b->p, 1, b->n, stderr);
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

int cli_fail(const char *cmd, const arb_error *err)
{
    char buf[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
    arb_error_format(err, buf, sizeof buf);
    FILE *m = cli_msgs();
    fprintf(m, "arbiter %s: ", cmd);
    arb_text_put(m, buf); /* messages quote file data */
    fputc('\n', m);
    return cli_exit_for(err->code);
}

const char *cli_esc(const char *s)
{
    /* per thread: --jobs workers print names too */
    static _Thread_local char ring[8][2048];
    static _Thread_local unsigned next;
    char *b = ring[next++ % 8];
    char named[2048];
    return arb_text_escape(b, sizeof ring[0], cli_stdio_names(s ? s : "", named, sizeof named));
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    FILE *m = cli_msgs();
    fprintf(m, "arbiter %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(m, fmt, ap);
    va_end(ap);
    fprintf(m, "\n(see 'arbiter %s --help')\n", cmd);
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
    uint64_t v;
    if (arb_parse_u64s(s, 0, 0, UINT64_MAX, &v)) return -1;
    *out = v;
    return 0;
}

int cli_parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    return arb_parse_u64s(s, 0, lo, hi, out) ? -1 : 0;
}

void cli_json_str(FILE *out, const char *s)
{
    char named[4096];
    arb_json_str(out, cli_stdio_names(s ? s : "", named, sizeof named));
}


int cli_started(char *buf, size_t size)
{
    /* The reproducible-builds convention: a fixed start time makes the
     * whole file reproducible. Only the CLI reads the clock. */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t;
    if (sde && *sde) {
        uint64_t v;
        /* up to 9999-12-31T23:59:59Z: the start time is 20 characters */
        if (cli_parse_num(sde, 0, CLI_EPOCH_MAX, &v)) return -1;
        t = (time_t)v;
    } else {
        t = time(NULL);
    }
    struct tm tm;
    if (!gmtime_r(&t, &tm)) return -1;
    return strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) ? 0 : -1;
}

int cli_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len)
{
    size_t n = strlen(s);
    if (n == 0 || n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char c = s[2 * i + (size_t)k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) return -1;
            v = v * 16 + d;
        }
        out[i] = (uint8_t)v;
    }
    *len = n / 2;
    return 0;
}

void cli_hex(FILE *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(out, "%02x", p[i]);
}

int cli_split(char *s, char **parts, int max)
{
    int n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (n >= max) return -1;
        parts[n++] = tok;
    }
    return n;
}

int cli_option(arb_options *o, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof o->kv[0].key) return -1;
    char key[sizeof o->kv[0].key];
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    int64_t v;
    if (arb_parse_i64(eq + 1, strlen(eq + 1), 0, INT64_MIN, INT64_MAX, &v)) return -1;
    return arb_options_set(o, key, v) ? -1 : 0;
}

int cli_output_target(const char *cmd, const char *path)
{
    arb_error err = ARB_ERROR_INIT;
    if (!path || !arb_out_check(path, 0, &err)) return 0;
    return cli_fail(cmd, &err);
}

void cli_archive_discard(arb_archive_writer *aw, const char *out)
{
    arb_archive_writer_free(aw);
    char part[4200];
    if ((size_t)snprintf(part, sizeof part, "%s.part", out) < sizeof part) remove(part);
}
