//! The seven one-sided tetrominoes and their 19 orientations, numbered exactly as the contest:
//! angle k is angle 0 turned clockwise k quarter turns; only distinct orientations have ids.

use std::fmt;

/// A figure type, in the order signatures list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    I,
    J,
    L,
    O,
    S,
    T,
    Z,
}

impl Figure {
    pub const ALL: [Figure; 7] = [
        Figure::I,
        Figure::J,
        Figure::L,
        Figure::O,
        Figure::S,
        Figure::T,
        Figure::Z,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        b"IJLOSTZ"[self.index()] as char
    }

    pub fn from_letter(letter: char) -> Option<Figure> {
        Figure::ALL.into_iter().find(|f| f.letter() == letter)
    }

    /// How many distinct angles the figure has (ids 0..angles).
    pub fn angles(self) -> u8 {
        match self {
            Figure::O => 1,
            Figure::I | Figure::S | Figure::Z => 2,
            Figure::J | Figure::L | Figure::T => 4,
        }
    }

    /// The orientation of this figure at `angle`, or `None` if the angle has no id.
    pub fn orientation(self, angle: u8) -> Option<&'static Orientation> {
        ORIENTATIONS
            .iter()
            .find(|o| o.figure == self && o.angle == angle)
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One orientation: its four cells as (row, column) offsets from the bounding box's top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orientation {
    pub figure: Figure,
    pub angle: u8,
    pub cells: [(u8, u8); 4],
    pub height: u8,
    pub width: u8,
}

/// Builds an orientation from its rows, `#` filled, as the spec's table draws them.
const fn orientation(figure: Figure, angle: u8, rows: &[&str]) -> Orientation {
    let mut cells = [(0u8, 0u8); 4];
    let mut n = 0;
    let mut width = 0;
    let mut r = 0;
    while r < rows.len() {
        let bytes = rows[r].as_bytes();
        if bytes.len() > width {
            width = bytes.len();
        }
        let mut c = 0;
        while c < bytes.len() {
            if bytes[c] == b'#' {
                cells[n] = (r as u8, c as u8);
                n += 1;
            }
            c += 1;
        }
        r += 1;
    }
    assert!(n == 4, "an orientation has four cells");
    Orientation {
        figure,
        angle,
        cells,
        height: rows.len() as u8,
        width: width as u8,
    }
}

/// All 19 orientations, grouped by figure in signature order.
pub const ORIENTATIONS: [Orientation; 19] = [
    orientation(Figure::I, 0, &["#", "#", "#", "#"]),
    orientation(Figure::I, 1, &["####"]),
    orientation(Figure::J, 0, &[".#", ".#", "##"]),
    orientation(Figure::J, 1, &["#..", "###"]),
    orientation(Figure::J, 2, &["##", "#.", "#."]),
    orientation(Figure::J, 3, &["###", "..#"]),
    orientation(Figure::L, 0, &["#.", "#.", "##"]),
    orientation(Figure::L, 1, &["###", "#.."]),
    orientation(Figure::L, 2, &["##", ".#", ".#"]),
    orientation(Figure::L, 3, &["..#", "###"]),
    orientation(Figure::O, 0, &["##", "##"]),
    orientation(Figure::S, 0, &[".##", "##."]),
    orientation(Figure::S, 1, &["#.", "##", ".#"]),
    orientation(Figure::T, 0, &["###", ".#."]),
    orientation(Figure::T, 1, &[".#", "##", ".#"]),
    orientation(Figure::T, 2, &[".#.", "###"]),
    orientation(Figure::T, 3, &["#.", "##", "#."]),
    orientation(Figure::Z, 0, &["##.", ".##"]),
    orientation(Figure::Z, 1, &[".#", "##", "#."]),
];

/// The figure and angle whose cells, moved to their top-left, are exactly `cells` (any order).
pub fn identify(cells: &[(usize, usize); 4]) -> Option<&'static Orientation> {
    let top = cells.iter().map(|c| c.0).min()?;
    let left = cells.iter().map(|c| c.1).min()?;
    let mut normal: Vec<(u8, u8)> = cells
        .iter()
        .map(|&(r, c)| ((r - top) as u8, (c - left) as u8))
        .collect();
    normal.sort_unstable();
    ORIENTATIONS.iter().find(|o| {
        let mut own = o.cells;
        own.sort_unstable();
        own[..] == normal[..]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rotate_clockwise(cells: &[(u8, u8); 4]) -> [(usize, usize); 4] {
        let height = cells.iter().map(|c| c.0).max().unwrap() as usize + 1;
        cells.map(|(r, c)| (c as usize, height - 1 - r as usize))
    }

    #[test]
    fn each_angle_is_the_previous_turned_clockwise() {
        for o in ORIENTATIONS.iter() {
            let next = (o.angle + 1) % o.figure.angles();
            let turned = identify(&rotate_clockwise(&o.cells)).unwrap();
            assert_eq!((turned.figure, turned.angle), (o.figure, next), "{o:?}");
        }
    }

    #[test]
    fn orientations_are_distinct_and_counted() {
        assert_eq!(
            Figure::ALL
                .iter()
                .map(|f| usize::from(f.angles()))
                .sum::<usize>(),
            19
        );
        for (i, a) in ORIENTATIONS.iter().enumerate() {
            assert_eq!(
                identify(&a.cells.map(|(r, c)| (r as usize, c as usize))),
                Some(a)
            );
            for b in &ORIENTATIONS[i + 1..] {
                assert_ne!(a.cells, b.cells);
            }
        }
        assert_eq!(Figure::from_letter('S'), Some(Figure::S));
        assert_eq!(Figure::from_letter('X'), None);
        assert!(Figure::J.orientation(4).is_none());
    }
}
