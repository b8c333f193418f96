/* record_io.h — `arbiter record`'s input side, shared with its fuzz target
 * (tests/fuzz/fuzz_record.c): the line limit and the strict NDJSON action
 * reader. Lines themselves are read by arb_line_read (arbiter/text.h). */
#ifndef ARBITER_CLI_RECORD_IO_H
#define ARBITER_CLI_RECORD_IO_H

#include "arbiter/arbiter.h"

/* The longest action line, not counting its LF or CRLF ending. */
#define CLI_RECORD_LINE_MAX 4096

/* One NDJSON action object (line[0..len)) → *a. ARB_EINVAL (or the action
 * parser's code) with err set when it is not exactly a valid action
 * object; ARB_ENOMEM on allocation failure. */
int cli_record_json_action(const arb_game *g, const char *line, size_t len, arb_action *a, arb_error *err);

#endif
