//! Hex-grid geometry: offset cells (odd rows shifted right), the four moves, and 60-degree
//! rotations about a pivot through cube coordinates.

/// A board cell `(x, y)`: column `x`, row `y` (row 0 at the top). May lie off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }
}

/// A cell relative to a pivot in cube coordinates (`Y = -X - Z` is implied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cube {
    pub x: i32,
    pub z: i32,
}

impl Cube {
    /// `(X, Y, Z) -> (-Z, -X, -Y)`.
    #[inline]
    pub fn cw(self) -> Cube {
        let y = -self.x - self.z;
        Cube { x: -self.z, z: -y }
    }

    /// `(X, Y, Z) -> (-Y, -Z, -X)`.
    #[inline]
    pub fn ccw(self) -> Cube {
        let y = -self.x - self.z;
        Cube { x: -y, z: -self.x }
    }
}

/// `q = x - floor(y / 2)`: the axial column, which odd-row shifting leaves straight.
#[inline]
fn axial_q(cell: Cell) -> i32 {
    cell.x - (cell.y >> 1)
}

/// `cell` relative to `pivot`, in cube coordinates.
#[inline]
pub fn to_cube(cell: Cell, pivot: Cell) -> Cube {
    Cube {
        x: axial_q(cell) - axial_q(pivot),
        z: cell.y - pivot.y,
    }
}

/// The cell at cube offset `cube` from `pivot`.
#[inline]
pub fn from_cube(cube: Cube, pivot: Cell) -> Cell {
    let y = pivot.y + cube.z;
    Cell {
        x: axial_q(pivot) + cube.x + (y >> 1),
        y,
    }
}

/// Column offset of a cube offset `cube` from a pivot on a row of parity `parity` (0 even, 1 odd).
#[inline]
pub fn column_offset(cube: Cube, parity: i32) -> i32 {
    cube.x + ((cube.z + parity) >> 1)
}

/// `cell` rotated 60 degrees clockwise (`cw`) or counter-clockwise about `pivot`.
pub fn rotate(cell: Cell, pivot: Cell, cw: bool) -> Cell {
    let cube = to_cube(cell, pivot);
    from_cube(if cw { cube.cw() } else { cube.ccw() }, pivot)
}

/// The six neighbour directions, as the spec names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    E,
    W,
    SE,
    SW,
    NE,
    NW,
}

impl Direction {
    /// The six neighbours' directions.
    pub const ALL: [Direction; 6] = [
        Direction::E,
        Direction::W,
        Direction::SE,
        Direction::SW,
        Direction::NE,
        Direction::NW,
    ];
}

/// The neighbour of `cell` in direction `direction` (`e = 1` on even rows, 0 on odd rows).
#[inline]
pub fn neighbour(cell: Cell, direction: Direction) -> Cell {
    let e = 1 - (cell.y & 1);
    let (x, y) = (cell.x, cell.y);
    match direction {
        Direction::E => Cell::new(x + 1, y),
        Direction::W => Cell::new(x - 1, y),
        Direction::SE => Cell::new(x + 1 - e, y + 1),
        Direction::SW => Cell::new(x - e, y + 1),
        Direction::NE => Cell::new(x + 1 - e, y - 1),
        Direction::NW => Cell::new(x - e, y - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_round_trips_on_negative_rows() {
        for y in -7..8 {
            for x in -7..8 {
                for pivot in [Cell::new(0, 0), Cell::new(3, -3), Cell::new(-2, 5)] {
                    let cell = Cell::new(x, y);
                    assert_eq!(from_cube(to_cube(cell, pivot), pivot), cell);
                    let cube = to_cube(cell, pivot);
                    assert_eq!(pivot.x + column_offset(cube, pivot.y & 1), x);
                }
            }
        }
    }

    #[test]
    fn rotations_follow_the_neighbour_ring() {
        use Direction::*;
        let ring = [E, SE, SW, W, NW, NE];
        for pivot in [Cell::new(4, 4), Cell::new(4, 5), Cell::new(-1, -3)] {
            for k in 0..6 {
                let here = neighbour(pivot, ring[k]);
                let next = neighbour(pivot, ring[(k + 1) % 6]);
                assert_eq!(rotate(here, pivot, true), next);
                assert_eq!(rotate(next, pivot, false), here);
            }
        }
    }

    #[test]
    fn six_turns_are_the_identity() {
        let cube = Cube { x: 3, z: -5 };
        let mut c = cube;
        for _ in 0..6 {
            c = c.cw();
        }
        assert_eq!(c, cube);
        assert_eq!(cube.cw().ccw(), cube);
    }
}
