/* plugin.c — in-process plug-in engines (arbiter/plugin.h): dlopen a shared
 * object, ask its entry point for the game of this contract version (or of
 * contract 2, shimmed by plugin_c2.c), check the vtable (arb_game_check) and
 * register it, so that every command finds it by id like a compiled-in
 * engine. */
#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/plugin.h"
#include "adapter/adapter_int.h"

int arb_plugin_load(const char *path, const arb_game **out, arb_error *err)
{
    ARB_ASSERT_ARG(err, out != NULL);
    *out = NULL;
    ARB_ASSERT_ARG(err, path != NULL);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EIO, NULL, "cannot load the plug-in: %s", e ? e : "dlopen failed");
    }
    void *sym = dlsym(h, ARB_PLUGIN_SYMBOL);
    if (!sym) {
        dlclose(h);
        arb_error_where(err, "%s", path);
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL, "not an arbiter plug-in: no symbol %s", ARB_PLUGIN_SYMBOL);
    }
    arb_plugin_entry entry;
    memcpy(&entry, &sym, sizeof entry); /* object pointer -> function pointer, as POSIX allows */
    const arb_game *g = entry(ARB_GAME_CONTRACT);
    arb_game *shim = NULL;
    int rc = ARB_OK;
    if (!g) {
        const void *old = entry(2);
        if (old && !(rc = arb_adapter__shim_c2(old, &shim, err))) g = shim;
    }
    if (!g) {
        dlclose(h);
        arb_error_where(err, "%s", path);
        if (rc) return rc;
        return arb_error_set(err, ARB_EUNSUPPORTED, NULL,
                             "the plug-in does not implement game contract %d or 2 (rebuild it against this arbiter)",
                             ARB_GAME_CONTRACT);
    }
    rc = shim ? arb_game_check_layout(g, err) : arb_game_check(g, err); /* 0.2's plug-ins predate the vocabulary */
    if (!rc) rc = arb_game_register(g, err);
    if (rc) {
        free(shim);
        dlclose(h);
        if (!err || !err->where[0]) arb_error_where(err, "%s", path);
        return rc;
    }
    *out = g; /* the handle stays open for the life of the process */
    return ARB_OK;
}

static int is_so(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".so") == 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int load_dir(const char *dir, arb_error *err)
{
    DIR *d = opendir(dir);
    if (!d) return ARB_OK; /* a missing directory on the path is not an error, as for PATH */
    char *names[ARB_PLUGINS_MAX * 4];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < sizeof names / sizeof names[0])
        if (is_so(e->d_name) && (names[n] = strdup(e->d_name))) n++;
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    int rc = ARB_OK;
    for (size_t i = 0; i < n; i++) {
        if (!rc) {
            size_t len = strlen(dir) + strlen(names[i]) + 2;
            char *p = malloc(len);
            if (!p) rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
            else {
                snprintf(p, len, "%s/%s", dir, names[i]);
                const arb_game *g;
                rc = arb_plugin_load(p, &g, err);
                free(p);
            }
        }
        free(names[i]);
    }
    return rc;
}

int arb_plugin_load_env(arb_error *err)
{
    const char *path = getenv("ARBITER_GAMES_PATH");
    if (!path || !*path) return ARB_OK;
    char *copy = strdup(path);
    if (!copy) return arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
    int rc = ARB_OK;
    for (char *save = NULL, *part = strtok_r(copy, ":", &save); part && !rc; part = strtok_r(NULL, ":", &save)) {
        if (is_so(part)) {
            const arb_game *g;
            rc = arb_plugin_load(part, &g, err);
        } else {
            rc = load_dir(part, err);
        }
    }
    free(copy);
    return rc;
}
