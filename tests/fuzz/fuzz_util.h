/* fuzz_util.h — what the CLI-level fuzz targets share: the input as a file
 * (a memfd, reached as /proc/self/fd/N, so no temporary file is left), a
 * subcommand run in-process with stdout and stderr sent to /dev/null, and
 * the structure-aware .tcgr mutator (fuzz_stream, fuzz_analyze): a replay
 * is decompressed, its MessagePack stream mutated with libFuzzer's own
 * mutator and recompressed, so mutants get past zlib's checksum to the
 * header and record decoders (a mutated compressed byte almost never does). */
#ifndef ARBITER_FUZZ_UTIL_H
#define ARBITER_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"
#include "replay/internal.h"
#include "replay/rcbody.h"
#include "replay/primer.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static FILE *fuzz_null;

/* The input as a readable path; the same memfd is rewritten each time. */
__attribute__((unused)) static const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("fuzz-input", 0);
        if (fd < 0) abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) abort();
    return path;
}

/* Runs cmd_X(argc, argv) with stdout and stderr to /dev/null; returns its
 * exit code, which must be one of the documented ones (0..4). */
__attribute__((unused)) static int fuzz_run(int (*cmd)(int, char **), int argc, const char **argv)
{
    if (!fuzz_null) fuzz_null = fopen("/dev/null", "w");
    FILE *so = stdout, *se = stderr;
    stdout = fuzz_null;
    stderr = fuzz_null;
    int rc = cmd(argc, (char **)argv);
    fflush(fuzz_null);
    stdout = so;
    stderr = se;
    if (rc < 0 || rc > 4) {
        fprintf(stderr, "fuzz: %s exited %d, not a documented exit code\n", argv[0], rc);
        abort();
    }
    return rc;
}

#ifdef FUZZ_TCGR_MUTATOR
#define FUZZ_PLAIN_MAX (256u << 10)
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    static uint8_t plain[FUZZ_PLAIN_MAX];
    /* one mutant in 8 works on the raw bytes (envelope, zlib framing) */
    if (size < 10 || memcmp(data, "TCGR", 4) != 0 || seed % 8 == 0) return LLVMFuzzerMutate(data, size, max_size);
    if (data[4] == 2 && (data[5] & ARB_REPLAY_FLAG_RC)) {
        /* a range-coded body (FORMAT.md Part D): decode, mutate the
         * content, code it again (so mutants reach the record decoder
         * through a body whose CRC and lengths are right) */
        arb_rc_model m;
        uint8_t *c = NULL, *z = NULL;
        size_t cn = 0, hl = 0, used, zn = 0;
        /* from the primer byte 6 names (§D.8), if this build has it */
        const arb_rc_model *pm = data[6] ? arb_rc_primer_model(data[6]) : NULL;
        if (arb_rc_model_init(&m) || (pm && arb_rc_model_copy(&m, pm))) {
            arb_rc_model_free(&m);
            return LLVMFuzzerMutate(data, size, max_size);
        }
        int ok = !arb_rc_decode_all(&m, data + 8, size - 8, data[5] & 1, sizeof plain / 2, &c, &cn, &hl, &used) &&
                 cn > 0;
        if (ok) {
            memcpy(plain, c, cn);
            free(c);
            size_t n = LLVMFuzzerMutate(plain, cn, sizeof plain);
            arb_replay_limits lim;
            arb_replay__limits(&lim, NULL);
            const char *what;
            size_t mh = hl;
            if (arb_replay__mp_measure(plain, n, &lim, &mh, &what) != ARB_MP_OK || mh > n) mh = hl <= n ? hl : n;
            arb_rc_model_reset(&m);
            if (pm && arb_rc_model_copy(&m, pm)) ok = 0;
            ok = ok && !arb_rc_encode(&m, plain, n, mh, data[5] & 1, &z, &zn) && 8 + zn <= max_size;
            if (ok) memcpy(data + 8, z, zn);
            free(z);
        }
        arb_rc_model_free(&m);
        return ok ? 8 + zn : LLVMFuzzerMutate(data, size, max_size);
    }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK) return LLVMFuzzerMutate(data, size, max_size);
    zs.next_in = data + 8;
    zs.avail_in = (uInt)(size - 8);
    zs.next_out = plain;
    zs.avail_out = sizeof plain / 2;
    int zr = inflate(&zs, Z_FINISH);
    size_t n = sizeof plain / 2 - zs.avail_out;
    inflateEnd(&zs);
    if ((zr != Z_STREAM_END && zr != Z_BUF_ERROR && zr != Z_OK) || n == 0) return LLVMFuzzerMutate(data, size, max_size);
    n = LLVMFuzzerMutate(plain, n, sizeof plain);
    uLongf out = compressBound((uLong)n);
    uint8_t *z = malloc(out);
    if (!z) return LLVMFuzzerMutate(data, size, max_size);
    if (compress2(z, &out, plain, (uLong)n, (int)(seed >> 3) % 10) != Z_OK || 8 + out > max_size) {
        free(z);
        return LLVMFuzzerMutate(data, size, max_size);
    }
    memcpy(data + 8, z, out); /* the 8-byte envelope is kept */
    free(z);
    return 8 + out;
}
#endif

#endif
