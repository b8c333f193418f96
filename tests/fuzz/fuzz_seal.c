/* fuzz_seal.c — libFuzzer target for the seal path (FORMAT.md §15, §B.1):
 * the first byte picks what the rest is. 0: a public-key line
 * (arb_seal_key_parse_line); 1: a keyring file (arb_seal_keyring_add_file,
 * through a memfd path); 2: the bytes after a body (arb_seal_block_form and
 * arb_seal_block_check against a fixed digest); otherwise: a whole v2 file
 * verified under a trusted key (the format's test key, seed 00 01 … 1f), so
 * the reader's trailer rule, the digest and the signature check all run on
 * hostile bytes. Built and run by `make fuzz`; seed corpus in
 * tests/fuzz/corpus_seal/ (the signed sample, key lines, seal blocks). */
#define _GNU_SOURCE
#include "fuzz_util.h"

#include "arbiter/arbiter.h"
#include "arbiter/seal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    uint8_t mode = data[0];
    data++;
    size--;
    arb_error err = ARB_ERROR_INIT;
    if (mode == 0) {
        char line[4096];
        size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
        memcpy(line, data, n);
        line[n] = '\0';
        arb_seal_key k;
        (void)arb_seal_key_parse_line(&k, line, &err);
        return 0;
    }
    if (mode == 1) {
        arb_seal_keyring kr = { 0 };
        (void)arb_seal_keyring_add_file(&kr, fuzz_file(data, size), &err);
        arb_seal_keyring_free(&kr);
        return 0;
    }
    if (mode == 2) {
        uint8_t digest[ARB_SEAL_DIGEST_BYTES] = { 0 }, pk[ARB_SEAL_PK_BYTES];
        char why[200];
        (void)arb_seal_block_form(data, size, why, sizeof why);
        (void)arb_seal_block_check(data, size, digest, pk, why, sizeof why);
        return 0;
    }
    static arb_seal_keyring trusted;
    if (!trusted.n) {
        uint8_t seed[32];
        for (int i = 0; i < 32; i++) seed[i] = (uint8_t)i;
        arb_seal_key k;
        if (arb_seal_key_generate(&k, seed, "format-test-vector", &err) || arb_seal_keyring_add(&trusted, &k, &err))
            abort();
    }
    arb_replay_limits lim = ARB_REPLAY_LIMITS_INIT;
    lim.max_decompressed = 4u << 20;
    lim.max_header = 256u << 10;
    arb_replay *r;
    if (arb_replay_open_mem(&r, data, size, "fuzz.tcgr", &lim, &err) == ARB_OK) {
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        vo.limits = lim;
        vo.trusted = &trusted;
        arb_verify_result res;
        arb_replay_verify(r, &vo, &res, &err);
        arb_replay_close(r);
    }
    return 0;
}
