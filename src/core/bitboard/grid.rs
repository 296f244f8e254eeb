//! A board of any width on the heap, each row padded to whole words.

use super::word::row_mask;
use super::WORD_BITS;

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
    use crate::core::bitboard::model::Model;
    use crate::core::rng::Rng;

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
