/* paths.c — FILE|DIR arguments of verify, stats and report: a directory
 * stands for the *.tcgr files under it, recursively, in byte order of their
 * names (never readdir order, so output is the same on every machine), at
 * most CLI_WALK_DEPTH levels deep (deeper levels are reported, not silently
 * dropped). Only regular files are handed on: a FIFO, device or socket named
 * *.tcgr is skipped with a note and never opened (it could block forever). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arbiter/replay.h"
#include "arbiter/text.h"
#include "cli/paths.h"

static int is_replay_name(const char *n)
{
    size_t l = strlen(n);
    return l > 5 && !strcmp(n + l - 5, ".tcgr");
}

/* A directory entry: its d_type in byte 0, its name from byte 1. */
static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

static void note(const cli_walk *w, const char *path, const char *what)
{
    char shown[4200];
    if (!w->quiet) fprintf(stderr, "arbiter %s: %s: %s\n", w->cmd, arb_text_escape(shown, sizeof shown, path), what);
}

static int walk(cli_walk *w, const char *dir, unsigned depth)
{
    if (depth > CLI_WALK_DEPTH) {
        note(w, dir, "more than " CLI_WALK_DEPTH_TEXT " directory levels below the argument: not read");
        w->skipped++;
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot read directory: %s", strerror(errno));
        note(w, dir, msg);
        w->unreadable++;
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) { rc = -1; break; }
            names = nn;
            cap = nc;
        }
        size_t el = strlen(e->d_name);
        if (!(names[n] = malloc(el + 2))) { rc = -1; break; }
        names[n][0] = (char)e->d_type;
        memcpy(names[n] + 1, e->d_name, el + 1);
        n++;
    }
    closedir(d);
    if (!rc) qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n && !rc; i++) {
        const char *name = names[i] + 1;
        size_t dl = strlen(dir), len = dl + strlen(name) + 2;
        char *full = malloc(len);
        if (!full) { rc = -1; break; }
        snprintf(full, len, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
        struct stat st;
        /* readdir's type spares a regular file its lstat (one system call
         * per file of a day's directory); other types and DT_UNKNOWN are
         * looked at */
        if ((unsigned char)names[i][0] == DT_REG) {
            if (is_replay_name(name)) { w->files++; rc = w->fn(w->ctx, full); }
        } else if (lstat(full, &st) == 0 && S_ISLNK(st.st_mode) && stat(full, &st) != 0) {
            if (is_replay_name(name)) { note(w, full, "a dangling link: skipped"); w->skipped++; }
        } else if (S_ISDIR(st.st_mode)) {
            if (lstat(full, &st) == 0 && !S_ISLNK(st.st_mode)) rc = walk(w, full, depth + 1); /* links to directories are not followed */
        } else if (is_replay_name(name)) {
            if (S_ISREG(st.st_mode)) { w->files++; rc = w->fn(w->ctx, full); }
            else { note(w, full, "not a regular file: skipped (never opened)"); w->skipped++; }
        }
        free(full);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}

int cli_walk_path(cli_walk *w, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return walk(w, path, 1);
    return w->fn(w->ctx, path);
}

static int add_path(void *ctx, const char *path)
{
    cli_pathlist *l = ctx;
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        char **np = realloc(l->paths, nc * sizeof *np);
        if (!np) return -1;
        l->paths = np;
        l->cap = nc;
    }
    if (!(l->paths[l->n] = strdup(path))) return -1;
    l->n++;
    return 0;
}

int cli_pathlist_build(cli_pathlist *l, const char *cmd, int argc, char **argv)
{
    cli_walk w = { cmd, add_path, l, 0, 0, 0, 0 };
    for (int i = 0; i < argc; i++)
        if (cli_walk_path(&w, argv[i])) return -1;
    l->skipped = w.skipped + w.unreadable;
    return 0;
}

void cli_pathlist_free(cli_pathlist *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->paths[i]);
    free(l->paths);
    memset(l, 0, sizeof *l);
}

int cli_each_match(const char *path, cli_match_fn fn, void (*bad)(void *ctx, const struct arb_error *err),
                   void (*drain)(void *ctx), void *ctx)
{
    if (!arb_archive_is(path)) return fn(ctx, path, NULL, 0);
    arb_archive *a;
    arb_error err = ARB_ERROR_INIT;
    if (arb_archive_open(&a, path, &err)) {
        bad(ctx, &err);
        return 0;
    }
    int rc = 0;
    uint64_t n = arb_archive_count(a), off;
    size_t pl = strlen(path);
    char *mp = malloc(pl + 24);
    if (!mp) rc = -1;
    for (uint64_t i = 0; i < n && !rc; i++) {
        snprintf(mp, pl + 24, "%s#%llu", path, (unsigned long long)i);
        rc = fn(ctx, mp, a, i);
    }
    free(mp);
    if (drain) drain(ctx);
    if (!rc && arb_archive_verdict(a, &err) == ARB_EFORMAT) bad(ctx, &err);
    if (!rc && arb_archive_cut(a, &off)) {
        arb_error_clear(&err);
        arb_error_where(&err, "%s: offset %llu", path, (unsigned long long)off);
        arb_error_set(&err, ARB_ETRUNC, NULL, "truncated: member %llu is cut short by the end of the file",
                      (unsigned long long)n);
        bad(ctx, &err);
    }
    arb_archive_close(a);
    return rc;
}

int cli_flat_name(char *out, size_t size, const char *dir, const char *rel, const char *suffix)
{
    size_t o = (size_t)snprintf(out, size, "%s/", dir), sl = strlen(suffix);
    if (o >= size) return -1;
    for (const char *p = rel; *p; p++) {
        if (o + 4 + sl >= size) return -1;
        if (*p == '/' || *p == '%' || *p == '#') o += (size_t)snprintf(out + o, size - o, "%%%02X", (unsigned char)*p);
        else out[o++] = *p;
    }
    if (o + sl >= size) return -1;
    memcpy(out + o, suffix, sl + 1);
    return 0;
}
