/* fuzz_archive.c — libFuzzer target for the archive reader (FORMAT.md Part
 * C): any byte string is opened as an archive (through a memfd path, as the
 * CLI opens one), its index checked against the frames or the frames walked,
 * the verdict taken, and every member (at most 64) opened through the
 * dictionary or primed models, read to its end (index counts checked there)
 * and verified. Built and run by `make fuzz`; seed corpus in
 * tests/fuzz/corpus_archive/ (small archives with and without their index,
 * zlib- and range-coded members, one signed). */
#define _GNU_SOURCE
#include "fuzz_util.h"

#include "arbiter/arbiter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    const char *path = fuzz_file(data, size);
    arb_error err = ARB_ERROR_INIT;
    arb_archive *a;
    if (arb_archive_open(&a, path, &err) != ARB_OK) return 0;
    const char *note;
    (void)arb_archive_index_state(a, &note);
    uint64_t off;
    (void)arb_archive_cut(a, &off);
    (void)arb_archive_unread(a, &off);
    arb_error_clear(&err);
    (void)arb_archive_verdict(a, &err);
    arb_replay_limits lim = ARB_REPLAY_LIMITS_INIT;
    lim.max_decompressed = 4u << 20;
    lim.max_header = 256u << 10;
    uint64_t n = arb_archive_count(a);
    for (uint64_t i = 0; i < n && i < 64; i++) {
        arb_replay *r;
        arb_error_clear(&err);
        if (arb_archive_open_member(&r, a, i, &lim, &err) != ARB_OK) continue;
        arb_replay_record rec;
        while (arb_replay_next(r, &rec, &err) == 1) {}
        arb_replay_close(r);
        arb_error_clear(&err);
        if (arb_archive_open_member(&r, a, i, &lim, &err) != ARB_OK) continue;
        arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
        vo.limits = lim;
        arb_verify_result res;
        arb_replay_verify(r, &vo, &res, &err);
        arb_replay_close(r);
    }
    arb_archive_close(a);
    return 0;
}
