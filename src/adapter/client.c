/* client.c — the protocol's client side: an adapter process presented as
 * an arb_game (a proxy), so every driver works unchanged over an engine
 * outside the build.
 *
 * Transport: the adapter runs as `/bin/sh -c CMD`, in a process group of
 * its own, with a socket pair as its stdin and stdout (no SIGPIPE on a dead
 * peer, MSG_NOSIGNAL) and a pipe as its stderr. Its stderr is drained
 * whenever a request waits and passed on through arb_text_put_bytes (no
 * control byte reaches the terminal), at most STDERR_SHOWN bytes of it; the
 * rest is counted and said. Closing the adapter (and the process's exit,
 * through an atexit hook) kills the whole group, so a child the engine
 * forked does not outlive arbiter. An answer must be valid UTF-8, all of it
 * (unknown fields included). Every request waits at most timeout_ms for its one-line answer
 * of at most line_max bytes; a dead, slow or babbling adapter (EOF, time
 * out, an over-long line, not JSON, a wrong id) is a sticky failure naming
 * the request, and every later call fails fast.
 *
 * States: the game contract copies states by value (state_size bytes), so
 * a proxy state is only {magic, node}. Nodes form an immutable history —
 * a root (the setup or the position) and one action per child — owned by
 * the adapter. Remote state handles are a cache on nodes: applying moves
 * the handle from a node to its new child; a node whose handle moved on (a
 * copy taken before the apply) is rebuilt from the nearest ancestor that
 * still holds one (clone), or from the root. At most HANDLES_MAX handles
 * stay live; the least recently used is freed.
 *
 * hello offers protocol 2 and falls back to 1 when the adapter refuses it
 * as unsupported. Under protocol 2, arb_adapter_step2 writes a probe and a
 * step at once and fills the new node's caches (decision, outcome, hash,
 * legal actions, state trees) from the one answer; the failure of any
 * request names that request (cur_id), not the last one written.
 *
 * The vtable slots with no state argument (setup, cards, deck check …) find
 * their adapter in the proxy game's app_data; any number may be open. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adapter/adapter_int.h"
#include "arbiter/text.h"
#include "arbiter/toolkit.h"

#define STDERR_SHOWN (64 * 1024) /* bytes of an adapter's stderr passed on */
#define HANDLES_MAX 256
#define PX_MAGIC 0x41524250524f5859ull /* "ARBPROXY" */
#define PHASES_MAX 256
#define PREFETCH_MAX (ARB_MAX_SEATS + 8)

typedef struct px_node px_node;
struct px_node {
    arb_adapter *ad;
    px_node *parent, *all_next;
    arb_action act;               /* the action from parent (children) */
    int root;                     /* 0 child, 1 seeded setup, 2 position */
    arb_setup su;                 /* roots */
    char rules[32];               /* su.rules points here */
    arb_deck decks[ARB_MAX_SEATS];
    arb_tree *pos;                /* position roots */
    int64_t handle;               /* remote state, -1 none */
    uint64_t used;                /* LRU stamp */
    int has_dec, has_out, has_hash;
    arb_decision dec;
    uint32_t turn;
    const char *phase;
    arb_outcome out;
    uint64_t hash;
    arb_tree *resp;               /* the step answer that brought trees, kept */
    const arb_tnode *trees[ARB_MAX_SEATS + 1]; /* state trees in it (slot 4: all) */
};

typedef struct px_state {
    uint64_t magic;
    px_node *node;
} px_state;

struct arb_adapter {
    arb_adapter *open_next;       /* open_list */
    int fd;
    pid_t pid;                    /* also the process group of the adapter */
    int efd;                      /* the read end of its stderr, or -1 */
    char ecarry[4];               /* the start of a character cut by a read */
    size_t ncarry;
    unsigned long long eshown, ecut; /* stderr bytes passed on / left out */
    int timeout_ms;
    size_t line_max;
    pthread_mutex_t mu;
    unsigned long long next_id, nreq;
    unsigned long long cur_id;    /* the request being sent, awaited or judged */
    int proto;                    /* the protocol hello agreed on */
    char failed[ARB_MSG_MAX + 128];
    int is_failed;
    char *rbuf;                   /* received bytes */
    size_t rlen, rcap;
    arb_tree *hello;              /* owns every string of the proxy game */
    arb_tree *resp;               /* the last response */
    arb_game game;
    arb_verb *verbs;
    const char **names[3];
    const char **rules_names;
    arb_card *cards;
    arb_deck *presets;
    px_node *nodes;               /* every node, for freeing */
    px_node *holders[HANDLES_MAX];
    unsigned nholders;
    uint64_t tick;
    const px_node *legal_node;    /* cached legal() of this node */
    arb_action *legal;
    size_t nlegal, legal_cap;
    char *phases[PHASES_MAX];
    unsigned nphases;
    /* Answers read ahead by arb_adapter_prefetch, by request body (the
     * request without its id); cleared by any request that may change a
     * state. */
    struct { char *body; char *raw; size_t rawlen; unsigned long long id; } ahead[PREFETCH_MAX];
    unsigned nahead;
    char *xbuf;                   /* the legal list step2 expects, as JSON */
    size_t xcap;
};

/* Every open adapter, for the exit hook and arb_adapter_of. */
static arb_adapter *open_list;
static pthread_mutex_t open_mu = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------ transport */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void set_failed(arb_adapter *a, const char *op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void set_failed(arb_adapter *a, const char *op, const char *fmt, ...)
{
    if (a->is_failed) return;
    a->is_failed = 1;
    int k = snprintf(a->failed, sizeof a->failed, "request %llu (%s): ", a->cur_id, op);
    if (k < 0) k = 0;
    if ((size_t)k >= sizeof a->failed) k = (int)sizeof a->failed - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->failed + k, sizeof a->failed - (size_t)k, fmt, ap);
    va_end(ap);
}

/* The end of the adapter's stderr: the count of what was not shown. */
static void stderr_end(arb_adapter *a)
{
    if (a->ecut) fprintf(stderr, "arbiter: the engine adapter wrote %llu more bytes to stderr (not shown)\n", a->ecut);
    close(a->efd);
    a->efd = -1;
}

/* Pass on what the adapter wrote to its stderr (non-blocking): escaped,
 * the first STDERR_SHOWN bytes, the rest counted. Closes efd at its end. */
static void drain_stderr(arb_adapter *a)
{
    char buf[8192];
    while (a->efd >= 0) {
        memcpy(buf, a->ecarry, a->ncarry);
        ssize_t r = read(a->efd, buf + a->ncarry, sizeof buf - a->ncarry);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        size_t n = a->ncarry + (size_t)(r > 0 ? r : 0), at = 0;
        a->ncarry = 0;
        while (at < n) {
            if (a->eshown >= STDERR_SHOWN) {
                if (!a->ecut) fputs("\n[arbiter: the engine's stderr is cut here: more than 65536 bytes]\n", stderr);
                a->ecut += n - at;
                break;
            }
            size_t k = n - at, room = (size_t)(STDERR_SHOWN - a->eshown);
            if (k > room) k = room;
            const char *nl = memchr(buf + at, '\n', k);
            if (nl) k = (size_t)(nl - (buf + at));
            size_t used = arb_text_put_bytes(stderr, buf + at, k, !nl && r > 0);
            if (nl) { fputc('\n', stderr); used++; }
            a->eshown += used;
            at += used;
            if (!nl && used < k) { /* a character continued in the next read */
                a->ncarry = k - used;
                memcpy(a->ecarry, buf + at, a->ncarry);
                at = n;
            }
        }
        if (r <= 0) stderr_end(a);
    }
}

/* After the group is killed: read its stderr to the end. A killed process
 * closes its end a moment after the leader is reaped, and one that left
 * the group may never: wait for the end at most ms milliseconds. */
static void drain_stderr_to_end(arb_adapter *a, int ms)
{
    double deadline = now_ms() + ms;
    for (;;) {
        drain_stderr(a);
        int left = (int)(deadline - now_ms());
        if (a->efd < 0 || left <= 0) break;
        struct pollfd pf = { a->efd, POLLIN, 0 };
        (void)poll(&pf, 1, left);
    }
    if (a->efd >= 0) stderr_end(a);
}

/* How the adapter ended, if it has: " (it exited with status N)". Never
 * reaps it (WNOWAIT): arb_adapter_close kills its group first. */
static void exit_text(arb_adapter *a, char *buf, size_t size)
{
    buf[0] = '\0';
    if (a->pid <= 0) return;
    for (int i = 0; i < 20; i++) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)a->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == a->pid) {
            if (si.si_code == CLD_EXITED) snprintf(buf, size, " (it exited with status %d)", si.si_status);
            else snprintf(buf, size, " (it was killed by signal %d)", si.si_status);
            return;
        }
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
}

static int send_all(arb_adapter *a, const char *op, const char *p, size_t n, double deadline)
{
    while (n > 0) {
        ssize_t w = send(a->fd, p, n, MSG_NOSIGNAL);
        if (w > 0) { p += w; n -= (size_t)w; continue; }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int left = (int)(deadline - now_ms());
            if (left <= 0) {
                set_failed(a, op, "the adapter did not read its request within %d ms", a->timeout_ms);
                return -1;
            }
            struct pollfd pf[2] = { { a->fd, POLLOUT, 0 }, { a->efd, POLLIN, 0 } };
            if (poll(pf, a->efd >= 0 ? 2 : 1, left) > 0 && pf[1].revents) drain_stderr(a);
            continue;
        }
        char ex[64];
        exit_text(a, ex, sizeof ex);
        set_failed(a, op, "cannot write to the adapter: %s%s", strerror(errno), ex);
        return -1;
    }
    return 0;
}

/* The next line (without its newline) into a->rbuf[0..*len); consumed
 * from the buffer by the caller with consume(). */
static int recv_line(arb_adapter *a, const char *op, size_t *len, double deadline)
{
    size_t scanned = 0;
    for (;;) {
        char *nl = a->rlen > scanned ? memchr(a->rbuf + scanned, '\n', a->rlen - scanned) : NULL;
        if (nl) {
            *len = (size_t)(nl - a->rbuf);
            size_t bad = arb_utf8_check(a->rbuf, *len, 0);
            if (bad < *len) {
                set_failed(a, op, "the answer is not valid UTF-8 (byte %zu of the line, 0x%02x)", bad,
                           (unsigned char)a->rbuf[bad]);
                return -1;
            }
            return 0;
        }
        scanned = a->rlen;
        if (a->rlen >= a->line_max) {
            set_failed(a, op, "the adapter's answer is longer than %zu bytes", a->line_max);
            return -1;
        }
        if (a->rcap - a->rlen < 65536) {
            size_t nc = a->rcap ? a->rcap * 2 : 131072;
            if (nc > a->line_max + 65536) nc = a->line_max + 65536;
            if (nc <= a->rcap) nc = a->rcap + 65536;
            char *p = realloc(a->rbuf, nc);
            if (!p) { set_failed(a, op, "out of memory reading the answer"); return -1; }
            a->rbuf = p;
            a->rcap = nc;
        }
        int left = (int)(deadline - now_ms());
        if (left <= 0) {
            set_failed(a, op, "the adapter sent no answer within %d ms", a->timeout_ms);
            return -1;
        }
        struct pollfd pf[2] = { { a->fd, POLLIN, 0 }, { a->efd, POLLIN, 0 } };
        int pr = poll(pf, a->efd >= 0 ? 2 : 1, left);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) continue;
        if (pr > 0 && a->efd >= 0 && pf[1].revents) drain_stderr(a);
        if (pr > 0 && !pf[0].revents) continue;
        ssize_t r = recv(a->fd, a->rbuf + a->rlen, a->rcap - a->rlen, 0);
        if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        if (r <= 0) {
            char ex[64];
            exit_text(a, ex, sizeof ex);
            set_failed(a, op, "the adapter closed its output%s%s", a->rlen ? " in the middle of an answer" : "", ex);
            return -1;
        }
        a->rlen += (size_t)r;
    }
}

static void consume(arb_adapter *a, size_t n)
{
    memmove(a->rbuf, a->rbuf + n, a->rlen - n);
    a->rlen -= n;
}

/* A request under construction: "{"id":N,"op":"OP"" then the caller's
 * fields, closed by call(). */
typedef struct rq {
    FILE *f;
    char *buf;
    size_t len;
    const char *op;
    unsigned long long id;
} rq;

static FILE *begin(arb_adapter *a, rq *q, const char *op)
{
    q->op = op;
    q->buf = NULL;
    q->f = open_memstream(&q->buf, &q->len);
    if (!q->f) return NULL;
    q->id = a->next_id++;
    fputs("{\"id\":", q->f);
    arb_adapter__put_int(q->f, (int64_t)q->id);
    fputs(",\"op\":\"", q->f);
    fputs(op, q->f);
    fputc('"', q->f);
    return q->f;
}

/* Send q and read its answer into a->resp. ARB_OK with *out the answer's
 * root map; a refusal (ok false) returns its code with err filled; a
 * transport failure returns ARB_EIO and is sticky. */
/* Close q and send it (no answer read). */
static int send_rq(arb_adapter *a, rq *q, arb_error *err)
{
    if (!q->f) { set_failed(a, q->op, "out of memory"); return arb_error_set(err, ARB_EIO, NULL, "%s", a->failed); }
    fputs("}\n", q->f);
    fclose(q->f);
    q->f = NULL;
    if (a->is_failed) {
        free(q->buf);
        q->buf = NULL;
        return arb_error_set(err, ARB_EIO, NULL, "engine adapter failed earlier: %s", a->failed);
    }
    a->nreq++;
    a->cur_id = q->id;
    int rc = send_all(a, q->op, q->buf, q->len, now_ms() + a->timeout_ms);
    free(q->buf);
    q->buf = NULL;
    if (rc) return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
    return ARB_OK;
}

static int recv_rq(arb_adapter *a, rq *q, const arb_tnode **out, arb_error *err);
static int check_rq(arb_adapter *a, rq *q, const arb_tnode **out, arb_error *err);

static int pure_op(const char *op)
{
    return !strcmp(op, "decision") || !strcmp(op, "legal") || !strcmp(op, "hash") || !strcmp(op, "outcome") ||
           !strcmp(op, "state");
}

static void clear_ahead(arb_adapter *a)
{
    for (unsigned i = 0; i < a->nahead; i++) {
        free(a->ahead[i].body);
        free(a->ahead[i].raw);
    }
    a->nahead = 0;
}

/* The body of a closed request: what follows "{"id":N,". */
static const char *body_of(const rq *q)
{
    const char *c = q->buf ? strchr(q->buf, ',') : NULL;
    return c ? c + 1 : "";
}

static int call(arb_adapter *a, rq *q, const arb_tnode **out, arb_error *err)
{
    *out = NULL;
    if (!pure_op(q->op)) {
        clear_ahead(a);
    } else if (a->nahead && q->f) {
        fputs("}\n", q->f);
        fclose(q->f);
        q->f = NULL;
        const char *b = body_of(q);
        for (unsigned i = 0; i < a->nahead; i++) {
            if (strcmp(a->ahead[i].body, b) != 0) continue;
            free(q->buf);
            q->buf = NULL;
            q->id = a->ahead[i].id;
            a->cur_id = q->id;
            arb_tree_free(a->resp);
            a->resp = arb_tree_new();
            arb_error pe = ARB_ERROR_INIT;
            int bad = !a->resp || arb_tree_parse_json(a->resp, arb_tree_root(a->resp), "r", a->ahead[i].raw,
                                                      a->ahead[i].rawlen, &pe);
            free(a->ahead[i].body);
            free(a->ahead[i].raw);
            a->ahead[i] = a->ahead[--a->nahead];
            if (bad) {
                set_failed(a, q->op, "the answer is not JSON (%s at %s)", pe.msg, pe.where);
                return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
            }
            return check_rq(a, q, out, err);
        }
        /* not read ahead: send it as it is */
        if (a->is_failed) { free(q->buf); q->buf = NULL; return arb_error_set(err, ARB_EIO, NULL, "engine adapter failed earlier: %s", a->failed); }
        a->nreq++;
        a->cur_id = q->id;
        int rc = send_all(a, q->op, q->buf, q->len, now_ms() + a->timeout_ms);
        free(q->buf);
        q->buf = NULL;
        if (rc) return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
        return recv_rq(a, q, out, err);
    }
    int rc = send_rq(a, q, err);
    if (rc) return rc;
    return recv_rq(a, q, out, err);
}

/* Read q's answer into a->resp. */
static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Past the JSON string that starts at s[i] (its opening quote); n when cut. */
static size_t skip_str(const char *s, size_t n, size_t i)
{
    for (i++; i < n && s[i] != '"'; i++)
        if (s[i] == '\\') i++;
    return i < n ? i + 1 : n;
}

/* Whether the JSON object s[0..n) has, as a top-level member that is not
 * its first, key with the value want[0..wlen) byte for byte (a whole JSON
 * value: what follows it must end the member); [*from, *to) is then the
 * member with the ',' before it. The scan stops at that key: the text
 * after it is the parser's to judge. */
static int member_is(const char *s, size_t n, const char *key, const char *want, size_t wlen, size_t *from,
                     size_t *to)
{
    size_t i = 0, kl = strlen(key), comma = (size_t)-1;
    while (i < n && is_ws(s[i])) i++;
    if (i >= n || s[i] != '{') return 0;
    int depth = 1, want_key = 1;
    for (i++; i < n;) {
        char c = s[i];
        if (c == '"') {
            size_t st = i;
            i = skip_str(s, n, i);
            if (depth != 1 || !want_key) continue;
            want_key = 0;
            if (comma == (size_t)-1 || i - st - 2 != kl || memcmp(s + st + 1, key, kl)) continue;
            while (i < n && is_ws(s[i])) i++;
            if (i >= n || s[i] != ':') return 0;
            for (i++; i < n && is_ws(s[i]); i++) {}
            if (n - i < wlen || memcmp(s + i, want, wlen)) return 0;
            size_t e = i + wlen;
            while (e < n && is_ws(s[e])) e++;
            if (e >= n || (s[e] != ',' && s[e] != '}')) return 0;
            *from = comma;
            *to = i + wlen;
            return 1;
        }
        if (c == '{' || c == '[') depth++;
        else if ((c == '}' || c == ']') && --depth == 0) return 0;
        else if (c == ',' && depth == 1) { comma = i; want_key = 1; }
        i++;
    }
    return 0;
}

/* recv_rq, and for each k < ncut: when the answer's member cut[k] (not
 * its first) is byte for byte want[k] (wlen[k] bytes; NULL: not known),
 * that member is taken out of the text before it is parsed and matched[k]
 * set: the caller knows its value already. */
static int recv_rq_cut(arb_adapter *a, rq *q, const arb_tnode **out, arb_error *err, const char *const *cut,
                       const char *const *want, const size_t *wlen, int *matched, unsigned ncut)
{
    *out = NULL;
    if (a->is_failed) return arb_error_set(err, ARB_EIO, NULL, "engine adapter failed earlier: %s", a->failed);
    double deadline = now_ms() + a->timeout_ms;
    size_t len;
    a->cur_id = q->id;
    if (recv_line(a, q->op, &len, deadline)) return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
    for (unsigned k = 0; k < ncut; k++) {
        size_t from, to;
        matched[k] = 0;
        if (want[k] && member_is(a->rbuf, len, cut[k], want[k], wlen[k], &from, &to)) {
            memmove(a->rbuf + from, a->rbuf + to, a->rlen - to);
            a->rlen -= to - from;
            len -= to - from;
            matched[k] = 1;
        }
    }
    if (a->resp) arb_tree_reset(a->resp); /* reused: no allocation an answer */
    else a->resp = arb_tree_new();
    arb_error pe = ARB_ERROR_INIT;
    if (!a->resp || arb_tree_parse_json(a->resp, arb_tree_root(a->resp), "r", a->rbuf, len, &pe)) {
        char snip[48];
        size_t k = len < 40 ? len : 40, j = 0;
        for (size_t i = 0; i < k; i++) snip[j++] = a->rbuf[i] >= 0x20 && a->rbuf[i] < 0x7f ? a->rbuf[i] : '?';
        snip[j] = '\0';
        set_failed(a, q->op, "the answer is not JSON (%s at %s): \"%s%s\"", pe.msg, pe.where, snip, len > 40 ? "…" : "");
        consume(a, len + 1);
        return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
    }
    consume(a, len + 1);
    return check_rq(a, q, out, err);
}

static int recv_rq(arb_adapter *a, rq *q, const arb_tnode **out, arb_error *err)
{
    return recv_rq_cut(a, q, out, err, NULL, NULL, NULL, NULL, 0);
}

/* Judge the answer in a->resp to q. */
static int check_rq(arb_adapter *a, rq *q, const arb_tnode **out, arb_error *err)
{
    a->cur_id = q->id;
    const arb_tnode *r = arb_tnode_get(arb_tree_root(a->resp), "r");
    const arb_tnode *id = r && r->kind == ARB_T_MAP ? arb_tnode_get(r, "id") : NULL;
    const arb_tnode *ok = r && r->kind == ARB_T_MAP ? arb_tnode_get(r, "ok") : NULL;
    if (!id || id->kind != ARB_T_INT || (unsigned long long)id->i != q->id) {
        set_failed(a, q->op, "the answer's id is %s, expected %llu", id && id->kind == ARB_T_INT ? "another" : "missing",
                   q->id);
        return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
    }
    if (!ok || ok->kind != ARB_T_BOOL) {
        set_failed(a, q->op, "the answer has no boolean \"ok\"");
        return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
    }
    if (!ok->i) {
        const arb_tnode *c = arb_tnode_get(r, "code"), *ru = arb_tnode_get(r, "rule");
        const arb_tnode *m = arb_tnode_get(r, "message"), *w = arb_tnode_get(r, "where");
        int code = c && c->kind == ARB_T_STR ? arb_adapter__code_parse(c->s) : 0;
        if (!code) code = ARB_EINVAL;
        if (w && w->kind == ARB_T_STR && w->s[0]) arb_error_where(err, "%s", w->s);
        return arb_error_set(err, code, ru && ru->kind == ARB_T_STR && ru->s[0] ? ru->s : NULL, "%s",
                             m && m->kind == ARB_T_STR ? m->s : "(the adapter gave no message)");
    }
    *out = r;
    return ARB_OK;
}

/* A malformed successful answer: sticky. */
static int bad_answer(arb_adapter *a, const char *op, const char *what, arb_error *err)
{
    set_failed(a, op, "bad answer: %s", what);
    return arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
}

/* ------------------------------------------------------------ handles */

static void holder_remove(arb_adapter *a, px_node *n)
{
    for (unsigned i = 0; i < a->nholders; i++)
        if (a->holders[i] == n) { a->holders[i] = a->holders[--a->nholders]; return; }
}

static void free_handle(arb_adapter *a, int64_t h)
{
    rq q;
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    FILE *f = begin(a, &q, "free");
    if (f) fprintf(f, ",\"state\":%" PRId64, h);
    call(a, &q, &r, &e);
}

/* n now holds handle h; evicts the least recently used holder beyond the cap. */
static void hold(arb_adapter *a, px_node *n, int64_t h)
{
    n->handle = h;
    n->used = ++a->tick;
    if (a->nholders == HANDLES_MAX) {
        unsigned lru = 0;
        for (unsigned i = 1; i < a->nholders; i++)
            if (a->holders[i]->used < a->holders[lru]->used) lru = i;
        px_node *v = a->holders[lru];
        a->holders[lru] = a->holders[--a->nholders];
        free_handle(a, v->handle);
        v->handle = -1;
    }
    a->holders[a->nholders++] = n;
}

static void drop_trees(px_node *n)
{
    arb_tree_free(n->resp);
    n->resp = NULL;
    for (int i = 0; i <= ARB_MAX_SEATS; i++) n->trees[i] = NULL;
}

static px_node *new_node(arb_adapter *a)
{
    px_node *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->ad = a;
    n->handle = -1;
    n->all_next = a->nodes;
    a->nodes = n;
    return n;
}

/* "PREFIX<i>" (e.g. "actions.3") without printf: one per item of a list. */
static void item_path(char *buf, size_t size, const char *prefix, unsigned i)
{
    char d[12];
    size_t k = sizeof d, n = strlen(prefix);
    do d[--k] = (char)('0' + i % 10);
    while (i /= 10);
    if (n + sizeof d - k + 1 > size) { buf[0] = '\0'; return; }
    memcpy(buf, prefix, n);
    memcpy(buf + n, d + k, sizeof d - k);
    buf[n + sizeof d - k] = '\0';
}

static int push_events(arb_adapter *a, const char *op, const arb_tnode *r, arb_events *ev, arb_error *err)
{
    const arb_tnode *es = arb_tnode_get(r, "events");
    if (!es || es->kind != ARB_T_ARR) return bad_answer(a, op, "no \"events\" list", err);
    unsigned i = 0;
    for (const arb_tnode *k = es->first; k; k = k->next, i++) {
        arb_event e;
        char path[32];
        item_path(path, sizeof path, "events.", i);
        arb_error pe = ARB_ERROR_INIT;
        if (arb_adapter__read_event(&a->game, k, path, &e, &pe)) {
            char m[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            snprintf(m, sizeof m, "%s: %s", pe.where, pe.msg);
            return bad_answer(a, op, m, err);
        }
        arb_events_push(ev, e.type, e.seat, e.hidden, e.a, e.b, e.c);
    }
    return ARB_OK;
}

static void write_setup_fields(arb_adapter *a, FILE *f, const arb_setup *su, int decks)
{
    fprintf(f, ",\"seed\":\"%" PRIu64 "\",\"players\":%d,\"options\":", su->seed, su->players);
    if (su->rules) {
        arb_adapter__write_options(f, &su->options);
        fputs(",\"rules\":", f);
        arb_json_str(f, su->rules);
        if (!decks) return;
        goto decks;
    }
    arb_adapter__write_options(f, &su->options);
    if (!decks) return;
decks:
    fputs(",\"decks\":[", f);
    for (int i = 0; i < su->players && i < ARB_MAX_SEATS; i++) {
        if (i) fputc(',', f);
        arb_deck empty;
        memset(&empty, 0, sizeof empty);
        arb_adapter__write_deck(f, &a->game, su->decks[i] ? su->decks[i] : &empty);
    }
    fputc(']', f);
}

/* setup/load for a root; the new handle in *h. */
static int remote_root(arb_adapter *a, const px_node *root, int64_t *h, arb_events *ev, arb_error *err)
{
    rq q;
    const arb_tnode *r;
    FILE *f = begin(a, &q, root->root == 2 ? "load" : "setup");
    if (f) {
        write_setup_fields(a, f, &root->su, root->root == 1);
        if (root->root == 2) {
            fputs(",\"position\":", f);
            arb_tnode_json(arb_tree_root(root->pos), f, 0);
        }
    }
    int rc = call(a, &q, &r, err);
    if (rc) return rc;
    const arb_tnode *s = arb_tnode_get(r, "state");
    if (!s || s->kind != ARB_T_INT || s->i < 0) return bad_answer(a, q.op, "no \"state\" handle", err);
    *h = s->i;
    return push_events(a, q.op, r, ev, err);
}

static int remote_apply(arb_adapter *a, int64_t h, const arb_action *act, arb_events *ev, arb_error *err)
{
    rq q;
    const arb_tnode *r;
    FILE *f = begin(a, &q, "apply");
    if (f) {
        fprintf(f, ",\"state\":%" PRId64 ",\"action\":", h);
        arb_adapter__write_action(f, &a->game, act);
    }
    int rc = call(a, &q, &r, err);
    if (rc) return rc;
    return push_events(a, "apply", r, ev, err);
}

/* A live handle for n: its own, or rebuilt. -1 on failure (sticky). */
static int64_t materialize(arb_adapter *a, px_node *n)
{
    if (n->handle >= 0) { n->used = ++a->tick; return n->handle; }
    if (a->is_failed) return -1;
    px_node *path[64], **big = NULL, **p = path;
    size_t np = 0, cap = 64;
    px_node *k = n;
    while (k->handle < 0 && k->parent) {
        if (np == cap) {
            size_t nc = cap * 2;
            px_node **q = malloc(nc * sizeof *q);
            if (!q) { free(big); set_failed(a, "apply", "out of memory rebuilding a state"); return -1; }
            memcpy(q, p, np * sizeof *q);
            free(big);
            big = p = q;
            cap = nc;
        }
        p[np++] = k;
        k = k->parent;
    }
    arb_error e = ARB_ERROR_INIT;
    int64_t h;
    if (k->handle >= 0) {
        rq q;
        const arb_tnode *r;
        FILE *f = begin(a, &q, "clone");
        if (f) fprintf(f, ",\"state\":%" PRId64, k->handle);
        if (call(a, &q, &r, &e)) goto fail;
        const arb_tnode *s = arb_tnode_get(r, "state");
        if (!s || s->kind != ARB_T_INT) { bad_answer(a, "clone", "no \"state\" handle", &e); goto fail; }
        h = s->i;
        k->used = ++a->tick;
    } else {
        if (remote_root(a, k, &h, NULL, &e)) {
            set_failed(a, "setup", "rebuilding a state, the adapter refused the setup it accepted before: %s", e.msg);
            goto fail;
        }
    }
    while (np > 0) {
        px_node *c = p[--np];
        if (remote_apply(a, h, &c->act, NULL, &e)) {
            set_failed(a, "apply", "rebuilding a state, the adapter refused an action it accepted before: %s", e.msg);
            goto fail;
        }
    }
    free(big);
    hold(a, n, h);
    return h;
fail:
    free(big);
    return -1;
}

static px_node *node_of(const void *st)
{
    const px_state *s = st;
    return s->magic == PX_MAGIC ? s->node : NULL;
}

/* ------------------------------------------------------------ vtable */

#define LOCK(a) pthread_mutex_lock(&(a)->mu)
#define UNLOCK(a) pthread_mutex_unlock(&(a)->mu)

static int px_setup_impl(arb_adapter *a, void *st, const arb_setup *su, const arb_tnode *pos, arb_events *ev,
                         arb_error *err)
{
    px_state *s = st;
    memset(s, 0, sizeof *s);
    LOCK(a);
    int rc = ARB_ENOMEM;
    px_node *n = new_node(a);
    if (!n) { arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); goto out; }
    n->root = pos ? 2 : 1;
    n->su = *su;
    if (su->rules) {
        snprintf(n->rules, sizeof n->rules, "%s", su->rules);
        n->su.rules = n->rules;
    }
    for (int i = 0; i < ARB_MAX_SEATS; i++) {
        if (!pos && su->decks[i] && i < su->players) n->decks[i] = *su->decks[i];
        n->su.decks[i] = pos || !su->decks[i] ? NULL : &n->decks[i];
    }
    if (pos) {
        n->pos = arb_tree_new();
        if (!n->pos) { arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); goto out; }
        for (const arb_tnode *k = pos->first; k; k = k->next) arb_tree_add_copy(n->pos, arb_tree_root(n->pos), k->key, k);
        if (arb_tree_failed(n->pos)) { arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); goto out; }
    }
    int64_t h;
    rc = remote_root(a, n, &h, ev, err);
    if (rc) goto out;
    hold(a, n, h);
    s->magic = PX_MAGIC;
    s->node = n;
out:
    UNLOCK(a);
    return rc;
}

static int px_apply(const arb_game *g, void *st, const arb_action *act, arb_events *ev, arb_error *err)
{
    (void)g;
    px_state *s = st;
    px_node *n = node_of(st);
    if (!n) return arb_error_set(err, ARB_EINVAL, NULL, "not a proxy state");
    arb_adapter *a = n->ad;
    LOCK(a);
    int rc;
    int64_t h = materialize(a, n);
    if (h < 0) { rc = arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed); goto out; }
    px_node *c = new_node(a);
    if (!c) { rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory"); goto out; }
    unsigned before = ev ? ev->n : 0;
    rc = remote_apply(a, h, act, ev, err);
    if (rc) {
        if (ev) ev->n = before;
        /* A refusal must leave the state as it was: its hash is asked
         * again, so that a refusal that changed it shows (reject-unchanged). */
        n->has_hash = 0;
        goto out; /* c stays in the list, unused */
    }
    c->parent = n;
    c->act = *act;
    holder_remove(a, n);
    n->handle = -1;
    drop_trees(n);
    hold(a, c, h);
    s->node = c;
out:
    UNLOCK(a);
    return rc;
}

/* n's decision, turn and phase from the fields of an answer to op
 * (decision, or step's "decision" object); -1 (sticky) when malformed. */
static int read_decision(arb_adapter *a, px_node *n, const arb_tnode *r, const char *op)
{
    arb_error e = ARB_ERROR_INIT;
    int seat;
    const arb_tnode *kind = arb_tnode_get(r, "kind"), *cl = arb_tnode_get(r, "clock_left_ms");
    const arb_tnode *tu = arb_tnode_get(r, "turn"), *ph = arb_tnode_get(r, "phase");
    if (!r || r->kind != ARB_T_MAP || arb_adapter__read_seat(arb_tnode_get(r, "seat"), &seat) || !kind ||
        kind->kind != ARB_T_STR || !cl || cl->kind != ARB_T_INT || !tu || tu->kind != ARB_T_INT || tu->i < 0 ||
        tu->i > UINT32_MAX || !ph || ph->kind != ARB_T_STR) {
        bad_answer(a, op, "a decision needs seat, kind, clock_left_ms, turn and phase", &e);
        return -1;
    }
    int k = -1;
    for (unsigned i = 0; i < a->game.ndecision_names; i++)
        if (strcmp(a->game.decision_names[i], kind->s) == 0) k = (int)i;
    if (k < 0) { bad_answer(a, op, "kind is not one of the decisions named in hello", &e); return -1; }
    const char *phase = NULL;
    for (unsigned i = 0; i < a->nphases && !phase; i++)
        if (strcmp(a->phases[i], ph->s) == 0) phase = a->phases[i];
    if (!phase) {
        if (a->nphases == PHASES_MAX || !(a->phases[a->nphases] = strdup(ph->s))) {
            bad_answer(a, op, "more than 256 distinct phase names", &e);
            return -1;
        }
        phase = a->phases[a->nphases++];
    }
    n->dec.seat = seat;
    n->dec.kind = (uint16_t)k;
    n->dec.clock_left_ms = cl->i;
    n->turn = (uint32_t)tu->i;
    n->phase = phase;
    n->has_dec = 1;
    return 0;
}

/* n's outcome from the fields of an answer to op; -1 (sticky) when malformed. */
static int read_outcome(arb_adapter *a, px_node *n, const arb_tnode *r, const char *op)
{
    arb_error e = ARB_ERROR_INIT;
    const arb_tnode *ov = arb_tnode_get(r, "over"), *w = arb_tnode_get(r, "winner");
    const arb_tnode *re = arb_tnode_get(r, "reason"), *tu = arb_tnode_get(r, "turns");
    if (!r || r->kind != ARB_T_MAP || !ov || ov->kind != ARB_T_BOOL || !w || w->kind != ARB_T_INT || w->i < -1 ||
        w->i >= ARB_MAX_SEATS || !re || re->kind != ARB_T_STR || !tu || tu->kind != ARB_T_INT || tu->i < 0 ||
        tu->i > UINT32_MAX) {
        bad_answer(a, op, "an outcome needs over, winner, reason and turns", &e);
        return -1;
    }
    n->out.over = (int)ov->i;
    n->out.winner = (int)w->i;
    n->out.turns = (uint32_t)tu->i;
    n->out.reason = 0;
    if (ov->i) {
        int k = arb_game_reason_find(&a->game, re->s);
        if (k < 0) { bad_answer(a, op, "reason is not one of the outcomes named in hello", &e); return -1; }
        n->out.reason = (uint16_t)k;
    }
    n->has_out = 1;
    return 0;
}

/* n's hash from the "hash" field of an answer to op. */
static int read_hash(arb_adapter *a, uint64_t *out, const arb_tnode *r, const char *op)
{
    arb_error e = ARB_ERROR_INIT;
    const arb_tnode *hv = arb_tnode_get(r, "hash");
    char *end = NULL;
    if (!hv || hv->kind != ARB_T_STR || strlen(hv->s) != 16 || (*out = strtoull(hv->s, &end, 16), !end || *end)) {
        bad_answer(a, op, "hash must be 16 hexadecimal digits", &e);
        return -1;
    }
    return 0;
}

/* The legal actions of n (a list node of an answer to op) into a->legal. */
static int read_legal(arb_adapter *a, const px_node *n, const arb_tnode *acts, const char *op)
{
    arb_error e = ARB_ERROR_INIT;
    a->legal_node = NULL;
    a->nlegal = 0;
    if (!acts || acts->kind != ARB_T_ARR) { bad_answer(a, op, "no list of legal actions", &e); return -1; }
    if (acts->n > a->legal_cap) {
        arb_action *p = realloc(a->legal, acts->n * sizeof *p);
        if (!p) { set_failed(a, op, "out of memory"); return -1; }
        a->legal = p;
        a->legal_cap = acts->n;
    }
    unsigned i = 0;
    for (const arb_tnode *k = acts->first; k; k = k->next, i++) {
        char path[32];
        item_path(path, sizeof path, "actions.", i);
        arb_error pe = ARB_ERROR_INIT;
        if (arb_adapter__read_action(&a->game, k, path, &a->legal[i], &pe)) {
            char m[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
            snprintf(m, sizeof m, "%s: %s", pe.where, pe.msg);
            bad_answer(a, op, m, &e);
            return -1;
        }
    }
    a->nlegal = i;
    a->legal_node = n;
    return 0;
}

/* Send a request of op on n's handle and judge its answer (*r); -1 when
 * the adapter failed or refused (sticky either way). */
static int query(arb_adapter *a, px_node *n, const char *op, const arb_tnode **r)
{
    int64_t h = materialize(a, n);
    if (h < 0) return -1;
    rq q;
    arb_error e = ARB_ERROR_INIT;
    FILE *f = begin(a, &q, op);
    if (f) fprintf(f, ",\"state\":%" PRId64, h);
    if (call(a, &q, r, &e)) {
        if (!a->is_failed) set_failed(a, op, "refused: %s", e.msg);
        return -1;
    }
    return 0;
}

/* Fills n's decision, turn and phase. */
static int need_decision(arb_adapter *a, px_node *n)
{
    if (n->has_dec) return 0;
    const arb_tnode *r;
    if (query(a, n, "decision", &r)) return -1;
    return read_decision(a, n, r, "decision");
}

static arb_decision px_decision(const arb_game *g, const void *st)
{
    (void)g;
    arb_decision d = { ARB_SEAT_NONE, 0, -1 };
    px_node *n = node_of(st);
    if (!n) return d;
    arb_adapter *a = n->ad;
    LOCK(a);
    if (!need_decision(a, n)) d = n->dec;
    UNLOCK(a);
    return d;
}

static uint32_t px_turn(const arb_game *g, const void *st)
{
    (void)g;
    px_node *n = node_of(st);
    if (!n) return 0;
    arb_adapter *a = n->ad;
    LOCK(a);
    uint32_t t = need_decision(a, n) ? 0 : n->turn;
    UNLOCK(a);
    return t;
}

static const char *px_phase(const arb_game *g, const void *st)
{
    (void)g;
    px_node *n = node_of(st);
    if (!n) return "";
    arb_adapter *a = n->ad;
    LOCK(a);
    const char *p = need_decision(a, n) ? "" : n->phase;
    UNLOCK(a);
    return p;
}

static size_t px_legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    px_node *n = node_of(st);
    if (!n) return 0;
    arb_adapter *a = n->ad;
    LOCK(a);
    size_t total = 0;
    const arb_tnode *r;
    if (a->legal_node != n && (query(a, n, "legal", &r) || read_legal(a, n, arb_tnode_get(r, "actions"), "legal")))
        goto out;
    total = a->nlegal;
    if (total && cap) memcpy(out, a->legal, (total < cap ? total : cap) * sizeof *out);
out:
    UNLOCK(a);
    return total;
}

static uint64_t px_hash(const arb_game *g, const void *st)
{
    (void)g;
    px_node *n = node_of(st);
    if (!n) return 0;
    arb_adapter *a = n->ad;
    LOCK(a);
    const arb_tnode *r;
    if (!n->has_hash && !query(a, n, "hash", &r) && !read_hash(a, &n->hash, r, "hash")) n->has_hash = 1;
    UNLOCK(a);
    return n->has_hash ? n->hash : 0;
}

static int px_outcome(const arb_game *g, const void *st, arb_outcome *o)
{
    (void)g;
    memset(o, 0, sizeof *o);
    o->winner = -1;
    px_node *n = node_of(st);
    if (!n) return 0;
    arb_adapter *a = n->ad;
    LOCK(a);
    const arb_tnode *r;
    if (!n->has_out && !query(a, n, "outcome", &r)) read_outcome(a, n, r, "outcome");
    if (n->has_out) *o = n->out;
    UNLOCK(a);
    return o->over;
}

static void px_export(const arb_game *g, const void *st, int view, arb_tree *t, arb_tnode *root)
{
    (void)g;
    px_node *n = node_of(st);
    if (!n) return;
    arb_adapter *a = n->ad;
    LOCK(a);
    int slot = view < 0 ? ARB_MAX_SEATS : view;
    if (slot <= ARB_MAX_SEATS && n->trees[slot]) {
        for (const arb_tnode *k = n->trees[slot]->first; k; k = k->next) arb_tree_add_copy(t, root, k->key, k);
        UNLOCK(a);
        return;
    }
    int64_t h = materialize(a, n);
    rq q;
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    if (h < 0) goto out;
    FILE *f = begin(a, &q, "state");
    if (f) {
        fprintf(f, ",\"state\":%" PRId64 ",\"view\":", h);
        arb_adapter__write_seat(f, view);
    }
    if (call(a, &q, &r, &e)) {
        if (!a->is_failed) set_failed(a, "state", "refused: %s", e.msg);
        goto out;
    }
    const arb_tnode *tr = arb_tnode_get(r, "tree");
    if (!tr || tr->kind != ARB_T_MAP) { bad_answer(a, "state", "no \"tree\" object", &e); goto out; }
    for (const arb_tnode *k = tr->first; k; k = k->next) arb_tree_add_copy(t, root, k->key, k);
out:
    UNLOCK(a);
}

static int px_action_text(const arb_game *g, const void *st, const arb_action *act, char *buf, size_t size)
{
    (void)g;
    px_node *n = node_of(st);
    if (size) buf[0] = '\0';
    if (!n) return 0;
    arb_adapter *a = n->ad;
    int w = -1;
    LOCK(a);
    int64_t h = materialize(a, n);
    if (h >= 0) {
        rq q;
        const arb_tnode *r;
        arb_error e = ARB_ERROR_INIT;
        FILE *f = begin(a, &q, "describe");
        if (f) {
            fprintf(f, ",\"state\":%" PRId64 ",\"action\":", h);
            arb_adapter__write_action(f, &a->game, act);
        }
        if (call(a, &q, &r, &e) == ARB_OK) {
            const arb_tnode *tx = arb_tnode_get(r, "text");
            /* "": the engine offers no text; the protocol notation serves */
            if (tx && tx->kind == ARB_T_STR && tx->s[0]) w = snprintf(buf, size, "%s", tx->s);
        }
    }
    UNLOCK(a);
    if (w < 0) w = arb_action_format(&a->game, act, buf, size);
    return w;
}

/* Slots without a state argument find their adapter in g->app_data. */
static const arb_card *px_card(const arb_game *g, unsigned idx)
{
    const arb_adapter *a = g->app_data;
    static const arb_card none = { "?", "?", "", "", "" };
    return idx < a->game.ncards ? &a->cards[idx] : &none;
}

static unsigned px_deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    arb_adapter *a = g->app_data;
    LOCK(a);
    unsigned total = 0;
    rq q;
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    FILE *f = begin(a, &q, "deck-check");
    if (f) {
        fputs(",\"deck\":", f);
        arb_adapter__write_deck(f, &a->game, d);
    }
    if (call(a, &q, &r, &e)) {
        if (!a->is_failed) set_failed(a, "deck-check", "refused: %s", e.msg);
        goto out;
    }
    const arb_tnode *is = arb_tnode_get(r, "issues"), *tot = arb_tnode_get(r, "total");
    if (!is || is->kind != ARB_T_ARR) { bad_answer(a, "deck-check", "no \"issues\" list", &e); goto out; }
    unsigned i = 0;
    for (const arb_tnode *k = is->first; k; k = k->next, i++) {
        if (i >= cap) continue;
        const arb_tnode *w = arb_tnode_get(k, "warning"), *ru = arb_tnode_get(k, "rule"), *m = arb_tnode_get(k, "message");
        memset(&out[i], 0, sizeof out[i]);
        out[i].warning = w && w->kind == ARB_T_BOOL && w->i;
        snprintf(out[i].rule, sizeof out[i].rule, "%s", ru && ru->kind == ARB_T_STR ? ru->s : "");
        snprintf(out[i].msg, sizeof out[i].msg, "%s", m && m->kind == ARB_T_STR ? m->s : "");
    }
    total = tot && tot->kind == ARB_T_INT && tot->i >= i && tot->i < 1000000 ? (unsigned)tot->i : i;
out:
    UNLOCK(a);
    return total;
}

static const arb_deck *px_preset(const arb_game *g, unsigned idx)
{
    const arb_adapter *a = g->app_data;
    return idx < a->game.npresets ? &a->presets[idx] : NULL;
}

static int px_event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    const arb_adapter *a = g->app_data;
    const char *nm = ev->type < a->game.nevent_names ? a->game.event_names[ev->type] : "event";
    if (ev->hidden && view != ARB_VIEW_ALL && view != ev->seat)
        return snprintf(buf, size, "%s (seat %d, hidden)", nm, ev->seat);
    return snprintf(buf, size, "%s (seat %d: %d %d %d)", nm, ev->seat, ev->a, ev->b, ev->c);
}

static int px_setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    return px_setup_impl(g->app_data, st, su, NULL, ev, err);
}

static int px_load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    return px_setup_impl(g->app_data, st, su, pos, NULL, err);
}

/* ------------------------------------------------------------ open/close */

static const char *str_field(const arb_tnode *n, const char *key)
{
    const arb_tnode *v = arb_tnode_get(n, key);
    return v && v->kind == ARB_T_STR ? v->s : NULL;
}

static int names_list(arb_adapter *a, const arb_tnode *r, const char *key, int li, unsigned *count, arb_error *err)
{
    const arb_tnode *l = arb_tnode_get(r, key);
    if (!l || l->kind != ARB_T_ARR || l->n == 0 || l->n > 4096) {
        char m[64];
        snprintf(m, sizeof m, "hello needs a non-empty \"%s\" list of names", key);
        return bad_answer(a, "hello", m, err);
    }
    a->names[li] = calloc(l->n, sizeof *a->names[li]);
    if (!a->names[li]) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    unsigned i = 0;
    for (const arb_tnode *k = l->first; k; k = k->next, i++) {
        if (k->kind != ARB_T_STR) return bad_answer(a, "hello", "a name is not a string", err);
        a->names[li][i] = k->s;
    }
    *count = i;
    return ARB_OK;
}

static int build_game(arb_adapter *a, const arb_tnode *r, int offered, arb_error *err)
{
    arb_game *g = &a->game;
    g->app_data = a; /* first: reading the presets already looks cards up through g */
    const arb_tnode *pv = arb_tnode_get(r, "protocol");
    if (!pv || pv->kind != ARB_T_INT || pv->i < 1 || pv->i > offered) {
        char m[64];
        snprintf(m, sizeof m, "the adapter does not speak protocol %d%s", offered, offered > 1 ? " or 1" : "");
        return bad_answer(a, "hello", m, err);
    }
    a->proto = (int)pv->i;
    g->id = str_field(r, "game");
    g->title = str_field(r, "title");
    g->rules_version = str_field(r, "rules");
    g->engine_version = str_field(r, "engine");
    const char *rng = str_field(r, "rng"), *hash = str_field(r, "hash");
    if (!g->id || !g->title || !g->rules_version || !g->engine_version || !rng || !hash)
        return bad_answer(a, "hello", "needs game, title, rules, engine, rng and hash strings", err);
    if (strlen(g->id) >= 32 || strlen(g->rules_version) >= 32 || strlen(g->engine_version) >= 64)
        return bad_answer(a, "hello", "game, rules or engine name too long", err);
    if (strcmp(rng, ARB_RNG_NAME) != 0 || strcmp(hash, ARB_HASH_NAME) != 0) {
        set_failed(a, "hello", "the adapter uses rng '%.40s' and hash '%.40s'; arbiter knows %s and %s", rng, hash,
                   ARB_RNG_NAME, ARB_HASH_NAME);
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "engine adapter: %s", a->failed);
    }
    const arb_tnode *mn = arb_tnode_get(r, "min_players"), *mx = arb_tnode_get(r, "max_players");
    if (!mn || !mx || mn->kind != ARB_T_INT || mx->kind != ARB_T_INT || mn->i < 1 || mx->i > ARB_MAX_SEATS || mn->i > mx->i)
        return bad_answer(a, "hello", "min_players/max_players must be 1..4", err);
    g->min_players = (int)mn->i;
    const arb_tnode *rvs = arb_tnode_get(r, "rules_versions");
    if (rvs) {
        if (rvs->kind != ARB_T_ARR || rvs->n == 0 || rvs->n > 64)
            return bad_answer(a, "hello", "rules_versions must be a list of 1..64 names", err);
        a->rules_names = calloc(rvs->n, sizeof *a->rules_names);
        if (!a->rules_names) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        unsigned k = 0;
        for (const arb_tnode *x = rvs->first; x; x = x->next, k++) {
            if (x->kind != ARB_T_STR || strlen(x->s) >= 32) return bad_answer(a, "hello", "a rules version is not a short string", err);
            a->rules_names[k] = x->s;
        }
        if (strcmp(a->rules_names[k - 1], g->rules_version) != 0)
            return bad_answer(a, "hello", "the last of rules_versions must be rules", err);
        g->rules_versions = a->rules_names;
        g->nrules_versions = k;
    }
    g->max_players = (int)mx->i;
    g->contract = ARB_GAME_CONTRACT;
    g->state_size = sizeof(px_state);
    const arb_tnode *vs = arb_tnode_get(r, "verbs");
    if (!vs || vs->kind != ARB_T_ARR || vs->n == 0 || vs->n > 255)
        return bad_answer(a, "hello", "needs a \"verbs\" list of 1..255 verbs", err);
    a->verbs = calloc(vs->n, sizeof *a->verbs);
    if (!a->verbs) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    unsigned i = 0;
    for (const arb_tnode *k = vs->first; k; k = k->next, i++) {
        const arb_tnode *lo = arb_tnode_get(k, "min_args"), *hi = arb_tnode_get(k, "max_args");
        a->verbs[i].name = str_field(k, "name");
        a->verbs[i].args_help = str_field(k, "args");
        a->verbs[i].help = str_field(k, "help");
        if (!a->verbs[i].name || !lo || !hi || lo->kind != ARB_T_INT || hi->kind != ARB_T_INT || lo->i < 0 ||
            hi->i > ARB_ARGS_MAX || lo->i > hi->i)
            return bad_answer(a, "hello", "a verb needs name, min_args and max_args (0..6)", err);
        a->verbs[i].min_args = (uint8_t)lo->i;
        a->verbs[i].max_args = (uint8_t)hi->i;
    }
    g->verbs = a->verbs;
    g->nverbs = i;
    int rc;
    if ((rc = names_list(a, r, "decisions", 0, &g->ndecision_names, err))) return rc;
    if ((rc = names_list(a, r, "events", 1, &g->nevent_names, err))) return rc;
    if ((rc = names_list(a, r, "outcomes", 2, &g->noutcome_reasons, err))) return rc;
    g->decision_names = a->names[0];
    g->event_names = a->names[1];
    g->outcome_reasons = a->names[2];
    const arb_tnode *cs = arb_tnode_get(r, "cards");
    if (!cs || cs->kind != ARB_T_ARR || cs->n > 65535) return bad_answer(a, "hello", "needs a \"cards\" list", err);
    a->cards = calloc(cs->n + 1, sizeof *a->cards);
    if (!a->cards) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    i = 0;
    for (const arb_tnode *k = cs->first; k; k = k->next, i++) {
        arb_card *c = &a->cards[i];
        c->id = str_field(k, "id");
        c->name = str_field(k, "name");
        c->type = str_field(k, "type");
        c->group = str_field(k, "group");
        c->text = str_field(k, "text");
        if (!c->id || !c->name) return bad_answer(a, "hello", "a card needs id and name strings", err);
        if (!c->type) c->type = "";
        if (!c->group) c->group = "";
        if (!c->text) c->text = "";
    }
    g->ncards = i;
    g->card = px_card;
    const arb_tnode *ps = arb_tnode_get(r, "presets");
    if (ps && ps->kind == ARB_T_ARR && ps->n <= 64) {
        a->presets = calloc(ps->n + 1, sizeof *a->presets);
        if (!a->presets) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        i = 0;
        for (const arb_tnode *k = ps->first; k; k = k->next, i++) {
            char path[32];
            snprintf(path, sizeof path, "presets.%u", i);
            arb_error pe = ARB_ERROR_INIT;
            if (arb_adapter__read_deck(g, k, path, &a->presets[i], &pe)) {
                char m[ARB_MSG_MAX + ARB_WHERE_MAX + 8];
                snprintf(m, sizeof m, "%s: %s", pe.where, pe.msg);
                return bad_answer(a, "hello", m, err);
            }
        }
        g->npresets = i;
    } else if (ps) {
        return bad_answer(a, "hello", "\"presets\" must be a list of at most 64 decks", err);
    }
    g->card_export = NULL; /* the protocol carries no card stats */
    g->deck_check = px_deck_check;
    g->preset = px_preset;
    g->setup = px_setup;
    g->load_position = px_load;
    g->event_text = px_event_text;
    g->decision = px_decision;
    g->legal = px_legal;
    g->apply = px_apply;
    g->hash = px_hash;
    g->outcome = px_outcome;
    g->turn = px_turn;
    g->phase = px_phase;
    g->export_state = px_export;
    g->action_text = px_action_text;
    g->greedy = NULL;
    return ARB_OK;
}

/* At exit, every adapter still open loses its process group: an error
 * path that returns from main without closing leaves no engine behind. */
static void kill_groups_at_exit(void)
{
    pthread_mutex_lock(&open_mu);
    for (arb_adapter *a = open_list; a; a = a->open_next)
        if (a->pid > 0) kill(-a->pid, SIGKILL);
    pthread_mutex_unlock(&open_mu);
}

static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;
static void register_at_exit(void) { atexit(kill_groups_at_exit); }

static int spawn(arb_adapter *a, const char *cmd, arb_error *err)
{
    int sv[2], pe[2];
    pthread_once(&at_exit_once, register_at_exit);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return arb_error_set(err, ARB_EIO, NULL, "socketpair: %s", strerror(errno));
    if (pipe(pe) != 0 || fcntl(pe[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(pe[1], F_SETFD, FD_CLOEXEC) != 0) {
        close(sv[0]);
        close(sv[1]);
        return arb_error_set(err, ARB_EIO, NULL, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        close(pe[0]);
        close(pe[1]);
        return arb_error_set(err, ARB_EIO, NULL, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0 || dup2(pe[1], 2) < 0) _exit(127);
        setpgid(0, 0); /* its own group: closing kills the whole pipeline */
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: the group exists before either side goes on */
    close(sv[1]);
    close(pe[1]);
    a->fd = sv[0];
    a->efd = pe[0];
    a->pid = pid;
    int efl = fcntl(a->efd, F_GETFL);
    if (efl >= 0) fcntl(a->efd, F_SETFL, efl | O_NONBLOCK);
    int fl = fcntl(a->fd, F_GETFL);
    if (fl >= 0) fcntl(a->fd, F_SETFL, fl | O_NONBLOCK);
    return ARB_OK;
}

int arb_adapter_open(arb_adapter **out, const char *cmd, const arb_adapter_opts *opts, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, cmd);
    static const arb_adapter_opts dflt = ARB_ADAPTER_OPTS_INIT;
    if (!opts) opts = &dflt;
    *out = NULL;
    arb_adapter *a = calloc(1, sizeof *a);
    if (!a) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    a->fd = -1;
    a->efd = -1;
    a->pid = -1;
    a->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : ARB_ADAPTER_TIMEOUT_MS;
    a->line_max = opts->line_max ? opts->line_max : ARB_ADAPTER_LINE_MAX;
    pthread_mutex_init(&a->mu, NULL);
    pthread_mutex_lock(&open_mu);
    a->open_next = open_list;
    open_list = a;
    pthread_mutex_unlock(&open_mu);
    int rc;
    if ((rc = spawn(a, cmd, err))) goto fail;
    rq q;
    const arb_tnode *r;
    /* Offer the newest protocol; an adapter that refuses it as unsupported
     * (one written for protocol 1) is offered protocol 1. */
    int offered = ARB_ADAPTER_PROTOCOL;
    for (;;) {
        FILE *f = begin(a, &q, "hello");
        if (f) {
            fprintf(f, ",\"protocol\":%d", offered);
            if (opts->game) { fputs(",\"game\":", f); arb_json_str(f, opts->game); }
        }
        rc = call(a, &q, &r, err);
        if (rc == ARB_EUNSUPPORTED && offered > 1 && !a->is_failed) {
            offered = 1;
            arb_error_clear(err);
            continue;
        }
        if (rc) goto fail;
        break;
    }
    a->hello = a->resp; /* keep: the proxy game's strings live in it */
    a->resp = NULL;
    if ((rc = build_game(a, r, offered, err))) goto fail;
    if (opts->game && strcmp(a->game.id, opts->game) != 0) {
        rc = arb_error_set(err, ARB_EUNSUPPORTED, NULL, "the engine adapter serves '%s', not '%s'", a->game.id, opts->game);
        goto fail;
    }
    *out = a;
    return ARB_OK;
fail:
    if (err && !err->where[0]) arb_error_where(err, "engine '%s'", cmd);
    arb_adapter_close(a);
    return rc;
}

const arb_game *arb_adapter_game(const arb_adapter *a) { return &a->game; }

arb_adapter *arb_adapter_of(const arb_game *g)
{
    arb_adapter *found = NULL;
    pthread_mutex_lock(&open_mu);
    for (arb_adapter *a = open_list; a && !found; a = a->open_next)
        if (&a->game == g) found = a;
    pthread_mutex_unlock(&open_mu);
    return found;
}

const char *arb_adapter_failed(const arb_adapter *a) { return a->is_failed ? a->failed : NULL; }
int arb_adapter_protocol(const arb_adapter *a) { return a->proto; }
unsigned long long arb_adapter_requests(const arb_adapter *a) { return a->nreq; }

void arb_adapter_forget(arb_adapter *a)
{
    LOCK(a);
    for (unsigned i = 0; i < a->nholders; i++)
        if (!a->is_failed) free_handle(a, a->holders[i]->handle);
    a->nholders = 0;
    while (a->nodes) {
        px_node *n = a->nodes;
        a->nodes = n->all_next;
        arb_tree_free(n->pos);
        drop_trees(n);
        free(n);
    }
    a->legal_node = NULL;
    UNLOCK(a);
}

void arb_adapter_close(arb_adapter *a)
{
    if (!a) return;
    if (a->fd >= 0 && !a->is_failed && a->game.id) {
        int t = a->timeout_ms;
        a->timeout_ms = t < 1000 ? t : 1000;
        rq q;
        const arb_tnode *r;
        arb_error e = ARB_ERROR_INIT;
        begin(a, &q, "bye");
        call(a, &q, &r, &e);
    }
    if (a->fd >= 0) close(a->fd);
    if (a->pid > 0) {
        /* Give the leader a second to exit, without reaping it (WNOWAIT: its
         * pid, the group's id, stays taken), then kill the whole group —
         * whatever the engine forked dies with it — and reap the leader. */
        int st;
        siginfo_t si;
        for (int i = 0; i < 100; i++) {
            drain_stderr(a);
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)a->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == a->pid) break;
            struct timespec ts = { 0, 10000000 };
            nanosleep(&ts, NULL);
        }
        kill(-a->pid, SIGKILL);
        kill(a->pid, SIGKILL);
        waitpid(a->pid, &st, 0);
        a->pid = -1;
    }
    /* the group is gone: read its stderr to the end (bounded: nobody writes) */
    drain_stderr_to_end(a, 1000);
    arb_adapter_forget(a);
    clear_ahead(a);
    pthread_mutex_lock(&open_mu);
    for (arb_adapter **p = &open_list; *p; p = &(*p)->open_next)
        if (*p == a) { *p = a->open_next; break; }
    pthread_mutex_unlock(&open_mu);
    pthread_mutex_destroy(&a->mu);
    for (unsigned i = 0; i < a->nphases; i++) free(a->phases[i]);
    for (int i = 0; i < 3; i++) free(a->names[i]);
    free(a->rules_names);
    free(a->verbs);
    free(a->cards);
    free(a->presets);
    free(a->legal);
    free(a->xbuf);
    free(a->rbuf);
    arb_tree_free(a->hello);
    arb_tree_free(a->resp);
    free(a);
}

/* Queries read ahead after a batch: decision, outcome, hash, legal and the
 * state tree of every view, all on handle h. */
static unsigned build_queries(arb_adapter *a, rq *qs, int64_t h, int players)
{
    unsigned nq = 0;
    static const char *const ops[] = { "decision", "outcome", "hash", "legal" };
    for (unsigned i = 0; i < 4; i++) {
        FILE *f = begin(a, &qs[nq], ops[i]);
        if (f) fprintf(f, ",\"state\":%" PRId64, h);
        nq++;
    }
    for (int v = -1; v < players && v < ARB_MAX_SEATS; v++) {
        FILE *f = begin(a, &qs[nq], "state");
        if (f) {
            fprintf(f, ",\"state\":%" PRId64 ",\"view\":", h);
            arb_adapter__write_seat(f, v);
        }
        nq++;
    }
    return nq;
}

/* Close every request and send them in one write. */
static int send_batch(arb_adapter *a, rq *qs, unsigned nq)
{
    size_t alen = 0;
    int bad = 0;
    for (unsigned i = 0; i < nq; i++) {
        if (qs[i].f) { fputs("}\n", qs[i].f); fclose(qs[i].f); qs[i].f = NULL; }
        if (!qs[i].buf) bad = 1;
        else alen += qs[i].len;
    }
    char *all = bad ? NULL : malloc(alen ? alen : 1);
    if (!all) { set_failed(a, qs[0].op, "out of memory"); return ARB_ENOMEM; }
    size_t at = 0;
    for (unsigned i = 0; i < nq; i++) {
        memcpy(all + at, qs[i].buf, qs[i].len);
        at += qs[i].len;
    }
    if (a->is_failed) { free(all); return ARB_EIO; }
    a->nreq += nq;
    a->cur_id = qs[0].id;
    int rc = send_all(a, qs[0].op, all, alen, now_ms() + a->timeout_ms) ? ARB_EIO : ARB_OK;
    free(all);
    return rc;
}

/* Read the answers to query requests into the read-ahead store. */
static int read_ahead(arb_adapter *a, rq *qs, unsigned nq)
{
    for (unsigned i = 0; i < nq; i++) {
        size_t len;
        a->cur_id = qs[i].id;
        if (recv_line(a, qs[i].op, &len, now_ms() + a->timeout_ms)) return ARB_EIO;
        /* kept as text: parsed when asked for, or compared byte for byte */
        char *raw = malloc(len + 1);
        if (!raw) return ARB_ENOMEM;
        memcpy(raw, a->rbuf, len);
        raw[len] = '\0';
        consume(a, len + 1);
        if (a->nahead == PREFETCH_MAX) { free(raw); continue; }
        a->ahead[a->nahead].body = strdup(body_of(&qs[i]));
        a->ahead[a->nahead].raw = raw;
        a->ahead[a->nahead].rawlen = len;
        a->ahead[a->nahead].id = qs[i].id;
        if (!a->ahead[a->nahead].body) { free(raw); return ARB_ENOMEM; }
        a->nahead++;
    }
    return ARB_OK;
}

int arb_adapter_prefetch(const void *st, int players)
{
    px_node *n = node_of(st);
    if (!n) return ARB_EINVAL;
    arb_adapter *a = n->ad;
    LOCK(a);
    int rc = ARB_OK;
    clear_ahead(a);
    int64_t h = materialize(a, n);
    rq qs[PREFETCH_MAX];
    unsigned nq = 0;
    if (h < 0) { rc = ARB_EIO; goto out; }
    nq = build_queries(a, qs, h, players);
    if (!(rc = send_batch(a, qs, nq))) rc = read_ahead(a, qs, nq);
out:
    for (unsigned i = 0; i < nq; i++) free(qs[i].buf);
    UNLOCK(a);
    return rc;
}

int arb_adapter_step(void *st, const arb_action *acts, size_t n, int *rcs, arb_error *errs, arb_events *evs,
                     int players)
{
    px_state *s = st;
    px_node *node = node_of(st);
    if (!node || n > ARB_ADAPTER_STEP_MAX) return ARB_EINVAL;
    arb_adapter *a = node->ad;
    LOCK(a);
    int rc = ARB_OK;
    clear_ahead(a);
    rq qs[ARB_ADAPTER_STEP_MAX + PREFETCH_MAX];
    unsigned nq = 0, nquery = 0;
    int64_t h = materialize(a, node);
    if (h < 0) { rc = ARB_EIO; goto out; }
    for (size_t i = 0; i < n; i++) {
        FILE *f = begin(a, &qs[nq++], "apply");
        if (f) {
            fprintf(f, ",\"state\":%" PRId64 ",\"action\":", h);
            arb_adapter__write_action(f, &a->game, &acts[i]);
        }
    }
    nquery = build_queries(a, qs + nq, h, players);
    if ((rc = send_batch(a, qs, nq + nquery))) goto out;
    for (size_t i = 0; i < n; i++) {
        const arb_tnode *r;
        arb_error_clear(&errs[i]);
        if (evs) evs[i].n = evs[i].dropped = 0;
        rcs[i] = recv_rq(a, &qs[i], &r, &errs[i]);
        if (a->is_failed) { rc = ARB_EIO; goto out; }
        if (rcs[i]) continue;
        if ((rcs[i] = push_events(a, "apply", r, evs ? &evs[i] : NULL, &errs[i]))) { rc = ARB_EIO; goto out; }
        px_node *c = new_node(a);
        if (!c) { set_failed(a, "apply", "out of memory"); rc = ARB_ENOMEM; goto out; }
        c->parent = node;
        c->act = acts[i];
        holder_remove(a, node);
        node->handle = -1;
        drop_trees(node);
        hold(a, c, h);
        node = c;
        s->node = c;
    }
    a->legal_node = NULL;
    /* what the node knew may be stale (a refusal that changed the state):
     * the answers read ahead now tell it, in this round trip */
    node->has_dec = node->has_out = node->has_hash = 0;
    rc = read_ahead(a, qs + nq, nquery);
out:
    for (unsigned i = 0; i < nq + nquery; i++) free(qs[i].buf);
    UNLOCK(a);
    return rc;
}

int arb_adapter_state_is(const void *st, int view, const char *json, size_t len)
{
    px_node *n = node_of(st);
    if (!n) return 0;
    arb_adapter *a = n->ad;
    LOCK(a);
    int same = 0;
    char body[96];
    snprintf(body, sizeof body, "\"op\":\"state\",\"state\":%" PRId64 ",\"view\":", n->handle);
    size_t bl = strlen(body);
    for (unsigned i = 0; i < a->nahead && n->handle >= 0; i++) {
        const char *b = a->ahead[i].body;
        if (strncmp(b, body, bl) != 0) continue;
        int v = strncmp(b + bl, "\"all\"", 5) == 0 ? ARB_VIEW_ALL : atoi(b + bl);
        if (v != view) continue;
        char head[64];
        int hl = snprintf(head, sizeof head, "{\"id\":%llu,\"ok\":true,\"tree\":", a->ahead[i].id);
        const char *r = a->ahead[i].raw;
        size_t rl = a->ahead[i].rawlen;
        same = hl > 0 && rl == (size_t)hl + len + 1 && memcmp(r, head, (size_t)hl) == 0 &&
               memcmp(r + hl, json, len) == 0 && r[rl - 1] == '}';
        break;
    }
    UNLOCK(a);
    return same;
}

/* Protocol 2: one `probe` (when there are probes) and one `step`, written
 * at once and answered in order (one round trip). */
int arb_adapter_step2(void *st, arb_adapter_probes *pr, const arb_action *act, arb_events *ev, int legal,
                      const int *views, unsigned nviews, arb_adapter_expect *ex, arb_error *err)
{
    const arb_action *expect = ex ? ex->legal : NULL;
    size_t nexpect = ex ? ex->nlegal : 0;
    if (ex) ex->trees_same = 0;
    px_state *s = st;
    px_node *node = node_of(st);
    if (!node || nviews > ARB_MAX_SEATS + 1 || (pr && pr->n > ARB_ADAPTER_PROBES_MAX))
        return arb_error_set(err, ARB_EINVAL, NULL, "not a proxy state, or too many probes or views");
    arb_adapter *a = node->ad;
    LOCK(a);
    int rc = ARB_EIO;
    clear_ahead(a);
    rq qs[2];
    unsigned nq = 0;
    const arb_tnode *r;
    arb_error e = ARB_ERROR_INIT;
    int64_t h = materialize(a, node);
    if (h < 0) goto out;
    if (a->proto < 2) { set_failed(a, "step", "the adapter speaks protocol 1: no step"); goto out; }
    int probing = pr && pr->n;
    if (probing) {
        FILE *f = begin(a, &qs[nq++], "probe");
        if (f) {
            fputs(",\"state\":", f);
            arb_adapter__put_int(f, h);
            fputs(",\"actions\":[", f);
            for (size_t i = 0; i < pr->n; i++) {
                if (i) fputc(',', f);
                arb_adapter__write_action(f, &a->game, &pr->acts[i]);
            }
            fputc(']', f);
        }
    }
    FILE *f = begin(a, &qs[nq++], "step");
    if (f) {
        fputs(",\"state\":", f);
        arb_adapter__put_int(f, h);
        if (act) {
            fputs(",\"action\":", f);
            arb_adapter__write_action(f, &a->game, act);
        }
        fputs(legal ? ",\"legal\":true" : ",\"legal\":false", f);
        if (nviews) {
            fputs(",\"views\":[", f);
            for (unsigned i = 0; i < nviews; i++) {
                if (i) fputc(',', f);
                arb_adapter__write_seat(f, views[i]);
            }
            fputc(']', f);
        }
    }
    if (send_batch(a, qs, nq)) goto out;
    if (probing) {
        if (recv_rq(a, &qs[0], &r, &e)) {
            if (!a->is_failed) set_failed(a, "probe", "refused: %s", e.msg);
            goto out;
        }
        const arb_tnode *vs = arb_tnode_get(r, "verdicts");
        if (!vs || vs->kind != ARB_T_ARR || vs->n != pr->n) {
            bad_answer(a, "probe", "needs a \"verdicts\" list, one per action", &e);
            goto out;
        }
        size_t i = 0;
        for (const arb_tnode *k = vs->first; k; k = k->next, i++) {
            const arb_tnode *ok = arb_tnode_get(k, "ok"), *c = arb_tnode_get(k, "code");
            const arb_tnode *ru = arb_tnode_get(k, "rule"), *m = arb_tnode_get(k, "message");
            if (!ok || ok->kind != ARB_T_BOOL || (!ok->i && (!c || c->kind != ARB_T_STR || !ru || ru->kind != ARB_T_STR))) {
                bad_answer(a, "probe", "a verdict needs ok, and code and rule when refused", &e);
                goto out;
            }
            arb_error_clear(&pr->errs[i]);
            pr->rcs[i] = ARB_OK;
            if (!ok->i) {
                int code = arb_adapter__code_parse(c->s);
                pr->rcs[i] = arb_error_set(&pr->errs[i], code ? code : ARB_EINVAL, ru->s[0] ? ru->s : NULL, "%s",
                                           m && m->kind == ARB_T_STR ? m->s : "(the adapter gave no message)");
            }
        }
        if (read_hash(a, &pr->hash, r, "probe")) goto out;
    }
    unsigned si = nq - 1;
    /* the legal list the caller expects, as the adapter would write it */
    size_t wlen = legal && expect ? arb_adapter__format_actions(&a->xbuf, &a->xcap, &a->game, expect, nexpect) : 0;
    const char *want = wlen ? a->xbuf : NULL;
    static const char *const cuts[2] = { "legal", "trees" };
    const char *wants[2] = { want, nviews && ex ? ex->trees : NULL };
    size_t wlens[2] = { wlen, ex ? ex->trees_len : 0 };
    int got[2] = { 0, 0 };
    rc = recv_rq_cut(a, &qs[si], &r, err, cuts, wants, wlens, got, 2);
    int known = got[0];
    if (a->is_failed) { rc = ARB_EIO; goto out; }
    if (rc) goto out; /* refused: the state is unchanged */
    rc = ARB_EIO;
    px_node *t = node;
    if (act) {
        if (!(t = new_node(a))) { set_failed(a, "step", "out of memory"); goto out; }
        t->parent = node;
        t->act = *act;
    }
    unsigned before = ev ? ev->n : 0;
    if (push_events(a, "step", r, ev, &e) || read_decision(a, t, arb_tnode_get(r, "decision"), "step") ||
        read_outcome(a, t, arb_tnode_get(r, "outcome"), "step") || read_hash(a, &t->hash, r, "step")) {
        if (ev) ev->n = before;
        goto out;
    }
    t->has_hash = 1;
    if (known) { /* the list was expected's, byte for byte */
        if (arb_tnode_get(r, "legal")) { bad_answer(a, "step", "two \"legal\" members", &e); goto out; }
        if (nexpect > a->legal_cap) {
            arb_action *p = realloc(a->legal, nexpect * sizeof *p);
            if (!p) { set_failed(a, "step", "out of memory"); goto out; }
            a->legal = p;
            a->legal_cap = nexpect;
        }
        if (nexpect) memcpy(a->legal, expect, nexpect * sizeof *expect);
        a->nlegal = nexpect;
        a->legal_node = t;
    } else if (legal && read_legal(a, t, arb_tnode_get(r, "legal"), "step")) {
        goto out;
    }
    const arb_tnode *tr = arb_tnode_get(r, "trees");
    if (got[1]) { /* the trees were the caller's, byte for byte */
        if (tr) { bad_answer(a, "step", "two \"trees\" members", &e); goto out; }
        ex->trees_same = 1;
        nviews = 0;
    }
    if (nviews && (!tr || tr->kind != ARB_T_ARR || tr->n != nviews)) {
        bad_answer(a, "step", "needs a \"trees\" list, one per view asked", &e);
        goto out;
    }
    unsigned i = 0;
    for (const arb_tnode *k = nviews ? tr->first : NULL; k; k = k->next)
        if (k->kind != ARB_T_MAP) { bad_answer(a, "step", "a tree is not an object", &e); goto out; }
    if (nviews) { /* keep the answer: the trees stay where they were parsed */
        drop_trees(t);
        for (const arb_tnode *k = tr->first; k && i < nviews; k = k->next, i++)
            t->trees[views[i] < 0 ? ARB_MAX_SEATS : views[i]] = k;
        t->resp = a->resp;
        a->resp = NULL;
    }
    if (act) { /* the handle moves on to the new node (hold may free another: r is spent by then) */
        holder_remove(a, node);
        node->handle = -1;
        drop_trees(node);
        hold(a, t, h);
        s->node = t;
    }
    rc = ARB_OK;
out:
    for (unsigned k = 0; k < nq; k++) free(qs[k].buf);
    if (rc == ARB_EIO && a->is_failed) arb_error_set(err, ARB_EIO, NULL, "engine adapter: %s", a->failed);
    UNLOCK(a);
    return rc;
}

/* ------------------------------------------------------------ raw requests */

/* For promises.c (adapter_int.h): requests on a live handle of a proxy
 * state, past every cache, with the adapter locked between begin and end. */
int arb_adapter__raw_begin(const void *st, arb_adapter **out, int64_t *h)
{
    px_node *n = node_of(st);
    if (!n) return -1;
    arb_adapter *a = n->ad;
    LOCK(a);
    *h = materialize(a, n);
    if (*h < 0) {
        UNLOCK(a);
        return -1;
    }
    *out = a;
    return 0;
}

void arb_adapter__raw_end(arb_adapter *a) { UNLOCK(a); }

int arb_adapter__raw(arb_adapter *a, const char *op, int64_t h, const arb_action *act, const arb_tnode **r,
                     arb_error *err)
{
    rq q;
    FILE *f = begin(a, &q, op);
    if (f) {
        fprintf(f, ",\"state\":%" PRId64, h);
        if (act) {
            fputs(",\"action\":", f);
            arb_adapter__write_action(f, &a->game, act);
        }
    }
    return call(a, &q, r, err);
}

int arb_adapter__raw_hash(arb_adapter *a, const arb_tnode *r, const char *op, uint64_t *out)
{
    return read_hash(a, out, r, op);
}

void arb_adapter__raw_fail(arb_adapter *a, const char *op, const char *what)
{
    arb_error e = ARB_ERROR_INIT;
    bad_answer(a, op, what, &e);
}

const arb_tnode *arb_adapter_tree(const void *st, int view)
{
    px_node *n = node_of(st);
    if (!n || view < ARB_VIEW_ALL || view >= ARB_MAX_SEATS) return NULL;
    LOCK(n->ad);
    const arb_tnode *t = n->trees[view < 0 ? ARB_MAX_SEATS : view];
    UNLOCK(n->ad);
    return t;
}
