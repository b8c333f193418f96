/* near.c — did-you-mean: the few candidates nearest to a word that is not
 * one (an option, command, rule ID, card, verb or preset), by bounded edit
 * distance (see arbiter/text.h). One helper for every "unknown X" message. */
#include <stdio.h>
#include <string.h>

#include "arbiter/text.h"

static unsigned char fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c; }

unsigned arb_near_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > ARB_NEAR_LEN || lb > ARB_NEAR_LEN) return ARB_NEAR_LEN + 1;
    unsigned row[ARB_NEAR_LEN + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (fold((unsigned char)a[i - 1]) != fold((unsigned char)b[j - 1]));
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

void arb_near_init(arb_near *nr, const char *word)
{
    memset(nr, 0, sizeof *nr);
    nr->word = word ? word : "";
}

void arb_near_add(arb_near *nr, const char *cand)
{
    if (!cand || !*cand || !nr->word[0]) return;
    size_t len = strlen(nr->word);
    if (len > ARB_NEAR_LEN) return;
    for (unsigned k = 0; k < nr->n; k++)
        if (strcmp(nr->best[k], cand) == 0) return;
    unsigned limit = (unsigned)(len / 3);
    if (limit < 1) limit = 1;
    if (limit > 3) limit = 3;
    unsigned d = arb_near_distance(nr->word, cand);
    if (d == 0) return; /* the word itself (other case) is no suggestion */
    if (d > limit) {
        if (len < 2 || strncmp(cand, nr->word, len) != 0) return;
        d = limit + 1; /* a prefix ranks after every near miss */
    }
    unsigned at = nr->n;
    while (at > 0 && nr->dist[at - 1] > d) at--;
    if (at >= ARB_NEAR_KEEP) return;
    unsigned last = nr->n < ARB_NEAR_KEEP ? nr->n : ARB_NEAR_KEEP - 1;
    for (unsigned k = last; k > at; k--) {
        nr->best[k] = nr->best[k - 1];
        nr->dist[k] = nr->dist[k - 1];
    }
    nr->best[at] = cand;
    nr->dist[at] = d;
    if (nr->n < ARB_NEAR_KEEP) nr->n++;
}

char *arb_near_format(const arb_near *nr, char *buf, size_t size)
{
    if (!size) return buf;
    buf[0] = '\0';
    size_t n = 0;
    for (unsigned k = 0; k < nr->n && n < size; k++) {
        char esc[ARB_NEAR_LEN * 4 + 8];
        arb_text_escape(esc, sizeof esc, nr->best[k]);
        n += (size_t)snprintf(buf + n, size - n, "%s'%s'",
                              k == 0           ? "; did you mean "
                              : k + 1 == nr->n ? " or "
                                               : ", ",
                              esc);
    }
    if (nr->n && n < size) snprintf(buf + n, size - n, "?");
    return buf;
}
