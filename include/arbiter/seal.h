/* arbiter/seal.h — sealed replays: Ed25519 keys (libsodium), the digest a
 * seal signs, the seal block appended to a format-2 file, and keyrings of
 * trusted public keys. The byte formats are in replays/FORMAT.md
 * ("Sealing"): the seal signs BLAKE2b-512(domain || envelope || CONTENT),
 * CONTENT being the decompressed body, so every byte of a file is covered.
 *
 * Key files are text. A secret key file (mode 0600):
 *     arbiter-ed25519-secret-v1
 *     label: LABEL
 *     seed: 64 hex digits (the Ed25519 seed; the key pair derives from it)
 * and its public half (NAME.pub), one line, the same as a keyring line:
 *     arbiter-ed25519 PUBLIC-64-HEX KEY-ID-16-HEX LABEL */
#ifndef ARBITER_SEAL_H
#define ARBITER_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_SEAL_DOMAIN "arbiter-tcgr-seal-v2"  /* the digest's first bytes */
#define ARB_SEAL_MAGIC "SEAL"
#define ARB_SEAL_VERSION 1
#define ARB_SEAL_ALG_ED25519 1
#define ARB_SEAL_PK_BYTES 32
#define ARB_SEAL_SIG_BYTES 64
#define ARB_SEAL_ID_BYTES 8
#define ARB_SEAL_DIGEST_BYTES 64
#define ARB_SEAL_DIGEST ARB_SEAL_DIGEST_BYTES
/* magic(4) version(1) algorithm(1) public key(32) signature(64) */
#define ARB_SEAL_BLOCK_BYTES 102
#define ARB_SEAL_LABEL_MAX 64

/* The running digest: BLAKE2b-512 over the domain string, the 8 envelope
 * bytes and then every CONTENT byte in order. */
typedef struct {
    _Alignas(64) unsigned char opaque[384];
} arb_seal_hasher;

void arb_seal_hasher_init(arb_seal_hasher *h, const unsigned char envelope[8]);
void arb_seal_hasher_update(arb_seal_hasher *h, const void *p, size_t n);
void arb_seal_hasher_final(arb_seal_hasher *h, unsigned char digest[64]);

typedef struct arb_seal_key {
    uint8_t pk[ARB_SEAL_PK_BYTES];
    uint8_t sk[64];             /* libsodium's secret key (seed || pk) */
    int has_secret;
    uint8_t id[ARB_SEAL_ID_BYTES];
    char label[ARB_SEAL_LABEL_MAX];
} arb_seal_key;

/* Key id: the first 8 bytes of BLAKE2b-256(public key). */
void arb_seal_key_id(const uint8_t pk[ARB_SEAL_PK_BYTES], uint8_t id[ARB_SEAL_ID_BYTES]);
/* 16 lowercase hex digits + NUL. */
const char *arb_seal_id_hex(const uint8_t id[ARB_SEAL_ID_BYTES], char buf[17]);

/* A new key pair from the system's randomness (seed NULL) or from a
 * 32-byte seed (tests, test vectors). label may be NULL. */
int arb_seal_key_generate(arb_seal_key *k, const uint8_t *seed, const char *label, arb_error *err);
/* Write the secret key to path (created 0600, never over an existing file)
 * and the public key to path.pub. */
int arb_seal_key_save(const arb_seal_key *k, const char *path, arb_error *err);
/* Read a secret key file or a public key file (one keyring line). */
int arb_seal_key_load(arb_seal_key *k, const char *path, arb_error *err);
/* One public-key line "arbiter-ed25519 PK ID LABEL" (ID must match PK). */
int arb_seal_key_parse_line(arb_seal_key *k, const char *line, arb_error *err);

typedef struct arb_seal_keyring {
    arb_seal_key *keys;
    size_t n, cap;
    char **origin;              /* per key: "FILE: line N" it came from (NULL: added in code) */
} arb_seal_keyring;

/* Append the keys of a keyring file (public-key lines; blank and '#' lines
 * ignored) or of a single key file. Errors name the file and line. Only a
 * regular file of at most 1 MiB is read (a FIFO, directory or device is
 * refused at once, never waited on). Labels are valid UTF-8 without control
 * or bidi characters. A keyring is unambiguous: two keys under one label, or
 * one key under two labels, are refused with a message naming both lines
 * (the same key twice under the same label is kept once). */
int arb_seal_keyring_add_file(arb_seal_keyring *kr, const char *path, arb_error *err);
int arb_seal_keyring_add(arb_seal_keyring *kr, const arb_seal_key *k, arb_error *err);
void arb_seal_keyring_free(arb_seal_keyring *kr);
/* The trusted key with this public key, or NULL. */
const arb_seal_key *arb_seal_keyring_find(const arb_seal_keyring *kr, const uint8_t pk[ARB_SEAL_PK_BYTES]);

/* The seal block over digest, signed with k (which must hold a secret). */
int arb_seal_block_make(const arb_seal_key *k, const uint8_t digest[ARB_SEAL_DIGEST_BYTES],
                        uint8_t block[ARB_SEAL_BLOCK_BYTES], arb_error *err);

typedef enum arb_seal_status {
    ARB_SEAL_NONE = 0,          /* no seal block: unsigned */
    ARB_SEAL_VALID,             /* the signature is good for the key in the block */
    ARB_SEAL_BAD,               /* a seal block whose signature does not verify */
    ARB_SEAL_MALFORMED          /* bytes after the body that are not a seal block */
} arb_seal_status;

const char *arb_seal_status_name(arb_seal_status s);

/* Check the bytes after a body: n == 0 is ARB_SEAL_NONE; else they must be
 * exactly one seal block whose signature verifies over digest. pk (may be
 * NULL) receives the block's public key; why (may be NULL) a sentence. */
arb_seal_status arb_seal_block_check(const uint8_t *p, size_t n, const uint8_t digest[ARB_SEAL_DIGEST_BYTES],
                                     uint8_t pk[ARB_SEAL_PK_BYTES], char *why, size_t why_size);

/* The form every reader checks (FORMAT.md §B.1): after a body there is
 * nothing, or one seal block — the magic "SEAL", a version byte and an
 * algorithm byte; a version-1 Ed25519 block is exactly
 * ARB_SEAL_BLOCK_BYTES. 0 when p[0..n) has that form, else -1 and why
 * (may be NULL) says what is wrong: the file is corrupt. A block of a
 * version or algorithm this reader does not know has the form; only a
 * verifier cares (arb_seal_block_check: ARB_SEAL_MALFORMED). */
int arb_seal_block_form(const uint8_t *p, size_t n, char *why, size_t why_size);

/* The v2 writer's seal hook (arb_replay_meta.seal, ctx = a secret
 * arb_seal_key): writes the seal block over the content digest. */
int arb_seal_writer_hook(void *ctx, const uint8_t envelope[8], const uint8_t digest[ARB_SEAL_DIGEST_BYTES],
                         uint8_t *out, size_t cap, size_t *n, arb_error *err);

typedef struct arb_seal_file_info {
    int prefix;                 /* the input was truncated (a .part): its complete
                                   records were written as a finished, sealed prefix */
    int replaced;               /* the input carried a seal block, now replaced */
    uint64_t records;           /* records in the sealed content */
    uint64_t bytes_before, bytes_after;
} arb_seal_file_info;

/* Seal a format-2 replay with k: the body is kept byte for byte and the
 * seal block appended (or replaced); a truncated file (a recovered .part)
 * has its complete records re-deflated into a finished body first. The
 * result goes to out, written to out.tmp (arbiter/outfile.h): out equal to
 * path is replaced; any other out must not exist (not even as a dangling
 * symbolic link), so a sealed prefix never overwrites a file.
 * Format 1 and archives are refused (ARB_EUNSUPPORTED). */
int arb_seal_file(const char *path, const char *out, const arb_seal_key *k, arb_seal_file_info *info,
                  arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
