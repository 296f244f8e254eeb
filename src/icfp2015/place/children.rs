//! The beam's children valued fast: `placement_value`, `rows_after_lock` and the whole board's
//! `Features` of every lock of one parent board, from what the parent's locks share, same numbers.
//
// Same values, bit for bit, as `value::placement_value` and `value::rows_after_lock` (the same
// integer counts, the same `f64` operations in the same order; tests below and in
// tests/icfp2015_layers.rs compare them on random boards), made cheaper by what a parent's
// ~100-300 locks share: the board's rows (as 64-bit words where the board is at most 64
// columns wide: half the work of a `u128` for every shift, mask and count), its top, its own
// row terms, and the unit's rows shifted once per lock instead of once per use. A child's
// `Features` (the big-unit mix's board term) start from the parent's state at the unit's first
// row and stop where the flood and the column mask meet the parent's again; where holes weigh
// nothing there is no flood at all (`board_term_unless_below`: covered cells and bumps from the
// columns' first filled rows), and a child whose bound is below the layer's cut is left out.

use super::value::tables::OPEN_POWERS;
use super::value::{Features, LockValues};
use super::weights::Weights;
use crate::core::bitboard::RowWord;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::unit::{Pos, Unit};

/// A row word the children's values are computed in: `u64` for boards up to 64 columns,
/// `u128` beyond.
pub(crate) trait Lane: RowWord {
    /// The low `Self::BITS` columns of a board row.
    fn from_row(row: u128) -> Self;
    /// The word with only bit 0 set.
    const ONE: Self;
    /// `placement::runs_through` in this word: the runs of `free` that hold a bit of `seeds`.
    fn runs_through(free: Self, seeds: Self) -> Self;
}

impl Lane for u64 {
    #[inline]
    fn from_row(row: u128) -> u64 {
        row as u64
    }
    const ONE: u64 = 1;
    #[inline]
    fn runs_through(free: u64, seeds: u64) -> u64 {
        let east = (free.wrapping_add(seeds) ^ free ^ seeds) & free;
        let (free_r, seeds_r) = (free.reverse_bits(), seeds.reverse_bits());
        let west = (free_r.wrapping_add(seeds_r) ^ free_r ^ seeds_r) & free_r;
        east | west.reverse_bits() | seeds
    }
}

impl Lane for u128 {
    #[inline]
    fn from_row(row: u128) -> u128 {
        row
    }
    const ONE: u128 = 1;
    #[inline]
    fn runs_through(free: u128, seeds: u128) -> u128 {
        let east = (free.wrapping_add(seeds) ^ free ^ seeds) & free;
        let (free_r, seeds_r) = (free.reverse_bits(), seeds.reverse_bits());
        let west = (free_r.wrapping_add(seeds_r) ^ free_r ^ seeds_r) & free_r;
        east | west.reverse_bits() | seeds
    }
}

/// One parent board, loaded for valuing its locks; its buffers are kept from parent to parent.
pub(crate) struct ParentBoard<W: Lane> {
    rows: Vec<W>,
    /// The board's own terms of `Features::rows`, NaN until a lock asks for one.
    own_terms: Vec<f64>,
    /// The unit's rows at the lock being valued, shifted to its columns, with an empty row
    /// above and below.
    unit_rows: Vec<W>,
    /// Per row, the count of each cell's filled neighbours (a neighbour off the board counts
    /// as filled) in three bit planes (1, 2, 4); valid from row `planes_from` down.
    planes: Vec<[W; 3]>,
    planes_from: usize,
    terms: RowShape<W>,
    full: W,
    last: W,
    width: u32,
    height: i32,
    /// The first filled row (the height when the board is empty).
    top: i32,
    /// The first row of the unit last placed by `place_unit`.
    first: i32,
    /// The parent's `Features` state per row, for its children's (`features_after_lock`).
    state: BoardState<W>,
}

/// A board's `Features::of` pass kept per row, filled the first time a child asks
/// (`ParentBoard::features_after_lock`).
struct BoardState<W> {
    ready: bool,
    /// Per row: the empty cells the flood reaches, and the columns filled at or above it
    /// (all and none above the first filled row).
    reached: Vec<W>,
    columns: Vec<W>,
    /// Per row, the holes, covered cells and bumps of the rows from it down (one more entry,
    /// 0, for the row under the board).
    below: Vec<[u32; 3]>,
    /// Per row from the first filled one, `Features::rows`' running sum before the row's term.
    row_sums: Vec<f64>,
    /// Per row, the sum of the own terms of the rows from it down (one more entry, 0): a
    /// child's `rows` bound (`ParentBoard::board_term_unless_below`).
    tails: Vec<f64>,
    /// Per column, its first filled row (the height when it has none), and a copy a child's
    /// columns are written into and restored from.
    tops: Vec<i32>,
    child_tops: Vec<i32>,
    /// The first filled row (the height when the board is empty).
    clear: usize,
}

impl<W: Lane> ParentBoard<W> {
    pub(crate) fn new() -> ParentBoard<W> {
        ParentBoard {
            rows: Vec::new(),
            own_terms: Vec::new(),
            unit_rows: Vec::new(),
            planes: Vec::new(),
            planes_from: 0,
            terms: RowShape::new(),
            full: W::EMPTY,
            last: W::EMPTY,
            width: 0,
            height: 0,
            top: 0,
            first: 0,
            state: BoardState {
                ready: false,
                reached: Vec::new(),
                columns: Vec::new(),
                below: Vec::new(),
                row_sums: Vec::new(),
                tails: Vec::new(),
                tops: Vec::new(),
                child_tops: Vec::new(),
                clear: 0,
            },
        }
    }

    /// Loads the board of `rows`, `width` columns (at most `W::BITS`).
    pub(crate) fn load(&mut self, rows: &[u128], width: usize) {
        debug_assert!(width >= 1 && width <= W::BITS);
        self.rows.clear();
        self.rows.extend(rows.iter().map(|&r| W::from_row(r)));
        self.own_terms.clear();
        self.own_terms.resize(rows.len(), f64::NAN);
        self.planes.resize(rows.len(), [W::EMPTY; 3]);
        self.planes_from = rows.len();
        self.terms.set(width, rows.len());
        self.full = W::row_mask(width);
        self.last = W::bit(width - 1);
        self.width = width as u32;
        self.height = rows.len() as i32;
        self.top = rows.iter().position(|&r| r != 0).unwrap_or(rows.len()) as i32;
        self.state.ready = false;
    }

    /// Makes the neighbour planes valid from row `from` down.
    #[inline]
    fn planes_from(&mut self, from: usize) {
        if from < self.planes_from {
            self.fill_planes(from);
        }
    }

    fn fill_planes(&mut self, from: usize) {
        let (full, last, height) = (self.full, self.last, self.rows.len());
        let walls = !W::EMPTY;
        for y in from..self.planes_from {
            let here = self.rows[y];
            // From an even row the diagonal neighbours are columns x - 1 and x, from an odd
            // row x and x + 1; a row off the board is filled.
            let diagonals = |other: Option<usize>| match other {
                None => (walls, walls),
                Some(other) => {
                    let filled = self.rows[other];
                    if y % 2 == 0 {
                        (filled << 1 | W::ONE, filled)
                    } else {
                        (filled, filled >> 1 | last)
                    }
                }
            };
            let (a1, a2) = diagonals(y.checked_sub(1));
            let (b1, b2) = diagonals((y + 1 < height).then_some(y + 1));
            let (w, e) = (here << 1 | W::ONE, here >> 1 | last);
            // Six one-bit counts added in bit planes: two full adders, then the carries.
            let (s1, c1) = (w ^ e ^ a1, (w & e) | (a1 & (w ^ e)));
            let (s2, c2) = (a2 ^ b1 ^ b2, (a2 & b1) | (b2 & (a2 ^ b1)));
            let (bit0, carry) = (s1 ^ s2, s1 & s2);
            let bit1 = c1 ^ c2 ^ carry;
            let bit2 = (c1 & c2) | (carry & (c1 ^ c2));
            self.planes[y] = [bit0 & full, bit1 & full, bit2 & full];
        }
        self.planes_from = from;
    }

    /// `unit`'s rows at `pos` into `unit_rows` (index `i + 1` for the unit's row `i`); the
    /// first row of the unit.
    #[inline]
    fn place_unit(&mut self, unit: &Unit, pos: Pos) -> i32 {
        let shape = unit.shape(pos.orientation, pos.y);
        let left = (pos.x + shape.dx_min) as usize;
        self.unit_rows.clear();
        self.unit_rows.push(W::EMPTY);
        self.unit_rows
            .extend(shape.rows.iter().map(|&r| W::from_row(r) << left));
        self.unit_rows.push(W::EMPTY);
        self.first = pos.y + shape.dy_min;
        self.first
    }

    /// `value::placement_value(board, unit, pos, w)` of this board, and where `rows_before`
    /// (`Features::rows` of the board) is given and the lock clears no row,
    /// `value::rows_after_lock(board, unit, pos, rows_before, ..)`.
    pub(crate) fn value(
        &mut self,
        unit: &Unit,
        pos: Pos,
        w: &Weights,
        rows_before: Option<f64>,
    ) -> (f64, u32, Option<f64>) {
        let first = self.place_unit(unit, pos);
        self.planes_from(first as usize);
        let (value, lines) = self.placement_value(unit, pos, first, w);
        let rows = match rows_before {
            Some(before) if lines == 0 => Some(self.rows_after_lock(first, before)),
            _ => None,
        };
        (value, lines, rows)
    }

    /// [`ParentBoard::value`] with `Some(before)`, unless the lock clears no row and its
    /// total `offset + value + w.rows * rows` is below `cut` for certain: `None` then, without
    /// computing its rows. The bound replaces each changed row's new term by one at least as
    /// large (`RowShape::term_bound`) in the same sum, so it is never below the exact total
    /// (rounding is monotone; `w.rows` at least 0).
    pub(crate) fn value_unless_below(
        &mut self,
        unit: &Unit,
        pos: Pos,
        w: &Weights,
        before: f64,
        offset: f64,
        cut: f64,
    ) -> Option<(f64, u32, Option<f64>)> {
        debug_assert!(w.rows >= 0.0);
        let first = self.place_unit(unit, pos);
        self.planes_from(first as usize);
        let (value, lines) = self.placement_value(unit, pos, first, w);
        if lines != 0 {
            return Some((value, lines, None));
        }
        if cut > f64::NEG_INFINITY && offset + value + w.rows * self.rows_bound(first, before) < cut
        {
            return None;
        }
        Some((value, 0, Some(self.rows_after_lock(first, before))))
    }

    /// At least `rows_after_lock(first, before)`: a row the unit does not touch (the one under
    /// it) keeps its own term as the bound (cells added above it only lower its term), a row it
    /// touches takes `RowShape::term_bound`.
    fn rows_bound(&mut self, first: i32, before: f64) -> f64 {
        let first = first as usize;
        let end = (first + self.unit_rows.len() - 1).min(self.rows.len());
        let rows = &self.rows[first..end];
        let own_terms = &mut self.own_terms[first..end];
        let unit_rows = &self.unit_rows[1..=end - first];
        let mut above = first.checked_sub(1).map(|y| self.rows[y]);
        let mut sum = before;
        for (j, ((&here, own), &cells)) in rows.iter().zip(own_terms).zip(unit_rows).enumerate() {
            let y = first + j;
            if own.is_nan() {
                *own = self.terms.term(here, above, y);
            }
            sum -= *own;
            sum += if cells == W::EMPTY {
                *own
            } else {
                self.terms.term_bound(here | cells, y)
            };
            above = Some(here);
        }
        sum
    }

    fn placement_value(&self, unit: &Unit, pos: Pos, first: i32, w: &Weights) -> (f64, u32) {
        let (full, width, height) = (self.full, self.width, self.height);
        // Slices of the unit's rows: bounds checked once, not at every row.
        let f = first as usize;
        let count = self.unit_rows.len() - 2;
        let board = &self.rows[f..f + count];
        let planes = &self.planes[f..f + count];
        let below = &self.rows[(f + 1).min(self.rows.len())..];
        let (mut lines, mut row_fill, mut depth) = (0u32, 0.0, 0i64);
        let (mut neighbours, mut covered) = (0u32, 0u32);
        let rows = self.unit_rows[1..].windows(2).zip(board).zip(planes);
        for (i, ((unit_rows, &here), &[one, two, four])) in rows.enumerate() {
            let cells = unit_rows[0];
            if cells == W::EMPTY {
                continue;
            }
            let y = first + i as i32;
            let taken = (here | cells).count_ones();
            lines += u32::from(taken == width);
            row_fill += taken as f64 / width as f64;
            let size = cells.count_ones();
            depth += y as i64 * size as i64;
            neighbours += (cells & one).count_ones()
                + 2 * (cells & two).count_ones()
                + 4 * (cells & four).count_ones();
            // The cells under the unit's, empty: from an even row the diagonal neighbours are
            // columns x - 1 and x, from an odd row x and x + 1.
            if let Some(&filled) = below.get(i) {
                let empty = !filled & !unit_rows[1] & full;
                let even = y % 2 == 0;
                let (west, east) = if even {
                    (empty << 1, empty)
                } else {
                    (empty, empty >> 1)
                };
                covered += (cells & west).count_ones() + (cells & east).count_ones();
            }
        }
        let points = unit.size as f64 + 50.0 * (1.0 + lines as f64) * lines as f64;
        let depth = depth as f64 / height as f64;
        let drop = first as f64;
        let fall = (pos.y - first) as f64;
        let top = first.min(self.top) + lines as i32;
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

    /// `value::rows_after_lock` of the unit placed by `place_unit` (first row `first`).
    fn rows_after_lock(&mut self, first: i32, before: f64) -> f64 {
        let first = first as usize;
        let end = (first + self.unit_rows.len() - 1).min(self.rows.len());
        let rows = &self.rows[first..end];
        let own_terms = &mut self.own_terms[first..end];
        // unit_rows[j + 1] is the unit's row first + j; unit_rows[j] the one above it.
        let unit_rows = &self.unit_rows[..=end - first];
        let mut above = first.checked_sub(1).map(|y| self.rows[y]);
        let mut sum = before;
        for (j, (&here, own)) in rows.iter().zip(own_terms).enumerate() {
            let y = first + j;
            if own.is_nan() {
                *own = self.terms.term(here, above, y);
            }
            sum -= *own;
            let with_unit = above.map(|a| a | unit_rows[j]);
            sum += self.terms.term(here | unit_rows[j + 1], with_unit, y);
            above = Some(here);
        }
        sum
    }
}

impl<W: Lane> ParentBoard<W> {
    /// Fills the parent's per-row `Features` state (`BoardState`) and all its own row terms:
    /// `Features::of_with` of the board, kept row by row.
    fn load_state(&mut self) {
        let (full, height) = (self.full, self.rows.len());
        let clear = self.top as usize;
        let state = &mut self.state;
        state.clear = clear;
        state.reached.clear();
        state.reached.resize(height, full);
        state.columns.clear();
        state.columns.resize(height, W::EMPTY);
        state.row_sums.clear();
        state.row_sums.resize(height, 0.0);
        state.below.clear();
        state.below.resize(height + 1, [0; 3]);
        let mut above = None;
        for y in 0..height {
            if self.own_terms[y].is_nan() {
                self.own_terms[y] = self.terms.term(self.rows[y], above, y);
            }
            above = Some(self.rows[y]);
        }
        let mut sum = clear_rows_sum(clear, height);
        let (mut reached, mut columns) = (full, W::EMPTY);
        for y in clear..height {
            state.row_sums[y] = sum;
            sum += self.own_terms[y];
            (reached, columns, state.below[y]) = flood_row(self.rows[y], reached, columns, y, full);
            state.reached[y] = reached;
            state.columns[y] = columns;
        }
        // Each row's own counts, summed from the bottom up.
        for y in (0..height).rev() {
            let (next, here) = (state.below[y + 1], state.below[y]);
            state.below[y] = [next[0] + here[0], next[1] + here[1], next[2] + here[2]];
        }
        state.tails.clear();
        state.tails.resize(height + 1, 0.0);
        for y in (0..height).rev() {
            state.tails[y] = self.own_terms[y] + state.tails[y + 1];
        }
        state.tops.clear();
        state.tops.resize(self.width as usize, height as i32);
        let mut seen = W::EMPTY;
        for y in clear..height {
            let mut new = self.rows[y] & !seen;
            seen = seen | new;
            while new != W::EMPTY {
                state.tops[new.trailing_zeros() as usize] = y as i32;
                new = new.without_lowest();
            }
        }
        state.child_tops.clone_from(&state.tops);
        state.ready = true;
    }

    /// `Features::of_with(board, with_rows)` of the board with the unit of the last
    /// [`ParentBoard::value`] locked, a lock that cleared no row: the rows above the unit's
    /// first are the parent's, and below the unit, from the first row where the flood's reached
    /// cells and the filled columns are the parent's again, so are the counts. `rows` is summed
    /// in the reference's order (the parent's running sum, the changed rows' terms, then the
    /// parent's own terms): the same bits.
    pub(crate) fn features_after_lock(&mut self, with_rows: bool) -> Features {
        if !self.state.ready {
            self.load_state();
        }
        let (full, height) = (self.full, self.rows.len());
        let first = self.first as usize;
        let unit_end = first + self.unit_rows.len() - 2;
        let state = &self.state;
        let child_row = |y: usize| -> W {
            match y.checked_sub(first) {
                Some(i) if y < unit_end => self.rows[y] | self.unit_rows[i + 1],
                _ => self.rows[y],
            }
        };
        let (mut reached, mut columns) = match first.checked_sub(1) {
            Some(y) => (state.reached[y], state.columns[y]),
            None => (full, W::EMPTY),
        };
        let (top, at) = (state.below[0], state.below[first]);
        let mut counts = [top[0] - at[0], top[1] - at[1], top[2] - at[2]];
        for y in first..height {
            let row_counts;
            (reached, columns, row_counts) = flood_row(child_row(y), reached, columns, y, full);
            for (count, add) in counts.iter_mut().zip(row_counts) {
                *count += add;
            }
            if y + 1 >= unit_end && reached == state.reached[y] && columns == state.columns[y] {
                for (count, add) in counts.iter_mut().zip(state.below[y + 1]) {
                    *count += add;
                }
                break;
            }
        }
        let clear = state.clear.min(first);
        let rows = if with_rows {
            let mut sum = if clear == state.clear {
                state.row_sums[first]
            } else {
                clear_rows_sum(clear, height)
            };
            let end = (unit_end + 1).min(height);
            let mut above = first.checked_sub(1).map(|y| self.rows[y]);
            for y in first..end {
                let row = child_row(y);
                sum += self.terms.term(row, above, y);
                above = Some(row);
            }
            for &term in &self.own_terms[end..] {
                sum += term;
            }
            sum
        } else {
            clear_rows_sum(clear, height)
        };
        Features {
            holes: counts[0],
            covered: counts[1],
            bumps: counts[2],
            clear_rows: clear as u32,
            rows,
        }
    }
}

impl<W: Lane> ParentBoard<W> {
    /// `Features::value(w)` and `Features::rows` of the board with the unit of the last
    /// [`ParentBoard::value`] locked (a lock that cleared no row), as
    /// [`ParentBoard::features_after_lock`] gives them, the same bits; or `None` where
    /// `lead + term` (`lead` the child's total before its board term) is below `cut` for
    /// certain. Where holes weigh nothing (every unit mix's weights) there is no flood: the
    /// covered cells and bumps follow from the columns' first filled rows (a unit cell in
    /// column x at row u above the column's top t covers the t - u - 1 cells between, and every
    /// unit cell fills one cell: covered changes by max(t - u, 0) - cells per column; bumps are
    /// the sum of |t(x) - t(x + 1)|), `w.holes * holes` is the same zero whatever the count, and
    /// `rows` is the parent's running sum, the changed rows' terms, then the parent's own
    /// terms in order as before. The bound takes the own terms' sum from the parent's tails
    /// (all terms are at least 0, so rounding moves either sum by at most a relative 3e-12 on
    /// boards of 10,000 rows) enlarged by a relative 1e-9, and needs `w.rows` at least 0.
    pub(crate) fn board_term_unless_below(
        &mut self,
        w: &Weights,
        with_rows: bool,
        lead: f64,
        cut: f64,
    ) -> Option<(f64, f64)> {
        if w.holes != 0.0 {
            let features = self.features_after_lock(with_rows);
            return Some((features.value(w), features.rows));
        }
        if !self.state.ready {
            self.load_state();
        }
        let height = self.rows.len();
        let first = self.first as usize;
        let unit_rows = &self.unit_rows[1..self.unit_rows.len() - 1];
        let unit_end = first + unit_rows.len();
        let state = &mut self.state;
        // The unit's first row in each of its columns: that column's top in the child.
        let (mut seen, mut changed) = (W::EMPTY, W::EMPTY);
        let (mut gained, mut cells) = (0u32, 0u32);
        for (i, &row) in unit_rows.iter().enumerate() {
            let y = (first + i) as i32;
            cells += row.count_ones();
            let mut new = row & !seen;
            seen = seen | row;
            while new != W::EMPTY {
                let x = new.trailing_zeros() as usize;
                let top = state.tops[x];
                if y < top {
                    gained += (top - y) as u32;
                    changed = changed | W::bit(x);
                    state.child_tops[x] = y;
                }
                new = new.without_lowest();
            }
        }
        let [_, covered, bumps] = state.below[0];
        let covered = covered + gained - cells;
        // The pairs of neighbouring columns one of which changed: bit x for (x, x + 1).
        let mut pairs = (changed | changed >> 1) & (self.full >> 1);
        let mut bumps = bumps as i64;
        while pairs != W::EMPTY {
            let x = pairs.trailing_zeros() as usize;
            let (old, new) = (&state.tops, &state.child_tops);
            bumps +=
                i64::from((new[x] - new[x + 1]).abs()) - i64::from((old[x] - old[x + 1]).abs());
            pairs = pairs.without_lowest();
        }
        let mut restore = changed;
        while restore != W::EMPTY {
            let x = restore.trailing_zeros() as usize;
            state.child_tops[x] = state.tops[x];
            restore = restore.without_lowest();
        }
        let clear = state.clear.min(first);
        let features = |rows: f64| Features {
            holes: 0,
            covered,
            bumps: bumps as u32,
            clear_rows: clear as u32,
            rows,
        };
        if !with_rows {
            let rows = clear_rows_sum(clear, height);
            let term = features(rows).value(w);
            return (lead + term >= cut || cut == f64::NEG_INFINITY).then_some((term, rows));
        }
        let mut sum = if clear == state.clear {
            state.row_sums[first]
        } else {
            clear_rows_sum(clear, height)
        };
        let end = (unit_end + 1).min(height);
        let mut above = first.checked_sub(1).map(|y| self.rows[y]);
        for y in first..end {
            let row = match y - first {
                i if y < unit_end => self.rows[y] | unit_rows[i],
                _ => self.rows[y],
            };
            sum += self.terms.term(row, above, y);
            above = Some(row);
        }
        if cut > f64::NEG_INFINITY && w.rows >= 0.0 {
            let bound = (sum + state.tails[end]) * (1.0 + 1e-9);
            if lead + features(bound).value(w) < cut {
                return None;
            }
        }
        for &term in &self.own_terms[end..] {
            sum += term;
        }
        Some((features(sum).value(w), sum))
    }
}

/// `Features::rows`' sum of the `clear` empty rows on top of a board of `height` rows, as
/// `Features::of_with` starts it.
fn clear_rows_sum(clear: usize, height: usize) -> f64 {
    let height = height as f64;
    clear as f64 * 0.2 * (2.0 * height - clear as f64 + 1.0) / 2.0 / height
}

/// One row `y` of `Features::of_with`'s pass: from the reached cells of the row above and
/// the columns filled above, the row's reached cells, the columns filled at or above it, and
/// its holes, covered cells and bumps.
#[inline]
fn flood_row<W: Lane>(row: W, reached: W, columns: W, y: usize, full: W) -> (W, W, [u32; 3]) {
    let empty = !row & full;
    let seeds = if y % 2 == 1 {
        reached >> 1 | reached
    } else {
        reached | reached << 1
    };
    let reached = W::runs_through(empty, seeds & empty);
    let holes = (empty & !reached).count_ones();
    let covered = (columns & empty).count_ones();
    let columns = columns | row;
    let bumps = ((columns ^ columns >> 1) & full >> 1).count_ones();
    (reached, columns, [holes, covered, bumps])
}

/// A board's width and height, for the terms of `Features::rows`.
struct RowShape<W> {
    full: W,
    last: W,
    width: u32,
    height: f64,
    /// Per count of a row's filled cells: fill^2, and 0.2 x (1 - fill)^2, of the row term.
    fill_squares: Vec<f64>,
    emptiness: Vec<f64>,
}

impl<W: Lane> RowShape<W> {
    fn new() -> RowShape<W> {
        RowShape {
            full: W::EMPTY,
            last: W::EMPTY,
            width: 0,
            height: 0.0,
            fill_squares: Vec::new(),
            emptiness: Vec::new(),
        }
    }

    /// For boards of `width` columns and `height` rows.
    fn set(&mut self, width: usize, height: usize) {
        if self.width != width as u32 {
            // The row term's `fill * fill * open + 0.2 * (1.0 - fill) * (1.0 - fill) * ..`
            // evaluates these products first: the same numbers from a table.
            let fills = (0..=width).map(|count| count as f64 / width as f64);
            self.fill_squares = fills.clone().map(|fill| fill * fill).collect();
            self.emptiness = fills
                .map(|fill| 0.2 * (1.0 - fill) * (1.0 - fill))
                .collect();
        }
        self.full = W::row_mask(width);
        self.last = W::bit(width - 1);
        self.width = width as u32;
        self.height = height as f64;
    }

    /// `value::RowShape::term`: row `y`'s term of `Features::rows`, `above` being row `y - 1`.
    #[inline]
    fn term(&self, row: W, above: Option<W>, y: usize) -> f64 {
        let (full, last) = (self.full, self.last);
        let empty = !row & full;
        let count = row.count_ones() as usize;
        let side =
            (empty & (row << 1 | W::ONE)).count_ones() + (empty & (row >> 1 | last)).count_ones();
        let (nw, ne) = match above {
            None => (W::EMPTY, W::EMPTY),
            Some(above) if y.is_multiple_of(2) => ((above << 1 | W::ONE) & full, above & full),
            Some(above) => (above & full, (above >> 1 | last) & full),
        };
        let up = (empty & nw).count_ones() + (empty & ne).count_ones();
        let both = (empty & nw & ne).count_ones();
        let powers = &OPEN_POWERS;
        let open = powers[side as usize][0] * powers[up as usize][1] * powers[both as usize][2];
        let height = self.height;
        self.fill_squares[count] * open + self.emptiness[count] * (height - y as f64) / height
    }

    /// At least `term(row, above, y)` for any `above`: the open factor's powers of `up` and
    /// `both` (at most 1) left out, the same operations otherwise.
    #[inline]
    fn term_bound(&self, row: W, y: usize) -> f64 {
        let (full, last) = (self.full, self.last);
        let empty = !row & full;
        let count = row.count_ones() as usize;
        let side =
            (empty & (row << 1 | W::ONE)).count_ones() + (empty & (row >> 1 | last)).count_ones();
        let open = OPEN_POWERS[side as usize][0];
        let height = self.height;
        self.fill_squares[count] * open + self.emptiness[count] * (height - y as f64) / height
    }
}

/// A [`ParentBoard`] in the narrowest lane the board fits.
pub(crate) enum Parent {
    Narrow(ParentBoard<u64>),
    Wide(ParentBoard<u128>),
}

impl Parent {
    /// For boards of `width` columns.
    pub(crate) fn for_width(width: usize) -> Parent {
        if width <= 64 {
            Parent::Narrow(ParentBoard::new())
        } else {
            Parent::Wide(ParentBoard::new())
        }
    }

    /// [`ParentBoard::load`].
    pub(crate) fn load(&mut self, rows: &[u128], width: usize) {
        match self {
            Parent::Narrow(board) => board.load(rows, width),
            Parent::Wide(board) => board.load(rows, width),
        }
    }

    /// [`ParentBoard::value`].
    #[inline]
    pub(crate) fn value(
        &mut self,
        unit: &Unit,
        pos: Pos,
        w: &Weights,
        rows_before: Option<f64>,
    ) -> (f64, u32, Option<f64>) {
        match self {
            Parent::Narrow(board) => board.value(unit, pos, w, rows_before),
            Parent::Wide(board) => board.value(unit, pos, w, rows_before),
        }
    }

    /// [`ParentBoard::value_unless_below`].
    #[inline]
    pub(crate) fn value_unless_below(
        &mut self,
        unit: &Unit,
        pos: Pos,
        w: &Weights,
        before: f64,
        offset: f64,
        cut: f64,
    ) -> Option<(f64, u32, Option<f64>)> {
        match self {
            Parent::Narrow(board) => board.value_unless_below(unit, pos, w, before, offset, cut),
            Parent::Wide(board) => board.value_unless_below(unit, pos, w, before, offset, cut),
        }
    }

    /// [`ParentBoard::features_after_lock`].
    #[cfg(test)]
    pub(crate) fn features_after_lock(&mut self, with_rows: bool) -> Features {
        match self {
            Parent::Narrow(board) => board.features_after_lock(with_rows),
            Parent::Wide(board) => board.features_after_lock(with_rows),
        }
    }

    /// [`ParentBoard::board_term_unless_below`].
    #[inline]
    pub(crate) fn board_term_unless_below(
        &mut self,
        w: &Weights,
        with_rows: bool,
        lead: f64,
        cut: f64,
    ) -> Option<(f64, f64)> {
        match self {
            Parent::Narrow(board) => board.board_term_unless_below(w, with_rows, lead, cut),
            Parent::Wide(board) => board.board_term_unless_below(w, with_rows, lead, cut),
        }
    }
}

impl LockValues for Parent {
    fn load_board(&mut self, board: &Board) {
        self.load(board.rows(), board.width());
    }

    fn lock_value(&mut self, _board: &Board, unit: &Unit, pos: Pos, w: &Weights) -> f64 {
        self.value(unit, pos, w, None).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::icfp2015::place::placement::lock_positions;
    use crate::icfp2015::place::value::{placement_value, rows_after_lock, Features, RowTerms};
    use crate::icfp2015::rules::game::Setup;
    use crate::icfp2015::rules::hex::Cell;

    /// A board of `setup`'s size, each cell below a random row filled with a random chance,
    /// no row full.
    /// A weight drawn uniformly from -10..10.
    fn signed(rng: &mut Rng) -> f64 {
        20.0 * rng.f64() - 10.0
    }

    /// Random weights on the placement terms both tests vary (the rest default).
    fn random_weights(rng: &mut Rng) -> Weights {
        Weights {
            points: signed(rng),
            depth: signed(rng),
            neighbours: signed(rng),
            covered: signed(rng),
            stack: signed(rng),
            lines: signed(rng),
            ..Weights::default()
        }
    }

    fn random_board(setup: &Setup, rng: &mut Rng) -> Board {
        let mut board = setup.start.clone();
        let (width, height) = (setup.width(), setup.height());
        let top = rng.range(height / 3..height + 1);
        let chance = 0.2 + 0.7 * rng.f64();
        for y in top..height {
            for x in 0..width {
                if rng.chance(chance) {
                    board.set(Cell::new(x as i32, y as i32));
                }
            }
            if board.rows()[y].count_ones() as usize == width {
                let mut rows = board.rows().to_vec();
                rows[y] &= !(1u128 << rng.range(0..width));
                board.load_rows(&rows);
            }
        }
        board
    }

    #[test]
    fn a_parents_lock_values_are_those_of_placement_value_and_rows_after_lock() {
        // Random boards of problems 9 (10 columns), 18 (30), 6 and 24 (100: the u128 lane),
        // every lock of every unit from its spawn, random weights on every placement term:
        // the same f64 bits as the reference functions.
        let mut rng = Rng::new(2215);
        let mut checked = 0;
        for id in [9, 18, 6, 24] {
            let setup = Setup::bundled(id);
            let mut parent = Parent::for_width(setup.width());
            for _ in 0..12 {
                let board = random_board(&setup, &mut rng);
                let w = Weights {
                    row_fill: signed(&mut rng),
                    drop: signed(&mut rng),
                    fall: signed(&mut rng),
                    ..random_weights(&mut rng)
                };
                let before = Features::of(&board).rows;
                let mut terms = RowTerms::default();
                terms.reset(board.height());
                parent.load(board.rows(), setup.width());
                for unit in &setup.units {
                    for pos in lock_positions(&board, unit, unit.spawn) {
                        let (value, lines) = placement_value(&board, unit, pos, &w);
                        let (fast, fast_lines, rows) = parent.value(unit, pos, &w, Some(before));
                        assert_eq!(fast_lines, lines, "problem {id} {pos:?}");
                        assert_eq!(fast.to_bits(), value.to_bits(), "problem {id} {pos:?}");
                        if lines == 0 {
                            let want = rows_after_lock(&board, unit, pos, before, Some(&mut terms));
                            assert_eq!(rows.map(f64::to_bits), Some(want.to_bits()));
                            checked += 1;
                        } else {
                            assert_eq!(rows, None);
                        }
                        let (_, _, none) = parent.value(unit, pos, &w, None);
                        assert_eq!(none, None);
                    }
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn a_lock_left_out_by_its_bound_is_below_the_cut() {
        // Random boards of problems 9, 18 and 24 (the u128 lane), every lock of every unit,
        // random placement weights and rows weights, cuts around the exact totals: a lock is
        // left out only when its exact total is below the cut, and a lock kept has the bits of
        // `value`. Some are left out, so the bound is not trivial.
        let mut rng = Rng::new(3434);
        let (mut left_out, mut kept) = (0, 0);
        for id in [9, 18, 24] {
            let setup = Setup::bundled(id);
            let mut parent = Parent::for_width(setup.width());
            for _ in 0..8 {
                let board = random_board(&setup, &mut rng);
                let w = Weights {
                    rows: 10.0 * signed(&mut rng).abs(),
                    ..random_weights(&mut rng)
                };
                let before = Features::of(&board).rows;
                let offset = 1000.0 * rng.f64();
                parent.load(board.rows(), setup.width());
                for unit in &setup.units {
                    for pos in lock_positions(&board, unit, unit.spawn) {
                        let (value, lines, rows) = parent.value(unit, pos, &w, Some(before));
                        let total = offset + value + w.rows * rows.unwrap_or(0.0);
                        let cut = total + 2.0 * rng.f64() - 1.0;
                        match parent.value_unless_below(unit, pos, &w, before, offset, cut) {
                            None => {
                                assert_eq!(lines, 0);
                                assert!(total < cut, "problem {id} {pos:?}");
                                left_out += 1;
                            }
                            Some((fast, fast_lines, fast_rows)) => {
                                assert_eq!(fast.to_bits(), value.to_bits());
                                assert_eq!(fast_lines, lines);
                                assert_eq!(fast_rows.map(f64::to_bits), rows.map(f64::to_bits));
                                kept += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(left_out > 100 && kept > 100, "{left_out} {kept}");
    }

    #[test]
    fn the_burst_look_ahead_values_locks_as_placement_value_does() {
        // Problems 18 (a 17-cell and five 9-cell units among single cells) and 24 (100
        // columns: the u128 lane), random boards and the start: bursts of one to three big
        // units valued through a `Parent` and through `placement_value`, the same `f64` bits.
        use crate::icfp2015::place::value::{burst_value, spawn_cells, PlainValues};
        let mut rng = Rng::new(2828);
        let (mut checked, mut placed) = (0, 0);
        for id in [18, 24] {
            let setup = Setup::bundled(id);
            let w = Weights::for_setup(&setup);
            let spawn_rows = spawn_cells(&setup);
            let mean =
                setup.units.iter().map(|u| u.size).sum::<u32>() as f64 / setup.units.len() as f64;
            let big: Vec<&Unit> = setup
                .units
                .iter()
                .filter(|u| u.size as f64 > 2.0 * mean)
                .collect();
            assert!(!big.is_empty());
            let mut parent = Parent::for_width(setup.width());
            let mut scratch = setup.start.clone();
            for round in 0..16 {
                let board = if round == 0 {
                    setup.start.clone()
                } else {
                    random_board(&setup, &mut rng)
                };
                for length in 1..=3 {
                    let burst: Vec<&Unit> =
                        (0..length).map(|_| big[rng.range(0..big.len())]).collect();
                    let fast =
                        burst_value(&board, &burst, &w, &spawn_rows, &mut scratch, &mut parent);
                    let plain = burst_value(
                        &board,
                        &burst,
                        &w,
                        &spawn_rows,
                        &mut scratch,
                        &mut PlainValues,
                    );
                    assert_eq!(
                        fast.to_bits(),
                        plain.to_bits(),
                        "problem {id} round {round}"
                    );
                    checked += 1;
                    // Above `NO_ROOM` (-1000): the first unit found a place.
                    placed += usize::from(fast > -900.0);
                }
            }
        }
        assert_eq!(checked, 96);
        assert!(placed > 40, "{placed}");
    }

    #[test]
    fn a_childs_features_are_those_of_the_locked_board() {
        // Random boards of problems 18 (30 columns, pre-filled), 9 (10), 2 (15 x 30), 6 and 24
        // (100: the u128 lane), every lock of every unit that clears no row, with and without
        // rows: the same counts and `f64` bits as `Features::of_with` of the locked board.
        let mut rng = Rng::new(2827);
        let mut checked = 0;
        for id in [18, 9, 2, 6, 24] {
            let setup = Setup::bundled(id);
            let mut parent = Parent::for_width(setup.width());
            for round in 0..10 {
                // Some boards as the game starts them (empty above a pre-filled part).
                let board = if round == 0 {
                    setup.start.clone()
                } else {
                    random_board(&setup, &mut rng)
                };
                parent.load(board.rows(), setup.width());
                let w = Weights::default();
                for unit in &setup.units {
                    for pos in lock_positions(&board, unit, unit.spawn) {
                        let (_, lines, _) = parent.value(unit, pos, &w, None);
                        if lines != 0 {
                            continue;
                        }
                        let mut locked = board.clone();
                        locked.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
                        for with_rows in [true, false] {
                            let want = Features::of_with(&locked, with_rows);
                            let got = parent.features_after_lock(with_rows);
                            assert_eq!(
                                (got.holes, got.covered, got.bumps, got.clear_rows),
                                (want.holes, want.covered, want.bumps, want.clear_rows),
                                "problem {id} {pos:?}"
                            );
                            assert_eq!(got.rows.to_bits(), want.rows.to_bits(), "{id} {pos:?}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn a_childs_board_term_is_that_of_the_locked_board_or_below_the_cut() {
        // Random boards of problems 18, 9, 2, 24 (the u128 lane) and their start boards, every
        // lock of every unit that clears no row, random board weights (holes mostly 0, rows
        // of either sign or 0): with no cut the term and rows have the bits of
        // `Features::of_with` of the locked board; with cuts around the exact total a lock is
        // left out only when its total is below the cut, and some are.
        let mut rng = Rng::new(4141);
        let (mut left_out, mut kept, mut checked) = (0, 0, 0);
        for id in [18, 9, 2, 24] {
            let setup = Setup::bundled(id);
            let mut parent = Parent::for_width(setup.width());
            for round in 0..10 {
                let board = if round == 0 {
                    setup.start.clone()
                } else {
                    random_board(&setup, &mut rng)
                };
                let w = Weights {
                    holes: if round % 5 == 4 {
                        signed(&mut rng)
                    } else {
                        0.0
                    },
                    height: signed(&mut rng),
                    cover: signed(&mut rng),
                    bumps: signed(&mut rng),
                    rows: match round % 4 {
                        0 => 0.0,
                        1 => signed(&mut rng),
                        _ => 100.0 * rng.f64(),
                    },
                    ..random_weights(&mut rng)
                };
                let with_rows = w.rows != 0.0;
                parent.load(board.rows(), setup.width());
                for unit in &setup.units {
                    for pos in lock_positions(&board, unit, unit.spawn) {
                        let (_, lines, _) = parent.value(unit, pos, &w, None);
                        if lines != 0 {
                            continue;
                        }
                        let mut locked = board.clone();
                        locked.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
                        let want = Features::of_with(&locked, with_rows);
                        let (term, rows) = (want.value(&w).to_bits(), want.rows.to_bits());
                        let lead = 1000.0 * signed(&mut rng);
                        let got =
                            parent.board_term_unless_below(&w, with_rows, lead, f64::NEG_INFINITY);
                        let got = got.map(|(t, r)| (t.to_bits(), r.to_bits()));
                        assert_eq!(got, Some((term, rows)), "problem {id} {pos:?}");
                        checked += 1;
                        let total = lead + want.value(&w);
                        let cut = total + 2.0 * rng.f64() - 1.0;
                        match parent.board_term_unless_below(&w, with_rows, lead, cut) {
                            None => {
                                assert!(total < cut, "problem {id} {pos:?}");
                                left_out += 1;
                            }
                            Some((t, r)) => {
                                assert_eq!((t.to_bits(), r.to_bits()), (term, rows));
                                kept += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            checked > 5000 && left_out > 500 && kept > 500,
            "{checked} {left_out} {kept}"
        );
    }
}
