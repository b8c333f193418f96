/* seal_file.c — sealing after the fact (`arbiter sign`) and the writer's
 * seal hook: a finished format-2 file keeps its body byte for byte and gets
 * a seal block over its content digest; a truncated one (a recovered .part)
 * has its complete records re-deflated into a finished body, so the seal
 * covers exactly the prefix that survived. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "arbiter/outfile.h"
#include "arbiter/seal.h"
#include "replay/internal.h"

int arb_seal_writer_hook(void *ctx, const uint8_t envelope[8], const uint8_t digest[ARB_SEAL_DIGEST_BYTES],
                         uint8_t *out, size_t cap, size_t *n, arb_error *err)
{
    (void)envelope;
    if (cap < ARB_SEAL_BLOCK_BYTES) return arb_error_set(err, ARB_EINVAL, NULL, "no room for the seal block");
    int rc = arb_seal_block_make(ctx, digest, out, err);
    if (!rc) *n = ARB_SEAL_BLOCK_BYTES;
    return rc;
}

static uint8_t *load(const char *path, size_t *len, arb_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    for (;;) {
        if (!b) break;
        if (n == cap) {
            uint8_t *nb = cap < ((size_t)1 << 31) ? realloc(b, cap * 2) : NULL;
            if (!nb) { free(b); b = NULL; break; }
            b = nb;
            cap *= 2;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    fclose(f);
    if (!b) arb_error_set(err, ARB_ENOMEM, NULL, "out of memory reading %s", path);
    *len = n;
    return b;
}

/* The first want decompressed bytes of a (possibly unfinished) body. */
static uint8_t *inflate_prefix(const uint8_t *body, size_t n, size_t want, arb_error *err)
{
    uint8_t *out = malloc(want ? want : 1);
    if (!out) { arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); return NULL; }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK) { free(out); arb_error_set(err, ARB_ENOMEM, NULL, "zlib"); return NULL; }
    zs.next_in = (Bytef *)(uintptr_t)body;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)want;
    while (zs.avail_out) {
        int zr = inflate(&zs, Z_SYNC_FLUSH);
        if (zr != Z_OK) break;
    }
    inflateEnd(&zs);
    if (zs.avail_out) {
        free(out);
        arb_error_set(err, ARB_EFORMAT, NULL, "the body does not inflate to its complete records");
        return NULL;
    }
    return out;
}

int arb_seal_file(const char *path, const char *out, const arb_seal_key *k, arb_seal_file_info *info,
                  arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    ARB_ASSERT_ARG(err, out);
    memset(info, 0, sizeof *info);
    if (!k->has_secret) return arb_error_set(err, ARB_EINVAL, NULL, "signing needs a secret key file (NAME.key)");
    arb_replay *r;
    int rc = arb_replay_open(&r, path, NULL, err);
    if (rc) return rc;
    const arb_replay_header *h = arb_replay_get_header(r);
    if (h->version == 1) {
        arb_replay_close(r);
        arb_error_where(err, "%s: offset 4", path);
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL,
                             "format version 1 has no seal block; only version-2 files can be signed");
    }
    if (h->flags & ARB_REPLAY_FLAG_ARCHIVE) {
        arb_replay_close(r);
        arb_error_where(err, "%s: offset 5", path);
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL,
                             "an archive: sign its matches one by one (arbiter extract, then sign)");
    }
    arb_replay_record rec;
    arb_error e = ARB_ERROR_INIT;
    while ((rc = arb_replay_next(r, &rec, &e)) == 1) {}
    arb_replay_status st;
    arb_replay_get_status(r, &st);
    info->records = st.records;
    uint8_t env[8], dg[ARB_SEAL_DIGEST_BYTES], block[ARB_SEAL_BLOCK_BYTES];
    arb_replay_envelope(r, env);
    const uint8_t *tr;
    size_t ntr = 0;
    uint64_t body_end = 0;
    int finished = rc == 0 && arb_replay_sealable(r, dg, &tr, &ntr, &body_end);
    if (!finished && rc != ARB_ETRUNC) {
        arb_replay_close(r);
        *err = e;
        return rc ? rc : arb_error_set(err, ARB_EFORMAT, NULL, "%s: the body cannot be read", path);
    }
    info->replaced = finished && ntr > 0;
    uint64_t good = st.good_offset;
    arb_replay_close(r);
    size_t len;
    uint8_t *file = load(path, &len, err);
    if (!file) return err->code;
    info->bytes_before = len;
    uint8_t *z = NULL;
    size_t zn = 0;
    if (finished) {
        z = NULL;
        zn = (size_t)body_end - 8;
    } else {
        /* a .part: its complete records, as a finished body */
        info->prefix = 1;
        uint8_t *content = inflate_prefix(file + 8, len - 8, (size_t)good, err);
        if (!content) {
            free(file);
            arb_error_where(err, "%s", path);
            return err->code;
        }
        arb_seal_hasher hs;
        arb_seal_hasher_init(&hs, env);
        arb_seal_hasher_update(&hs, content, (size_t)good);
        arb_seal_hasher_final(&hs, dg);
        rc = arb_replay__deflate_once(content, (size_t)good, ARB_REPLAY_LEVEL_FINAL, NULL, 0, &z, &zn, err);
        free(content);
        if (rc) { free(file); return rc; }
    }
    if ((rc = arb_seal_block_make(k, dg, block, err))) { free(file); free(z); return rc; }
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp) {
        free(file);
        free(z);
        return arb_error_set(err, ARB_EINVAL, NULL, "output path too long");
    }
    /* into another file (a .part's sealed prefix, to NAME): that name must
     * not exist, a dangling link included; a file sealed in place is
     * replaced */
    unsigned of = strcmp(out, path) ? ARB_OUT_NOREPLACE : 0;
    FILE *f = arb_out_create(out, tmp, 0666, of, err);
    int ok = f && fwrite(env, 1, 8, f) == 8 && fwrite(z ? z : file + 8, 1, zn, f) == zn &&
             fwrite(block, 1, sizeof block, f) == sizeof block;
    int en = errno;
    free(file);
    free(z);
    if (!f) return err->code;
    if (!ok) {
        arb_out_discard(f, tmp);
        arb_error_where(err, "%s", out);
        return arb_error_set(err, ARB_EIO, NULL, "cannot write the sealed file: %s", strerror(en));
    }
    if ((rc = arb_out_install(f, tmp, out, of, err))) return rc;
    info->bytes_after = 8 + zn + sizeof block;
    return ARB_OK;
}
