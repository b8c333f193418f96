/* check_conform.c — unit tests of the conformance machinery (loader,
 * lint, runner statuses, expectations, coverage, reports) against a toy
 * engine defined here, so the machinery is tested independently of the
 * real games. Files are written into a temporary directory; the schemas
 * come from conformance/schema in the source tree (tests run from it). */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "arbiter/arbiter.h"
#include "arbiter/conform.h"
#include "arbiter/replay.h"
#include "cli_run.h"

/* ------------------------------------------------------------ toy game */
/* Two seats take turns; "add N" adds N (1..3) to the mover's count, "pass"
 * hands the turn over, a count of 10 wins. */

typedef struct toy {
    int32_t count[2];
    int32_t active, turn, over, winner;
    int32_t hand[2][2];            /* card indexes; private to the owner */
} toy;

/* A contract bug to plant, for the invariant tests (0: none). */
enum { BUG_NONE, BUG_DUP_LEGAL, BUG_LEGAL_REJECTED, BUG_VIEW_LEAK, BUG_NARRATION_LEAK, BUG_DROPS, BUG_REJECT_CHANGES,
       BUG_WINNER_OPEN, BUG_TURN_BACK, BUG_CLOCK_BELOW, BUG_GAME_OVER_SHAPE };
static int toy_bug;

static const arb_verb toy_verbs[] = {
    { "add", 1, 1, "N", "add N (1..3)" },
    { "pass", 0, 0, "", "end the turn" },
    { "timeout", 0, 0, "", "arbiter" },
    { "wait", 0, 0, "", "do nothing, emit nothing" },
};
static const char *const toy_decisions[] = { "main", "over" };
static const char *const toy_events[] = { "add", "pass", "game-over" };
static const char *const toy_reasons[] = { "none", "ten" };
static const arb_card toy_cards[] = { { "pebble", "Pebble", "Stone", "", "" }, { "rock", "Rock", "Stone", "", "" } };
static const arb_deck toy_preset = { "pebbles", 3, { 0, 0, 0 }, 0, { { "", "" } } };

static const arb_card *toy_card(const arb_game *g, unsigned i) { (void)g; return i < 2 ? &toy_cards[i] : NULL; }
static const arb_deck *toy_get_preset(const arb_game *g, unsigned i) { (void)g; return i == 0 ? &toy_preset : NULL; }

static unsigned toy_deck_check(const arb_game *g, const arb_deck *d, arb_deck_issue *out, unsigned cap)
{
    (void)g;
    unsigned n = 0;
    if (d->ncards != 3) {
        if (n < cap) { out[n].warning = 0; strcpy(out[n].rule, "TOY-DECK-SIZE"); strcpy(out[n].msg, "3 cards"); }
        n++;
    }
    for (unsigned i = 0; i < d->ncards; i++)
        if (d->cards[i] == 1) {
            if (n < cap) { out[n].warning = 1; strcpy(out[n].rule, "TOY-DECK-ROCK"); strcpy(out[n].msg, "rock"); }
            n++;
            break;
        }
    return n;
}

static int toy_setup(const arb_game *g, void *st, const arb_setup *su, arb_events *ev, arb_error *err)
{
    (void)g;
    if (su->players != 2) return arb_error_set(err, ARB_EILLEGAL, "TOY-TWO", "two players");
    toy *t = st;
    memset(t, 0, sizeof *t);
    t->active = (int32_t)(su->seed % 2);
    t->turn = 1;
    t->winner = -1;
    for (int i = 0; i < 2; i++) { t->hand[i][0] = 0; t->hand[i][1] = 1; }
    arb_events_push(ev, 1, t->active, 0, 0, 0, 0);
    return ARB_OK;
}

static int toy_load(const arb_game *g, void *st, const arb_tnode *pos, const arb_setup *su, arb_error *err)
{
    (void)g;
    (void)su;
    toy *t = st;
    memset(t, 0, sizeof *t);
    t->turn = 1;
    t->winner = -1;
    for (const arb_tnode *k = pos->first; k; k = k->next) {
        if (!strcmp(k->key, "active") && k->kind == ARB_T_INT) t->active = (int32_t)k->i;
        else if (!strcmp(k->key, "turn") && k->kind == ARB_T_INT) t->turn = (int32_t)k->i;
        else if (!strcmp(k->key, "players") && k->kind == ARB_T_ARR && k->n == 2) {
            int i = 0;
            for (const arb_tnode *p = k->first; p; p = p->next, i++) {
                const arb_tnode *c = arb_tnode_get(p, "count");
                if (c && c->kind == ARB_T_INT) t->count[i] = (int32_t)c->i;
                const arb_tnode *h = arb_tnode_get(p, "hand");
                int j = 0;
                for (const arb_tnode *e = h && h->kind == ARB_T_ARR ? h->first : NULL; e && j < 2; e = e->next, j++) {
                    const arb_tnode *cd = arb_tnode_get(e, "card");
                    t->hand[i][j] = cd && cd->kind == ARB_T_STR && !strcmp(cd->s, "rock");
                }
            }
        } else {
            arb_error_where(err, "%s", k->key);
            return arb_error_set(err, ARB_EINVAL, NULL, "unknown key");
        }
    }
    return ARB_OK;
}

static arb_decision toy_decision(const arb_game *g, const void *st)
{
    (void)g;
    const toy *t = st;
    arb_decision d = { t->over ? ARB_SEAT_NONE : t->active, (uint16_t)(t->over ? 1 : 0),
                       toy_bug == BUG_CLOCK_BELOW ? -2 : -1 };
    return d;
}

static size_t toy_legal(const arb_game *g, const void *st, arb_action *out, size_t cap)
{
    (void)g;
    const toy *t = st;
    if (t->over) return 0;
    size_t n = 0;
    for (int v = 1; v <= (toy_bug == BUG_DUP_LEGAL ? 5 : toy_bug == BUG_LEGAL_REJECTED ? 6 : 4); v++) {
        if (v == 6 && n < cap) { /* "add 4": listed, then refused */
            memset(&out[n], 0, sizeof out[n]);
            out[n].seat = (int8_t)t->active;
            out[n].nargs = 1;
            out[n].args[0] = 4;
            n++;
            continue;
        }
        if (v == 5 && toy_bug != BUG_DUP_LEGAL) continue;
        int w = v == 5 ? 4 : v; /* 5: pass, listed twice */
        if (n < cap) {
            memset(&out[n], 0, sizeof out[n]);
            out[n].seat = (int8_t)t->active;
            out[n].verb = (uint8_t)(w == 4 ? 1 : 0);
            out[n].nargs = (uint8_t)(w == 4 ? 0 : 1);
            out[n].args[0] = w == 4 ? 0 : w;
        }
        n++;
    }
    /* wait: accepted too, so listed (the runner checks that an accepted
     * scripted action was listed by legal()) */
    if (n < cap) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].seat = (int8_t)t->active;
        out[n].verb = 3;
    }
    n++;
    return n;
}

static int toy_apply(const arb_game *g, void *st, const arb_action *a, arb_events *ev, arb_error *err)
{
    (void)g;
    toy *t = st;
    if (t->over) return arb_error_set(err, ARB_EOVER, NULL, "over");
    if (a->seat != t->active) {
        if (toy_bug == BUG_REJECT_CHANGES) t->turn += 100;
        return arb_error_set(err, ARB_EILLEGAL, "TOY-TURN", "not your turn");
    }
    if (a->verb == 0) {
        if (a->args[0] < 1) return arb_error_set(err, ARB_EILLEGAL, "TOY-ADD-MIN", "at least 1");
        if (toy_bug == BUG_DROPS)
            for (int i = 0; i < ARB_MATCH_EVENTS + 3; i++) arb_events_push(ev, 1, t->active, 0, 0, 0, 0);
        if (toy_bug == BUG_NARRATION_LEAK) arb_events_push(ev, 0, t->active, 1, t->hand[t->active][0], 0, 0);
        if (a->args[0] > 3) return arb_error_set(err, ARB_EILLEGAL, "TOY-ADD-MAX", "at most 3");
        t->count[t->active] += a->args[0];
        arb_events_push(ev, 0, t->active, 0, a->args[0], t->count[t->active], 0);
        if (t->count[t->active] >= 10) {
            t->over = 1;
            t->winner = t->active;
            arb_events_push(ev, 2, t->active, 0, toy_bug == BUG_GAME_OVER_SHAPE ? 0 : 1, t->turn, 0);
        }
        return ARB_OK;
    }
    if (a->verb == 1) {
        t->active = 1 - t->active;
        t->turn++;
        arb_events_push(ev, 1, t->active, 0, 0, 0, 0);
        return ARB_OK;
    }
    if (a->verb == 3) return ARB_OK; /* wait: accepted, no event */
    return arb_error_set(err, ARB_EILLEGAL, "TOY-NOCLOCK", "no clock");
}

static uint64_t toy_hash(const arb_game *g, const void *st)
{
    (void)g;
    const toy *t = st;
    arb_hasher h;
    arb_hasher_init(&h);
    arb_hasher_i32(&h, t->count[0]);
    arb_hasher_i32(&h, t->count[1]);
    arb_hasher_i32(&h, t->active);
    arb_hasher_i32(&h, t->turn);
    arb_hasher_i32(&h, t->over);
    return arb_hasher_final(&h);
}

static int toy_outcome(const arb_game *g, const void *st, arb_outcome *o)
{
    (void)g;
    const toy *t = st;
    o->over = t->over;
    o->winner = t->over ? t->winner : toy_bug == BUG_WINNER_OPEN ? 0 : -1;
    o->reason = (uint16_t)(t->over ? 1 : 0);
    o->turns = (uint32_t)t->turn;
    return o->over;
}

static uint32_t toy_turn(const arb_game *g, const void *st)
{
    (void)g;
    int turn = ((const toy *)st)->turn;
    return (uint32_t)(toy_bug == BUG_TURN_BACK ? 10 - turn : turn);
}
static const char *toy_phase(const arb_game *g, const void *st) { (void)g; return ((const toy *)st)->over ? "over" : "main"; }

static void toy_export(const arb_game *g, const void *st, int view, arb_tree *tr, arb_tnode *root)
{
    (void)g;
    const toy *t = st;
    arb_tree_add_int(tr, root, "turn", t->turn);
    arb_tree_add_int(tr, root, "active", t->active);
    arb_tnode *ps = arb_tree_add_arr(tr, root, "players");
    for (int i = 0; i < 2; i++) {
        arb_tnode *p = arb_tree_add_map(tr, ps, NULL);
        arb_tree_add_int(tr, p, "count", t->count[i]);
        if (view == ARB_VIEW_ALL || view == i) arb_tree_add_str(tr, p, "secret", "s");
        if (view == ARB_VIEW_ALL || view == i || toy_bug == BUG_VIEW_LEAK) {
            arb_tnode *h = arb_tree_add_arr(tr, p, "hand");
            for (int j = 0; j < 2; j++) {
                arb_tnode *c = arb_tree_add_map(tr, h, NULL);
                arb_tree_add_int(tr, c, "uid", 1 + j);
                arb_tree_add_str(tr, c, "card", toy_cards[t->hand[i][j] & 1].id);
            }
        }
        arb_tnode *z = arb_tree_add_arr(tr, p, "zone");
        arb_tnode *c = arb_tree_add_map(tr, z, NULL);
        arb_tree_add_int(tr, c, "uid", 0);
        arb_tree_add_str(tr, c, "card", "pebble");
    }
}

static int toy_event_text(const arb_game *g, const arb_event *ev, int view, char *buf, size_t size)
{
    (void)g;
    (void)view;
    if (ev->hidden) /* BUG_NARRATION_LEAK: names the card to every view */
        return snprintf(buf, size, "P%d shows %s", ev->seat + 1, toy_cards[ev->a == 1].name);
    return snprintf(buf, size, "event %u", ev->type);
}

static int toy_action_text(const arb_game *g, const void *st, const arb_action *a, char *buf, size_t size)
{
    (void)g;
    (void)st;
    return snprintf(buf, size, "verb %u", a->verb);
}

static const arb_game toy_game = {
    .contract = ARB_GAME_CONTRACT, .id = "toy", .title = "Toy", .rules_version = "toy-1", .engine_version = "1",
    .min_players = 2, .max_players = 2, .state_size = sizeof(toy),
    .verbs = toy_verbs, .nverbs = 4,
    .decision_names = toy_decisions, .ndecision_names = 2,
    .event_names = toy_events, .nevent_names = 3,
    .outcome_reasons = toy_reasons, .noutcome_reasons = 2,
    .ncards = 2, .card = toy_card, .card_export = NULL,
    .deck_check = toy_deck_check, .npresets = 1, .preset = toy_get_preset,
    .setup = toy_setup, .load_position = toy_load, .decision = toy_decision, .legal = toy_legal,
    .apply = toy_apply, .hash = toy_hash, .outcome = toy_outcome, .turn = toy_turn, .phase = toy_phase,
    .export_state = toy_export, .event_text = toy_event_text, .action_text = toy_action_text, .greedy = NULL,
};
static const arb_game *const toy_games[] = { &toy_game, NULL };

/* ------------------------------------------------------------ fixtures */

static char tmpdir[256];

static void write_file(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    ck_assert_int_eq(system(cmd), 0);
    *slash = '/';
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char *RULES =
    "<?xml version=\"1.0\"?>\n"
    "<rules xmlns=\"urn:arbiter:conformance:1\" game=\"toy\" prefix=\"TOY\" rulebook=\"toy.txt\">\n"
    "  <counts entries=\"8\" rule=\"6\" rule-needing-interpretation=\"1\" informational=\"1\" interpretations=\"0\"/>\n"
    "  <entry id=\"TOY-ADD-MAX\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L1\"/><text>at most 3</text><check>c</check></entry>\n"
    "  <entry id=\"TOY-ADD-MIN\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L1\"/><text>at least 1</text><check>c</check></entry>\n"
    "  <entry id=\"TOY-TURN\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L2\"/><text>turns</text><check>c</check></entry>\n"
    "  <entry id=\"TOY-DECK-SIZE\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L3\"/><text>3 cards</text><check>c</check></entry>\n"
    "  <entry id=\"TOY-TWO\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L5\"/><text>two players</text><check>c</check></entry>\n"
    "  <entry id=\"TOY-DECK-ROCK\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L6\"/><text>rock warns</text><check>c</check></entry>\n"
    "  <entry id=\"TOY-GAPPY\" kind=\"rule-needing-interpretation\" gaps=\"TOY-G01\"><source file=\"toy.txt\" ref=\"L7\"/><text>g</text><check>G01</check></entry>\n"
    "  <entry id=\"TOY-FLAVOR\" kind=\"informational\"><source file=\"toy.txt\" ref=\"L4\"/><text>f</text><check>none</check></entry>\n"
    "</rules>\n";

static void setup_dir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/check_conform.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    write_file("toy/rules.xml", RULES);
}

static void teardown_dir(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
}

#define SET_HEAD "<?xml version=\"1.0\"?>\n<test-set xmlns=\"urn:arbiter:conformance:1\" game=\"toy\" name=\"basic\">\n"
#define SET_TAIL "</test-set>\n"

static arb_conform_suite *load(arb_conform_options *o)
{
    arb_conform_options def = ARB_CONFORM_OPTIONS_INIT;
    if (!o) o = &def;
    o->schema_dir = "conformance/schema";
    o->games = toy_games;
    const char *paths[] = { tmpdir };
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_load(&s, paths, 1, o, &err), ARB_OK);
    return s;
}

static const arb_conform_result *result(const arb_conform_suite *s, const char *id)
{
    for (unsigned i = 0; i < arb_conform_nresults(s); i++)
        if (strcmp(arb_conform_result_at(s, i)->id, id) == 0) return arb_conform_result_at(s, i);
    ck_abort_msg("no result %s", id);
    return NULL;
}

static int has_diag(const arb_conform_suite *s, const char *where, const char *msg)
{
    for (unsigned i = 0; i < arb_conform_ndiags(s); i++) {
        const arb_conform_diag *d = arb_conform_diag_at(s, i);
        if (strstr(d->where, where) && strstr(d->msg, msg)) return 1;
    }
    return 0;
}

static void dump_diags(const arb_conform_suite *s)
{
    for (unsigned i = 0; i < arb_conform_ndiags(s); i++)
        fprintf(stderr, "diag: %s: %s\n", arb_conform_diag_at(s, i)->where, arb_conform_diag_at(s, i)->msg);
}

/* ------------------------------------------------------------ loader */

START_TEST(malformed_xml_names_file_and_line)
{
    write_file("toy/bad.xml", SET_HEAD "  <test-case id=\"a\" covers=\"TOY-TURN\">\n    <setup/>\n  </test-cas>\n" SET_TAIL);
    arb_conform_suite *s = load(NULL);
    ck_assert_msg(has_diag(s, "toy/bad.xml:5", ""), "no diagnostic at toy/bad.xml:5");
    ck_assert_uint_eq(arb_conform_ncases(s), 0);
    arb_conform_free(s);
}
END_TEST

START_TEST(schema_violation_names_line)
{
    write_file("toy/inv.xml", SET_HEAD "  <test-case id=\"a\" covers=\"TOY-TURN\">\n    <setup/>\n    <bogus/>\n  </test-case>\n" SET_TAIL);
    arb_conform_suite *s = load(NULL);
    ck_assert_msg(has_diag(s, "toy/inv.xml:5", "bogus"), "no schema diagnostic at line 5");
    arb_conform_free(s);
}
END_TEST

START_TEST(doctype_entities_external_refused)
{
    write_file("toy/dt.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE test-set [\n<!ENTITY x \"boom\">\n]>\n"
                             "<test-set xmlns=\"urn:arbiter:conformance:1\" game=\"toy\" name=\"x\">&x;</test-set>\n");
    write_file("toy/ext.xml", "<?xml version=\"1.0\"?>\n\n<!DOCTYPE r SYSTEM \"http://example.invalid/x.dtd\">\n<r/>\n");
    write_file("toy/ent.xml", "<?xml version=\"1.0\"?>\n<x>\n<!ENTITY y SYSTEM \"file:///etc/passwd\">\n</x>\n");
    arb_conform_suite *s = load(NULL);
    ck_assert(has_diag(s, "toy/dt.xml:2", "DOCTYPE"));
    ck_assert(has_diag(s, "toy/ext.xml:3", "DOCTYPE"));
    ck_assert(has_diag(s, "toy/ent.xml:3", "ENTITY"));
    ck_assert_uint_eq(arb_conform_ncases(s), 0);
    arb_conform_free(s);
}
END_TEST

START_TEST(catalog_counts_checked)
{
    write_file("other/rules.xml", "<?xml version=\"1.0\"?>\n<rules xmlns=\"urn:arbiter:conformance:1\" game=\"other\" prefix=\"OTH\" rulebook=\"o\">\n"
               "  <counts entries=\"2\" rule=\"2\" rule-needing-interpretation=\"0\" informational=\"0\" interpretations=\"0\"/>\n"
               "  <entry id=\"OTH-X\" kind=\"rule\"><source file=\"o\" ref=\"L1\"/><text>t</text><check>c</check></entry>\n</rules>\n");
    arb_conform_suite *s = load(NULL);
    ck_assert(has_diag(s, "other/rules.xml:3", "says 2 entries"));
    arb_conform_free(s);
}
END_TEST

START_TEST(wrong_root_and_namespace)
{
    write_file("toy/ns.xml", "<?xml version=\"1.0\"?>\n<test-set game=\"toy\" name=\"x\"/>\n");
    arb_conform_suite *s = load(NULL);
    ck_assert(has_diag(s, "toy/ns.xml:2", "root element"));
    arb_conform_free(s);
}
END_TEST

START_TEST(lint_unknown_rule_ids)
{
    write_file("toy/lint.xml", SET_HEAD
               "  <test-case id=\"a\" covers=\"TOY-TURN TOY-NOPE\">\n    <setup/>\n"
               "    <reject do=\"0 add 9\" rule=\"TOY-ALSO-NOPE\"/>\n  </test-case>\n"
               "  <test-case id=\"a\" covers=\"TOY-FLAVOR\">\n    <setup/>\n  </test-case>\n"
               "  <test-case id=\"g1\" covers=\"TOY-GAPPY\">\n    <setup/>\n  </test-case>\n"
               "  <test-case id=\"g2\" covers=\"TOY-GAPPY\" gaps=\"G01\">\n    <setup/>\n  </test-case>\n"
               "  <test-case id=\"g3\" covers=\"TOY-TURN\" gaps=\"G07\">\n    <setup/>\n  </test-case>\n" SET_TAIL);
    arb_conform_suite *s = load(NULL);
    ck_assert_uint_eq(arb_conform_ndiags(s), 0);
    unsigned n = arb_conform_lint(s);
    if (n != 6) dump_diags(s);
    ck_assert(has_diag(s, "toy/lint.xml:3", "TOY-NOPE"));
    ck_assert(has_diag(s, "toy/lint.xml:5", "TOY-ALSO-NOPE"));
    ck_assert(has_diag(s, "toy/lint.xml:7", "not unique"));
    ck_assert(has_diag(s, "toy/lint.xml:7", "informational"));
    ck_assert(has_diag(s, "toy/lint.xml:10", "cites none of its gaps (TOY-G01)"));
    ck_assert(has_diag(s, "toy/lint.xml:16", "gap G07, which no toy entry uses"));
    ck_assert_uint_eq(n, 6);
    arb_conform_free(s);
}
END_TEST

/* ------------------------------------------------------------ statuses */

static const char *STATUS_SET = SET_HEAD
    "  <environment name=\"mid\"><position active=\"1\"><players><item count=\"4\"/><item count=\"8\"/></players></position></environment>\n"
    "  <test-case id=\"pass\" covers=\"TOY-ADD-MAX TOY-TURN\">\n"
    "    <setup seed=\"2\"/>\n"
    "    <check><decision seat=\"0\" kind=\"main\"/><event name=\"pass\" seat=\"0\"/><turn is=\"1\"/></check>\n"
    "    <act do=\"0 add 3\"><event name=\"add\" seat=\"0\" a=\"3\" b=\"3\"/><state path=\"players.0.count\" equals=\"3\" delta=\"3\"/></act>\n"
    "    <reject do=\"0 add 4\" rule=\"TOY-ADD-MAX\" says=\"at most 3\"/>\n"
    "    <reject do=\"1 add 1\" rule=\"TOY-TURN\" code=\"illegal\"/>\n"
    "    <reject do=\"0 verb#9 1 2 3 4 5 6\" malformed=\"true\" code=\"illegal\" says=\"no clock\"/>\n"
    "    <act do=\"0 pass\"/>\n"
    "    <check><events exact=\"true\"><event name=\"add\"/><event name=\"pass\" seat=\"1\"/></events>\n"
    "      <state path=\"players.1.count\" unchanged=\"true\"/><state path=\"players.1.secret\" view=\"0\" exists=\"false\"/>\n"
    "      <state path=\"players.0.zone\" count=\"1\" contains=\"pebble\"/><legal do=\"1 add 2\"/><legal do=\"1 add 4\" present=\"false\"/>\n"
    "      <any-of><phase is=\"nope\"/><phase is=\"main\"/></any-of><not><outcome over=\"true\"/></not></check>\n"
    "  </test-case>\n"
    "  <test-case id=\"wrongrule\" covers=\"TOY-ADD-MAX\">\n"
    "    <setup seed=\"2\"/>\n    <reject do=\"0 add 0\" rule=\"TOY-ADD-MAX\"/>\n  </test-case>\n"
    "  <test-case id=\"accepted\" covers=\"TOY-ADD-MIN\">\n"
    "    <setup seed=\"2\"/>\n    <reject do=\"0 add 2\" rule=\"TOY-ADD-MIN\"/>\n  </test-case>\n"
    "  <test-case id=\"assertfail\" covers=\"TOY-TURN\">\n"
    "    <setup seed=\"2\"/>\n    <act do=\"0 add 1\"/>\n    <check><state path=\"players.0.count\" equals=\"2\"/></check>\n  </test-case>\n"
    "  <test-case id=\"badaction\" covers=\"TOY-TURN\">\n"
    "    <setup seed=\"2\"/>\n    <act do=\"0 fly\"/>\n  </test-case>\n"
    "  <test-case id=\"position-win\" covers=\"TOY-TURN\">\n"
    "    <setup environment=\"mid\"/>\n    <act do=\"1 add 2\"><outcome over=\"true\" winner=\"1\" reason=\"ten\"/><decision seat=\"none\"/></act>\n"
    "    <reject do=\"1 add 1\" code=\"over\"/>\n  </test-case>\n"
    "  <test-case id=\"unused\" covers=\"TOY-TURN\">\n"
    "    <setup environment=\"mid\"/>\n    <act do=\"1 add 2\"/>\n    <act do=\"1 pass\"/>\n  </test-case>\n"
    "  <test-case id=\"quiet-act\" covers=\"TOY-TURN\">\n"
    "    <setup seed=\"2\"/>\n    <act do=\"0 wait\"><any-of><turn is=\"2\"/><turn is=\"1\"/></any-of><not><event name=\"add\"/></not></act>\n"
    "    <act do=\"0 wait\"/>\n    <check><events exact=\"true\"><event name=\"pass\"/></events></check>\n  </test-case>\n"
    "  <test-case id=\"setup-neg\" covers=\"TOY-TURN\">\n"
    "    <setup players=\"3\"/>\n    <setup-rejected rule=\"TOY-TWO\" says=\"two\"/>\n  </test-case>\n"
    "  <test-case id=\"xfail\" covers=\"TOY-TURN\">\n"
    "    <setup/>\n    <check><turn is=\"7\"/></check>\n  </test-case>\n"
    "  <test-case id=\"xpass\" covers=\"TOY-TURN\">\n"
    "    <setup/>\n    <check><turn is=\"1\"/></check>\n  </test-case>\n"
    "  <deck-case id=\"deck-ok\" covers=\"TOY-DECK-SIZE\">\n    <deck>3 pebble</deck>\n    <legal starts=\"true\"/>\n    <no-warning/>\n  </deck-case>\n"
    "  <deck-case id=\"deck-small\" covers=\"TOY-DECK-SIZE\">\n    <deck>\n      pebble\n      rock\n    </deck>\n"
    "    <illegal rule=\"TOY-DECK-SIZE\" says=\"3 cards\"/>\n    <warning rule=\"TOY-DECK-ROCK\" says=\"rock\"/>\n  </deck-case>\n"
    "  <deck-case id=\"deck-wrong\" covers=\"TOY-DECK-SIZE\">\n    <deck>pebble</deck>\n    <illegal rule=\"TOY-ADD-MAX\"/>\n  </deck-case>\n"
    "  <test-case id=\"says-other\" covers=\"TOY-ADD-MAX\">\n"
    "    <setup seed=\"2\"/>\n    <reject do=\"0 add 4\" rule=\"TOY-ADD-MAX\" says=\"at most 4\"/>\n  </test-case>\n"
    "  <test-case id=\"malformed-taken\" covers=\"TOY-ADD-MAX\">\n"
    "    <setup seed=\"2\"/>\n    <reject do=\"0 pass 7\" malformed=\"1\"/>\n  </test-case>\n"
    "  <test-case id=\"setup-says-other\" covers=\"TOY-TURN\">\n"
    "    <setup players=\"3\"/>\n    <setup-rejected rule=\"TOY-TWO\" says=\"three\"/>\n  </test-case>\n"
    "  <deck-case id=\"deck-says-other\" covers=\"TOY-DECK-SIZE\">\n    <deck>pebble</deck>\n"
    "    <illegal rule=\"TOY-DECK-SIZE\" says=\"4 cards\"/>\n  </deck-case>\n"
    SET_TAIL;

static const char *EXPECT =
    "<?xml version=\"1.0\"?>\n<expectations xmlns=\"urn:arbiter:conformance:1\">\n"
    "  <known-failure game=\"toy\" case=\"xfail\" reason=\"turn counter is known to be wrong\"/>\n"
    "  <known-failure game=\"toy\" case=\"xpass\" reason=\"this one was fixed meanwhile\"/>\n"
    "</expectations>\n";

static arb_conform_suite *run_status_set(int jobs)
{
    write_file("toy/status.xml", STATUS_SET);
    write_file("expectations.xml", EXPECT);
    char ep[400];
    snprintf(ep, sizeof ep, "%s/expectations.xml", tmpdir);
    arb_conform_options o = ARB_CONFORM_OPTIONS_INIT;
    o.expectations = ep;
    o.jobs = jobs;
    arb_conform_suite *s = load(&o);
    if (arb_conform_ndiags(s)) dump_diags(s);
    ck_assert_uint_eq(arb_conform_ndiags(s), 0);
    /* lint knows the engine's verbs: the "badaction" case's "0 fly" */
    ck_assert_uint_eq(arb_conform_lint(s), 1);
    ck_assert(has_diag(s, "toy/status.xml:", "unknown toy verb 'fly'"));
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    return s;
}

#define ST(id) (result(s, id)->status)

START_TEST(statuses)
{
    arb_conform_suite *s = run_status_set(1);
    ck_assert_msg(ST("pass") == ARB_CF_PASS, "pass: %s", result(s, "pass")->message);
    ck_assert_int_eq(ST("wrongrule"), ARB_CF_WRONG_RULE);
    ck_assert(strstr(result(s, "wrongrule")->message, "TOY-ADD-MIN"));
    ck_assert(strstr(result(s, "wrongrule")->message, "expected"));
    ck_assert_int_eq(ST("accepted"), ARB_CF_FAIL);
    ck_assert_int_eq(ST("assertfail"), ARB_CF_FAIL);
    ck_assert(strstr(result(s, "assertfail")->message, "expected 2, got 1"));
    ck_assert_int_eq(ST("badaction"), ARB_CF_ERROR);
    ck_assert_msg(ST("position-win") == ARB_CF_PASS, "%s", result(s, "position-win")->message);
    ck_assert_int_eq(ST("unused"), ARB_CF_FAIL);
    ck_assert(strstr(result(s, "unused")->message, "not used"));
    ck_assert_msg(ST("setup-neg") == ARB_CF_PASS, "%s", result(s, "setup-neg")->message);
    ck_assert_msg(ST("quiet-act") == ARB_CF_PASS, "%s", result(s, "quiet-act")->message);
    ck_assert_int_eq(ST("xfail"), ARB_CF_XFAIL);
    ck_assert_int_eq(ST("xpass"), ARB_CF_XPASS);
    ck_assert_msg(ST("deck-ok") == ARB_CF_PASS, "%s", result(s, "deck-ok")->message);
    ck_assert_msg(ST("deck-small") == ARB_CF_PASS, "%s", result(s, "deck-small")->message);
    ck_assert_int_eq(ST("deck-wrong"), ARB_CF_WRONG_RULE);
    /* says: the refusal's sentence must contain the text, in actions, setups
     * and deck issues alike */
    ck_assert_int_eq(ST("says-other"), ARB_CF_FAIL);
    ck_assert_str_eq(result(s, "says-other")->message,
                     "expected the refusal of '0 add 4' to say 'at most 4', got: TOY-ADD-MAX: at most 3");
    ck_assert_int_eq(ST("setup-says-other"), ARB_CF_FAIL);
    ck_assert(strstr(result(s, "setup-says-other")->message, "to say 'three', got: TOY-TWO: two players"));
    ck_assert_int_eq(ST("deck-says-other"), ARB_CF_FAIL);
    ck_assert_str_eq(result(s, "deck-says-other")->message, "expected illegal by TOY-DECK-SIZE to say '4 cards', got: 3 cards");
    /* malformed: a count the verb does not take reaches the engine (which
     * here takes it: the case fails, it is not an ERROR of parsing) */
    ck_assert_int_eq(ST("malformed-taken"), ARB_CF_FAIL);
    ck_assert(strstr(result(s, "malformed-taken")->message, "expected '0 pass 7' to be rejected, got accepted"));
    ck_assert(arb_cf_status_unexpected(ARB_CF_XPASS));
    ck_assert(!arb_cf_status_unexpected(ARB_CF_XFAIL));
    ck_assert(!arb_cf_status_unexpected(ARB_CF_SKIP));
    /* unexpected: wrongrule accepted assertfail badaction unused xpass
     * deck-wrong says-other malformed-taken setup-says-other
     * deck-says-other, plus 4 uncovered R/R* entries (see coverage_gate),
     * plus the lint diagnostic */
    ck_assert_uint_eq(arb_conform_failures(s), 16);
    arb_conform_free(s);
}
END_TEST

/* arb_conform_each_case: every test case's start and whole script, the
 * refusals marked, in load order; a nonzero callback stops the walk. */
typedef struct each_seen { unsigned n; int pass_ok, pos_ok; } each_seen;
static int each_cb(void *ctx, const arb_conform_log *lg)
{
    each_seen *e = ctx;
    e->n++;
    if (!strcmp(lg->id, "pass")) {
        /* act, three refusals, act; only the acts are in the log */
        e->pass_ok = lg->status == ARB_CF_PASS && lg->nscript == 5 && lg->nactions == 2 && !lg->refused[0] &&
                     lg->refused[1] && lg->refused[2] && lg->refused[3] && !lg->refused[4] && lg->script[1].args[0] == 4 &&
                     !lg->position && lg->setup->seed == 2 && !strcmp(lg->set, "basic") && lg->line > 0;
    }
    if (!strcmp(lg->id, "position-win"))
        e->pos_ok = lg->position && lg->nscript == 2 && !lg->refused[0] && lg->refused[1];
    if (!strcmp(lg->id, "wrongrule")) ck_assert_int_eq(lg->status, ARB_CF_WRONG_RULE);
    return !strcmp(lg->id, "quiet-act") ? 7 : 0;
}

START_TEST(each_case_gives_start_and_script)
{
    arb_conform_free(run_status_set(1)); /* writes the set */
    arb_conform_suite *s = load(NULL);
    each_seen e = { 0, 0, 0 };
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_each_case(s, each_cb, &e, &err), 7);
    ck_assert(e.pass_ok);
    ck_assert(e.pos_ok);
    unsigned n = e.n;
    ck_assert_uint_gt(n, 5);
    arb_conform_free(s);
}
END_TEST

START_TEST(order_independent_of_jobs)
{
    arb_conform_suite *a = run_status_set(1);
    arb_conform_suite *b = run_status_set(4);
    ck_assert_uint_eq(arb_conform_nresults(a), arb_conform_nresults(b));
    for (unsigned i = 0; i < arb_conform_nresults(a); i++) {
        ck_assert_str_eq(arb_conform_result_at(a, i)->id, arb_conform_result_at(b, i)->id);
        ck_assert_int_eq(arb_conform_result_at(a, i)->status, arb_conform_result_at(b, i)->status);
        ck_assert_str_eq(arb_conform_result_at(a, i)->message, arb_conform_result_at(b, i)->message);
    }
    arb_conform_free(a);
    arb_conform_free(b);
}
END_TEST

START_TEST(coverage_gate)
{
    arb_conform_suite *s = run_status_set(1);
    /* TOY-ADD-MAX and TOY-TURN (pass), TOY-DECK-SIZE (deck-ok) are covered;
     * TOY-ADD-MIN only by a failing case; TOY-FLAVOR is informational;
     * TOY-TWO (setup-neg), TOY-DECK-ROCK and TOY-GAPPY are not named in
     * any covers. */
    ck_assert_uint_eq(arb_conform_uncovered(s), 4);
    ck_assert(arb_conform_gated(s));
    int seen = 0;
    for (unsigned i = 0; i < arb_conform_nentries(s); i++) {
        const arb_conform_entry *e = arb_conform_entry_at(s, i);
        if (!strcmp(e->id, "TOY-ADD-MIN")) {
            seen = 1;
            ck_assert_uint_eq(e->npassing, 0);
            ck_assert_uint_eq(e->ncases, 1);
            ck_assert_str_eq(e->cases, "accepted");
        }
        if (!strcmp(e->id, "TOY-TURN")) ck_assert(strstr(e->cases, "pass"));
    }
    ck_assert(seen);
    arb_conform_free(s);
}
END_TEST

START_TEST(skip_without_engine)
{
    write_file("other/rules.xml", "<?xml version=\"1.0\"?>\n<rules xmlns=\"urn:arbiter:conformance:1\" game=\"other\" prefix=\"OTH\" rulebook=\"o\">\n"
               "  <counts entries=\"1\" rule=\"1\" rule-needing-interpretation=\"0\" informational=\"0\" interpretations=\"0\"/>\n"
               "  <entry id=\"OTH-X\" kind=\"rule\"><source file=\"o\" ref=\"L1\"/><text>t</text><check>c</check></entry>\n</rules>\n");
    write_file("other/set.xml", "<?xml version=\"1.0\"?>\n<test-set xmlns=\"urn:arbiter:conformance:1\" game=\"other\" name=\"s\">\n"
               "  <test-case id=\"c\" covers=\"OTH-X\"><setup/></test-case>\n</test-set>\n");
    arb_conform_options o = ARB_CONFORM_OPTIONS_INIT;
    o.game = "other";
    arb_conform_suite *s = load(&o);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    ck_assert_uint_eq(arb_conform_nresults(s), 1);
    ck_assert_int_eq(ST("c"), ARB_CF_SKIP);
    /* no engine: its entries are not gated */
    ck_assert_uint_eq(arb_conform_uncovered(s), 0);
    ck_assert_uint_eq(arb_conform_failures(s), 0);
    arb_conform_free(s);
}
END_TEST

/* ------------------------------------------------------------ reports */

static char *report(arb_conform_suite *s, int (*fn)(const arb_conform_suite *, FILE *), size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fn(s, f), ARB_OK);
    fclose(f);
    return buf;
}

START_TEST(junit_parses_back)
{
    arb_conform_suite *s = run_status_set(2);
    size_t len;
    char *x = report(s, arb_conform_write_junit, &len);
    xmlDocPtr doc = xmlReadMemory(x, (int)len, "junit.xml", NULL, XML_PARSE_NONET);
    ck_assert_msg(doc != NULL, "JUnit output is not well-formed");
    xmlNodePtr root = xmlDocGetRootElement(doc);
    ck_assert_str_eq((const char *)root->name, "testsuites");
    unsigned cases = 0, failures = 0, errors = 0, skipped = 0, props = 0, files = 0, uncovered = 0;
    int wrongrule_ok = 0, located = 0;
    for (xmlNodePtr ts = root->children; ts; ts = ts->next) {
        if (ts->type != XML_ELEMENT_NODE) continue;
        for (xmlNodePtr tc = ts->children; tc; tc = tc->next) {
            if (tc->type != XML_ELEMENT_NODE) continue;
            xmlChar *cls = xmlGetProp(tc, (const xmlChar *)"classname");
            xmlChar *name = xmlGetProp(tc, (const xmlChar *)"name");
            xmlChar *line = xmlGetProp(tc, (const xmlChar *)"line");
            xmlChar *file = xmlGetProp(tc, (const xmlChar *)"file");
            /* the Jenkins XSD has no testcase file/line: the body carries them */
            ck_assert(name && !line && !file);
            int isfile = !strcmp((const char *)cls, "toy.files"), iscov = !strcmp((const char *)cls, "toy.coverage");
            if (!isfile && !iscov) {
                ck_assert_str_eq((const char *)cls, "toy.basic");
                cases++;
            }
            for (xmlNodePtr k = tc->children; k; k = k->next) {
                if (k->type != XML_ELEMENT_NODE) continue;
                if (!strcmp((const char *)k->name, "failure")) {
                    xmlChar *msg = xmlGetProp(k, (const xmlChar *)"message");
                    xmlChar *body = xmlNodeGetContent(k);
                    if (iscov) uncovered++;
                    else failures++;
                    if (!strcmp((const char *)name, "wrongrule") && strstr((const char *)msg, "expected") &&
                        strstr((const char *)msg, "TOY-ADD-MIN")) {
                        wrongrule_ok = 1;
                        /* the element's line, and the body does not repeat the message */
                        const arb_conform_result *r = result(s, "wrongrule");
                        ck_assert_int_gt(r->at_line, r->line);
                        char at[512];
                        snprintf(at, sizeof at, "%s:%d\nrerun: arbiter conform --game toy --case wrongrule", r->file,
                                 r->at_line);
                        ck_assert_msg(!strncmp((const char *)body, at, strlen(at)), "body: %s", (const char *)body);
                        ck_assert(!strstr((const char *)body, (const char *)msg));
                        located = 1;
                    }
                    xmlFree(msg);
                    xmlFree(body);
                }
                if (!strcmp((const char *)k->name, "error")) {
                    if (isfile) files++;
                    else errors++;
                }
                if (!strcmp((const char *)k->name, "skipped")) skipped++;
                if (!strcmp((const char *)k->name, "system-out")) {
                    xmlChar *out = xmlNodeGetContent(k);
                    if (strstr((const char *)out, "covers: TOY-")) props++;
                    xmlFree(out);
                }
            }
            xmlFree(cls); xmlFree(name); xmlFree(line); xmlFree(file);
        }
    }
    ck_assert_uint_eq(cases, arb_conform_nresults(s));
    /* wrongrule accepted assertfail unused xpass deck-wrong says-other
     * malformed-taken setup-says-other deck-says-other */
    ck_assert_uint_eq(failures, 10);
    ck_assert_uint_eq(errors, 1);
    ck_assert_uint_eq(skipped, 1);  /* xfail */
    ck_assert_uint_eq(props, cases);
    ck_assert_uint_eq(files, arb_conform_ndiags(s)); /* the lint problem is a failing entry */
    ck_assert_uint_eq(files, 1);
    ck_assert_uint_eq(uncovered, arb_conform_gated(s) ? arb_conform_uncovered(s) : 0);
    ck_assert(wrongrule_ok && located);
    xmlFreeDoc(doc);
    free(x);
    arb_conform_free(s);
}
END_TEST

START_TEST(tap_shape)
{
    arb_conform_suite *s = run_status_set(1);
    size_t len;
    char *t = report(s, arb_conform_write_tap, &len);
    ck_assert(strncmp(t, "TAP version 13\n1..", 18) == 0);
    ck_assert(strstr(t, "\nok 1 - toy/basic/pass\n"));
    ck_assert(strstr(t, "not ok 2 - toy/basic/wrongrule\n  ---\n  status: WRONG-RULE\n"));
    ck_assert(strstr(t, "# TODO known failure"));
    ck_assert(strstr(t, "not ok 11 - toy/basic/xpass\n"));
    unsigned oks = 0;
    for (const char *p = t; (p = strstr(p, "\nok ")); p++) oks++;
    for (const char *p = t; (p = strstr(p, "\nnot ok ")); p++) oks++;
    /* every case, then every file problem and uncovered entry, failing */
    unsigned extra = arb_conform_ndiags(s) + (arb_conform_gated(s) ? arb_conform_uncovered(s) : 0);
    ck_assert_uint_eq(oks, arb_conform_nresults(s) + extra);
    char want[64];
    snprintf(want, sizeof want, "not ok %u - file problem: ", arb_conform_nresults(s) + 1);
    ck_assert(strstr(t, want));
    free(t);
    arb_conform_free(s);
}
END_TEST



/* Interpretation-born rule IDs: a kind="interpretation" entry is a known
 * rule ID for cases, needs its gap cited, and is coverage-gated. */
START_TEST(interpretation_entries)
{
    write_file("toy/rules.xml",
               "<?xml version=\"1.0\"?>\n"
               "<rules xmlns=\"urn:arbiter:conformance:1\" game=\"toy\" prefix=\"TOY\" rulebook=\"toy.txt\">\n"
               "  <counts entries=\"3\" rule=\"1\" rule-needing-interpretation=\"0\" informational=\"0\" interpretation=\"2\" interpretations=\"1\"/>\n"
               "  <entry id=\"TOY-TURN\" kind=\"rule\"><source file=\"toy.txt\" ref=\"L2\"/><text>turns</text><check>c</check></entry>\n"
               "  <entry id=\"TOY-ADD-MAX\" kind=\"interpretation\" gaps=\"TOY-G01\"><source file=\"i.md\" ref=\"G01\"/><text>at most 3</text><check>c</check></entry>\n"
               "  <entry id=\"TOY-NOCLOCK\" kind=\"interpretation\"><source file=\"i.md\" ref=\"added\"/><text>no clock</text><check>c</check></entry>\n"
               "  <interpretation id=\"TOY-G01\" gap=\"G01\"><reason>r</reason><adopted>a</adopted></interpretation>\n"
               "</rules>\n");
    write_file("toy/i.xml", SET_HEAD
               "  <test-case id=\"max\" covers=\"TOY-ADD-MAX TOY-TURN\" gaps=\"G01\">\n"
               "    <setup seed=\"2\"/>\n    <reject do=\"0 add 4\" rule=\"TOY-ADD-MAX\"/>\n  </test-case>\n"
               "  <test-case id=\"nogap\" covers=\"TOY-ADD-MAX\">\n"
               "    <setup seed=\"2\"/>\n    <reject do=\"0 add 5\" rule=\"TOY-ADD-MAX\"/>\n  </test-case>\n" SET_TAIL);
    arb_conform_suite *s = load(NULL);
    if (arb_conform_ndiags(s)) dump_diags(s);
    ck_assert_uint_eq(arb_conform_ndiags(s), 0);
    ck_assert_uint_eq(arb_conform_lint(s), 1);
    ck_assert(has_diag(s, "toy/i.xml:7", "covers TOY-ADD-MAX (interpretation) but cites none of its gaps"));
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    ck_assert_int_eq(result(s, "max")->status, ARB_CF_PASS);
    /* TOY-NOCLOCK has no case: uncovered, and the gate counts it */
    ck_assert_uint_eq(arb_conform_uncovered(s), 1);
    int found = 0;
    for (unsigned i = 0; i < arb_conform_nentries(s); i++) {
        const arb_conform_entry *e = arb_conform_entry_at(s, i);
        if (!strcmp(e->id, "TOY-NOCLOCK")) found = e->testable && !e->npassing;
        if (!strcmp(e->id, "TOY-ADD-MAX")) ck_assert_uint_eq(e->npassing, 2);
    }
    ck_assert(found);
    arb_conform_free(s);
}
END_TEST

/* ------------------------------------------------------------ invariants */

/* Each planted contract bug fails an otherwise passing case, naming the
 * invariant, the step and the element's line; without a bug it passes. */
START_TEST(invariants_catch_planted_bugs)
{
    write_file("toy/views.xml", "<?xml version=\"1.0\"?>\n<views xmlns=\"urn:arbiter:conformance:1\" game=\"toy\">\n"
               "  <hidden zone=\"hand\" from=\"others\" rule=\"TOY-TURN\"/>\n</views>\n");
    write_file("toy/inv.xml", SET_HEAD
               "  <test-case id=\"steps\" covers=\"TOY-TURN\">\n"
               "    <setup seed=\"2\"/>\n"
               "    <act do=\"0 add 1\"/>\n"
               "    <act do=\"0 pass\"/>\n"
               "    <reject do=\"0 add 1\" rule=\"TOY-TURN\"/>\n"
               "  </test-case>\n"
               "  <test-case id=\"listed\" covers=\"TOY-ADD-MIN\">\n"
               "    <setup seed=\"2\"/>\n"
               "    <reject do=\"0 add 2\" rule=\"TOY-ADD-MIN\"/>\n"
               "  </test-case>\n"
               "  <test-case id=\"ends\" covers=\"TOY-ADD-MAX\">\n"
               "    <setup seed=\"2\"/>\n"
               "    <act do=\"0 add 3\"/>\n"
               "    <act do=\"0 add 3\"/>\n"
               "    <act do=\"0 add 3\"/>\n"
               "    <act do=\"0 add 1\"/>\n"
               "  </test-case>\n" SET_TAIL);
    static const struct { int bug; const char *inv; int line; const char *id; } want[] = {
        { BUG_DUP_LEGAL, "invariant legal-unique: legal() lists '0 pass' twice", 4, NULL },
        { BUG_LEGAL_REJECTED, "invariant legal-accepted: legal() lists '0 add 4' but apply() rejects it", 4, NULL },
        { BUG_VIEW_LEAK, "invariant view-hidden: seat 0's view changes", 4, NULL },
        { BUG_NARRATION_LEAK, "invariant narration-hidden: seat 1 is told about seat 0's hidden 'add' event", 5, NULL },
        { BUG_DROPS, "invariant events-dropped", 4, NULL },
        { BUG_REJECT_CHANGES, "invariant reject-unchanged: rejecting '0 add 1' changed the state", 7, NULL },
        { BUG_WINNER_OPEN, "invariant outcome-open: the match goes on, yet outcome() names winner 0 and reason 0", 4, NULL },
        { BUG_TURN_BACK, "invariant turn-grows: turn() went back from 9 to 8", 6, NULL },
        { BUG_CLOCK_BELOW, "invariant decision-owed: the match goes on, yet the decision names seat 0 with -2 ms left", 4, NULL },
        { BUG_GAME_OVER_SHAPE, "invariant game-over-event: 'game-over' says seat 0, a 0, b 1, c 0; the outcome says "
          "winner 0, reason 1, turns 1", 18, "ends" },
    };
    for (unsigned k = 0; k <= sizeof want / sizeof want[0]; k++) {
        toy_bug = k ? want[k - 1].bug : BUG_NONE;
        arb_conform_options o = ARB_CONFORM_OPTIONS_INIT;
        const char *id = k && want[k - 1].id ? want[k - 1].id : "steps";
        o.case_glob = id;
        arb_conform_suite *s = load(&o);
        if (arb_conform_ndiags(s)) dump_diags(s);
        ck_assert_uint_eq(arb_conform_ndiags(s), 0);
        arb_error err = ARB_ERROR_INIT;
        ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
        const arb_conform_result *r = result(s, id);
        if (!k) {
            ck_assert_msg(r->status == ARB_CF_PASS, "no bug: %s", r->message);
        } else {
            ck_assert_msg(r->status == ARB_CF_FAIL && strstr(r->message, want[k - 1].inv),
                          "bug %d: status %s, message %s", toy_bug, arb_cf_status_name(r->status), r->message);
            ck_assert_msg(strstr(r->message, "(step "), "%s", r->message);
            ck_assert_int_eq(r->at_line, want[k - 1].line);
        }
        arb_conform_free(s);
        /* the same bug goes unnoticed with the invariants off */
        if (k && want[k - 1].bug != BUG_REJECT_CHANGES) {
            o.invariants = 0;
            s = load(&o);
            ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
            ck_assert_msg(result(s, id)->status == ARB_CF_PASS, "bug %d, no invariants: %s", toy_bug,
                          result(s, id)->message);
            arb_conform_free(s);
        }
    }
    toy_bug = BUG_NONE;
    arb_conform_options o = ARB_CONFORM_OPTIONS_INIT;
    o.case_glob = "listed";
    arb_conform_suite *s = load(&o);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    const arb_conform_result *r = result(s, "listed");
    ck_assert_msg(r->status == ARB_CF_FAIL && strstr(r->message, "invariant reject-listed: '0 add 2' is expected to be "
                                                                  "rejected but legal() lists it"), "%s", r->message);
    ck_assert_int_eq(r->at_line, 11);
    arb_conform_free(s);
}
END_TEST

/* A do= attribute cut at a byte bound mid-character stays valid UTF-8 in the
 * message and every report. */
START_TEST(utf8_cut_at_character_boundary)
{
    char set[2048], act[400];
    /* "0 x" then 150 × "é" (2 bytes each): 153 characters, 303 bytes; the
     * runner's 256-byte buffer cuts the 127th "é" in half */
    size_t k = 0;
    act[k++] = 'x';
    for (int i = 0; i < 150; i++) { act[k++] = (char)0xc3; act[k++] = (char)0xa9; }
    act[k] = '\0';
    snprintf(set, sizeof set, SET_HEAD "  <test-case id=\"u\" covers=\"TOY-TURN\">\n    <setup/>\n"
             "    <act do=\"0 %s\"/>\n  </test-case>\n" SET_TAIL, act);
    write_file("toy/utf.xml", set);
    arb_conform_options o = ARB_CONFORM_OPTIONS_INIT;
    o.case_glob = "u";
    arb_conform_suite *s = load(&o);
    ck_assert_uint_eq(arb_conform_ndiags(s), 0);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    const arb_conform_result *r = result(s, "u");
    ck_assert_int_eq(r->status, ARB_CF_ERROR);
    /* valid UTF-8: no lead byte without its continuation */
    for (const unsigned char *p = (const unsigned char *)r->message; *p; p++)
        if ((*p & 0xE0) == 0xC0) { ck_assert_msg((p[1] & 0xC0) == 0x80, "cut mid-character: %s", r->message); p++; }
    size_t len;
    char *x = report(s, arb_conform_write_junit, &len);
    xmlDocPtr doc = xmlReadMemory(x, (int)len, "junit.xml", NULL, XML_PARSE_NONET);
    ck_assert_msg(doc != NULL, "JUnit with a cut string is not well-formed");
    xmlFreeDoc(doc);
    free(x);
    arb_conform_free(s);
}
END_TEST

/* A strict little JSON syntax checker: enough to prove well-formedness. */
static const char *js_ws(const char *p) { while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++; return p; }
static const char *js_value(const char *p);
static const char *js_string(const char *p)
{
    if (*p != '"') return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') { for (int i = 0; i < 4; i++) if (!isxdigit((unsigned char)*++p)) return NULL; }
            else if (!strchr("\"\\/bfnrt", *p)) return NULL;
        }
    }
    return *p == '"' ? p + 1 : NULL;
}
static const char *js_value(const char *p)
{
    p = js_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = js_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                if (!(p = js_string(js_ws(p)))) return NULL;
                p = js_ws(p);
                if (*p++ != ':') return NULL;
            }
            if (!(p = js_value(p))) return NULL;
            p = js_ws(p);
            if (*p == close) return p + 1;
            if (*p++ != ',') return NULL;
        }
    }
    if (*p == '"') return js_string(p);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    const char *s = p;
    if (*p == '-') p++;
    while (isdigit((unsigned char)*p) || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-') p++;
    return p > s ? p : NULL;
}

START_TEST(json_well_formed)
{
    arb_conform_suite *s = run_status_set(1);
    size_t len;
    char *j = report(s, arb_conform_write_json, &len);
    const char *end = js_value(j);
    ck_assert_msg(end != NULL, "JSON does not parse");
    ck_assert(*js_ws(end) == '\0');
    ck_assert(strstr(j, "\"WRONG-RULE\":2"));
    ck_assert(strstr(j, "\"id\":\"TOY-ADD-MIN\""));
    free(j);
    arb_conform_free(s);
}
END_TEST

START_TEST(save_failing_case_as_replay)
{
    arb_conform_suite *s = run_status_set(1);
    unsigned idx = 0;
    while (strcmp(arb_conform_result_at(s, idx)->id, "assertfail") != 0) idx++;
    char path[400];
    snprintf(path, sizeof path, "%s/assertfail.tcgr", tmpdir);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_save_case(s, idx, path, &err), ARB_OK);
    arb_verify_opts vo = ARB_VERIFY_OPTS_INIT;
    vo.game = &toy_game;
    arb_verify_result res;
    int rc = arb_replay_verify_file(path, &vo, &res, &err);
    /* one action and a final checkpoint; the match is unfinished */
    ck_assert_int_eq(rc, ARB_EVERIFY);
    ck_assert_int_eq(res.kind, ARB_DIV_NO_OUTCOME);
    ck_assert_uint_eq(res.status.actions, 1);
    ck_assert_uint_eq(res.last_good_record, res.status.records);
    /* a deck case has no action log */
    while (strcmp(arb_conform_result_at(s, idx)->id, "deck-ok") != 0) idx++;
    ck_assert_int_eq(arb_conform_save_case(s, idx, path, &err), ARB_ENOTFOUND);
    arb_conform_free(s);
}
END_TEST

START_TEST(hostile_sizes_bounded)
{
    /* A file over the 4 MiB bound is refused unread, not parsed. */
    char path[400];
    snprintf(path, sizeof path, "%s/toy/big.xml", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("<?xml version=\"1.0\"?>\n<test-set xmlns=\"urn:arbiter:conformance:1\" game=\"toy\" name=\"big\">\n<!--", f);
    for (int i = 0; i < (5 << 20) / 64; i++) fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
    fputs("-->\n</test-set>\n", f);
    fclose(f);
    /* A position nested deeper than the bound is an ERROR, not a crash. */
    char deep[4096] = SET_HEAD "  <test-case id=\"deep\" covers=\"TOY-TURN\"><setup><position>";
    for (int i = 0; i < 40; i++) strcat(deep, "<a>");
    strcat(deep, "1");
    for (int i = 0; i < 40; i++) strcat(deep, "</a>");
    strcat(deep, "</position></setup></test-case>\n"
                 "  <test-case id=\"huge-repeat\" covers=\"TOY-TURN\"><setup/><act do=\"0 pass\" repeat=\"1000000000\"/></test-case>\n" SET_TAIL);
    write_file("toy/deep.xml", deep);
    arb_conform_suite *s = load(NULL);
    ck_assert(has_diag(s, "toy/big.xml", "larger than"));
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    ck_assert_int_eq(ST("deep"), ARB_CF_ERROR);
    ck_assert(strstr(result(s, "deep")->message, "deeper"));
    /* the repeat is bounded by the per-case action limit */
    ck_assert_int_eq(ST("huge-repeat"), ARB_CF_ERROR);
    ck_assert(strstr(result(s, "huge-repeat")->message, "repeat"));
    arb_conform_free(s);
}
END_TEST

START_TEST(position_values)
{
    write_file("toy/pos.xml", SET_HEAD
               "  <test-case id=\"p\" covers=\"TOY-TURN\">\n"
               "    <setup><position active=\"1\" turn=\"5\"><players><item><count>7</count></item><item count=\"-2\"/></players></position></setup>\n"
               "    <check><state path=\"players.0.count\" equals=\"7\"/><state path=\"players.1.count\" equals=\"-2\" at-most=\"-2\" at-least=\"-2\"/>\n"
               "      <decision seat=\"1\"/><turn is=\"5\"/></check>\n  </test-case>\n"
               "  <test-case id=\"q\" covers=\"TOY-TURN\">\n"
               "    <setup><position colour=\"red\"/></setup>\n    <setup-rejected where=\"colour\"/>\n  </test-case>\n"
               SET_TAIL);
    arb_conform_suite *s = load(NULL);
    arb_error err = ARB_ERROR_INIT;
    ck_assert_int_eq(arb_conform_run(s, &err), ARB_OK);
    ck_assert_msg(ST("p") == ARB_CF_PASS, "%s", result(s, "p")->message);
    ck_assert_msg(ST("q") == ARB_CF_PASS, "%s", result(s, "q")->message);
    arb_conform_free(s);
}
END_TEST

/* ------------------------------------------------------------ CLI */

/* The real binary with the real naramo engine, over a scratch suite. */
START_TEST(cli_statuses_and_exit_codes)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/schema' '%s/naramo' && cp conformance/schema/*.xsd '%s/schema/' && "
             "cp conformance/naramo/rules.xml '%s/naramo/'", tmpdir, tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    write_file("naramo/t.xml", "<?xml version=\"1.0\"?>\n"
               "<test-set xmlns=\"urn:arbiter:conformance:1\" game=\"naramo\" name=\"t\">\n"
               "  <environment name=\"full\"><position shift=\"1\" active=\"0\"><players>\n"
               "    <item><hand>[\"intern\"]</hand><roster>[\"intern\", \"intern\", \"intern\", \"intern\", \"intern\", \"intern\", \"intern\"]</roster></item>\n"
               "    <item/></players></position></environment>\n"
               "  <test-case id=\"pass-roster\" covers=\"NAR-LIMIT-ROSTER\"><setup environment=\"full\"/>\n"
               "    <reject do=\"0 play 0\" rule=\"NAR-LIMIT-ROSTER\"/></test-case>\n"
               "  <test-case id=\"wrong-roster\" covers=\"NAR-LIMIT-ROSTER\"><setup environment=\"full\"/>\n"
               "    <reject do=\"0 play 0\" rule=\"NAR-LIMIT-SITE\"/></test-case>\n"
               "  <test-case id=\"fail-core\" covers=\"NAR-LIMIT-ROSTER\"><setup environment=\"full\"/>\n"
               "    <check><state path=\"players.0.core\" equals=\"1\"/></check></test-case>\n"
               "</test-set>\n");
    char args[1200];
    snprintf(args, sizeof args, "conform '%s/naramo/t.xml' --junit '%s/j.junit'", tmpdir, tmpdir);
    cli_result *r = cli_run(args);
    ck_assert_msg(r->code == 1, "exit %d: %s%s", r->code, r->out, r->err);
    ck_assert(strstr(r->out, "PASS       naramo/t/pass-roster"));
    ck_assert(strstr(r->out, "WRONG-RULE naramo/t/wrong-roster"));
    ck_assert(strstr(r->out, "expected '0 play 0' to be rejected by NAR-LIMIT-SITE, got NAR-LIMIT-ROSTER"));
    ck_assert(strstr(r->out, "FAIL       naramo/t/fail-core"));
    ck_assert(strstr(r->out, "players.0.core: expected 1, got 1420"));
    char jp[400];
    snprintf(jp, sizeof jp, "%s/j.junit", tmpdir);
    xmlDocPtr doc = xmlReadFile(jp, NULL, XML_PARSE_NONET);
    ck_assert_ptr_nonnull(doc);
    xmlFreeDoc(doc);
    snprintf(args, sizeof args, "conform '%s/naramo/t.xml' --case 'pass-*'", tmpdir);
    ck_assert_int_eq(cli_run(args)->code, 0);
    snprintf(args, sizeof args, "conform lint '%s'", tmpdir);
    r = cli_run(args);
    ck_assert_msg(r->code == 0, "lint: %s%s", r->out, r->err);
    ck_assert_int_eq(cli_run("conform /nonexistent/suite")->code, 3);
    ck_assert_int_eq(cli_run("conform --no-such-option")->code, 2);
    ck_assert_int_eq(cli_run("conform --jobs 0")->code, 2);
    snprintf(args, sizeof args, "conform '%s/naramo/t.xml' --game narmo", tmpdir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3); /* README: unknown game is bad input */
    ck_assert(strstr(r->err, "unknown game 'narmo'"));
    snprintf(args, sizeof args, "conform '%s/naramo/t.xml' --case 'no-such-*'", tmpdir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 2);
    ck_assert(strstr(r->err, "no case matches"));
    write_file("naramo/bad.xml", "<?xml version=\"1.0\"?>\n<test-set xmlns=\"urn:arbiter:conformance:1\" game=\"naramo\" name=\"b\">\n"
               "  <test-case id=\"x\" covers=\"NAR-NO-SUCH-RULE\"><setup/>\n  <act do=\"0 fly\"/></test-case>\n</test-set>\n");
    snprintf(args, sizeof args, "conform lint '%s'", tmpdir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 1);
    ck_assert(strstr(r->err, "bad.xml:3: case x covers NAR-NO-SUCH-RULE, which is not in the naramo catalog"));
    ck_assert(strstr(r->err, "bad.xml:4: '0 fly'"));
}
END_TEST

int main(void)
{
    Suite *su = suite_create("conform");
    TCase *tc = tcase_create("conform");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, malformed_xml_names_file_and_line);
    tcase_add_test(tc, schema_violation_names_line);
    tcase_add_test(tc, doctype_entities_external_refused);
    tcase_add_test(tc, wrong_root_and_namespace);
    tcase_add_test(tc, hostile_sizes_bounded);
    tcase_add_test(tc, catalog_counts_checked);
    tcase_add_test(tc, lint_unknown_rule_ids);
    tcase_add_test(tc, statuses);
    tcase_add_test(tc, order_independent_of_jobs);
    tcase_add_test(tc, each_case_gives_start_and_script);
    tcase_add_test(tc, coverage_gate);
    tcase_add_test(tc, skip_without_engine);
    tcase_add_test(tc, junit_parses_back);
    tcase_add_test(tc, tap_shape);
    tcase_add_test(tc, json_well_formed);
    tcase_add_test(tc, position_values);
    tcase_add_test(tc, save_failing_case_as_replay);
    tcase_add_test(tc, cli_statuses_and_exit_codes);
    tcase_add_test(tc, invariants_catch_planted_bugs);
    tcase_add_test(tc, interpretation_entries);
    tcase_add_test(tc, utf8_cut_at_character_boundary);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
