//! Where the falling unit can go: BFS over (pivot, canonical orientation) on its position grid,
//! forwards (paths, every position reached) and backwards (each position's distance to a lock).

use crate::icfp2015::place::placement::Grid;
use crate::icfp2015::rules::commands::Command;
use crate::icfp2015::rules::game::{target, Game};
use crate::icfp2015::rules::unit::Pos;

/// Distance of a grid position that cannot reach the goal.
pub(super) const UNREACHED: u32 = u32::MAX;

/// Commands from each grid position to `goal` (ignoring the history rule), by a BFS on the
/// reversed moves; `UNREACHED` where it cannot be reached.
pub(super) fn distances_to(
    grid: &Grid,
    goal: Pos,
    fits: &impl Fn(Pos) -> bool,
    canonical: &impl Fn(Pos) -> Pos,
) -> Vec<u32> {
    distances_to_any(grid, &[goal], fits, canonical)
}

/// [`distances_to`] the nearest of `goals`. Generic in its closures, not `dyn` as the other
/// searches here: the look-ahead runs one per child, and with the calls not inlined they were a
/// third of problem 1's samples (perf, `play -t 20 -c 1`).
pub(super) fn distances_to_any(
    grid: &Grid,
    goals: &[Pos],
    fits: &impl Fn(Pos) -> bool,
    canonical: &impl Fn(Pos) -> Pos,
) -> Vec<u32> {
    let mut dist = vec![UNREACHED; grid.len()];
    let mut queue = Vec::with_capacity(goals.len());
    for &goal in goals {
        if let Some(i) = grid.index(goal).filter(|&i| dist[i] == UNREACHED) {
            dist[i] = 0;
            queue.push(goal);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let here = queue[head];
        head += 1;
        let d = dist[grid.index(here).expect("queued positions are on the grid")] + 1;
        for c in Command::ALL {
            // Every position that `c` takes to `here`: the same pivot in any orientation for a
            // turn; for a move, the pivot one step back (its column change depends on the
            // parity of the row it starts from).
            let mut sources = [here; 6];
            let count = if matches!(c, Command::CW | Command::CCW) {
                for (o, source) in sources.iter_mut().enumerate() {
                    source.orientation = o as u8;
                }
                6
            } else {
                let y = here.y - i32::from(c.descends());
                let from_origin = target(
                    Pos {
                        x: 0,
                        y,
                        orientation: here.orientation,
                    },
                    c,
                );
                sources[0] = Pos {
                    x: here.x - from_origin.x,
                    y,
                    orientation: here.orientation,
                };
                1
            };
            for &from in &sources[..count] {
                if canonical(from) != from || canonical(target(from, c)) != here {
                    continue;
                }
                if let Some(i) = grid.index(from) {
                    if dist[i] == UNREACHED && fits(from) {
                        dist[i] = d;
                        queue.push(from);
                    }
                }
            }
        }
    }
    dist
}

/// A shortest path from `start` that locks at `goal` (its last command locks), not entering
/// the positions of `row` (the current row's history) before it descends.
pub(super) fn bfs(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    row: &[Pos],
    fits: &dyn Fn(Pos) -> bool,
    canonical: &dyn Fn(Pos) -> Pos,
) -> Option<Vec<Command>> {
    let lock = lock_command(goal, fits, canonical)?;
    let mut path = path_to(grid, start, goal, row, fits, canonical)?;
    path.push(lock);
    Some(path)
}

/// A shortest command path from `start` to `end` (not locking), over positions that fit and
/// not entering the positions of `row` (the current row's history).
pub(super) fn path_to(
    grid: &Grid,
    start: Pos,
    end: Pos,
    row: &[Pos],
    fits: &dyn Fn(Pos) -> bool,
    canonical: &dyn Fn(Pos) -> Pos,
) -> Option<Vec<Command>> {
    let tree = Reach::search(grid, start, row, fits, canonical, Some(end))?;
    tree.path(grid, end)
}

/// What the searches over `game`'s falling unit need: the grid its positions are numbered on,
/// the canonical form of a position, and whether a position fits the board.
pub(super) fn falling<'g>(
    game: &'g Game,
) -> (Grid, impl Fn(Pos) -> Pos + 'g, impl Fn(Pos) -> bool + 'g) {
    let unit = game.unit();
    let board = game.board();
    let canonical = move |pos: Pos| unit.canonical_pos(pos);
    let fits = move |pos: Pos| board.fits_unit(unit, pos);
    (Grid::new(unit, board), canonical, fits)
}

/// A breadth-first search over unit positions from `start`: the positions reached in order
/// and, per position, the move that first reached it.
pub(super) struct Reach {
    /// Per grid index: `parent index * 8 + command`, `index * 8 + 7` for the start and the
    /// row's history, `u32::MAX` if not reached.
    parent: Vec<u32>,
    first: usize,
    /// The positions reached, in the order reached (the start first).
    pub order: Vec<Pos>,
}

impl Reach {
    const NONE: u32 = u32::MAX;

    /// Searches from `start` over positions that fit, not entering `row`; stops once `stop`
    /// is reached. `None` if `start` is off the grid.
    pub(super) fn search(
        grid: &Grid,
        start: Pos,
        row: &[Pos],
        fits: &dyn Fn(Pos) -> bool,
        canonical: &dyn Fn(Pos) -> Pos,
        stop: Option<Pos>,
    ) -> Option<Reach> {
        let mut parent = vec![Reach::NONE; grid.len()];
        let first = grid.index(start)?;
        parent[first] = first as u32 * 8 + 7;
        for &p in row {
            if let Some(i) = grid.index(p) {
                if i != first {
                    parent[i] = i as u32 * 8 + 7;
                }
            }
        }
        let mut order = vec![start];
        let mut head = 0;
        while head < order.len() {
            let here = order[head];
            head += 1;
            if Some(here) == stop {
                break;
            }
            let i = grid.index(here).expect("queued positions are on the grid");
            for (c, j, next) in successors(grid, here, canonical) {
                if parent[j] == Reach::NONE && fits(next) {
                    parent[j] = i as u32 * 8 + c as u32;
                    order.push(next);
                }
            }
        }
        Some(Reach {
            parent,
            first,
            order,
        })
    }

    /// [`Reach::search`] over every position `game`'s falling unit reaches from where it is,
    /// and the grid its positions are numbered on.
    pub(super) fn from_falling(game: &Game) -> Option<(Grid, Reach)> {
        let (grid, canonical, fits) = falling(game);
        let start = canonical(game.pos());
        let reach = Reach::search(&grid, start, &[], &fits, &canonical, None)?;
        Some((grid, reach))
    }

    /// The commands from the start to `end`, if the search reached it.
    pub(super) fn path(&self, grid: &Grid, end: Pos) -> Option<Vec<Command>> {
        let mut at = grid.index(end)?;
        if self.parent[at] == Reach::NONE || (at != self.first && self.parent[at] % 8 == 7) {
            return None;
        }
        let mut path = Vec::new();
        while at != self.first {
            let link = self.parent[at];
            path.push(Command::from_index((link % 8) as u8));
            at = (link / 8) as usize;
        }
        path.reverse();
        Some(path)
    }
}

/// A command that locks the unit at `goal`: one that leads where it does not fit.
fn lock_command(
    goal: Pos,
    fits: &dyn Fn(Pos) -> bool,
    canonical: &dyn Fn(Pos) -> Pos,
) -> Option<Command> {
    Command::ALL
        .into_iter()
        .find(|&c| !fits(canonical(target(goal, c))))
}

/// Each command from `here` that stays on the grid: the command, the grid index of the
/// position it leads to, and that position (canonical).
fn successors<'a>(
    grid: &'a Grid,
    here: Pos,
    canonical: &'a dyn Fn(Pos) -> Pos,
) -> impl Iterator<Item = (Command, usize, Pos)> + 'a {
    Command::ALL.into_iter().filter_map(move |c| {
        let next = canonical(target(here, c));
        grid.index(next).map(|j| (c, j, next))
    })
}

/// A path from `start` that locks at `goal` (its last command locks), found by A* toward the
/// goal: a route with nothing to spell. Units never move up, so positions below the goal's row
/// are never searched, and the estimate (rows to descend, columns the descents cannot cover,
/// one turn if the orientation differs) keeps the search near the straight way down. A path
/// of A* never visits a position twice, so it keeps the history rule. The BFS of [`bfs`]
/// searched every position above the lock: 0.17 ms a unit on problem 18 (30 x 30), 0.7 ms on
/// a 30 x 60 board, where routes of 5000 units took 3.5 s.
pub(super) fn direct_path(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    fits: &dyn Fn(Pos) -> bool,
    canonical: &dyn Fn(Pos) -> Pos,
) -> Option<Vec<Command>> {
    let lock = lock_command(goal, fits, canonical)?;
    // Axial column: SE keeps it, SW and W take one off, E adds one.
    let axial = |p: Pos| p.x - p.y.div_euclid(2);
    let goal_q = axial(goal);
    let estimate = |p: Pos| -> Option<u32> {
        let rows = goal.y - p.y;
        if rows < 0 {
            return None;
        }
        let d = goal_q - axial(p);
        let lateral = if d > 0 {
            d
        } else if d < -rows {
            -rows - d
        } else {
            0
        };
        Some((rows + lateral) as u32 + u32::from(p.orientation != goal.orientation))
    };
    let first = grid.index(start)?;
    let mut parent = vec![Reach::NONE; grid.len()];
    parent[first] = first as u32 * 8 + 7;
    // Open positions by (cost so far + estimate), deeper ones first among equals.
    let mut open = std::collections::BinaryHeap::new();
    open.push((std::cmp::Reverse(estimate(start)?), 0u32, start));
    let mut found = false;
    while let Some((_, cost, here)) = open.pop() {
        if here == goal {
            found = true;
            break;
        }
        let i = grid.index(here).expect("queued positions are on the grid");
        for (c, j, next) in successors(grid, here, canonical) {
            if parent[j] != Reach::NONE {
                continue;
            }
            let Some(h) = estimate(next) else {
                continue;
            };
            if fits(next) {
                parent[j] = i as u32 * 8 + c as u32;
                open.push((std::cmp::Reverse(cost + 1 + h), cost + 1, next));
            }
        }
    }
    if !found {
        return None;
    }
    let reach = Reach {
        parent,
        first,
        order: Vec::new(),
    };
    let mut path = reach.path(grid, goal)?;
    path.push(lock);
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::place::placement::placements;
    use crate::icfp2015::rules::game::{Outcome, Setup};

    /// On the boards of a few played-out games, every lock the BFS finds is found by the
    /// direct path too, and playing that path locks the unit exactly there.
    #[test]
    fn direct_paths_lock_where_the_bfs_does() {
        for id in [3, 14, 18, 24] {
            let setup = Setup::bundled(id);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            let mut checked = 0;
            for turn in 0..40 {
                if game.is_over() {
                    break;
                }
                let all = placements(&game);
                for placement in all.iter().step_by(4) {
                    let (grid, canonical, fits) = falling(&game);
                    let (start, goal) = (canonical(game.pos()), canonical(placement.pos));
                    let path = direct_path(&grid, start, goal, &fits, &canonical)
                        .unwrap_or_else(|| panic!("problem {id}: no path to {goal:?}"));
                    let mut trial = game.clone();
                    let (&lock, moves) = path.split_last().unwrap();
                    for &c in moves {
                        assert_eq!(trial.step(c), Outcome::Moved, "problem {id}");
                    }
                    let cells = game.unit().cells(goal);
                    assert!(matches!(trial.step(lock), Outcome::Locked { .. }));
                    for cell in cells {
                        assert!(trial.board().get(cell) || trial.prev_lines() > 0);
                    }
                    checked += 1;
                }
                // Lock somewhere deep, so later boards have overhangs and holes.
                let deepest = all.iter().max_by_key(|p| (p.pos.y, turn % 3 == 0)).unwrap();
                for &c in &deepest.path {
                    game.step(c);
                }
            }
            assert!(checked > 100, "problem {id}: {checked} paths checked");
        }
    }
}
