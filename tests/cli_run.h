/* cli_run.h — run the built `arbiter` binary (path in $ARBITER) from a Check
 * test and capture its exit code, stdout and stderr. */
#ifndef ARBITER_TESTS_CLI_RUN_H
#define ARBITER_TESTS_CLI_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct cli_result {
    int code;
    char out[65536];
    char err[16384];
} cli_result;

static inline void cli_slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f) fclose(f);
}

/* args is appended to the binary path as shell words. */
static inline cli_result *cli_run(const char *args)
{
    static cli_result r;
    const char *bin = getenv("ARBITER");
    if (!bin) bin = "build/arbiter";
    char out[] = "/tmp/arb-cli-out-XXXXXX", err[] = "/tmp/arb-cli-err-XXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    if (fo >= 0) close(fo);
    if (fe >= 0) close(fe);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", bin, args, out, err);
    int st = system(cmd);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    cli_slurp(out, r.out, sizeof r.out);
    cli_slurp(err, r.err, sizeof r.err);
    unlink(out);
    unlink(err);
    return &r;
}

#endif
