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

int cmd_slurm_script(int argc, char **argv)
{
    const char *which = "verify";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: arbiter slurm-script [verify|play]\n"
                   "\n"
                   "Print a ready sbatch script: 'verify' (default) verifies the files of a\n"
                   "manifest as a job array of at most ~1000 tasks and writes NDJSON shards\n"
                   "for `arbiter merge`; 'play' records a sharded self-play corpus.\n"
                   "`make install` also writes them to PREFIX/share/arbiter/.\n"
                   "\n"
                   "Exit: 0 printed; 2 usage (unknown script name).\n");
            return EXIT_OK;
        }
        if (strcmp(argv[i], "verify") && strcmp(argv[i], "play"))
            return cli_usage("slurm-script", "unknown script '%s' (verify or play)", argv[i]);
        which = argv[i];
    }
    fputs(strcmp(which, "play") == 0 ? play_script : verify_script, stdout);
    return EXIT_OK;
}
