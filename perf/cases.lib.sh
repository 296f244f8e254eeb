# Sourced by stat.sh and record.sh: turns a case id of any problem into the podium command that
# runs it. Sets `case_args` (the arguments after the binary), `case_expected` (an exact answer to
# compare stdout with, or empty) and `case_exits` (the exit codes that count as a decided run).
#
# Case ids:
#   cg03, gen09_play, cephalopod/cg03   cephalopod: data/cephalopod/{cases,generated}.tsv
#   icfp2015/N                           qualifier problem N, `play -t $PODIUM_PERF_SECONDS -c 1`
#   slider/SEED                          data/slider/instances/seed_SEED.txt, `--checks 20000`
#   tetromino/N/SIGNATURE                `tetromino solve -n N -s SIGNATURE` (e.g. 8/I4,O4,T8)
#   bananagrams/LETTERS                  `bananagrams solve LETTERS --nodes 2000000`
# Time-bounded searches (icfp2015) do as much as their time allows, so their instruction counts
# vary with the machine's speed; the others stop at a fixed amount of work and are repeatable.

perf_seconds=${PODIUM_PERF_SECONDS:-5}

# Expands the group names into case ids, one per line.
expand_case_ids() {
    local id
    for id in "$@"; do
        case $id in
            cg) awk -F'\t' '$1 ~ /^cg[0-9]+$/ { print $1 }' data/cephalopod/cases.tsv ;;
            gen) awk -F'\t' '!/^#/ && NF { print $1 }' data/cephalopod/generated.tsv ;;
            tetromino) awk '!/^#/ && NF { print "tetromino/" $1 "/" $2 }' data/tetromino/server_signatures.txt ;;
            *) echo "$id" ;;
        esac
    done
}

# resolve_case ID DIR: sets case_args, case_expected, case_exits; writes inputs into DIR.
# Returns 2 (with one line on stderr) for an id it does not know.
resolve_case() {
    local id=$1 dir=$2 rest
    case_expected=""
    case_exits="0"
    case $id in
        icfp2015/*)
            rest=${id#icfp2015/}
            local file=data/icfp2015/problems/problem_$rest.json
            [[ -f $file ]] || { echo "unknown case '$id': no $file" >&2; return 2; }
            case_args=(icfp2015 play -f "$file" -t "$perf_seconds" -c 1)
            ;;
        slider/*)
            rest=${id#slider/}
            local file
            file=$(printf 'data/slider/instances/seed_%03d.txt' "$((10#$rest))" 2>/dev/null) ||
                { echo "unknown case '$id': the seed is not a number" >&2; return 2; }
            [[ -f $file ]] || { echo "unknown case '$id': no $file" >&2; return 2; }
            case_args=(slider solve "$file" --checks 20000)
            ;;
        tetromino/*/*)
            rest=${id#tetromino/}
            case_args=(tetromino solve -n "${rest%%/*}" -s "${rest#*/}")
            case_exits="0 3"
            ;;
        bananagrams/*)
            case_args=(bananagrams solve "${id#bananagrams/}" --nodes 2000000)
            case_exits="0 3"
            ;;
        *)
            local cephalopod_id=${id#cephalopod/}
            perf/case.sh "$cephalopod_id" "$dir/$cephalopod_id.txt" || return 2
            case_args=(cephalopod "$dir/$cephalopod_id.txt")
            case_expected=$(perf/case.sh --expected "$cephalopod_id")
            ;;
    esac
}
