/* trust.c — the verifier's checks of what a header claims beyond the
 * replay itself: a fair (commit–reveal) seed is recomputed from the
 * server's secret and every contribution and its commitment checked; a
 * commitment published before the match is compared with the file's; a
 * match started from a position is flagged (and refused under
 * require_seeded), since its setup is not derived from the seed. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/seal.h"
#include "replay/internal.h"

static void hex32(const uint8_t *p, char out[65])
{
    static const char d[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = d[p[i] >> 4];
        out[2 * i + 1] = d[p[i] & 15];
    }
    out[64] = '\0';
}

int arb_replay__verify_trust_header(const arb_replay_header *h, const arb_verify_opts *opts,
                                    arb_verify_result *res, const char *name)
{
    (void)name;
    res->seeded = h->position == NULL;
    if (h->has_fair) {
        uint8_t c[ARB_REPLAY_COMMIT_BYTES];
        arb_fair_commit(c, h->fair.secret);
        if (memcmp(c, h->fair.commit, sizeof c) != 0) {
            res->fair = -1;
            snprintf(res->detail, sizeof res->detail,
                     "fair seed: the server secret does not match the server's commitment (fair.commit): the secret "
                     "was changed after the commitment was published");
            return ARB_DIV_COMMIT;
        }
        uint64_t seed = arb_fair_seed(&h->fair);
        if (seed != h->seed) {
            res->fair = -1;
            snprintf(res->detail, sizeof res->detail,
                     "fair seed: the seed %" PRIu64 " is not the one derived from the server secret and the %d "
                     "contribution(s) (%" PRIu64 "): the seed or a contribution was changed",
                     h->seed, h->fair.n, seed);
            return ARB_DIV_COMMIT;
        }
        res->fair = 1;
    }
    if (opts->published_commit) {
        const uint8_t *have = h->has_fair ? h->fair.commit : h->has_commit ? h->commit : NULL;
        char want[65], got[65];
        hex32(opts->published_commit, want);
        if (!have) {
            res->published = -1;
            snprintf(res->detail, sizeof res->detail,
                     "the file carries no commitment (neither 'fair' nor 'commit') to compare with the published %s",
                     want);
            return ARB_DIV_COMMIT;
        }
        if (memcmp(have, opts->published_commit, ARB_REPLAY_COMMIT_BYTES) != 0) {
            res->published = -1;
            hex32(have, got);
            snprintf(res->detail, sizeof res->detail,
                     "the file's %s %s differs from the published commitment %s: this is not the match that was "
                     "announced",
                     h->has_fair ? "fair-seed commitment" : "seed commitment", got, want);
            return ARB_DIV_COMMIT;
        }
        res->published = 1;
    }
    if (opts->require_seeded && h->position) {
        snprintf(res->detail, sizeof res->detail,
                 "the match starts from a position: setup not derived from the seed (refused under --require-seeded)");
        return ARB_DIV_NOT_SEEDED;
    }
    return ARB_OK;
}

int arb_replay__verify_seal(arb_replay *r, const arb_verify_opts *opts, arb_verify_result *res)
{
    const arb_replay_header *h = arb_replay__header(r);
    res->seal = ARB_SEAL_NONE;
    res->trusted = 0;
    res->signer_id[0] = res->signer_label[0] = '\0';
    if (h->version == 1) {
        /* Format 1 has no seal block. */
        if (!opts->trusted) return ARB_OK;
        res->trusted = -1;
        snprintf(res->detail, sizeof res->detail,
                 "the file is not signed (format version 1 carries no seal), and trusted keys were required");
        return ARB_DIV_SIGNATURE;
    }
    uint8_t dg[ARB_REPLAY_DIGEST];
    const uint8_t *tr = NULL;
    size_t ntr = 0;
    uint64_t be = 0;
    if (!arb_replay_sealable(r, dg, &tr, &ntr, &be)) {
        /* Verification stopped before the body's end (a divergence, a
         * malformed record): hash the rest so the seal can still speak. */
        arb_error e = ARB_ERROR_INIT;
        if (arb_replay__drain(r, &e) != ARB_OK || !arb_replay_sealable(r, dg, &tr, &ntr, &be)) {
            if (!opts->trusted) return ARB_OK;
            res->trusted = -1;
            snprintf(res->detail, sizeof res->detail,
                     "the body cannot be read to its end, so no seal can be checked, and trusted keys were required");
            return ARB_DIV_SIGNATURE;
        }
    }
    if (arb_replay__trailer_bad(r)) {
        /* not a seal block at all: the file is corrupt (the reader said so,
         * exit 3), which no seal question outranks (FORMAT.md §B.1) */
        res->trusted = opts->trusted ? -1 : 0;
        return ARB_OK;
    }
    char why[200];
    uint8_t pk[ARB_SEAL_PK_BYTES];
    arb_seal_status st = arb_seal_block_check(tr, ntr, dg, pk, why, sizeof why);
    res->seal = st;
    if (st == ARB_SEAL_VALID || st == ARB_SEAL_BAD) {
        uint8_t id[ARB_SEAL_ID_BYTES];
        memcpy(res->signer, pk, sizeof res->signer);
        arb_seal_key_id(pk, id);
        arb_seal_id_hex(id, res->signer_id);
    }
    if (st == ARB_SEAL_BAD || st == ARB_SEAL_MALFORMED) {
        res->trusted = opts->trusted ? -1 : 0;
        snprintf(res->detail, sizeof res->detail, "seal block at file offset %" PRIu64 "%s%s: %s", be,
                 res->signer_id[0] ? " by key " : "", res->signer_id, why);
        return ARB_DIV_SIGNATURE;
    }
    if (!opts->trusted) return ARB_OK;
    if (st == ARB_SEAL_NONE) {
        res->trusted = -1;
        snprintf(res->detail, sizeof res->detail, "the file is not signed (nothing follows the body at offset %" PRIu64
                 "), and trusted keys were required", be);
        return ARB_DIV_SIGNATURE;
    }
    const arb_seal_key *k = arb_seal_keyring_find(opts->trusted, pk);
    if (!k) {
        res->trusted = -1;
        snprintf(res->detail, sizeof res->detail,
                 "signed by key %s, which is not among the %zu trusted key(s): the signature is valid but proves "
                 "nothing about who recorded the match", res->signer_id, opts->trusted->n);
        return ARB_DIV_SIGNATURE;
    }
    res->trusted = 1;
    snprintf(res->signer_label, sizeof res->signer_label, "%s", k->label);
    return ARB_OK;
}
