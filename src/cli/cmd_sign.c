/* cmd_sign.c — `arbiter sign --key NAME.key FILE…`: seal existing
 * format-2 replays (a server that signs after the fact). Each file keeps
 * its body byte for byte and gets a seal block (replacing one it had); a
 * crash-left NAME.part is sealed as the finished prefix of its complete
 * records, written to NAME (never over an existing file). */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

static const char *const sign_usage[] = {
    "sign --key NAME.key FILE...",
    NULL
};
static const cli_opt sign_opts[] = {
    { "key", 'k', 'k', CLI_ARG_FILE, "NAME.key", "the secret key to seal with (arbiter keygen)", 0, 0, CLI_SH_NONE },
    CLI_OPT_END
};
const cli_spec cli_spec_sign = {
    .name = "sign",
    .summary = "seal existing format-2 replays with a secret key",
    .usage = sign_usage,
    .description =
        "Seal format-2 replays with the secret key NAME.key (arbiter keygen): an\n"
        "Ed25519 signature over the envelope and every content byte, appended as\n"
        "a 102-byte seal block (an existing seal is replaced). The body is kept\n"
        "byte for byte. A NAME.part left by a crashed recorder is sealed as the\n"
        "finished prefix of its complete records and written to NAME (which must\n"
        "not exist); verify then reports the missing outcome, signed.\n",
    .opts = sign_opts,
    .exit = "0 all sealed; 3 a file is unreadable, format 1 or an archive; 2 usage.",
    .operands = CLI_ARG_FILE,
    .run = cmd_sign,
};




int cmd_sign(int argc, char **argv)
{
    const char *keyf = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &cli_spec_sign, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'k': keyf = p.arg; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (!keyf) return cli_usage("sign", "--key NAME.key is required");
    if (p.npos < 1) return cli_usage("sign", "no replay file given");
    arb_seal_key k;
    arb_error err = ARB_ERROR_INIT;
    if (arb_seal_key_load(&k, keyf, &err)) return cli_fail("sign", &err);
    if (!k.has_secret) {
        fprintf(stderr, "arbiter sign: %s: a public key: signing needs the secret key file\n", keyf);
        return EXIT_INPUT;
    }
    char id[17];
    arb_seal_id_hex(k.id, id);
    int worst = EXIT_OK;
    for (int i = 0; i < p.npos; i++) {
        const char *path = p.pos[i];
        char out[4096];
        size_t n = strlen(path);
        snprintf(out, sizeof out, "%s", path);
        int part = n > 5 && strcmp(path + n - 5, ".part") == 0;
        if (part) {
            out[n - 5] = '\0';
            struct stat sb;
            if (lstat(out, &sb) == 0) { /* a dangling symbolic link exists too */
                fprintf(stderr, "arbiter sign: %s: exists; not overwritten by the sealed prefix of %s\n", out, path);
                worst = EXIT_INPUT;
                continue;
            }
        }
        arb_seal_file_info info;
        arb_error_clear(&err);
        if (arb_seal_file(path, out, &k, &info, &err)) {
            int ec = cli_fail("sign", &err);
            if (ec > worst) worst = ec;
            continue;
        }
        printf("%s: sealed by %s%s%s%s, %" PRIu64 " -> %" PRIu64 " bytes%s%s\n", out, id, k.label[0] ? " (" : "",
               cli_esc(k.label), k.label[0] ? ")" : "", info.bytes_before, info.bytes_after,
               info.replaced ? " (seal replaced)" : "",
               info.prefix ? " (the complete records of a truncated file: a signed prefix)" : "");
    }
    memset(&k, 0, sizeof k);
    return worst;
}
