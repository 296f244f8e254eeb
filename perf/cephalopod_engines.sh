#!/usr/bin/env bash
# usage: perf/cephalopod_engines.sh BINARY ENGINE [ID...]
# Exact whole-process instruction counts (valgrind callgrind) of BINARY's `cephalopod --engine
# ENGINE` on each case (default: every case of data/cephalopod/{cases,generated}.tsv), two at a
# time; prints `id <TAB> instructions <TAB> ok|WRONG` per case. Cases ending in .txt are files.
set -euo pipefail
bin=$1
engine=$2
shift 2
cd "$(dirname "$0")/.."
if (($# == 0)); then
    set -- $(awk -F'\t' '!/^#/ { print $1 }' data/cephalopod/cases.tsv data/cephalopod/generated.tsv)
fi
dir=$(mktemp -d)
one() {
    local id=$1 file expected
    if [[ $id == *.txt ]]; then
        file=$id
        expected=$(sed -n 5p "$id")
    else
        file=$dir/$id
        perf/case.sh "$id" "$file"
        expected=$(perf/case.sh --expected "$id")
    fi
    local got
    got=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" cephalopod "$file" \
        --engine "$engine" 2>"$dir/$(basename "$id").err")
    local n
    n=$(grep -o 'Collected : [0-9]*' "$dir/$(basename "$id").err" | grep -o '[0-9]*$')
    local ok=ok
    [[ $got == "$expected" ]] || ok=WRONG
    printf '%s\t%s\t%s\n' "$(basename "$id")" "$n" "$ok"
}
export -f one
export bin engine dir
printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'one {}'
rm -rf "$dir"
