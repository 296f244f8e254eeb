#!/bin/sh
# Runs `podium bench --json` split into N shards with GNU parallel (local cores, or the hosts of
# SSHLOGIN), one file per shard, then joins them and names any missing case and its shard.
#
#   deploy/parallel.sh N OUTDIR [bench args...]             # e.g. 4 runs/ --problem slider
#   SSHLOGIN=8/host1,8/host2 deploy/parallel.sh N OUTDIR ...  # the same on ssh hosts
#   ONLY="1 3" deploy/parallel.sh N OUTDIR ...                # re-run only these shards
#   ONLY=none deploy/parallel.sh N OUTDIR                     # only join what is there
#
# Environment: PODIUM (the binary, default `podium`; on ssh hosts it must be on their PATH),
# JOBS (shards at once per host, default: one per core), EXPECT (a whole run's JSON lines: the
# join must hold its cases), SSHLOGIN (GNU parallel --sshlogin hosts).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 N OUTDIR [podium bench args...]" >&2
    exit 2
fi
n=$1
out=$2
shift 2
podium=${PODIUM:-podium}
mkdir -p "$out"
shards=${ONLY:-$(seq 0 $((n - 1)))}
args=""
for a in "$@"; do args="$args '$a'"; done
# --results FILE: each shard's stdout lands in its own local file, also from ssh hosts.
# shellcheck disable=SC2086
[ "$shards" = none ] || printf '%s\n' $shards | parallel --jobs "${JOBS:-100%}" --halt never \
    ${SSHLOGIN:+--sshlogin "$SSHLOGIN"} --joblog "$out/joblog" \
    --results "$out/shard-{}.jsonl" \
    "$podium bench --json --quiet --shard {}/$n $args" >/dev/null || true
exec "$podium" best runs "$out"/shard-*.jsonl --shards "$n" --out "$out/run.jsonl" \
    ${EXPECT:+--expect "$EXPECT"}
