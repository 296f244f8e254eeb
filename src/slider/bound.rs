//! A provable upper bound on an instance's score, so a run can say how far it is from the best
//! possible: drops scheduled as jobs on one machine, each taking at least its block's own turns.
//!
//! The proof. Only the named block moves in a turn, and a block falls only when it is itself moved
//! onto a hole, so block b needs at least `turns(b)` turns of its own: 1 if a hole shares its row
//! or column, else 2 (one turn keeps it on one row or one column). If the blocks that fall do so
//! in the order b_1, b_2, ..., the k-th falls on a turn t_k >= turns(b_1) + ... + turns(b_k), and
//! every t_k <= N*N. So the score, the sum of (N*N - t_k + 1) * (c_k - 1), is at most the best
//! weighted-completion-time schedule of the relaxation: jobs of length turns(b) and weight c - 1,
//! any subset, any order, total length <= N*N. For a fixed subset the best order is Smith's rule
//! (weight / length descending: an exchange of two adjacent jobs out of that order never loses),
//! so a knapsack over the jobs in that order and the time used so far finds the exact maximum.
//! With every length 1 it is the old bound (values sorted, the k-th drop on turn k).

use super::board::{Problem, HOLE};

/// The block's fewest own turns to fall: 1 with a hole in its row or column, else 2.
fn own_turns(problem: &Problem, cell: usize) -> u64 {
    let n = problem.n;
    let (row, column) = (cell / n, cell % n);
    let hole_in_line = (0..n).any(|i| problem.cells[row * n + i] == HOLE)
        || (0..n).any(|i| problem.cells[i * n + column] == HOLE);
    if hole_in_line {
        1
    } else {
        2
    }
}

/// The bound above, exact for its relaxation.
pub fn upper_bound(problem: &Problem) -> u64 {
    if problem.holes == 0 {
        return 0;
    }
    let turns = (problem.n * problem.n) as u64;
    // (weight, length) of every block worth something; value-1 blocks score nothing.
    let mut jobs: Vec<(u64, u64)> = (0..problem.cells.len())
        .filter(|&cell| problem.cells[cell] > 1)
        .map(|cell| ((problem.cells[cell] - 1) as u64, own_turns(problem, cell)))
        .collect();
    // Smith's rule: weight / length descending, compared without division.
    jobs.sort_by(|a, b| (b.0 * a.1).cmp(&(a.0 * b.1)));
    // best[t]: the most a schedule of the jobs so far scores with exactly t turns used.
    let mut best = vec![None::<u64>; turns as usize + 1];
    best[0] = Some(0);
    let mut reached = 0;
    for &(weight, length) in &jobs {
        let top = (reached + length).min(turns);
        for end in (length..=top).rev() {
            if let Some(before) = best[(end - length) as usize] {
                let with = before + weight * (turns - end + 1);
                if best[end as usize].is_none_or(|b| b < with) {
                    best[end as usize] = Some(with);
                }
            }
        }
        reached = top;
    }
    best.into_iter().flatten().max().unwrap_or(0)
}

/// The earlier, looser bound: every block one turn, values sorted (kept for comparison).
pub fn sorted_values_bound(problem: &Problem) -> u64 {
    let turns = (problem.n * problem.n) as u64;
    if problem.holes == 0 {
        return 0;
    }
    let mut weights: Vec<u64> = problem
        .cells
        .iter()
        .filter(|&&c| c > 1)
        .map(|&c| (c - 1) as u64)
        .collect();
    weights.sort_unstable_by(|a, b| b.cmp(a));
    weights
        .iter()
        .zip(0..turns)
        .map(|(&w, k)| w * (turns - k))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    fn parse(n: usize, colours: i8, cells: &[i8]) -> Problem {
        let holes = cells.iter().filter(|&&c| c == HOLE).count();
        let mut text = format!("{n}\n{colours}\n{holes}\n");
        for c in cells {
            text.push_str(&format!("{c}\n"));
        }
        Problem::parse(&text).expect("test instance")
    }

    /// Every order of every subset of the jobs, scored by the relaxation: the brute-force truth.
    fn brute_force(jobs: &[(u64, u64)], turns: u64) -> u64 {
        fn go(jobs: &[(u64, u64)], used: &mut Vec<bool>, time: u64, turns: u64) -> u64 {
            let mut best = 0;
            for i in 0..jobs.len() {
                let (w, d) = jobs[i];
                if !used[i] && time + d <= turns {
                    used[i] = true;
                    let rest = go(jobs, used, time + d, turns);
                    best = best.max(w * (turns - time - d + 1) + rest);
                    used[i] = false;
                }
            }
            best
        }
        go(jobs, &mut vec![false; jobs.len()], 0, turns)
    }

    #[test]
    fn a_block_off_every_hole_line_needs_two_turns() {
        // 3 x 3: hole at the top left; the 5 at the centre shares neither its row nor column.
        let problem = parse(3, 9, &[HOLE, 0, 0, 0, 5, 0, 0, 0, 9]);
        assert_eq!(own_turns(&problem, 4), 2);
        assert_eq!(own_turns(&problem, 8), 2);
        let aligned = parse(3, 9, &[HOLE, 0, 3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(own_turns(&aligned, 2), 1);
        // Two blocks of 2 turns each: the 9 (weight 8) falls on turn 2, the 5 on turn 4.
        assert_eq!(upper_bound(&problem), 8 * (9 - 2 + 1) + 4 * (9 - 4 + 1));
        assert_eq!(sorted_values_bound(&problem), 8 * 9 + 4 * 8);
    }

    #[test]
    fn the_knapsack_finds_the_best_schedule_of_the_relaxation() {
        let mut rng = Rng::new(126);
        for _ in 0..300 {
            let n = 2 + rng.below(2) as usize;
            let cells: Vec<i8> = (0..n * n)
                .map(|_| match rng.below(6) {
                    0 => HOLE,
                    1 => 0,
                    _ => 1 + rng.below(9) as i8,
                })
                .collect();
            let problem = parse(n, 9, &cells);
            let jobs: Vec<(u64, u64)> = (0..cells.len())
                .filter(|&c| cells[c] > 1)
                .map(|c| ((cells[c] - 1) as u64, own_turns(&problem, c)))
                .collect();
            let truth = if problem.holes == 0 {
                0
            } else {
                brute_force(&jobs, (n * n) as u64)
            };
            assert_eq!(upper_bound(&problem), truth, "{cells:?}");
            assert!(upper_bound(&problem) <= sorted_values_bound(&problem));
        }
    }

    #[test]
    fn solved_instances_stay_under_the_bound() {
        use crate::core::timer::Deadline;
        use crate::slider::board::output_text;
        use crate::slider::score::score;
        use crate::slider::solve::solve;
        // Generated beyond the 40 bundled seeds; seed 1 is the contest's smallest size.
        for seed in [1, 41, 57, 93] {
            let problem = crate::slider::gen::generate(seed);
            let solved = solve(&problem, Deadline::from_secs_f64(0.05), seed);
            let scored = score(&problem, &output_text(&solved.turns)).expect("valid output");
            let bound = upper_bound(&problem);
            assert!(
                scored.score as u64 <= bound,
                "seed {seed}: {} > {bound}",
                scored.score
            );
            assert!(bound <= sorted_values_bound(&problem));
        }
    }
}
