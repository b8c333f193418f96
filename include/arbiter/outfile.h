/* arbiter/outfile.h — the one way arbiter writes a file (replays, archives,
 * reports, merged results, sealed copies, keys, secrets).
 *
 * A file is written to a temporary beside it (the caller names it: PATH.part,
 * PATH.new, PATH.tmp), flushed, fsync'ed and renamed over PATH, so a reader
 * sees the old file or the new one, never half of one. Anyone who can create
 * files in the output directory must not be able to redirect the write:
 *   - the temporary is created with O_CREAT | O_EXCL | O_NOFOLLOW, so a
 *     symbolic link (or FIFO, device, directory) planted under its name is
 *     refused, never written through; a regular file left there by a crashed
 *     run is unlinked and created anew (never truncated in place, so a hard
 *     link planted there is not written through either);
 *   - an existing PATH that is a symbolic link or not a regular file is
 *     refused (it would be replaced: the link itself, or a device node);
 *   - after the rename PATH must be the inode that was written: a temporary
 *     swapped during the write is reported, not trusted.
 * With ARB_OUT_NOREPLACE the temporary is linked to PATH, which must not
 * exist at all (a dangling symbolic link counts): keys, secrets, `sign`'s
 * output for a .part. Every refusal names the path (err->where) and is an
 * input error (exit 3 in the CLI). */
#ifndef ARBITER_OUTFILE_H
#define ARBITER_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "arbiter/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_OUT_NOREPLACE 1u    /* PATH must not exist; installed by link(2) */

/* ARB_OK when path is absent or a regular file (or, with ARB_OUT_NOREPLACE,
 * when nothing at all is there); else an error naming it. Does not follow a
 * final symbolic link. */
int arb_out_check(const char *path, unsigned flags, arb_error *err);

/* Check path (as arb_out_check) and create the temporary tmp for writing
 * ("wb"); mode as for open(2), e.g. 0666 or 0600 (umask applies). NULL with
 * err set on failure. */
FILE *arb_out_create(const char *path, const char *tmp, unsigned mode, unsigned flags, arb_error *err);

/* Finish a file made by arb_out_create: fflush, fsync, fclose f, then rename
 * tmp over path (ARB_OUT_NOREPLACE: link tmp to path and unlink tmp). On any
 * failure tmp is removed and err names the path. f is closed either way. */
int arb_out_install(FILE *f, const char *tmp, const char *path, unsigned flags, arb_error *err);

/* Abandon a file made by arb_out_create: close it and remove tmp. */
void arb_out_discard(FILE *f, const char *tmp);

/* The whole of data[0..n) to path through tmp (create + write + install). */
int arb_out_write_file(const char *path, const char *tmp, const void *data, size_t n, unsigned mode, unsigned flags,
                       arb_error *err);

/* An existing regular file opened for update in place ("r+b": an archive
 * that is appended to), refusing a symbolic link, FIFO or device at path
 * without blocking. NULL with err set on failure. */
FILE *arb_out_open_existing(const char *path, arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
