#!/usr/bin/env bash
# usage: perf/record.sh ID [--out DIR]
set -euo pipefail

usage() {
    cat <<'EOF'
usage: perf/record.sh ID [--out DIR]

Profiles target/release/podium on case ID of any problem (ids as in perf/stat.sh --help:
cg03, icfp2015/N, slider/SEED, tetromino/N/SIGNATURE, bananagrams/LETTERS) and writes to DIR
(default target/perf/ID with '/' as '_'):
  report.txt     `perf report --stdio --no-children` (top 60 lines) of a cpu-clock sampling
                 profile with DWARF call graphs (a software event: no hardware counters needed)
  flame.svg      flame graph, if inferno is installed (cargo install inferno)
  callgrind.txt  `callgrind_annotate` of an exact valgrind callgrind run (works everywhere)
  perf.data, callgrind.out  the raw data; command.txt the podium command profiled
  podium         the profiled copy of the binary (objcopy rewrite, so perf can read its symbols)
EOF
}

cd "$(dirname "$0")/.."
# shellcheck source=cases.lib.sh
source perf/cases.lib.sh
bin=target/release/podium
id=""
out=""
while (($#)); do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        --out)
            [[ -n ${2:-} ]] || { usage >&2; exit 2; }
            out=$2
            shift
            ;;
        -*)
            usage >&2
            exit 2
            ;;
        *)
            [[ -z $id ]] || { usage >&2; exit 2; }
            id=$1
            ;;
    esac
    shift
done
[[ -n $id ]] || { usage >&2; exit 2; }
out=${out:-target/perf/${id//\//_}}

mkdir -p "$out"
resolve_case "$id" "$out" || exit 2
printf '%q ' podium "${case_args[@]}" >"$out/command.txt"
echo >>"$out/command.txt"

if [[ ! -x $bin ]]; then
    echo "record.sh: $bin missing; building it" >&2
    cargo build --release >&2
elif [[ -n $(find src tables Cargo.toml build.rs -newer "$bin" -print -quit 2>/dev/null) ]]; then
    echo "record.sh: warning: $bin is older than the sources; run 'cargo build --release'" >&2
fi

status=0
got=$("$bin" "${case_args[@]}") || status=$?
[[ " $case_exits " == *" $status "* ]] || echo "record.sh: warning: $bin exited with status $status" >&2
[[ -z $case_expected || $got == "$case_expected" ]] ||
    echo "record.sh: warning: answer '$got', expected '$case_expected'" >&2

# Debian's perf 6.1 cannot read the symbols of executables linked by rust-lld ("symsrc__init:
# cannot get elf header"); an objcopy rewrite of the file (same code and load addresses) it can.
profiled=$bin
if command -v objcopy >/dev/null && objcopy "$bin" "$out/podium" 2>/dev/null; then
    profiled=$out/podium
fi

if ! command -v perf >/dev/null; then
    echo "perf not installed (apt-get install linux-perf); skipping perf record"
elif perf record -q -e cpu-clock -F 4999 -g --call-graph dwarf -o "$out/perf.data" \
    -- "$profiled" "${case_args[@]}" >/dev/null 2>"$out/perf-record.log" ||
    [[ -s $out/perf.data ]]; then
    (perf report -i "$out/perf.data" --stdio --no-children 2>/dev/null || true) | head -60 >"$out/report.txt"
    echo "wrote $out/report.txt"
    if command -v inferno-collapse-perf >/dev/null && command -v inferno-flamegraph >/dev/null; then
        perf script -i "$out/perf.data" 2>/dev/null | inferno-collapse-perf |
            inferno-flamegraph --title "podium ${case_args[0]} $id" >"$out/flame.svg"
        echo "wrote $out/flame.svg"
    else
        echo "no flame graph: inferno not installed (cargo install inferno)"
    fi
else
    echo "perf record failed (see $out/perf-record.log); skipping perf report"
fi

if command -v valgrind >/dev/null; then
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
        "$bin" "${case_args[@]}" >/dev/null 2>"$out/callgrind.log" || true
    if [[ -s $out/callgrind.out ]]; then
        callgrind_annotate --auto=no "$out/callgrind.out" >"$out/callgrind.txt"
        echo "wrote $out/callgrind.txt"
        sed -n 's/.*Collected : *\([0-9]*\).*/instructions: \1/p' "$out/callgrind.log"
    fi
else
    echo "valgrind not installed (apt-get install valgrind); no callgrind profile"
fi
