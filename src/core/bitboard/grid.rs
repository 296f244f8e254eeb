//! A board of any width on the heap inside a filled border, its cells numbered flat, so a
//! figure's fit, placement and a flood fill's neighbours need no bounds tests.
//!
//! Layout: rows of whole `u64` words, `stride` bits apart; cell (row, column) of the board is
//! bit `(border + row) * stride + border + column`. Every bit that is not a board cell (the
//! border rows above and below, the border columns left, the rest of each row right) is set, as
//! if filled: a figure reaching off the board clashes with it, and a neighbour at `p +- 1` or
//! `p +- stride` of a board cell is always inside the words.

use super::WORD_BITS;

/// The board's cells, bit set = filled; the border reads as filled.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BitGrid {
    words: Vec<u64>,
    /// The words of the empty board (border only), for [`BitGrid::clear`].
    empty: Vec<u64>,
    width: usize,
    height: usize,
    border: usize,
    stride: usize,
}

impl BitGrid {
    /// An empty `height` x `width` board inside a border `border` cells deep on every side.
    pub fn new(height: usize, width: usize, border: usize) -> BitGrid {
        let words_per_row = (border + width + border).div_ceil(WORD_BITS);
        let stride = words_per_row * WORD_BITS;
        let rows = border + height + border;
        // One extra word: a figure's row mask that crosses a word edge in the last row reads it.
        let mut empty = vec![u64::MAX; rows * words_per_row + 1];
        for row in border..border + height {
            for column in border..border + width {
                let p = row * stride + column;
                empty[p / WORD_BITS] &= !(1u64 << (p % WORD_BITS));
            }
        }
        BitGrid {
            words: empty.clone(),
            empty,
            width,
            height,
            border,
            stride,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Bits from one row to the next: the flat step of a cell's neighbours above and below.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The flat number of board cell (row, column).
    #[inline]
    pub fn cell(&self, row: usize, column: usize) -> usize {
        debug_assert!(row < self.height && column < self.width);
        (self.border + row) * self.stride + self.border + column
    }

    /// The board's (row, column) of flat cell `p`, which must be on the board.
    #[inline]
    pub fn row_column(&self, p: usize) -> (usize, usize) {
        (p / self.stride - self.border, p % self.stride - self.border)
    }

    /// Whether flat cell `p` is filled (border cells are).
    #[inline]
    pub fn filled(&self, p: usize) -> bool {
        self.words[p / WORD_BITS] >> (p % WORD_BITS) & 1 != 0
    }

    /// Whether a figure fits with its top-left corner at flat cell `corner`: row `i` of the
    /// figure is `masks[i]` (bit c = column c, at most `SPAN` columns, `SPAN <= border`) laid on
    /// row `i` below the corner. The figure must start inside the words: corner's row and
    /// column at least 0 in border terms, its last row within the border below.
    #[inline]
    pub fn fits<const SPAN: usize>(&self, masks: &[u64], corner: usize) -> bool {
        let mut clash = 0;
        for (i, &mask) in masks.iter().enumerate() {
            debug_assert!(mask >> SPAN == 0);
            let p = corner + i * self.stride;
            let (w, s) = (p / WORD_BITS, p % WORD_BITS);
            clash |= self.words[w] & (mask << s);
            if s > WORD_BITS - SPAN {
                clash |= self.words[w + 1] & (mask >> (WORD_BITS - s));
            }
        }
        clash == 0
    }

    /// Fills the cells of a figure laid as in [`BitGrid::fits`] if they are empty, empties them
    /// if they are filled (placing and taking back are the same operation).
    #[inline]
    pub fn toggle<const SPAN: usize>(&mut self, masks: &[u64], corner: usize) {
        for (i, &mask) in masks.iter().enumerate() {
            debug_assert!(mask >> SPAN == 0);
            let p = corner + i * self.stride;
            let (w, s) = (p / WORD_BITS, p % WORD_BITS);
            self.words[w] ^= mask << s;
            if s > WORD_BITS - SPAN {
                self.words[w + 1] ^= mask >> (WORD_BITS - s);
            }
        }
    }

    /// Every board cell empty again.
    pub fn clear(&mut self) {
        self.words.copy_from_slice(&self.empty);
    }

    /// Number of filled board cells.
    pub fn count(&self) -> usize {
        self.words
            .iter()
            .zip(&self.empty)
            .map(|(w, e)| (w & !e).count_ones() as usize)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::model::Model;
    use crate::core::rng::Rng;

    fn matches(grid: &BitGrid, model: &Model) -> bool {
        (0..grid.height())
            .all(|r| (0..grid.width()).all(|c| grid.filled(grid.cell(r, c)) == model.cells[r][c]))
    }

    #[test]
    fn the_border_is_filled_and_the_board_empty() {
        for (height, width) in [(1, 1), (3, 60), (5, 61), (4, 120), (2, 200)] {
            let grid = BitGrid::new(height, width, 4);
            assert!(matches(&grid, &Model::empty(height, width)));
            assert_eq!(grid.count(), 0);
            for r in 0..height {
                let (left, right) = (grid.cell(r, 0) - 1, grid.cell(r, width - 1) + 1);
                assert!(grid.filled(left) && grid.filled(right));
                assert_eq!(grid.row_column(grid.cell(r, width - 1)), (r, width - 1));
            }
            for c in 0..width {
                let p = grid.cell(0, c);
                assert!(grid.filled(p - grid.stride()));
                assert!(grid.filled(grid.cell(height - 1, c) + grid.stride()));
            }
        }
    }

    /// Random figures of up to 4 x 4 cells at random corners (some reaching off the board), put
    /// down where they fit and taken back: the grid and the model agree at every step.
    #[test]
    fn figures_fit_and_toggle_as_the_model_says() {
        let mut rng = Rng::new(4);
        for (height, width) in [(6, 6), (9, 57), (7, 64), (5, 130)] {
            let mut grid = BitGrid::new(height, width, 4);
            let mut model = Model::empty(height, width);
            let mut placed = Vec::new();
            for step in 0..3000 {
                let masks: Vec<u64> = (0..1 + rng.below(4)).map(|_| rng.below(16)).collect();
                // Corner anywhere from 3 cells off the top-left to past the bottom-right.
                let row = rng.below((height + 3) as u64) as usize;
                let column = rng.below((width + 3) as u64) as usize;
                let corner = (1 + row) * grid.stride() + 1 + column;
                let on_board = |i: usize, c: usize| {
                    let (r, c) = (row + i, column + c);
                    (r >= 3 && r - 3 < height && c >= 3 && c - 3 < width).then(|| (r - 3, c - 3))
                };
                let free = masks.iter().enumerate().all(|(i, &m)| {
                    (0..4)
                        .filter(|c| m >> c & 1 != 0)
                        .all(|c| on_board(i, c).is_some_and(|(r, c)| !model.cells[r][c]))
                });
                assert_eq!(grid.fits::<4>(&masks, corner), free, "step {step}");
                if free {
                    grid.toggle::<4>(&masks, corner);
                    for (i, &m) in masks.iter().enumerate() {
                        for c in (0..4).filter(|c| m >> c & 1 != 0) {
                            let (r, c) = on_board(i, c).expect("fits");
                            model.cells[r][c] = true;
                        }
                    }
                    placed.push((masks, corner, row, column));
                }
                if rng.chance(0.3) {
                    if let Some((masks, corner, row, column)) = placed.pop() {
                        grid.toggle::<4>(&masks, corner);
                        for (i, &m) in masks.iter().enumerate() {
                            for c in (0..4).filter(|c| m >> c & 1 != 0) {
                                model.cells[row + i - 3][column + c - 3] = false;
                            }
                        }
                    }
                }
                assert!(matches(&grid, &model), "step {step}");
                let filled = model.cells.iter().flatten().filter(|&&c| c).count();
                assert_eq!(grid.count(), filled);
            }
            grid.clear();
            assert_eq!(grid.count(), 0);
        }
    }
}
