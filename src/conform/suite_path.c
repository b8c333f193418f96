/* suite_path.c — where a bare `arbiter conform` finds its suite. In order:
 * $ARBITER_CONFORMANCE when set (taken as given); ./conformance (a
 * checkout); the checkout a build tree belongs to, found from the running
 * program's own path (build/arbiter, build/san/arbiter: the parent and
 * grandparent directories of the program's directory); the installed copy
 * under the data directory chosen at build time. A place counts when it
 * holds schema/conformance.xsd. The list is computed once (thread-safe) and
 * kept, so an error can name every place it looked. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arbiter/conform.h"

#ifndef ARB_DATADIR
#define ARB_DATADIR "/usr/local/share/arbiter"
#endif

#define PLACE_MAX 4096
#define NPLACES 4

static char places[NPLACES][PLACE_MAX];
static unsigned nplaces;
static pthread_once_t places_once = PTHREAD_ONCE_INIT;

/* dir's conformance/; NULL: the working directory's, named "conformance" as
 * every path below it is printed. */
static void add_place(const char *dir)
{
    char p[PLACE_MAX];
    if ((size_t)snprintf(p, sizeof p, "%s%sconformance", dir ? dir : "", dir ? "/" : "") >= sizeof p) return;
    for (unsigned i = 0; i < nplaces; i++)
        if (strcmp(places[i], p) == 0) return;
    if (nplaces < NPLACES) memcpy(places[nplaces++], p, sizeof p);
}

/* Cut the last path component off dir (in place); 0 when none is left. */
static int up(char *dir)
{
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return 0;
    *slash = '\0';
    return 1;
}

static void find_places(void)
{
    add_place(NULL);
    char exe[PLACE_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && (size_t)n < sizeof exe - 1) {
        exe[n] = '\0';
        /* the program's directory, then its parent and grandparent */
        if (up(exe) && up(exe)) {
            add_place(exe);
            if (up(exe)) add_place(exe);
        }
    }
    add_place(ARB_DATADIR);
}

unsigned arb_conform_search_places(const char **out, unsigned cap)
{
    pthread_once(&places_once, find_places);
    for (unsigned i = 0; i < nplaces && i < cap; i++) out[i] = places[i];
    return nplaces;
}

const char *arb_conform_default_dir(void)
{
    const char *env = getenv("ARBITER_CONFORMANCE");
    if (env && *env) return env;
    const char *p[NPLACES];
    unsigned n = arb_conform_search_places(p, NPLACES);
    for (unsigned i = 0; i < n; i++) {
        char xsd[PLACE_MAX + 32];
        struct stat st;
        snprintf(xsd, sizeof xsd, "%s/schema/conformance.xsd", p[i]);
        if (stat(xsd, &st) == 0 && S_ISREG(st.st_mode)) return p[i];
    }
    return NULL;
}
