//! Deciding a square: the rules' proofs, a quick search, solvable blocks dealt to the counts,
//! then the full search with the time left, as one call with one budget.

use super::blocks;
use super::rules;
use super::signature::Signature;
use super::solution::verify;
use super::solver::{search_observed, Options, Outcome, Stats, DEFAULT_TIME_BUDGET};
use super::trace::{Event, Observer, Silent};
use crate::core::timer::Deadline;
use std::time::Instant;

/// Decides whether the `size` x `size` square can be tiled with `signature`.
pub fn solve(size: usize, signature: &Signature, options: &Options) -> (Outcome, Stats) {
    solve_observed(size, signature, options, &mut Silent)
}

/// [`solve`] reporting each stage, the searches' steps and the verdict to `observer`.
pub fn solve_observed<O: Observer>(
    size: usize,
    signature: &Signature,
    options: &Options,
    observer: &mut O,
) -> (Outcome, Stats) {
    let decided = decide(size, signature, options, observer);
    observer.see(Event::Done(decided.0.verdict()));
    decided
}

fn decide<O: Observer>(
    size: usize,
    signature: &Signature,
    options: &Options,
    observer: &mut O,
) -> (Outcome, Stats) {
    let start = Instant::now();
    observer.see(Event::Stage("the rules: area, S/Z, single type"));
    if let Some(reason) = rules::cheap_impossibility(size, signature) {
        return (Outcome::Unsolvable(reason), Stats::default());
    }
    let time = options.time_budget.unwrap_or(DEFAULT_TIME_BUDGET);
    let deadline = Deadline::after(time);
    let pieces = signature.total();
    // On a large square a failed quick search costs seconds (20 placements a piece) while the
    // blocks deal in a fraction of that: there the proofs and the blocks go first.
    if size >= BLOCKS_FIRST_SIZE {
        observer.see(Event::Stage("the colouring invariants"));
        if let Some(reason) = rules::impossibility(size, signature) {
            return (Outcome::Unsolvable(reason), Stats::default());
        }
        observer.see(Event::Stage(
            "solvable 4x4 and 4x6 blocks dealt to the counts",
        ));
        if let Some(tiling) = assemble_blocks(size, signature, options, &deadline) {
            let stats = Stats {
                elapsed: start.elapsed(),
                ..Stats::default()
            };
            return (Outcome::Solved(tiling), stats);
        }
    }
    let quick = Options {
        node_budget: Some(
            options
                .node_budget
                .unwrap_or(u64::MAX)
                .min(QUICK_SEARCH_PLACEMENTS_PER_PIECE.saturating_mul(pieces)),
        ),
        time_budget: Some(time),
        ..options.clone()
    };
    // A balanced mix is tiled by the quick search in a few placements a piece, before the
    // colourings' exact check (~10 ms on a large board) would have finished.
    observer.see(Event::Stage("a quick search (20 placements a piece)"));
    let (outcome, quick_stats) = search_observed(start, size, signature, &quick, observer);
    match outcome {
        Outcome::Solved(_) => return (outcome, quick_stats),
        Outcome::Unsolvable(searched) => {
            let reason = rules::impossibility(size, signature).unwrap_or(searched);
            return (Outcome::Unsolvable(reason), quick_stats);
        }
        Outcome::GaveUp(message) if message == super::solver::STOPPED => {
            return (Outcome::GaveUp(message), quick_stats);
        }
        Outcome::GaveUp(_) => {}
    }
    observer.see(Event::Stage("the colouring invariants"));
    if let Some(reason) = rules::impossibility(size, signature) {
        return (Outcome::Unsolvable(reason), quick_stats);
    }
    observer.see(Event::Stage(
        "solvable 4x4 and 4x6 blocks dealt to the counts",
    ));
    if size < BLOCKS_FIRST_SIZE {
        if let Some(tiling) = assemble_blocks(size, signature, options, &deadline) {
            let stats = Stats {
                elapsed: start.elapsed(),
                ..quick_stats
            };
            return (Outcome::Solved(tiling), stats);
        }
    }
    let rest = Options {
        node_budget: options
            .node_budget
            .map(|n| n.saturating_sub(quick_stats.nodes)),
        time_budget: Some(deadline.remaining()),
        ..options.clone()
    };
    observer.see(Event::Stage("the full search"));
    let (outcome, mut stats) = search_observed(start, size, signature, &rest, observer);
    stats.nodes += quick_stats.nodes;
    stats.attempts += quick_stats.attempts;
    stats.memo_hits += quick_stats.memo_hits;
    let outcome = match outcome {
        Outcome::GaveUp(message) => Outcome::GaveUp(
            match (options.node_budget, rest.node_budget) {
                (Some(all), Some(left)) => message.replacen(
                    &format!("the node budget of {left} placements"),
                    &format!("the node budget of {all} placements"),
                    1,
                ),
                _ => message,
            }
            .replacen(
                "; tried: ",
                &format!(
                    "; tried: a quick search of {} placements, {} deals of solvable blocks, ",
                    quick_stats.nodes,
                    blocks::ASSEMBLY_ATTEMPTS
                ),
                1,
            ),
        ),
        other => other,
    };
    (outcome, stats)
}

/// A verified tiling from solvable blocks, within [`blocks::ASSEMBLY_TIME`] and half the time left.
fn assemble_blocks(
    size: usize,
    signature: &Signature,
    options: &Options,
    deadline: &Deadline,
) -> Option<Vec<super::solution::Placement>> {
    let assembly = Deadline::after(blocks::ASSEMBLY_TIME.min(deadline.remaining() / 2));
    blocks::assemble(size, signature, options.seed, &assembly)
        .filter(|tiling| verify(size, signature, tiling).is_ok())
}

/// The side from which the blocks are dealt before the quick search: random-tiling mixes at
/// N = 1000 spent ~3 s in a failed quick search before the blocks tiled them in ~0.5 s.
const BLOCKS_FIRST_SIZE: usize = 400;

/// Placements per piece the first, quick search may spend: the contest's balanced mixes are
/// tiled within a few per piece, and skewed ones go to the blocks after it.
const QUICK_SEARCH_PLACEMENTS_PER_PIECE: u64 = 20;
