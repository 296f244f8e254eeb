//! A falling-block board on the heap: a run-time number of rows of up to `W::BITS` columns, one
//! word per row, with a figure's fit test, placement and the removal of full rows on whole rows.

use super::word::{row_mask, RowWord};

/// Rows `0..height` top to bottom, bit c of a row is column c; bits past `width` stay clear.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RowBoard<W: RowWord> {
    width: usize,
    /// The bits of columns `0..width`: a row equal to it is full.
    full: W,
    rows: Vec<W>,
}

impl<W: RowWord> RowBoard<W> {
    /// An empty board; panics unless `width <= W::BITS`.
    pub fn new(width: usize, height: usize) -> RowBoard<W> {
        RowBoard {
            width,
            full: row_mask::<W>(width),
            rows: vec![W::EMPTY; height],
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The filled columns of each row, top row first.
    pub fn rows(&self) -> &[W] {
        &self.rows
    }

    /// Overwrites every row with `rows`, the rows of a board of the same size (kept elsewhere,
    /// e.g. in an arena): a copy without an allocation.
    #[inline]
    pub fn load(&mut self, rows: &[W]) {
        self.rows.copy_from_slice(rows);
    }

    #[inline]
    pub fn get(&self, row: usize, column: usize) -> bool {
        self.rows[row] & W::bit(column) != W::EMPTY
    }

    /// Fills one cell; panics off the board.
    #[inline]
    pub fn set(&mut self, row: usize, column: usize) {
        assert!(
            column < self.width,
            "column {column} is off a {}-column board",
            self.width
        );
        self.rows[row] = self.rows[row] | W::bit(column);
    }

    /// Number of filled cells.
    pub fn count(&self) -> usize {
        self.rows.iter().map(|&r| r.count_ones() as usize).sum()
    }

    /// Whether a figure, `masks[i]` being its row `i` with its leftmost column at bit 0, placed
    /// with that row on board row `top + i` and that column on `left`, covers only empty cells.
    /// The caller keeps the figure on the board (`left + its width <= width`, rows in range).
    #[inline]
    pub fn fits(&self, top: usize, left: usize, masks: &[W]) -> bool {
        let rows = &self.rows[top..top + masks.len()];
        if W::BITS > 64 && self.width <= 64 {
            // Every mask and row fits in the low 64 bits, and 64-bit shifts are much cheaper.
            rows.iter()
                .zip(masks)
                .all(|(&row, &mask)| row.low_u64() & mask.low_u64() << left == 0)
        } else {
            rows.iter()
                .zip(masks)
                .all(|(&row, &mask)| row & (mask << left) == W::EMPTY)
        }
    }

    /// Fills the figure's cells (placed as in [`RowBoard::fits`], which must hold), removes every
    /// full row, and returns how many were removed; the rows above a removed row drop.
    #[inline]
    pub fn place(&mut self, top: usize, left: usize, masks: &[W]) -> u32 {
        debug_assert!(self.fits(top, left, masks));
        let bottom = top + masks.len();
        let mut cleared = 0;
        for (row, &mask) in self.rows[top..bottom].iter_mut().zip(masks) {
            *row = *row | mask << left;
            cleared += u32::from(*row == self.full);
        }
        if cleared > 0 {
            self.remove_full_rows(bottom);
        }
        cleared
    }

    /// Removes the full rows among rows `0..end`; the rows above them drop.
    fn remove_full_rows(&mut self, end: usize) {
        let mut write = end;
        for read in (0..end).rev() {
            let row = self.rows[read];
            if row != self.full {
                write -= 1;
                self.rows[write] = row;
            }
        }
        self.rows[..write].fill(W::EMPTY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::model::Model;
    use crate::core::rng::Rng;

    fn matches<W: RowWord>(board: &RowBoard<W>, model: &Model) -> bool {
        (0..board.height())
            .all(|r| (0..board.width()).all(|c| board.get(r, c) == model.cells[r][c]))
    }

    /// The model's placement: fill, then keep the rows that are not full, dropped to the bottom.
    fn place_in_model(model: &mut Model, top: usize, left: usize, masks: &[u128]) -> u32 {
        for (i, &mask) in masks.iter().enumerate() {
            for c in 0..128 {
                if mask >> c & 1 != 0 {
                    model.cells[top + i][left + c] = true;
                }
            }
        }
        let width = model.cells[0].len();
        let kept: Vec<Vec<bool>> = model
            .cells
            .iter()
            .filter(|row| !row.iter().all(|&cell| cell))
            .cloned()
            .collect();
        let cleared = model.cells.len() - kept.len();
        let mut cells = vec![vec![false; width]; cleared];
        cells.extend(kept);
        model.cells = cells;
        cleared as u32
    }

    fn random_figures_match_the_model<W: RowWord>(width: usize, convert: impl Fn(u128) -> W) {
        let mut rng = Rng::new(width as u64);
        let height = 12;
        for _ in 0..40 {
            let mut board = RowBoard::<W>::new(width, height);
            let mut model = Model::empty(height, width);
            for _ in 0..60 {
                let figure_width = 1 + rng.below(3.min(width as u64)) as usize;
                let rows = 1 + rng.below(3) as usize;
                let masks: Vec<u128> = (0..rows)
                    .map(|_| (rng.next_u64() as u128 & row_mask::<u128>(figure_width)) | 1)
                    .collect();
                let top = rng.below((height - rows + 1) as u64) as usize;
                let left = rng.below((width - figure_width + 1) as u64) as usize;
                let words: Vec<W> = masks.iter().map(|&m| convert(m)).collect();
                let free = masks.iter().enumerate().all(|(i, &mask)| {
                    (0..figure_width).all(|c| mask >> c & 1 == 0 || !model.cells[top + i][left + c])
                });
                assert_eq!(board.fits(top, left, &words), free);
                if free {
                    let cleared = board.place(top, left, &words);
                    assert_eq!(cleared, place_in_model(&mut model, top, left, &masks));
                }
                assert!(matches(&board, &model));
                let filled = model.cells.iter().flatten().filter(|&&c| c).count();
                assert_eq!(board.count(), filled);
            }
        }
    }

    #[test]
    fn figures_fit_place_and_clear_rows_as_the_model_says() {
        for width in [1, 3, 5, 64] {
            random_figures_match_the_model::<u64>(width, |m| m as u64);
        }
        // 5 and 64 columns take the 64-bit path of a 128-bit board; 65 and 128 the 128-bit one.
        for width in [5, 64, 65, 100, 128] {
            random_figures_match_the_model::<u128>(width, |m| m);
        }
    }

    #[test]
    fn the_widest_row_clears() {
        let mut board = RowBoard::<u128>::new(128, 2);
        for column in 0..127 {
            board.set(1, column);
        }
        assert!(board.fits(1, 127, &[1]));
        assert_eq!(board.place(1, 127, &[1]), 1);
        assert_eq!(board.count(), 0);
    }

    #[test]
    #[should_panic(expected = "off a 3-column board")]
    fn set_rejects_columns_past_the_width() {
        RowBoard::<u64>::new(3, 2).set(0, 3);
    }
}
