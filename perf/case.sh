#!/usr/bin/env bash
# usage: perf/case.sh ID [OUTFILE] | perf/case.sh --expected ID | perf/case.sh --help
set -euo pipefail

usage() {
    cat <<'EOF'
usage: perf/case.sh ID [OUTFILE] | perf/case.sh --expected ID | perf/case.sh --help

Writes the CodinGame input of cephalopod case ID (depth on line 1, then the board as 3 lines
of 3 values) to OUTFILE, or to stdout. With --expected, prints the case's expected answer.
Cases come from data/cephalopod/cases.tsv and data/cephalopod/generated.tsv.
Exit status 2 for an unknown id or bad arguments.
EOF
}

cd "$(dirname "$0")/.."
tables=(data/cephalopod/cases.tsv data/cephalopod/generated.tsv)

expected=0
case "${1:-}" in
    -h | --help)
        usage
        exit 0
        ;;
    --expected)
        expected=1
        shift
        ;;
    "" | -*)
        usage >&2
        exit 2
        ;;
esac
if [[ $# -lt 1 || $# -gt $((2 - expected)) ]]; then
    usage >&2
    exit 2
fi
id=$1
out=${2:-}

row=$(awk -F'\t' -v id="$id" '!/^#/ && $1 == id { print; exit }' "${tables[@]}")
if [[ -z $row ]]; then
    echo "case.sh: unknown case id '$id' (not in ${tables[*]})" >&2
    exit 2
fi
IFS=$'\t' read -r _ depth cells answer <<<"$row"

if ((expected)); then
    echo "$answer"
    exit 0
fi

read -ra cell <<<"$cells"
if ((${#cell[@]} != 9)); then
    echo "case.sh: case '$id' has ${#cell[@]} cells, expected 9" >&2
    exit 2
fi
input=$(printf '%s\n%s %s %s\n%s %s %s\n%s %s %s' "$depth" "${cell[@]}")
if [[ -n $out ]]; then
    printf '%s\n' "$input" >"$out"
else
    printf '%s\n' "$input"
fi
