/* table.h — aligned text tables for the CLI (table.c). */
#ifndef CLI_TABLE_H
#define CLI_TABLE_H

#include <stddef.h>
#include <stdio.h>

#define CLI_TABLE_COLS 12

typedef struct cli_table {
    unsigned ncols, nrows, cap;
    size_t w[CLI_TABLE_COLS];
    char **cells;
} cli_table;

void cli_table_init(cli_table *t, unsigned ncols);
/* Copies ncols cells (NULL is ""); -1 when out of memory. */
int cli_table_row(cli_table *t, const char *const *cells);
void cli_table_print(cli_table *t, FILE *out);
void cli_table_free(cli_table *t);

#endif
