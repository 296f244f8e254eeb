//! How good a lock is: `placement_value` (the unit against the rows it touches), the board's
//! `Features` (holes, height, cover, bumps, rows) and the look-ahead over the next big units.

use super::placement::{lock_positions_where, runs_through};
use super::weights::Weights;
use crate::core::bitboard::row_mask;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::game::Setup;
use crate::icfp2015::rules::unit::{Pos, Unit};

/// How good locking `unit` at `pos` on `board` is (higher is better), and the rows it clears.
//
// Whole rows at a time: the unit's row masks against the board's rows and the rows above and
// below it (a neighbour off the board counts as filled, as in the Frictionless Bananas
// features). The per-cell version cost ~2 us per child on problem 24, where a node has hundreds
// of children.
pub fn placement_value(board: &Board, unit: &Unit, pos: Pos, w: &Weights) -> (f64, u32) {
    let shape = unit.shape(pos.orientation, pos.y);
    let (width, height) = (board.width() as i32, board.height() as i32);
    let full = row_mask::<u128>(board.width());
    let last = 1u128 << (width - 1);
    let rows = board.rows();
    let left = pos.x + shape.dx_min;
    let first = pos.y + shape.dy_min;
    let unit_row = |y: i32| -> u128 {
        let i = y - first;
        if i < 0 || i >= shape.rows.len() as i32 {
            0
        } else {
            shape.rows[i as usize] << left
        }
    };
    let (mut lines, mut row_fill, mut depth) = (0u32, 0.0, 0i64);
    let (mut neighbours, mut covered) = (0u32, 0u32);
    for y in first..first + shape.rows.len() as i32 {
        let cells = unit_row(y);
        if cells == 0 {
            continue;
        }
        let here = rows[y as usize];
        let taken = (here | cells).count_ones();
        lines += u32::from(taken == width as u32);
        row_fill += taken as f64 / width as f64;
        depth += y as i64 * cells.count_ones() as i64;
        neighbours += (cells & (here >> 1 | last)).count_ones();
        neighbours += (cells & (here << 1 | 1)).count_ones();
        // The rows above and below: from an even row the diagonal neighbours are columns
        // x - 1 and x, from an odd row x and x + 1.
        let even = y % 2 == 0;
        for other in [y - 1, y + 1] {
            if other < 0 || other >= height {
                neighbours += 2 * cells.count_ones();
                continue;
            }
            let filled = rows[other as usize];
            let (west, east) = if even {
                (filled << 1 | 1, filled)
            } else {
                (filled, filled >> 1 | last)
            };
            neighbours += (cells & west).count_ones() + (cells & east).count_ones();
            if other == y + 1 {
                let empty = !filled & !unit_row(other) & full;
                let (west, east) = if even {
                    (empty << 1, empty)
                } else {
                    (empty, empty >> 1)
                };
                covered += (cells & west).count_ones() + (cells & east).count_ones();
            }
        }
    }
    let points = unit.size as f64 + 50.0 * (1.0 + lines as f64) * lines as f64;
    let depth = depth as f64 / height as f64;
    let drop = first as f64;
    let fall = (pos.y - first) as f64;
    let board_top = rows.iter().position(|&r| r != 0).unwrap_or(board.height()) as i32;
    let top = first.min(board_top) + lines as i32;
    let value = w.points * points
        + w.stack * top as f64
        + w.lines * lines as f64
        + w.depth * depth
        + w.row_fill * row_fill
        + w.neighbours * neighbours as f64
        + w.covered * covered as f64
        + w.drop * drop
        + w.fall * fall;
    (value, lines)
}

/// What the beam sees of a whole board.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Empty cells a one-cell unit cannot reach from the top row with E, W, SE and SW moves.
    pub holes: u32,
    /// Empty rows above the highest filled cell.
    pub clear_rows: u32,
    /// Empty cells below a filled cell of their column (same x).
    pub covered: u32,
    /// Sum over columns of |height difference with the next column|.
    pub bumps: u32,
    /// Sum over rows of fill^2 x how open the row's empty cells are, plus emptiness^2 x how high
    /// the row is (the first-place team's row evaluation, on a scale of 1 per full open row).
    pub rows: f64,
}

impl Features {
    /// The features of `board`: a flood fill down the rows, each row's reached cells spread
    /// along their runs of empty cells, then one row down by SW and SE.
    pub fn of(board: &Board) -> Features {
        Features::of_with(board, true)
    }

    /// [`Features::of`], leaving `rows` at 0 unless `with_rows` (its floating-point powers
    /// dominate the cost of the rest).
    pub fn of_with(board: &Board, with_rows: bool) -> Features {
        let full = row_mask::<u128>(board.width());
        let rows = board.rows();
        let clear_rows = rows.iter().position(|&r| r != 0).unwrap_or(rows.len());
        let mut holes = 0;
        let (mut covered, mut bumps) = (0, 0);
        // The columns with a filled cell at or above the row.
        let mut columns = 0u128;
        // Every cell of an empty row is reached; so is the next row's every empty cell.
        let mut reached = full;
        let height = rows.len() as f64;
        let mut row_sum =
            clear_rows as f64 * 0.2 * (2.0 * height - clear_rows as f64 + 1.0) / 2.0 / height;
        let shape = RowShape::of(board);
        for (y, &row) in rows.iter().enumerate().skip(clear_rows) {
            if with_rows {
                let above = if y == 0 { None } else { Some(rows[y - 1]) };
                row_sum += shape.term(row, above, y);
            }
            let empty = !row & full;
            // Reached cells of row y - 1 step to row y: SW then SE, from an even or odd row.
            let seeds = if y % 2 == 1 {
                reached >> 1 | reached
            } else {
                reached | reached << 1
            };
            reached = runs_through(empty, seeds & empty);
            holes += (empty & !reached).count_ones();
            covered += (columns & empty).count_ones();
            columns |= row;
            bumps += ((columns ^ columns >> 1) & full >> 1).count_ones();
        }
        Features {
            holes,
            covered,
            bumps,
            clear_rows: clear_rows as u32,
            rows: row_sum,
        }
    }

    /// The board term of a node's value.
    pub fn value(&self, w: &Weights) -> f64 {
        w.holes * self.holes as f64
            + w.height * self.clear_rows as f64
            + w.cover * self.covered as f64
            + w.bumps * self.bumps as f64
            + w.rows * self.rows
    }
}

/// A board's width and height, for the terms of `Features::rows`.
struct RowShape {
    full: u128,
    last: u128,
    width: f64,
    height: f64,
}

impl RowShape {
    fn of(board: &Board) -> RowShape {
        RowShape {
            full: row_mask::<u128>(board.width()),
            last: 1u128 << (board.width() - 1),
            width: board.width() as f64,
            height: board.height() as f64,
        }
    }

    /// Row `y`'s term of `Features::rows`, `above` being row `y - 1` (`None` on the top row).
    fn term(&self, row: u128, above: Option<u128>, y: usize) -> f64 {
        let (full, last) = (self.full, self.last);
        let empty = !row & full;
        let fill = row.count_ones() as f64 / self.width;
        let side = (empty & (row << 1 | 1)).count_ones() + (empty & (row >> 1 | last)).count_ones();
        let (nw, ne) = match above {
            None => (0, 0),
            Some(above) if y.is_multiple_of(2) => ((above << 1 | 1) & full, above & full),
            Some(above) => (above & full, (above >> 1 | last) & full),
        };
        let up = (empty & nw).count_ones() + (empty & ne).count_ones();
        let both = (empty & nw & ne).count_ones();
        let powers = &tables::OPEN_POWERS;
        let open = powers[side as usize][0] * powers[up as usize][1] * powers[both as usize][2];
        fill * fill * open
            + 0.2 * (1.0 - fill) * (1.0 - fill) * (self.height - y as f64) / self.height
    }
}

/// Per n up to twice the widest row (128 cells), 0.95^n, 0.9^n and 0.8^n (`tables/icfp2015.rs`),
/// as `RowShape::term` once computed them by `powi` for every row: those calls took 15 % of the
/// beam's instructions on a 30 x 60 long game (callgrind, docs/icfp2015.md Part 18).
pub(super) mod tables {
    include!(concat!(env!("OUT_DIR"), "/icfp2015_tables.rs"));
}

/// A board's own terms of `Features::rows`, each computed the first time a lock of
/// [`rows_after_lock`] asks for it (on a tall board most rows are never touched), then the
/// same for all the board's locks.
#[derive(Default)]
pub(crate) struct RowTerms {
    terms: Vec<f64>,
}

impl RowTerms {
    /// Forgets the terms, for a board of `height` rows.
    pub(crate) fn reset(&mut self, height: usize) {
        self.terms.clear();
        self.terms.resize(height, f64::NAN);
    }
}

/// `Features::rows` of `board` with `unit` locked at `pos` where that clears no row, from
/// `before`, that of `board`: only the terms of the rows the unit touches and the row under
/// it change; the board's own terms are kept in `terms` where given (reset for `board`).
/// Computing the whole board's features for every child made a beam with the row evaluation
/// several times slower (30 x 60 boards; docs/icfp2015.md, Part 15). Measured (callgrind,
/// `icfp2015_survive --width 8 g1606.json`, Part 18): this took 49 % of the instructions, a
/// third of that in `powi`, half of its terms being the parent's, the same for each of the
/// parent's ~100-200 locks.
pub(crate) fn rows_after_lock(
    board: &Board,
    unit: &Unit,
    pos: Pos,
    before: f64,
    mut terms: Option<&mut RowTerms>,
) -> f64 {
    let shape = unit.shape(pos.orientation, pos.y);
    let row_shape = RowShape::of(board);
    let rows = board.rows();
    let left = pos.x + shape.dx_min;
    let first = (pos.y + shape.dy_min) as usize;
    let unit_row = |y: usize| -> u128 {
        match y.checked_sub(first) {
            Some(i) if i < shape.rows.len() => shape.rows[i] << left,
            _ => 0,
        }
    };
    let end = (first + shape.rows.len() + 1).min(rows.len());
    let mut sum = before;
    for y in first..end {
        let above = |with_unit: bool| {
            (y > 0).then(|| rows[y - 1] | if with_unit { unit_row(y - 1) } else { 0 })
        };
        let own = || row_shape.term(rows[y], above(false), y);
        sum -= match terms.as_deref_mut() {
            Some(RowTerms { terms }) => {
                if terms[y].is_nan() {
                    terms[y] = own();
                }
                terms[y]
            }
            None => own(),
        };
        sum += row_shape.term(rows[y] | unit_row(y), above(true), y);
    }
    sum
}

/// How the look-ahead values a unit's locks on one board: by `placement_value` (`PlainValues`,
/// the tests' reference), or by the beam's `children::Parent` (the same bits; problem 18 at
/// width 8: 8.67 G -> 5.23 G instructions for the plan, docs/icfp2015.md Part 28).
pub(crate) trait LockValues {
    /// Takes `board`, whose locks the next calls of `lock_value` value.
    fn load_board(&mut self, board: &Board);
    /// `placement_value(board, unit, pos, w).0`, `board` being the one loaded.
    fn lock_value(&mut self, board: &Board, unit: &Unit, pos: Pos, w: &Weights) -> f64;
}

/// [`LockValues`] by `placement_value` itself: the reference the beam's values are tested
/// against.
#[cfg(test)]
pub(crate) struct PlainValues;

#[cfg(test)]
impl LockValues for PlainValues {
    fn load_board(&mut self, _board: &Board) {}

    fn lock_value(&mut self, board: &Board, unit: &Unit, pos: Pos, w: &Weights) -> f64 {
        placement_value(board, unit, pos, w).0
    }
}

/// Where `unit` locks best on `board` by its placement value with the spawn term, and that
/// value; `None` when it cannot spawn or lock anywhere.
fn best_place(
    board: &Board,
    unit: &Unit,
    w: &Weights,
    spawn_rows: &[u128],
    values: &mut impl LockValues,
) -> Option<(f64, Pos)> {
    let spawn = unit.spawn;
    if !board.fits(unit.shape(spawn.orientation, spawn.y), spawn.x, spawn.y) {
        return None;
    }
    values.load_board(board);
    lock_positions_where(board, unit, spawn, w.resting)
        .into_iter()
        .map(|pos| {
            let value = values.lock_value(board, unit, pos, w)
                + w.spawn * overlap(unit, pos, spawn_rows) as f64;
            (value, pos)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// The look-ahead over a burst of big units (the next few, in order): the first's best
/// placement value (with the spawn term), low when the only places left are high on the
/// stack, `NO_ROOM` when it cannot spawn or lock anywhere; plus `NO_ROOM` if, each locked at
/// its best place in turn (the units between them ignored), a later one cannot spawn or lock.
/// `scratch` is any board of the same size; `values` values the locks. Measured (perf,
/// `icfp2015_survive --width 8` on a 40 x 30 game of 5000 units with 11-14-cell units among
/// small ones, docs/icfp2015.md Part 28): by `placement_value` this took ~75 % of the plan.
pub(crate) fn burst_value(
    board: &Board,
    burst: &[&Unit],
    w: &Weights,
    spawn_rows: &[u128],
    scratch: &mut Board,
    values: &mut impl LockValues,
) -> f64 {
    let Some((&first, rest)) = burst.split_first() else {
        return 0.0;
    };
    let Some((value, pos)) = best_place(board, first, w, spawn_rows, values) else {
        return NO_ROOM;
    };
    if rest.is_empty() {
        return value;
    }
    scratch.load_rows(board.rows());
    scratch.lock(first.shape(pos.orientation, pos.y), pos.x, pos.y);
    for &unit in rest {
        match best_place(scratch, unit, w, spawn_rows, values) {
            Some((_, pos)) => {
                scratch.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
            }
            None => return value + NO_ROOM,
        }
    }
    value
}

/// The one-unit look-ahead: the best value `unit` (the next of the sequence) has on `board`,
/// its placement value (with the spawn term) plus the change of the board term its lock makes
/// from `before` (`Features::value` of `board`; `rows_before` its `Features::rows`);
/// `NEXT_NO_ROOM` when it cannot spawn or lock anywhere. Where rows is the only board term,
/// a lock that clears no row takes `rows_after_lock`, not a whole-board pass. `scratch` is any
/// board of the same size.
#[allow(clippy::too_many_arguments)]
pub(crate) fn next_unit_value(
    board: &Board,
    unit: &Unit,
    w: &Weights,
    spawn_rows: &[u128],
    only_rows: bool,
    before: f64,
    rows_before: f64,
    scratch: &mut Board,
) -> f64 {
    let spawn = unit.spawn;
    if !board.fits(unit.shape(spawn.orientation, spawn.y), spawn.x, spawn.y) {
        return NEXT_NO_ROOM;
    }
    let mut terms = RowTerms::default();
    terms.reset(board.height());
    let mut best = NEXT_NO_ROOM;
    for pos in lock_positions_where(board, unit, spawn, w.resting) {
        let (mut value, lines) = placement_value(board, unit, pos, w);
        if w.spawn != 0.0 {
            value += w.spawn * overlap(unit, pos, spawn_rows) as f64;
        }
        let (after, _) = board_term_after_lock(
            board,
            unit,
            pos,
            lines,
            w,
            only_rows,
            rows_before,
            &mut terms,
            scratch,
        );
        // Without board terms both are 0: `Features::value` weighs nothing.
        best = best.max(value + after - before);
    }
    best
}

/// The board term (`Features::value`) after locking `unit` at `pos` on `board`, a lock that
/// clears `lines`, and its `Features::rows`; (0, 0) where no board term is weighted. Where
/// rows is the only board term (`only_rows`) and no row clears, it is `rows_before` (the
/// board's `Features::rows`) changed by the rows the unit touches (`rows_after_lock`, with
/// the board's own terms in `terms`), else a whole-board pass over `scratch`, any board of
/// the same size.
#[allow(clippy::too_many_arguments)]
pub(crate) fn board_term_after_lock(
    board: &Board,
    unit: &Unit,
    pos: Pos,
    lines: u32,
    w: &Weights,
    only_rows: bool,
    rows_before: f64,
    terms: &mut RowTerms,
    scratch: &mut Board,
) -> (f64, f64) {
    if only_rows && lines == 0 {
        let rows = rows_after_lock(board, unit, pos, rows_before, Some(terms));
        (w.rows * rows, rows)
    } else if w.sees_boards() {
        scratch.load_rows(board.rows());
        scratch.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
        let features = Features::of_with(scratch, w.rows != 0.0);
        (features.value(w), features.rows)
    } else {
        (0.0, 0.0)
    }
}

/// `next_unit_value` where the next unit cannot spawn or lock: the game ends there.
pub(crate) const NEXT_NO_ROOM: f64 = -1.0e6;

/// `burst_value` where a big unit has no place.
const NO_ROOM: f64 = -1000.0;

/// Per board row, the cells where some unit of the problem spawns.
pub(crate) fn spawn_cells(setup: &Setup) -> Vec<u128> {
    let mut rows = vec![0u128; setup.height()];
    for unit in &setup.units {
        let p = unit.spawn;
        let shape = unit.shape(p.orientation, p.y);
        for (i, &r) in shape.rows.iter().enumerate() {
            let y = p.y + shape.dy_min + i as i32;
            if (0..rows.len() as i32).contains(&y) {
                rows[y as usize] |= r << (p.x + shape.dx_min);
            }
        }
    }
    rows
}

/// How many cells of `unit` at `pos` are on `cells`.
pub(crate) fn overlap(unit: &Unit, pos: Pos, cells: &[u128]) -> u32 {
    let shape = unit.shape(pos.orientation, pos.y);
    let first = pos.y + shape.dy_min;
    shape
        .rows
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            (r << (pos.x + shape.dx_min) & cells[(first + i as i32) as usize]).count_ones()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::place::placement::{placements, Placement};
    use crate::icfp2015::rules::game::Game;
    use crate::icfp2015::rules::hex::{neighbour, Cell, Direction};

    #[test]
    fn the_open_cell_powers_are_the_decays_to_each_count() {
        for (n, powers) in tables::OPEN_POWERS.iter().enumerate() {
            for (&power, decay) in powers.iter().zip([0.95f64, 0.9, 0.8]) {
                let want = decay.powi(n as i32);
                assert!(
                    (power - want).abs() <= want * 1e-15,
                    "{decay}^{n}: {power} vs {want}"
                );
            }
        }
    }

    #[test]
    fn a_big_unit_that_cannot_spawn_has_no_room() {
        let setup = Setup::bundled(18);
        let blob = &setup.units[20];
        let w = Weights::default();
        let spawn_rows = spawn_cells(&setup);
        let mut scratch = setup.start.clone();
        assert!(
            burst_value(
                &setup.start,
                &[blob],
                &w,
                &spawn_rows,
                &mut scratch,
                &mut PlainValues
            ) > NO_ROOM
        );
        let mut board = setup.start.clone();
        let p = blob.spawn;
        board.lock(blob.shape(p.orientation, p.y), p.x, p.y);
        assert_eq!(
            burst_value(
                &board,
                &[blob],
                &w,
                &spawn_rows,
                &mut scratch,
                &mut PlainValues
            ),
            NO_ROOM
        );
    }

    #[test]
    fn a_burst_that_cannot_follow_the_first_unit_has_no_room() {
        // Problem 18's 17-cell blob on its empty 30 x 30 board: one fits, and after it (locked
        // at its best place, low) two more.
        let setup = Setup::bundled(18);
        let blob = &setup.units[20];
        // Without the spawn term: a blob locked on the spawn cells would value below NO_ROOM.
        let w = Weights {
            spawn: 0.0,
            ..Weights::for_setup(&setup)
        };
        let spawn_rows = spawn_cells(&setup);
        let mut scratch = setup.start.clone();
        let empty = &setup.start;
        let one = burst_value(
            empty,
            &[blob],
            &w,
            &spawn_rows,
            &mut scratch,
            &mut PlainValues,
        );
        assert!(one > NO_ROOM);
        assert_eq!(
            burst_value(
                empty,
                &[blob, blob, blob],
                &w,
                &spawn_rows,
                &mut scratch,
                &mut PlainValues
            ),
            one
        );
        // Every cell filled but the blob's spawn cells and the last column (so no row is
        // full): the blob locks where it spawns, and the next one cannot spawn.
        let p = blob.spawn;
        let spawn_cells = blob.cells(p);
        let mut board = setup.start.clone();
        for y in 0..setup.height() as i32 {
            for x in 0..setup.width() as i32 - 1 {
                let cell = Cell::new(x, y);
                if !spawn_cells.contains(&cell) {
                    board.set(cell);
                }
            }
        }
        let first = burst_value(
            &board,
            &[blob],
            &w,
            &spawn_rows,
            &mut scratch,
            &mut PlainValues,
        );
        assert!(first > NO_ROOM);
        assert_eq!(
            burst_value(
                &board,
                &[blob, blob],
                &w,
                &spawn_rows,
                &mut scratch,
                &mut PlainValues
            ),
            first + NO_ROOM
        );
    }

    /// The per-cell `placement_value` it replaced, to check it.
    fn reference_value(board: &Board, unit: &Unit, pos: Pos, w: &Weights) -> (f64, u32) {
        let cells = unit.cells(pos);
        let height = board.height() as f64;
        let filled = |c: Cell| !board.is_on_board(c) || board.get(c) || cells.contains(&c);
        let mut rows: Vec<i32> = cells.iter().map(|c| c.y).collect();
        rows.sort_unstable();
        rows.dedup();
        let mut lines = 0;
        let mut row_fill = 0.0;
        for &y in &rows {
            let taken = board.rows()[y as usize].count_ones() as usize
                + cells.iter().filter(|c| c.y == y).count();
            lines += u32::from(taken == board.width());
            row_fill += taken as f64 / board.width() as f64;
        }
        let points = unit.size as f64 + 50.0 * (1.0 + lines as f64) * lines as f64;
        let depth: f64 = cells.iter().map(|c| c.y as f64 / height).sum();
        let drop = cells.iter().map(|c| c.y).min().unwrap_or(0) as f64;
        let fall = pos.y as f64 - drop;
        let sides = Direction::ALL;
        let neighbours = cells
            .iter()
            .flat_map(|&c| sides.iter().map(move |&d| neighbour(c, d)))
            .filter(|&n| !cells.contains(&n) && filled(n))
            .count() as f64;
        let covered = cells
            .iter()
            .flat_map(|&c| [neighbour(c, Direction::SE), neighbour(c, Direction::SW)])
            .filter(|&n| board.is_on_board(n) && !filled(n))
            .count() as f64;
        let top = board
            .rows()
            .iter()
            .position(|&r| r != 0)
            .unwrap_or(board.height()) as i32;
        let top = cells.iter().map(|c| c.y).min().unwrap_or(top).min(top) + lines as i32;
        let value = w.points * points
            + w.stack * top as f64
            + w.lines * lines as f64
            + w.depth * depth
            + w.row_fill * row_fill
            + w.neighbours * neighbours
            + w.covered * covered
            + w.drop * drop
            + w.fall * fall;
        (value, lines)
    }

    #[test]
    fn a_spelling_games_best_lock_lets_the_pivot_fall_furthest() {
        // Problem 20's first unit (two cells 5 rows above its pivot) on the empty board: by the
        // pivot's fall the best lock is one whose pivot falls furthest of all (each set of cells
        // keeps its lowest pivot, `lock_positions_where`), and by the top cell's row none falls
        // further.
        let setup = Setup::bundled(20);
        let game = Game::new(&setup, setup.problem.source_seeds[0]);
        let unit = game.unit();
        let best_fall = |w: &Weights| {
            lock_positions_where(&setup.start, unit, unit.spawn, w.resting)
                .into_iter()
                .map(|pos| {
                    (
                        placement_value(&setup.start, unit, pos, w).0,
                        pos.y - unit.spawn.y,
                    )
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, fall)| fall)
                .unwrap()
        };
        let by_cells = best_fall(&Weights::for_game(&setup, false));
        let by_pivot = best_fall(&Weights::for_game(&setup, true));
        let furthest = lock_positions_where(&setup.start, unit, unit.spawn, false)
            .into_iter()
            .map(|pos| pos.y - unit.spawn.y)
            .max()
            .unwrap();
        assert_eq!(by_pivot, furthest);
        assert!(by_cells <= by_pivot, "{by_cells} > {by_pivot}");
    }

    #[test]
    fn placement_value_matches_the_per_cell_version() {
        let w = Weights {
            stack: 3.0,
            lines: 7.0,
            fall: 2.5,
            ..Weights::default()
        };
        for id in [0, 6, 13, 18, 24] {
            let setup = Setup::bundled(id);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            for step in 0..40 {
                if game.is_over() {
                    break;
                }
                let options = placements(&game);
                for p in &options {
                    let (a, la) = placement_value(game.board(), game.unit(), p.pos, &w);
                    let (b, lb) = reference_value(game.board(), game.unit(), p.pos, &w);
                    assert_eq!(la, lb, "problem {id} step {step} {p:?}");
                    assert!(
                        (a - b).abs() < 1e-9,
                        "problem {id} step {step} {p:?}: {a} vs {b}"
                    );
                }
                let mut by_top: Vec<_> = options.iter().collect();
                by_top.sort_by_key(|p| game.unit().cells(p.pos).iter().map(|c| c.y).min());
                let pick = by_top[by_top.len() - 1 - (step * 7) % by_top.len().div_ceil(3)];
                for &c in &pick.path {
                    game.step(c);
                }
            }
        }
    }

    #[test]
    fn the_rows_after_a_lock_are_those_of_the_locked_board() {
        // Every lock that clears no row, along games of problems 18 (30 x 30, a 17-cell unit)
        // and 9 (10 x 8), against the whole board's features.
        for id in [18, 9] {
            let setup = Setup::bundled(id);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            let mut checked = 0;
            for step in 0..60 {
                if game.is_over() {
                    break;
                }
                let board = game.board().clone();
                let before = Features::of(&board).rows;
                let mut terms = RowTerms::default();
                terms.reset(board.height());
                let options = placements(&game);
                for p in &options {
                    let mut locked = board.clone();
                    let shape = game.unit().shape(p.pos.orientation, p.pos.y);
                    if locked.lock(shape, p.pos.x, p.pos.y) != 0 {
                        continue;
                    }
                    let whole = Features::of(&locked).rows;
                    let delta = rows_after_lock(&board, game.unit(), p.pos, before, None);
                    assert!((whole - delta).abs() < 1e-9, "problem {id} step {step}");
                    let cached =
                        rows_after_lock(&board, game.unit(), p.pos, before, Some(&mut terms));
                    assert_eq!(cached, delta, "problem {id} step {step}");
                    checked += 1;
                }
                let pick = &options[(step * 7) % options.len()];
                for &c in &pick.path {
                    game.step(c);
                }
            }
            assert!(checked > 50, "{checked}");
        }
    }

    /// `next_unit_value` the slow way: every lock of `unit`, the whole board's features after it.
    fn reference_next_value(board: &Board, unit: &Unit, w: &Weights, spawn_rows: &[u128]) -> f64 {
        let before = Features::of(board).value(w);
        let p = unit.spawn;
        if !board.fits(unit.shape(p.orientation, p.y), p.x, p.y) {
            return NEXT_NO_ROOM;
        }
        lock_positions_where(board, unit, p, w.resting)
            .into_iter()
            .map(|pos| {
                let mut locked = board.clone();
                locked.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
                placement_value(board, unit, pos, w).0
                    + w.spawn * overlap(unit, pos, spawn_rows) as f64
                    + Features::of(&locked).value(w)
                    - before
            })
            .fold(NEXT_NO_ROOM, f64::max)
    }

    #[test]
    fn the_next_unit_value_is_its_best_lock_on_the_whole_board() {
        // Along games of problems 9 (10 x 8, the long-game weights: rows only, incremental)
        // and 18 (30 x 30, big units: rows, cover and the spawn term, whole-board passes), the
        // look-ahead's value of each board for the next unit against the slow version.
        for id in [9, 18] {
            let setup = Setup::bundled(id);
            let w = Weights::for_setup(&setup);
            let only_rows = !Weights { rows: 0.0, ..w }.sees_boards();
            assert_eq!(only_rows, id == 9);
            let spawn_rows = spawn_cells(&setup);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            let order = game.order().to_vec();
            let mut scratch = setup.start.clone();
            let mut checked = 0;
            for step in 0..60 {
                if game.is_over() || step + 1 >= order.len() {
                    break;
                }
                let board = game.board().clone();
                let next = &setup.units[order[step + 1] as usize];
                let features = Features::of(&board);
                let fast = next_unit_value(
                    &board,
                    next,
                    &w,
                    &spawn_rows,
                    only_rows,
                    features.value(&w),
                    features.rows,
                    &mut scratch,
                );
                let slow = reference_next_value(&board, next, &w, &spawn_rows);
                assert!(
                    (fast - slow).abs() < 1e-6,
                    "problem {id} step {step}: {fast} {slow}"
                );
                checked += 1;
                // The greedy lock, or the second best on every third step: a game that lasts.
                let mut options = placements(&game);
                options.sort_by(|a, b| {
                    let value = |p: &Placement| placement_value(&board, game.unit(), p.pos, &w).0;
                    value(b).total_cmp(&value(a))
                });
                let pick = &options[usize::from(step % 3 == 2).min(options.len() - 1)];
                for &c in &pick.path {
                    game.step(c);
                }
            }
            assert!(checked > 20, "{checked}");
        }
    }

    #[test]
    fn a_next_unit_that_cannot_spawn_has_no_room() {
        // Problem 9's board with its spawn rows filled but for one cell (no row full): no unit
        // of more than one cell spawns; the same board empty has a place for it.
        let setup = Setup::bundled(9);
        let w = Weights::for_setup(&setup);
        let unit = setup.units.iter().find(|u| u.size > 1).unwrap();
        let mut scratch = setup.start.clone();
        let empty = &setup.start;
        let value = |board: &Board, scratch: &mut Board| {
            let f = Features::of(board);
            next_unit_value(board, unit, &w, &[], true, f.value(&w), f.rows, scratch)
        };
        assert!(value(empty, &mut scratch) > NEXT_NO_ROOM);
        let mut blocked = setup.start.clone();
        for y in 0..2 {
            for x in 1..setup.width() as i32 {
                blocked.set(Cell::new(x, y));
            }
        }
        assert_eq!(value(&blocked, &mut scratch), NEXT_NO_ROOM);
    }

    #[test]
    fn holes_are_the_cells_the_top_cannot_reach() {
        let mut board = Board::new(5, 4);
        // Row 1 full but for column 4: row 2 reached only below (4, 1).
        for x in 0..4 {
            board.set(Cell::new(x, 1));
        }
        let f = Features::of(&board);
        // Row 1 odd: (4, 1) steps to (4, 2) and (5, 2) (off the board).
        // Row 2: all 5 empty, one run, reached. Row 3 all reached.
        assert_eq!((f.holes, f.clear_rows), (0, 1));
        board.set(Cell::new(3, 2));
        let f = Features::of(&board);
        // Row 2: (4, 2) reached, run {4}; (0..3, 2) holes. Row 3 odd? No: row 3 from even row 2:
        // (4, 2) -> (3, 3), (4, 3); row 3 all empty: one run, reached.
        assert_eq!((f.holes, f.clear_rows), (3, 1));
    }
}
