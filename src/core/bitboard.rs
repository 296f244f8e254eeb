//! Bit-per-cell boards for grid games: `Bitboard` keeps one `u64` per row (width <= 64),
//! `BitGrid` keeps any width on the heap. Cells are addressed `(row, column)`; bit c is column c.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

const WORD_BITS: usize = 64;

/// A machine word that holds one board row, bit c for column c: `u64` for boards up to 64
/// columns (tetromino, bananagrams), `u128` up to 128 (icfp2015's widest, 100).
pub trait RowWord:
    Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    const BITS: usize;
    const EMPTY: Self;
    /// The bits of columns `0..width` set; `width` may be 0 to `BITS`.
    fn row_mask(width: usize) -> Self;
}

macro_rules! row_word {
    ($word:ty) => {
        impl RowWord for $word {
            const BITS: usize = <$word>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline]
            fn row_mask(width: usize) -> Self {
                assert!(
                    width <= <Self as RowWord>::BITS,
                    "row_mask: width {width} exceeds {}",
                    Self::BITS
                );
                if width == <Self as RowWord>::BITS {
                    <$word>::MAX
                } else {
                    (1 << width) - 1
                }
            }
        }
    };
}
row_word!(u64);
row_word!(u128);

/// The bits of columns `0..width` set, in the row word `W`; `width` may be 0 to `W::BITS`.
#[inline]
pub fn row_mask<W: RowWord>(width: usize) -> W {
    W::row_mask(width)
}

/// A board of `ROWS` rows and up to 64 columns, one word per row.
///
/// `Not` flips all 64 columns of every row; intersect with [`Bitboard::full`] to stay on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bitboard<const ROWS: usize> {
    pub rows: [u64; ROWS],
}

impl<const ROWS: usize> Default for Bitboard<ROWS> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const ROWS: usize> Bitboard<ROWS> {
    pub const EMPTY: Self = Self { rows: [0; ROWS] };

    /// Rows `0..rows` filled over columns `0..width`. Panics if `rows > ROWS` or `width > 64`.
    pub fn full(rows: usize, width: usize) -> Self {
        assert!(
            rows <= ROWS,
            "Bitboard::full: {rows} rows on a {ROWS}-row board"
        );
        let mut board = Self::EMPTY;
        board.rows[..rows].fill(row_mask::<u64>(width));
        board
    }

    #[inline]
    pub fn get(&self, row: usize, column: usize) -> bool {
        debug_assert!(column < WORD_BITS);
        self.rows[row] >> column & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, row: usize, column: usize) {
        debug_assert!(column < WORD_BITS);
        self.rows[row] |= 1 << column;
    }

    #[inline]
    pub fn clear(&mut self, row: usize, column: usize) {
        debug_assert!(column < WORD_BITS);
        self.rows[row] &= !(1 << column);
    }

    #[inline]
    pub fn toggle(&mut self, row: usize, column: usize) {
        debug_assert!(column < WORD_BITS);
        self.rows[row] ^= 1 << column;
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&word| word == 0)
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
            .position(|&word| word != 0)
            .map(|row| (row, self.rows[row].trailing_zeros() as usize))
    }

    /// Set cells in row-major order.
    pub fn iter(&self) -> BitboardIter<'_> {
        BitboardIter {
            rows: &self.rows,
            row: 0,
            remaining_in_row: self.rows.first().copied().unwrap_or(0),
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
        self.rows.iter().zip(&other.rows).any(|(a, b)| a & b != 0)
    }

    /// True if every cell set in `self` is set in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.rows.iter().zip(&other.rows).all(|(a, b)| a & !b == 0)
    }

    /// Moves every cell `shift` columns toward higher column indices; cells past column 63 vanish.
    #[inline]
    pub fn shift_left(&self, shift: usize) -> Self {
        if shift >= WORD_BITS {
            return Self::EMPTY;
        }
        Self {
            rows: self.rows.map(|word| word << shift),
        }
    }

    /// Moves every cell `shift` columns toward lower column indices; cells past column 0 vanish.
    #[inline]
    pub fn shift_right(&self, shift: usize) -> Self {
        if shift >= WORD_BITS {
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
}

/// Iterator over the set cells of a [`Bitboard`], row-major.
#[derive(Clone, Debug)]
pub struct BitboardIter<'a> {
    rows: &'a [u64],
    row: usize,
    remaining_in_row: u64,
}

impl Iterator for BitboardIter<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        while self.remaining_in_row == 0 {
            self.row += 1;
            self.remaining_in_row = *self.rows.get(self.row)?;
        }
        let column = self.remaining_in_row.trailing_zeros() as usize;
        self.remaining_in_row &= self.remaining_in_row - 1;
        Some((self.row, column))
    }
}

impl<'a, const ROWS: usize> IntoIterator for &'a Bitboard<ROWS> {
    type Item = (usize, usize);
    type IntoIter = BitboardIter<'a>;

    fn into_iter(self) -> BitboardIter<'a> {
        self.iter()
    }
}

macro_rules! rowwise_binary_op {
    ($op_trait:ident, $op_fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl<const ROWS: usize> $op_trait for Bitboard<ROWS> {
            type Output = Self;

            #[inline]
            fn $op_fn(self, other: Self) -> Self {
                Self {
                    rows: std::array::from_fn(|row| self.rows[row] $op other.rows[row]),
                }
            }
        }

        impl<const ROWS: usize> $assign_trait for Bitboard<ROWS> {
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

impl<const ROWS: usize> Not for Bitboard<ROWS> {
    type Output = Self;

    #[inline]
    fn not(self) -> Self {
        Self {
            rows: self.rows.map(|word| !word),
        }
    }
}

/// A board of any width on the heap, each row padded to whole words.
///
/// Bits beyond `width` in a row's last word are always zero, so whole-word operations
/// (`count`, `is_full`, unions) never see cells that are off the board.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BitGrid {
    words: Vec<u64>,
    width: usize,
    height: usize,
    words_per_row: usize,
}

impl BitGrid {
    /// An empty `width` x `height` grid.
    pub fn new(width: usize, height: usize) -> BitGrid {
        let words_per_row = width.div_ceil(WORD_BITS);
        let word_count = words_per_row
            .checked_mul(height)
            .expect("BitGrid size overflows usize");
        BitGrid {
            words: vec![0; word_count],
            width,
            height,
            words_per_row,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// Word index and bit of a cell; panics off the board so padding bits can never be set.
    #[inline]
    fn locate(&self, row: usize, column: usize) -> (usize, u64) {
        assert!(
            row < self.height && column < self.width,
            "cell ({row}, {column}) is off a {}x{} grid",
            self.width,
            self.height
        );
        (
            row * self.words_per_row + column / WORD_BITS,
            1 << (column % WORD_BITS),
        )
    }

    #[inline]
    pub fn get(&self, row: usize, column: usize) -> bool {
        let (index, bit) = self.locate(row, column);
        self.words[index] & bit != 0
    }

    #[inline]
    pub fn set(&mut self, row: usize, column: usize) {
        let (index, bit) = self.locate(row, column);
        self.words[index] |= bit;
    }

    #[inline]
    pub fn clear(&mut self, row: usize, column: usize) {
        let (index, bit) = self.locate(row, column);
        self.words[index] &= !bit;
    }

    /// The words of one row; bit c of word w is column 64 * w + c.
    #[inline]
    pub fn row_words(&self, row: usize) -> &[u64] {
        &self.words[row * self.words_per_row..(row + 1) * self.words_per_row]
    }

    /// Number of set cells.
    pub fn count(&self) -> usize {
        self.words
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    /// The set cell with the lowest row, then the lowest column.
    pub fn first_set(&self) -> Option<(usize, usize)> {
        let index = self.words.iter().position(|&word| word != 0)?;
        Some(self.cell_of_bit(index, self.words[index].trailing_zeros() as usize))
    }

    #[inline]
    fn cell_of_bit(&self, word_index: usize, bit: usize) -> (usize, usize) {
        let row = word_index / self.words_per_row;
        let column = (word_index % self.words_per_row) * WORD_BITS + bit;
        (row, column)
    }

    /// True if every cell on the board is set (also for an empty board).
    pub fn is_full(&self) -> bool {
        if self.words_per_row == 0 {
            return true;
        }
        let last_word_mask = row_mask::<u64>(self.width - (self.words_per_row - 1) * WORD_BITS);
        self.words.chunks_exact(self.words_per_row).all(|row| {
            let (&last, whole) = row.split_last().expect("rows have at least one word");
            whole.iter().all(|&word| word == u64::MAX) && last == last_word_mask
        })
    }

    /// Set cells in row-major order.
    pub fn iter(&self) -> BitGridIter<'_> {
        BitGridIter {
            grid: self,
            word_index: 0,
            remaining_in_word: self.words.first().copied().unwrap_or(0),
        }
    }

    fn assert_same_size(&self, other: &BitGrid) {
        assert!(
            self.width == other.width && self.height == other.height,
            "BitGrid sizes differ: {}x{} vs {}x{}",
            self.width,
            self.height,
            other.width,
            other.height
        );
    }

    /// Sets every cell that is set in `other`. Panics if the sizes differ.
    pub fn union_with(&mut self, other: &BitGrid) {
        self.assert_same_size(other);
        for (word, other_word) in self.words.iter_mut().zip(&other.words) {
            *word |= other_word;
        }
    }

    /// Clears every cell that is set in `other`. Panics if the sizes differ.
    pub fn and_not_with(&mut self, other: &BitGrid) {
        self.assert_same_size(other);
        for (word, other_word) in self.words.iter_mut().zip(&other.words) {
            *word &= !other_word;
        }
    }
}

/// Iterator over the set cells of a [`BitGrid`], row-major.
#[derive(Clone, Debug)]
pub struct BitGridIter<'a> {
    grid: &'a BitGrid,
    word_index: usize,
    remaining_in_word: u64,
}

impl Iterator for BitGridIter<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        while self.remaining_in_word == 0 {
            self.word_index += 1;
            self.remaining_in_word = *self.grid.words.get(self.word_index)?;
        }
        let bit = self.remaining_in_word.trailing_zeros() as usize;
        self.remaining_in_word &= self.remaining_in_word - 1;
        Some(self.grid.cell_of_bit(self.word_index, bit))
    }
}

impl<'a> IntoIterator for &'a BitGrid {
    type Item = (usize, usize);
    type IntoIter = BitGridIter<'a>;

    fn into_iter(self) -> BitGridIter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    const ROWS: usize = 7;
    type Board = Bitboard<ROWS>;

    /// The naive reference: `cells[row][column]` for 64 columns.
    #[derive(Clone, PartialEq, Debug)]
    struct Model {
        cells: Vec<Vec<bool>>,
    }

    impl Model {
        fn empty(rows: usize, columns: usize) -> Model {
            Model {
                cells: vec![vec![false; columns]; rows],
            }
        }

        fn of_board(board: &Board) -> Model {
            let mut model = Model::empty(ROWS, 64);
            for row in 0..ROWS {
                for column in 0..64 {
                    model.cells[row][column] = board.rows[row] >> column & 1 == 1;
                }
            }
            model
        }

        fn set_cells(&self) -> Vec<(usize, usize)> {
            let mut cells = Vec::new();
            for (row, line) in self.cells.iter().enumerate() {
                for (column, &is_set) in line.iter().enumerate() {
                    if is_set {
                        cells.push((row, column));
                    }
                }
            }
            cells
        }

        fn map_cells(&self, cell_from: impl Fn(usize, usize) -> bool) -> Model {
            let mut result = self.clone();
            for (row, line) in result.cells.iter_mut().enumerate() {
                for (column, cell) in line.iter_mut().enumerate() {
                    *cell = cell_from(row, column);
                }
            }
            result
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

    fn check_queries(board: &Board, model: &Model) {
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
    fn row_mask_covers_exactly_width_columns() {
        assert_eq!(row_mask::<u64>(0), 0);
        assert_eq!(row_mask::<u64>(1), 1);
        assert_eq!(row_mask::<u64>(10), 0x3ff);
        assert_eq!(row_mask::<u64>(63), u64::MAX >> 1);
        assert_eq!(row_mask::<u64>(64), u64::MAX);
        assert_eq!(row_mask::<u128>(100), u128::MAX >> 28);
        assert_eq!(row_mask::<u128>(128), u128::MAX);
    }

    #[test]
    #[should_panic(expected = "exceeds 64")]
    fn row_mask_rejects_wide_rows() {
        row_mask::<u64>(65);
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
        let mut rng = Rng::new(2024);
        let mut board = Board::EMPTY;
        let mut model = Model::empty(ROWS, 64);
        for step in 0..5000 {
            let row = rng.below(ROWS as u64) as usize;
            let column = if rng.chance(0.2) {
                [0, 63][rng.below(2) as usize]
            } else {
                rng.below(64) as usize
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

    fn check_grid(grid: &BitGrid, model: &Model) {
        let cells = model.set_cells();
        assert_eq!(grid.count(), cells.len());
        assert_eq!(grid.first_set(), cells.first().copied());
        assert_eq!(grid.iter().collect::<Vec<_>>(), cells);
        assert_eq!(
            grid.is_full(),
            model.cells.iter().flatten().all(|&is_set| is_set)
        );
        for row in 0..grid.height() {
            for column in 0..grid.width() {
                assert_eq!(grid.get(row, column), model.cells[row][column]);
            }
            let padding_bits = grid.words_per_row() * 64 - grid.width();
            if padding_bits > 0 {
                let last_word = *grid.row_words(row).last().unwrap();
                assert_eq!(
                    last_word >> (64 - padding_bits),
                    0,
                    "padding set in row {row}"
                );
            }
        }
    }

    fn random_grid(rng: &mut Rng, width: usize, height: usize) -> (BitGrid, Model) {
        let mut grid = BitGrid::new(width, height);
        let mut model = Model::empty(height, width);
        for row in 0..height {
            for column in 0..width {
                if rng.chance(0.5) {
                    grid.set(row, column);
                    model.cells[row][column] = true;
                }
            }
        }
        (grid, model)
    }

    #[test]
    fn grid_shapes() {
        let grid = BitGrid::new(130, 4);
        assert_eq!(grid.words_per_row(), 3);
        assert_eq!(grid.row_words(2).len(), 3);
        assert_eq!((grid.width(), grid.height()), (130, 4));
        assert_eq!(BitGrid::new(64, 1).words_per_row(), 1);
        assert_eq!(BitGrid::new(65, 1).words_per_row(), 2);
        assert!(BitGrid::new(0, 5).is_full());
        assert!(BitGrid::new(5, 0).is_full());
        assert_eq!(BitGrid::new(0, 5).first_set(), None);
    }

    #[test]
    fn grid_random_edits_match_the_model() {
        let mut rng = Rng::new(31337);
        for (width, height) in [
            (1, 1),
            (5, 3),
            (63, 4),
            (64, 4),
            (65, 3),
            (128, 2),
            (202, 5),
        ] {
            let mut grid = BitGrid::new(width, height);
            let mut model = Model::empty(height, width);
            check_grid(&grid, &model);
            for step in 0..3000 {
                let row = rng.range(0..height);
                let column = rng.range(0..width);
                if rng.chance(0.6) {
                    grid.set(row, column);
                    model.cells[row][column] = true;
                } else {
                    grid.clear(row, column);
                    model.cells[row][column] = false;
                }
                if step % 200 == 0 {
                    check_grid(&grid, &model);
                }
            }
            check_grid(&grid, &model);
        }
    }

    #[test]
    fn grid_fills_to_full_and_empties() {
        for width in [1, 63, 64, 65, 200] {
            let mut grid = BitGrid::new(width, 3);
            let mut model = Model::empty(3, width);
            for row in 0..3 {
                for column in 0..width {
                    assert!(!grid.is_full());
                    grid.set(row, column);
                    model.cells[row][column] = true;
                }
            }
            check_grid(&grid, &model);
            assert!(grid.is_full());
            assert_eq!(grid.count(), 3 * width);
            grid.clear(1, width - 1);
            assert!(!grid.is_full());
        }
    }

    #[test]
    fn grid_union_and_difference_match_the_model() {
        let mut rng = Rng::new(5);
        for (width, height) in [(3, 3), (64, 2), (100, 4), (200, 3)] {
            let (a, model_a) = random_grid(&mut rng, width, height);
            let (b, model_b) = random_grid(&mut rng, width, height);
            let mut union = a.clone();
            union.union_with(&b);
            let union_model = model_a.map_cells(|r, c| model_a.cells[r][c] || model_b.cells[r][c]);
            check_grid(&union, &union_model);
            let mut difference = a.clone();
            difference.and_not_with(&b);
            let difference_model =
                model_a.map_cells(|r, c| model_a.cells[r][c] && !model_b.cells[r][c]);
            check_grid(&difference, &difference_model);
        }
    }

    #[test]
    #[should_panic(expected = "off a")]
    fn grid_rejects_padding_columns() {
        BitGrid::new(65, 2).set(0, 70);
    }

    #[test]
    #[should_panic(expected = "sizes differ")]
    fn grid_union_rejects_other_sizes() {
        BitGrid::new(10, 2).union_with(&BitGrid::new(11, 2));
    }
}
