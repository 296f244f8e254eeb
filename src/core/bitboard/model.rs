//! The naive reference the bitboard tests compare against: one `bool` per cell.

/// `cells[row][column]`, for any number of rows and columns.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct Model {
    pub cells: Vec<Vec<bool>>,
}

impl Model {
    pub fn empty(rows: usize, columns: usize) -> Model {
        Model {
            cells: vec![vec![false; columns]; rows],
        }
    }

    pub fn set_cells(&self) -> Vec<(usize, usize)> {
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

    pub fn map_cells(&self, cell_from: impl Fn(usize, usize) -> bool) -> Model {
        let mut result = self.clone();
        for (row, line) in result.cells.iter_mut().enumerate() {
            for (column, cell) in line.iter_mut().enumerate() {
                *cell = cell_from(row, column);
            }
        }
        result
    }
}
