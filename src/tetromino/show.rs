//! Pictures of a tiling: the terminal (ANSI background colours, one per figure type) and SVG.
//! Both draw every piece's outline so neighbouring pieces of the same type stay distinct.

use super::figures::Figure;
use super::solution::Placement;
use std::fmt::Write;

/// RGB colours per figure, in signature order (I J L O S T Z), as in classic Tetris.
const COLOURS: [(u8, u8, u8); 7] = [
    (0, 200, 230),
    (40, 80, 230),
    (240, 150, 20),
    (235, 215, 0),
    (40, 190, 60),
    (160, 60, 200),
    (220, 40, 40),
];

/// Which piece covers each cell (`usize::MAX`: none), row-major; off-board cells are skipped.
fn owners(size: usize, placements: &[Placement]) -> Vec<usize> {
    let mut owner = vec![usize::MAX; size * size];
    for (i, p) in placements.iter().enumerate() {
        for (r, c) in p.cells() {
            if r < size && c < size {
                owner[r * size + c] = i;
            }
        }
    }
    owner
}

/// The board as text, two characters a cell: the figure letter, on its colour when `colour`.
pub fn terminal(size: usize, placements: &[Placement], colour: bool) -> String {
    let owner = owners(size, placements);
    let mut out = String::new();
    for r in 0..size {
        for c in 0..size {
            match owner[r * size + c] {
                usize::MAX => out.push_str(". "),
                i => {
                    let f = placements[i].figure;
                    if colour {
                        let (red, green, blue) = COLOURS[f.index()];
                        // A lighter shade on odd pieces separates neighbours of one type.
                        let lift = if i % 2 == 1 { 50 } else { 0 };
                        let _ = write!(
                            out,
                            "\x1b[48;2;{};{};{}m\x1b[30m{f} \x1b[0m",
                            red.saturating_add(lift),
                            green.saturating_add(lift),
                            blue.saturating_add(lift)
                        );
                    } else {
                        let _ = write!(out, "{f} ");
                    }
                }
            }
        }
        out.push('\n');
    }
    out
}

/// An SVG picture: cells filled by figure colour, thick lines between different pieces.
pub fn svg(size: usize, placements: &[Placement]) -> String {
    const CELL: usize = 16;
    let owner = owners(size, placements);
    let side = size * CELL;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"-2 -2 {} {}\">\n<rect x=\"0\" y=\"0\" width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\n",
        side + 4,
        side + 4,
        side + 4,
        side + 4
    );
    for (i, p) in placements.iter().enumerate() {
        let (red, green, blue) = COLOURS[p.figure.index()];
        let _ = write!(
            out,
            "<g fill=\"rgb({red},{green},{blue})\"><title>{i}: {}{} at x={}, y={}</title>",
            p.figure, p.angle, p.x, p.y
        );
        for (r, c) in p.cells() {
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                c * CELL,
                r * CELL
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("<path stroke=\"#000\" stroke-width=\"2\" fill=\"none\" d=\"");
    let at = |r: usize, c: usize| -> usize {
        if r < size && c < size {
            owner[r * size + c]
        } else {
            usize::MAX - 1
        }
    };
    for r in 0..=size {
        for c in 0..=size {
            let here = at(r, c);
            let up = if r == 0 { usize::MAX - 1 } else { at(r - 1, c) };
            let left = if c == 0 { usize::MAX - 1 } else { at(r, c - 1) };
            if c < size && here != up {
                let _ = write!(out, "M{} {}h{CELL}", c * CELL, r * CELL);
            }
            if r < size && here != left {
                let _ = write!(out, "M{} {}v{CELL}", c * CELL, r * CELL);
            }
        }
    }
    out.push_str("\"/>\n</svg>\n");
    out
}

/// The figure of a colour index, for legends.
pub fn legend(colour: bool) -> String {
    let mut out = String::new();
    for f in Figure::ALL {
        if colour {
            let (r, g, b) = COLOURS[f.index()];
            let _ = write!(out, "\x1b[48;2;{r};{g};{b}m\x1b[30m {f} \x1b[0m ");
        } else {
            let _ = write!(out, "{f} ");
        }
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetromino::solution::parse_json;

    #[test]
    fn draws_the_spec_example() {
        let p = parse_json(r#"[["Z",0,0,0],["J",1,0,1],["L",2,2,0],["I",1,0,3]]"#).unwrap();
        assert_eq!(
            terminal(4, &p, false),
            "Z Z L L \nJ Z Z L \nJ J J L \nI I I I \n"
        );
        let coloured = terminal(4, &p, true);
        assert!(coloured.contains("\x1b[48;2;") && coloured.matches('\n').count() == 4);
        let picture = svg(4, &p);
        assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
        assert_eq!(picture.matches("<g ").count(), 4);
        assert_eq!(picture.matches("<rect").count(), 17);
        assert!(legend(false).starts_with("I J"));
    }
}
