/* shard.c — K/N sharding of manifests and self-play runs (see shard.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/shard.h"

#define SHARD_MAX 1000000u

static int env_u64(const char *name, unsigned long long *v)
{
    const char *s = getenv(name);
    return s && *s ? cli_parse_u64(s, v) : -1;
}

int cli_shard_parse(const char *cmd, const char *spec, cli_shard *out)
{
    unsigned long long k, n;
    if (strcmp(spec, "slurm") == 0) {
        unsigned long long id, min = 0;
        if (env_u64("SLURM_ARRAY_TASK_ID", &id) || env_u64("SLURM_ARRAY_TASK_COUNT", &n)) {
            cli_usage(cmd, "--shard slurm needs SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT "
                           "(run it inside an sbatch --array job)");
            return -1;
        }
        if (getenv("SLURM_ARRAY_TASK_MIN") && env_u64("SLURM_ARRAY_TASK_MIN", &min)) {
            cli_usage(cmd, "SLURM_ARRAY_TASK_MIN is not a number");
            return -1;
        }
        if (id < min) {
            cli_usage(cmd, "SLURM_ARRAY_TASK_ID %llu is below SLURM_ARRAY_TASK_MIN %llu", id, min);
            return -1;
        }
        k = id - min;
    } else {
        char *slash = strchr(spec, '/');
        char kbuf[32];
        if (!slash || (size_t)(slash - spec) >= sizeof kbuf) {
            cli_usage(cmd, "--shard '%s' is not K/N or 'slurm'", spec);
            return -1;
        }
        memcpy(kbuf, spec, (size_t)(slash - spec));
        kbuf[slash - spec] = '\0';
        if (cli_parse_u64(kbuf, &k) || cli_parse_u64(slash + 1, &n)) {
            cli_usage(cmd, "--shard '%s' is not K/N or 'slurm'", spec);
            return -1;
        }
    }
    if (n < 1 || n > SHARD_MAX || k >= n) {
        cli_usage(cmd, "--shard %llu/%llu: need 0 <= K < N <= %u", k, n, SHARD_MAX);
        return -1;
    }
    out->k = k;
    out->n = n;
    return 0;
}

int cli_mstream_open(cli_mstream *m, const char *cmd, const char *path, const cli_shard *sh)
{
    memset(m, 0, sizeof *m);
    m->cmd = cmd;
    m->path = path;
    m->sh = *sh;
    m->f = fopen(path, "r");
    if (!m->f) {
        fprintf(stderr, "arbiter %s: %s: cannot open manifest: %s\n", cmd, cli_esc(path), strerror(errno));
        return EXIT_INPUT;
    }
    m->line = malloc(CLI_MANIFEST_LINE_MAX + 2);
    if (!m->line) {
        fprintf(stderr, "arbiter %s: %s: out of memory\n", cmd, cli_esc(path));
        fclose(m->f);
        m->f = NULL;
        return EXIT_INTERNAL;
    }
    return 0;
}

int cli_mstream_next(cli_mstream *m, char **path, uint64_t *index)
{
    for (;;) {
        size_t len;
        int lr = arb_line_read(m->f, m->line, CLI_MANIFEST_LINE_MAX, &len, &m->lineno);
        if (lr == ARB_LINE_EOF) return 0;
        if (lr != ARB_LINE_OK) {
            fprintf(stderr, "arbiter %s: %s:%llu: %s\n", m->cmd, cli_esc(m->path), (unsigned long long)m->lineno,
                    lr == ARB_LINE_LONG ? "line longer than 4096 bytes" : lr == ARB_LINE_NUL ? "NUL byte in manifest line"
                                                                                               : "read error");
            return -EXIT_INPUT;
        }
        char *s = m->line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '#') continue;
        uint64_t i = m->total++;
        if (i % m->sh.n != m->sh.k) continue;
        *path = strdup(s);
        if (!*path) {
            fprintf(stderr, "arbiter %s: %s:%llu: out of memory\n", m->cmd, cli_esc(m->path), (unsigned long long)m->lineno);
            return -EXIT_INTERNAL;
        }
        *index = i;
        return 1;
    }
}

void cli_mstream_close(cli_mstream *m)
{
    if (m->f) fclose(m->f);
    free(m->line);
    memset(m, 0, sizeof *m);
}

uint64_t cli_game_seed(uint64_t base, uint64_t i)
{
    uint64_t st = base + i;
    return arb_splitmix64(&st);
}
