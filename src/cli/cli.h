/* cli.h — what the `arbiter` subcommands share: exit codes, the command
 * table, and small helpers for errors and options. The CLI uses only the
 * public API in include/arbiter/. */
#ifndef ARBITER_CLI_H
#define ARBITER_CLI_H

#include <stdio.h>

#include "arbiter/analyze.h"
#include "arbiter/arbiter.h"

/* Exit codes, documented in `arbiter --help` and the README. */
enum {
    EXIT_OK = 0,        /* success */
    EXIT_VERIFY = 1,    /* verification failed: a replay diverges, a deck is
                           illegal, a conformance result is unexpected */
    EXIT_USAGE = 2,     /* bad command line */
    EXIT_INPUT = 3,     /* bad input: missing, unreadable, corrupt or
                           unsupported file, unknown game or card */
    EXIT_INTERNAL = 4   /* out of memory or an engine bug */
};


/* Where messages go: stderr, or per thread the stream a --jobs worker set
 * (its messages are then printed in input order with its result). */
FILE *cli_msgs(void);
void cli_msgs_to(FILE *f); /* NULL: stderr again */
/* A --jobs worker's messages, kept to be printed in input order:
 * cli_msgs_begin (the worker, before), cli_msgs_end (after), then
 * cli_msgs_print (the thread that finishes items, in order; frees). */
typedef struct cli_msgbuf {
    char *p;
    size_t n;
    FILE *f;
} cli_msgbuf;
void cli_msgs_begin(cli_msgbuf *b);
void cli_msgs_end(cli_msgbuf *b);
void cli_msgs_print(cli_msgbuf *b);
/* "arbiter CMD: where: RULE: msg" on cli_msgs(); returns the exit code
 * that fits err->code. */
int cli_fail(const char *cmd, const arb_error *err);
/* Exit code for an arb_error code. */
int cli_exit_for(int code);
/* Usage error: prints "arbiter CMD: msg" and a hint; returns EXIT_USAGE. */
/* --jobs N takes 1..CLI_JOBS_MAX in every command. */
#define CLI_JOBS_MAX 256

#include "cli/cmdtab.h"

int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* --game NAME → engine; on failure prints the known games. */
const arb_game *cli_game(const char *cmd, const char *name);
/* Every number the CLI reads goes through arb_parse_u64 (arbiter/text.h):
 * decimal digits only, no sign, space or leading zero, range checked.
 * cli_parse_u64: any 64-bit value; cli_parse_num: within [lo, hi]. 0 on
 * success, -1 otherwise (the caller prints a usage error, exit 2). */
int cli_parse_u64(const char *s, unsigned long long *out);
int cli_parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* Largest SOURCE_DATE_EPOCH accepted: 9999-12-31T23:59:59Z. */
#define CLI_EPOCH_MAX 253402300799ULL
/* s with its control characters escaped (arb_text_escape), for text output
 * of anything that comes from a file: player and deck names, reasons,
 * keys, messages, paths. Rotates over 8 buffers of 2 KiB per thread (so up
 * to 8 may appear in one printf). */
const char *cli_esc(const char *s);
/* Print a JSON string literal. */
void cli_json_str(FILE *out, const char *s);
/* Whether stderr is a terminal (progress goes there only then). */

/* ISO-8601 UTC start time: SOURCE_DATE_EPOCH when set, else now. 0 ok. */
int cli_started(char *buf, size_t size);
/* Hex string → bytes (at most cap). 0 on success. */
int cli_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len);
void cli_hex(FILE *out, const uint8_t *p, size_t n);
/* Output files are written to FILE.part and renamed over FILE, so a failed
 * run never leaves half a file. An existing FILE that is not a regular file
 * (device, FIFO, directory, socket) is refused instead of replaced: prints
 * the error and returns EXIT_INPUT; 0 when FILE is absent or regular. */
int cli_output_target(const char *cmd, const char *path);
/* Abandon an archive being written to out and remove what it left
 * (out.part, whose frames would stay readable): a command that refuses to
 * finish it writes nothing. */
void cli_archive_discard(arb_archive_writer *aw, const char *out);
/* '-' as a file (cli/stdio.c): cli_in spools stdin once into a private
 * temporary and returns its path (NULL: refused, printed; at most
 * CLI_STDIN_MAX bytes); cli_out returns a private temporary to write
 * instead of stdout and sends the command's own stdout lines to stderr
 * until cli_out_finish copies the finished file to stdout (nothing when
 * rc is nonzero; returns the exit code). Any other arg is returned as it
 * is (cli_out_finish: rc). main.c applies them to the arguments. */
#define CLI_STDIN_MAX (4ULL << 30)
const char *cli_in(const char *cmd, const char *arg);
const char *cli_out(const char *cmd, const char *arg);
int cli_out_finish(const char *cmd, const char *arg, int rc);
/* s with those temporaries' paths written "-" (in buf when changed): what
 * cli_esc and cli_json_str print, so that messages name stdin as '-'. */
const char *cli_stdio_names(const char *s, char *buf, size_t size);
/* Split a comma list in place; returns the count or -1 above max. */
int cli_split(char *s, char **parts, int max);
/* "key=integer" into o; 0 on success. */
int cli_option(arb_options *o, const char *kv);

/* Each command's spec (cli/cmdtab.h), beside its code. */
extern const cli_spec cli_spec_games;
extern const cli_spec cli_spec_cards;
extern const cli_spec cli_spec_deck;
extern const cli_spec cli_spec_verbs;
extern const cli_spec cli_spec_play;
extern const cli_spec cli_spec_record;
extern const cli_spec cli_spec_verify;
extern const cli_spec cli_spec_keygen;
extern const cli_spec cli_spec_sign;
extern const cli_spec cli_spec_seed;
extern const cli_spec cli_spec_reseal;
extern const cli_spec cli_spec_info;
extern const cli_spec cli_spec_extract;
extern const cli_spec cli_spec_archive;
extern const cli_spec cli_spec_pack;
extern const cli_spec cli_spec_unpack;
extern const cli_spec cli_spec_select;
extern const cli_spec cli_spec_merge;
extern const cli_spec cli_spec_slurm_script;
extern const cli_spec cli_spec_conform;
extern const cli_spec cli_spec_log;
extern const cli_spec cli_spec_state;
extern const cli_spec cli_spec_diff;
extern const cli_spec cli_spec_stats;
extern const cli_spec cli_spec_report;
extern const cli_spec cli_spec_crosscheck;
extern const cli_spec cli_spec_perft;
extern const cli_spec cli_spec_engine_serve;
extern const cli_spec cli_spec_complete, cli_spec_man_cmd;

int cmd_games(int argc, char **argv);
int cmd_cards(int argc, char **argv);
int cmd_deck(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_seed(int argc, char **argv);
int cmd_sign(int argc, char **argv);

/* Fair seeds (cmd_seed.c): read a server secret file (refused once used,
 * unless allow_used); record that a match derives from it (what: the match,
 * one line; refused when another match got there first); add one
 * "SEAT:HEX" contribution (seen: bit per seat); check one per seat of
 * players and compute the commitment. Exit codes, errors printed. */
int cli_fair_secret_load(const char *cmd, const char *path, int allow_used, uint8_t secret[ARB_FAIR_SECRET_BYTES]);
int cli_fair_secret_consume(const char *cmd, const char *path, const uint8_t secret[ARB_FAIR_SECRET_BYTES],
                            const char *what);
int cli_fair_contribution(const char *cmd, const char *arg, arb_fair *f, unsigned *seen);
int cli_fair_finish(const char *cmd, arb_fair *f, unsigned seen, int players);
int cmd_info(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_unpack(int argc, char **argv);
int cmd_select(int argc, char **argv);
/* `arbiter info ARCHIVE`: the member list (cmd_extract.c). */
int cli_archive_info(const char *path, int json);
int cmd_reseal(int argc, char **argv);
int cmd_verbs(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_slurm_script(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_state(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_engine_serve(int argc, char **argv);
int cmd_crosscheck(int argc, char **argv);
int cmd_perft(int argc, char **argv);

/* --engine CMD (adapter.h): open the adapter, print the error and return
 * its exit code on failure. cli_engine_check prints a sticky adapter
 * failure and returns EXIT_INTERNAL (0 when healthy). */
struct arb_adapter;
int cli_engine_open(const char *cmd, const char *command, const char *game, int timeout_ms,
                    struct arb_adapter **out);
int cli_engine_check(const char *cmd, const struct arb_adapter *a);

/* Analyzer helpers (cli_analyze.c). cli_an_open prints the error and returns
 * its exit code; cli_an_seat parses "0".."3", "P1".."P4" or "all" (-3 when
 * invalid). */
int cli_an_open(const char *cmd, const char *path, arb_an_source **out);
int cli_an_seat(const char *s, int players);
/* One match: a file, or member `member` of the open archive a (path is
 * then "FILE#N", used in messages): opened for analysis, or verified. */
struct arb_archive;
int cli_open_match(const char *path, struct arb_archive *a, uint64_t member, arb_an_source **out, arb_error *err);
int cli_verify_match(const char *path, struct arb_archive *a, uint64_t member, const arb_verify_opts *vo,
                     arb_verify_result *res, arb_error *err);
/* After a walk: a replay shown up to the record where it diverges (noted on
 * stderr) returns diverged_exit (EXIT_VERIFY, or EXIT_OK where the output
 * itself carries the verdict); a truncated one EXIT_INPUT (noted); else 0:
 * the analyzer commands print what was read, then exit so. */
int cli_an_end(const char *cmd, const arb_an_walk_result *res, int diverged_exit);

#endif
