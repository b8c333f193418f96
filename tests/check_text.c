/* check_text.c — the shared text machinery of #20 (hostile input, round 2):
 * the strict number parser, the control-character escaper, the bounded
 * line reader, and the JSON reader's duplicate-key check (found, reported
 * at the right offset, and near-linear: 200,000 keys in well under a
 * second where the old pairwise check took minutes), and the bounded
 * appender that reports are built with. */
#include <stdarg.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/arbiter.h"

static void appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arb_text_vappendf(buf, size, len, fmt, ap);
    va_end(ap);
}

/* Appends build a text up to the buffer and cut it there, never past. */
START_TEST(appendf_stays_in_bounds)
{
    char buf[8];
    size_t len = 0;
    appendf(buf, sizeof buf, &len, "%d-", 12);
    ck_assert_uint_eq(len, 3);
    ck_assert_str_eq(buf, "12-");
    appendf(buf, sizeof buf, &len, "%s", "abcdef");
    ck_assert_uint_eq(len, 7);
    ck_assert_str_eq(buf, "12-abcd");
    appendf(buf, sizeof buf, &len, "%s", "more");
    ck_assert_uint_eq(len, 7);
    ck_assert_str_eq(buf, "12-abcd");
    size_t zero = 0;
    appendf(buf, 0, &zero, "%s", "x"); /* no room at all: nothing written */
    ck_assert_uint_eq(zero, 0);
    ck_assert_str_eq(buf, "12-abcd");
}
END_TEST

START_TEST(numbers_are_strict_decimal)
{
    uint64_t v = 7;
    ck_assert_int_eq(arb_parse_u64s("0", 0, 0, UINT64_MAX, &v), 0);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(arb_parse_u64s("18446744073709551615", 0, 0, UINT64_MAX, &v), 0);
    ck_assert_uint_eq(v, UINT64_MAX);
    ck_assert_int_eq(arb_parse_u64s("18446744073709551616", 0, 0, UINT64_MAX, &v), ARB_NUM_RANGE);
    ck_assert_int_eq(arb_parse_u64s("99999999999999999999999", 0, 0, UINT64_MAX, &v), ARB_NUM_RANGE);
    /* --seed 010 was 8 (octal), 0x10 was 16, " -1" was 2^64-1 */
    static const char *const bad[] = { "", "010", "0x10", " -1", "-1", "+1", " 1", "1 ", "1x", "0b1", "1e3", "١" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(arb_parse_u64s(bad[i], 0, 0, UINT64_MAX, &v) == ARB_NUM_SYNTAX, "accepted '%s'", bad[i]);
    ck_assert_int_eq(arb_parse_u64s("41", 0, 1, 40, &v), ARB_NUM_RANGE);
    ck_assert_int_eq(arb_parse_u64s("0x10", ARB_NUM_HEX, 0, UINT64_MAX, &v), 0);
    ck_assert_uint_eq(v, 16);
    ck_assert_int_eq(arb_parse_u64s("0x", ARB_NUM_HEX, 0, UINT64_MAX, &v), ARB_NUM_SYNTAX);
    ck_assert_int_eq(arb_parse_u64s("0x10000000000000000", ARB_NUM_HEX, 0, UINT64_MAX, &v), ARB_NUM_RANGE);
    int64_t s;
    ck_assert_int_eq(arb_parse_i64("-9223372036854775808", 20, 0, INT64_MIN, INT64_MAX, &s), 0);
    ck_assert(s == INT64_MIN);
    ck_assert_int_eq(arb_parse_i64("9223372036854775808", 19, 0, INT64_MIN, INT64_MAX, &s), ARB_NUM_RANGE);
    ck_assert_int_eq(arb_parse_i64("-0", 2, 0, INT64_MIN, INT64_MAX, &s), ARB_NUM_SYNTAX);
    ck_assert_int_eq(arb_parse_i64("--1", 3, 0, INT64_MIN, INT64_MAX, &s), ARB_NUM_SYNTAX);
    /* a length-delimited number stops where it is told */
    ck_assert_int_eq(arb_parse_u64("12 Card", 2, 0, 1, 40, &v), 0);
    ck_assert_uint_eq(v, 12);
}
END_TEST

START_TEST(escaper_neutralises_controls)
{
    char buf[256];
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "Eve\nwinner: P2\x1b[8m"), "Eve\\nwinner: P2\\x1b[8m");
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "tab\there\r\x7f"), "tab\\there\\r\\x7f");
    /* C1 CSI (U+009B) in UTF-8 */
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "a\xc2\x9b" "b"), "a\\u009bb");
    /* ordinary UTF-8 and backslashes are kept */
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "caf\xc3\xa9 \\ ok"), "caf\xc3\xa9 \\ ok");
    /* bidi controls: a right-to-left override would reverse a verdict line */
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "\xe2\x80\xae" "Alice wins"), "\\u202eAlice wins");
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "a\xe2\x81\xa6" "b\xe2\x81\xa9" "c\xe2\x80\x8f" "d\xd8\x9c"),
                     "a\\u2066b\\u2069c\\u200fd\\u061c");
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "\xe2\x80\xaa\xe2\x80\xac"), "\\u202a\\u202c");
    /* neighbours that are not controls are copied: U+2028 is not bidi,
     * U+2010 (hyphen), U+20AC (euro) */
    ck_assert_str_eq(arb_text_escape(buf, sizeof buf, "\xe2\x80\x90\xe2\x82\xac"), "\xe2\x80\x90\xe2\x82\xac");
    ck_assert(arb_text_needs_escape("x\xe2\x80\xae"));
    ck_assert(!arb_text_needs_escape("plain é"));
    ck_assert(arb_text_needs_escape("a\x1b"));
    /* cut on a character boundary, never inside an escape or a UTF-8 sequence */
    ck_assert_str_eq(arb_text_escape(buf, 5, "ab\x1b"), "ab");
    ck_assert_str_eq(arb_text_escape(buf, 4, "a\xc3\xa9\xc3\xa9"), "a\xc3\xa9");
    char *mem;
    size_t len;
    FILE *f = open_memstream(&mem, &len);
    arb_text_put(f, "x\x1b]0;title\x07y");
    fclose(f);
    ck_assert_str_eq(mem, "x\\x1b]0;title\\x07y");
    free(mem);
}
END_TEST

static FILE *feed(const char *data, size_t n)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    rewind(f);
    return f;
}

START_TEST(line_reader_bounds_and_resyncs)
{
    enum { MAX = 16 };
    char buf[MAX + 2];
    /* exactly MAX, MAX + CRLF, MAX + 1 (dropped whole), NUL (dropped whole,
     * the text after it is not a line), a last line without LF */
    const char in[] = "0123456789abcdef\n"
                      "0123456789abcdef\r\n"
                      "0123456789abcdefg\n"
                      "# c\0" "0 keep\n"
                      "next\r\n"
                      "tail";
    FILE *f = feed(in, sizeof in - 1);
    size_t len;
    uint64_t ln = 0;
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_OK);
    ck_assert_str_eq(buf, "0123456789abcdef");
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_OK);
    ck_assert_str_eq(buf, "0123456789abcdef");
    ck_assert_uint_eq(len, MAX);
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_LONG);
    ck_assert_uint_eq(len, MAX + 1);
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_NUL);
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_OK);
    ck_assert_str_eq(buf, "next");
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_OK);
    ck_assert_str_eq(buf, "tail");
    ck_assert_uint_eq(ln, 6);
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, &ln), ARB_LINE_EOF);
    ck_assert_uint_eq(ln, 6);
    fclose(f);
    /* a very long line costs no memory: it is counted and dropped */
    size_t big = 5u << 20;
    char *data = malloc(big + 3);
    memset(data, 'x', big);
    memcpy(data + big, "\nz", 3);
    f = feed(data, big + 2);
    free(data);
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, NULL), ARB_LINE_LONG);
    ck_assert_uint_eq(len, big);
    ck_assert_int_eq(arb_line_read(f, buf, MAX, &len, NULL), ARB_LINE_OK);
    ck_assert_str_eq(buf, "z");
    fclose(f);
}
END_TEST

static int parse(const char *text, size_t n, arb_error *e)
{
    arb_tree *t = arb_tree_new();
    ck_assert_ptr_nonnull(t);
    arb_error_clear(e);
    int rc = arb_tree_parse_json(t, arb_tree_root(t), "v", text, n, e);
    arb_tree_free(t);
    return rc;
}

/* arb_utf8_check: well-formed UTF-8 only, and with ARB_UTF8_NO_CONTROLS no
 * C0/C1 control or bidi formatting character (key labels, #27 N10). */
START_TEST(utf8_check_forms_and_controls)
{
    static const struct { const char *s; size_t bad_plain, bad_strict; } cases[] = {
        { "tournament-server-1", 19, 19 },
        { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1", 14, 14 },   /* é € 🂡 */
        { "a\x1b[2J", 5, 1 },                   /* ESC */
        { "a\x7f", 2, 1 },                      /* DEL */
        { "ab\xc2\x9b", 4, 2 },                 /* U+009B CSI */
        { "x\xe2\x80\xae" "evil", 8, 1 },          /* U+202E RLO */
        { "x\xe2\x81\xa6", 4, 1 },              /* U+2066 LRI */
        { "x\xd8\x9c", 3, 1 },                  /* U+061C ALM */
        { "x\xe2\x80\x8e", 4, 1 },              /* U+200E LRM */
        { "x\xe2\x80\x8b", 4, 4 },              /* U+200B: not a bidi control */
        { "\xff", 0, 0 },                        /* never UTF-8 */
        { "ab\x80", 2, 2 },                      /* lone continuation */
        { "\xc0\xaf", 0, 0 },                    /* overlong '/' */
        { "\xe0\x80\xaf", 0, 0 },                /* overlong, 3 bytes */
        { "\xed\xa0\x80", 0, 0 },                /* a surrogate */
        { "\xf4\x90\x80\x80", 0, 0 },            /* above U+10FFFF */
        { "ok\xe2\x82", 2, 2 },                  /* cut short */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = strlen(cases[i].s);
        ck_assert_msg(arb_utf8_check(cases[i].s, n, 0) == cases[i].bad_plain, "case %zu plain", i);
        ck_assert_msg(arb_utf8_check(cases[i].s, n, ARB_UTF8_NO_CONTROLS) == cases[i].bad_strict, "case %zu strict", i);
    }
    ck_assert_uint_eq(arb_utf8_check("a\0b", 3, 0), 3);
    ck_assert_uint_eq(arb_utf8_check("a\0b", 3, ARB_UTF8_NO_CONTROLS), 1);
}
END_TEST

/* arb_text_put_bytes: foreign bytes (an engine's stderr) print as text. */
START_TEST(put_bytes_escapes_streams)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    static const char in[] = "ok \x1b[2J\0 caf\xc3\xa9 \xc2\x9b \xe2\x80\xae \xff\t\n";
    ck_assert_uint_eq(arb_text_put_bytes(f, in, sizeof in - 1, 0), sizeof in - 1);
    /* a character cut at the end is held back when more follows */
    ck_assert_uint_eq(arb_text_put_bytes(f, "x\xe2\x82", 3, 1), 1);
    ck_assert_uint_eq(arb_text_put_bytes(f, "\xe2\x82\xac|\xc2", 5, 1), 4);
    ck_assert_uint_eq(arb_text_put_bytes(f, "\xc2", 1, 0), 1);
    fclose(f);
    ck_assert_str_eq(buf, "ok \\x1b[2J\\x00 caf\xc3\xa9 \\u009b \\u202e \\xff\\t\\nx\xe2\x82\xac|\\xc2");
    free(buf);
}
END_TEST

START_TEST(json_duplicates_found_fast)
{
    arb_error e = ARB_ERROR_INIT;
    const char *ok = "{\"a\":1,\"b\":{\"a\":2},\"c\":[{\"a\":1,\"b\":2}]}";
    ck_assert_int_eq(parse(ok, strlen(ok), &e), ARB_OK);
    const char *d1 = "{\"b\":1,\"a\":2,\"c\":{\"x\":1,\"x\":2},\"a\":3}";
    ck_assert_int_eq(parse(d1, strlen(d1), &e), ARB_EFORMAT);
    ck_assert_str_eq(e.where, "offset 24"); /* the inner object closes first */
    ck_assert_ptr_nonnull(strstr(e.msg, "duplicate key \"x\""));
    const char *d2 = "{\"z\":1,\"a\":2,\"z\":3,\"a\":4}";
    ck_assert_int_eq(parse(d2, strlen(d2), &e), ARB_EFORMAT);
    ck_assert_str_eq(e.where, "offset 13"); /* the first repeat in document order */
    const char *d3 = "{\"\\u001b[8m\":1,\"\\u001b[8m\":2}";
    ck_assert_int_eq(parse(d3, strlen(d3), &e), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(e.msg, "\\x1b[8m")); /* the key is shown escaped */

    /* 200,000 distinct keys (3.4 MB), then the same with one duplicate at the end */
    enum { K = 200000 };
    size_t cap = (size_t)K * 20 + 16, n = 0;
    char *big = malloc(cap);
    big[n++] = '{';
    for (int i = 0; i < K; i++) n += (size_t)snprintf(big + n, cap - n, "%s\"k%d\":%d", i ? "," : "", i, i);
    big[n++] = '}';
    clock_t t0 = clock();
    ck_assert_int_eq(parse(big, n, &e), ARB_OK);
    n--;
    n += (size_t)snprintf(big + n, cap - n, ",\"k77\":0}");
    ck_assert_int_eq(parse(big, n, &e), ARB_EFORMAT);
    ck_assert_ptr_nonnull(strstr(e.msg, "duplicate key \"k77\""));
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_msg(secs < 5.0, "two parses of 200,000 keys took %.2f s", secs);
    free(big);
}
END_TEST

/* Did-you-mean: near misses and prefixes are offered nearest first, the
 * word itself and far words are not, and long words cost nothing. */
START_TEST(near_suggests_bounded)
{
    char buf[256];
    arb_near nr;
    arb_near_init(&nr, "jsn");
    const char *opts[] = { "json", "jobs", "quiet", "json-file", "game" };
    for (unsigned i = 0; i < 5; i++) arb_near_add(&nr, opts[i]);
    ck_assert_str_eq(arb_near_format(&nr, buf, sizeof buf), "; did you mean 'json'?");
    arb_near_init(&nr, "NAR-LIMIT-ROSTR");
    arb_near_add(&nr, "NAR-LIMIT-HAND");
    arb_near_add(&nr, "NAR-LIMIT-ROSTER");
    ck_assert_str_eq(arb_near_format(&nr, buf, sizeof buf), "; did you mean 'NAR-LIMIT-ROSTER'?");
    arb_near_init(&nr, "ver");
    arb_near_add(&nr, "verify");
    arb_near_add(&nr, "verbs");
    arb_near_add(&nr, "play");
    ck_assert_str_eq(arb_near_format(&nr, buf, sizeof buf), "; did you mean 'verify' or 'verbs'?");
    arb_near_init(&nr, "check");
    arb_near_add(&nr, "CHECK"); /* the word itself, other case */
    arb_near_add(&nr, "zzzzzz");
    ck_assert_str_eq(arb_near_format(&nr, buf, sizeof buf), "");
    char longw[4096];
    memset(longw, 'a', sizeof longw - 1);
    longw[sizeof longw - 1] = '\0';
    ck_assert_uint_eq(arb_near_distance(longw, "a"), ARB_NEAR_LEN + 1);
    arb_near_init(&nr, longw);
    arb_near_add(&nr, longw + 4000);
    ck_assert_uint_eq(nr.n, 0);
    ck_assert_uint_eq(arb_near_distance("Kitten", "sitting"), 3);
}
END_TEST

int main(void)
{
Suite *s = suite_create("text");
    TCase *t = tcase_create("text");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, appendf_stays_in_bounds);
    tcase_add_test(t, numbers_are_strict_decimal);
    tcase_add_test(t, escaper_neutralises_controls);
    tcase_add_test(t, line_reader_bounds_and_resyncs);
    tcase_add_test(t, json_duplicates_found_fast);
    tcase_add_test(t, utf8_check_forms_and_controls);
    tcase_add_test(t, put_bytes_escapes_streams);
    tcase_add_test(t, near_suggests_bounded);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
