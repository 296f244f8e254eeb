#!/usr/bin/env bash
# usage: perf/cephalopod_start.sh [RUNS] -- COMMAND...   (e.g. -- target/release/podium cephalopod)
# Whole-process wall time of COMMAND CASEFILE on cg01..cg06 against an empty Rust `main`, all in
# one hyperfine run (-N, medians): prints each case's median, cg03's ratio to the empty main and
# the six cases' sum against six empty mains (issue #19's targets: 1.3x and 1.5x).
set -euo pipefail
runs=${1:-300}
shift
[[ ${1:-} == -- ]] && shift
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'fn main() {}\n' >"$dir/empty.rs"
rustc -O "$dir/empty.rs" -o "$dir/empty"
commands=("$dir/empty")
for i in 01 02 03 04 05 06; do
    perf/case.sh "cg$i" "$dir/cg$i"
    commands+=("$* $dir/cg$i")
done
hyperfine -N --warmup 20 --runs "$runs" --export-json "$dir/times.json" "${commands[@]}" >/dev/null 2>"$dir/hyperfine.err"
python3 - "$dir/times.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
medians = [statistics.median(r["times"]) * 1e3 for r in results]
empty = medians[0]
print(f"empty main      {empty:.3f} ms")
for i, m in enumerate(medians[1:], 1):
    print(f"cg{i:02}            {m:.3f} ms  ({m / empty:.2f}x empty)")
six = sum(medians[1:])
print(f"cg03 / empty    {medians[3] / empty:.2f}x   (target <= 1.3)")
print(f"cg01..06 / 6 empty  {six:.3f} / {6 * empty:.3f} ms = {six / (6 * empty):.2f}x   (target <= 1.5)")
PY
