/* fuzz_conform.c — libFuzzer target for the conformance XML loader and
 * runner: any byte string is loaded from memory as one suite document
 * (DOCTYPE refusal, libxml2 parse, XSD validation), linted, and when it is
 * a valid test set for a compiled-in game its cases run against the engine,
 * so hostile positions and scripts reach load_position and apply. The XSDs
 * are found from the working directory upwards (conformance/schema) or in
 * $ARBITER_SCHEMA. Built and run by `make fuzz`; seeds in
 * tests/fuzz/corpus_conform/. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "arbiter/arbiter.h"
#include "arbiter/conform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *schema_dir(void)
{
    static char dir[512];
    if (dir[0]) return dir;
    const char *env = getenv("ARBITER_SCHEMA");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    static const char *const tries[] = { "conformance/schema", "../conformance/schema", "../../conformance/schema",
                                          "../../../conformance/schema" };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        char probe[600];
        struct stat st;
        snprintf(probe, sizeof probe, "%s/conformance.xsd", tries[i]);
        if (stat(probe, &st) == 0) {
            snprintf(dir, sizeof dir, "%s", tries[i]);
            return dir;
        }
    }
    fprintf(stderr, "fuzz_conform: no conformance/schema found; set ARBITER_SCHEMA\n");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    arb_conform_options opt = ARB_CONFORM_OPTIONS_INIT;
    opt.schema_dir = schema_dir();
    opt.replay_check = 0; /* no temporary files per input */
    arb_conform_suite *s = NULL;
    arb_error err = ARB_ERROR_INIT;
    if (arb_conform_load_mem(&s, "fuzz.xml", data, size, &opt, &err) != ARB_OK) return 0;
    arb_conform_lint(s);
    if (arb_conform_ncases(s) > 0 && arb_conform_run(s, &err) == ARB_OK) {
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) {
            arb_conform_write_junit(s, devnull);
            arb_conform_write_json(s, devnull);
            fclose(devnull);
        }
    }
    arb_conform_free(s);
    return 0;
}
