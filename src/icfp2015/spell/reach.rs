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
    fits: &dyn Fn(Pos) -> bool,
    canonical: &dyn Fn(Pos) -> Pos,
) -> Vec<u32> {
    let mut dist = vec![UNREACHED; grid.len()];
    let Some(first) = grid.index(goal) else {
        return dist;
    };
    dist[first] = 0;
    let mut queue = vec![goal];
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
    let lock = Command::ALL
        .into_iter()
        .find(|&c| !fits(canonical(target(goal, c))))?;
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
            for c in Command::ALL {
                let next = canonical(target(here, c));
                let Some(j) = grid.index(next) else {
                    continue;
                };
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
