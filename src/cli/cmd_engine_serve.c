/* cmd_engine_serve.c — `arbiter engine-serve --game G [--fault NAME]`: a
 * compiled-in engine behind the engine protocol on stdin/stdout (the
 * reference adapter, conformance/ADAPTER.md), optionally with one of the
 * documented deliberate faults; `--list-faults` prints them. */
#include <stdlib.h>
#include <string.h>

#include "arbiter/adapter.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: arbiter engine-serve --game G [--fault NAME]\n"
            "       arbiter engine-serve --list-faults\n"
            "\n"
            "Serve the built-in engine G over the engine protocol (conformance/ADAPTER.md):\n"
            "one JSON request per line on stdin, one JSON response per line on stdout,\n"
            "until \"bye\" or the end of input. Tools use it as an external engine:\n"
            "  arbiter conform --engine \"arbiter engine-serve --game naramo\"\n"
            "\n"
            "  --game G       the engine to serve\n"
            "  --fault NAME   break one behaviour on purpose (see --list-faults), to test\n"
            "                 that crosscheck and conform --engine catch it\n"
            "  --list-faults  print the faults, one per line\n"
            "\n"
            "Exit: 0 at bye or end of input, 2 usage, 3 unknown game or fault, 4 I/O error.\n");
}

int cmd_engine_serve(int argc, char **argv)
{
    const char *game = NULL, *fault = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return EXIT_OK; }
        if (!strcmp(a, "--list-faults")) {
            for (int k = 0; arb_adapter_fault_names[k]; k++)
                printf("%-18s %s\n", arb_adapter_fault_names[k], arb_adapter_fault_help[k]);
            return EXIT_OK;
        }
        if (!strcmp(a, "--game") || !strcmp(a, "--fault")) {
            if (!v) return cli_usage("engine-serve", "%s needs a value", a);
            if (a[2] == 'g') game = v;
            else fault = v;
            i++;
            continue;
        }
        return cli_usage("engine-serve", "unknown argument '%s'", a);
    }
    if (!game) return cli_usage("engine-serve", "--game is required");
    const arb_game *g = cli_game("engine-serve", game);
    if (!g) return EXIT_INPUT;
    int f = -1;
    if (fault && (f = arb_adapter_fault_find(fault)) < 0) {
        fprintf(stderr, "arbiter engine-serve: unknown fault '%s' (see --list-faults)\n", fault);
        return EXIT_INPUT;
    }
    arb_error err = ARB_ERROR_INIT;
    int rc = arb_adapter_serve(g, f, stdin, stdout, &err);
    if (rc) return cli_fail("engine-serve", &err);
    return EXIT_OK;
}
