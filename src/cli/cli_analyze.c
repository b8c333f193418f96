/* cli_analyze.c — what the analyzer commands (log, state, diff, stats, report)
 * share: opening a replay with a clear error, parsing --as, and telling
 * the user on stderr that a replay was truncated or shown only up to the
 * record where it diverges. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cli_an_open(const char *cmd, const char *path, arb_an_source **out)
{
    arb_error err = ARB_ERROR_INIT;
    char name[4096];
    int rc = arb_an_open_file_as(out, path, cli_stdio_names(path, name, sizeof name), &err);
    if (rc) return cli_fail(cmd, &err);
    return EXIT_OK;
}

int cli_an_seat(const char *s, int players)
{
    uint64_t v;
    if (!s || !*s) return -3;
    if (!strcmp(s, "all")) return ARB_VIEW_ALL;
    if (s[0] == 'P' || s[0] == 'p') {
        if (cli_parse_num(s + 1, 1, ARB_MAX_SEATS, &v)) return -3;
        v -= 1;
    } else if (cli_parse_num(s, 0, ARB_MAX_SEATS - 1, &v)) {
        return -3;
    }
    if (players > 0 && v >= (uint64_t)players) return -3;
    return (int)v;
}

int cli_an_end(const char *cmd, const arb_an_walk_result *res, int diverged_exit)
{
    char buf[ARB_MSG_MAX + ARB_WHERE_MAX + ARB_RULE_MAX + 8];
    if (res->diverged) {
        arb_error_format(&res->divergence, buf, sizeof buf);
        fprintf(cli_msgs(),
                "arbiter %s: %s\narbiter %s: shown up to record %llu, which `arbiter verify` refuses; nothing "
                "after it is read\n",
                cmd, cli_esc(buf), cmd, (unsigned long long)res->last_index);
        return diverged_exit;
    }
    if (!res->truncated) return EXIT_OK;
    arb_error_format(&res->trunc, buf, sizeof buf);
    fprintf(cli_msgs(), "arbiter %s: %s\narbiter %s: shown up to the last complete record (%llu records)\n", cmd,
            cli_esc(buf), cmd, (unsigned long long)res->records);
    return EXIT_INPUT;
}

int cli_open_match(const char *path, struct arb_archive *a, uint64_t member, arb_an_source **out, arb_error *err)
{
    char name[4096];
    const char *n = cli_stdio_names(path, name, sizeof name);
    return a ? arb_an_open_member(out, a, member, n, err) : arb_an_open_file_as(out, path, n, err);
}

int cli_verify_match(const char *path, struct arb_archive *a, uint64_t member, const arb_verify_opts *vo,
                     arb_verify_result *res, arb_error *err)
{
    if (!a) return arb_replay_verify_file(path, vo, res, err);
    arb_replay *r;
    int rc = arb_archive_open_member(&r, a, member, vo ? &vo->limits : NULL, err);
    if (rc) {
        memset(res, 0, sizeof *res);
        res->winner = -1;
        return res->code = rc;
    }
    rc = arb_replay_verify(r, vo, res, err);
    arb_replay_close(r);
    return rc;
}
