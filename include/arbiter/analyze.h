/* arbiter/analyze.h — the analyzer: narration, state at any record, player
 * views, differences between two replays, statistics and HTML reports.
 *
 * Everything here works for every registered game through the game contract
 * only. The input is an abstract *source*: a header (game, seed, players,
 * decks, options, optional start position) followed by a sequence of
 * records (actions, checkpoints, outcome). A source is opened from a .tcgr
 * file (arb_an_open_file) or built from memory (arb_an_open_mem, used by
 * tests and by callers that hold records already). The analyzer replays the
 * records through an arb_match, so every command costs at most one replay
 * from the start, and memory does not grow with the number of records
 * except where a command must keep them (the HTML report's timeline). */
#ifndef ARBITER_ANALYZE_H
#define ARBITER_ANALYZE_H

#include <stdint.h>
#include <stdio.h>

#include "arbiter/game.h"
#include "arbiter/match.h"
#include "arbiter/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Record kinds, the same tags as the replay format. */
enum { ARB_AN_ACTION = 0, ARB_AN_CHECKPOINT = 1, ARB_AN_OUTCOME = 2 };

typedef struct arb_an_header {
    const arb_game *game;           /* the registered engine */
    char rules[32], engine[64], started[40];
    uint64_t seed;
    int players;
    char names[ARB_MAX_SEATS][64];
    arb_deck decks[ARB_MAX_SEATS];  /* resolved to pool indexes */
    arb_options options;
    const arb_tnode *position;      /* NULL: seeded setup */
    const arb_tnode *tree;          /* the whole header as read, or NULL */
    int has_envelope;               /* a file: version and flags below are read */
    uint8_t version, flags;         /* envelope bytes 4 and 5 */
    uint64_t header_bytes;          /* bytes of the encoded header, 0 unknown */
} arb_an_header;

typedef struct arb_an_record {
    int kind;                       /* ARB_AN_*, or an unknown tag */
    uint64_t index;                 /* 0-based, header excluded */
    uint64_t offset;                /* decompressed byte offset */
    arb_action action;              /* ACTION */
    uint32_t turn;                  /* CHECKPOINT: turn; OUTCOME: turns */
    uint64_t hash;                  /* CHECKPOINT, OUTCOME */
    uint8_t hash_bits;              /* 64, or 8 for a v2 mid-match checkpoint */
    int winner;                     /* OUTCOME: seat, -1 draw */
    char reason[64];                /* OUTCOME */
} arb_an_record;

/* A source may be analysed more than once: every analysis (walk, log,
 * state, stats, report, diff) starts at its first record (a file source
 * opens its file again for the records; the header stays as first read). */
typedef struct arb_an_source arb_an_source;

/* Open a .tcgr file. Errors name the file and the offset: ARB_EIO,
 * ARB_EFORMAT, ARB_ETRUNC (not even a header), ARB_ELIMIT,
 * ARB_EUNSUPPORTED (unknown game or rules version). */
int arb_an_open_file(arb_an_source **out, const char *path, arb_error *err);
/* The same, the source called name (in its header line, report title and
 * the errors of its analysis) rather than path. */
int arb_an_open_file_as(arb_an_source **out, const char *path, const char *name, arb_error *err);
/* Member i of an open archive (name: how errors and reports call it,
 * "DAY.tcgr#3"): as arb_an_open_file, without opening the archive again
 * (a day's archive is read in one pass). The archive must stay open until
 * the source is freed. */
struct arb_archive;
int arb_an_open_member(arb_an_source **out, struct arb_archive *a, uint64_t i, const char *name, arb_error *err);
/* A source over caller-owned memory (hdr and recs borrowed until free).
 * truncated != 0 makes the source end with ARB_ETRUNC after the records,
 * as a truncated file would. */
int arb_an_open_mem(arb_an_source **out, const char *name, const arb_an_header *hdr,
                    const arb_an_record *recs, size_t n, int truncated, arb_error *err);
void arb_an_source_free(arb_an_source *s); /* NULL ok */
const arb_an_header *arb_an_source_header(const arb_an_source *s);
const char *arb_an_source_name(const arb_an_source *s);
/* 1 rec filled, 0 clean end, ARB_ETRUNC (every record before was complete;
 * err names the offset), or another negative code. */
int arb_an_source_next(arb_an_source *s, arb_an_record *rec, arb_error *err);

/* ------------------------------------------------------------------ walk */

/* One step of a replay: the setup (rec == NULL) or one record. */
typedef struct arb_an_step {
    const arb_an_record *rec;       /* NULL for the setup step */
    const arb_match *m;             /* the match after the step */
    /* For an action: the decision it answered and the state it was made in. */
    uint32_t turn;                  /* turn when the record was reached */
    const char *phase;              /* phase when the record was reached */
    int decision_seat;              /* seat owing the decision then */
    uint16_t decision_kind;
    uint64_t clock_ms;              /* cumulative elapsed_ms, this action included */
    char action_text[192];          /* engine's action_text (full view), "" */
    int rejected;                   /* the engine rejected the action */
    arb_error reject;               /* its code, rule ID and sentence */
    const arb_event *events;        /* setup or apply events */
    unsigned nevents;
    /* Per event: the turn and phase in which it happens (an action can
     * cross into the next phase or turn: the events after a phase or turn
     * marker of the game carry the new ones). */
    const uint32_t *event_turn;
    const char *const *event_phase;
    int check;                      /* CHECKPOINT/OUTCOME: 1 match, 0 mismatch */
    uint64_t computed_hash;
    /* The verifier refuses this record (its arb_verify_kind, arbiter/
     * replay.h): it is the walk's last step. 0 otherwise. */
    int diverged;
} arb_an_step;

/* Return non-zero to stop the walk early (not an error). */
typedef int (*arb_an_step_fn)(void *ctx, const arb_an_step *st);

typedef struct arb_an_walk_result {
    uint64_t records, actions, rejected, mismatches;
    int stopped;                    /* fn asked to stop */
    int truncated;                  /* the source ended inside the stream */
    arb_error trunc;                /* where */
    int outcome_seen;               /* an outcome record was read */
    arb_an_record outcome;          /* the recorded outcome */
    uint64_t last_index;            /* index of the last record read */
    uint64_t clock_ms;
    /* The walk ends at the first record `verify` refuses (an action the
     * engine rejects, a checkpoint or outcome it does not reproduce, a
     * missing checkpoint, a record after the outcome): that record is the
     * last step, and nothing after it is read, so a file's work is bounded
     * by its legal prefix. diverged is its arb_verify_kind (0: none). */
    int diverged;
    arb_error divergence;           /* where (file, record, offset) and why */
} arb_an_walk_result;

/* Replay src through a new match, calling fn for the setup and for every
 * record up to the first divergence. On return *mout (when non-NULL) holds
 * the match as it was at the last step (the caller frees it). Truncation
 * and divergence are not errors: the result says so. Errors: setup rejected (ARB_EILLEGAL with the rule ID), the
 * reader's codes other than ARB_ETRUNC, ARB_ENOMEM. */
int arb_an_walk(arb_an_source *src, arb_an_step_fn fn, void *ctx, arb_match **mout,
                arb_an_walk_result *res, arb_error *err);

/* Clock time as m:ss.mmm (h:mm:ss.mmm past an hour). */
const char *arb_an_clock(uint64_t ms, char *buf, size_t size);
/* "P1".."P4", "arbiter", "-" for a seat number. */
const char *arb_an_seat_name(int seat, char *buf, size_t size);

/* ------------------------------------------------------------------- log */

typedef struct arb_an_log_opts {
    int view;                       /* ARB_VIEW_ALL or a seat */
    int64_t from, to;               /* record index range, inclusive; -1 open */
    int json;
} arb_an_log_opts;
#define ARB_AN_LOG_OPTS_INIT { ARB_VIEW_ALL, -1, -1, 0 }

/* Play-by-play of src on out. Returns ARB_OK (also on a truncated source,
 * noted in the output and in *res) or an error. */
int arb_an_log(arb_an_source *src, const arb_an_log_opts *o, FILE *out,
               arb_an_walk_result *res, arb_error *err);

/* ----------------------------------------------------------------- state */

/* The state after record `at` (-1: after setup; INT64_MAX: the last
 * complete record) seen by view, exported under a fresh tree: {file, game,
 * record, records, truncated, turn, phase, clock_ms, clock, rejected?,
 * decision:{seat,kind,clock_left_ms}, outcome:{over,winner,reason,turns},
 * view, hash (full view only), state:{the engine's export}}. Costs one
 * replay up to `at`. ARB_ENOTFOUND when the source has fewer records (err
 * says how many, and whether it was truncated); ARB_EINVAL for a seat
 * outside the match. */
int arb_an_state(arb_an_source *src, int64_t at, int view, arb_tree **out,
                 arb_error *err);

/* ------------------------------------------------------------------ diff */

typedef struct arb_an_diff {
    int differ;                     /* 0 identical */
    int64_t record;                 /* first differing record; -1 header */
    char what[32];                  /* "header", "action", "checkpoint", … */
    char detail[512];               /* one sentence */
    arb_tree *tree;                 /* JSON-ready report; the caller frees
                                       it even when the call fails */
    /* The two agree up to this record, which the verifier refuses on both
     * (as arb_an_walk_result.diverged): compared no further, neither
     * identical nor known to differ. -1: not so. */
    int64_t diverged;
    arb_error divergence;           /* where and why */
} arb_an_diff;

/* Compare two sources. Fills d; returns ARB_OK whether or not they
 * differ, or an error when a source cannot be read at all. The records are
 * compared up to the first one `verify` refuses on both sides. */
int arb_an_diff_run(arb_an_source *a, arb_an_source *b, arb_an_diff *d, arb_error *err);

/* ----------------------------------------------------------------- stats */

/* What one replay of a match shows, as stats counts it (an_stats.c's
 * definitions: first player, card play, timeouts): the walk's counts and
 * outcome, the turn reached, and the cards played per pool index of the
 * game (nplayed = its ncards; NULL for a game without a pool). A file that
 * cannot be replayed is an error; a truncated one is summarized up to the
 * cut (walk.truncated). arb_an_summary_free releases played. */
typedef struct arb_an_summary {
    arb_an_walk_result walk;
    uint32_t turns;
    int first;                      /* first player, -1 unknown */
    uint64_t timeouts, disconnects, card_actions, discards;
    uint32_t *played;
    unsigned nplayed;
    uint64_t by_verb[256];          /* card plays per verb */
} arb_an_summary;
int arb_an_summarize(arb_an_source *src, arb_an_summary *out, arb_error *err);
/* The same with flags: ARB_AN_SUM_NO_CARDS leaves the card plays out
 * (card_actions, discards, played and by_verb stay 0): no state tree is
 * exported per card action, for callers that need only the outcome and
 * the counts (select without --played). */
#define ARB_AN_SUM_NO_CARDS 1u
int arb_an_summarize_ex(arb_an_source *src, unsigned flags, arb_an_summary *out, arb_error *err);
void arb_an_summary_free(arb_an_summary *s);


typedef struct arb_an_stats arb_an_stats;

arb_an_stats *arb_an_stats_new(void);
void arb_an_stats_free(arb_an_stats *s); /* NULL ok */
/* Add one replay. A file that cannot be read is counted as an error and
 * its message returned in err (the statistics stay valid). */
int arb_an_stats_add(arb_an_stats *s, arb_an_source *src, arb_error *err);
/* The same with the caller's verdict on the file (arb_replay_verify):
 * verified 1 it verified, 0 it does not (why: what went wrong, listed),
 * -1 unknown (the walk's own checks only). A file that does not verify is
 * listed and counted in no figure. */
int arb_an_stats_add_checked(arb_an_stats *s, arb_an_source *src, int verified, const char *why,
                             arb_error *err);
/* arb_an_stats_add_checked in two halves, for callers that replay on
 * other threads: the summary (arb_an_summarize, any thread), then the
 * counting (the thread that owns s). */
int arb_an_stats_add_summary(arb_an_stats *s, const arb_an_source *src, const arb_an_summary *sm, int verified,
                             const char *why, arb_error *err);
/* Files counted as errors so far. */
uint64_t arb_an_stats_errors(const arb_an_stats *s);
/* Replays counted so far that were truncated (read up to the cut). */
uint64_t arb_an_stats_truncated(const arb_an_stats *s);
/* Count a file that could not even be opened. */
void arb_an_stats_add_error(arb_an_stats *s, const arb_error *err);
/* Count a file whose match was counted already (the same match identity,
 * arbiter/replay.h, as an earlier file): listed with why, counted in no
 * figure — a match is counted once. */
void arb_an_stats_add_duplicate(arb_an_stats *s, const char *name, const char *why);
/* One match known only from a verification result (a line of
 * `arbiter verify --json` or of `arbiter merge -o`): counted in matches,
 * outcomes, win rates and lengths; first player, cards and clock events are
 * not known and are reported as such. */
typedef struct arb_an_result {
    const char *game;           /* registered game id */
    int players;                /* seats (1..ARB_MAX_SEATS) */
    int verified;               /* the replay verified */
    int over;                   /* an outcome was recorded */
    int winner;                 /* seat, or -1 for a draw */
    const char *reason;         /* outcome reason name */
    uint32_t turns;
    uint64_t actions;
} arb_an_result;
int arb_an_stats_add_result(arb_an_stats *s, const arb_an_result *r, const char *where,
                            arb_error *err);

/* The aggregate per game, as text or as one JSON object (rates are JSON
 * numbers in 0..1, so this is printed directly rather than as a tree). */
void arb_an_stats_print(const arb_an_stats *s, FILE *out, int json);

/* ---------------------------------------------------------------- report */

/* Tracked quantities of a game: tree paths with '*' for the seat, e.g.
 * "players.*.core"; a second '*' sums over a list
 * ("players.*.machine.*.charge"); a leading '#' charts a list's length.
 * Returns the number of entries and sets *paths and *labels (the game's
 * chart_paths and chart_labels, game.h). Games without charts (or whose
 * paths are absent) chart every integer under players.N that changes
 * during the match. */
unsigned arb_an_tracked(const arb_game *g, const char *const **paths,
                        const char *const **labels);

/* What the viewer shows: whose file, and the verdict to open on. */
typedef struct arb_an_report_opts {
    int view;                   /* ARB_VIEW_ALL: the judge's file (every view,
                                   with a toggle); a seat: only what that seat
                                   could see is written */
    /* The verifier's verdict (arb_replay_verify). verdict_set == 0: the
     * report judges from its own replay (rejections, checkpoint and outcome
     * mismatches, truncation, a missing outcome). */
    int verdict_set;
    int verified;
    int64_t divergence;         /* record index of the first divergence, -1 */
    char detail[400];           /* one sentence on it */
    /* "Signed by …" line of the banner: the signer as the verifier names it
     * (sealed replays), NULL or "" when the file is not signed. */
    const char *signed_by;
    /* The file carries a seal that does not verify (or bytes that are not
     * one): the banner says the signature is invalid, and signed_by says
     * how. */
    int seal_broken;
    /* The verifier found a consistent prefix without an outcome
     * (arb_verify_result.unfinished): the banner reads CONSISTENT, NOT
     * FINISHED instead of DOES NOT VERIFY. */
    int unfinished;
} arb_an_report_opts;
#define ARB_AN_REPORT_OPTS_INIT { ARB_VIEW_ALL, 0, 0, -1, "", NULL, 0, 0 }

/* The page for a file no record of which could be read (the reader's
 * error why: corrupt, truncated before its header, unsupported): the same
 * self-contained document, leading with UNREADABLE (or UNSUPPORTED,
 * TRUNCATED) and the error with its file and offset. ARB_EIO when out fails. */
int arb_an_report_unreadable(FILE *out, const char *name, const arb_error *why);

/* The index page of a set of reports (`report DIR|ARCHIVE -o OUTDIR`):
 * begin, one row per match (page: its file name in the same directory,
 * linked; NULL when no page was written; label: the match's path; word:
 * the verdict its page opens on; detail: one sentence or ""), end
 * (ARB_EIO when out failed). Self-contained, as every page. */
void arb_an_report_index_begin(FILE *out, const char *title);
void arb_an_report_index_row(FILE *out, const char *page, const char *label, const char *word, const char *detail);
int arb_an_report_index_end(FILE *out);

/* Write the judge's viewer of src to out: one self-contained HTML file
 * (inline style and script, no network) opening on the verdict, with a
 * board drawn from the state tree at the selected record (states stored
 * as differences per record), a slider, keys and a turn list to step, a
 * timeline where every record has id="r<INDEX>", filters, and one SVG
 * chart per tracked quantity that changes, whose points link to their
 * records. With o->view a seat, the file holds only that seat's view. */
int arb_an_report_ex(arb_an_source *src, const arb_an_report_opts *o, FILE *out,
                     arb_an_walk_result *res, arb_error *err);
/* arb_an_report_ex with the default options (the judge's file). */
int arb_an_report(arb_an_source *src, FILE *out, arb_an_walk_result *res,
                  arb_error *err);

#ifdef __cplusplus
}
#endif
#endif
