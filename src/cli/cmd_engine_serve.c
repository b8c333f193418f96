/* cmd_engine_serve.c — `arbiter engine-serve --game G [--fault NAME]`: a
 * compiled-in engine behind the engine protocol on stdin/stdout (the
 * reference adapter, conformance/ADAPTER.md), optionally with one of the
 * documented deliberate faults; `--list-faults` prints them. */
#include <stdlib.h>
#include <string.h>

#include "arbiter/adapter.h"
#include "cli/cli.h"

static const char *const serve_usage[] = { "engine-serve --game G [--fault NAME] [--protocol N]", "engine-serve --list-faults [--game G]", NULL };
static const cli_opt serve_opts[] = {
    CLI_OPT_GAME("the engine to serve"),
    { "fault", 'f', 0, CLI_ARG_TEXT, "NAME", "break one behaviour on purpose (see --list-faults), to test that crosscheck and conform --engine catch it", 0, 0, CLI_SH_NONE },
    { "list-faults", 'L', 0, CLI_ARG_NONE, NULL, "print the faults, one per line (with --game: those that can show in G)", 0, 0, CLI_SH_NONE },
    { "protocol", 'P', 0, CLI_ARG_INT, "N", "speak protocols 1..N only (default: the newest, 2); 1 refuses a hello offering 2", 1, ARB_ADAPTER_PROTOCOL, CLI_SH_NONE },
    CLI_OPT_END
};
const cli_spec cli_spec_engine_serve = {
    .name = "engine-serve",
    .summary = "serve a built-in engine over the engine protocol (stdin/stdout)",
    .usage = serve_usage,
    .description =
        "Serve the built-in engine G over the engine protocol (conformance/ADAPTER.md):\n"
        "one JSON request per line on stdin, one JSON response per line on stdout,\n"
        "until \"bye\" or the end of input. Tools use it as an external engine:\n"
        "  arbiter conform --engine \"arbiter engine-serve --game naramo\"\n",
    .opts = serve_opts,
    .exit = "0 at bye or end of input, 2 usage, 3 unknown game or fault, 4 I/O error.",
    .run = cmd_engine_serve,
};

int cmd_engine_serve(int argc, char **argv)
{
    const char *game = NULL, *fault = NULL;
    int proto = ARB_ADAPTER_PROTOCOL, list = 0;
    cli_parser p;
    int c;
    cli_parse_init(&p, &cli_spec_engine_serve, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'g': game = p.arg; break;
        case 'f': fault = p.arg; break;
        case 'P': proto = (int)p.num; break;
        case 'L': list = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (p.npos) return cli_usage("engine-serve", "unknown argument '%s'", cli_esc(p.pos[0]));
    if (!game && !list) return cli_usage("engine-serve", "--game is required");
    const arb_game *g = game ? cli_game("engine-serve", game) : NULL;
    if (game && !g) return EXIT_INPUT;
    if (list) {
        for (int k = 0; arb_adapter_fault_names[k]; k++)
            if (!g || arb_adapter_fault_shows(g, k)) printf("%-18s %s\n", arb_adapter_fault_names[k], arb_adapter_fault_help[k]);
        return EXIT_OK;
    }
    int f = -1;
    if (fault && (f = arb_adapter_fault_find(fault)) < 0) {
        fprintf(stderr, "arbiter engine-serve: unknown fault '%s' (see --list-faults)\n", fault);
        return EXIT_INPUT;
    }
    arb_error err = ARB_ERROR_INIT;
    int rc = arb_adapter_serve_protocol(g, f, proto, stdin, stdout, &err);
    if (rc) return cli_fail("engine-serve", &err);
    return EXIT_OK;
}
