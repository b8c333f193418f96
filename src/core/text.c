/* text.c — the strict number parser and the control-character escaper
 * (see arbiter/text.h). Everything that reads a number or prints text from
 * a file goes through these, so the rules live in one place. */
#include <stdint.h>
#include <string.h>

#include "arbiter/text.h"

static int digits_u64(const char *s, size_t len, unsigned flags, uint64_t *out)
{
    if (len == 0) return ARB_NUM_SYNTAX;
    if ((flags & ARB_NUM_HEX) && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t v = 0;
        if (len - 2 > 16) {
            /* leading zeros are not allowed in hex either: more than 16 digits
             * is out of range when well-formed */
            for (size_t i = 2; i < len; i++) {
                char c = s[i];
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
                    return ARB_NUM_SYNTAX;
            }
            return ARB_NUM_RANGE;
        }
        for (size_t i = 2; i < len; i++) {
            char c = s[i];
            unsigned d;
            if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
            else return ARB_NUM_SYNTAX;
            v = v << 4 | d;
        }
        *out = v;
        return ARB_NUM_OK;
    }
    if (s[0] == '0' && len > 1) return ARB_NUM_SYNTAX;
    uint64_t v = 0;
    int over = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return ARB_NUM_SYNTAX;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) over = 1;
        else v = v * 10 + d;
    }
    if (over) return ARB_NUM_RANGE;
    *out = v;
    return ARB_NUM_OK;
}

int arb_parse_u64(const char *s, size_t len, unsigned flags, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v;
    if (!s) return ARB_NUM_SYNTAX;
    int rc = digits_u64(s, len, flags, &v);
    if (rc) return rc;
    if (v < lo || v > hi) return ARB_NUM_RANGE;
    *out = v;
    return ARB_NUM_OK;
}

int arb_parse_u64s(const char *s, unsigned flags, uint64_t lo, uint64_t hi, uint64_t *out)
{
    return arb_parse_u64(s, s ? strlen(s) : 0, flags, lo, hi, out);
}

int arb_parse_i64(const char *s, size_t len, unsigned flags, int64_t lo, int64_t hi, int64_t *out)
{
    if (!s || len == 0) return ARB_NUM_SYNTAX;
    int neg = s[0] == '-';
    uint64_t v;
    int rc = digits_u64(s + neg, len - (size_t)neg, neg ? 0 : flags, &v);
    if (rc) return rc;
    if (neg && v == 0) return ARB_NUM_SYNTAX; /* "-0" */
    int64_t iv;
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1) return ARB_NUM_RANGE;
        iv = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX) return ARB_NUM_RANGE;
        iv = (int64_t)v;
    }
    if (iv < lo || iv > hi) return ARB_NUM_RANGE;
    *out = iv;
    return ARB_NUM_OK;
}

long arb_text_control_at(const char *s, size_t *len)
{
    const unsigned char *p = (const unsigned char *)s;
    *len = 1;
    if (p[0] < 0x20 || p[0] == 0x7f) return p[0];
    if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
        *len = 2;
        return p[1];
    }
    if (p[0] == 0xd8 && p[1] == 0x9c) {
        *len = 2;
        return 0x61c;
    }
    /* U+200E/F, U+202A–202E, U+2066–2069: a name that starts with U+202E
     * would otherwise reverse the rest of the line it is printed in */
    if (p[0] == 0xe2 && ((p[1] == 0x80 && ((p[2] >= 0x8e && p[2] <= 0x8f) || (p[2] >= 0xaa && p[2] <= 0xae))) ||
                         (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9))) {
        *len = 3;
        return 0x2000 | (p[1] & 0x3f) << 6 | (p[2] & 0x3f);
    }
    return -1;
}

int arb_text_control_cp(unsigned long cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
           (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of the escape for the character at p (0: copy one byte as is). */
static size_t escape_one(const unsigned char *p, char esc[8], size_t *consumed)
{
    static const char hex[] = "0123456789abcdef";
    *consumed = 1;
    unsigned c = p[0];
    if (c == '\n') { memcpy(esc, "\\n", 3); return 2; }
    if (c == '\r') { memcpy(esc, "\\r", 3); return 2; }
    if (c == '\t') { memcpy(esc, "\\t", 3); return 2; }
    long cp = arb_text_control_at((const char *)p, consumed);
    if (cp < 0) {
        *consumed = 1;
        return 0;
    }
    if (cp < 0x80) { /* C0 and DEL: \xHH */
        esc[0] = '\\'; esc[1] = 'x'; esc[2] = hex[cp >> 4]; esc[3] = hex[cp & 15]; esc[4] = '\0';
        return 4;
    }
    /* C1 and the bidirectional controls: \uHHHH ("P2 wins" after U+202E
     * would show as "sniw 2P") */
    esc[0] = '\\'; esc[1] = 'u';
    esc[2] = hex[cp >> 12 & 15]; esc[3] = hex[cp >> 8 & 15]; esc[4] = hex[cp >> 4 & 15]; esc[5] = hex[cp & 15];
    esc[6] = '\0';
    return 6;
}

int arb_text_needs_escape(const char *s)
{
    char esc[8];
    size_t used;
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
        if (escape_one(p, esc, &used)) return 1;
    return 0;
}

void arb_text_put(FILE *out, const char *s)
{
    if (!s) return;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        const unsigned char *q = p;
        char esc[8];
        size_t used = 0, n = 0;
        while (*q && (n = escape_one(q, esc, &used)) == 0) q++;
        if (q > p) fwrite(p, 1, (size_t)(q - p), out);
        if (!*q) break;
        fwrite(esc, 1, n, out);
        p = q + used;
    }
}

char *arb_text_escape(char *buf, size_t size, const char *s)
{
    if (size == 0) return buf;
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        char esc[8];
        size_t used, n = escape_one(p, esc, &used);
        if (n) {
            if (o + n >= size) break;
            memcpy(buf + o, esc, n);
            o += n;
            p += used;
        } else {
            /* copy one UTF-8 character whole (lead byte plus continuations) */
            size_t k = 1;
            while (p[k] && (p[k] & 0xc0) == 0x80 && k < 4 && (p[0] & 0x80)) k++;
            if (o + k >= size) break;
            memcpy(buf + o, p, k);
            o += k;
            p += k;
        }
    }
    buf[o] = '\0';
    return buf;
}

size_t arb_utf8_check(const char *s, size_t n, unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        if (!(flags & ARB_UTF8_NO_CONTROLS)) { /* ASCII runs 8 bytes at a time */
            while (n - i >= 8) {
                uint64_t w;
                memcpy(&w, p + i, 8);
                if (w & 0x8080808080808080ull) break;
                i += 8;
            }
            if (i >= n) break;
        }
        unsigned c = p[i], len, cp;
        if (c < 0x80) {
            if ((flags & ARB_UTF8_NO_CONTROLS) && (c < 0x20 || c == 0x7f)) return i;
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
        else return i; /* a continuation byte, an overlong lead (C0, C1) or above F4 */
        if (n - i < len) return i;
        for (unsigned k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80) return i;
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        if ((flags & ARB_UTF8_NO_CONTROLS) && arb_text_control_cp(cp)) return i;
        i += len;
    }
    return n;
}

size_t arb_text_put_bytes(FILE *out, const char *s, size_t n, int partial)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = arb_utf8_check(s + i, n - i, ARB_UTF8_NO_CONTROLS);
        if (k) fwrite(p + i, 1, k, out);
        i += k;
        if (i >= n) break;
        unsigned c = p[i];
        size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        if (len > 1 && n - i < len && partial && arb_utf8_check(s + i, n - i, 0) == 0 &&
            (n - i == 1 || (p[i + 1] & 0xc0) == 0x80) && (n - i < 3 || (p[i + 2] & 0xc0) == 0x80))
            return i; /* the start of a character whose rest comes later */
        if (len > 1 && n - i >= len && arb_utf8_check(s + i, len, 0) == len) {
            /* a whole character, but a C1 control or a bidi formatting one */
            unsigned cp = len == 2 ? (c & 0x1fu) << 6 | (p[i + 1] & 0x3fu)
                                   : (c & 0x0fu) << 12 | (p[i + 1] & 0x3fu) << 6 | (p[i + 2] & 0x3fu);
            fprintf(out, "\\u%04x", cp);
            i += len;
            continue;
        }
        if (c == '\n') fputs("\\n", out);
        else if (c == '\r') fputs("\\r", out);
        else if (c == '\t') fputs("\\t", out);
        else fprintf(out, "\\x%c%c", hex[c >> 4], hex[c & 15]);
        i++;
    }
    return n;
}

int arb_line_read(FILE *f, char *buf, size_t max, size_t *len, uint64_t *lineno)
{
    size_t n = 0, total = 0;
    int c, nul = 0, any = 0, last = 0;
    while ((c = getc(f)) != EOF) {
        any = 1;
        if (c == '\n') break;
        if (c == '\0') nul = 1;
        last = c;
        if (n < max + 1) buf[n++] = (char)c; /* room for max bytes and a '\r' */
        total++;
    }
    if (c == EOF && ferror(f)) return ARB_LINE_ERROR;
    if (!any) return ARB_LINE_EOF;
    if (lineno) (*lineno)++;
    if (total > 0 && last == '\r') { /* CRLF: the '\r' is part of the ending */
        total--;
        if (n > total) n = total;
    }
    *len = total;
    if (total > max) { buf[0] = '\0'; return ARB_LINE_LONG; }
    buf[n] = '\0';
    if (nul) { buf[0] = '\0'; return ARB_LINE_NUL; }
    return ARB_LINE_OK;
}

void arb_text_vappendf(char *buf, size_t size, size_t *len, const char *fmt, va_list ap)
{
    if (!size || *len >= size - 1) return;
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    if (n > 0) *len += (size_t)n;
    if (*len > size - 1) *len = size - 1;
}

size_t arb_text_copy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (size) {
        size_t k = n < size ? n : size - 1;
        memcpy(dst, src, k);
        dst[k] = '\0';
    }
    return n;
}
