/* fuzz_replay.c — libFuzzer target for the .tcgr reader and verifier: any
 * byte string is opened from memory under tight limits, every record is
 * read, and when the header names a compiled-in game the whole file is
 * verified against it (so hostile actions reach the engines too). Built and
 * run by `make fuzz` (clang, -fsanitize=fuzzer,address,undefined); seed
 * corpus in tests/fuzz/corpus_replay/. */
#include <stddef.h>
#include <stdint.h>

#include "arbiter/arbiter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    arb_replay_limits lim = ARB_REPLAY_LIMITS_INIT;
    lim.max_decompressed = 4u << 20;
    lim.max_header = 256u << 10;
    arb_error err = ARB_ERROR_INIT;
    arb_replay *r;
    if (arb_replay_open_mem(&r, data, size, "fuzz.tcgr", &lim, &err) == ARB_OK) {
        arb_replay_record rec;
        while (arb_replay_next(r, &rec, &err) == 1) {}
        arb_replay_close(r);
    }
    if (arb_replay_open_mem(&r, data, size, "fuzz.tcgr", &lim, &err) == ARB_OK) {
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        vo.limits = lim;
        arb_verify_result res;
        arb_replay_verify(r, &vo, &res, &err);
        arb_replay_close(r);
    }
    return 0;
}
