/* an_file.c — the analyzer's source over a .tcgr file: the replay layer's
 * bounded streaming reader (arbiter/replay.h) behind the source vtable.
 * The header is checked the way the verifier checks it (registered game,
 * same rules version and PRNG) so that analysis never narrates a match
 * under rules it was not played with; every error names the file and, from
 * the reader, the offset. */
#include <stdlib.h>
#include <string.h>

#include "analyze/an_int.h"
#include "arbiter/replay.h"

/* The reader that parsed the header owns what the header points into
 * (position, tree); records come from cur, which is that reader until a
 * rewind opens the file again. */
typedef struct file_source {
    arb_replay *hdr, *cur;
    char *path;
    arb_archive *ar;            /* a member of this (open) archive, or NULL */
    uint64_t member;
} file_source;

static int file_next(void *self, arb_an_record *rec, arb_error *err)
{
    arb_replay_record r;
    int rc = arb_replay_next(((file_source *)self)->cur, &r, err);
    if (rc <= 0) return rc;
    memset(rec, 0, sizeof *rec);
    rec->kind = r.kind == ARB_REC_ACTION ? ARB_AN_ACTION
              : r.kind == ARB_REC_CHECKPOINT ? ARB_AN_CHECKPOINT
              : r.kind == ARB_REC_OUTCOME ? ARB_AN_OUTCOME : r.kind;
    rec->index = r.index;
    rec->offset = r.offset;
    rec->action = r.action;
    rec->turn = r.turn;
    rec->hash = r.hash;
    rec->hash_bits = r.hash_bits;
    rec->winner = r.winner;
    memcpy(rec->reason, r.reason, sizeof rec->reason);
    rec->reason[sizeof rec->reason - 1] = '\0';
    return 1;
}

static void file_close(void *self)
{
    file_source *f = self;
    if (!f) return;
    if (f->cur != f->hdr) arb_replay_close(f->cur);
    arb_replay_close(f->hdr);
    free(f->path);
    free(f);
}

static int file_rewind(void *self, arb_error *err)
{
    file_source *f = self;
    arb_replay *r;
    int rc = f->ar ? arb_archive_open_member(&r, f->ar, f->member, NULL, err) : arb_replay_open(&r, f->path, NULL, err);
    if (rc) return rc;
    if (f->cur != f->hdr) arb_replay_close(f->cur);
    f->cur = r;
    return ARB_OK;
}

static const arb_an_source_ops file_ops = { file_next, file_close, file_rewind };

static int open_replay(arb_an_source **out, arb_replay *r, const char *path, arb_archive *ar, uint64_t member,
                       arb_error *err, const char *file);

int arb_an_open_file(arb_an_source **out, const char *path, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, path);
    return arb_an_open_file_as(out, path, path, err);
}

int arb_an_open_file_as(arb_an_source **out, const char *path, const char *name, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    ARB_ASSERT_ARG(err, path);
    *out = NULL;
    arb_replay *r = NULL;
    int rc = arb_replay_open(&r, path, NULL, err);
    if (rc) return rc;
    return open_replay(out, r, name, NULL, 0, err, path);
}

int arb_an_open_member(arb_an_source **out, arb_archive *a, uint64_t i, const char *name, arb_error *err)
{
    ARB_ASSERT_ARG(err, out);
    *out = NULL;
    arb_replay *r = NULL;
    int rc = arb_archive_open_member(&r, a, i, NULL, err);
    if (rc) return rc;
    return open_replay(out, r, name, a, i, err, name);
}

/* r (opened, header read) becomes the source, called path; a rewind
 * opens file again (or member of ar). r is closed on failure. */
static int open_replay(arb_an_source **out, arb_replay *r, const char *path, arb_archive *ar, uint64_t member,
                       arb_error *err, const char *file)
{
    int rc;
    const arb_replay_header *rh = arb_replay_get_header(r);
    const arb_game *g = arb_game_find(rh->game);
    if (!g) {
        rc = arb_error_set(err, ARB_EUNSUPPORTED, NULL, "game '%s' is not compiled into this build", rh->game);
        goto fail;
    }
    if (arb_game_rules_index(g, rh->rules) < 0) {
        rc = arb_error_set(err, ARB_EUNSUPPORTED, NULL,
                           "recorded under %s rules version '%s'; this build implements '%s'", g->id, rh->rules,
                           g->rules_version);
        goto fail;
    }
    if (strcmp(rh->rng, ARB_RNG_NAME)) {
        rc = arb_error_set(err, ARB_EUNSUPPORTED, NULL, "unsupported rng '%s' (this build implements %s)", rh->rng,
                           ARB_RNG_NAME);
        goto fail;
    }
    arb_an_source *s;
    file_source *fs = calloc(1, sizeof *fs);
    char *pc = fs ? strdup(file) : NULL;
    if (!pc || arb_an__source_new(&s, path, &file_ops, fs)) {
        free(pc);
        free(fs);
        rc = arb_error_set(err, ARB_ENOMEM, NULL, "out of memory");
        goto fail;
    }
    fs->hdr = fs->cur = r;
    fs->path = pc;
    fs->ar = ar;
    fs->member = member;
    arb_an_header *h = &s->hdr;
    arb_setup su;
    rc = arb_replay_setup(r, g, &su, h->decks, err);
    if (rc) {
        fs->hdr = fs->cur = NULL;
        arb_an_source_free(s);
        goto fail_where;
    }
    h->game = g;
    h->seed = rh->seed;
    h->players = rh->players;
    h->options = rh->options;
    h->position = rh->position;
    h->tree = rh->tree;
    h->has_envelope = 1;
    h->version = rh->version;
    h->flags = rh->flags;
    h->header_bytes = rh->size;
    snprintf(h->rules, sizeof h->rules, "%s", rh->rules);
    snprintf(h->engine, sizeof h->engine, "%s", rh->engine);
    snprintf(h->started, sizeof h->started, "%s", rh->started);
    for (int i = 0; i < rh->players && i < ARB_MAX_SEATS; i++) {
        if (rh->player[i].name[0]) snprintf(h->names[i], sizeof h->names[i], "%s", rh->player[i].name);
        else snprintf(h->names[i], sizeof h->names[i], "P%d", i + 1);
    }
    *out = s;
    return ARB_OK;
fail:
    arb_error_where(err, "%s: header", path);
fail_where:
    if (!err->where[0]) arb_error_where(err, "%s: header", path);
    arb_replay_close(r);
    return rc;
}
