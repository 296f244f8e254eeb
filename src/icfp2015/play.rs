//! Playing many games at once for `podium icfp2015 play` and `bench`: (problem, seed) jobs
//! shared by threads under one time budget, and the comparison with the qualifying leaderboard.

use super::game::Setup;
use super::phrases::PhraseSet;
use super::problem::{Problem, Solution};
use super::solver::{solve, solve_variant};
use crate::core::timer::Deadline;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Tag of every solution: the solver and its version; the score is appended.
pub const SOLVER_TAG: &str = "podium-beam-0.11";

/// The 25 qualifier problems, bundled.
pub const QUALIFIER_PROBLEMS: [&str; 25] = [
    include_str!("../../data/icfp2015/problems/problem_0.json"),
    include_str!("../../data/icfp2015/problems/problem_1.json"),
    include_str!("../../data/icfp2015/problems/problem_2.json"),
    include_str!("../../data/icfp2015/problems/problem_3.json"),
    include_str!("../../data/icfp2015/problems/problem_4.json"),
    include_str!("../../data/icfp2015/problems/problem_5.json"),
    include_str!("../../data/icfp2015/problems/problem_6.json"),
    include_str!("../../data/icfp2015/problems/problem_7.json"),
    include_str!("../../data/icfp2015/problems/problem_8.json"),
    include_str!("../../data/icfp2015/problems/problem_9.json"),
    include_str!("../../data/icfp2015/problems/problem_10.json"),
    include_str!("../../data/icfp2015/problems/problem_11.json"),
    include_str!("../../data/icfp2015/problems/problem_12.json"),
    include_str!("../../data/icfp2015/problems/problem_13.json"),
    include_str!("../../data/icfp2015/problems/problem_14.json"),
    include_str!("../../data/icfp2015/problems/problem_15.json"),
    include_str!("../../data/icfp2015/problems/problem_16.json"),
    include_str!("../../data/icfp2015/problems/problem_17.json"),
    include_str!("../../data/icfp2015/problems/problem_18.json"),
    include_str!("../../data/icfp2015/problems/problem_19.json"),
    include_str!("../../data/icfp2015/problems/problem_20.json"),
    include_str!("../../data/icfp2015/problems/problem_21.json"),
    include_str!("../../data/icfp2015/problems/problem_22.json"),
    include_str!("../../data/icfp2015/problems/problem_23.json"),
    include_str!("../../data/icfp2015/problems/problem_24.json"),
];

/// `problem  best_score  best_team  unagi_score  unagi_rank  fb_score  fb_rank  fb_phrases`.
pub const LEADERBOARD_TSV: &str = include_str!("../../data/icfp2015/leaderboard.tsv");

/// Peak memory of one search thread, with the process's own: `/usr/bin/time -v podium
/// icfp2015 play -f problem_14.json -t 8 -c 1` peaks at 28 MB (the DP's table over 50 rows),
/// problem 24 at 10 MB (2026-11-22); the beam's width is bounded (`solver::MAX_WIDTH`).
const MEGABYTES_PER_THREAD: u64 = 32;

/// The threads to run for `-c cores` under `-m megabytes`: as many as fit, at least one.
pub fn threads_within(cores: usize, megabytes: Option<u64>) -> usize {
    let fit = megabytes.map_or(usize::MAX, |m| (m / MEGABYTES_PER_THREAD).max(1) as usize);
    cores.clamp(1, fit)
}

/// Solves every seed of every problem on `cores` threads within `time` in all; each solution
/// has been re-scored by the evaluator, and its tag says the solver and the score.
pub fn play_all(
    setups: &[Setup],
    phrases: &PhraseSet,
    time: Duration,
    cores: usize,
) -> Vec<Solution> {
    let jobs: Vec<(usize, u32)> = setups
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.problem.source_seeds.iter().map(move |&seed| (i, seed)))
        .collect();
    // Cores beyond one per job run more searches of the same job side by side (each from
    // other weights), and the best game is kept.
    let per_job = (cores / jobs.len().max(1)).max(1);
    let cores = cores.clamp(1, jobs.len().max(1));
    // Each job gets an equal share of the threads' time, with a margin for printing.
    let share = time.mul_f64(0.9 * cores as f64 / jobs.len().max(1) as f64);
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Solution>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..cores {
            scope.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(i, seed)) = jobs.get(j) else { break };
                let setup = &setups[i];
                let deadline = Deadline::after(share);
                let played = if per_job == 1 {
                    solve(setup, seed, phrases, &deadline)
                } else {
                    std::thread::scope(|inner| {
                        let searches: Vec<_> = (0..per_job as u32)
                            .map(|v| {
                                let deadline = &deadline;
                                inner
                                    .spawn(move || solve_variant(setup, seed, phrases, deadline, v))
                            })
                            .collect();
                        searches
                            .into_iter()
                            .map(|s| s.join().expect("a search thread panicked"))
                            .max_by_key(|p| p.score)
                            .expect("at least one search")
                    })
                };
                *results[j].lock().unwrap() = Some(Solution {
                    problem_id: setup.problem.id,
                    seed: seed as u64,
                    tag: Some(format!("{SOLVER_TAG} score {}", played.score)),
                    solution: played.commands,
                });
            });
        }
    });
    results
        .into_iter()
        .filter_map(|r| r.into_inner().unwrap())
        .collect()
}

/// One leaderboard row: best, Unagi's and Frictionless Bananas' score for a problem.
struct Row {
    best: u64,
    unagi: u64,
    bananas: u64,
}

fn leaderboard() -> Vec<Row> {
    LEADERBOARD_TSV
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| {
                f[i].parse()
                    .expect("bundled leaderboard.tsv is well formed")
            };
            Row {
                best: n(1),
                unagi: n(3),
                bananas: n(5),
            }
        })
        .collect()
}

/// Plays the 25 qualifier problems (those of `only` if it is not empty) and prints our score
/// per problem (floor of the mean over its seeds, as the leaderboard did) next to the
/// leaderboard's.
pub fn bench(
    per_problem: Duration,
    cores: usize,
    only: &[i64],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let setups: Vec<Setup> = QUALIFIER_PROBLEMS
        .iter()
        .enumerate()
        .map(|(i, json)| {
            let name = format!("problem_{i}.json");
            Setup::new(Problem::parse(json.as_bytes(), &name).expect("bundled problem parses"))
        })
        .collect();
    let rows = leaderboard();
    let phrases = PhraseSet::known();
    writeln!(
        out,
        "icfp2015 ({SOLVER_TAG}, {:.1} s per problem, {cores} threads)",
        per_problem.as_secs_f64()
    )?;
    writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "problem", "seeds", "podium", "bananas", "unagi", "best", "/bananas"
    )?;
    let started = Instant::now();
    let mut sums = [0u64; 4];
    for (setup, row) in setups.iter().zip(&rows) {
        if !only.is_empty() && !only.contains(&setup.problem.id) {
            continue;
        }
        let seeds = setup.problem.source_seeds.len();
        let solutions = play_all(std::slice::from_ref(setup), &phrases, per_problem, cores);
        let total: u64 = solutions.iter().map(tagged_score).sum();
        let ours = total / seeds.max(1) as u64;
        for (sum, v) in sums
            .iter_mut()
            .zip([ours, row.bananas, row.unagi, row.best])
        {
            *sum += v;
        }
        writeln!(
            out,
            "{:>7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8.2}",
            setup.problem.id,
            seeds,
            ours,
            row.bananas,
            row.unagi,
            row.best,
            ours as f64 / row.bananas.max(1) as f64
        )?;
    }
    writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8.2}   ({:.1} s)",
        "sum",
        "",
        sums[0],
        sums[1],
        sums[2],
        sums[3],
        sums[0] as f64 / sums[1].max(1) as f64,
        started.elapsed().as_secs_f64()
    )
}

/// The score `play_all` wrote into a solution's tag.
fn tagged_score(solution: &Solution) -> u64 {
    solution
        .tag
        .as_deref()
        .and_then(|t| t.rsplit(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_limits_the_threads() {
        assert_eq!(threads_within(4, None), 4);
        assert_eq!(threads_within(4, Some(1000)), 4);
        assert_eq!(threads_within(4, Some(70)), 2);
        assert_eq!(threads_within(4, Some(1)), 1);
        assert_eq!(threads_within(0, Some(1000)), 1);
    }
}
