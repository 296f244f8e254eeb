#!/usr/bin/env bash
# usage: perf/stat.sh [--runs N] [--no-callgrind] ID|GROUP [ID|GROUP...]
set -euo pipefail

usage() {
    cat <<'EOF'
usage: perf/stat.sh [--runs N] [--no-callgrind] ID|GROUP [ID|GROUP...]

For each case of any problem: runs target/release/podium on it and checks the answer, prints
`perf stat` counters (software events; hardware ones too where the machine has them), then a
table of answer check, exact instruction count (valgrind callgrind), peak RSS and median wall
time of N runs (default 5; hyperfine if installed). Groups get a total row.
Case ids (perf/cases.lib.sh): cephalopod `cg03` or `gen09_play`; `icfp2015/N` (played for
$PODIUM_PERF_SECONDS, default 5); `slider/SEED`; `tetromino/N/SIGNATURE`;
`bananagrams/LETTERS`. Groups: `cg` = cg01..cg12, `gen` = data/cephalopod/generated.tsv,
`tetromino` = the contest server's signatures.
The answer column: cephalopod answers are compared with the expected ones; the other solvers
check their own output before printing it, so a run is `ok` when it exits with a decided code.
Exit status 1 if any answer is wrong, 2 for bad arguments or an unknown id.
EOF
}

cd "$(dirname "$0")/.."
# shellcheck source=cases.lib.sh
source perf/cases.lib.sh
bin=target/release/podium
runs=5
callgrind=1
ids=()
while (($#)); do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        --runs)
            [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { usage >&2; exit 2; }
            runs=$2
            shift
            ;;
        --no-callgrind) callgrind=0 ;;
        -*)
            usage >&2
            exit 2
            ;;
        *) mapfile -t -O "${#ids[@]}" ids < <(expand_case_ids "$1") ;;
    esac
    shift
done
if ((${#ids[@]} == 0)); then
    usage >&2
    exit 2
fi

if [[ ! -x $bin ]]; then
    echo "stat.sh: $bin missing; building it" >&2
    cargo build --release >&2
elif [[ -n $(find src tables Cargo.toml build.rs -newer "$bin" -print -quit 2>/dev/null) ]]; then
    echo "stat.sh: warning: $bin is older than the sources; run 'cargo build --release'" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for id in "${ids[@]}"; do
    resolve_case "$id" "$tmp" || exit 2
done

# --- which tools work here ------------------------------------------------------------------
perf_events=""
if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then
    perf_events=task-clock,page-faults,context-switches,cpu-migrations
    # `perf stat` exits 0 even when it prints "<not supported>" instead of a count.
    hw_probe=$(perf stat -x, -e instructions true 2>&1 >/dev/null || true)
    if grep -Eq '^[0-9]+,.*instructions' <<<"$hw_probe"; then
        perf_events+=,instructions,cycles,branch-misses,cache-misses
    else
        echo "hardware counters not supported on this machine; software counters only"
    fi
else
    echo "perf not available (apt-get install linux-perf); skipping perf stat"
fi

if ((callgrind)) && ! command -v valgrind >/dev/null; then
    echo "valgrind not installed (apt-get install valgrind); no instruction counts"
    callgrind=0
fi

gnu_time=""
if [[ -x /usr/bin/time ]] && /usr/bin/time -v true >/dev/null 2>&1; then
    gnu_time=/usr/bin/time
elif command -v apt-get >/dev/null && ((EUID == 0)) && echo "installing GNU time (apt-get install time)" &&
    apt-get install -y -qq time >/dev/null 2>&1 && [[ -x /usr/bin/time ]]; then
    gnu_time=/usr/bin/time
else
    # A wrapper's own RSS leaks into its child's ru_maxrss through fork, so without the small
    # GNU time there is no trustworthy peak to show.
    echo "GNU time not available (apt-get install time); no peak RSS"
fi

have_hyperfine=0
if command -v hyperfine >/dev/null && command -v python3 >/dev/null; then
    have_hyperfine=1
fi

# --- measurements ---------------------------------------------------------------------------
perf_stat_line() {
    local id=$1 csv
    resolve_case "$id" "$tmp"
    # perf stat exits with the program's status; a proven-impossible case (3) still counts.
    perf stat -x, -o "$tmp/perf.csv" -e "$perf_events" -- "$bin" "${case_args[@]}" >/dev/null 2>&1 || true
    csv=$(cat "$tmp/perf.csv" 2>/dev/null)
    grep -q ',task-clock' <<<"$csv" || { echo "  perf stat $id: failed"; return; }
    # CSV fields: value,unit,event,...
    awk -F, -v id="$id" '
        NF >= 3 && $3 != "" {
            v = $1; unit = $2
            if ($3 == "task-clock" && unit == "msec") { v = sprintf("%.2f", v); unit = " ms" }
            else if (unit != "") unit = " " unit
            out = out sprintf("%s%s %s%s", sep, $3, v, unit); sep = ", "
        }
        END { printf "  perf stat %s: %s\n", id, out }' <<<"$csv"
}

instructions() {
    local id=$1 log n
    resolve_case "$id" "$tmp"
    log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "${case_args[@]}" 2>&1 >/dev/null) || true
    n=$(sed -n 's/.*Collected : *\([0-9][0-9]*\).*/\1/p' <<<"$log" | head -1)
    [[ -n $n ]] || n=$(sed -n 's/.*I *refs: *\([0-9,][0-9,]*\).*/\1/p' <<<"$log" | head -1 | tr -d ,)
    echo "${n:--}"
}

peak_rss_kib() {
    local id=$1 report
    resolve_case "$id" "$tmp"
    if [[ -n $gnu_time ]]; then
        report=$("$gnu_time" -v "$bin" "${case_args[@]}" 2>&1 >/dev/null) || true
        sed -n 's/.*Maximum resident set size (kbytes): *\([0-9]*\).*/\1/p' <<<"$report" | head -1
    else
        echo "-"
    fi
}

wall_ms() {
    local id=$1 i start end key=${1//\//_}
    resolve_case "$id" "$tmp"
    if ((have_hyperfine)); then
        # -i: a proven-impossible tetromino or bananagrams case exits 3 and is still a run.
        if hyperfine -N -i --style none --warmup 1 --runs "$runs" --export-json "$tmp/$key.json" \
            -- "$(printf '%q ' "$bin" "${case_args[@]}")" >/dev/null 2>&1; then
            python3 -c 'import json, sys
print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$tmp/$key.json" &&
                return
        fi
    fi
    local times=()
    for ((i = 0; i < runs; i++)); do
        start=$(date +%s%N)
        "$bin" "${case_args[@]}" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        times+=($((end - start)))
    done
    printf '%s\n' "${times[@]}" | sort -n |
        awk '{ t[NR] = $1 } END { m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "%.2f\n", m / 1e6 }'
}

rows=()
wrong=0
for id in "${ids[@]}"; do
    key=${id//\//_}
    resolve_case "$id" "$tmp"
    status=0
    got=$("$bin" "${case_args[@]}" 2>"$tmp/$key.err") || status=$?
    if [[ " $case_exits " != *" $status "* ]]; then
        rows+=("$id	FAIL(exit $status)	-	-	-")
        wrong=1
        sed 's/^/  stderr: /' "$tmp/$key.err" | head -5
        continue
    fi
    if [[ -z $case_expected || $got == "$case_expected" ]]; then
        ok=ok
        ((status == 0)) || ok="ok(exit $status)"
    else
        got=${got//$'\n'/ }
        ok="WRONG(${got:0:24}!=$case_expected)"
        wrong=1
    fi
    [[ -z $perf_events ]] || perf_stat_line "$id"
    insns=-
    ((callgrind)) && insns=$(instructions "$id")
    rss=$(peak_rss_kib "$id")
    rows+=("$id	$ok	$insns	${rss:--}	$(wall_ms "$id")")
done

{
    printf 'id\tanswer\tinstructions\tpeak_rss_KiB\twall_ms(median of %s)\n' "$runs"
    printf '%s\n' "${rows[@]}"
    if ((${#ids[@]} > 1)); then
        printf '%s\n' "${rows[@]}" | awk -F'\t' '
            { ok += ($2 ~ /^ok/); if ($3 == "-") unknown = 1; else insns += $3
              if ($4 != "-" && $4 + 0 > rss) rss = $4 + 0; wall += $5 }
            END { printf "total(%d)\t%d/%d ok\t%s\tmax %d\t%.2f\n", NR, ok, NR,
                  unknown ? "-" : sprintf("%.0f", insns), rss, wall }'
    fi
} | awk -F'\t' '
    { for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NF }
    END { for (r = 1; r <= NR; r++) { line = sprintf("%-" w[1] "s", cell[r, 1])
            for (i = 2; i <= n; i++) line = line sprintf(i == 2 ? "  %-" w[i] "s" : "  %" w[i] "s", cell[r, i])
            print line } }'

exit "$wrong"
