/* seal.c — sealed replays: the BLAKE2b-512 digest over envelope and
 * CONTENT, Ed25519 seal blocks (libsodium), key files and keyrings.
 * Formats: replays/FORMAT.md "Sealing" and include/arbiter/seal.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "arbiter/outfile.h"
#include "arbiter/replay.h"
#include "arbiter/seal.h"
#include "arbiter/text.h"

_Static_assert(crypto_sign_PUBLICKEYBYTES == ARB_SEAL_PK_BYTES, "Ed25519 public key size");
_Static_assert(crypto_sign_BYTES == ARB_SEAL_SIG_BYTES, "Ed25519 signature size");
_Static_assert(crypto_sign_SECRETKEYBYTES == 64, "Ed25519 secret key size");

/* The hasher (arb_seal_hasher_*) is in seal_hash.c. */

void arb_seal_key_id(const uint8_t pk[ARB_SEAL_PK_BYTES], uint8_t id[ARB_SEAL_ID_BYTES])
{
    uint8_t d[32];
    /* sodium_init picks the fastest BLAKE2b; the reference code runs
     * without it, so its failure changes nothing here (no abort) */
    int sodium_ok = sodium_init() >= 0;
    (void)sodium_ok;
    crypto_generichash(d, sizeof d, pk, ARB_SEAL_PK_BYTES, NULL, 0);
    memcpy(id, d, ARB_SEAL_ID_BYTES);
}

static const char hexd[] = "0123456789abcdef";

static void to_hex(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hexd[p[i] >> 4];
        out[2 * i + 1] = hexd[p[i] & 15];
    }
    out[2 * n] = '\0';
}

const char *arb_seal_id_hex(const uint8_t id[ARB_SEAL_ID_BYTES], char buf[17])
{
    to_hex(id, ARB_SEAL_ID_BYTES, buf);
    return buf;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Exactly 2n hex digits at s, followed by a space, tab, NUL or newline. */
static int from_hex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int a = hexval((unsigned char)s[2 * i]), b = a < 0 ? -1 : hexval((unsigned char)s[2 * i + 1]);
        if (a < 0 || b < 0) return -1;
        out[i] = (uint8_t)(a << 4 | b);
    }
    char e = s[2 * n];
    return e == '\0' || e == ' ' || e == '\t' || e == '\n' || e == '\r' ? 0 : -1;
}

/* A label: valid UTF-8 without C0/C1 controls or bidi formatting
 * characters (arb_utf8_check), so it prints as what it is. */
static int label_ok(const char *l)
{
    size_t n = strlen(l);
    return n < ARB_SEAL_LABEL_MAX && arb_utf8_check(l, n, ARB_UTF8_NO_CONTROLS) == n;
}

int arb_seal_key_generate(arb_seal_key *k, const uint8_t *seed, const char *label, arb_error *err)
{
    memset(k, 0, sizeof *k);
    if (sodium_init() < 0) return arb_error_set(err, ARB_EINVAL, NULL, "libsodium failed to initialise");
    if (label && !label_ok(label))
        return arb_error_set(err, ARB_EINVAL, NULL,
                             "a key label is at most %d bytes of valid UTF-8 without control or bidi characters",
                             ARB_SEAL_LABEL_MAX - 1);
    uint8_t s[crypto_sign_SEEDBYTES];
    if (seed) memcpy(s, seed, sizeof s);
    else randombytes_buf(s, sizeof s);
    crypto_sign_seed_keypair(k->pk, k->sk, s);
    sodium_memzero(s, sizeof s);
    k->has_secret = 1;
    arb_seal_key_id(k->pk, k->id);
    snprintf(k->label, sizeof k->label, "%s", label ? label : "");
    return ARB_OK;
}

static void pub_line(const arb_seal_key *k, char *buf, size_t size)
{
    char pk[65], id[17];
    to_hex(k->pk, sizeof k->pk, pk);
    snprintf(buf, size, "arbiter-ed25519 %s %s%s%s\n", pk, arb_seal_id_hex(k->id, id), k->label[0] ? " " : "",
             k->label);
}

/* A key file: created whole (written to PATH.part, linked into place), never
 * over an existing file. */
static int write_new(const char *path, const char *text, unsigned mode, arb_error *err)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.part", path) >= sizeof tmp)
        return arb_error_set(err, ARB_EINVAL, NULL, "key path too long");
    return arb_out_write_file(path, tmp, text, strlen(text), mode, ARB_OUT_NOREPLACE, err);
}

int arb_seal_key_save(const arb_seal_key *k, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    if (!k->has_secret) return arb_error_set(err, ARB_EINVAL, NULL, "the key has no secret half to save");
    char pub[512], pubpath[4096];
    if (snprintf(pubpath, sizeof pubpath, "%s.pub", path) >= (int)sizeof pubpath)
        return arb_error_set(err, ARB_EINVAL, NULL, "key path too long");
    char seed[65], text[512];
    to_hex(k->sk, 32, seed);
    snprintf(text, sizeof text, "arbiter-ed25519-secret-v1\nlabel: %s\nseed: %s\n", k->label, seed);
    sodium_memzero(seed, sizeof seed);
    int rc = write_new(path, text, 0600, err);
    sodium_memzero(text, sizeof text);
    if (rc) return rc;
    pub_line(k, pub, sizeof pub);
    if ((rc = write_new(pubpath, pub, 0644, err))) unlink(path);
    return rc;
}

int arb_seal_key_parse_line(arb_seal_key *k, const char *line, arb_error *err)
{
    ARB_ASSERT_ARG(err, line);
    memset(k, 0, sizeof *k);
    static const char tag[] = "arbiter-ed25519 ";
    if (strncmp(line, tag, sizeof tag - 1) != 0)
        return arb_error_set(err, ARB_EFORMAT, NULL, "not a public key line (it starts with 'arbiter-ed25519 ')");
    const char *p = line + sizeof tag - 1;
    if (from_hex(p, k->pk, sizeof k->pk))
        return arb_error_set(err, ARB_EFORMAT, NULL, "the public key is not 64 hex digits");
    p += 64;
    if (*p != ' ') return arb_error_set(err, ARB_EFORMAT, NULL, "no key id after the public key");
    p++;
    uint8_t id[ARB_SEAL_ID_BYTES];
    if (from_hex(p, id, sizeof id)) return arb_error_set(err, ARB_EFORMAT, NULL, "the key id is not 16 hex digits");
    arb_seal_key_id(k->pk, k->id);
    if (memcmp(id, k->id, sizeof id) != 0)
        return arb_error_set(err, ARB_EFORMAT, NULL, "the key id does not belong to the public key");
    p += 16;
    if (*p == ' ') p++;
    size_t n = strcspn(p, "\r\n");
    if (n >= sizeof k->label) return arb_error_set(err, ARB_EFORMAT, NULL, "the label is longer than %d bytes", ARB_SEAL_LABEL_MAX - 1);
    memcpy(k->label, p, n);
    k->label[n] = '\0';
    if (!label_ok(k->label))
        return arb_error_set(err, ARB_EFORMAT, NULL,
                             "the label is not valid UTF-8 or holds control or bidi characters (at byte %zu)",
                             arb_utf8_check(k->label, n, ARB_UTF8_NO_CONTROLS));
    return ARB_OK;
}

/* Read a small text file (key files are a few hundred bytes). Only a
 * regular file is read: it is opened without blocking (a FIFO or a device
 * would wait for a writer forever) and examined through the descriptor
 * before any byte is read; its size is bounded before allocating. */
static char *slurp(const char *path, size_t max, arb_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EINVAL, NULL, "not a regular file (%s): not read as a key file or keyring",
                      S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                      : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file");
        return NULL;
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_ELIMIT, NULL, "larger than %zu bytes: not a key file or keyring", max);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        return NULL;
    }
    char *buf = malloc(max + 1);
    size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
    fclose(f);
    if (!buf) { arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); return NULL; }
    if (n > max) {
        free(buf);
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_ELIMIT, NULL, "larger than %zu bytes: not a key file or keyring", max);
        return NULL;
    }
    if (memchr(buf, 0, n)) {
        free(buf);
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EFORMAT, NULL, "a NUL byte: not a key file or keyring");
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

int arb_seal_key_load(arb_seal_key *k, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    char *t = slurp(path, 4096, err);
    if (!t) return err->code;
    int rc = ARB_OK;
    static const char sec[] = "arbiter-ed25519-secret-v1\n";
    if (strncmp(t, sec, sizeof sec - 1) == 0) {
        memset(k, 0, sizeof *k);
        const char *l = strstr(t, "\nlabel: "), *s = strstr(t, "\nseed: ");
        uint8_t seed[32];
        if (!s || from_hex(s + 7, seed, sizeof seed)) {
            arb_error_where(err, "%s", path);
            rc = arb_error_set(err, ARB_EFORMAT, NULL, "the secret key file has no 'seed: ' line of 64 hex digits");
        } else {
            char label[ARB_SEAL_LABEL_MAX] = "";
            if (l) {
                size_t n = strcspn(l + 8, "\r\n");
                if (n >= sizeof label) n = sizeof label - 1;
                memcpy(label, l + 8, n);
                label[n] = '\0';
            }
            rc = arb_seal_key_generate(k, seed, label, err);
            if (rc) arb_error_where(err, "%s", path);
        }
        sodium_memzero(seed, sizeof seed);
    } else {
        rc = arb_seal_key_parse_line(k, t, err);
        if (rc) arb_error_where(err, "%s: line 1", path);
    }
    sodium_memzero(t, strlen(t));
    free(t);
    return rc;
}

/* Add k, from origin ("FILE: line N", or NULL), unless the keyring then
 * names a signer ambiguously. */
static int keyring_put(arb_seal_keyring *kr, const arb_seal_key *k, const char *origin, arb_error *err)
{
    char id[17], id2[17];
    for (size_t i = 0; i < kr->n; i++) {
        const arb_seal_key *o = &kr->keys[i];
        const char *where = kr->origin && kr->origin[i] ? kr->origin[i] : "an earlier key";
        int same_key = memcmp(o->pk, k->pk, ARB_SEAL_PK_BYTES) == 0, same_label = strcmp(o->label, k->label) == 0;
        if (same_key && same_label) return ARB_OK; /* listed twice: one trusted key */
        if (same_key)
            return arb_error_set(err, ARB_EFORMAT, NULL,
                                 "key %s is labelled '%s' here and '%s' in %s: one key under two labels is "
                                 "ambiguous, refused", arb_seal_id_hex(k->id, id), k->label, o->label, where);
        if (same_label && k->label[0])
            return arb_error_set(err, ARB_EFORMAT, NULL,
                                 "label '%s' names key %s here and key %s in %s: two keys under one label are "
                                 "ambiguous, refused", k->label, arb_seal_id_hex(k->id, id),
                                 arb_seal_id_hex(o->id, id2), where);
    }
    if (kr->n >= 4096) return arb_error_set(err, ARB_ELIMIT, NULL, "more than 4096 trusted keys");
    if (kr->n == kr->cap) {
        size_t cap = kr->cap ? kr->cap * 2 : 8;
        arb_seal_key *nk = realloc(kr->keys, cap * sizeof *nk);
        if (!nk) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        kr->keys = nk;
        char **no = realloc(kr->origin, cap * sizeof *no);
        if (!no) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        kr->origin = no;
        kr->cap = cap;
    }
    kr->origin[kr->n] = origin ? strdup(origin) : NULL;
    if (origin && !kr->origin[kr->n]) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    kr->keys[kr->n] = *k;
    /* Only public halves are kept for checking. */
    sodium_memzero(kr->keys[kr->n].sk, sizeof kr->keys[kr->n].sk);
    kr->keys[kr->n].has_secret = 0;
    kr->n++;
    return ARB_OK;
}

int arb_seal_keyring_add(arb_seal_keyring *kr, const arb_seal_key *k, arb_error *err)
{
    return keyring_put(kr, k, NULL, err);
}

int arb_seal_keyring_add_file(arb_seal_keyring *kr, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, kr);
    ARB_ASSERT_ARG(err, path);
    char *t = slurp(path, 1 << 20, err);
    if (!t) return err->code;
    int rc = ARB_OK;
    if (strncmp(t, "arbiter-ed25519-secret-v1\n", 26) == 0) {
        free(t);
        arb_seal_key k;
        if ((rc = arb_seal_key_load(&k, path, err))) return rc;
        char origin[4200];
        snprintf(origin, sizeof origin, "%s", path);
        if ((rc = keyring_put(kr, &k, origin, err))) arb_error_where(err, "%s", path);
        sodium_memzero(&k, sizeof k);
        return rc;
    }
    unsigned line = 0, got = 0;
    for (char *p = t; *p && !rc;) {
        char *e = strchr(p, '\n');
        if (e) *e = '\0';
        line++;
        const char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (*q && *q != '#' && *q != '\r') {
            arb_seal_key k;
            char origin[4200];
            snprintf(origin, sizeof origin, "%s: line %u", path, line);
            rc = arb_seal_key_parse_line(&k, q, err);
            if (!rc) rc = keyring_put(kr, &k, origin, err);
            if (rc) arb_error_where(err, "%s", origin);
            got++;
        }
        p = e ? e + 1 : p + strlen(p);
    }
    free(t);
    if (!rc && !got) {
        arb_error_where(err, "%s", path);
        rc = arb_error_set(err, ARB_EFORMAT, NULL, "no public key in the keyring");
    }
    return rc;
}

void arb_seal_keyring_free(arb_seal_keyring *kr)
{
    for (size_t i = 0; kr->origin && i < kr->n; i++) free(kr->origin[i]);
    free(kr->origin);
    kr->origin = NULL;
    free(kr->keys);
    kr->keys = NULL;
    kr->n = kr->cap = 0;
}

const arb_seal_key *arb_seal_keyring_find(const arb_seal_keyring *kr, const uint8_t pk[ARB_SEAL_PK_BYTES])
{
    for (size_t i = 0; kr && i < kr->n; i++)
        if (memcmp(kr->keys[i].pk, pk, ARB_SEAL_PK_BYTES) == 0) return &kr->keys[i];
    return NULL;
}

int arb_seal_block_make(const arb_seal_key *k, const uint8_t digest[ARB_SEAL_DIGEST_BYTES],
                        uint8_t block[ARB_SEAL_BLOCK_BYTES], arb_error *err)
{
    if (!k->has_secret) return arb_error_set(err, ARB_EINVAL, NULL, "signing needs a secret key file (NAME.key, not NAME.key.pub)");
    memcpy(block, ARB_SEAL_MAGIC, 4);
    block[4] = ARB_SEAL_VERSION;
    block[5] = ARB_SEAL_ALG_ED25519;
    memcpy(block + 6, k->pk, ARB_SEAL_PK_BYTES);
    crypto_sign_detached(block + 6 + ARB_SEAL_PK_BYTES, NULL, digest, ARB_SEAL_DIGEST_BYTES, k->sk);
    return ARB_OK;
}

const char *arb_seal_status_name(arb_seal_status s)
{
    switch (s) {
    case ARB_SEAL_NONE: return "unsigned";
    case ARB_SEAL_VALID: return "valid";
    case ARB_SEAL_BAD: return "bad";
    case ARB_SEAL_MALFORMED: return "malformed";
    }
    return "unknown";
}

int arb_seal_block_form(const uint8_t *p, size_t n, char *why, size_t why_size)
{
    char dummy[8];
    if (!why) { why = dummy; why_size = sizeof dummy; }
    why[0] = '\0';
    if (n == 0) return 0;
    if (n < 6 || memcmp(p, ARB_SEAL_MAGIC, 4) != 0) {
        snprintf(why, why_size, "%zu byte(s) after the body are not a seal block (no SEAL magic, version and "
                 "algorithm): only a seal block may follow the body", n);
        return -1;
    }
    if (n > ARB_REPLAY_TRAILER_MAX) {
        snprintf(why, why_size, "%zu bytes follow the body, more than a seal block may hold (%d)", n,
                 ARB_REPLAY_TRAILER_MAX);
        return -1;
    }
    if (p[4] == ARB_SEAL_VERSION && p[5] == ARB_SEAL_ALG_ED25519 && n != ARB_SEAL_BLOCK_BYTES) {
        snprintf(why, why_size, "the seal block is %zu bytes, not %d", n, ARB_SEAL_BLOCK_BYTES);
        return -1;
    }
    return 0;
}

arb_seal_status arb_seal_block_check(const uint8_t *p, size_t n, const uint8_t digest[ARB_SEAL_DIGEST_BYTES],
                                     uint8_t pk[ARB_SEAL_PK_BYTES], char *why, size_t why_size)
{
    char dummy[8];
    if (!why) { why = dummy; why_size = sizeof dummy; }
    why[0] = '\0';
    if (n == 0) return ARB_SEAL_NONE;
    if (n < 4 || memcmp(p, ARB_SEAL_MAGIC, 4) != 0) {
        snprintf(why, why_size, "%zu byte(s) after the body are not a seal block (no SEAL magic)", n);
        return ARB_SEAL_MALFORMED;
    }
    if (n != ARB_SEAL_BLOCK_BYTES) {
        snprintf(why, why_size, "the seal block is %zu bytes, not %d", n, ARB_SEAL_BLOCK_BYTES);
        return ARB_SEAL_MALFORMED;
    }
    if (p[4] != ARB_SEAL_VERSION || p[5] != ARB_SEAL_ALG_ED25519) {
        snprintf(why, why_size, "seal version %u, algorithm %u: this reader knows version %d, algorithm %d (Ed25519)",
                 p[4], p[5], ARB_SEAL_VERSION, ARB_SEAL_ALG_ED25519);
        return ARB_SEAL_MALFORMED;
    }
    if (pk) memcpy(pk, p + 6, ARB_SEAL_PK_BYTES);
    if (sodium_init() < 0 ||
        crypto_sign_verify_detached(p + 6 + ARB_SEAL_PK_BYTES, digest, ARB_SEAL_DIGEST_BYTES, p + 6) != 0) {
        snprintf(why, why_size, "the Ed25519 signature does not verify: the file was changed after it was signed");
        return ARB_SEAL_BAD;
    }
    return ARB_SEAL_VALID;
}
