/* shard.c — K/N sharding of manifests and self-play runs (see shard.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/shard.h"

#define SHARD_MAX 1000000u
#define MANIFEST_LINE_MAX 4096

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

int cli_manifest_read(const char *cmd, const char *path, const cli_shard *sh, cli_manifest *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arbiter %s: %s: cannot open manifest: %s\n", cmd, path, strerror(errno));
        return EXIT_INPUT;
    }
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    ssize_t len;
    uint64_t lineno = 0;
    int rc = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len > MANIFEST_LINE_MAX || memchr(line, '\0', (size_t)len)) {
            fprintf(stderr, "arbiter %s: %s:%llu: %s\n", cmd, path, (unsigned long long)lineno,
                    len > MANIFEST_LINE_MAX ? "line longer than 4096 bytes" : "NUL byte in manifest line");
            rc = EXIT_INPUT;
            break;
        }
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '#') continue;
        uint64_t i = out->total++;
        if (i % sh->n != sh->k) continue;
        if (out->count == alloc) {
            size_t na = alloc ? alloc * 2 : 64;
            char **np = realloc(out->paths, na * sizeof *np);
            if (np) out->paths = np;
            uint64_t *ni = np ? realloc(out->index, na * sizeof *ni) : NULL;
            if (ni) out->index = ni;
            if (!np || !ni) { rc = EXIT_INTERNAL; break; }
            alloc = na;
        }
        out->paths[out->count] = strdup(s);
        if (!out->paths[out->count]) { rc = EXIT_INTERNAL; break; }
        out->index[out->count++] = i;
    }
    if (!rc && ferror(f)) {
        fprintf(stderr, "arbiter %s: %s: read error\n", cmd, path);
        rc = EXIT_INPUT;
    }
    free(line);
    fclose(f);
    if (rc) cli_manifest_free(out);
    return rc;
}

void cli_manifest_free(cli_manifest *m)
{
    for (uint64_t i = 0; i < m->count; i++) free(m->paths[i]);
    free(m->paths);
    free(m->index);
    memset(m, 0, sizeof *m);
}

uint64_t cli_game_seed(uint64_t base, uint64_t i)
{
    uint64_t st = base + i;
    return arb_splitmix64(&st);
}
