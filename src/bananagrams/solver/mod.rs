//! The hand solver: a grid from all of a hand's letters, a proof that none exists, or "gave
//! up"; and `extend`, which adds peeled tiles to a grid, lifting as few words as it can.
//
// Search: depth-first over placements from the move generator, best-first by a letter score
// (hard letters first, balanced leftovers), with a table of grids already explored (a hash of
// (cell, letter), the same for any order of the same words). Every grid on the way is valid,
// so the first one that empties the hand is the answer. The search is heuristic; "impossible"
// is said only with a proof that holds for every grid (`prove_impossible`), never because the
// search ran out of moves.

mod hardness;
mod lift;
mod proof;
mod search;

pub use proof::prove_impossible;
pub use search::Stats;

use crate::bananagrams::board::{Board, SIZE};
use crate::bananagrams::dict::Dawg;
use crate::bananagrams::letters::Tiles;
use crate::core::budget::Budget;
use lift::lift_one_word;
use search::Search;

pub enum Verdict {
    Solved(Box<Board>),
    /// No valid grid exists; the reason is a proof.
    Impossible(String),
    GaveUp,
}

pub fn solve(dawg: &Dawg, hand: &Tiles, budget: Budget) -> Verdict {
    solve_with_stats(dawg, hand, budget).0
}

/// The search's budget counts grids expanded (deterministic), and its deadline if it has one.
pub fn solve_with_stats(dawg: &Dawg, hand: &Tiles, budget: Budget) -> (Verdict, Stats) {
    if hand.is_empty() {
        return (Verdict::Impossible("no tiles".into()), Stats::default());
    }
    if hand.len() == 1 {
        let mut board = Board::new();
        board.put_tile(SIZE / 2, SIZE / 2, hand.letters().next().expect("one tile"));
        return (Verdict::Solved(Box::new(board)), Stats::default());
    }
    if let Some(proof) = prove_impossible(dawg, hand) {
        return (Verdict::Impossible(proof), Stats::default());
    }
    let mut search = Search::new(dawg, Board::new(), *hand, budget);
    let found = search.broadening();
    let stats = search.stats;
    if found {
        (Verdict::Solved(Box::new(search.board)), stats)
    } else {
        (Verdict::GaveUp, stats)
    }
}

/// The grid's tiles plus `new`, on a valid grid, lifting as few of the grid's words as it can:
/// first none, then one word, two, ... and at last a fresh solve of everything.
pub fn extend(dawg: &Dawg, board: &Board, new: &Tiles, budget: Budget) -> Option<Board> {
    extend_with_stats(dawg, board, new, budget, true).0
}

/// [`extend`] with the search done, and the fresh solve only if `rebuild` (it is the costly
/// step on big grids: a player may rather dump).
pub fn extend_with_stats(
    dawg: &Dawg,
    board: &Board,
    new: &Tiles,
    budget: Budget,
    rebuild: bool,
) -> (Option<Board>, Stats) {
    let mut total = Stats::default();
    let mut add = |stats: Stats| {
        total.nodes += stats.nodes;
        total.moves += stats.moves;
    };
    let mut search = Search::new(dawg, board.clone(), *new, budget.share(0.25));
    let found = search.broadening();
    add(search.stats);
    if found {
        return (Some(search.board), total);
    }
    // Lift removable words, one more each round, and try again.
    let mut trial = board.clone();
    let mut hand = *new;
    for _ in 0..3 {
        if !lift_one_word(dawg, &mut trial, &mut hand) {
            break;
        }
        let mut search = Search::new(dawg, trial.clone(), hand, budget.share(0.125));
        let found = search.broadening();
        add(search.stats);
        if found {
            return (Some(search.board), total);
        }
    }
    if !rebuild {
        return (None, total);
    }
    let (verdict, stats) = solve_with_stats(dawg, &board.tiles().union(new), budget.share(0.5));
    add(stats);
    match verdict {
        Verdict::Solved(board) => (Some(*board), total),
        _ => (None, total),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bananagrams::dict::Lexicon;
    use crate::bananagrams::validate::validate;
    use crate::core::rng::Rng;

    fn random_hand(rng: &mut Rng, size: usize) -> Tiles {
        let mut bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
        rng.shuffle(&mut bunch);
        bunch[..size].iter().fold(Tiles::EMPTY, |mut t, &l| {
            t.add(l);
            t
        })
    }

    #[test]
    fn solved_grids_are_valid() {
        let lexicon = Lexicon::enable();
        let mut rng = Rng::new(5);
        let mut solved = 0;
        for _ in 0..40 {
            let hand = random_hand(&mut rng, 21);
            if let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(2000)) {
                assert_eq!(
                    validate(&board.render(), &hand, &lexicon.list),
                    Ok(()),
                    "{hand}"
                );
                solved += 1;
            }
        }
        assert!(solved >= 30, "only {solved} of 40 solved");
    }

    #[test]
    fn all_144_tiles_make_one_grid() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::full_bunch();
        let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(5_000)) else {
            panic!("144 tiles not solved");
        };
        assert_eq!(validate(&board.render(), &hand, &lexicon.list), Ok(()));
    }

    #[test]
    fn extend_adds_peeled_tiles_to_a_valid_grid() {
        let lexicon = Lexicon::enable();
        let mut rng = Rng::new(77);
        let mut extended = 0;
        for _ in 0..10 {
            let hand = random_hand(&mut rng, 21);
            let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(5_000)) else {
                continue;
            };
            let new = random_hand(&mut rng, 2);
            if let Some(grown) = extend(&lexicon.dawg, &board, &new, Budget::nodes(5_000)) {
                assert_eq!(
                    validate(&grown.render(), &hand.union(&new), &lexicon.list),
                    Ok(())
                );
                extended += 1;
            }
        }
        assert!(extended >= 8, "only {extended} of 10 grids extended");
    }
}
