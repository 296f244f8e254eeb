//! Every place the falling unit can lock, each with a shortest command path from where it is
//! now: a BFS over (pivot, orientation) on the current board; the move generator of a solver.
//
// Positions are keyed by pivot and *canonical* orientation: two orientations with the same
// member set are the same position for the repeated-position rule. A BFS path is shortest, so
// it never visits a position twice and can never trigger that error, whatever its moves.

use super::board::Board;
use super::commands::Command;
use super::game::{target, Game};
use super::unit::{Pos, Unit};
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
    placements_from(game.board(), game.unit(), game.pos())
}

/// The lock positions of `unit` reachable from `start` on `board` (as [`placements`]).
pub fn placements_from(board: &Board, unit: &Unit, start: Pos) -> Vec<Placement> {
    let canonical = |pos: Pos| Pos {
        orientation: unit.canonical[pos.orientation as usize],
        ..pos
    };
    let fits = |pos: Pos| board.fits(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
    let start = canonical(start);
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
            if !fits(next) {
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

/// A dense numbering of the positions where a unit could lie on a board: the pivots whose
/// shapes can be inside it, times 6 orientations.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    x_low: i32,
    y_low: i32,
    columns: i32,
    rows: i32,
}

impl Grid {
    pub fn new(unit: &Unit, board: &Board) -> Grid {
        let (width, height) = (board.width() as i32, board.height() as i32);
        let shapes = (0..6u8).flat_map(|o| [unit.shape(o, 0), unit.shape(o, 1)]);
        let (mut x_low, mut x_high, mut y_low, mut y_high) =
            (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for shape in shapes {
            x_low = x_low.min(-shape.dx_min);
            x_high = x_high.max(width - 1 - shape.dx_max);
            y_low = y_low.min(-shape.dy_min);
            y_high = y_high.max(height - 1 - shape.dy_max);
        }
        Grid {
            x_low,
            y_low,
            columns: (x_high - x_low + 1).max(0),
            rows: (y_high - y_low + 1).max(0),
        }
    }

    pub fn len(&self) -> usize {
        (self.columns * self.rows * 6) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first and last pivot row.
    pub fn row_range(&self) -> std::ops::RangeInclusive<i32> {
        self.y_low..=self.y_low + self.rows - 1
    }

    /// The pivot columns.
    pub fn column_range(&self) -> std::ops::RangeInclusive<i32> {
        self.x_low..=self.x_low + self.columns - 1
    }

    /// The number of `pos`; `None` where no shape of the unit can fit.
    #[inline]
    pub fn index(&self, pos: Pos) -> Option<usize> {
        let (x, y) = (pos.x - self.x_low, pos.y - self.y_low);
        if x < 0 || y < 0 || x >= self.columns || y >= self.rows {
            return None;
        }
        Some(((y * self.columns + x) * 6) as usize + pos.orientation as usize)
    }

    /// The position numbered `index`.
    #[inline]
    pub fn pos(&self, index: usize) -> Pos {
        let cell = (index / 6) as i32;
        Pos {
            x: self.x_low + cell % self.columns,
            y: self.y_low + cell / self.columns,
            orientation: (index % 6) as u8,
        }
    }
}

/// The lock positions of `unit` reachable from `start` on `board`, distinct as locked cells,
/// without paths: the move generator of the beam search.
pub fn lock_positions(board: &Board, unit: &Unit, start: Pos) -> Vec<Pos> {
    let grid = Grid::new(unit, board);
    let canonical = |pos: Pos| Pos {
        orientation: unit.canonical[pos.orientation as usize],
        ..pos
    };
    let fits = |pos: Pos| board.fits(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
    let mut seen = vec![false; grid.len()];
    let start = canonical(start);
    let Some(first) = grid.index(start).filter(|_| fits(start)) else {
        return Vec::new();
    };
    seen[first] = true;
    let mut queue = vec![start];
    let mut head = 0;
    let mut locks = Vec::new();
    let mut locked_cells: HashSet<(i32, i32, &[u128])> = HashSet::new();
    while head < queue.len() {
        let here = queue[head];
        head += 1;
        let mut locks_here = false;
        for command in Command::ALL {
            let next = canonical(target(here, command));
            match grid.index(next) {
                Some(i) if fits(next) => {
                    if !seen[i] {
                        seen[i] = true;
                        queue.push(next);
                    }
                }
                _ => locks_here = true,
            }
        }
        if locks_here {
            let shape = unit.shape(here.orientation, here.y);
            if locked_cells.insert((here.x + shape.dx_min, here.y + shape.dy_min, &shape.rows)) {
                locks.push(here);
            }
        }
    }
    locks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::game::{Outcome, Setup};

    fn setup(id: usize) -> Setup {
        Setup::bundled(id)
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
