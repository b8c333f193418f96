/* outfile.c — safe output files (arbiter/outfile.h): an exclusive,
 * non-following temporary, fsync, an atomic rename or link, and a check that
 * the name installed is the inode written. Every writer of the library and
 * the CLI goes through these four calls. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arbiter/outfile.h"

static const char *kind(mode_t m)
{
    return S_ISLNK(m) ? "a symbolic link" : S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO"
         : S_ISCHR(m) || S_ISBLK(m) ? "a device" : S_ISSOCK(m) ? "a socket" : "a special file";
}

static int refuse(arb_error *err, const char *path, const struct stat *st, const char *why)
{
    arb_error_where(err, "%s", path);
    if (S_ISLNK(st->st_mode))
        return arb_error_set(err, ARB_EINVAL, NULL,
                             "a symbolic link: %s never written through a link or in its place (remove it, or "
                             "give the path of a regular file; see README, \"Output files\")", why);
    return arb_error_set(err, ARB_EINVAL, NULL,
                         "not a regular file (%s): %s written to a temporary and renamed over the target, which "
                         "would replace it; give the path of a regular file (see README, \"Output files\")",
                         kind(st->st_mode), why);
}

int arb_out_check(const char *path, unsigned flags, arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return ARB_OK;
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot examine the output path: %s", strerror(errno));
    }
    if (flags & ARB_OUT_NOREPLACE) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EINVAL, NULL, "exists (%s); this file is never overwritten",
                             S_ISREG(st.st_mode) ? "a regular file" : S_ISLNK(st.st_mode) && stat(path, &st) != 0
                                                                          ? "a dangling symbolic link"
                                                                          : kind(st.st_mode));
    }
    if (!S_ISREG(st.st_mode)) return refuse(err, path, &st, "output is");
    return ARB_OK;
}

FILE *arb_out_create(const char *path, const char *tmp, unsigned mode, unsigned flags, arb_error *err)
{
    if (arb_out_check(path, flags, err)) return NULL;
    int fd = -1;
    for (int attempt = 0; attempt < 2 && fd < 0; attempt++) {
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
        if (fd >= 0 || errno != EEXIST || attempt) break;
        /* Something is there already: a link or special file is refused; a
         * regular file (a crashed run's) is unlinked, never written into. */
        struct stat st;
        if (lstat(tmp, &st) == 0 && !S_ISREG(st.st_mode)) {
            refuse(err, tmp, &st, "the temporary of an output file is");
            return NULL;
        }
        if (unlink(tmp) != 0 && errno != ENOENT) break;
    }
    if (fd < 0) {
        arb_error_where(err, "%s", tmp);
        arb_error_set(err, ARB_EIO, NULL, "cannot create: %s", strerror(errno));
        return NULL;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        arb_error_where(err, "%s", tmp);
        arb_error_set(err, ARB_ENOMEM, NULL, "cannot open a stream: %s", strerror(errno));
    }
    return f;
}

void arb_out_discard(FILE *f, const char *tmp)
{
    if (f) fclose(f);
    unlink(tmp);
}

int arb_out_install(FILE *f, const char *tmp, const char *path, unsigned flags, arb_error *err)
{
    ARB_ASSERT_ARG(err, f);
    ARB_ASSERT_ARG(err, tmp);
    ARB_ASSERT_ARG(err, path);
    struct stat mine;
    int ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0 && fstat(fileno(f), &mine) == 0;
    int en = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        en = errno;
    }
    if (!ok) {
        unlink(tmp);
        arb_error_where(err, "%s", tmp);
        return arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(en));
    }
    if (flags & ARB_OUT_NOREPLACE) {
        /* link(2) never replaces: an entry of any kind at path (a dangling
         * symbolic link included) makes it fail with EEXIST */
        int lr = link(tmp, path);
        en = errno;
        unlink(tmp);
        if (lr != 0) {
            arb_error_where(err, "%s", path);
            return arb_error_set(err, ARB_EIO, NULL, "cannot create: %s%s", strerror(en),
                                 en == EEXIST ? " (this file is never overwritten)" : "");
        }
    } else if (rename(tmp, path) != 0) {
        en = errno;
        unlink(tmp);
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot rename %s into place: %s", tmp, strerror(en));
    }
    struct stat now;
    if (lstat(path, &now) != 0 || now.st_dev != mine.st_dev || now.st_ino != mine.st_ino) {
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL,
                             "the file in place is not the one written: %s was replaced during the write", tmp);
    }
    return ARB_OK;
}

int arb_out_write_file(const char *path, const char *tmp, const void *data, size_t n, unsigned mode, unsigned flags,
                       arb_error *err)
{
    ARB_ASSERT_ARG(err, path);
    ARB_ASSERT_ARG(err, tmp);
    ARB_ASSERT_ARG(err, data || !n);
    FILE *f = arb_out_create(path, tmp, mode, flags, err);
    if (!f) return err->code;
    setvbuf(f, NULL, _IONBF, 0); /* one write, no copy in a stdio buffer (key files, secrets) */
    if (fwrite(data, 1, n, f) != n) {
        int en = errno;
        arb_out_discard(f, tmp);
        arb_error_where(err, "%s", tmp);
        return arb_error_set(err, ARB_EIO, NULL, "write failed: %s", strerror(en));
    }
    return arb_out_install(f, tmp, path, flags, err);
}

FILE *arb_out_open_existing(const char *path, arb_error *err)
{
    /* examined before it is opened (a device is never opened), and again
     * through the descriptor (what was opened is what was examined) */
    struct stat st;
    if (lstat(path, &st) != 0) {
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EIO, NULL, "cannot open for appending: %s", strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        refuse(err, path, &st, "a file appended to is");
        return NULL;
    }
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EIO, NULL, "cannot open for appending: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_EIO, NULL, "cannot open for appending: replaced by a non-regular file as it was opened");
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r+b");
    if (!f) {
        close(fd);
        arb_error_where(err, "%s", path);
        arb_error_set(err, ARB_ENOMEM, NULL, "cannot open a stream: %s", strerror(errno));
    }
    return f;
}
