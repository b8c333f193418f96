/* archive.c — many matches in one v2 file (replays/FORMAT.md §C): the
 * envelope with the archive flag, one member frame per match (its CONTENT
 * as a zlib stream whose preset dictionary is the content of the archive's
 * first members, and its own seal block), then an index frame and a fixed
 * trailer for random access. Members reach the file (fflush) as matches
 * end, optionally compressed on a second thread (the bytes do not depend on
 * it; that thread flushes when its queue runs empty or every QUEUE
 * members). The reader trusts the index only after checking it against the
 * frames it points at; a missing or inconsistent one is rebuilt by walking
 * the frames, and a member cut by the end of the file is reported. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "arbiter/outfile.h"
#include "replay/internal.h"
#include "replay/rcbody.h"
#include "replay/primer.h"

#define FRAME_MEMBER 0x4d /* 'M' */
#define FRAME_INDEX 0x49  /* 'I' */
#define TRAILER 16        /* u64 index offset, u32 count, "TCGX" */
#define ZLEN_MAX ((uint64_t)1 << 30)
#define DICT_MEMBER_MAX ((size_t)64 << 20) /* content of a dictionary member */
#define QUEUE 64
#define LATE_BACKLOG 8 /* members queued beyond which the recorder hashes inline */
/* The compressor, its queue empty, naps NAP_NS before it sleeps; while it
 * naps the recorder wakes it only every WAKE_BATCH members (a wake-up per
 * member cost the recorder more than recording); asleep, at the first. */
#define WAKE_BATCH 4
#define NAP_NS 1000000L

typedef struct tails {
    uint8_t *p[ARB_ARCHIVE_DICT_MEMBERS + 1]; /* p[k]: last DICT_MAX bytes of contents 0..k-1 */
    size_t n[ARB_ARCHIVE_DICT_MEMBERS + 1];
    unsigned have;                            /* p[0..have] are known */
} tails;

static int tails_push(tails *t, const uint8_t *c, size_t n)
{
    unsigned k = t->have;
    if (k >= ARB_ARCHIVE_DICT_MEMBERS) return 0;
    size_t prev = t->n[k], keep = prev + n > ARB_ARCHIVE_DICT_MAX ? ARB_ARCHIVE_DICT_MAX : prev + n;
    uint8_t *q = malloc(keep ? keep : 1);
    if (!q) return -1;
    /* the last `keep` bytes of prev-tail || c */
    if (n >= keep) memcpy(q, c + (n - keep), keep);
    else {
        size_t from_prev = keep - n;
        memcpy(q, t->p[k] + (prev - from_prev), from_prev);
        memcpy(q + from_prev, c, n);
    }
    t->p[k + 1] = q;
    t->n[k + 1] = keep;
    t->have = k + 1;
    return 0;
}

static void tails_free(tails *t)
{
    for (unsigned k = 0; k <= ARB_ARCHIVE_DICT_MEMBERS; k++) free(t->p[k]);
    memset(t, 0, sizeof *t);
}

/* Range-coded members (FORMAT.md §D.5): pm[k] is the model primed with
 * the contents of members 0..k-1 (k <= 16), built on demand. */
typedef struct primes {
    arb_rc_model *pm[ARB_RC_PRIME_MEMBERS + 1];
    unsigned have;              /* pm[0..have] are built */
} primes;

static void primes_free(primes *q)
{
    for (unsigned k = 0; k <= ARB_RC_PRIME_MEMBERS; k++)
        if (q->pm[k]) {
            arb_rc_model_free(q->pm[k]);
            free(q->pm[k]);
        }
    memset(q, 0, sizeof *q);
}

static arb_rc_model *model_new(void)
{
    arb_rc_model *m = malloc(sizeof *m);
    if (m && arb_rc_model_init(m)) {
        free(m);
        m = NULL;
    }
    return m;
}

/* The header's length at the start of a content (priming needs it). */
static size_t header_len_of(const uint8_t *c, size_t n)
{
    arb_replay_limits lim;
    arb_replay__limits(&lim, NULL);
    size_t size = 0;
    const char *what;
    return arb_replay__mp_measure(c, n, &lim, &size, &what) == ARB_MP_OK ? size : n;
}

/* pm[have + 1] from pm[have] and the content of member `have`. */
static int primes_push(primes *q, const uint8_t *c, size_t n, size_t hl, int timed)
{
    unsigned k = q->have;
    if (k >= ARB_RC_PRIME_MEMBERS) return 0;
    if (!q->pm[0] && !(q->pm[0] = model_new())) return -1;
    arb_rc_model *m = model_new();
    if (!m) return -1;
    if (arb_rc_model_copy(m, q->pm[k]) || arb_rc_prime(m, c, n, hl, timed)) {
        arb_rc_model_free(m);
        free(m);
        return -1;
    }
    q->pm[k + 1] = m;
    q->have = k + 1;
    return 0;
}

static uint8_t *put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned sh = 0; sh < 64; sh += 7) {
        if (*p >= end) return 1;
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return 2;
}

/* ================================================================ reader */

struct arb_archive {
    char name[4096];
    FILE *f;
    uint64_t size;
    arb_archive_member *m;
    uint64_t n, cap;
    arb_archive_index state;
    char note[200];
    int cut;
    uint64_t cut_offset;
    uint64_t end;           /* end of the last complete member frame */
    uint64_t unread;        /* offset of the first byte nothing accounts for, 0: none */
    tails t;
    primes pr;
    pthread_mutex_t mu;     /* members may be opened from several threads */
};

static int a_fail(arb_archive *a, arb_error *err, int code, uint64_t off, const char *msg)
{
    arb_error_where(err, "%s: offset %llu", a->name, (unsigned long long)off);
    return arb_error_set(err, code, NULL, "%s", msg);
}

static int read_at(arb_archive *a, uint64_t off, void *buf, size_t n)
{
    if (off > a->size || n > a->size - off) return -1;
    if (fseeko(a->f, (off_t)off, SEEK_SET)) return -1;
    return fread(buf, 1, n, a->f) == n ? 0 : -1;
}

/* Parse the member frame header at off: 0 ok (m filled, *end = frame
 * end), 1 cut by the end of the file, 2 not a member frame. */
static int frame_at(arb_archive *a, uint64_t off, arb_archive_member *m, uint64_t *end)
{
    uint8_t h[24];
    size_t n = a->size - off < sizeof h ? (size_t)(a->size - off) : sizeof h;
    if (n == 0 || read_at(a, off, h, n)) return 1;
    /* a member is one match: its flags never say archive */
    if (h[0] != FRAME_MEMBER || (n > 1 && (h[1] & ARB_REPLAY_FLAG_ARCHIVE))) return 2;
    const uint8_t *p = h + 2, *e = h + n;
    uint64_t zlen = 0, slen = 0;
    if (n < 2) return 1;
    int r1 = get_varint(&p, e, &zlen), r2 = r1 ? r1 : get_varint(&p, e, &slen);
    if (r1 == 1 || r2 == 1) return n < sizeof h ? 1 : 2;
    if (r1 || r2 || zlen < 6 || zlen > ZLEN_MAX || slen > ARB_REPLAY_TRAILER_MAX) return 2;
    uint64_t hl = (uint64_t)(p - h);
    memset(m, 0, sizeof *m);
    m->offset = off;
    m->flags = h[1];
    m->zlen = zlen;
    m->slen = slen;
    *end = off + hl + zlen + slen;
    return *end > a->size ? 1 : 0;
}

static int push_member(arb_archive *a, const arb_archive_member *m)
{
    if (a->n == a->cap) {
        uint64_t nc = a->cap ? a->cap * 2 : 64;
        arb_archive_member *q = realloc(a->m, nc * sizeof *q);
        if (!q) return -1;
        a->m = q;
        a->cap = nc;
    }
    a->m[a->n++] = *m;
    return 0;
}

/* The trailer's index, checked against every frame it names. 0 ok, else
 * a->note says why it is not trusted. */
static int load_index(arb_archive *a)
{
    uint8_t tr[TRAILER];
    if (a->size < ARB_REPLAY_ENVELOPE + TRAILER || read_at(a, a->size - TRAILER, tr, TRAILER) ||
        memcmp(tr + 12, "TCGX", 4) != 0) {
        snprintf(a->note, sizeof a->note, "no index trailer at the end of the file");
        return -1;
    }
    uint64_t ioff = get_le(tr, 8), cnt = get_le(tr + 8, 4);
    uint64_t ilen = a->size - TRAILER - (ioff < a->size ? ioff : 0);
    if (ioff < ARB_REPLAY_ENVELOPE || ioff >= a->size - TRAILER || ilen > 64 + cnt * 40 || ilen < 6) {
        snprintf(a->note, sizeof a->note, "the trailer's index offset %llu is impossible", (unsigned long long)ioff);
        return 1;
    }
    uint8_t *buf = malloc((size_t)ilen);
    if (!buf || read_at(a, ioff, buf, (size_t)ilen)) {
        free(buf);
        snprintf(a->note, sizeof a->note, "the index frame cannot be read");
        return 1;
    }
    int bad = 0;
    const uint8_t *p = buf + 1, *e = buf + ilen - 4;
    uint64_t n = 0, off = ARB_REPLAY_ENVELOPE;
    if (buf[0] != FRAME_INDEX) bad = 1;
    else if (get_le(e, 4) != (uint64_t)crc32(0, buf, (uInt)(ilen - 4))) bad = 2;
    else if (get_varint(&p, e, &n) || n != cnt) bad = 3;
    for (uint64_t i = 0; !bad && i < n; i++) {
        uint64_t d, clen, acts, end;
        if (get_varint(&p, e, &d) || get_varint(&p, e, &clen) || get_varint(&p, e, &acts)) { bad = 3; break; }
        if (i > 0 && d == 0) { bad = 4; break; }
        off += d;
        arb_archive_member m;
        if (off != (i == 0 ? ARB_REPLAY_ENVELOPE : a->end) || frame_at(a, off, &m, &end)) { bad = 4; break; }
        m.content = clen;
        m.actions = acts;
        if (push_member(a, &m)) { bad = 5; break; }
        a->end = end;
    }
    if (!bad && p != e) bad = 3;
    if (!bad && (n ? a->end : ARB_REPLAY_ENVELOPE) != ioff) bad = 4;
    free(buf);
    if (bad) {
        static const char *why[] = { "", "the trailer does not point at an index frame", "its CRC-32 does not match",
                                     "it is malformed", "its offsets do not match the member frames", "out of memory" };
        snprintf(a->note, sizeof a->note, "the index is not trusted: %s; rebuilt from the member frames", why[bad]);
        a->n = 0;
        a->end = ARB_REPLAY_ENVELOPE;
        return 1;
    }
    return 0;
}

/* Walk the frames from the envelope on. */
static void scan(arb_archive *a)
{
    uint64_t off = ARB_REPLAY_ENVELOPE, end;
    a->n = 0;
    a->end = off;
    while (off < a->size) {
        arb_archive_member m;
        int r = frame_at(a, off, &m, &end);
        if (r == 1) {
            a->cut = 1;
            a->cut_offset = off;
            return;
        }
        if (r == 2) {
            uint8_t b = 0;
            read_at(a, off, &b, 1);
            a->unread = off; /* an index frame without its trailer, or garbage */
            if (b != FRAME_INDEX) {
                size_t k = strlen(a->note);
                snprintf(a->note + k, sizeof a->note - k, "%sbytes at offset %llu are not a frame; nothing after them "
                         "is read", k ? "; " : "", (unsigned long long)off);
            }
            return;
        }
        if (push_member(a, &m)) return;
        a->end = off = end;
    }
}

int arb_archive_is(const char *path)
{
    /* one open and one read (no stdio): verify asks this of every file */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    uint8_t env[8];
    ssize_t k;
    while ((k = read(fd, env, sizeof env)) < 0 && errno == EINTR) {}
    close(fd);
    return k == 8 && memcmp(env, "TCGR", 4) == 0 && env[4] == 2 && (env[5] & ARB_REPLAY_FLAG_ARCHIVE);
}

/* An archive envelope is exactly "TCGR" 02 02 00 00 followed by a frame
 * (FORMAT.md §C.1): no seal covers it, so no byte of it may vary unseen. A
 * range-coded flag, a primer byte or a zlib / range-coded body right after
 * the envelope is a single-match replay whose flags byte was changed:
 * refused as such, never read as an empty archive (which would verify
 * nothing and pass). */
static int single_in_disguise(arb_archive *a, const uint8_t env[8], arb_error *err)
{
    if ((env[5] & ARB_REPLAY_FLAG_RC) || env[6])
        return a_fail(a, err, ARB_EFORMAT, env[6] && !(env[5] & ARB_REPLAY_FLAG_RC) ? 6 : 5,
                      "the flags byte says archive, but the envelope also names a range-coded body or a primer: a "
                      "single-match replay whose flags were changed, not an archive; refused");
    if (env[5] != ARB_REPLAY_FLAG_ARCHIVE || env[7])
        return a_fail(a, err, ARB_EFORMAT, env[7] ? 7 : 5,
                      "an archive's envelope is exactly TCGR 02 02 00 00 (FORMAT.md §C.1): other flag bits or a "
                      "nonzero reserved byte are refused, since no seal covers them");
    uint8_t b;
    if (a->size > ARB_REPLAY_ENVELOPE && read_at(a, ARB_REPLAY_ENVELOPE, &b, 1) == 0 && b != FRAME_MEMBER &&
        b != FRAME_INDEX)
        return a_fail(a, err, ARB_EFORMAT, ARB_REPLAY_ENVELOPE,
                      "the flags byte says archive, but no member or index frame follows the envelope (a single-match "
                      "replay's body, or a destroyed first frame): refused");
    return ARB_OK;
}

int arb_archive_open(arb_archive **out, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, path);
    *out = NULL;
    arb_archive *a = calloc(1, sizeof *a);
    if (!a) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening %s", path);
    snprintf(a->name, sizeof a->name, "%s", path);
    pthread_mutex_init(&a->mu, NULL);
    a->f = fopen(path, "rb");
    if (!a->f) {
        arb_error_where(err, "%s", path);
        int rc = arb_error_set(err, ARB_EIO, NULL, "cannot open: %s", strerror(errno));
        pthread_mutex_destroy(&a->mu);
        free(a);
        return rc;
    }
    fseeko(a->f, 0, SEEK_END);
    a->size = (uint64_t)ftello(a->f);
    uint8_t env[8];
    int rc = ARB_OK;
    if (a->size < 8 || read_at(a, 0, env, 8) || memcmp(env, "TCGR", 4) != 0)
        rc = a_fail(a, err, a->size < 8 ? ARB_ETRUNC : ARB_EFORMAT, 0, "not a .tcgr archive (no 8-byte TCGR envelope)");
    else if (env[4] != 2 || !(env[5] & ARB_REPLAY_FLAG_ARCHIVE))
        rc = a_fail(a, err, ARB_EFORMAT, 4, "a single-match replay, not an archive");
    else
        rc = single_in_disguise(a, env, err);
    if (rc) {
        arb_archive_close(a);
        return rc;
    }
    int li = load_index(a);
    if (li) {
        a->state = li < 0 ? ARB_INDEX_MISSING : ARB_INDEX_CORRUPT;
        scan(a);
    }
    *out = a;
    return ARB_OK;
}

void arb_archive_close(arb_archive *a)
{
    if (!a) return;
    if (a->f) fclose(a->f);
    tails_free(&a->t);
    primes_free(&a->pr);
    pthread_mutex_destroy(&a->mu);
    free(a->m);
    free(a);
}

uint64_t arb_archive_count(const arb_archive *a) { return a->n; }
const arb_archive_member *arb_archive_member_at(const arb_archive *a, uint64_t i) { return i < a->n ? &a->m[i] : NULL; }

arb_archive_index arb_archive_index_state(const arb_archive *a, const char **note)
{
    if (note) *note = a->note;
    return a->state;
}

int arb_archive_cut(const arb_archive *a, uint64_t *offset)
{
    if (a->cut && offset) *offset = a->cut_offset;
    return a->cut;
}

int arb_archive_unread(const arb_archive *a, uint64_t *offset)
{
    if (a->unread && offset) *offset = a->unread;
    return a->unread != 0;
}

int arb_archive_verdict(const arb_archive *a, arb_error *err)
{
    if (a->state == ARB_INDEX_CORRUPT) {
        arb_error_where(err, "%s: offset %llu", a->name, (unsigned long long)(a->size - TRAILER));
        return arb_error_set(err, ARB_EFORMAT, NULL, "%s", a->note);
    }
    if (a->unread) {
        arb_error_where(err, "%s: offset %llu", a->name, (unsigned long long)a->unread);
        return arb_error_set(err, ARB_EFORMAT, NULL,
                             "%llu byte(s) from here to the end of the file are neither a member frame nor a valid "
                             "index and trailer: nothing there is read or verified (`arbiter archive repair` copies "
                             "the members that verify into a new file)",
                             (unsigned long long)(a->size - a->unread));
    }
    if (a->n == 0 && !a->cut) {
        arb_error_where(err, "%s", a->name);
        return arb_error_set(err, ARB_EVERIFY, NULL, "no match: the archive holds no complete member");
    }
    return ARB_OK;
}

/* The frame bytes of member i: *zb (zlib stream) and *sb (seal), malloc'd
 * together in *buf. */
static int member_bytes(arb_archive *a, uint64_t i, uint8_t **buf, const uint8_t **zb, const uint8_t **sb,
                        arb_error *err)
{
    const arb_archive_member *m = &a->m[i];
    uint8_t h[24];
    size_t hn = a->size - m->offset < sizeof h ? (size_t)(a->size - m->offset) : sizeof h;
    if (read_at(a, m->offset, h, hn)) return a_fail(a, err, ARB_EIO, m->offset, "cannot read a member frame");
    const uint8_t *p = h + 2;
    uint64_t z, s;
    get_varint(&p, h + hn, &z);
    get_varint(&p, h + hn, &s);
    uint64_t hl = (uint64_t)(p - h);
    uint8_t *b = malloc((size_t)(m->zlen + m->slen + 1));
    if (!b) return a_fail(a, err, ARB_ENOMEM, m->offset, "out of memory reading a member");
    if (read_at(a, m->offset + hl, b, (size_t)(m->zlen + m->slen))) {
        free(b);
        return a_fail(a, err, ARB_EIO, m->offset, "cannot read a member frame");
    }
    *buf = b;
    *zb = b;
    *sb = b + m->zlen;
    return ARB_OK;
}

/* Decode member i completely (dictionary members, extract), bounded;
 * *hl: its header's length. */
static int member_content(arb_archive *a, uint64_t i, const uint8_t *dict, size_t dn, const arb_rc_model *prime,
                          uint8_t **out, size_t *on, size_t *hl, arb_error *err)
{
    uint8_t *buf;
    const uint8_t *zb, *sb;
    int rc = member_bytes(a, i, &buf, &zb, &sb, err);
    if (rc) return rc;
    if (a->m[i].flags & ARB_REPLAY_FLAG_RC) {
        arb_rc_model m;
        size_t used = 0;
        const char *why = "out of memory decoding a member";
        if (!arb_rc_model_init(&m) && (!prime || !arb_rc_model_base(&m, prime)))
            why = arb_rc_decode_all(&m, buf, (size_t)a->m[i].zlen, (a->m[i].flags & ARB_REPLAY_FLAG_TIMED) != 0,
                                    DICT_MEMBER_MAX, out, on, hl, &used);
        arb_rc_model_free(&m);
        free(buf);
        if (!why && used != a->m[i].zlen) {
            free(*out);
            *out = NULL;
            why = "bytes follow its range-coded body inside the frame";
        }
        if (why) {
            char msg[200];
            snprintf(msg, sizeof msg, "member %llu does not decode: %s", (unsigned long long)i, why);
            return a_fail(a, err, ARB_EFORMAT, a->m[i].offset, msg);
        }
        return ARB_OK;
    }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK) {
        free(buf);
        return arb_error_set(err, ARB_ENOMEM, NULL, "zlib inflateInit failed");
    }
    size_t cap = 4096, n = 0;
    uint8_t *o = malloc(cap);
    zs.next_in = buf;
    zs.avail_in = (uInt)a->m[i].zlen;
    int zr = Z_OK;
    arb_replay__zpad zp = { 0, 0, 0 };
    int stalled = 0; /* Z_BLOCK stops at the boundary after the dictionary without progress: go on once */
    while (o) {
        if (zp.pend && zs.avail_in && arb_replay__zpad_next(&zp, zs.next_in[0])) { zr = Z_DATA_ERROR; break; }
        if (n == cap) {
            if (cap >= DICT_MEMBER_MAX) { zr = Z_BUF_ERROR; break; }
            uint8_t *q = realloc(o, cap * 2);
            if (!q) { free(o); o = NULL; break; }
            o = q;
            cap *= 2;
        }
        zs.next_out = o + n;
        zs.avail_out = (uInt)(cap - n);
        zr = inflate(&zs, Z_BLOCK);
        n = cap - zs.avail_out;
        if ((zr == Z_OK || zr == Z_STREAM_END) && (zs.data_type & 128) && zs.next_in > buf &&
            arb_replay__zpad_at(&zp, zs.data_type, zs.next_in[-1])) {
            zr = Z_DATA_ERROR;
            break;
        }
        if (zr == Z_NEED_DICT) {
            if (!dn || inflateSetDictionary(&zs, dict, (uInt)dn) != Z_OK) { zr = Z_DATA_ERROR; break; }
            continue;
        }
        if (zr == Z_BUF_ERROR && (zs.data_type & 128) && zs.avail_in && !stalled++) continue;
        if (zr != Z_OK) break; /* Z_BUF_ERROR: no progress, the stream ends early */
        stalled = 0;
    }
    inflateEnd(&zs);
    free(buf);
    if (!o) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory decoding a member");
    if (zr != Z_STREAM_END || zs.avail_in != 0) {
        free(o);
        char msg[160];
        snprintf(msg, sizeof msg, "member %llu (a dictionary member) does not decode: %s", (unsigned long long)i,
                 zr == Z_BUF_ERROR ? "its stream ends early or is too large" : "corrupt zlib stream");
        return a_fail(a, err, ARB_EFORMAT, a->m[i].offset, msg);
    }
    *out = o;
    *on = n;
    *hl = header_len_of(o, n);
    return ARB_OK;
}

/* Dictionary of member i: tails of the first min(i, 16) contents, and the
 * model primed with them (*pm). */
static int dict_for(arb_archive *a, uint64_t i, const uint8_t **d, size_t *dn, const arb_rc_model **pm,
                    arb_error *err)
{
    unsigned k = i < ARB_ARCHIVE_DICT_MEMBERS ? (unsigned)i : ARB_ARCHIVE_DICT_MEMBERS;
    if (!a->pr.pm[0] && !(a->pr.pm[0] = model_new()))
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory building the dictionary");
    while (a->t.have < k) {
        uint8_t *c;
        size_t cn, hl;
        unsigned j = a->t.have;
        int rc = member_content(a, j, a->t.p[j], a->t.n[j], a->pr.pm[j], &c, &cn, &hl, err);
        if (rc) return rc;
        rc = tails_push(&a->t, c, cn);
        if (!rc) rc = primes_push(&a->pr, c, cn, hl, (a->m[j].flags & ARB_REPLAY_FLAG_TIMED) != 0);
        free(c);
        if (rc) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory building the dictionary");
    }
    *d = a->t.p[k];
    *dn = a->t.n[k];
    if (pm) *pm = a->pr.pm[k];
    return ARB_OK;
}

static int open_member(arb_replay **out, arb_archive *a, uint64_t i, const arb_replay_limits *lim, arb_error *err);

int arb_archive_open_member(arb_replay **out, arb_archive *a, uint64_t i, const arb_replay_limits *lim,
                            arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    pthread_mutex_lock(&a->mu);
    int rc = open_member(out, a, i, lim, err);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

static int open_member(arb_replay **out, arb_archive *a, uint64_t i, const arb_replay_limits *lim, arb_error *err)
{
    *out = NULL;
    if (i >= a->n) return arb_error_set(err, ARB_EINVAL, NULL, "no member %llu", (unsigned long long)i);
    const uint8_t *d;
    size_t dn;
    const arb_rc_model *pm;
    int rc = dict_for(a, i, &d, &dn, &pm, err);
    if (rc) return rc;
    uint8_t *buf;
    const uint8_t *zb, *sb;
    if ((rc = member_bytes(a, i, &buf, &zb, &sb, err))) return rc;
    const arb_archive_member *m = &a->m[i];
    size_t len = 8 + (size_t)m->zlen + (size_t)m->slen;
    char name[4200];
    snprintf(name, sizeof name, "%s#%llu", a->name, (unsigned long long)i);
    if (m->flags & ARB_REPLAY_FLAG_RC) {
        uint8_t *img = malloc(len);
        if (!img) {
            free(buf);
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening a member");
        }
        const uint8_t env[8] = { 'T', 'C', 'G', 'R', 2, (uint8_t)(m->flags & ~ARB_REPLAY_FLAG_ARCHIVE), 0, 0 };
        memcpy(img, env, 8);
        memcpy(img + 8, buf, (size_t)(m->zlen + m->slen));
        free(buf);
        arb_replay *r;
        rc = arb_replay__open_mem_prime(&r, img, len, pm, name, lim, err);
        if (rc) {
            free(img);
            return rc;
        }
        arb_replay__own(r, img, NULL);
        if (a->state == ARB_INDEX_OK) arb_replay__index_expect(r, i, m->content, m->actions);
        *out = r;
        return ARB_OK;
    }
    uint8_t *img = malloc(len);
    uint8_t *dc = malloc(dn ? dn : 1);
    if (!img || !dc) {
        free(buf);
        free(img);
        free(dc);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening a member");
    }
    const uint8_t env[8] = { 'T', 'C', 'G', 'R', 2, (uint8_t)(m->flags & ~ARB_REPLAY_FLAG_ARCHIVE), 0, 0 };
    memcpy(img, env, 8);
    memcpy(img + 8, buf, (size_t)(m->zlen + m->slen));
    free(buf);
    if (dn) memcpy(dc, d, dn);
    arb_replay *r;
    rc = arb_replay__open_mem_dict(&r, img, len, dc, dn, name, lim, err);
    if (rc) {
        free(img);
        free(dc);
        return rc;
    }
    arb_replay__own(r, img, dc);
    if (a->state == ARB_INDEX_OK) arb_replay__index_expect(r, i, m->content, m->actions);
    *out = r;
    return ARB_OK;
}

/* Member i's content length and action count, read from the member itself
 * (an archive whose index was rebuilt from the frames has neither). */
static int member_counts(arb_archive *a, uint64_t i, arb_archive_member *m, arb_error *err)
{
    arb_replay *r;
    int rc = open_member(&r, a, i, NULL, err);
    if (rc) return rc;
    arb_replay_record rec;
    while ((rc = arb_replay_next(r, &rec, err)) > 0) {}
    if (rc == 0) {
        arb_replay_status st;
        arb_replay_get_status(r, &st);
        m->content = st.decompressed;
        m->actions = st.actions;
    }
    arb_replay_close(r);
    return rc;
}

static int extract(arb_archive *a, uint64_t i, const char *path, arb_error *err);

int arb_archive_extract(arb_archive *a, uint64_t i, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    pthread_mutex_lock(&a->mu);
    int rc = extract(a, i, path, err);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

static int extract(arb_archive *a, uint64_t i, const char *path, arb_error *err)
{
    if (i >= a->n) return arb_error_set(err, ARB_EINVAL, NULL, "no member %llu", (unsigned long long)i);
    const uint8_t *d;
    size_t dn;
    const arb_rc_model *pm;
    int rc = dict_for(a, i, &d, &dn, &pm, err);
    if (rc) return rc;
    uint8_t *c, *buf, *z = NULL;
    const uint8_t *zb, *sb;
    size_t cn, zn = 0, hl;
    if ((rc = member_content(a, i, d, dn, pm, &c, &cn, &hl, err))) return rc;
    if ((rc = member_bytes(a, i, &buf, &zb, &sb, err))) {
        free(c);
        return rc;
    }
    /* the standalone file: the same content range-coded as a single file
     * is, from its game's primer (same content, same digest: the seal stays
     * valid) */
    const arb_archive_member *m = &a->m[i];
    uint8_t env[8] = { 'T', 'C', 'G', 'R', 2, (uint8_t)(m->flags & ~ARB_REPLAY_FLAG_ARCHIVE), 0, 0 };
    if (arb_rc_code_standalone(c, cn, hl, (m->flags & ARB_REPLAY_FLAG_TIMED) != 0, 1, env, &z, &zn))
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory coding a member");
    free(c);
    if (rc) {
        free(buf);
        return rc;
    }
    char part[4200];
    if ((size_t)snprintf(part, sizeof part, "%s.part", path) >= sizeof part) {
        free(z);
        free(buf);
        return arb_error_set(err, ARB_EINVAL, NULL, "output path too long");
    }
    FILE *f = arb_out_create(path, part, 0666, 0, err);
    int ok = f && fwrite(env, 1, 8, f) == 8 && fwrite(z, 1, zn, f) == zn &&
             (!m->slen || fwrite(sb, 1, (size_t)m->slen, f) == m->slen);
    int en = errno;
    free(z);
    free(buf);
    if (!f) return err->code;
    if (!ok) {
        arb_out_discard(f, part);
        arb_error_where(err, "%s", part);
        return arb_error_set(err, ARB_EIO, NULL, "cannot write: %s", strerror(en));
    }
    return arb_out_install(f, part, path, 0, err);
}

/* ================================================================ writer */

typedef struct job {
    uint8_t *content;
    size_t n, hl;
    uint64_t actions;
    uint8_t flags;
    arb_replay__late late;      /* hash bytes to fill in first (internal.h) */
    size_t nseal;
    uint8_t seal[ARB_REPLAY_TRAILER_MAX];
} job;

struct arb_archive_writer {
    FILE *f;
    char *path, *part;
    int append, failed;
    uint64_t added;             /* members handed over (the main thread's count) */
    arb_error ferr;             /* the compressor's first error */
    uint64_t off;               /* end of the last member frame */
    arb_archive_member *m;
    uint64_t n, cap;
    tails t;
    z_stream zs;                /* primed: reset with the dictionary of member k_primed */
    int zinit;
    unsigned k_primed;          /* UINT_MAX: not primed */
    uint8_t *zbuf;
    size_t zcap;
    /* range-coded members (the default; zlib: §C.1 streams instead) */
    int zlib;
    arb_rc_model prime, work;   /* prime: after members 0..min(n,16)-1 */
    int rcinit;
    /* the compressor thread */
    int threaded, stop;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    job *q[QUEUE];
    unsigned qh, qn;
    int asleep;                 /* the compressor waits without a timeout */
    arb_replay__late spare[QUEUE]; /* used late-hash lists, for the next members */
    unsigned nspare;
};

static int w_push(arb_archive_writer *aw, const arb_archive_member *m)
{
    if (aw->n == aw->cap) {
        uint64_t nc = aw->cap ? aw->cap * 2 : 256;
        arb_archive_member *q = realloc(aw->m, nc * sizeof *q);
        if (!q) return -1;
        aw->m = q;
        aw->cap = nc;
    }
    aw->m[aw->n++] = *m;
    return 0;
}

void arb_archive__writer_zlib(arb_archive_writer *aw, int on) { aw->zlib = on; }

/* Range-code and write one member: the model primed with the first
 * members' contents, copied (FORMAT.md §D.5). */
static int write_member_rc(arb_archive_writer *aw, job *j, arb_error *err)
{
    int timed = (j->flags & ARB_REPLAY_FLAG_TIMED) != 0;
    uint8_t *z;
    size_t zn;
    /* aw->prime changes only after this member is coded */
    if (arb_rc_model_base(&aw->work, &aw->prime) || arb_rc_encode(&aw->work, j->content, j->n, j->hl, timed, &z, &zn))
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory coding a member");
    uint8_t flags = (uint8_t)(j->flags | ARB_REPLAY_FLAG_RC);
    uint8_t h[24], *p = h;
    *p++ = FRAME_MEMBER;
    *p++ = flags;
    p = arb_replay__varint(p, zn);
    p = arb_replay__varint(p, j->nseal);
    size_t hl = (size_t)(p - h);
    int ok = fwrite(h, 1, hl, aw->f) == hl && fwrite(z, 1, zn, aw->f) == zn &&
             (!j->nseal || fwrite(j->seal, 1, j->nseal, aw->f) == j->nseal);
    free(z);
    if (!ok) {
        arb_error_where(err, "%s", aw->part ? aw->part : aw->path);
        return arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(errno));
    }
    arb_archive_member m = { aw->off, zn, j->nseal, j->n, j->actions, flags };
    if (w_push(aw, &m)) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory indexing a member");
    aw->off += hl + zn + j->nseal;
    if (aw->n <= ARB_RC_PRIME_MEMBERS && (arb_rc_prime(&aw->prime, j->content, j->n, j->hl, timed) ||
                                          tails_push(&aw->t, j->content, j->n)))
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory priming the models");
    return ARB_OK;
}

/* The members written so far reach the file. */
static int member_flush(arb_archive_writer *aw, arb_error *err)
{
    if (!fflush(aw->f)) return ARB_OK;
    arb_error_where(err, "%s", aw->part ? aw->part : aw->path);
    return arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(errno));
}

/* Compress and write one member (the compressor's work). */
static int write_member(arb_archive_writer *aw, job *j, arb_error *err)
{
    if (!aw->zlib) return write_member_rc(aw, j, err);
    unsigned k = aw->n < ARB_ARCHIVE_DICT_MEMBERS ? (unsigned)aw->n : ARB_ARCHIVE_DICT_MEMBERS;
    /* A state primed with the dictionary is copied for each member: cheaper
     * than hashing the dictionary again (same bytes either way). */
    if (aw->k_primed != k) {
        if (deflateReset(&aw->zs) != Z_OK) return arb_error_set(err, ARB_EIO, NULL, "zlib deflateReset failed");
        if (aw->t.n[k] && deflateSetDictionary(&aw->zs, aw->t.p[k], (uInt)aw->t.n[k]) != Z_OK)
            return arb_error_set(err, ARB_EIO, NULL, "zlib rejects the dictionary");
        aw->k_primed = k;
    }
    z_stream zw;
    memset(&zw, 0, sizeof zw);
    if (deflateCopy(&zw, &aw->zs) != Z_OK) return arb_error_set(err, ARB_ENOMEM, NULL, "zlib deflateCopy failed");
    size_t need = deflateBound(&zw, (uLong)j->n) + 32 + j->nseal;
    if (need > aw->zcap) {
        uint8_t *q = realloc(aw->zbuf, need);
        if (!q) {
            deflateEnd(&zw);
            return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory compressing a member");
        }
        aw->zbuf = q;
        aw->zcap = need;
    }
    /* frame header: 'M', flags, varint zlen, varint slen — zlen is known
     * only after deflate, so compress after a 24-byte gap */
    uint8_t *zo = aw->zbuf + 24;
    zw.next_in = j->content;
    zw.avail_in = (uInt)j->n;
    zw.next_out = zo;
    zw.avail_out = (uInt)(aw->zcap - 24 - j->nseal);
    int zr = deflate(&zw, Z_FINISH);
    size_t zn = (size_t)(zw.next_out - zo);
    deflateEnd(&zw);
    if (zr != Z_STREAM_END) return arb_error_set(err, ARB_EIO, NULL, "zlib deflate failed");
    uint8_t h[24], *p = h;
    *p++ = FRAME_MEMBER;
    *p++ = j->flags;
    p = arb_replay__varint(p, zn);
    p = arb_replay__varint(p, j->nseal);
    size_t hl = (size_t)(p - h);
    memcpy(zo - hl, h, hl);
    if (j->nseal) memcpy(zo + zn, j->seal, j->nseal);
    size_t total = hl + zn + j->nseal;
    if (fwrite(zo - hl, 1, total, aw->f) != total) {
        arb_error_where(err, "%s", aw->part ? aw->part : aw->path);
        return arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(errno));
    }
    arb_archive_member m = { aw->off, zn, j->nseal, j->n, j->actions, j->flags };
    if (w_push(aw, &m)) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory indexing a member");
    aw->off += total;
    if (k < ARB_ARCHIVE_DICT_MEMBERS && (tails_push(&aw->t, j->content, j->n) ||
                                         arb_rc_prime(&aw->prime, j->content, j->n, j->hl, (j->flags & ARB_REPLAY_FLAG_TIMED) != 0)))
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory building the dictionary");
    return ARB_OK;
}

static void *compressor(void *arg)
{
    arb_archive_writer *aw = arg;
    /* Members written since the last flush: they reach the file when the
     * queue runs empty (at once, when the compressor keeps up) or every
     * QUEUE members, so a killed writer loses no more than the queue can
     * hold anyway, and a fast recorder pays no write(2) per member. */
    unsigned unflushed = 0;
    for (;;) {
        pthread_mutex_lock(&aw->mu);
        int napped = 0;
        while (!aw->qn && !aw->stop) {
            struct timespec until;
            if (!napped && !clock_gettime(CLOCK_MONOTONIC, &until)) {
                until.tv_nsec += NAP_NS;
                if (until.tv_nsec >= 1000000000L) {
                    until.tv_sec++;
                    until.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&aw->cv, &aw->mu, &until);
                napped = 1;
                continue;
            }
            aw->asleep = 1;
            pthread_cond_wait(&aw->cv, &aw->mu);
            aw->asleep = 0;
        }
        if (!aw->qn) {
            pthread_mutex_unlock(&aw->mu);
            return NULL;
        }
        job *j = aw->q[aw->qh];
        pthread_mutex_unlock(&aw->mu);
        arb_error e = ARB_ERROR_INIT;
        int failed = aw->failed;
        arb_replay__late_fill(&j->late, j->content, j->n);
        if (!failed && write_member(aw, j, &e)) failed = 1;
        free(j->content);
        pthread_mutex_lock(&aw->mu);
        if (j->late.cap && aw->nspare < QUEUE)
            aw->spare[aw->nspare++] = j->late;
        else
            arb_replay__late_free(&j->late);
        free(j);
        if (failed && !aw->failed) {
            aw->ferr = e;
            aw->failed = 1;
        }
        aw->qh = (aw->qh + 1) % QUEUE;
        if (aw->qn-- == QUEUE || aw->qn == 0) pthread_cond_broadcast(&aw->cv); /* a waiting producer, or close */
        unsigned left = aw->qn;
        pthread_mutex_unlock(&aw->mu);
        if (!failed && (!left || ++unflushed >= QUEUE)) {
            unflushed = 0;
            if (member_flush(aw, &e)) {
                pthread_mutex_lock(&aw->mu);
                if (!aw->failed) {
                    aw->ferr = e;
                    aw->failed = 1;
                }
                pthread_mutex_unlock(&aw->mu);
            }
        }
    }
}

int arb_archive__late_take(arb_archive_writer *aw, arb_replay__late *l, size_t state_size)
{
    memset(l, 0, sizeof *l);
    if (!aw->threaded) return 0;
    pthread_mutex_lock(&aw->mu);
    /* Members waiting: the compressor is behind, so this one is hashed by
     * the recorder itself — the two threads share the work by themselves
     * (the bytes are the same either way). */
    int defer = aw->qn < LATE_BACKLOG;
    if (defer && aw->nspare) *l = aw->spare[--aw->nspare];
    pthread_mutex_unlock(&aw->mu);
    if (l->state_size != state_size) { /* another game's states (a mixed archive) */
        arb_replay__late_free(l);
        memset(l, 0, sizeof *l);
    }
    return defer;
}

int arb_archive__add(arb_archive_writer *aw, const uint8_t env[8], arb_mpbuf *content, size_t header_len,
                     uint64_t actions, arb_replay__late *late, arb_replay_seal_fn seal, void *seal_ctx, arb_error *err)
{
    job *j = malloc(sizeof *j);
    if (!j) {
        arb_replay__late_free(late);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory adding a member");
    }
    aw->added++;
    j->content = content->p;
    j->n = content->n;
    j->hl = header_len;
    j->actions = actions;
    j->flags = env[5];
    j->nseal = 0;
    memset(content, 0, sizeof *content);
    memset(&j->late, 0, sizeof j->late);
    if (late) {
        j->late = *late;
        memset(late, 0, sizeof *late);
    }
    if (seal && j->late.n) {
        arb_replay__late_free(&j->late);
        free(j->content);
        free(j);
        return arb_error_set(err, ARB_EINVAL, NULL, "a sealed member with hashes not yet filled in");
    }
    if (seal) {
        uint8_t dg[ARB_REPLAY_DIGEST];
        arb_replay__digest(env, j->content, j->n, dg);
        int rc = seal(seal_ctx, env, dg, j->seal, sizeof j->seal, &j->nseal, err);
        if (rc || j->nseal > sizeof j->seal) {
            free(j->content);
            free(j);
            return rc ? rc : arb_error_set(err, ARB_EINVAL, NULL, "a seal block longer than %d bytes",
                                           ARB_REPLAY_TRAILER_MAX);
        }
    }
    if (!aw->threaded) {
        arb_replay__late_fill(&j->late, j->content, j->n);
        arb_replay__late_free(&j->late);
        int rc = aw->failed ? arb_error_set(err, ARB_EIO, NULL, "the archive writer failed earlier")
                            : write_member(aw, j, err);
        if (!rc) rc = member_flush(aw, err); /* each member reaches the file as its match ends */
        if (rc) aw->failed = 1;
        free(j->content);
        free(j);
        return rc;
    }
    pthread_mutex_lock(&aw->mu);
    while (aw->qn == QUEUE) pthread_cond_wait(&aw->cv, &aw->mu);
    int failed = aw->failed;
    if (!failed) {
        aw->q[(aw->qh + aw->qn) % QUEUE] = j;
        /* the compressor waits only on an empty queue: asleep, or napping
         * until a batch is there */
        if (++aw->qn == 1 ? aw->asleep : aw->qn == WAKE_BATCH) pthread_cond_broadcast(&aw->cv);
    }
    pthread_mutex_unlock(&aw->mu);
    if (failed) {
        arb_replay__late_free(&j->late);
        free(j->content);
        free(j);
        *err = aw->ferr;
        return err->code ? err->code : ARB_EIO;
    }
    return ARB_OK;
}

typedef struct seal_copy {
    const uint8_t *p;
    size_t n;
} seal_copy;

/* The seal hook of a copied member: its seal block as it was (it covers
 * the member's envelope and content, which a copy keeps). */
static int copy_seal(void *ctx, const uint8_t envelope[8], const uint8_t digest[ARB_REPLAY_DIGEST], uint8_t *out,
                     size_t cap, size_t *n, arb_error *err)
{
    const seal_copy *sc = ctx;
    (void)envelope;
    (void)digest;
    if (sc->n > cap) return arb_error_set(err, ARB_EINVAL, NULL, "a seal block longer than %zu bytes", cap);
    memcpy(out, sc->p, sc->n);
    *n = sc->n;
    return ARB_OK;
}

static int copy_member(arb_archive_writer *aw, arb_archive *a, uint64_t i, uint64_t actions, arb_error *err);

int arb_archive_writer_copy(arb_archive_writer *aw, arb_archive *a, uint64_t i, uint64_t actions, arb_error *err)
{
    ARB_ASSERT_ARG(err, aw);
    pthread_mutex_lock(&a->mu);
    int rc = copy_member(aw, a, i, actions, err);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

static int copy_member(arb_archive_writer *aw, arb_archive *a, uint64_t i, uint64_t actions, arb_error *err)
{
    if (i >= a->n) return arb_error_set(err, ARB_EINVAL, NULL, "no member %llu", (unsigned long long)i);
    const uint8_t *d;
    size_t dn;
    const arb_rc_model *pm;
    int rc = dict_for(a, i, &d, &dn, &pm, err);
    if (rc) return rc;
    uint8_t *c, *buf;
    const uint8_t *zb, *sb;
    size_t cn, hl;
    if ((rc = member_content(a, i, d, dn, pm, &c, &cn, &hl, err))) return rc;
    if ((rc = member_bytes(a, i, &buf, &zb, &sb, err))) {
        free(c);
        return rc;
    }
    const arb_archive_member *m = &a->m[i];
    const uint8_t env[8] = { 'T', 'C', 'G', 'R', 2,
                             (uint8_t)(m->flags & ~(ARB_REPLAY_FLAG_ARCHIVE | ARB_REPLAY_FLAG_RC)), 0, 0 };
    seal_copy sc = { sb, (size_t)m->slen };
    arb_mpbuf content = { c, cn, cn, 0 };
    rc = arb_archive__add(aw, env, &content, hl, actions, NULL, m->slen ? copy_seal : NULL, &sc, err);
    free(buf);
    return rc;
}

int arb_archive_writer_add_file(arb_archive_writer *aw, const char *path, uint64_t *actions, arb_error *err)
{
    ARB_ASSERT_ARG(err, aw);
    ARB_ASSERT_ARG(err, path);
    *actions = 0;
    arb_replay *r;
    int rc = arb_replay__open_keep(&r, path, NULL, err);
    if (rc) return rc;
    uint8_t env[ARB_REPLAY_ENVELOPE];
    arb_replay_envelope(r, env);
    if (env[4] != 2) {
        arb_replay_close(r);
        arb_error_where(err, "%s: offset 4", path);
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL,
                             "a format-%u replay cannot be an archive member (members are format 2, FORMAT.md §C)",
                             env[4]);
    }
    arb_replay_record rec;
    int nr;
    while ((nr = arb_replay_next(r, &rec, err)) == 1) *actions += rec.kind == ARB_REC_ACTION;
    uint8_t *c = NULL;
    size_t cn = 0, hl = 0;
    if (nr < 0 || (rc = arb_replay__kept(r, &c, &cn, &hl, err))) {
        arb_replay_close(r);
        return nr < 0 ? nr : rc;
    }
    const uint8_t *trailer;
    size_t ntrailer = 0;
    arb_replay_sealable(r, NULL, &trailer, &ntrailer, NULL);
    /* the member's envelope: the file's flags without the body's coding
     * (the seal does not cover it, FORMAT.md §15.2) */
    const uint8_t menv[8] = { 'T', 'C', 'G', 'R', 2, (uint8_t)(env[5] & ~(ARB_REPLAY_FLAG_ARCHIVE | ARB_REPLAY_FLAG_RC)), 0, 0 };
    seal_copy sc = { trailer, ntrailer };
    arb_mpbuf content = { c, cn, cn, 0 };
    rc = arb_archive__add(aw, menv, &content, hl, *actions, NULL, ntrailer ? copy_seal : NULL, &sc, err);
    arb_replay_close(r);
    return rc;
}

int arb_archive_writer_open(arb_archive_writer **out, const char *path, int append, int threads, char *note,
                            size_t note_size, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, path);
    *out = NULL;
    if (note && note_size) note[0] = '\0';
    arb_archive_writer *aw = calloc(1, sizeof *aw);
    if (!aw) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening an archive");
    size_t pl = strlen(path);
    aw->path = malloc(pl + 1);
    aw->part = malloc(pl + 6);
    int rc = ARB_OK;
    if (!aw->path || !aw->part) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening an archive");
        goto fail;
    }
    memcpy(aw->path, path, pl + 1);
    memcpy(aw->part, path, pl);
    memcpy(aw->part + pl, ".part", 6);
    if (deflateInit2(&aw->zs, ARB_ARCHIVE_LEVEL, Z_DEFLATED, ARB_ARCHIVE_WBITS, ARB_ARCHIVE_MEMLEVEL, Z_DEFAULT_STRATEGY) != Z_OK) {
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "zlib deflateInit failed");
        goto fail;
    }
    aw->zinit = 1;
    aw->k_primed = ~0u;
    if (arb_rc_model_init(&aw->prime) || arb_rc_model_init(&aw->work)) {
        aw->rcinit = 1;
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory opening an archive");
        goto fail;
    }
    aw->rcinit = 1;
    /* an existing link or special file is refused, never read or appended through */
    if ((rc = arb_out_check(path, 0, err))) goto fail;
    FILE *probe = append ? fopen(path, "rb") : NULL;
    if (probe) {
        fclose(probe);
        /* Append: trust nothing but the frames the reader accepts; cut the
         * file after the last complete member (dropping the index, the
         * trailer and a member a crash cut short) and go on from there. */
        arb_archive *a;
        if ((rc = arb_archive_open(&a, path, err))) goto fail;
        /* Frames and index that disagree, or bytes no frame accounts for,
         * may hold members the walk did not find: appending after the
         * last frame found would destroy them. Refused, the file untouched. */
        if (a->state == ARB_INDEX_CORRUPT || a->unread) {
            arb_error_where(err, "%s: offset %llu", path, (unsigned long long)(a->unread ? a->unread : a->end));
            rc = arb_error_set(err, ARB_EFORMAT, NULL,
                               "cannot append: %s%llu byte(s) after the last frame found are unaccounted for; appending "
                               "would destroy them, so nothing was written (`arbiter archive repair` copies what "
                               "verifies into a new file)",
                               a->state == ARB_INDEX_CORRUPT ? "index and frames disagree; " : "",
                               (unsigned long long)(a->size - a->end));
            arb_archive_close(a);
            goto fail;
        }
        /* the new index carries every member's content length and action
         * count: read from the old index when it was trusted, else from
         * the members themselves (a member that does not read is refused) */
        for (uint64_t i = 0; i < a->n && !rc; i++) {
            arb_archive_member m = a->m[i];
            if (a->state != ARB_INDEX_OK && (rc = member_counts(a, i, &m, err))) {
                char why[ARB_MSG_MAX];
                snprintf(why, sizeof why, "%s", err->msg);
                arb_error_where(err, "%s: offset %llu", path, (unsigned long long)m.offset);
                rc = arb_error_set(err, rc == ARB_ETRUNC ? ARB_EFORMAT : rc, NULL,
                                   "cannot append: member %llu does not read (%s); nothing was written",
                                   (unsigned long long)i, why);
                break;
            }
            rc = w_push(aw, &m) ? ARB_ENOMEM : ARB_OK;
        }
        if (rc) {
            arb_archive_close(a);
            goto fail;
        }
        const uint8_t *d;
        size_t dn;
        const arb_rc_model *pm = NULL;
        if (!rc && a->n) rc = dict_for(a, a->n - 1 < ARB_ARCHIVE_DICT_MEMBERS ? a->n : ARB_ARCHIVE_DICT_MEMBERS, &d, &dn, &pm, err);
        if (!rc && pm && arb_rc_model_copy(&aw->prime, pm))
            rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory priming the models");
        if (!rc) {
            aw->t = a->t;
            memset(&a->t, 0, sizeof a->t);
            aw->off = a->end;
            if (note && note_size) {
                const char *nt = a->note;
                if (a->cut)
                    snprintf(note, note_size, "a member cut short at offset %llu was dropped%s%s",
                             (unsigned long long)a->cut_offset, nt[0] ? "; " : "", nt);
                else if (a->state == ARB_INDEX_CORRUPT) snprintf(note, note_size, "%s", nt);
            }
        }
        arb_archive_close(a);
        if (rc) goto fail;
        /* the dictionary tails cover the members it needs */
        if (!(aw->f = arb_out_open_existing(path, err))) {
            rc = err->code;
            goto fail;
        }
        if (ftruncate(fileno(aw->f), (off_t)aw->off) || fseeko(aw->f, (off_t)aw->off, SEEK_SET)) {
            arb_error_where(err, "%s", path);
            rc = arb_error_set(err, ARB_EIO, NULL, "cannot append: %s", strerror(errno));
            goto fail;
        }
        aw->append = 1;
    } else {
        if (!(aw->f = arb_out_create(path, aw->part, 0666, 0, err))) {
            rc = err->code;
            goto fail;
        }
        const uint8_t env[8] = { 'T', 'C', 'G', 'R', 2, ARB_REPLAY_FLAG_ARCHIVE, 0, 0 };
        if (fwrite(env, 1, 8, aw->f) != 8 || fflush(aw->f)) {
            arb_error_where(err, "%s", aw->part);
            rc = arb_error_set(err, ARB_EIO, NULL, "cannot create: %s", strerror(errno));
            goto fail;
        }
        aw->off = 8;
    }
    if (threads > 0) {
        pthread_mutex_init(&aw->mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* naps are not moved by the wall clock */
        pthread_cond_init(&aw->cv, &ca);
        pthread_condattr_destroy(&ca);
        if (pthread_create(&aw->th, NULL, compressor, aw) == 0) aw->threaded = 1;
        else {
            pthread_mutex_destroy(&aw->mu);
            pthread_cond_destroy(&aw->cv);
        }
    }
    *out = aw;
    return ARB_OK;
fail:
    if (aw->f && !aw->append) {
        arb_out_discard(aw->f, aw->part);
        aw->f = NULL;
    }
    arb_archive_writer_free(aw);
    return rc;
}

static void stop_thread(arb_archive_writer *aw)
{
    if (!aw->threaded) return;
    pthread_mutex_lock(&aw->mu);
    aw->stop = 1;
    pthread_cond_broadcast(&aw->cv);
    pthread_mutex_unlock(&aw->mu);
    pthread_join(aw->th, NULL);
    pthread_mutex_destroy(&aw->mu);
    pthread_cond_destroy(&aw->cv);
    aw->threaded = 0;
}

int arb_archive_writer_close(arb_archive_writer *aw, arb_error *err)
{
    if (!aw) return ARB_OK;
    stop_thread(aw);
    int rc = ARB_OK;
    if (aw->failed) {
        *err = aw->ferr;
        rc = err->code ? err->code : ARB_EIO;
        arb_archive_writer_free(aw);
        return rc;
    }
    /* index frame + trailer */
    size_t cap = 16 + (size_t)aw->n * 31;
    uint8_t *b = malloc(cap + TRAILER);
    if (!b) {
        arb_archive_writer_free(aw);
        return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory writing the index");
    }
    uint8_t *p = b;
    *p++ = FRAME_INDEX;
    p = arb_replay__varint(p, aw->n);
    uint64_t prev = 8;
    for (uint64_t i = 0; i < aw->n; i++) {
        p = arb_replay__varint(p, aw->m[i].offset - prev);
        prev = aw->m[i].offset;
        p = arb_replay__varint(p, aw->m[i].content);
        p = arb_replay__varint(p, aw->m[i].actions);
    }
    p = put_le(p, crc32(0, b, (uInt)(p - b)), 4);
    p = put_le(p, aw->off, 8);
    p = put_le(p, aw->n, 4);
    memcpy(p, "TCGX", 4);
    p += 4;
    size_t len = (size_t)(p - b);
    int ok = fwrite(b, 1, len, aw->f) == len;
    free(b);
    if (ok && !aw->append) {
        rc = arb_out_install(aw->f, aw->part, aw->path, 0, err);
    } else {
        if (ok && (fflush(aw->f) || fsync(fileno(aw->f)))) ok = 0;
        if (fclose(aw->f)) ok = 0;
        if (!ok) {
            arb_error_where(err, "%s", aw->append ? aw->path : aw->part);
            rc = arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(errno));
        }
    }
    aw->f = NULL;
    arb_archive_writer_free(aw);
    return rc;
}

void arb_archive_writer_free(arb_archive_writer *aw)
{
    if (!aw) return;
    stop_thread(aw);
    if (aw->f) fclose(aw->f);
    if (aw->zinit) deflateEnd(&aw->zs);
    if (aw->rcinit) {
        arb_rc_model_free(&aw->prime);
        arb_rc_model_free(&aw->work);
    }
    tails_free(&aw->t);
    for (unsigned k = 0; k < aw->nspare; k++) arb_replay__late_free(&aw->spare[k]);
    free(aw->zbuf);
    free(aw->m);
    free(aw->path);
    free(aw->part);
    free(aw);
}

uint64_t arb_archive_writer_members(const arb_archive_writer *aw) { return aw->added; }
uint64_t arb_archive_writer_bytes(const arb_archive_writer *aw) { return aw->off; }
