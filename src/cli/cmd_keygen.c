/* cmd_keygen.c — `arbiter keygen -o NAME.key [--label L]`: a new Ed25519
 * key pair for sealing replays. NAME.key holds the secret (mode 0600, never
 * overwritten), NAME.key.pub the public key line that verifiers put in a
 * keyring (format in include/arbiter/seal.h and replays/FORMAT.md). */
#include <string.h>

#include "cli/cli.h"

static const char *const keygen_usage[] = {
    "keygen -o NAME.key [--label LABEL]",
    NULL
};
static const cli_opt keygen_opts[] = {
    CLI_OPT_OUTPUT("the secret key file"),
    { "label", 'l', 'l', CLI_ARG_TEXT, "LABEL", "a name shown in verdicts, e.g. tournament-server-1", 0, 0, CLI_SH_NONE },
    CLI_OPT_END
};
const cli_spec cli_spec_keygen = {
    .name = "keygen",
    .summary = "create an Ed25519 key pair for sealing replays",
    .usage = keygen_usage,
    .description =
        "Create an Ed25519 key pair for sealing replays (play/record --sign,\n"
        "arbiter sign). NAME.key is the secret key (mode 0600; an existing file is\n"
        "never overwritten); NAME.key.pub is the public key line\n"
        "  arbiter-ed25519 PUBLIC-KEY KEY-ID LABEL\n"
        "that a judge passes to `verify --key` or collects in a --keyring file.\n",
    .opts = keygen_opts,
    .exit = "0 written; 3 a file exists or cannot be written; 2 usage.",
    .operands = CLI_ARG_FILE,
    .run = cmd_keygen,
};




int cmd_keygen(int argc, char **argv)
{
    const char *out = NULL, *label = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_keygen, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'o': out = p.arg; break;
        case 'l': label = p.arg; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (!out) return cli_usage("keygen", "-o NAME.key is required");
    if (p.npos > 0) return cli_usage("keygen", "unexpected argument '%s'", p.pos[0]);
    arb_seal_key k;
    arb_error err = ARB_ERROR_INIT;
    if (arb_seal_key_generate(&k, NULL, label, &err)) return cli_usage("keygen", "%s", err.msg);
    int rc = arb_seal_key_save(&k, out, &err);
    char id[17];
    arb_seal_id_hex(k.id, id);
    memset(&k, 0, sizeof k);
    if (rc) return cli_fail("keygen", &err);
    printf("%s: secret key (keep it private)\n%s.pub: public key %s%s%s%s\n", out, out, id, label ? " (" : "",
           label ? cli_esc(label) : "", label ? ")" : "");
    return EXIT_OK;
}
