//! Every place the falling unit can lock, each with a shortest command path from where it is
//! now: a BFS over (pivot, orientation) on the current board; the move generator of a solver.
//
// Positions are keyed by pivot and *canonical* orientation: two orientations with the same
// member set are the same position for the repeated-position rule. A BFS path is shortest, so
// it never visits a position twice and can never trigger that error, whatever its moves.

use super::commands::Command;
use super::game::{target, Game};
use super::unit::Pos;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

/// One way to lock the falling unit: where, and the commands from its current position (the
/// last one is the command that locks it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub pos: Pos,
    pub path: Vec<Command>,
}

/// The lock positions (distinct as locked cells) reachable by the falling unit of `game`, in BFS order; empty
/// when the game is over.
pub fn placements(game: &Game) -> Vec<Placement> {
    if game.is_over() {
        return Vec::new();
    }
    let unit = game.unit();
    let canonical = |pos: Pos| Pos {
        orientation: unit.canonical[pos.orientation as usize],
        ..pos
    };
    let start = canonical(game.pos());
    // Each reached position, with the position and command it was reached by.
    let mut parent: HashMap<Pos, Option<(Pos, Command)>> = HashMap::from([(start, None)]);
    let mut queue = vec![start];
    let mut locks = Vec::new();
    let mut head = 0;
    while head < queue.len() {
        let here = queue[head];
        head += 1;
        let mut lock = None;
        for command in Command::ALL {
            let next = canonical(target(here, command));
            if !game.fits(next) {
                lock.get_or_insert(command);
            } else if let Entry::Vacant(slot) = parent.entry(next) {
                slot.insert(Some((here, command)));
                queue.push(next);
            }
        }
        if let Some(command) = lock {
            locks.push((here, command));
        }
    }
    // Positions with different pivots can still lock the same cells; keep the first.
    let mut seen = HashSet::new();
    locks.retain(|&(pos, _)| {
        let mut cells = unit.cells(pos);
        cells.sort_by_key(|c| (c.y, c.x));
        seen.insert(cells)
    });
    locks
        .into_iter()
        .map(|(pos, command)| {
            let mut path = vec![command];
            let mut at = pos;
            while let Some(Some((from, step))) = parent.get(&at) {
                path.push(*step);
                at = *from;
            }
            path.reverse();
            Placement { pos, path }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::game::{Outcome, Setup};
    use crate::icfp2015::problem::Problem;

    fn setup(id: usize) -> Setup {
        let path = format!(
            "{}/data/icfp2015/problems/problem_{id}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Setup::new(Problem::parse(&std::fs::read(&path).unwrap(), &path).unwrap())
    }

    /// Replays every placement of the first units of several problems: each path must move
    /// without error and lock exactly at its position, and no two lock the same cells.
    #[test]
    fn every_path_locks_where_it_says() {
        for id in [0, 1, 6, 13, 24] {
            let setup = setup(id);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            for _ in 0..8 {
                let options = placements(&game);
                if game.is_over() {
                    break;
                }
                assert!(
                    !options.is_empty(),
                    "problem {id}: a falling unit can always lock"
                );
                let mut cells = HashSet::new();
                for p in &options {
                    let mut trial = game.clone();
                    let (last, moves) = p.path.split_last().unwrap();
                    for &c in moves {
                        assert_eq!(trial.step(c), Outcome::Moved, "problem {id} {p:?}");
                    }
                    let here: Vec<_> = trial.unit_cells();
                    assert_eq!(trial.pos().x, p.pos.x);
                    assert_eq!(trial.pos().y, p.pos.y);
                    assert!(
                        matches!(trial.step(*last), Outcome::Locked { .. }),
                        "problem {id} {p:?}"
                    );
                    let mut sorted = here.clone();
                    sorted.sort_by_key(|c| (c.y, c.x));
                    assert!(
                        cells.insert(sorted),
                        "problem {id}: two placements lock the same cells"
                    );
                }
                // Advance the real game by the deepest placement, to see later boards too.
                let deepest = options.iter().max_by_key(|p| p.pos.y).unwrap();
                for &c in &deepest.path {
                    game.step(c);
                }
            }
        }
    }
}
