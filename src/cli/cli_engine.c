/* cli_engine.c — `--engine CMD` for the commands that take an external
 * engine (conform, verify, crosscheck, perft): open the adapter and report
 * its sticky failure in one place. */
#include "arbiter/adapter.h"
#include "cli/cli.h"

int cli_engine_open(const char *cmd, const char *command, const char *game, int timeout_ms, arb_adapter **out)
{
    arb_adapter_opts o = ARB_ADAPTER_OPTS_INIT;
    o.game = game;
    o.timeout_ms = timeout_ms;
    arb_error err = ARB_ERROR_INIT;
    int rc = arb_adapter_open(out, command, &o, &err);
    if (rc) return cli_fail(cmd, &err);
    return EXIT_OK;
}

int cli_engine_check(const char *cmd, const arb_adapter *a)
{
    const char *f = a ? arb_adapter_failed(a) : NULL;
    if (!f) return 0;
    fprintf(stderr, "arbiter %s: engine adapter failed: %s\n", cmd, f);
    return EXIT_INTERNAL;
}
