/* fuzz_stream.c — structure-aware libFuzzer target for the .tcgr reader
 * and verifier. fuzz_replay mutates the compressed bytes, and zlib's
 * Adler-32 rejects nearly every such mutant before the MessagePack layer;
 * here LLVMFuzzerCustomMutator (fuzz_util.h) decompresses the replay,
 * mutates the MessagePack stream (header map, records) and recompresses it,
 * so hostile headers, records, actions and outcomes reach the decoder and
 * the engines. Every record is read, the file is verified, and the reader's
 * status must agree with what was read. Seeds: tests/fuzz/corpus_stream/. */
#define _GNU_SOURCE
#define FUZZ_TCGR_MUTATOR
#include "fuzz_util.h"

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
        uint64_t n = 0;
        int rc;
        while ((rc = arb_replay_next(r, &rec, &err)) == 1) n++;
        arb_replay_status st;
        arb_replay_get_status(r, &st);
        if (st.records != n) {
            fprintf(stderr, "fuzz_stream: status says %llu records, %llu were read\n", (unsigned long long)st.records,
                    (unsigned long long)n);
            abort();
        }
        if (rc < 0 && !err.where[0]) abort(); /* every error names where */
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
