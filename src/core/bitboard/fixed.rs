//! A board of a fixed number of rows, one word per row, kept by value (on the stack).

use super::word::{row_mask, RowWord};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A board of `ROWS` rows and up to `W::BITS` columns, one word `W` per row (`u64` by default).
///
/// `Not` flips every column of the word in every row; intersect with [`Bitboard::full`] to stay on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bitboard<const ROWS: usize, W: RowWord = u64> {
    pub rows: [W; ROWS],
}

impl<const ROWS: usize, W: RowWord> Default for Bitboard<ROWS, W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const ROWS: usize, W: RowWord> Bitboard<ROWS, W> {
    pub const EMPTY: Self = Self {
        rows: [W::EMPTY; ROWS],
    };

    /// Rows `0..rows` filled over columns `0..width`. Panics if `rows > ROWS` or `width > 64`.
    pub fn full(rows: usize, width: usize) -> Self {
        assert!(
            rows <= ROWS,
            "Bitboard::full: {rows} rows on a {ROWS}-row board"
        );
        let mut board = Self::EMPTY;
        board.rows[..rows].fill(row_mask::<W>(width));
        board
    }

    #[inline]
    pub fn get(&self, row: usize, column: usize) -> bool {
        self.rows[row] & W::bit(column) != W::EMPTY
    }

    #[inline]
    pub fn set(&mut self, row: usize, column: usize) {
        self.rows[row] = self.rows[row] | W::bit(column);
    }

    #[inline]
    pub fn clear(&mut self, row: usize, column: usize) {
        self.rows[row] = self.rows[row] & !W::bit(column);
    }

    #[inline]
    pub fn toggle(&mut self, row: usize, column: usize) {
        self.rows[row] = self.rows[row] ^ W::bit(column);
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&word| word == W::EMPTY)
    }

    /// Number of set cells.
    #[inline]
    pub fn count(&self) -> usize {
        self.rows
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    /// The set cell with the lowest row, then the lowest column.
    #[inline]
    pub fn first_set(&self) -> Option<(usize, usize)> {
        self.rows
            .iter()
            .position(|&word| word != W::EMPTY)
            .map(|row| (row, self.rows[row].trailing_zeros() as usize))
    }

    /// Set cells in row-major order.
    pub fn iter(&self) -> BitboardIter<'_, W> {
        BitboardIter {
            rows: &self.rows,
            row: 0,
            remaining_in_row: self.rows.first().copied().unwrap_or(W::EMPTY),
        }
    }

    /// Cells set in `self` but not in `other`.
    #[inline]
    pub fn and_not(&self, other: &Self) -> Self {
        Self {
            rows: std::array::from_fn(|row| self.rows[row] & !other.rows[row]),
        }
    }

    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        self.rows
            .iter()
            .zip(&other.rows)
            .any(|(&a, &b)| a & b != W::EMPTY)
    }

    /// True if every cell set in `self` is set in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.rows
            .iter()
            .zip(&other.rows)
            .all(|(&a, &b)| a & !b == W::EMPTY)
    }

    /// Moves every cell `shift` columns toward higher column indices; cells past column 63 vanish.
    #[inline]
    pub fn shift_left(&self, shift: usize) -> Self {
        if shift >= W::BITS {
            return Self::EMPTY;
        }
        Self {
            rows: self.rows.map(|word| word << shift),
        }
    }

    /// Moves every cell `shift` columns toward lower column indices; cells past column 0 vanish.
    #[inline]
    pub fn shift_right(&self, shift: usize) -> Self {
        if shift >= W::BITS {
            return Self::EMPTY;
        }
        Self {
            rows: self.rows.map(|word| word >> shift),
        }
    }

    /// Moves every cell `shift` rows toward lower row indices; rows entering at the bottom are empty.
    #[inline]
    pub fn shift_up(&self, shift: usize) -> Self {
        let mut shifted = Self::EMPTY;
        if shift < ROWS {
            shifted.rows[..ROWS - shift].copy_from_slice(&self.rows[shift..]);
        }
        shifted
    }

    /// Moves every cell `shift` rows toward higher row indices; rows entering at the top are empty.
    #[inline]
    pub fn shift_down(&self, shift: usize) -> Self {
        let mut shifted = Self::EMPTY;
        if shift < ROWS {
            shifted.rows[shift..].copy_from_slice(&self.rows[..ROWS - shift]);
        }
        shifted
    }

    /// The cells of `self` joined to (`row`, `column`) through edge neighbours (up, down, left,
    /// right), that cell included; empty if it is not set. Grows by shifts, one step per round.
    pub fn component_of(&self, row: usize, column: usize) -> Self {
        let mut reached = Self::EMPTY;
        if !self.get(row, column) {
            return reached;
        }
        reached.set(row, column);
        loop {
            let grown = (reached
                | reached.shift_left(1)
                | reached.shift_right(1)
                | reached.shift_up(1)
                | reached.shift_down(1))
                & *self;
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }
}

/// Iterator over the set cells of a [`Bitboard`], row-major.
#[derive(Clone, Debug)]
pub struct BitboardIter<'a, W: RowWord = u64> {
    rows: &'a [W],
    row: usize,
    remaining_in_row: W,
}

impl<W: RowWord> Iterator for BitboardIter<'_, W> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        while self.remaining_in_row == W::EMPTY {
            self.row += 1;
            self.remaining_in_row = *self.rows.get(self.row)?;
        }
        let column = self.remaining_in_row.trailing_zeros() as usize;
        self.remaining_in_row = self.remaining_in_row.without_lowest();
        Some((self.row, column))
    }
}

impl<'a, const ROWS: usize, W: RowWord> IntoIterator for &'a Bitboard<ROWS, W> {
    type Item = (usize, usize);
    type IntoIter = BitboardIter<'a, W>;

    fn into_iter(self) -> BitboardIter<'a, W> {
        self.iter()
    }
}

macro_rules! rowwise_binary_op {
    ($op_trait:ident, $op_fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl<const ROWS: usize, W: RowWord> $op_trait for Bitboard<ROWS, W> {
            type Output = Self;

            #[inline]
            fn $op_fn(self, other: Self) -> Self {
                Self {
                    rows: std::array::from_fn(|row| self.rows[row] $op other.rows[row]),
                }
            }
        }

        impl<const ROWS: usize, W: RowWord> $assign_trait for Bitboard<ROWS, W> {
            #[inline]
            fn $assign_fn(&mut self, other: Self) {
                for (word, other_word) in self.rows.iter_mut().zip(other.rows) {
                    *word = *word $op other_word;
                }
            }
        }
    };
}

rowwise_binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
rowwise_binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
rowwise_binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const ROWS: usize, W: RowWord> Not for Bitboard<ROWS, W> {
    type Output = Self;

    #[inline]
    fn not(self) -> Self {
        Self {
            rows: self.rows.map(|word| !word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::model::Model;
    use crate::core::rng::Rng;

    const ROWS: usize = 7;
    type Board = Bitboard<ROWS>;

    impl Model {
        fn of_board<W: RowWord>(board: &Bitboard<ROWS, W>) -> Model {
            let mut model = Model::empty(ROWS, W::BITS);
            for row in 0..ROWS {
                for column in 0..W::BITS {
                    model.cells[row][column] = board.rows[row] >> column & W::bit(0) != W::EMPTY;
                }
            }
            model
        }
    }

    fn random_board(rng: &mut Rng) -> Board {
        let mut board = Board::EMPTY;
        for word in &mut board.rows {
            *word = match rng.below(4) {
                0 => 0,
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64(),
            };
        }
        board
    }

    fn check_queries<W: RowWord>(board: &Bitboard<ROWS, W>, model: &Model) {
        assert_eq!(Model::of_board(board), *model);
        let cells = model.set_cells();
        assert_eq!(board.count(), cells.len());
        assert_eq!(board.is_empty(), cells.is_empty());
        assert_eq!(board.first_set(), cells.first().copied());
        assert_eq!(board.iter().collect::<Vec<_>>(), cells);
        assert_eq!(board.into_iter().count(), cells.len());
        for &(row, column) in &cells {
            assert!(board.get(row, column));
        }
    }

    #[test]
    fn empty_board_has_nothing() {
        let board = Board::default();
        assert_eq!(board, Board::EMPTY);
        assert!(board.is_empty());
        assert_eq!(board.count(), 0);
        assert_eq!(board.first_set(), None);
        assert_eq!(board.iter().next(), None);
        assert_eq!(Bitboard::<0>::EMPTY.first_set(), None);
        assert_eq!(Bitboard::<0>::EMPTY.iter().count(), 0);
    }

    #[test]
    fn full_fills_a_rectangle() {
        let board = Board::full(3, 5);
        let model = Model::empty(ROWS, 64).map_cells(|row, column| row < 3 && column < 5);
        check_queries(&board, &model);
        assert_eq!(Board::full(ROWS, 64).count(), ROWS * 64);
        assert!(Board::full(0, 64).is_empty());
    }

    #[test]
    fn random_edits_match_the_model() {
        random_edits_match_the_model_in::<u64>();
        random_edits_match_the_model_in::<u128>();
    }

    fn random_edits_match_the_model_in<W: RowWord>() {
        let mut rng = Rng::new(2024);
        let mut board = Bitboard::<ROWS, W>::EMPTY;
        let mut model = Model::empty(ROWS, W::BITS);
        for step in 0..5000 {
            let row = rng.below(ROWS as u64) as usize;
            let column = if rng.chance(0.2) {
                [0, W::BITS - 1][rng.below(2) as usize]
            } else {
                rng.below(W::BITS as u64) as usize
            };
            assert_eq!(board.get(row, column), model.cells[row][column]);
            match rng.below(3) {
                0 => {
                    board.set(row, column);
                    model.cells[row][column] = true;
                }
                1 => {
                    board.clear(row, column);
                    model.cells[row][column] = false;
                }
                _ => {
                    board.toggle(row, column);
                    model.cells[row][column] ^= true;
                }
            }
            if step % 50 == 0 {
                check_queries(&board, &model);
            }
        }
        check_queries(&board, &model);
    }

    #[test]
    fn bitwise_ops_match_the_model() {
        let mut rng = Rng::new(99);
        for _ in 0..200 {
            let a = random_board(&mut rng);
            let b = random_board(&mut rng);
            let (ma, mb) = (Model::of_board(&a), Model::of_board(&b));
            let cell = |m: &Model, r: usize, c: usize| m.cells[r][c];
            let and = ma.map_cells(|r, c| cell(&ma, r, c) && cell(&mb, r, c));
            let or = ma.map_cells(|r, c| cell(&ma, r, c) || cell(&mb, r, c));
            let xor = ma.map_cells(|r, c| cell(&ma, r, c) != cell(&mb, r, c));
            let not = ma.map_cells(|r, c| !cell(&ma, r, c));
            let and_not = ma.map_cells(|r, c| cell(&ma, r, c) && !cell(&mb, r, c));
            check_queries(&(a & b), &and);
            check_queries(&(a | b), &or);
            check_queries(&(a ^ b), &xor);
            check_queries(&!a, &not);
            check_queries(&a.and_not(&b), &and_not);
            let mut assigned = a;
            assigned &= b;
            assert_eq!(assigned, a & b);
            assigned = a;
            assigned |= b;
            assert_eq!(assigned, a | b);
            assigned = a;
            assigned ^= b;
            assert_eq!(assigned, a ^ b);

            let any_common = ma.set_cells().iter().any(|&(r, c)| mb.cells[r][c]);
            assert_eq!(a.intersects(&b), any_common);
            let inside = ma.set_cells().iter().all(|&(r, c)| mb.cells[r][c]);
            assert_eq!(a.is_subset(&b), inside);
            assert!((a & b).is_subset(&a));
            assert!(a.is_subset(&(a | b)));
        }
    }

    #[test]
    fn shifts_match_the_model_at_every_distance() {
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let board = random_board(&mut rng);
            let model = Model::of_board(&board);
            let at = |r: usize, c: usize| model.cells[r][c];
            for shift in [0, 1, 2, 5, 31, 32, 62, 63, 64, 65, 100, 1 << 32, usize::MAX] {
                let left = model.map_cells(|r, c| c >= shift && at(r, c - shift));
                let right = model
                    .map_cells(|r, c| c.checked_add(shift).is_some_and(|s| s < 64 && at(r, s)));
                check_queries(&board.shift_left(shift), &left);
                check_queries(&board.shift_right(shift), &right);
            }
            for shift in [0, 1, 3, ROWS - 1, ROWS, ROWS + 1, usize::MAX] {
                let up = model
                    .map_cells(|r, c| r.checked_add(shift).is_some_and(|s| s < ROWS && at(s, c)));
                let down = model.map_cells(|r, c| r >= shift && at(r - shift, c));
                check_queries(&board.shift_up(shift), &up);
                check_queries(&board.shift_down(shift), &down);
            }
        }
    }

    #[test]
    fn component_of_matches_a_flood_fill_of_the_model() {
        let mut rng = Rng::new(4321);
        for _ in 0..100 {
            let board = random_board(&mut rng);
            let model = Model::of_board(&board);
            let (row, column) = (rng.below(ROWS as u64) as usize, rng.below(64) as usize);
            let mut reached = Model::empty(ROWS, 64);
            let mut stack = Vec::new();
            if model.cells[row][column] {
                reached.cells[row][column] = true;
                stack.push((row, column));
            }
            while let Some((r, c)) = stack.pop() {
                let around = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                for (nr, nc) in around {
                    if nr < ROWS && nc < 64 && model.cells[nr][nc] && !reached.cells[nr][nc] {
                        reached.cells[nr][nc] = true;
                        stack.push((nr, nc));
                    }
                }
            }
            check_queries(&board.component_of(row, column), &reached);
        }
        let mut ring = Board::EMPTY;
        for column in 0..64 {
            ring.set(0, column);
            ring.set(ROWS - 1, column);
        }
        for row in 0..ROWS {
            ring.set(row, 0);
        }
        assert_eq!(ring.component_of(ROWS - 1, 63), ring);
        assert!(ring.component_of(3, 3).is_empty());
    }

    #[test]
    fn first_set_prefers_lowest_row_then_column() {
        let mut board = Bitboard::<200>::EMPTY;
        board.set(150, 3);
        board.set(120, 40);
        board.set(120, 63);
        assert_eq!(board.first_set(), Some((120, 40)));
        assert_eq!(
            board.iter().collect::<Vec<_>>(),
            [(120, 40), (120, 63), (150, 3)]
        );
    }
}
