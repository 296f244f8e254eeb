//! Units precomputed once per problem: member offsets from the pivot for all 6 orientations
//! and both pivot-row parities, as per-row bit masks, plus the spawn position and orientation classes.

use super::hex::{column_offset, to_cube, Cell, Cube};
use super::problem::UnitSpec;

/// A unit position: the pivot cell and the orientation (0..6, clockwise turns from the spawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
    pub orientation: u8,
}

/// One orientation of a unit with its pivot on a row of one parity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Bounds of the member offsets from the pivot.
    pub dx_min: i32,
    pub dx_max: i32,
    pub dy_min: i32,
    pub dy_max: i32,
    /// Row `dy_min + i` holds bit `dx - dx_min` for each member `(dx, dy)`; empty when the
    /// shape is 128 or more columns wide (it then fits no board).
    pub rows: Vec<u128>,
    /// Member offsets `(dx, dy)`, sorted by `(dy, dx)`.
    pub members: Vec<(i32, i32)>,
}

/// A unit of a problem, ready for the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Number of members (the `size` of the move score).
    pub size: u32,
    /// Where the unit appears on an empty board of the problem's width.
    pub spawn: Pos,
    /// `canonical[o]`: the smallest orientation with the same member set as `o`, so two
    /// positions are the same exactly when pivots and canonical orientations are equal.
    pub canonical: [u8; 6],
    /// Number of distinct orientations (1, 2, 3 or 6).
    pub distinct: u8,
    /// Member offsets from the pivot in cube coordinates, per orientation, sorted.
    pub cubes: [Vec<Cube>; 6],
    /// `shapes[2 * orientation + parity]`.
    shapes: [Shape; 12],
}

impl Unit {
    /// Precomputes a unit for a board of width `width`, following the evaluator's spawn rule:
    /// shift so the smallest member x and y are 0, then `(width - w) / 2` cells east.
    pub fn new(spec: &UnitSpec, width: usize) -> Unit {
        let min_x = spec.members.iter().map(|c| c.x).min().expect("members");
        let min_y = spec.members.iter().map(|c| c.y).min().expect("members");
        let max_x = spec
            .members
            .iter()
            .map(|c| c.x - min_x)
            .max()
            .expect("members");
        let shift = (width as i32 - (max_x + 1)) / 2;
        let pivot = Cell::new(spec.pivot.x - min_x, spec.pivot.y - min_y);
        let base: Vec<Cube> = spec
            .members
            .iter()
            .map(|c| to_cube(Cell::new(c.x - min_x, c.y - min_y), pivot))
            .collect();
        let cubes: [Vec<Cube>; 6] = std::array::from_fn(|o| {
            let mut turned: Vec<Cube> = base
                .iter()
                .map(|&c| (0..o).fold(c, |c, _| c.cw()))
                .collect();
            turned.sort_unstable();
            turned
        });
        let mut canonical = [0u8; 6];
        for o in 0..6 {
            canonical[o] = (0..=o).find(|&p| cubes[p] == cubes[o]).expect("o itself") as u8;
        }
        let distinct = (0..6).filter(|&o| canonical[o] as usize == o).count() as u8;
        let shapes = std::array::from_fn(|i| Shape::new(&cubes[i / 2], (i % 2) as i32));
        Unit {
            size: spec.members.len() as u32,
            spawn: Pos {
                x: pivot.x + shift,
                y: pivot.y,
                orientation: 0,
            },
            canonical,
            distinct,
            cubes,
            shapes,
        }
    }

    /// The shape of orientation `orientation` with the pivot on row `y`.
    #[inline]
    pub fn shape(&self, orientation: u8, y: i32) -> &Shape {
        &self.shapes[(2 * orientation as usize + (y & 1) as usize) % 12]
    }

    /// `pos` with its orientation's canonical number: equal positions compare equal.
    #[inline]
    pub fn canonical_pos(&self, pos: Pos) -> Pos {
        Pos {
            orientation: self.canonical[pos.orientation as usize],
            ..pos
        }
    }

    /// The member cells at `pos`.
    pub fn cells(&self, pos: Pos) -> Vec<Cell> {
        self.shape(pos.orientation, pos.y)
            .members
            .iter()
            .map(|&(dx, dy)| Cell::new(pos.x + dx, pos.y + dy))
            .collect()
    }
}

impl Shape {
    fn new(cubes: &[Cube], parity: i32) -> Shape {
        let mut members: Vec<(i32, i32)> = cubes
            .iter()
            .map(|&c| (column_offset(c, parity), c.z))
            .collect();
        members.sort_unstable_by_key(|&(dx, dy)| (dy, dx));
        let dx_min = members.iter().map(|m| m.0).min().expect("members");
        let dx_max = members.iter().map(|m| m.0).max().expect("members");
        let dy_min = members.iter().map(|m| m.1).min().expect("members");
        let dy_max = members.iter().map(|m| m.1).max().expect("members");
        let rows = if dx_max - dx_min < 128 {
            let mut rows = vec![0u128; (dy_max - dy_min + 1) as usize];
            for &(dx, dy) in &members {
                rows[(dy - dy_min) as usize] |= 1u128 << (dx - dx_min);
            }
            rows
        } else {
            Vec::new()
        };
        Shape {
            dx_min,
            dx_max,
            dy_min,
            dy_max,
            rows,
            members,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(members: &[(i32, i32)], pivot: (i32, i32)) -> UnitSpec {
        UnitSpec {
            members: members.iter().map(|&(x, y)| Cell::new(x, y)).collect(),
            pivot: Cell::new(pivot.0, pivot.1),
        }
    }

    #[test]
    fn spawn_centres_rounding_down() {
        let u = Unit::new(&spec(&[(0, 0), (1, 0), (2, 0)], (1, 0)), 10);
        assert_eq!(
            u.spawn,
            Pos {
                x: 4,
                y: 0,
                orientation: 0
            }
        );
        let cells = u.cells(u.spawn);
        assert_eq!(cells, [Cell::new(3, 0), Cell::new(4, 0), Cell::new(5, 0)]);
        let shifted = Unit::new(&spec(&[(5, 2), (6, 2)], (5, 2)), 5);
        assert_eq!(
            shifted.spawn,
            Pos {
                x: 1,
                y: 0,
                orientation: 0
            }
        );
    }

    #[test]
    fn symmetry_classes() {
        let single = Unit::new(&spec(&[(0, 0)], (0, 0)), 5);
        assert_eq!((single.distinct, single.canonical), (1, [0; 6]));
        let bar = Unit::new(&spec(&[(0, 0), (1, 0), (2, 0)], (1, 0)), 5);
        assert_eq!((bar.distinct, bar.canonical), (3, [0, 1, 2, 0, 1, 2]));
        // The E, SW and NW neighbours of an odd-row pivot: a 120-degree symmetry.
        let tri = Unit::new(&spec(&[(2, 1), (1, 2), (1, 0)], (1, 1)), 5);
        assert_eq!((tri.distinct, tri.canonical), (2, [0, 1, 0, 1, 0, 1]));
        let off = Unit::new(&spec(&[(0, 0), (1, 0)], (5, 5)), 8);
        assert_eq!(off.distinct, 6);
    }

    #[test]
    fn shapes_match_direct_rotation() {
        use super::super::hex::rotate;
        let s = spec(&[(0, 0), (1, 0), (1, 1), (3, 2)], (2, 1));
        let u = Unit::new(&s, 12);
        for y in [4, 5] {
            let start = Pos {
                x: 6,
                y,
                orientation: 0,
            };
            let mut cells = u.cells(start);
            let pivot = Cell::new(6, y);
            for o in 1..6u8 {
                cells = cells.iter().map(|&c| rotate(c, pivot, true)).collect();
                cells.sort_by_key(|c| (c.y, c.x));
                assert_eq!(
                    u.cells(Pos {
                        orientation: o,
                        ..start
                    }),
                    cells
                );
            }
        }
    }
}
