/* cmd_keygen.c — `arbiter keygen -o NAME.key [--label L]`: a new Ed25519
 * key pair for sealing replays. NAME.key holds the secret (mode 0600, never
 * overwritten), NAME.key.pub the public key line that verifiers put in a
 * keyring (format in include/arbiter/seal.h and replays/FORMAT.md). */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"

int cmd_keygen(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "label", required_argument, NULL, 'l' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *out = NULL, *label = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:l:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'l': label = optarg; break;
        case 'h':
            printf("usage: arbiter keygen -o NAME.key [--label LABEL]\n"
                   "\n"
                   "Create an Ed25519 key pair for sealing replays (play/record --sign,\n"
                   "arbiter sign). NAME.key is the secret key (mode 0600; an existing file is\n"
                   "never overwritten); NAME.key.pub is the public key line\n"
                   "  arbiter-ed25519 PUBLIC-KEY KEY-ID LABEL\n"
                   "that a judge passes to `verify --key` or collects in a --keyring file.\n"
                   "\n"
                   "  -o, --output FILE  the secret key file\n"
                   "  --label LABEL      a name shown in verdicts, e.g. tournament-server-1\n"
                   "\n"
                   "Exit: 0 written; 3 a file exists or cannot be written; 2 usage.\n");
            return EXIT_OK;
        default: return cli_usage("keygen", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!out) return cli_usage("keygen", "-o NAME.key is required");
    if (optind < argc) return cli_usage("keygen", "unexpected argument '%s'", argv[optind]);
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
