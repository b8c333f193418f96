/* reader.c — the streaming, bounded .tcgr reader. It inflates the zlib
 * stream into a window, sizes each object before using it (every count,
 * length and depth checked against the limits and against the bytes
 * actually present), and hands out records one at a time, so memory stays
 * flat whatever the replay's length. When the input ends inside the stream
 * every complete record before that point is still returned, and the end
 * is reported as ARB_ETRUNC with the file offset. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "arbiter/seal.h"
#include "arbiter/text.h"
#include "replay/internal.h"
#include "replay/rec2.h"
#include "replay/rcbody.h"
#include "replay/primer.h"

#define IN_CAP (64 * 1024)
#define WIN_MIN (64 * 1024)

struct arb_replay {
    char name[200];
    FILE *f;
    const uint8_t *mem;
    size_t mem_len, mem_pos;
    arb_replay_limits lim;
    z_stream zs;
    int zinit, in_eof, z_end, failed;
    /* deflate's padding bits (arb_replay__zpad): the start of the input
     * buffer, the last byte taken from the one before */
    const uint8_t *zin0;
    uint8_t zlast;
    arb_replay__zpad zpad;
    uint8_t *in;
    uint8_t *win;
    size_t cap, start, end;     /* window: unread bytes are win[start..end) */
    uint64_t base;              /* decompressed offset of win[0] */
    uint64_t file_bytes;        /* compressed bytes read (envelope included) */
    arb_replay_status st;
    arb_replay_header h;
    arb_tree *tree;
    /* Bounded work (FORMAT.md §8.1): no checkpoint without an action since the last, a bounded
     * run of unknown records. */
    int have_cp;
    uint64_t cp_index, actions_since_cp, unknown_run;
    uint32_t max_actions;       /* the limit, or the header's game's bound */
    /* version 2 */
    uint8_t env[ARB_REPLAY_ENVELOPE];
    int v2, have_digest;
    arb_r2_state cs;            /* the record coding state */
    const arb_game *pool;       /* the engine of exactly this rules version, or NULL */
    const uint8_t *dict;        /* archive members: the preset dictionary */
    size_t dict_len;
    uint64_t body_end;          /* file offset where the body (zlib stream) ends */
    size_t ntrailer;
    arb_seal_hasher hs;
    uint8_t digest[ARB_REPLAY_DIGEST];
    uint8_t trailer[ARB_REPLAY_TRAILER_MAX];
    void *own[2];               /* buffers this reader frees (archive members) */
    uint8_t *file_buf;          /* a small file read whole (arb_replay_open) */
    arb_replay__decks dk;       /* version 2's deck indices */
    /* a range-coded body (FORMAT.md Part D) */
    int rc;
    arb_rc_dec dec;
    arb_rc_model model;
    const arb_rc_model *prime;  /* archive members: copied at open */
    arb_error ioerr;            /* a read error met while decoding */
    int io_failed, rc_bad;      /* that error happened; the CRC-32 failed */
    /* arb_replay__open_keep: every content byte is also kept here (a member
     * made from a standalone file needs the content as written) */
    int keeping, keep_failed;
    uint64_t hlen_kept;         /* the header's length in the content */
    uint8_t *keep;
    size_t keep_n, keep_cap;
    int trailer_bad;            /* what follows the body is not a seal block */
    int idx_check;              /* an archive member whose index entry is checked at its end */
    uint64_t idx_member, idx_content, idx_actions;
    arb_error trailer_err;      /* ... and the error that says so */
    /* the header was decoded without its tree (arb_replay__header_decode_lazy):
     * its bytes, for arb_replay_get_header to build it from */
    int tree_pending;
    uint8_t *hdr_raw;
};

/* Content bytes as they are decoded (version 2): hashed for the seal and,
 * when asked, kept. */
static void content_seen(arb_replay *r, const uint8_t *p, size_t n)
{
    arb_seal_hasher_update(&r->hs, p, n);
    if (!r->keeping || r->keep_failed) return;
    if (r->keep_cap - r->keep_n < n) {
        size_t nc = r->keep_cap ? r->keep_cap : 4096;
        while (nc - r->keep_n < n) nc *= 2;
        uint8_t *nk = realloc(r->keep, nc);
        if (!nk) {
            r->keep_failed = 1;
            return;
        }
        r->keep = nk;
        r->keep_cap = nc;
    }
    memcpy(r->keep + r->keep_n, p, n);
    r->keep_n += n;
}

/* At most this many unknown records in a row (between two known ones). */
#define UNKNOWN_RUN_MAX 16
void arb_replay__own(arb_replay *r, void *a, void *b)
{
    r->own[0] = a;
    r->own[1] = b;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int fail_at(arb_replay *r, arb_error *err, int code, uint64_t off, const char *fmt, ...)
{
    char msg[ARB_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->failed = code;
    arb_error_where(err, "%s: offset %llu", r->name, (unsigned long long)off);
    return arb_error_set(err, code, NULL, "%s", msg);
}

/* Read more compressed input. */
static int read_in(arb_replay *r, arb_error *err)
{
    size_t n;
    if (r->zs.next_in && r->zs.next_in > r->zin0) r->zlast = r->zs.next_in[-1];
    if (r->f) {
        n = fread(r->in, 1, IN_CAP, r->f);
        if (n == 0 && ferror(r->f))
            return fail_at(r, err, ARB_EIO, r->file_bytes, "read failed: %s", strerror(errno));
        r->zs.next_in = r->in;
    } else {
        n = r->mem_len - r->mem_pos;
        if (n > IN_CAP) n = IN_CAP;
        r->zs.next_in = n ? (Bytef *)(uintptr_t)(r->mem + r->mem_pos) : r->zs.next_in;
        r->mem_pos += n;
    }
    r->zs.avail_in = (uInt)n;
    r->zin0 = r->zs.next_in;
    r->file_bytes += n;
    if (n == 0) r->in_eof = 1;
    return ARB_OK;
}

/* Deflate's padding bits (internal.h): the k unused bits of the last byte
 * taken begin the next block's header (bit 0 final, bits 1-2 the type, 0
 * for stored, whose padding runs to the byte's end), or after the last
 * block are padding only. */
int arb_replay__zpad_at(arb_replay__zpad *p, int data_type, uint8_t last)
{
    unsigned k = (unsigned)data_type & 7, hi = k ? (unsigned)last >> (8 - k) : 0;
    if (data_type & 64) return hi != 0;
    if (k >= 3) return ((hi >> 1) & 3) == 0 && (hi >> 3) != 0;
    p->pend = 1; /* the header reaches into the next byte */
    p->k = (uint8_t)k;
    p->hi = (uint8_t)hi;
    return 0;
}

int arb_replay__zpad_next(arb_replay__zpad *p, uint8_t next)
{
    unsigned v = p->hi | (unsigned)next << p->k;
    p->pend = 0;
    return ((v >> 1) & 3) == 0 && (v >> 3) != 0;
}

/* Compressed offset of the next byte zlib would read. */
static uint64_t zoff(const arb_replay *r) { return r->file_bytes - r->zs.avail_in; }

/* The body ended at zoff(r): only a seal block may follow a version-2
 * body: collect it (bounded) for the verifier. */
static int body_ended(arb_replay *r, arb_error *err)
{
    r->z_end = 1;
    r->st.ended = 1;
    r->body_end = zoff(r);
    arb_seal_hasher_final(&r->hs, r->digest);
    r->have_digest = 1;
    for (;;) {
        size_t k = r->zs.avail_in;
        if (k > ARB_REPLAY_TRAILER_MAX - r->ntrailer) {
            fail_at(r, &r->trailer_err, ARB_EFORMAT, r->body_end,
                    "more than %d bytes follow the body: only a seal block may", ARB_REPLAY_TRAILER_MAX);
            r->trailer_bad = 1;
            *err = r->trailer_err;
            return ARB_EFORMAT;
        }
        if (k) memcpy(r->trailer + r->ntrailer, r->zs.next_in, k);
        r->ntrailer += k;
        r->zs.avail_in = 0;
        if (r->in_eof) break;
        int rc = read_in(r, err);
        if (rc) return rc;
    }
    /* One rule for every reader (FORMAT.md §B.1): what follows the body is
     * nothing or one seal block; anything else makes the file corrupt. */
    char why[160];
    if (arb_seal_block_form(r->trailer, r->ntrailer, why, sizeof why)) {
        fail_at(r, &r->trailer_err, ARB_EFORMAT, r->body_end, "%s", why);
        r->trailer_bad = 1;
        *err = r->trailer_err;
        return ARB_EFORMAT;
    }
    return ARB_OK;
}

/* The range decoder's input: the reader's input buffer, refilled. */
static int rc_fill(void *ctx, const uint8_t **p, const uint8_t **e)
{
    arb_replay *r = ctx;
    r->zs.avail_in = 0;
    if (r->in_eof || r->io_failed) return 0;
    arb_error e2 = ARB_ERROR_INIT;
    if (read_in(r, &e2)) {
        r->ioerr = e2;
        r->io_failed = 1;
        return 0;
    }
    *p = r->zs.next_in;
    *e = *p + r->zs.avail_in;
    return r->zs.avail_in > 0;
}

static void rc_in_begin(arb_replay *r)
{
    r->dec.p = r->zs.next_in;
    r->dec.e = r->dec.p ? r->dec.p + r->zs.avail_in : NULL;
}

static void rc_in_end(arb_replay *r)
{
    r->zs.next_in = (Bytef *)(uintptr_t)r->dec.p;
    r->zs.avail_in = (uInt)(r->dec.e - r->dec.p);
}

/* more() for a range-coded body: decode content bytes into the window;
 * after the last one, the CRC-32 and what follows the body. */
static int more_rc(arb_replay *r, arb_error *err)
{
    arb_rc_dec *d = &r->dec;
    if (r->rc_bad) return arb_error_set(err, ARB_EFORMAT, NULL, "the range-coded body is corrupt (CRC-32)");
    size_t room = r->cap - r->end;
    if (room > 16384) room = 16384;
    rc_in_begin(r);
    size_t got = arb_rc_dec_bytes(d, r->win + r->end, room);
    rc_in_end(r);
    if (r->io_failed) {
        *err = r->ioerr;
        return err->code ? err->code : ARB_EIO;
    }
    if (d->cut == 2) return fail_at(r, err, ARB_ENOMEM, zoff(r), "out of memory decoding the range-coded body");
    if (got) {
        content_seen(r, r->win + r->end, got);
        r->end += got;
        r->st.decompressed += got;
    }
    if (d->over) {
        r->rc_bad = 1;
        return fail_at(r, err, ARB_EFORMAT, zoff(r),
                       "the range decoder needs more than the body's %llu coded bytes: the body is corrupt",
                       (unsigned long long)d->limit);
    }
    if (d->cut || d->done < d->tok.clen) return (int)(got > 0);
    /* the content is complete: final normalisation, then the CRC-32 */
    rc_in_begin(r);
    int cut = arb_rc_dec_finish(d);
    if (cut == 2) {
        rc_in_end(r);
        r->rc_bad = 1;
        return fail_at(r, err, ARB_EFORMAT, zoff(r),
                       "the range-coded body does not end where its length (%llu coded bytes) says: corrupt",
                       (unsigned long long)d->limit);
    }
    if (cut == 3) {
        rc_in_end(r);
        r->rc_bad = 1;
        return fail_at(r, err, ARB_EFORMAT, zoff(r) - (d->pad < 4 ? 4 - d->pad : 0),
                       "the range-coded body's last coded bytes are not the flush FORMAT.md D.2 writes "
                       "(other bytes that decode alike): corrupt");
    }
    uint32_t crc = 0;
    for (int i = 0; i < 4 && !cut; i++) {
        if (d->p == d->e && !rc_fill(r, &d->p, &d->e)) cut = 1;
        else crc |= (uint32_t)*d->p++ << (8 * i);
    }
    rc_in_end(r);
    if (r->io_failed) {
        *err = r->ioerr;
        return err->code ? err->code : ARB_EIO;
    }
    if (cut) {
        d->cut = 1;
        return (int)(got > 0);
    }
    if (crc != d->crc) {
        r->rc_bad = 1;
        return fail_at(r, err, ARB_EFORMAT, zoff(r) - 4,
                       "the range-coded body's CRC-32 (%08x) does not match its content (%08x): corrupt", crc, d->crc);
    }
    int rc = body_ended(r, err);
    return rc ? rc : (int)(got > 0);
}

/* Make room and inflate more into the window. Returns >0 bytes produced,
 * 0 when nothing more can come (stream ended or input ended), <0 error.
 * want: bytes the caller needs present from start (the window may grow to
 * hold them, up to the limit the caller checked). */
static int more(arb_replay *r, size_t want, arb_error *err)
{
    if (r->z_end) return 0;
    if (r->start > 0 && (r->cap - r->end < WIN_MIN / 4 || r->start == r->end)) {
        memmove(r->win, r->win + r->start, r->end - r->start);
        r->base += r->start;
        r->end -= r->start;
        r->start = 0;
    }
    if (r->cap == r->end || r->cap - r->start < want) {
        size_t ncap = r->cap * 2;
        while (ncap < want + WIN_MIN / 4) ncap *= 2;
        uint8_t *nw = realloc(r->win, ncap);
        if (!nw) return fail_at(r, err, ARB_ENOMEM, r->file_bytes, "out of memory (%zu bytes)", ncap);
        r->win = nw;
        r->cap = ncap;
    }
    if (r->rc) return more_rc(r, err);
    for (;;) {
        if (r->zs.avail_in == 0 && !r->in_eof) {
            int rc = read_in(r, err);
            if (rc) return rc;
        }
        if (r->zpad.pend && r->zs.avail_in && arb_replay__zpad_next(&r->zpad, r->zs.next_in[0]))
            return fail_at(r, err, ARB_EFORMAT, zoff(r),
                           "a stored deflate block's padding bits are not zero: corrupt (a changed file that would "
                           "inflate alike)");
        r->zs.next_out = r->win + r->end;
        r->zs.avail_out = (uInt)(r->cap - r->end);
        int zr = inflate(&r->zs, r->v2 ? Z_BLOCK : Z_NO_FLUSH);
        if (r->v2 && (zr == Z_OK || zr == Z_STREAM_END) && (r->zs.data_type & 128) &&
            arb_replay__zpad_at(&r->zpad, r->zs.data_type, r->zs.next_in > r->zin0 ? r->zs.next_in[-1] : r->zlast))
            return fail_at(r, err, ARB_EFORMAT, zoff(r) ? zoff(r) - 1 : 0,
                           "deflate padding bits are not zero: corrupt (a changed file that would inflate alike)");
        if (zr == Z_NEED_DICT && r->dict) {
            if (inflateSetDictionary(&r->zs, r->dict, (uInt)r->dict_len) != Z_OK)
                return fail_at(r, err, ARB_EFORMAT, zoff(r), "the member's zlib stream wants a dictionary other "
                               "than the archive's");
            continue;
        }
        size_t got = (r->cap - r->end) - r->zs.avail_out;
        if (r->v2 && got) content_seen(r, r->win + r->end, got);
        r->end += got;
        r->st.decompressed += got;
        if (r->st.decompressed > r->lim.max_decompressed)
            return fail_at(r, err, ARB_ELIMIT, zoff(r),
                           "more than max_decompressed (%llu bytes) of decompressed data: refusing a possible "
                           "decompression bomb", (unsigned long long)r->lim.max_decompressed);
        if (zr == Z_STREAM_END) {
            r->z_end = 1;
            r->st.ended = 1;
            r->body_end = zoff(r);
            if (r->v2) {
                int rc = body_ended(r, err);
                return rc ? rc : (int)(got > 0);
            }
            /* Bytes after the stream are not part of any version-1 file. */
            if (r->zs.avail_in == 0 && !r->in_eof) {
                int rc = read_in(r, err);
                if (rc) return rc;
            }
            if (r->zs.avail_in > 0)
                return fail_at(r, err, ARB_EFORMAT, zoff(r), "%u unexpected byte(s) after the end of the zlib stream",
                               (unsigned)r->zs.avail_in);
            return (int)(got > 0);
        }
        if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT)
            return fail_at(r, err, ARB_EFORMAT, zoff(r), "corrupt zlib stream: %s",
                           r->zs.msg ? r->zs.msg : "bad data");
        if (zr == Z_MEM_ERROR) return fail_at(r, err, ARB_ENOMEM, zoff(r), "out of memory in zlib");
        if (got > 0) return 1;
        if (r->in_eof && r->zs.avail_in == 0) return 0;
    }
}

static int truncated(arb_replay *r, arb_error *err, const char *what)
{
    r->st.truncated = 1;
    r->failed = ARB_ETRUNC;
    arb_error_where(err, "%s: offset %llu", r->name, (unsigned long long)r->file_bytes);
    return arb_error_set(err, ARB_ETRUNC, NULL,
                         "truncated: the file ends inside the %s (%s); %llu complete record(s) read, "
                         "the last ending at decompressed offset %llu",
                         r->rc ? "range-coded body" : "zlib stream", what, (unsigned long long)r->st.records, (unsigned long long)r->st.good_offset);
}

/* A range-coded body: start the decoder (the two lengths, bounded). */
static int open_rc(arb_replay *r, arb_error *err)
{
    r->rc = 1;
    /* byte 6: the built-in primer the models start from (§D.8); an archive
     * member starts from the archive's primed models instead */
    const arb_rc_model *pm = r->prime;
    if (r->env[6] && !pm) {
        if (r->env[6] > ARB_RC_NPRIMERS)
            return fail_at(r, err, ARB_EUNSUPPORTED, 6,
                           "the range-coded body starts from primer %u, which this reader does not have (it has "
                           "1..%u): a newer arbiter may read it", r->env[6], ARB_RC_NPRIMERS);
        if (!(pm = arb_rc_primer_model(r->env[6])))
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", r->name);
    }
    /* a built-in primer lives as long as the process, unchanged: start from
     * it without copying; an archive's primed model is copied (the member
     * may outlive its archive) */
    if (arb_rc_model_init(&r->model) ||
        (pm && (pm == r->prime ? arb_rc_model_copy(&r->model, pm) : arb_rc_model_base(&r->model, pm))))
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", r->name);
    r->dec.fill = rc_fill;
    r->dec.fill_ctx = r;
    int rc = read_in(r, err);
    if (rc) return rc;
    rc_in_begin(r);
    uint8_t pb[10];
    size_t np = 0, used;
    int pr = 1;
    while (pr == 1 && np < sizeof pb && (r->dec.p != r->dec.e || rc_fill(r, &r->dec.p, &r->dec.e))) {
        pb[np++] = *r->dec.p++;
        pr = arb_rc_body_prefix(pb, np, &r->dec.limit, &used);
    }
    if (pr == 0) r->dec.started = 0;
    int sr = pr == 0 ? arb_rc_dec_start(&r->dec, &r->model, (r->env[5] & ARB_REPLAY_FLAG_TIMED) != 0) : pr;
    rc_in_end(r);
    if (r->io_failed) {
        *err = r->ioerr;
        return err->code ? err->code : ARB_EIO;
    }
    if (sr == 1) {
        r->st.truncated = 1;
        return truncated(r, err, "no header");
    }
    if (sr == 2)
        return fail_at(r, err, ARB_EFORMAT, ARB_REPLAY_ENVELOPE,
                       "the range-coded body's lengths are malformed (or it is shorter than they need)");
    if (r->dec.tok.clen > r->lim.max_decompressed)
        return fail_at(r, err, ARB_ELIMIT, ARB_REPLAY_ENVELOPE,
                       "the range-coded body holds %llu bytes of content, more than max_decompressed (%llu)",
                       (unsigned long long)r->dec.tok.clen, (unsigned long long)r->lim.max_decompressed);
    if (r->dec.tok.hlen > r->lim.max_header)
        return fail_at(r, err, ARB_ELIMIT, ARB_REPLAY_ENVELOPE, "the header is larger than max_header (%u bytes)",
                       r->lim.max_header);
    return ARB_OK;
}

static int open_common(arb_replay *r, const arb_replay_limits *lim, arb_error *err)
{
    arb_replay__limits(&r->lim, lim);
    r->in = r->f ? malloc(IN_CAP) : NULL;
    /* a short input held in memory decodes into a small window first (it
     * grows as the content needs): no 64 KiB buffer per short match */
    r->cap = !r->f && r->mem_len < WIN_MIN / 16 ? WIN_MIN / 4 : WIN_MIN;
    r->win = malloc(r->cap);
    r->tree = arb_tree_new();
    if ((r->f && !r->in) || !r->win || !r->tree) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", r->name);
    /* Envelope. */
    uint8_t env[ARB_REPLAY_ENVELOPE];
    size_t n;
    if (r->f) n = fread(env, 1, sizeof env, r->f);
    else {
        n = r->mem_len < sizeof env ? r->mem_len : sizeof env;
        if (n) memcpy(env, r->mem, n);
        r->mem_pos = n;
    }
    r->file_bytes = n;
    if (n < 4 || memcmp(env, ARB_REPLAY_MAGIC, 4) != 0) {
        if (n > 0 && n < 4 && memcmp(env, ARB_REPLAY_MAGIC, n) == 0)
            return fail_at(r, err, ARB_ETRUNC, n, "truncated: the file ends inside the 8-byte envelope");
        if (n == 0) return fail_at(r, err, ARB_EFORMAT, 0, "not a .tcgr replay (the file is empty)");
        return fail_at(r, err, ARB_EFORMAT, 0, "not a .tcgr replay (no TCGR magic)");
    }
    if (n < sizeof env) {
        r->st.truncated = 1;
        return fail_at(r, err, ARB_ETRUNC, n, "truncated: the file ends inside the 8-byte envelope");
    }
    r->h.version = env[4];
    r->h.flags = env[5];
    memcpy(r->env, env, sizeof env);
    if (env[4] != ARB_REPLAY_VERSION_1 && env[4] != 2)
        return fail_at(r, err, ARB_EUNSUPPORTED, 4,
                       "format version %u is not supported: this reader reads versions 1 and 2; a newer arbiter "
                       "may read it", env[4]);
    r->v2 = env[4] == 2;
    if (r->v2 && (env[5] & ARB_REPLAY_FLAG_ARCHIVE))
        return fail_at(r, err, ARB_EFORMAT, 5,
                       "this is an archive of matches, not one match: name a member as FILE#N (arbiter info FILE "
                       "lists them)");
    if (r->v2 && env[6] && !(env[5] & ARB_REPLAY_FLAG_RC))
        return fail_at(r, err, ARB_EFORMAT, 6,
                       "envelope byte 6 (the range coder's primer, FORMAT.md §D.8) is %u, but the body is zlib: corrupt",
                       env[6]);
    if (r->v2) arb_seal_hasher_init(&r->hs, env);
    if (r->v2 && (env[5] & ARB_REPLAY_FLAG_RC)) {
        int rc = open_rc(r, err);
        if (rc) return rc;
    } else {
        if (inflateInit(&r->zs) != Z_OK) return arb_error_set(err, ARB_ENOMEM, NULL, "zlib inflateInit failed");
        r->zinit = 1;
    }
    /* Header: size it (growing the window up to max_header), then decode. */
    for (;;) {
        size_t size;
        const char *what;
        int mr = arb_replay__mp_measure(r->win + r->start, r->end - r->start, &r->lim, &size, &what);
        if (mr == ARB_MP_OK) {
            if (size > r->lim.max_header)
                return fail_at(r, err, ARB_ELIMIT, 0, "the header is larger than max_header (%u bytes)", r->lim.max_header);
            if (r->rc && size != r->dec.tok.hlen)
                return fail_at(r, err, ARB_EFORMAT, 0,
                               "the range-coded body gives the header %llu bytes, but the header is %zu bytes: corrupt",
                               (unsigned long long)r->dec.tok.hlen, size);
            int rc = arb_replay__header_decode_lazy(&r->h, r->tree, r->win + r->start, size, &r->lim, r->name, err,
                                                    &r->dk, &r->tree_pending);
            if (!rc && r->tree_pending) { /* kept for the tree, if one is asked for */
                if (!(r->hdr_raw = malloc(size ? size : 1))) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", r->name);
                memcpy(r->hdr_raw, r->win + r->start, size);
            }
            r->h.version = r->env[4];
            r->h.flags = r->env[5];
            r->max_actions = r->lim.max_actions ? r->lim.max_actions : arb_game_max_actions(arb_game_find(r->h.game));
            if (!rc && r->v2) {
                arb_r2_init(&r->cs, (r->env[5] & ARB_REPLAY_FLAG_TIMED) != 0);
                r->pool = arb_game_find(r->h.game); /* outcome reasons only grow, like the pool */
            }
            if (rc) { r->failed = rc; return rc; }
            r->start += size;
            r->st.good_offset = size;
            r->hlen_kept = size;
            return ARB_OK;
        }
        if (mr == ARB_MP_LIMIT)
            return fail_at(r, err, ARB_ELIMIT, r->base + r->start,
                           "the header exceeds the reader's limit on %s", what);
        if (mr == ARB_MP_BAD)
            return fail_at(r, err, ARB_EFORMAT, r->base + r->start, "malformed MessagePack in the header: %s", what);
        if (r->end - r->start > r->lim.max_header)
            return fail_at(r, err, ARB_ELIMIT, 0, "the header is larger than max_header (%u bytes)", r->lim.max_header);
        int rc = more(r, r->end - r->start + 1, err);
        if (rc < 0) return rc;
        if (rc == 0) {
            if (r->z_end) return fail_at(r, err, ARB_EFORMAT, r->base + r->start, "the stream ends inside the header");
            if (r->end == r->start && r->base + r->start == 0) {
                r->st.truncated = 1;
                return truncated(r, err, "no header");
            }
            r->st.truncated = 1;
            return truncated(r, err, "inside the header");
        }
    }
}

static int finish_open(arb_replay **out, arb_replay *r, int rc)
{
    if (rc) {
        arb_replay_close(r);
        return rc;
    }
    *out = r;
    return ARB_OK;
}

void arb_replay__digest(const uint8_t env[8], const uint8_t *p, size_t n, uint8_t digest[ARB_REPLAY_DIGEST])
{
    arb_seal_hasher hs;
    arb_seal_hasher_init(&hs, env);
    arb_seal_hasher_update(&hs, p, n);
    arb_seal_hasher_final(&hs, digest);
}

/* "FILE#N" (no file by that exact name): member N of archive FILE. */
static int open_member_path(arb_replay **out, const char *path, const arb_replay_limits *lim, arb_error *err)
{
    const char *hash = strrchr(path, '#');
    if (!hash || !hash[1] || hash == path) return 1;
    uint64_t n = 0;
    for (const char *q = hash + 1; *q; q++) {
        if (*q < '0' || *q > '9' || n > UINT64_MAX / 10 - 1) return 1;
        n = n * 10 + (uint64_t)(*q - '0');
    }
    char file[4096];
    if ((size_t)(hash - path) >= sizeof file) return 1;
    memcpy(file, path, (size_t)(hash - path));
    file[hash - path] = '\0';
    FILE *f = fopen(file, "rb");
    if (!f) return 1;
    fclose(f);
    arb_archive *a;
    int rc = arb_archive_open(&a, file, err);
    if (rc) return rc;
    if (n >= arb_archive_count(a)) {
        arb_error_where(err, "%s", path);
        rc = arb_error_set(err, ARB_EINVAL, NULL, "the archive holds %llu member(s) (0..%llu)",
                           (unsigned long long)arb_archive_count(a), (unsigned long long)arb_archive_count(a) - 1);
        arb_archive_close(a);
        return rc;
    }
    rc = arb_archive_open_member(out, a, n, lim, err);
    arb_archive_close(a);
    return rc;
}

/* A regular file at most this long is read whole with one read(2) and
 * decoded from memory: no stdio buffer, no input buffer, one fstat. */
#define SMALL_FILE (1u << 20)

int arb_replay_open(arb_replay **out, const char *path, const arb_replay_limits *lim, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, path);
    *out = NULL;
    /* one open: a path that is no file may name an archive member */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int en = errno;
    if (fd < 0) {
        int mr = open_member_path(out, path, lim, err);
        if (mr != 1) return mr;
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(en));
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "is a directory, not a .tcgr replay");
    }
    arb_replay *r = calloc(1, sizeof *r);
    if (!r) {
        close(fd);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", path);
    }
    snprintf(r->name, sizeof r->name, "%s", path);
    if (S_ISREG(st.st_mode) && st.st_size >= 0 && (uint64_t)st.st_size <= SMALL_FILE) {
        size_t want = (size_t)st.st_size, got = 0;
        uint8_t *buf = malloc(want ? want : 1);
        if (!buf) {
            close(fd);
            free(r);
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", path);
        }
        while (got < want) {
            ssize_t k = read(fd, buf + got, want - got);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                en = errno;
                close(fd);
                free(buf);
                free(r);
                arb_error_where(err, "%s: offset %zu", path, got);
                return arb_error_set(err, ARB_EIO, NULL, "read failed: %s", strerror(en));
            }
            if (k == 0) break; /* shorter than fstat said: read what is there */
            got += (size_t)k;
        }
        close(fd);
        r->file_buf = buf;
        r->mem = buf;
        r->mem_len = got;
        return finish_open(out, r, open_common(r, lim, err));
    }
    if (!(r->f = fdopen(fd, "rb"))) {
        en = errno;
        close(fd);
        free(r);
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(en));
    }
    return finish_open(out, r, open_common(r, lim, err));
}

int arb_replay__open_keep(arb_replay **out, const char *path, const arb_replay_limits *lim, arb_error *err)
{
    *out = NULL;
    arb_replay *r = calloc(1, sizeof *r);
    if (!r) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", path);
    snprintf(r->name, sizeof r->name, "%s", path);
    r->keeping = 1;
    if (!(r->f = fopen(path, "rb"))) {
        arb_error_where(err, "%s", path);
        int rc = arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
        free(r);
        return rc;
    }
    return finish_open(out, r, open_common(r, lim, err));
}

int arb_replay__kept(arb_replay *r, uint8_t **content, size_t *n, size_t *header_len, arb_error *err)
{
    *content = NULL;
    *n = *header_len = 0;
    if (!r->keeping || !r->v2) return arb_error_set(err, ARB_EINVAL, NULL, "%s: not opened to keep its content", r->name);
    int rc = arb_replay__drain(r, err);
    if (rc) return rc;
    if (r->keep_failed) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory keeping the content of %s", r->name);
    *content = r->keep;
    *n = r->keep_n;
    *header_len = (size_t)r->hlen_kept;
    r->keep = NULL;
    r->keep_n = r->keep_cap = 0;
    return ARB_OK;
}

int arb_replay__open_mem_dict(arb_replay **out, const void *buf, size_t len, const uint8_t *dict, size_t dict_len,
                              const char *name, const arb_replay_limits *lim, arb_error *err)
{
    *out = NULL;
    arb_replay *r = calloc(1, sizeof *r);
    if (!r) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", name);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "<memory>");
    r->mem = buf;
    r->mem_len = len;
    r->dict = dict;
    r->dict_len = dict_len;
    return finish_open(out, r, open_common(r, lim, err));
}

int arb_replay__open_mem_prime(arb_replay **out, const void *buf, size_t len, const arb_rc_model *prime,
                               const char *name, const arb_replay_limits *lim, arb_error *err)
{
    *out = NULL;
    arb_replay *r = calloc(1, sizeof *r);
    if (!r) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", name);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "<memory>");
    r->mem = buf;
    r->mem_len = len;
    r->prime = prime;
    int rc = open_common(r, lim, err);
    r->prime = NULL;
    return finish_open(out, r, rc);
}

int arb_replay_open_mem(arb_replay **out, const void *buf, size_t len, const char *name,
                        const arb_replay_limits *lim, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, buf || !len);
    *out = NULL;
    arb_replay *r = calloc(1, sizeof *r);
    if (!r) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", name);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "<memory>");
    r->mem = buf;
    r->mem_len = len;
    return finish_open(out, r, open_common(r, lim, err));
}

void arb_replay_close(arb_replay *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    if (r->zinit) inflateEnd(&r->zs);
    arb_rc_model_free(&r->model);
    arb_tree_free(r->tree);
    free(r->in);
    free(r->win);
    free(r->own[0]);
    free(r->own[1]);
    free(r->file_buf);
    free(r->keep);
    free(r->hdr_raw);
    free(r);
}

const arb_replay_header *arb_replay__header(const arb_replay *r) { return &r->h; }

/* The public header has its tree: a header decoded without one gets it
 * now, by the full decoder over the same bytes (which fills every field
 * with the same values; the card IDs then point into the tree). */
const arb_replay_header *arb_replay_get_header(const arb_replay *r)
{
    if (r->tree_pending) {
        arb_replay *w = (arb_replay *)(uintptr_t)r; /* allocated writable by the opener */
        arb_replay_header *h = calloc(1, sizeof *h);
        arb_replay__decks *dk = malloc(sizeof *dk);
        arb_error e = ARB_ERROR_INIT;
        if (h && dk) {
            h->version = w->h.version;
            h->flags = w->h.flags;
            arb_tree_reset(w->tree);
            if (arb_replay__header_decode(h, w->tree, w->hdr_raw, (size_t)w->h.size, &w->lim, w->name, &e, dk) == ARB_OK) {
                h->version = w->h.version;
                h->flags = w->h.flags;
                w->h = *h;
                w->tree_pending = 0;
                free(w->hdr_raw);
                w->hdr_raw = NULL;
            }
        }
        free(h);
        free(dk);
    }
    return &r->h;
}

void arb_replay_envelope(const arb_replay *r, uint8_t env[8]) { memcpy(env, r->env, ARB_REPLAY_ENVELOPE); }

int arb_replay_sealable(const arb_replay *r, uint8_t digest[ARB_REPLAY_DIGEST], const uint8_t **trailer, size_t *n,
                        uint64_t *body_end)
{
    if (!r->v2 || !r->have_digest) return 0;
    if (digest) memcpy(digest, r->digest, ARB_REPLAY_DIGEST);
    if (trailer) *trailer = r->trailer;
    if (n) *n = r->ntrailer;
    if (body_end) *body_end = r->body_end;
    return 1;
}
int arb_replay__drain(arb_replay *r, arb_error *err)
{
    if (!r->v2) return ARB_EINVAL;
    while (!r->z_end) {
        r->start = r->end; /* what is left unread is only hashed (by more) */
        int rc = more(r, 1, err);
        if (rc < 0) return rc;
        if (rc == 0 && !r->z_end) return ARB_ETRUNC;
    }
    return r->have_digest ? ARB_OK : ARB_EFORMAT;
}

int arb_replay__body_corrupt(arb_replay *r, arb_error *err)
{
    if (!r->v2) return ARB_OK;
    if (!r->z_end) {
        arb_error e = ARB_ERROR_INIT;
        if (arb_replay__drain(r, &e) == ARB_EFORMAT && r->rc && (r->rc_bad || r->dec.over)) {
            *err = e;
            return ARB_EFORMAT;
        }
    }
    if (r->trailer_bad) {
        *err = r->trailer_err;
        return ARB_EFORMAT;
    }
    return ARB_OK;
}

int arb_replay__trailer_bad(const arb_replay *r) { return r->trailer_bad; }

const char *arb_replay_name(const arb_replay *r) { return r->name; }

void arb_replay_get_status(const arb_replay *r, arb_replay_status *st)
{
    *st = r->st;
    st->file_bytes = r->file_bytes;
}

/* Decode one record from p[0..n). */
static int decode_record(const uint8_t *p, size_t n, arb_replay_record *rec, size_t *used, const char **what)
{
    const uint8_t *s = p, *end = p + n;
    uint32_t cnt;
    int64_t v;
    int rc = arb_mp_rd_array(&p, end, &cnt);
    if (rc) { *what = "a record is not an array"; return rc; }
    if (cnt == 0) { *what = "an empty record"; return ARB_MP_BAD; }
    if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "a record tag is not an integer"; return rc; }
    rec->kind = v < 0 || v > 127 ? -1 : (int)v;
    rec->hash_bits = 64;
    if (v < 0 || v > 127) { *what = "a record tag outside 0..127"; return ARB_MP_BAD; }
    switch (v) {
    case ARB_REC_ACTION: {
        arb_action *a = &rec->action;
        if (cnt < 4 || cnt - 4 > ARB_ARGS_MAX) { *what = "an action record with a wrong number of fields"; return ARB_MP_BAD; }
        a->nargs = (uint8_t)(cnt - 4);
        a->pad_ = 0;
        if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "elapsed_ms is not an integer"; return rc; }
        if (v < 0 || v > UINT32_MAX) { *what = "elapsed_ms outside 0..4294967295"; return ARB_MP_BAD; }
        a->elapsed_ms = (uint32_t)v;
        if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "the seat is not an integer"; return rc; }
        if (v < ARB_SEAT_ARBITER || v >= ARB_MAX_SEATS) { *what = "a seat outside -1..3"; return ARB_MP_BAD; }
        a->seat = (int8_t)v;
        if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "the verb is not an integer"; return rc; }
        if (v < 0 || v > 255) { *what = "a verb outside 0..255"; return ARB_MP_BAD; }
        a->verb = (uint8_t)v;
        for (unsigned i = 0; i < a->nargs; i++) {
            if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "an argument is not an integer"; return rc; }
            if (v < INT32_MIN || v > INT32_MAX) { *what = "an argument outside int32"; return ARB_MP_BAD; }
            a->args[i] = (int32_t)v;
        }
        for (unsigned i = a->nargs; i < ARB_ARGS_MAX; i++) a->args[i] = 0;
        *used = (size_t)(p - s);
        return ARB_MP_OK;
    }
    case ARB_REC_CHECKPOINT:
        if (cnt < 3) { *what = "a checkpoint with fewer than 3 fields"; return ARB_MP_BAD; }
        if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "the checkpoint turn is not an integer"; return rc; }
        if (v < 0 || v > UINT32_MAX) { *what = "a checkpoint turn outside uint32"; return ARB_MP_BAD; }
        rec->turn = (uint32_t)v;
        if ((rc = arb_mp_rd_u64(&p, end, &rec->hash))) { *what = "the checkpoint hash is not a uint64"; return rc; }
        break;
    case ARB_REC_OUTCOME: {
        if (cnt < 5) { *what = "an outcome with fewer than 5 fields"; return ARB_MP_BAD; }
        if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "the winner is not an integer"; return rc; }
        if (v < -1 || v >= ARB_MAX_SEATS) { *what = "a winner outside -1..3"; return ARB_MP_BAD; }
        rec->winner = (int)v;
        const uint8_t *str;
        uint32_t len;
        int is_bin;
        if ((rc = arb_mp_rd_str(&p, end, &str, &len, &is_bin))) { *what = "the reason is not a string"; return rc; }
        if (is_bin || len >= sizeof rec->reason || memchr(str, 0, len)) { *what = "the reason is not a short string"; return ARB_MP_BAD; }
        memcpy(rec->reason, str, len);
        rec->reason[len] = '\0';
        /* One spelling: arbiter 0.1 wrote some reasons with '_' (deck_out);
         * every reason is kebab-case now, and the two always compare equal. */
        for (char *q = rec->reason; *q; q++)
            if (*q == '_') *q = '-';
        if ((rc = arb_mp_rd_int(&p, end, &v))) { *what = "the outcome turns is not an integer"; return rc; }
        if (v < 0 || v > UINT32_MAX) { *what = "outcome turns outside uint32"; return ARB_MP_BAD; }
        rec->turn = (uint32_t)v;
        if ((rc = arb_mp_rd_u64(&p, end, &rec->hash))) { *what = "the final hash is not a uint64"; return rc; }
        break;
    }
    default: /* an unknown record kind from a later writer */
        break;
    }
    /* Fields a later version may add after the known ones are skipped. */
    uint32_t consumed = rec->kind == ARB_REC_CHECKPOINT ? 3 : rec->kind == ARB_REC_OUTCOME ? 5 : 1;
    for (uint32_t i = consumed; i < cnt; i++)
        if ((rc = arb_replay__mp_skip(&p, end))) { *what = "a malformed extra field"; return rc; }
    *used = (size_t)(p - s);
    return ARB_MP_OK;
}

/* The work a file can demand is bounded by its actions, and they by its
 * game (r->max_actions): a checkpoint must follow at least one action since
 * the previous checkpoint (so a file holds at most actions + 1 of them; a
 * writer writes turns + 1), and unknown records come at most
 * UNKNOWN_RUN_MAX in a row. A file breaking either is corrupt
 * (ARB_EFORMAT; one action too many: ARB_ELIMIT) and is refused as soon as
 * the offending record is read, so a "checkpoint bomb" costs microseconds,
 * not a replay of millions. */
static int bound_record(arb_replay *r, const arb_replay_record *rec, arb_error *err)
{
    if (rec->kind == ARB_REC_CHECKPOINT) {
        if (r->have_cp && r->actions_since_cp == 0)
            return fail_at(r, err, ARB_EFORMAT, rec->offset,
                           "record %llu is a checkpoint right after the checkpoint of record %llu with no action "
                           "between: a file holds at most one checkpoint per action, plus the setup one (decompressed offset shown)",
                           (unsigned long long)rec->index, (unsigned long long)r->cp_index);
        r->have_cp = 1;
        r->cp_index = rec->index;
        r->actions_since_cp = 0;
    } else if (rec->kind == ARB_REC_ACTION) {
        if (r->st.actions >= r->max_actions)
            return fail_at(r, err, ARB_ELIMIT, rec->offset,
                           "record %llu is action %llu: a %s match holds at most %lu actions (the game's bound, "
                           "FORMAT.md §8.1; decompressed offset shown)",
                           (unsigned long long)rec->index, (unsigned long long)r->st.actions + 1, r->h.game,
                           (unsigned long)r->max_actions);
        r->actions_since_cp++;
    }
    if (rec->kind > ARB_REC_OUTCOME) {
        if (++r->unknown_run > UNKNOWN_RUN_MAX)
            return fail_at(r, err, ARB_EFORMAT, rec->offset,
                           "record %llu is the %llu-th unknown record in a row: at most %d may follow one another "
                           "(decompressed offset shown)",
                           (unsigned long long)rec->index, (unsigned long long)r->unknown_run, UNKNOWN_RUN_MAX);
    } else {
        r->unknown_run = 0;
    }
    return 1;
}

/* Decode one version-2 record (FORMAT.md §B.3) from p[0..n): seat-change
 * and elapsed ops are folded into the action they precede. The coding
 * state (r->cs) changes only when a whole record decodes. */
static int decode_record2(arb_replay *r, const uint8_t *p, size_t n, arb_replay_record *rec, size_t *used,
                          const char **what)
{
    const uint8_t *s = p, *end = p + n;
    uint64_t v = 0;
    int rc;
    arb_r2_state cs = r->cs;
    int have_el = 0;
    uint32_t el = 0;
    rec->hash_bits = 64;
#define VARINT(dst, msg) do { if ((rc = arb_r2_get_varint(&p, end, &(dst)))) { *what = msg; return rc == 1 ? ARB_MP_MORE : ARB_MP_BAD; } } while (0)
    for (;;) {
        if (p >= end) return ARB_MP_MORE;
        uint8_t op = *p++;
        if (op < 0x80) {
            arb_action *a = &rec->action;
            unsigned nargs = op >> 5, verb = op & 31;
            rec->kind = ARB_REC_ACTION;
            if (nargs == 3) {
                if (p >= end) return ARB_MP_MORE;
                nargs = *p++;
                if (nargs > ARB_ARGS_MAX) { *what = "an action with more than 6 arguments"; return ARB_MP_BAD; }
            }
            if (verb == 31) {
                if (p >= end) return ARB_MP_MORE;
                verb = *p++;
            }
            a->seat = (int8_t)cs.seat;
            a->verb = (uint8_t)verb;
            a->nargs = (uint8_t)nargs;
            a->pad_ = 0;
            a->elapsed_ms = el;
            if (cs.timed) {
                if ((size_t)(end - p) < 2) return ARB_MP_MORE;
                uint32_t lo = (uint32_t)p[0] | (uint32_t)p[1] << 8;
                p += 2;
                if (lo & 0x8000u) {
                    VARINT(v, "a malformed elapsed_ms");
                    if (v > (UINT32_MAX >> 15)) { *what = "elapsed_ms outside 0..4294967295"; return ARB_MP_BAD; }
                    lo = (lo & 0x7fffu) | (uint32_t)v << 15;
                }
                if (have_el) { *what = "an elapsed-time op before an action of a timed file"; return ARB_MP_BAD; }
                a->elapsed_ms = lo;
            }
            for (unsigned i = 0; i < nargs; i++) {
                VARINT(v, "a malformed argument");
                int64_t x = arb_r2_unzigzag(v);
                if (x < INT32_MIN || x > INT32_MAX) { *what = "an argument outside int32"; return ARB_MP_BAD; }
                a->args[i] = (int32_t)x;
            }
            for (unsigned i = nargs; i < ARB_ARGS_MAX; i++) a->args[i] = 0;
            break;
        }
        if (op >= ARB_R2_SEAT && op < ARB_R2_SEAT + 5) {
            if (have_el) { *what = "a seat change between an elapsed-time op and its action"; return ARB_MP_BAD; }
            cs.seat = (int)op - (int)ARB_R2_SEAT - 1;
            continue;
        }
        if (op == ARB_R2_ELAPSED) {
            if (have_el) { *what = "two elapsed-time ops in a row"; return ARB_MP_BAD; }
            VARINT(v, "a malformed elapsed_ms");
            if (v > UINT32_MAX) { *what = "elapsed_ms outside 0..4294967295"; return ARB_MP_BAD; }
            el = (uint32_t)v;
            have_el = 1;
            continue;
        }
        if (have_el) { *what = "an elapsed-time op not followed by an action"; return ARB_MP_BAD; }
        if (op == ARB_R2_CP_NEXT || (op >= ARB_R2_CP_NEXT_SEAT && op < ARB_R2_CP_NEXT_SEAT + 5) ||
            op == ARB_R2_CP_TURN || op == ARB_R2_CP_FULL) {
            rec->kind = ARB_REC_CHECKPOINT;
            if (op == ARB_R2_CP_TURN || op == ARB_R2_CP_FULL) {
                VARINT(v, "a malformed checkpoint turn");
                if (v > UINT32_MAX) { *what = "a checkpoint turn outside uint32"; return ARB_MP_BAD; }
            } else {
                if (!cs.have_cp) { *what = "a next-turn checkpoint with no checkpoint before it"; return ARB_MP_BAD; }
                if (cs.cp_turn == UINT32_MAX) { *what = "a next-turn checkpoint after turn 4294967295"; return ARB_MP_BAD; }
                v = (uint64_t)cs.cp_turn + 1;
            }
            rec->turn = (uint32_t)v;
            unsigned w = op == ARB_R2_CP_FULL ? 8 : 1;
            if ((size_t)(end - p) < w) return ARB_MP_MORE;
            rec->hash = 0;
            for (unsigned i = 0; i < w; i++) rec->hash |= (uint64_t)p[i] << (8 * i);
            p += w;
            rec->hash_bits = (uint8_t)(8 * w);
            cs.have_cp = 1;
            cs.cp_turn = rec->turn;
            if (op >= ARB_R2_CP_NEXT_SEAT && op < ARB_R2_CP_NEXT_SEAT + 5) cs.seat = (int)op - (int)ARB_R2_CP_NEXT_SEAT - 1;
            break;
        }
        if (op == ARB_R2_OUTCOME) {
            rec->kind = ARB_REC_OUTCOME;
            if ((size_t)(end - p) < 2) return ARB_MP_MORE;
            if (p[0] > ARB_MAX_SEATS) { *what = "a winner outside -1..3"; return ARB_MP_BAD; }
            rec->winner = (int)p[0] - 1;
            unsigned ri = p[1];
            p += 2;
            if (ri == ARB_R2_REASON_STR) {
                if (p >= end) return ARB_MP_MORE;
                size_t len = *p++;
                if (len >= sizeof rec->reason) { *what = "an outcome reason longer than 63 bytes"; return ARB_MP_BAD; }
                if ((size_t)(end - p) < len) return ARB_MP_MORE;
                if (memchr(p, 0, len)) { *what = "an outcome reason with a NUL byte"; return ARB_MP_BAD; }
                memcpy(rec->reason, p, len);
                rec->reason[len] = '\0';
                p += len;
            } else if (r->pool) {
                unsigned nr = 0;
                const char *const *rt = arb_game_replay_reasons(r->pool, &nr); /* FORMAT.md §B.7 */
                if (ri >= nr) { *what = "an outcome reason index outside the game's table"; return ARB_MP_BAD; }
                snprintf(rec->reason, sizeof rec->reason, "%s", rt[ri]);
            } else snprintf(rec->reason, sizeof rec->reason, "#%u", ri);
            VARINT(v, "malformed outcome turns");
            if (v > UINT32_MAX) { *what = "outcome turns outside uint32"; return ARB_MP_BAD; }
            rec->turn = (uint32_t)v;
            if ((size_t)(end - p) < 8) return ARB_MP_MORE;
            rec->hash = 0;
            for (unsigned i = 0; i < 8; i++) rec->hash |= (uint64_t)p[i] << (8 * i);
            p += 8;
            break;
        }
        if (op < ARB_R2_UNKNOWN) { *what = "a reserved record op (0x8f..0xbf)"; return ARB_MP_BAD; }
        rec->kind = op;
        VARINT(v, "a malformed unknown-record length");
        if (v > (uint64_t)r->lim.max_record) { *what = "an unknown record longer than max_record"; return ARB_MP_LIMIT; }
        if ((uint64_t)(end - p) < v) return ARB_MP_MORE;
        p += v;
        break;
    }
#undef VARINT
    r->cs = cs;
    *used = (size_t)(p - s);
    return ARB_MP_OK;
}

void arb_replay__index_expect(arb_replay *r, uint64_t member, uint64_t content, uint64_t actions)
{
    r->idx_check = 1;
    r->idx_member = member;
    r->idx_content = content;
    r->idx_actions = actions;
}

/* The end of a member read through a trusted index: its entry's content
 * length and action count must be what the member holds (FORMAT.md §C.3),
 * else the index is corrupt. */
static int index_check(arb_replay *r, arb_error *err)
{
    if (!r->idx_check || (r->st.decompressed == r->idx_content && r->st.actions == r->idx_actions)) return 0;
    r->failed = ARB_EFORMAT;
    arb_error_where(err, "%s: the archive's index", r->name);
    return arb_error_set(err, ARB_EFORMAT, NULL,
                         "the index entry of member %llu says %llu content bytes and %llu actions; the member holds "
                         "%llu and %llu: the index is corrupt",
                         (unsigned long long)r->idx_member, (unsigned long long)r->idx_content,
                         (unsigned long long)r->idx_actions, (unsigned long long)r->st.decompressed,
                         (unsigned long long)r->st.actions);
}

int arb_replay_next(arb_replay *r, arb_replay_record *rec, arb_error *err)
{
    ARB_ASSERT_ARG(err, r);
    if (r->failed) {
        if (r->failed == ARB_ETRUNC) return truncated(r, err, "at the end of the data");
        return arb_error_set(err, r->failed, NULL, "the reader failed earlier");
    }
    for (;;) {
        size_t avail = r->end - r->start, used = 0;
        if (avail) {
            const char *what = "";
            size_t lim = avail < r->lim.max_record ? avail : r->lim.max_record;
            int rc = r->v2 ? decode_record2(r, r->win + r->start, lim, rec, &used, &what)
                           : decode_record(r->win + r->start, lim, rec, &used, &what);
            if (rc == ARB_MP_OK) {
                rec->index = r->st.records;
                rec->offset = r->base + r->start;
                /* A record the bounds refuse is not counted as read: the
                 * status names the records a caller actually received. */
                int brc = bound_record(r, rec, err);
                if (brc < 0) return brc;
                r->st.records++;
                r->start += used;
                r->st.good_offset = r->base + r->start;
                switch (rec->kind) {
                case ARB_REC_ACTION: r->st.actions++; break;
                case ARB_REC_CHECKPOINT: r->st.checkpoints++; break;
                case ARB_REC_OUTCOME: r->st.outcomes++; break;
                default: r->st.unknown++; break;
                }
                return brc;
            }
            if (rc == ARB_MP_BAD || rc == ARB_MP_LIMIT)
                return fail_at(r, err, ARB_EFORMAT, r->base + r->start,
                               "record %llu is malformed: %s (decompressed offset shown)",
                               (unsigned long long)r->st.records, what);
            if (avail >= r->lim.max_record)
                return fail_at(r, err, ARB_ELIMIT, r->base + r->start,
                               "record %llu is larger than max_record (decompressed offset shown)",
                               (unsigned long long)r->st.records);
        }
        int rc = more(r, avail + 1, err);
        if (rc < 0) return rc;
        if (rc == 0) {
            if (r->end > r->start) {
                if (r->z_end)
                    return fail_at(r, err, ARB_EFORMAT, r->base + r->start,
                                   "the %s ends inside record %llu (decompressed offset shown)",
                                   r->rc ? "content" : "zlib stream", (unsigned long long)r->st.records);
                return truncated(r, err, "inside a record");
            }
            if (r->z_end) return index_check(r, err);
            return truncated(r, err, "between records");
        }
    }
}

int arb_replay_deck(const arb_replay *r, const arb_game *g, int seat, arb_deck *out, arb_error *err)
{
    ARB_ASSERT_ARG(err, r);
    ARB_ASSERT_ARG(err, g);
    ARB_ASSERT_ARG(err, out);
    memset(out, 0, sizeof *out);
    if (seat < 0 || seat >= r->h.players) return arb_error_set(err, ARB_EINVAL, NULL, "no seat %d", seat);
    const arb_replay_player *P = &r->h.player[seat];
    arb_text_copy(out->name, sizeof out->name, P->deck_name);
    int c = -1;
    unsigned from = 0;
    if (r->dk.pool == g && g && r->dk.have[seat]) { /* version 2 named the cards by index in g's pool */
        memcpy(out->cards, r->dk.idx[seat], r->dk.n[seat] * sizeof out->cards[0]);
        out->ncards = r->dk.n[seat];
    }
    for (unsigned i = out->ncards; i < P->ncards; i++) {
        /* Decks list copies together: reuse the previous lookup, then try
         * the exact ID (IDs are unique in a pool; the search starts after
         * the previous card, as decks mostly list cards in pool order)
         * before the case-insensitive name search. */
        if (i == 0 || strcmp(P->cards[i], P->cards[i - 1]) != 0) {
            c = -1;
            for (unsigned j = 0; j < g->ncards && c < 0; j++) {
                unsigned k = (from + j) % g->ncards;
                if (strcmp(g->card(g, k)->id, P->cards[i]) == 0) c = (int)k;
            }
            if (c >= 0) from = (unsigned)c + 1;
            else c = arb_card_find(g, P->cards[i]);
        }
        if (c < 0) {
            arb_error_where(err, "%s: header key 'players.%d.deck.%u'", r->name, seat, i);
            return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "card '%s' is not in the %s %s card pool",
                                 P->cards[i], g->id, g->rules_version);
        }
        out->cards[out->ncards++] = (uint16_t)c;
    }
    for (unsigned i = 0; i < P->nattrs; i++) arb_deck_attr_set(out, P->attrs[i].key, P->attrs[i].value);
    return ARB_OK;
}

int arb_replay_setup(const arb_replay *r, const arb_game *g, arb_setup *su, arb_deck decks[ARB_MAX_SEATS],
                     arb_error *err)
{
    ARB_ASSERT_ARG(err, r);
    ARB_ASSERT_ARG(err, g);
    ARB_ASSERT_ARG(err, su);
    memset(su, 0, sizeof *su);
    su->seed = r->h.seed;
    su->players = r->h.players;
    su->options = r->h.options;
    su->rules = r->h.rules;
    for (int s = 0; s < r->h.players; s++) {
        int rc = arb_replay_deck(r, g, s, &decks[s], err);
        if (rc) return rc;
        su->decks[s] = r->h.position && decks[s].ncards == 0 ? NULL : &decks[s];
    }
    return ARB_OK;
}
