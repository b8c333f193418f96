/* table.c — aligned text tables for the CLI: rows of cells collected first,
 * each column as wide as its widest cell (counted in UTF-8 characters), the
 * last column unpadded. */
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"

static size_t width(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void cli_table_init(cli_table *t, unsigned ncols) { memset(t, 0, sizeof *t); t->ncols = ncols; }

int cli_table_row(cli_table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        unsigned cap = t->cap ? t->cap * 2 : 16;
        char **c = realloc(t->cells, (size_t)cap * t->ncols * sizeof *c);
        if (!c) return -1;
        t->cells = c;
        t->cap = cap;
    }
    for (unsigned i = 0; i < t->ncols; i++) {
        const char *s = cells[i] ? cells[i] : "";
        char *d = strdup(s);
        if (!d) { for (unsigned k = 0; k < i; k++) free(t->cells[(size_t)t->nrows * t->ncols + k]); return -1; }
        t->cells[(size_t)t->nrows * t->ncols + i] = d;
        if (width(s) > t->w[i]) t->w[i] = width(s);
    }
    t->nrows++;
    return 0;
}

void cli_table_print(cli_table *t, FILE *out)
{
    for (unsigned r = 0; r < t->nrows; r++) {
        for (unsigned i = 0; i < t->ncols; i++) {
            const char *s = t->cells[(size_t)r * t->ncols + i];
            fputs(s, out);
            if (i + 1 < t->ncols)
                for (size_t p = width(s); p < t->w[i] + 2; p++) fputc(' ', out);
        }
        fputc('\n', out);
    }
}

void cli_table_free(cli_table *t)
{
    for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++) free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}
