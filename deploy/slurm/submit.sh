#!/bin/sh
# Submits N shards of `podium bench --json` as a Slurm job array and a merge job that waits for
# the whole array; prints the merge job's id.
#
#   deploy/slurm/submit.sh N OUTDIR [bench args...]
#   ARRAY=3 deploy/slurm/submit.sh N OUTDIR ...   # re-run shard 3 only, then merge again
set -eu
n=$1
out=$(cd "$2" 2>/dev/null && pwd || (mkdir -p "$2" && cd "$2" && pwd))
shift 2
here=$(dirname "$0")
export OUT="$out" SHARDS="$n" BENCH_ARGS="$*"
array=$(sbatch --parsable --export=ALL --array="${ARRAY:-0-$((n - 1))}" "$here/bench-array.sbatch")
sbatch --parsable --export=ALL --dependency="afterany:$array" --chdir="$out" "$here/merge.sbatch"
