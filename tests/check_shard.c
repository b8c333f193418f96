/* check_shard.c — bulk work across machines: `play --games --shard` unions
 * to the one-machine run, `verify --manifest --shard` partitions a
 * manifest, and `merge` reports totals, failures, missing and duplicated
 * shards and entries; `stats` reads merged results. Runs the real binary. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arbiter/arbiter.h"
#include "cli_run.h"

static char dir[] = "/tmp/arb-shard-XXXXXX";
static const char *game;

static void sh(const char *fmt, const char *a)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, fmt, a, a, a, a);
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

static void setup_corpus(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    game = arb_game_at(0)->id;
    char args[1024];
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    snprintf(args, sizeof args, "play --game %s --games 7 --seed 11 -o %s/all", game, dir);
    ck_assert_int_eq(cli_run(args)->code, 0);
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "play --game %s --games 7 --seed 11 --shard %d/3 -o %s/sharded", game, k, dir);
        ck_assert_int_eq(cli_run(args)->code, 0);
    }
    sh("ls %s/all/*.tcgr > %s/manifest && echo '# a comment' >> %s/manifest && echo >> %s/manifest", dir);
}

static void teardown_corpus(void)
{
    sh("rm -rf %s", dir);
}

START_TEST(play_shards_union_to_one_machine_run)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && ls all | wc -l | grep -qx 7 && diff -r all sharded >/dev/null", dir);
    ck_assert_msg(system(cmd) == 0, "sharded self-play differs from the one-machine run");
}
END_TEST

START_TEST(verify_manifest_shards_partition)
{
    char args[1024];
    int seen[7] = { 0 };
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "verify --manifest %s/manifest --shard %d/3 --json", dir, k);
        cli_result *r = cli_run(args);
        ck_assert_int_eq(r->code, 0);
        char *p = r->out;
        int lines = 0;
        while ((p = strstr(p, "\"index\":")) != NULL) {
            int i = atoi(p + 8);
            ck_assert_int_eq(i % 3, k);
            ck_assert_int_lt(i, 7);
            seen[i]++;
            lines++;
            p += 8;
        }
        ck_assert_int_eq(lines, k == 0 ? 3 : 2);
        ck_assert_ptr_nonnull(strstr(r->out, "\"shard_done\":{"));
        ck_assert_ptr_nonnull(strstr(r->out, "\"manifest_entries\":7"));
    }
    for (int i = 0; i < 7; i++) ck_assert_int_eq(seen[i], 1);
}
END_TEST

START_TEST(shard_usage_errors)
{
    char args[1024];
    static const char *bad[] = { "3/3", "1", "a/b", "-1/2", "0/0", "1/2000000" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "verify --manifest %s/manifest --shard %s", dir, bad[i]);
        ck_assert_msg(cli_run(args)->code == 2, "--shard %s accepted", bad[i]);
    }
    snprintf(args, sizeof args, "verify --shard 0/2 %s/all/x.tcgr", dir);
    ck_assert_int_eq(cli_run(args)->code, 2);
    unsetenv("SLURM_ARRAY_TASK_ID");
    snprintf(args, sizeof args, "verify --manifest %s/manifest --shard slurm", dir);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 2);
    ck_assert_ptr_nonnull(strstr(r->err, "SLURM_ARRAY_TASK_ID"));
    snprintf(args, sizeof args, "SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=3 %s verify "
             "--manifest %s/manifest --shard slurm --json",
             getenv("ARBITER") ? getenv("ARBITER") : "build/arbiter", dir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s | grep -q '\"shard_done\":{\"k\":1,\"n\":3'", args);
    ck_assert_msg(system(cmd) == 0, "--shard slurm did not take K and N from the environment");
    snprintf(args, sizeof args, "verify --manifest %s/nope.manifest", dir);
    ck_assert_int_eq(cli_run(args)->code, 3);
}
END_TEST

START_TEST(merge_reports_failures_missing_and_duplicates)
{
    char args[2048];
    /* A tampered copy: the final hash byte flipped inside the stream. */
    /* (a range-coded body, FORMAT.md Part D, is decoded with tcgr_dump.py
     * and written back as zlib, flag bit 2 and the primer byte cleared) */
    sh("R=$(pwd) && cd %s && f=$(head -n1 manifest) && R=$R python3 -c \"import os,sys,zlib; "
       "sys.path.insert(0,os.environ['R']+'/replays'); import tcgr_dump as T; r=open(sys.argv[1],'rb').read(); "
       "b=bytearray(T.file_content(r)); "
       "b[-1]^=0x55; "
       "open(sys.argv[2],'wb').write(r[:5]+bytes([r[5]&0xfb,0])+r[7:8]+zlib.compress(bytes(b)))\" $f %s/bad.tcgr && "
       "(cat manifest; echo %s/bad.tcgr) > m2", dir);
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "%s verify --manifest %s/m2 --shard %d/2 --json > %s/s%d.ndjson",
                 getenv("ARBITER") ? getenv("ARBITER") : "build/arbiter", dir, k, dir, k);
        ck_assert_int_eq(system(args), 0);
    }
    snprintf(args, sizeof args, "merge --json -o %s/merged.ndjson %s/s0.ndjson %s/s1.ndjson", dir, dir, dir);
    cli_result *r = cli_run(args);
    ck_assert_int_eq(r->code, 1);
    ck_assert_ptr_nonnull(strstr(r->out, "\"complete\":true"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"files\":8,\"ok\":7,\"failed\":1"));
    ck_assert_ptr_nonnull(strstr(r->out, "bad.tcgr: diverged (final-hash)"));
    /* -o: every result once, renamed into place (no .part left) */
    snprintf(args, sizeof args, "test $(wc -l < %s/merged.ndjson) -eq 8 && test ! -e %s/merged.ndjson.part", dir, dir);
    ck_assert_msg(system(args) == 0, "merge -o: %s", args);
    /* -o onto a directory is refused, never replaced */
    snprintf(args, sizeof args, "merge -o %s %s/s0.ndjson %s/s1.ndjson", dir, dir, dir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->err, "not a regular file"));

    /* One shard missing, one given twice. */
    snprintf(args, sizeof args, "merge --json %s/s1.ndjson %s/s1.ndjson", dir, dir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->out, "\"complete\":false"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"missing\":[0]"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"missing\":[0,2,4,6]"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"duplicated\":[1,3,5,7]"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"duplicated\":1}"));

    /* A shard cut short (no shard_done line) is incomplete. */
    sh("head -n 2 %s/s0.ndjson > %s/cut.ndjson", dir);
    snprintf(args, sizeof args, "merge %s/cut.ndjson %s/s1.ndjson", dir, dir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->out, "MISSING 1 shard(s)"));

    /* Malformed input names file:line. */
    sh("(head -n 1 %s/s0.ndjson; echo '{\"file\": oops}') > %s/junk.ndjson", dir);
    snprintf(args, sizeof args, "merge %s/junk.ndjson", dir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 3);
    ck_assert_ptr_nonnull(strstr(r->err, "junk.ndjson:2"));

    /* stats reads the merged results. */
    snprintf(args, sizeof args, "stats --json %s/merged.ndjson", dir);
    r = cli_run(args);
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "\"matches\":8"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"unverified\":1"));
    ck_assert_ptr_nonnull(strstr(r->out, "\"from_results\":8"));
}
END_TEST

START_TEST(slurm_script_is_shipped)
{
    cli_result *r = cli_run("slurm-script");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "#SBATCH"));
    ck_assert_ptr_nonnull(strstr(r->out, "--shard slurm"));
    r = cli_run("slurm-script play");
    ck_assert_int_eq(r->code, 0);
    ck_assert_ptr_nonnull(strstr(r->out, "--games"));
    ck_assert_int_eq(cli_run("slurm-script nope")->code, 2);
}
END_TEST

int main(void)
{
    if (arb_game_count() == 0) return EXIT_SUCCESS; /* nothing to shard */
    Suite *s = suite_create("shard");
    TCase *t = tcase_create("bulk");
    tcase_add_unchecked_fixture(t, setup_corpus, teardown_corpus);
    tcase_add_test(t, play_shards_union_to_one_machine_run);
    tcase_add_test(t, verify_manifest_shards_partition);
    tcase_add_test(t, shard_usage_errors);
    tcase_add_test(t, merge_reports_failures_missing_and_duplicates);
    tcase_add_test(t, slurm_script_is_shipped);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
