/* arbiter/text.h — the two text helpers every reader and writer of arbiter
 * shares: one strict number parser (for command-line flags, environment
 * variables, deck files, manifests) and one escaper of control characters
 * for text printed from file data (player and deck names, reasons, keys,
 * messages), so a hostile file cannot move the cursor, hide text or forge
 * an output line on a terminal. */
#ifndef ARBITER_TEXT_H
#define ARBITER_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "s" unless n is 1, for counts in messages: "%u case%s", n, ARB_PLURAL(n). */
#define ARB_PLURAL(n) ((n) == 1 ? "" : "s")

/* Number syntax accepted by arb_parse_u64 / arb_parse_i64: ASCII decimal
 * digits only, at least one, no leading zero (so "010" is refused rather
 * than read as 8 or 10), no space, no '+'; a '-' only where a negative
 * value is allowed (arb_parse_i64). With ARB_NUM_HEX, "0x" followed by 1..16
 * hex digits is also accepted (only where a command documents it).
 * The value must lie in [lo, hi]. Returns 0, or an ARB_NUM_* reason. */
enum {
    ARB_NUM_OK = 0,
    ARB_NUM_SYNTAX = 1,   /* empty, not digits, space, sign, leading zero */
    ARB_NUM_RANGE = 2     /* out of [lo, hi] (or of 64 bits) */
};
#define ARB_NUM_HEX 1u
int arb_parse_u64(const char *s, size_t len, unsigned flags, uint64_t lo, uint64_t hi, uint64_t *out);
int arb_parse_i64(const char *s, size_t len, unsigned flags, int64_t lo, int64_t hi, int64_t *out);
/* The same on a NUL-terminated string. */
int arb_parse_u64s(const char *s, unsigned flags, uint64_t lo, uint64_t hi, uint64_t *out);

/* Control-character escaping for text output. Bytes 0x00–0x1f and 0x7f
 * become \n, \r, \t or \xNN; the UTF-8 encodings of C1 controls
 * (U+0080–U+009F, bytes C2 80..C2 9F) become \u0080..\u009f, and so do
 * the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069: \u202e), which could reorder the line; a backslash
 * stays as it is. Everything else (printable ASCII, other UTF-8) is copied.
 *
 * arb_text_put writes s escaped to out. arb_text_escape writes it escaped
 * into buf (always NUL-terminated when size > 0, cut on a character
 * boundary) and returns buf. arb_text_needs_escape tells whether s has any
 * byte the escaper would change. */
void arb_text_put(FILE *out, const char *s);
char *arb_text_escape(char *buf, size_t size, const char *s);
int arb_text_needs_escape(const char *s);
/* The one test behind every escaper (text, JSON, HTML): the control at p —
 * a C0 control or DEL (1 byte), a C1 control (2 bytes), a bidirectional
 * control above (2 or 3 bytes) — as its code point, with *len its bytes;
 * -1 (and *len 1) when p starts with anything else. p must be
 * NUL-terminated (or hold 3 readable bytes). arb_text_control_cp tells the
 * same of a code point. */
long arb_text_control_at(const char *p, size_t *len);
int arb_text_control_cp(unsigned long cp);

/* snprintf(dst, size, "%s", src) without the printf machinery (hot
 * paths copy names and card IDs per file): at most size - 1 bytes of src,
 * then a NUL when size > 0. Returns strlen(src) (>= size: cut). */
size_t arb_text_copy(char *dst, size_t size, const char *src);
/* Append vprintf(fmt, ap) to buf[0..*len) of size bytes: the text stays
 * NUL-terminated and *len at most size - 1 (what does not fit is cut,
 * and later appends add nothing). For reports built a line at a time. */
void arb_text_vappendf(char *buf, size_t size, size_t *len, const char *fmt, va_list ap);

/* Did-you-mean (core/near.c): the candidates nearest to a word that is
 * not one, by edit distance (insertions, deletions, substitutions; case
 * folded). Bounded: words and candidates longer than ARB_NEAR_LEN never
 * match, so each comparison costs at most ARB_NEAR_LEN^2 steps. A
 * candidate is near when it is within max(1, len/3) edits (at most 3) or
 * starts with the word (2 characters or more); the ARB_NEAR_KEEP nearest
 * are kept, the first added winning ties.
 *   arb_near nr; arb_near_init(&nr, word);
 *   for (…) arb_near_add(&nr, candidate);
 *   arb_near_format(&nr, buf, sizeof buf);   // "; did you mean 'x'?" or ""
 * Candidates are borrowed until the format call. */
#define ARB_NEAR_LEN 64
#define ARB_NEAR_KEEP 3
typedef struct arb_near {
    const char *word;
    const char *best[ARB_NEAR_KEEP];
    unsigned dist[ARB_NEAR_KEEP];
    unsigned n;
} arb_near;
void arb_near_init(arb_near *nr, const char *word);
void arb_near_add(arb_near *nr, const char *candidate);
/* Edit distance of a and b, case folded; ARB_NEAR_LEN + 1 when either is
 * longer than ARB_NEAR_LEN. */
unsigned arb_near_distance(const char *a, const char *b);
/* "; did you mean 'a'?" / "; did you mean 'a' or 'b'?" (quoted candidates
 * escaped), "" when none is near. Returns buf. */
char *arb_near_format(const arb_near *nr, char *buf, size_t size);

/* UTF-8 validation (labels, an engine's response strings): s[0..n) must be
 * well-formed UTF-8 — shortest forms only, no surrogates, nothing above
 * U+10FFFF. With ARB_UTF8_NO_CONTROLS it must also be free of C0 controls
 * (NUL included), DEL, C1 controls (U+0080–U+009F) and the bidirectional
 * formatting characters that reorder what a terminal shows (U+061C,
 * U+200E, U+200F, U+202A–U+202E, U+2066–U+2069). Returns n when s passes,
 * else the offset of the first offending byte. */
#define ARB_UTF8_NO_CONTROLS 1u
size_t arb_utf8_check(const char *s, size_t n, unsigned flags);

/* Write the bytes p[0..n) (NULs included) to out so that a terminal shows
 * them as text: what arb_utf8_check(…, ARB_UTF8_NO_CONTROLS) refuses is
 * escaped — \n, \r, \t, other C0 and DEL as \xNN, C1 and bidi characters
 * as \uXXXX, bytes that are not UTF-8 as \xNN. Returns how many bytes of p
 * it consumed: all, except, when partial is set, an incomplete UTF-8
 * sequence at the very end (pass it again with the bytes that follow). For
 * streams of foreign bytes, e.g. an engine adapter's stderr. */
size_t arb_text_put_bytes(FILE *out, const char *p, size_t n, int partial);

/* The one bounded line reader (record's stdin, manifests, NDJSON results):
 * reads one line from f into buf, which has room for max + 2 bytes, and
 * never allocates. The line ending ("\n", or "\r\n") is not part of the
 * line and does not count against max, so a line of exactly max bytes is
 * read whatever its ending. Returns:
 *   ARB_LINE_OK    buf holds the line (NUL-terminated), *len its length
 *                  (the last line of a file may lack its "\n");
 *   ARB_LINE_EOF   no byte was left;
 *   ARB_LINE_LONG  the line is longer than max: it was read to its end and
 *                  dropped whole (*len: its length), the next call reads
 *                  the next line;
 *   ARB_LINE_NUL   the line holds a NUL byte: dropped whole likewise (a NUL
 *                  is bad input, never a line break);
 *   ARB_LINE_ERROR a read error (ferror(f)).
 * *lineno, when not NULL, is incremented for every line (not at EOF). */
enum { ARB_LINE_OK = 0, ARB_LINE_EOF, ARB_LINE_LONG, ARB_LINE_NUL, ARB_LINE_ERROR };
int arb_line_read(FILE *f, char *buf, size_t max, size_t *len, uint64_t *lineno);

#ifdef __cplusplus
}
#endif
#endif
