/* stdio.c — '-' for stdin and stdout wherever a command reads or writes a
 * replay, an archive or a result stream.
 *
 * Input '-': stdin is spooled once into a private temporary file (a reader
 * may need to seek and reopen: archives keep their index at the end, the
 * analyzer replays twice), at most CLI_STDIN_MAX bytes; messages name it
 * "<tmpdir>/stdin". Output '-o -': the command writes a private temporary
 * as it would any output file (the same .part and rename), its own lines
 * go to stderr meanwhile (stdout carries the bytes of the file only), and
 * the finished file is copied to the real stdout at the end: a reader on
 * the pipe sees the whole file or, when the command fails, nothing. The
 * temporaries live in one mode-0700 directory under $TMPDIR, removed at
 * exit. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static char dir[4096];
static char in_path[4200];
static char out_path[4200];
static int out_fd = -1;         /* the real stdout while '-o -' is written */

static void cleanup(void)
{
    if (in_path[0]) unlink(in_path);
    if (out_path[0]) {
        unlink(out_path);
        char part[4300];
        snprintf(part, sizeof part, "%s.part", out_path);
        unlink(part);
    }
    if (dir[0]) rmdir(dir);
}

static int temp_dir(const char *cmd)
{
    if (dir[0]) return 0;
    const char *t = getenv("TMPDIR");
    if (!t || !*t) t = "/tmp";
    if ((size_t)snprintf(dir, sizeof dir, "%s/arbiter-XXXXXX", t) >= sizeof dir || !mkdtemp(dir)) {
        fprintf(stderr, "arbiter %s: cannot create a temporary directory under %s: %s\n", cmd, cli_esc(t),
                strerror(errno));
        dir[0] = '\0';
        return -1;
    }
    atexit(cleanup);
    return 0;
}

/* Every byte of in to out, at most max (then COPY_OVER): one loop for the
 * spool and for the copy to stdout. errno tells why on COPY_READ/WRITE. */
enum { COPY_OK, COPY_READ, COPY_WRITE, COPY_OVER };
static int copy_fd(int in, int out, uint64_t max)
{
    static char buf[1 << 16];
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n == 0) return COPY_OK;
        if (n < 0) {
            if (errno == EINTR) continue;
            return COPY_READ;
        }
        total += (uint64_t)n;
        if (total > max) return COPY_OVER;
        for (ssize_t o = 0; o < n;) {
            ssize_t w = write(out, buf + o, (size_t)(n - o));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) return COPY_WRITE;
            o += w;
        }
    }
}

const char *cli_in(const char *cmd, const char *arg)
{
    if (!arg || strcmp(arg, "-")) return arg;
    if (in_path[0]) return in_path; /* stdin is read once; '-' twice means the same bytes */
    if (temp_dir(cmd)) return NULL;
    snprintf(in_path, sizeof in_path, "%s/stdin", dir);
    int fd = open(in_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "arbiter %s: cannot spool stdin to %s: %s\n", cmd, cli_esc(in_path), strerror(errno));
        in_path[0] = '\0';
        return NULL;
    }
    int cr = copy_fd(0, fd, CLI_STDIN_MAX);
    if (cr == COPY_READ) fprintf(stderr, "arbiter %s: -: read error on stdin: %s\n", cmd, strerror(errno));
    else if (cr == COPY_WRITE)
        fprintf(stderr, "arbiter %s: cannot spool stdin to %s: %s\n", cmd, cli_esc(in_path), strerror(errno));
    else if (cr == COPY_OVER)
        fprintf(stderr, "arbiter %s: -: stdin holds more than %llu bytes: not read (give a file)\n", cmd,
                (unsigned long long)CLI_STDIN_MAX);
    int bad = cr != COPY_OK;
    if (close(fd) != 0) bad = 1;
    if (bad) {
        unlink(in_path);
        in_path[0] = '\0';
        return NULL;
    }
    return in_path;
}

const char *cli_out(const char *cmd, const char *arg)
{
    if (!arg || strcmp(arg, "-")) return arg;
    if (out_path[0]) return out_path;
    if (temp_dir(cmd)) return NULL;
    snprintf(out_path, sizeof out_path, "%s/stdout.tcgr", dir);
    fflush(stdout);
    out_fd = dup(1);
    if (out_fd < 0 || dup2(2, 1) < 0) {
        fprintf(stderr, "arbiter %s: cannot redirect stdout: %s\n", cmd, strerror(errno));
        out_path[0] = '\0';
        return NULL;
    }
    return out_path;
}

int cli_out_finish(const char *cmd, const char *arg, int rc)
{
    if (!arg || strcmp(arg, "-") || out_fd < 0) return rc;
    fflush(stdout);
    int real = out_fd;
    out_fd = -1;
    /* stdout is the real one again for whatever follows */
    if (dup2(real, 1) < 0) {
        close(real);
        return rc ? rc : EXIT_INTERNAL;
    }
    close(real);
    /* What the command left is what goes to the pipe: the finished file,
     * or what a file output would have kept as FILE.part (a recording that
     * ended without an outcome: every accepted action), or nothing. */
    char part[4300];
    snprintf(part, sizeof part, "%s.part", out_path);
    int fd = open(out_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && rc) fd = open(part, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (rc) return rc;
        fprintf(stderr, "arbiter %s: the output was not written: %s\n", cmd, strerror(errno));
        return EXIT_INTERNAL;
    }
    int bad = copy_fd(fd, 1, UINT64_MAX) != COPY_OK;
    close(fd);
    if (bad) {
        fprintf(stderr, "arbiter %s: cannot write to stdout: %s\n", cmd, strerror(errno));
        return EXIT_INTERNAL;
    }
    return rc;
}

const char *cli_stdio_names(const char *s, char *buf, size_t size)
{
    static char out_part[4300];
    if (out_path[0] && !out_part[0]) snprintf(out_part, sizeof out_part, "%s.part", out_path);
    /* the longer first: stdout's FILE.part is stdout too */
    const char *from[3] = { out_part, in_path, out_path }, *to[3] = { "-", "-", "-" };
    if ((!in_path[0] || !strstr(s, in_path)) && (!out_path[0] || !strstr(s, out_path))) return s;
    size_t o = 0;
    while (*s && o + 1 < size) {
        int k = -1;
        for (int i = 0; i < 3 && k < 0; i++)
            if (from[i][0] && !strncmp(s, from[i], strlen(from[i]))) k = i;
        if (k >= 0) {
            size_t tl = strlen(to[k]);
            if (o + tl >= size) break;
            memcpy(buf + o, to[k], tl);
            o += tl;
            s += strlen(from[k]);
        } else {
            buf[o++] = *s++;
        }
    }
    buf[o] = '\0';
    return buf;
}
