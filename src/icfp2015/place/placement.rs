//! Every place the falling unit can lock, each with a shortest command path from where it is
//! now: a BFS over (pivot, orientation) on the current board; the move generator of a solver.
//
// Positions are keyed by pivot and *canonical* orientation: two orientations with the same
// member set are the same position for the repeated-position rule. A BFS path is shortest, so
// it never visits a position twice and can never trigger that error, whatever its moves.

use crate::core::hash::FastMap;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::commands::Command;
use crate::icfp2015::rules::game::{target, Game};
use crate::icfp2015::rules::hex::Cell;
use crate::icfp2015::rules::unit::{Pos, Unit};
use std::collections::hash_map::Entry;

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
    let mut parent: FastMap<Pos, Option<(Pos, Command)>> = FastMap::default();
    parent.insert(start, None);
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
    // Positions with different pivots can still lock the same cells; keep the one with the
    // lowest pivot, then the first (as `deeper_or_nearer`), in BFS order.
    let mut kept: FastMap<Vec<Cell>, usize> = FastMap::default();
    for (i, &(pos, _)) in locks.iter().enumerate() {
        let mut cells = unit.cells(pos);
        cells.sort_by_key(|c| (c.y, c.x));
        match kept.entry(cells) {
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
            Entry::Occupied(mut slot) => {
                // Equal nearness: the BFS order already has the nearer first.
                if deeper_or_nearer(pos, locks[*slot.get()].0, |_| 0) {
                    slot.insert(i);
                }
            }
        }
    }
    let mut keep: Vec<usize> = kept.into_values().collect();
    keep.sort_unstable();
    keep.into_iter()
        .map(|i| locks[i])
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

/// The cells of `free` in a run (of consecutive set bits) that holds a cell of `seeds`; `seeds`
/// must lie in `free`.
#[inline]
pub fn runs_through(free: u128, seeds: u128) -> u128 {
    // The sum's carries run from each seed up to the end of its run; `^ free ^ seeds` leaves
    // the carries (a plain `^ free` is wrong when one run holds two seeds).
    let east = (free.wrapping_add(seeds) ^ free ^ seeds) & free;
    let (free_r, seeds_r) = (free.reverse_bits(), seeds.reverse_bits());
    let west = (free_r.wrapping_add(seeds_r) ^ free_r ^ seeds_r) & free_r;
    east | west.reverse_bits() | seeds
}

/// The lock positions of `unit` reachable from `start` on `board`, distinct as locked cells,
/// without paths: the move generator of the beam search.
//
// A flood fill over bit masks instead of a BFS over positions: per pivot row and orientation,
// bit i says whether the pivot at column `i - dx_min` fits (`fits`) and is reached (`reached`).
// E/W moves spread along runs of fitting bits, turns exchange masks between orientations of one
// row, SE/SW moves seed the next row; a row is done when the turns add nothing. Measured on
// problem 24 (100 columns): the BFS with a visited array cost ~1.5 ms per call.
pub fn lock_positions(board: &Board, unit: &Unit, start: Pos) -> Vec<Pos> {
    lock_positions_where(board, unit, start, false)
}

/// [`lock_positions`], only those where the unit rests (SW or SE is blocked) when `resting`.
//
// The flood runs in `u64` words where the board is at most 64 columns wide (every blob game),
// `u128` beyond: every mask lies in the low `width` bits, so both give the same bits. With the
// changes of `flood` (callgrind, g1606 width 8): 441 M -> 222 M instructions (docs Part 24).
//
// Far above the first filled row (more than `FAR` rows and the unit's span), where a unit can
// only hang on a wall, no lock is made: the flood runs those rows until its masks repeat every
// two rows and jumps to the last of them, so a tall board's expansion costs its stack's rows,
// not its height (docs Part 35). Boards of at most `FAR` rows never jump.
pub fn lock_positions_where(board: &Board, unit: &Unit, start: Pos, resting: bool) -> Vec<Pos> {
    locks_and_cut(board, unit, start, resting).0
}

/// How far above the first filled row (beyond the unit's span) locks are still made.
pub const FAR: i32 = 64;

/// [`lock_positions_where`] and the first row a kept lock's cells may start on (`i32::MIN`
/// where the flood did not jump): the locks are those of the full flood whose first cell row is
/// at or below it, in the same order.
fn locks_and_cut(board: &Board, unit: &Unit, start: Pos, resting: bool) -> (Vec<Pos>, i32) {
    if board.width() <= 64 {
        flood::<u64>(board, unit, start, resting)
    } else {
        flood::<u128>(board, unit, start, resting)
    }
}

/// A word the flood of [`lock_positions_where`] runs in: bit i is a pivot column.
trait FloodWord:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Not<Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// The low columns of a board row (the board is no wider than the word).
    fn from_row(row: u128) -> Self;
    /// The low `columns` bits set; none when `columns <= 0`.
    fn low(columns: i32) -> Self;
    /// `self` shifted `by` bits toward the high end (toward the low end when negative).
    fn shift(self, by: i32) -> Self;
    /// [`runs_through`] in this word.
    fn runs_through(free: Self, seeds: Self) -> Self;
    fn trailing_zeros(self) -> u32;
    fn without_lowest(self) -> Self;
}

macro_rules! flood_word {
    ($word:ty) => {
        impl FloodWord for $word {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn from_row(row: u128) -> Self {
                row as $word
            }
            #[inline]
            fn low(columns: i32) -> Self {
                match columns {
                    c if c <= 0 => 0,
                    c if c >= <$word>::BITS as i32 => <$word>::MAX,
                    c => (1 << c) - 1,
                }
            }
            #[inline]
            fn shift(self, by: i32) -> Self {
                const TOP: i32 = <$word>::BITS as i32 - 1;
                const BOTTOM: i32 = -TOP;
                match by {
                    0..=TOP => self << by,
                    BOTTOM..=-1 => self >> -by,
                    _ => 0,
                }
            }
            #[inline]
            fn runs_through(free: Self, seeds: Self) -> Self {
                let east = (free.wrapping_add(seeds) ^ free ^ seeds) & free;
                let (free_r, seeds_r) = (free.reverse_bits(), seeds.reverse_bits());
                let west = (free_r.wrapping_add(seeds_r) ^ free_r ^ seeds_r) & free_r;
                east | west.reverse_bits() | seeds
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$word>::trailing_zeros(self)
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    };
}
flood_word!(u64);
flood_word!(u128);

/// [`lock_positions_where`] in words of `W`.
//
// Per pivot row and orientation, the blocked pivots are the board's rows under the shape, each
// row loaded once per shape row and shifted once per member of that row. Locks go through the
// map of locked cell sets only where another orientation or parity has the same shape (a
// symmetric unit): a shape of its own locks each cell set at one pivot only.
fn flood<W: FloodWord>(board: &Board, unit: &Unit, start: Pos, resting: bool) -> (Vec<Pos>, i32) {
    let grid = Grid::new(unit, board);
    let (width, height) = (board.width() as i32, board.height() as i32);
    let rows = board.rows();
    let (y_low, y_high) = (*grid.row_range().start(), *grid.row_range().end());
    let canonical = unit.canonical;
    // Per orientation and pivot-row parity: the pivot column of bit 0, and the fitting bits.
    let mut base = [[0i32; 2]; 6];
    let mut valid = [[W::ZERO; 2]; 6];
    // Per orientation and parity, the first cell row's offset from the pivot row; over all,
    // the least and greatest row offsets of a cell.
    let mut first_row = [[0i32; 2]; 6];
    let (mut dy_low, mut dy_high) = (i32::MAX, i32::MIN);
    for o in 0..6u8 {
        for p in 0..2 {
            let shape = unit.shape(o, p);
            base[o as usize][p as usize] = -shape.dx_min;
            valid[o as usize][p as usize] = W::low(width - (shape.dx_max - shape.dx_min));
            first_row[o as usize][p as usize] = shape.dy_min;
            dy_low = dy_low.min(shape.dy_min);
            dy_high = dy_high.max(shape.dy_max);
        }
    }
    let start = Pos {
        orientation: canonical[start.orientation as usize],
        ..start
    };
    if start.y < y_low
        || start.y > y_high
        || !board.fits(unit.shape(start.orientation, start.y), start.x, start.y)
    {
        return (Vec::new(), i32::MIN);
    }
    // Pivot rows `clear_from..=clear_to` see only empty rows in every orientation: their
    // fitting masks depend on the row's parity alone. The flood may jump to `jump_to` at most
    // (of the same parity as the row it jumps from); locks then start on row `cut` or below,
    // where `FAR` and the unit's span keep every lock that touches a filled row or the floor.
    let top = rows.iter().position(|&r| r != 0).unwrap_or(rows.len()) as i32;
    let (clear_from, clear_to) = (-dy_low, top - 1 - dy_high);
    let span = dy_high - dy_low;
    let jump_to = clear_to - 1 - FAR - span;
    let max_first = first_row.iter().flatten().copied().max().unwrap_or(0);
    let mut cut = i32::MIN;
    let fits_row = |y: i32| -> [W; 6] {
        let mut out = [W::ZERO; 6];
        if y < y_low || y > y_high {
            return out;
        }
        for o in 0..6u8 {
            if canonical[o as usize] != o {
                out[o as usize] = out[canonical[o as usize] as usize];
                continue;
            }
            let shape = unit.shape(o, y);
            if y + shape.dy_min < 0 || y + shape.dy_max >= height {
                continue;
            }
            let top = (y + shape.dy_min) as usize;
            let mut blocked = W::ZERO;
            for (row, &members) in rows[top..].iter().zip(&shape.rows) {
                let row = W::from_row(*row);
                // Members past the word's width are in a shape wider than the board, whose
                // `valid` is empty.
                let mut members = W::from_row(members);
                while members != W::ZERO {
                    blocked |= row >> members.trailing_zeros();
                    members = members.without_lowest();
                }
            }
            out[o as usize] = !blocked & valid[o as usize][(y & 1) as usize];
        }
        out
    };
    let mut locks = Vec::with_capacity((grid.len() / 8).clamp(16, 1024));
    // Positions that lock the same cells: the one with the lowest pivot is kept, then the one
    // nearest the start (`deeper_or_nearer`), and the list is in the order of nearness, as in
    // the BFS this replaced (measured: problem 20 scored 8,400-8,500 with the
    // BFS, 6,962-7,010 with row order and the first position of a cell set kept).
    // Keyed by the cells' first column and row and the number of their shape (`shape_ids`) in
    // one word: hashing the shape's rows and growing the map from 256 entries took ~12 % of a
    // 30 x 60 beam's instructions (callgrind, g1606 width 8: ~790 locks a call).
    let shape_ids = shape_ids(unit);
    let shared: [[bool; 2]; 6] = std::array::from_fn(|o| {
        std::array::from_fn(|p| {
            (0..12).any(|j| {
                let (o2, p2) = (j / 2, j % 2);
                canonical[o2] as usize == o2
                    && (o2, p2) != (o, p)
                    && shape_ids[o2][p2] == shape_ids[o][p]
            })
        })
    });
    let mut locked_cells: FastMap<u64, usize> = FastMap::default();
    if shared.iter().flatten().any(|&s| s) {
        locked_cells.reserve((grid.len() / 8).clamp(16, 1024));
    }
    // The fewest turns from the start's orientation to each, once (not a `rem_euclid` per lock).
    let turns: [i32; 6] = std::array::from_fn(|o| {
        let turns = (o as i32 - start.orientation as i32).rem_euclid(6);
        turns.min(6 - turns)
    });
    let moves =
        |pos: Pos| (pos.y - start.y) + (pos.x - start.x).abs() + turns[pos.orientation as usize];
    let mut fits = fits_row(start.y);
    let mut reached = [W::ZERO; 6];
    let p = (start.y & 1) as usize;
    reached[start.orientation as usize] =
        W::ONE.shift(start.x - base[start.orientation as usize][p]);
    // The masks each of the last two rows was entered with.
    let mut entered = [[W::ZERO; 6]; 2];
    // Never on a board of at most `FAR` rows: nothing to keep there.
    let can_jump = jump_to >= start.y + 4;
    let mut y = start.y;
    while y <= y_high {
        // Rows y - 2 ..= y + 1 clear and the masks as two rows up: every row of the same
        // parity until `jump_to` + 1 is entered with them, and makes locks whose cells start
        // above `cut`. Those made so far start above it too (at most y + max_first).
        if can_jump {
            if y - 2 >= clear_from
                && y + 2 <= jump_to
                && y - 2 >= start.y
                && reached == entered[(y & 1) as usize]
            {
                y = jump_to - ((jump_to - y) & 1);
                cut = y + max_first;
                locks.clear();
                locked_cells.clear();
            }
            entered[(y & 1) as usize] = reached;
        }
        let p = (y & 1) as usize;
        // Spread along the row, turning, until nothing changes.
        loop {
            let mut changed = false;
            for o in 0..6 {
                if canonical[o] as usize != o {
                    continue;
                }
                let mut here = reached[o];
                for from in [(o + 5) % 6, (o + 1) % 6] {
                    let from_mask = reached[canonical[from] as usize];
                    here |= from_mask.shift(base[from][p] - base[o][p]) & fits[o];
                }
                let here = W::runs_through(fits[o], here);
                if here != reached[o] {
                    reached[o] = here;
                    changed = true;
                }
            }
            for o in 0..6 {
                reached[o] = reached[canonical[o] as usize];
            }
            if !changed {
                break;
            }
        }
        let below = fits_row(y + 1);
        // SW and SE column moves from a pivot row of parity p.
        let (sw, se) = if p == 0 { (-1, 0) } else { (0, 1) };
        let mut next = [W::ZERO; 6];
        for o in 0..6 {
            if canonical[o] as usize != o || reached[o] == W::ZERO {
                continue;
            }
            let down = base[o][p] - base[o][1 - p];
            let falls = below[o].shift(-(sw + down)) & below[o].shift(-(se + down));
            let lock = reached[o]
                & !if resting {
                    falls
                } else {
                    (fits[o] >> 1)
                        & fits[o].shift(1)
                        & fits[(o + 1) % 6].shift(base[(o + 1) % 6][p] - base[o][p])
                        & fits[(o + 5) % 6].shift(base[(o + 5) % 6][p] - base[o][p])
                        & falls
                };
            let mut lock = lock;
            while lock != W::ZERO {
                let i = lock.trailing_zeros() as i32;
                lock = lock.without_lowest();
                let here = Pos {
                    x: base[o][p] + i,
                    y,
                    orientation: o as u8,
                };
                if y + first_row[o][p] < cut {
                    continue;
                }
                if !shared[o][p] {
                    locks.push(here);
                    continue;
                }
                let shape = unit.shape(here.orientation, here.y);
                let key = ((here.x + shape.dx_min) as u64)
                    | ((here.y + shape.dy_min) as u64) << 16
                    | (shape_ids[o][p] as u64) << 48;
                match locked_cells.entry(key) {
                    Entry::Vacant(slot) => {
                        slot.insert(locks.len());
                        locks.push(here);
                    }
                    Entry::Occupied(slot) => {
                        let kept = &mut locks[*slot.get()];
                        if deeper_or_nearer(here, *kept, moves) {
                            *kept = here;
                        }
                    }
                }
            }
            next[o] = (reached[o].shift(sw + down) | reached[o].shift(se + down)) & below[o];
        }
        for o in 0..6 {
            next[o] = next[canonical[o] as usize];
        }
        if next.iter().all(|&m| m == W::ZERO) {
            break;
        }
        reached = next;
        fits = below;
        y += 1;
    }
    (by_moves(locks, moves), cut)
}

/// Of two positions that lock the same cells, whether `here` is kept over `kept`: the one whose
/// pivot lies lower (its route falls more rows, where phrases are spelled: a cell turning about
/// a pivot 4 cells away locks the same cell with the pivot 4 rows above, level or 4 below),
/// then the one nearer the start.
fn deeper_or_nearer(here: Pos, kept: Pos, moves: impl Fn(Pos) -> i32) -> bool {
    here.y > kept.y || (here.y == kept.y && moves(here) < moves(kept))
}

/// Per orientation and pivot-row parity, a number of the unit's shape there: equal where
/// the shapes' rows are equal (the same cells when locked at the same first column and row).
fn shape_ids(unit: &Unit) -> [[u8; 2]; 6] {
    let mut ids = [[0u8; 2]; 6];
    for o in 0..6u8 {
        for p in 0..2 {
            let rows = &unit.shape(o, p).rows;
            let same = (0..=o as usize * 2 + p as usize)
                .find(|&j| &unit.shape((j / 2) as u8, (j % 2) as i32).rows == rows)
                .unwrap_or(0);
            ids[o as usize][p as usize] = same as u8;
        }
    }
    ids
}

/// `locks` in the (stable) order of their `moves`, by counting: the moves are small
/// non-negative numbers (rows down plus columns across plus turns). Measured (callgrind, a
/// plan of long-46-shapes): the stable comparison sort took 22 % of the beam's instructions.
fn by_moves(locks: Vec<Pos>, moves: impl Fn(Pos) -> i32) -> Vec<Pos> {
    let keys: Vec<usize> = locks
        .iter()
        .map(|&pos| moves(pos).max(0) as usize)
        .collect();
    let buckets = keys.iter().max().map_or(0, |&k| k + 1);
    let mut starts = vec![0usize; buckets + 1];
    for &k in &keys {
        starts[k + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = locks.clone();
    for (&pos, &k) in locks.iter().zip(&keys) {
        sorted[starts[k]] = pos;
        starts[k] += 1;
    }
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `value` shifted `by` bits toward the high end (toward the low end when negative).
    #[inline]
    fn shift(value: u128, by: i32) -> u128 {
        match by {
            0..=127 => value << by,
            -127..=-1 => value >> -by,
            _ => 0,
        }
    }

    /// `lock_positions_where` as it was before Part 24 (`u128` words, every member shifted per
    /// row and orientation, every lock through the map): the reference the new one must equal.
    pub(super) fn reference_lock_positions_where(
        board: &Board,
        unit: &Unit,
        start: Pos,
        resting: bool,
    ) -> Vec<Pos> {
        let grid = Grid::new(unit, board);
        let (width, height) = (board.width() as i32, board.height() as i32);
        let rows = board.rows();
        let (y_low, y_high) = (*grid.row_range().start(), *grid.row_range().end());
        // Per orientation and pivot-row parity: the pivot column of bit 0, and the fitting bits.
        let mut base = [[0i32; 2]; 6];
        let mut valid = [[0u128; 2]; 6];
        for o in 0..6u8 {
            for p in 0..2 {
                let shape = unit.shape(o, p);
                base[o as usize][p as usize] = -shape.dx_min;
                let columns = width - (shape.dx_max - shape.dx_min);
                valid[o as usize][p as usize] = match columns {
                    c if c <= 0 => 0,
                    128 => u128::MAX,
                    c => (1u128 << c) - 1,
                };
            }
        }
        let canonical = unit.canonical;
        let start = Pos {
            orientation: canonical[start.orientation as usize],
            ..start
        };
        if start.y < y_low
            || start.y > y_high
            || !board.fits(unit.shape(start.orientation, start.y), start.x, start.y)
        {
            return Vec::new();
        }
        let fits_row = |y: i32| -> [u128; 6] {
            let mut out = [0u128; 6];
            if y < y_low || y > y_high {
                return out;
            }
            for o in 0..6u8 {
                if canonical[o as usize] != o {
                    out[o as usize] = out[canonical[o as usize] as usize];
                    continue;
                }
                let shape = unit.shape(o, y);
                if y + shape.dy_min < 0 || y + shape.dy_max >= height {
                    continue;
                }
                let mut blocked = 0u128;
                for &(dx, dy) in &shape.members {
                    blocked |= rows[(y + dy) as usize] >> (dx - shape.dx_min);
                }
                out[o as usize] = !blocked & valid[o as usize][(y & 1) as usize];
            }
            out
        };
        let mut locks = Vec::new();
        // Positions that lock the same cells: as `deeper_or_nearer`, and the list in the order
        // of nearness, as in the BFS this replaced (measured: problem 20 scored 8,400-8,500
        // with the BFS, 6,962-7,010 with row order and the first position of a cell set kept).
        // Keyed by the cells' first column and row and the number of their shape (`shape_ids`) in
        // one word: hashing the shape's rows and growing the map from 256 entries took ~12 % of a
        // 30 x 60 beam's instructions (callgrind, g1606 width 8: ~790 locks a call).
        let shape_ids = shape_ids(unit);
        let mut locked_cells: FastMap<u64, usize> =
            FastMap::with_capacity_and_hasher((grid.len() / 8).clamp(16, 1024), Default::default());
        let moves = |pos: Pos| {
            let turns = (pos.orientation as i32 - start.orientation as i32).rem_euclid(6);
            (pos.y - start.y) + (pos.x - start.x).abs() + turns.min(6 - turns)
        };
        let mut fits = fits_row(start.y);
        let mut reached = [0u128; 6];
        let p = (start.y & 1) as usize;
        reached[start.orientation as usize] =
            1u128 << (start.x - base[start.orientation as usize][p]);
        for y in start.y..=y_high {
            let p = (y & 1) as usize;
            // Spread along the row, turning, until nothing changes.
            loop {
                let mut changed = false;
                for o in 0..6 {
                    if canonical[o] as usize != o {
                        continue;
                    }
                    let mut here = reached[o];
                    for from in [(o + 5) % 6, (o + 1) % 6] {
                        let from_mask = reached[canonical[from] as usize];
                        here |= shift(from_mask, base[from][p] - base[o][p]) & fits[o];
                    }
                    let here = runs_through(fits[o], here);
                    if here != reached[o] {
                        reached[o] = here;
                        changed = true;
                    }
                }
                for o in 0..6 {
                    reached[o] = reached[canonical[o] as usize];
                }
                if !changed {
                    break;
                }
            }
            let below = fits_row(y + 1);
            // SW and SE column moves from a pivot row of parity p.
            let (sw, se) = if p == 0 { (-1, 0) } else { (0, 1) };
            let mut next = [0u128; 6];
            for o in 0..6 {
                if canonical[o] as usize != o || reached[o] == 0 {
                    continue;
                }
                let down = base[o][p] - base[o][1 - p];
                let stays = (fits[o] >> 1)
                    & (fits[o] << 1)
                    & shift(fits[(o + 1) % 6], base[(o + 1) % 6][p] - base[o][p])
                    & shift(fits[(o + 5) % 6], base[(o + 5) % 6][p] - base[o][p])
                    & shift(below[o], -(sw + down))
                    & shift(below[o], -(se + down));
                let falls = shift(below[o], -(sw + down)) & shift(below[o], -(se + down));
                let mut lock = reached[o] & !if resting { falls } else { stays };
                while lock != 0 {
                    let i = lock.trailing_zeros() as i32;
                    lock &= lock - 1;
                    let here = Pos {
                        x: base[o][p] + i,
                        y,
                        orientation: o as u8,
                    };
                    let shape = unit.shape(here.orientation, here.y);
                    let key = ((here.x + shape.dx_min) as u64)
                        | ((here.y + shape.dy_min) as u64) << 16
                        | (shape_ids[o][p] as u64) << 48;
                    match locked_cells.entry(key) {
                        Entry::Vacant(slot) => {
                            slot.insert(locks.len());
                            locks.push(here);
                        }
                        Entry::Occupied(slot) => {
                            let kept = &mut locks[*slot.get()];
                            if deeper_or_nearer(here, *kept, moves) {
                                *kept = here;
                            }
                        }
                    }
                }
                next[o] = (shift(reached[o], sw + down) | shift(reached[o], se + down)) & below[o];
            }
            for o in 0..6 {
                next[o] = next[canonical[o] as usize];
            }
            if next.iter().all(|&m| m == 0) {
                break;
            }
            reached = next;
            fits = below;
        }
        by_moves(locks, moves)
    }
    use crate::core::rng::Rng;
    use crate::icfp2015::rules::game::{Outcome, Setup};
    use crate::icfp2015::rules::hex::Cell;
    use std::collections::HashSet;

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

    /// Problem 12's single cell turns about a pivot 4 cells east: the same cell locks with the
    /// pivot 4 rows above, level or 4 rows below, and the lowest is kept (the longest fall).
    #[test]
    fn same_cells_keep_the_lowest_pivot() {
        let setup = setup(12);
        let unit = &setup.units[0];
        assert_eq!(unit.size, 1);
        let floor = setup.height() as i32 - 1;
        let cell_row = |pos: Pos| unit.cells(pos)[0].y;
        let flood = lock_positions_where(&setup.start, unit, unit.spawn, false);
        let bfs: Vec<Pos> = placements_from(&setup.start, unit, unit.spawn)
            .into_iter()
            .map(|p| p.pos)
            .collect();
        for locks in [flood, bfs] {
            let on_floor: Vec<Pos> = locks
                .into_iter()
                .filter(|&p| cell_row(p) == floor)
                .collect();
            assert_eq!(on_floor.len(), setup.width(), "one lock per floor cell");
            for pos in on_floor {
                assert_eq!(pos.y, floor + 4, "{pos:?}");
            }
        }
    }

    #[test]
    fn by_moves_is_a_stable_sort_by_moves() {
        let locks: Vec<Pos> = (0..200)
            .map(|i| Pos {
                x: (i * 37) % 23,
                y: (i * 11) % 17,
                orientation: (i % 6) as u8,
            })
            .collect();
        let moves = |p: Pos| p.y + (p.x - 5).abs() + i32::from(p.orientation % 3);
        let mut expected = locks.clone();
        expected.sort_by_key(|&p| moves(p));
        assert_eq!(by_moves(locks, moves), expected);
        assert_eq!(by_moves(Vec::new(), moves), Vec::new());
    }

    #[test]
    fn runs_through_fills_whole_runs() {
        let free = 0b0111_0111_1101;
        assert_eq!(runs_through(free, 0b0000_0000_0100), 0b0000_0111_1100);
        assert_eq!(runs_through(free, 0b0101_0000_0001), 0b0111_0000_0001);
        assert_eq!(runs_through(free, 0b0001_0100_1000), free & !0b1);
        assert_eq!(runs_through(u128::MAX, 1 << 64), u128::MAX);
    }

    /// A board of `setup`'s size, each cell below a random row filled with a random chance
    /// (full rows left in: the flood must not care).
    fn random_board(setup: &Setup, rng: &mut Rng) -> Board {
        let mut board = setup.start.clone();
        let (width, height) = (setup.width(), setup.height());
        let top = rng.range(height / 3..height + 1);
        let chance = 0.9 * rng.f64();
        for y in top..height {
            for x in 0..width {
                if rng.chance(chance) {
                    board.set(Cell::new(x as i32, y as i32));
                }
            }
        }
        board
    }

    /// `lock_positions_where` returns exactly the positions, in the same order, of the `u128`
    /// flood it replaced (`reference_lock_positions_where`): random boards of problems 9 (10
    /// columns, pre-filled), 2 (15 x 30, 33 units), 18 (30, pre-filled), 14 (50), 24 (100:
    /// the `u128` word) and problem 24 cut to 64 and 65 columns (the edges of the `u64`
    /// word), every unit, from its spawn and from random positions, resting or not.
    #[test]
    fn lock_positions_are_those_of_the_u128_reference() {
        let mut rng = Rng::new(2427);
        let mut setups: Vec<(String, Setup)> = [9, 2, 18, 14, 24]
            .into_iter()
            .map(|id| (format!("problem {id}"), setup(id)))
            .collect();
        for width in [64, 65] {
            let mut problem = setup(24).problem;
            problem.width = width;
            problem.filled.retain(|c| (c.x as usize) < width);
            setups.push((format!("problem 24 at width {width}"), Setup::new(problem)));
        }
        let (mut compared, mut nonempty) = (0, 0);
        for (name, setup) in &setups {
            for _ in 0..6 {
                let board = random_board(setup, &mut rng);
                for (u, unit) in setup.units.iter().enumerate() {
                    let mut starts = vec![unit.spawn];
                    for _ in 0..3 {
                        starts.push(Pos {
                            x: rng.range(0..setup.width()) as i32,
                            y: rng.range(0..setup.height()) as i32,
                            orientation: rng.range(0..6) as u8,
                        });
                    }
                    for start in starts {
                        for resting in [false, true] {
                            let want = reference_lock_positions_where(&board, unit, start, resting);
                            let got = lock_positions_where(&board, unit, start, resting);
                            assert_eq!(got, want, "{name} unit {u} from {start:?} {resting}");
                            compared += 1;
                            nonempty += usize::from(!want.is_empty());
                        }
                    }
                }
            }
        }
        assert!(compared > 3000 && nonempty > 1500, "{compared} {nonempty}");
    }

    /// On boards taller than `FAR` rows over their stack, `lock_positions_where` returns the
    /// reference's locks whose cells start at the cut or below, in the same order, and drops
    /// none whose cells reach within `FAR` rows of the first filled one: problems 9 (10
    /// columns), 18 (30) and 24 (100: the `u128` word) made 300 and 2,000 rows tall, a random
    /// stack of 0-40 rows, every unit from its spawn and random starts, resting or not.
    #[test]
    fn tall_boards_drop_only_the_locks_far_above_the_stack() {
        let mut rng = Rng::new(3533);
        let (mut compared, mut jumped, mut dropped) = (0, 0, 0);
        for id in [9, 18, 24] {
            for height in [300, 2000] {
                let mut problem = setup(id).problem;
                problem.height = height;
                problem.filled.clear();
                let setup = Setup::new(problem);
                let mut board = setup.start.clone();
                let stack = rng.range(0..41);
                let chance = 0.8 * rng.f64();
                for y in height - stack..height {
                    for x in 0..setup.width() {
                        if rng.chance(chance) {
                            board.set(Cell::new(x as i32, y as i32));
                        }
                    }
                }
                let top = board.rows().iter().position(|&r| r != 0).unwrap_or(height) as i32;
                for unit in &setup.units {
                    let mut starts = vec![unit.spawn];
                    for _ in 0..2 {
                        starts.push(Pos {
                            x: rng.range(0..setup.width()) as i32,
                            y: rng.range(0..height) as i32,
                            orientation: rng.range(0..6) as u8,
                        });
                    }
                    for start in starts {
                        for resting in [false, true] {
                            let all = reference_lock_positions_where(&board, unit, start, resting);
                            let (got, cut) = locks_and_cut(&board, unit, start, resting);
                            let first = |p: &Pos| p.y + unit.shape(p.orientation, p.y).dy_min;
                            let (kept, gone): (Vec<Pos>, Vec<Pos>) =
                                all.iter().partition(|p| first(p) >= cut);
                            assert_eq!(got, kept, "problem {id} height {height} {start:?}");
                            for p in &gone {
                                let low = unit.cells(*p).iter().map(|c| c.y).max().unwrap();
                                assert!(low < top - 1 - FAR, "{p:?} near the stack {top}");
                            }
                            compared += 1;
                            jumped += usize::from(cut != i32::MIN);
                            dropped += gone.len();
                        }
                    }
                }
            }
        }
        assert!(
            compared > 500 && jumped > 100 && dropped > 10_000,
            "{compared} {jumped} {dropped}"
        );
    }

    /// The flood fill finds the same locked cell sets as the BFS of `placements_from`, on
    /// boards of several problems after a few deep locks.
    #[test]
    fn lock_positions_match_the_bfs() {
        const STEPS: usize = 300;
        for id in [0, 1, 6, 13, 18, 20, 24] {
            let setup = setup(id);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            for step in 0..STEPS {
                if game.is_over() {
                    break;
                }
                let options = placements(&game);
                let cells = |pos: Pos| {
                    let mut c = game.unit().cells(pos);
                    c.sort_by_key(|c| (c.y, c.x));
                    c
                };
                let expected: HashSet<_> = options.iter().map(|p| cells(p.pos)).collect();
                let found = lock_positions(game.board(), game.unit(), game.pos());
                let got: HashSet<_> = found.iter().map(|&p| cells(p)).collect();
                assert_eq!(
                    found.len(),
                    got.len(),
                    "problem {id} step {step}: duplicates"
                );
                assert_eq!(got, expected, "problem {id} step {step}");
                // Locks low on the board more often than not, to fill it slowly.
                let mut by_top: Vec<&Placement> = options.iter().collect();
                by_top.sort_by_key(|p| game.unit().cells(p.pos).iter().map(|c| c.y).min());
                let pick = by_top[by_top.len() - 1 - (step * 7) % by_top.len().div_ceil(3)];
                for &c in &pick.path {
                    game.step(c);
                }
            }
        }
    }
}
