/* paths.h — FILE|DIR arguments: the *.tcgr files under a directory (paths.c). */
#ifndef CLI_PATHS_H
#define CLI_PATHS_H

#include <stdio.h>

#define CLI_WALK_DEPTH 16
#define CLI_WALK_DEPTH_TEXT "16"

typedef struct cli_walk {
    const char *cmd;
    /* Called once per file, in order; a nonzero return stops the walk and
     * is returned by cli_walk_path (-1: out of memory). */
    int (*fn)(void *ctx, const char *path);
    void *ctx;
    int quiet;                  /* no notes on stderr (a counting pass) */
    unsigned long files;        /* regular files found in directories */
    unsigned long skipped, unreadable;  /* noted on stderr */
} cli_walk;

/* A file argument is handed on as it is (its reader reports what it is); a
 * directory contributes its *.tcgr regular files, recursively, sorted. */
int cli_walk_path(cli_walk *w, const char *path);

/* Every argument expanded, in order (directories as above): paths[0..n),
 * owned. -1 when out of memory. skipped counts what was noted and left out. */
typedef struct cli_pathlist {
    char **paths;
    size_t n, cap;
    unsigned long skipped;
} cli_pathlist;
int cli_pathlist_build(cli_pathlist *l, const char *cmd, int argc, char **argv);
void cli_pathlist_free(cli_pathlist *l);

/* The matches of one path: an archive's members in order, each as fn(ctx,
 * "PATH#i", archive, i) with the archive open (arb_an_open_member,
 * arb_archive_open_member: one pass over the file); a member cut short by
 * the end of the file, a corrupt index or bytes no member accounts for go
 * to bad, with the offset. drain (NULL: none) is called before the
 * archive is closed: whatever fn handed to other threads must be done with
 * it. Any other path is fn(ctx, path, NULL, 0).
 * Returns fn's first nonzero return, else 0. */
struct arb_error;
struct arb_archive;
typedef int (*cli_match_fn)(void *ctx, const char *path, struct arb_archive *a, unsigned long long member);
int cli_each_match(const char *path, cli_match_fn fn, void (*bad)(void *ctx, const struct arb_error *err),
                   void (*drain)(void *ctx), void *ctx);

/* A file name in dir for a match path (report DIR's pages, select
 * --files): "DIR/" + rel with '/' written %2F, '%' %25 and '#' %23, so
 * that two paths never share a name, then suffix. 0, or -1 when it does
 * not fit in size. */
int cli_flat_name(char *out, size_t size, const char *dir, const char *rel, const char *suffix);

#endif
