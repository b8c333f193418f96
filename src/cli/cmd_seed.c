/* cmd_seed.c — `arbiter seed commit|contribute|derive`: the commit–reveal
 * fair seed (replays/FORMAT.md §12.1). Before a match the server runs
 * `seed commit -o S.secret` and publishes the commitment it prints; each
 * player then sends a contribution (any 1..64 bytes, e.g. from `seed
 * contribute`); `play`/`record --server-secret S.secret --contribution
 * SEAT:HEX …` derive the seed from all of them and write what a verifier
 * needs to recompute it into the header. `seed derive` prints the seed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/cli.h"

static const char secret_tag[] = "arbiter-fair-secret-v1\nsecret: ";

/* A server secret file: "arbiter-fair-secret-v1\nsecret: HEX\n", then one
 * "used: …" line once a match derived its seed from it (README, "Sealed
 * replays, fair seeds"). Read whole: a regular file of at most 4 KiB,
 * opened without blocking; fd < 0 opens path read-only. Returns an exit
 * code after printing; *used points into buf at the "used: " line or is
 * NULL. */
#define SECRET_FILE_MAX 4096
static int secret_read(const char *cmd, const char *path, int fd, char buf[SECRET_FILE_MAX + 1],
                       uint8_t secret[ARB_FAIR_SECRET_BYTES], const char **used)
{
    int own = fd < 0;
    if (own) fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "arbiter %s: %s: cannot open: %s\n", cmd, cli_esc(path), strerror(errno));
        if (own && fd >= 0) close(fd);
        return EXIT_INPUT;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > SECRET_FILE_MAX) {
        fprintf(stderr, "arbiter %s: %s: %s: not a server secret file\n", cmd, cli_esc(path),
                S_ISREG(st.st_mode) ? "larger than 4096 bytes" : "not a regular file");
        if (own) close(fd);
        return EXIT_INPUT;
    }
    size_t n = 0;
    ssize_t got;
    while (n < SECRET_FILE_MAX && (got = pread(fd, buf + n, SECRET_FILE_MAX - n, (off_t)n)) > 0) n += (size_t)got;
    if (own) close(fd);
    buf[n] = '\0';
    *used = NULL;
    size_t tl = sizeof secret_tag - 1, len;
    char hex[65];
    if (n < tl + 64 || memcmp(buf, secret_tag, tl) != 0) goto bad;
    memcpy(hex, buf + tl, 64);
    hex[64] = '\0';
    if (cli_parse_hex(hex, secret, ARB_FAIR_SECRET_BYTES, &len) || len != ARB_FAIR_SECRET_BYTES) goto bad;
    sodium_memzero(hex, sizeof hex);
    /* anything after the secret line marks it spent: a "used:" line, or
     * the torn start of one */
    const char *rest = buf + tl + 64;
    if (*rest == '\n') rest++;
    while (*rest == '\n') rest++;
    if (*rest) *used = rest;
    return EXIT_OK;
bad:
    sodium_memzero(hex, sizeof hex);
    sodium_memzero(buf, SECRET_FILE_MAX + 1);
    fprintf(stderr, "arbiter %s: %s: line 2: not a server secret file (\"arbiter-fair-secret-v1\", then "
                    "\"secret: \" and 64 hex digits; made by `arbiter seed commit`)\n", cmd, cli_esc(path));
    return EXIT_INPUT;
}

static int secret_spent(const char *cmd, const char *path, const char *used)
{
    char line[600];
    size_t k = strcspn(used, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(k < 500 ? k : 500), used);
    fprintf(stderr, "arbiter %s: %s: line 3: this server secret was already used (%s): a fair seed is single-use "
                    "(its first match reveals the secret); make a new one with `arbiter seed commit`\n", cmd,
            cli_esc(path), cli_esc(line));
    return EXIT_INPUT;
}

int cli_fair_secret_load(const char *cmd, const char *path, int allow_used, uint8_t secret[ARB_FAIR_SECRET_BYTES])
{
    char buf[SECRET_FILE_MAX + 1];
    const char *used;
    int rc = secret_read(cmd, path, -1, buf, secret, &used);
    if (!rc && used && !allow_used) rc = secret_spent(cmd, path, used);
    sodium_memzero(buf, sizeof buf);
    return rc;
}

int cli_fair_secret_consume(const char *cmd, const char *path, const uint8_t secret[ARB_FAIR_SECRET_BYTES],
                            const char *what)
{
    /* under an exclusive lock, so that of two matches started at once from
     * one secret exactly one gets it */
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        fprintf(stderr, "arbiter %s: %s: cannot open to record the secret's use: %s\n", cmd, cli_esc(path),
                strerror(errno));
        return EXIT_INPUT;
    }
    if (flock(fd, LOCK_EX) != 0) {
        fprintf(stderr, "arbiter %s: %s: cannot lock: %s\n", cmd, cli_esc(path), strerror(errno));
        close(fd);
        return EXIT_INPUT;
    }
    char buf[SECRET_FILE_MAX + 1];
    uint8_t again[ARB_FAIR_SECRET_BYTES];
    const char *used;
    int rc = secret_read(cmd, path, fd, buf, again, &used);
    if (!rc && sodium_memcmp(again, secret, sizeof again) != 0) {
        fprintf(stderr, "arbiter %s: %s: the secret changed while the match was set up\n", cmd, cli_esc(path));
        rc = EXIT_INPUT;
    }
    if (!rc && used) rc = secret_spent(cmd, path, used);
    if (!rc) {
        size_t n = strlen(buf);
        char line[1200];
        int ln = snprintf(line, sizeof line, "%sused: %s\n", n && buf[n - 1] != '\n' ? "\n" : "", what);
        if (ln < 0 || (size_t)ln >= sizeof line || pwrite(fd, line, (size_t)ln, (off_t)n) != ln || fsync(fd) != 0) {
            fprintf(stderr, "arbiter %s: %s: cannot record the secret's use: %s\n", cmd, cli_esc(path), strerror(errno));
            rc = EXIT_INPUT;
        }
    }
    sodium_memzero(buf, sizeof buf);
    sodium_memzero(again, sizeof again);
    close(fd); /* and the lock with it */
    return rc;
}

int cli_fair_contribution(const char *cmd, const char *arg, arb_fair *f, unsigned *seen)
{
    char *end;
    errno = 0;
    unsigned long seat = strtoul(arg, &end, 10);
    if (end == arg || *end != ':' || seat >= ARB_MAX_SEATS)
        return cli_usage(cmd, "--contribution '%s' is not SEAT:HEX (seat 0..%d)", arg, ARB_MAX_SEATS - 1);
    size_t len;
    if (cli_parse_hex(end + 1, f->contrib[seat], ARB_FAIR_CONTRIB_MAX, &len))
        return cli_usage(cmd, "--contribution '%s': 1 to %d bytes of hex after the seat", arg, ARB_FAIR_CONTRIB_MAX);
    if (*seen & (1u << seat)) return cli_usage(cmd, "--contribution for seat %lu given twice", seat);
    *seen |= 1u << seat;
    f->len[seat] = (uint8_t)len;
    return EXIT_OK;
}

int cli_fair_finish(const char *cmd, arb_fair *f, unsigned seen, int players)
{
    for (int s = 0; s < players; s++)
        if (!(seen & (1u << s))) return cli_usage(cmd, "no --contribution for seat %d: every seat contributes", s);
    if (seen >> players) return cli_usage(cmd, "a --contribution names a seat beyond the %d player(s)", players);
    f->n = players;
    arb_fair_commit(f->commit, f->secret);
    return EXIT_OK;
}

static int seed_commit(int argc, char **argv);
static int seed_derive(int argc, char **argv);
static const char *const seed_commit_usage[] = { "seed commit -o S.secret [--secret HEX]", NULL };
static const cli_opt seed_commit_opts[] = {
    CLI_OPT_OUTPUT("the secret file to write (mode 0600, never overwritten)"),
    { "secret", 's', 0, CLI_ARG_TEXT, "HEX", "take this secret (64 hex digits) instead of drawing one", 0, 0, CLI_SH_NONE },
    CLI_OPT_END
};
static const cli_spec seed_commit_spec = {
    .name = "seed commit",
    .summary = "server: draw a secret, print its commitment",
    .usage = seed_commit_usage,
    .description =
        "Draw a 32-byte server secret (or take --secret), write it to S.secret\n"
        "(mode 0600, never overwritten) and print its commitment\n"
        "BLAKE2b-256(\"arbiter-fair-seed-v1 commit\" || secret). Publish the\n"
        "commitment before the players send their contributions. A secret is\n"
        "single-use: the first play/record --server-secret appends a line\n"
        "\"used: …\" naming its match, and any later use is refused (exit 3).\n",
    .opts = seed_commit_opts,
    .exit = "0 written; 3 the secret file exists or cannot be written; 2 usage.",
    .run = seed_commit,
};
static const char *const seed_derive_usage[] = {
    "seed derive --server-secret S.secret --contribution SEAT:HEX… [--players N] [--json]", NULL
};
static const cli_opt seed_derive_opts[] = {
    { "server-secret", 'k', 0, CLI_ARG_FILE, "S.secret", "the server's secret file (`seed commit`)", 0, 0, CLI_SH_NONE },
    { "contribution", 'c', 0, CLI_ARG_TEXT, "SEAT:HEX", "one seat's contribution (repeatable, one per seat)", 0, 0, CLI_SH_NONE },
    { "players", 'p', 0, CLI_ARG_INT, "N", "seats 0..N-1 (default: the number of contributions)", 1, ARB_MAX_SEATS, CLI_SH_NONE },
    CLI_OPT_JSON("{scheme, seed, commitment}"),
    CLI_OPT_END
};
static const cli_spec seed_derive_spec = {
    .name = "seed derive",
    .summary = "anyone: the fair seed from the secret and every contribution",
    .usage = seed_derive_usage,
    .description =
        "Print the fair seed derived from the server secret and one contribution per\n"
        "seat (seats 0..N-1; N defaults to the number of contributions), and the\n"
        "server's commitment.\n",
    .opts = seed_derive_opts,
    .exit = "0 derived; 3 the secret file is malformed; 2 usage.",
    .run = seed_derive,
};
static int seed_contribute_run(int argc, char **argv);
static const char *const seed_contribute_usage[] = { "seed contribute", NULL };
static const cli_spec seed_contribute_spec = {
    .name = "seed contribute",
    .summary = "player: print a random contribution",
    .usage = seed_contribute_usage,
    .exit = "0 printed; 2 usage.",
    .run = seed_contribute_run,
};
static const cli_spec *const seed_subs[] = { &seed_commit_spec, &seed_contribute_spec, &seed_derive_spec, NULL };
const cli_spec cli_spec_seed = {
    .name = "seed",
    .summary = "fair seeds: commit to a server secret, derive the seed (commit-reveal)",
    .description =
        "Fair seeds by commit–reveal (replays/FORMAT.md §12.1): the server publishes\n"
        "its commitment before the players contribute, so it cannot choose the seed\n"
        "after seeing them, and no player alone chooses it either. Record the match\n"
        "with play/record --server-secret S.secret --contribution SEAT:HEX …; verify\n"
        "recomputes the seed; `verify --commitment HEX` checks the published value.\n",
    .exit = "0 done; 3 a secret file exists, cannot be written or is malformed; 2 usage.",
    .subs = seed_subs,
    .run = cmd_seed,
};

static int seed_commit(int argc, char **argv)
{
    const char *out = NULL, *given = NULL;
    int c;
    cli_parser p;
    cli_parse_init(&p, &seed_commit_spec, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'o': out = p.arg; break;
        case 's': given = p.arg; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (!out) return cli_usage("seed commit", "-o S.secret is required");
    uint8_t secret[ARB_FAIR_SECRET_BYTES], commit[ARB_REPLAY_COMMIT_BYTES];
    if (sodium_init() < 0) return EXIT_INTERNAL;
    if (given) {
        size_t len;
        if (cli_parse_hex(given, secret, sizeof secret, &len) || len != sizeof secret)
            return cli_usage("seed commit", "--secret takes 64 hex digits (32 bytes)");
    } else {
        randombytes_buf(secret, sizeof secret);
    }
    char text[160];
    int n = snprintf(text, sizeof text, "%s", secret_tag);
    for (size_t i = 0; i < sizeof secret; i++) n += snprintf(text + n, sizeof text - (size_t)n, "%02x", secret[i]);
    snprintf(text + n, sizeof text - (size_t)n, "\n");
    char tmp[4200];
    arb_error err = ARB_ERROR_INIT;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.part", out) >= sizeof tmp)
        return cli_usage("seed commit", "output path too long");
    int wrc = arb_out_write_file(out, tmp, text, strlen(text), 0600, ARB_OUT_NOREPLACE, &err);
    sodium_memzero(text, sizeof text);
    if (wrc) {
        sodium_memzero(secret, sizeof secret);
        return cli_fail("seed commit", &err);
    }
    arb_fair_commit(commit, secret);
    sodium_memzero(secret, sizeof secret);
    printf("commitment: ");
    cli_hex(stdout, commit, sizeof commit);
    printf("\n");
    return EXIT_OK;
}

static int seed_contribute(void)
{
    uint8_t c[32];
    if (sodium_init() < 0) return EXIT_INTERNAL;
    randombytes_buf(c, sizeof c);
    cli_hex(stdout, c, sizeof c);
    printf("\n");
    return EXIT_OK;
}

static int seed_derive(int argc, char **argv)
{
    const char *secret = NULL;
    arb_fair f;
    memset(&f, 0, sizeof f);
    unsigned seen = 0;
    int c, rc, json = 0;
    unsigned long long players = 0;
    cli_parser p;
    cli_parse_init(&p, &seed_derive_spec, argc, argv);
    while ((c = cli_next(&p)) > 0) {
        switch (c) {
        case 'k': secret = p.arg; break;
        case 'c':
            if ((rc = cli_fair_contribution("seed derive", p.arg, &f, &seen))) return rc;
            break;
        case 'p': players = p.num; break;
        case CLI_ID_JSON: json = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    if (c < 0) return p.rc;
    if (!secret) return cli_usage("seed derive", "--server-secret FILE is required");
    if (!players)
        for (unsigned s = 0; s < ARB_MAX_SEATS; s++)
            if (seen & (1u << s)) players = s + 1;
    if (!players) return cli_usage("seed derive", "at least one --contribution SEAT:HEX is required");
    if ((rc = cli_fair_secret_load("seed derive", secret, 1, f.secret))) return rc; /* a spent secret derives too */
    if ((rc = cli_fair_finish("seed derive", &f, seen, (int)players))) return rc;
    uint64_t seed = arb_fair_seed(&f);
    if (json) {
        printf("{\"scheme\":\"%s\",\"seed\":%" PRIu64 ",\"commitment\":\"", ARB_FAIR_SCHEME, seed);
        cli_hex(stdout, f.commit, sizeof f.commit);
        printf("\"}\n");
    } else {
        printf("seed: %" PRIu64 "\ncommitment: ", seed);
        cli_hex(stdout, f.commit, sizeof f.commit);
        printf("\n");
    }
    sodium_memzero(&f, sizeof f);
    return EXIT_OK;
}

static int seed_contribute_run(int argc, char **argv)
{
    cli_parser p;
    cli_parse_init(&p, &seed_contribute_spec, argc, argv);
    int c = cli_next(&p);
    if (c < 0) return p.rc;
    if (c > 0) return cli_unhandled(&p);
    return p.npos ? cli_usage("seed contribute", "no arguments") : seed_contribute();
}

int cmd_seed(int argc, char **argv)
{
    return cli_sub_run(&cli_spec_seed, argc, argv);
}
