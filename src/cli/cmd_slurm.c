/* cmd_slurm.c — `arbiter slurm-script`: print the ready sbatch job scripts
 * that run bulk verification (or sharded self-play) as a Slurm job array.
 * The script text lives here so that the binary, `make install` (which
 * writes it to PREFIX/share/arbiter/) and the README never disagree. */
#include <string.h>

#include "cli/cli.h"

static const char verify_script[] =
    "#!/bin/bash\n"
    "# arbiter-verify.sbatch — verify a season of .tcgr replays as a Slurm job\n"
    "# array. Each task verifies every T-th entry of the manifest (one absolute\n"
    "# path per line), so at most ~1000 tasks cover any manifest size, and writes\n"
    "# OUTDIR/shard-K.ndjson (one JSON result per file, then a shard_done line).\n"
    "# Per-file failures are data: a task fails only if it could not run.\n"
    "#\n"
    "#   n=$(grep -cv '^[[:space:]]*\\(#\\|$\\)' season.manifest)\n"
    "#   T=$(( n < 1000 ? n : 1000 ))\n"
    "#   sbatch --array=0-$((T - 1)) arbiter-verify.sbatch season.manifest results/\n"
    "#   squeue -h -j JOBID          # empty once every task has finished\n"
    "#   arbiter merge -o results/merged.ndjson results/shard-*.ndjson\n"
    "#   arbiter stats results/merged.ndjson\n"
    "#\n"
    "# ARBITER (environment) names the binary when it is not on PATH.\n"
    "#SBATCH --job-name=arbiter-verify\n"
    "#SBATCH --ntasks=1\n"
    "#SBATCH --cpus-per-task=1\n"
    "#SBATCH --output=arbiter-verify-%A_%a.log\n"
    "set -euo pipefail\n"
    "manifest=${1:?usage: sbatch --array=0-(T-1) arbiter-verify.sbatch MANIFEST OUTDIR}\n"
    "outdir=${2:?usage: sbatch --array=0-(T-1) arbiter-verify.sbatch MANIFEST OUTDIR}\n"
    "arbiter=${ARBITER:-arbiter}\n"
    ": \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array}\"\n"
    "mkdir -p \"$outdir\"\n"
    "part=\"$outdir/.shard-$SLURM_ARRAY_TASK_ID.ndjson.part\"\n"
    "# Exit 0 once the shard ran, whatever the files say (see verify --help).\n"
    "\"$arbiter\" verify --manifest \"$manifest\" --shard slurm --json \\\n"
    "    --jobs \"${SLURM_CPUS_PER_TASK:-1}\" > \"$part\"\n"
    "mv \"$part\" \"$outdir/shard-$SLURM_ARRAY_TASK_ID.ndjson\"\n";

static const char play_script[] =
    "#!/bin/bash\n"
    "# arbiter-play.sbatch — a self-play corpus as a Slurm job array. Match I of\n"
    "# M has the seed SplitMix64(BASE + I) whichever task plays it, so the union\n"
    "# of the tasks' outputs equals a one-machine `arbiter play --games M`.\n"
    "#\n"
    "#   sbatch --array=0-$((T - 1)) arbiter-play.sbatch GAME M BASE OUTDIR [AGENTS]\n"
    "#SBATCH --job-name=arbiter-play\n"
    "#SBATCH --ntasks=1\n"
    "#SBATCH --output=arbiter-play-%A_%a.log\n"
    "set -euo pipefail\n"
    "game=${1:?usage: GAME M BASE OUTDIR [AGENTS]}; m=${2:?}; base=${3:?}; outdir=${4:?}\n"
    "agents=${5:-random}\n"
    "arbiter=${ARBITER:-arbiter}\n"
    "mkdir -p \"$outdir\"\n"
    "\"$arbiter\" play --game \"$game\" --games \"$m\" --seed \"$base\" --shard slurm \\\n"
    "    --agents \"$agents\" --json -o \"$outdir\" > \"$outdir/play-$SLURM_ARRAY_TASK_ID.ndjson\"\n";

static const char crosscheck_script[] =
    "#!/bin/bash\n"
    "# arbiter-crosscheck.sbatch — differential play of an engine adapter against\n"
    "# the built-in engine as a Slurm job array. Match I of M has the seed\n"
    "# SplitMix64(BASE + I) whichever task plays it, so the tasks together check\n"
    "# exactly the matches of one-machine `arbiter crosscheck --games M`. Each\n"
    "# task writes OUTDIR/crosscheck-K.json (its summary) and, on a divergence,\n"
    "# OUTDIR/repro-K.tcgr and the report in its log. A divergence is data\n"
    "# (\"divergences\":1); a task fails only when it could not run.\n"
    "#\n"
    "#   sbatch --array=0-$((T - 1)) arbiter-crosscheck.sbatch GAME M BASE OUTDIR 'ENGINE CMD'\n"
    "#SBATCH --job-name=arbiter-crosscheck\n"
    "#SBATCH --ntasks=1\n"
    "#SBATCH --output=arbiter-crosscheck-%A_%a.log\n"
    "set -euo pipefail\n"
    "game=${1:?usage: GAME M BASE OUTDIR ENGINE}; m=${2:?}; base=${3:?}; outdir=${4:?}; engine=${5:?}\n"
    "arbiter=${ARBITER:-arbiter}\n"
    ": \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array}\"\n"
    "mkdir -p \"$outdir\"\n"
    "part=\"$outdir/.crosscheck-$SLURM_ARRAY_TASK_ID.json.part\"\n"
    "rc=0\n"
    "\"$arbiter\" crosscheck --engine \"$engine\" --game \"$game\" --games \"$m\" --seed \"$base\" \\\n"
    "    --shard slurm --json --repro \"$outdir/repro-$SLURM_ARRAY_TASK_ID.tcgr\" > \"$part\" || rc=$?\n"
    "[ \"$rc\" -le 1 ] || exit \"$rc\"\n"
    "mv \"$part\" \"$outdir/crosscheck-$SLURM_ARRAY_TASK_ID.json\"\n";

static const char *const slurm_usage[] = { "slurm-script [verify|play|crosscheck]", NULL };
static const cli_opt slurm_opts[] = { CLI_OPT_END };
const cli_spec cli_spec_slurm_script = {
    .name = "slurm-script",
    .summary = "print the sbatch job script for bulk verification",
    .usage = slurm_usage,
    .description =
        "Print a ready sbatch script: 'verify' (default) verifies the files of a\n"
        "manifest as a job array of at most ~1000 tasks and writes NDJSON shards\n"
        "for `arbiter merge`; 'play' records a sharded self-play corpus;\n"
        "'crosscheck' runs a sharded `arbiter crosscheck` of an engine adapter.\n"
        "`make install` also writes them to PREFIX/share/arbiter/.\n",
    .opts = slurm_opts,
    .exit = "0 printed; 2 usage (unknown script name).",
    .run = cmd_slurm_script,
};

int cmd_slurm_script(int argc, char **argv)
{
    const char *which = "verify";
    cli_parser p;
    cli_parse_init(&p, &cli_spec_slurm_script, argc, argv);
    int c = cli_next(&p);
    if (c < 0) return p.rc;
    if (c > 0) return cli_unhandled(&p);
    for (int i = 0; i < p.npos; i++) {
        if (strcmp(p.pos[i], "verify") && strcmp(p.pos[i], "play") && strcmp(p.pos[i], "crosscheck"))
            return cli_usage("slurm-script", "unknown script '%s' (verify, play or crosscheck)", cli_esc(p.pos[i]));
        which = p.pos[i];
    }
    fputs(strcmp(which, "play") == 0 ? play_script : strcmp(which, "crosscheck") == 0 ? crosscheck_script
                                                                                       : verify_script, stdout);
    return EXIT_OK;
}
