//! The independent validator: a grid as text rows (`.` empty) against a hand and a word list.
//! It shares nothing with the solvers but the word list: own parsing, own flood fill, own runs.

use super::dict::WordList;
use super::letters::Tiles;
use std::fmt;

/// The first thing wrong with a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// A character that is neither a letter nor `.` (1-based row and column).
    BadCharacter {
        row: usize,
        column: usize,
        found: char,
    },
    Empty,
    /// The grid's letters differ from the hand: the letters missing from the grid, the extra.
    WrongTiles {
        missing: String,
        extra: String,
    },
    /// Tiles not 4-connected to the first tile (row-major); one of them.
    Disconnected {
        row: usize,
        column: usize,
    },
    /// A maximal run of 2+ letters that is not a word.
    NotAWord {
        word: String,
        row: usize,
        column: usize,
        down: bool,
    },
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::BadCharacter { row, column, found } => {
                write!(
                    f,
                    "row {row}, column {column}: {found:?} is not a letter or '.'"
                )
            }
            Invalid::Empty => write!(f, "the grid has no tiles"),
            Invalid::WrongTiles { missing, extra } => write!(
                f,
                "the grid's tiles differ from the hand: missing {missing:?}, extra {extra:?}"
            ),
            Invalid::Disconnected { row, column } => {
                write!(
                    f,
                    "row {row}, column {column}: tile not connected to the rest"
                )
            }
            Invalid::NotAWord {
                word,
                row,
                column,
                down,
            } => write!(
                f,
                "row {row}, column {column} {}: {word} is not a word",
                if *down { "down" } else { "across" }
            ),
        }
    }
}

/// The letters `a` has beyond `b`, each written out up to 8 times, then as `Ax12345`, so a
/// hostile grid's difference stays a short line.
fn difference(a: &[usize; 26], b: &[usize; 26]) -> String {
    let mut out = String::new();
    for (l, (&x, &y)) in a.iter().zip(b).enumerate() {
        let letter = char::from(b'A' + l as u8);
        match x.saturating_sub(y) {
            0 => {}
            n @ 1..=8 => out.extend(std::iter::repeat_n(letter, n)),
            n => out.push_str(&format!("{letter}x{n}")),
        }
    }
    out
}

/// Checks that `grid` uses exactly `hand`, is one 4-connected group, and that every maximal
/// horizontal and vertical run of 2+ letters is in `words`. Lower-case letters count as tiles.
pub fn validate(grid: &str, hand: &Tiles, words: &WordList) -> Result<(), Invalid> {
    let mut cells: Vec<Vec<Option<u8>>> = Vec::new();
    for (r, line) in grid.lines().enumerate() {
        let mut out = Vec::with_capacity(line.len());
        for (c, ch) in line.trim_end_matches('\r').chars().enumerate() {
            out.push(match ch {
                '.' | ' ' => None,
                ch if ch.is_ascii_alphabetic() => Some(ch.to_ascii_uppercase() as u8),
                _ => {
                    return Err(Invalid::BadCharacter {
                        row: r + 1,
                        column: c + 1,
                        found: ch,
                    })
                }
            });
        }
        cells.push(out);
    }
    let at = |r: usize, c: usize| cells.get(r).and_then(|row| row.get(c)).copied().flatten();
    // Counted in machine words, not in `Tiles` (a byte per letter): a hostile grid of 65,538
    // tiles must not wrap around to the hand's counts.
    let mut used = [0usize; 26];
    let mut first = None;
    let mut count = 0;
    for (r, row) in cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if let Some(b) = cell {
                used[usize::from(b - b'A')] += 1;
                count += 1;
                first.get_or_insert((r, c));
            }
        }
    }
    let Some(first) = first else {
        return Err(Invalid::Empty);
    };
    let wanted: [usize; 26] = std::array::from_fn(|l| usize::from(hand.count(l as u8)));
    if used != wanted {
        return Err(Invalid::WrongTiles {
            missing: difference(&wanted, &used),
            extra: difference(&used, &wanted),
        });
    }
    // Every table is shaped like the text itself (each row as long as its line), and the
    // checks below visit tiles, not the lines x longest line rectangle: a 32 KB grid of one
    // tile, one long line and many empty ones took 256 MB and 0.3 s that way.
    let mut seen: Vec<Vec<bool>> = cells.iter().map(|row| vec![false; row.len()]).collect();
    let mut stack = vec![first];
    seen[first.0][first.1] = true;
    let mut reached = 0;
    while let Some((r, c)) = stack.pop() {
        reached += 1;
        let around = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for (nr, nc) in around {
            if at(nr, nc).is_some() && !seen[nr][nc] {
                seen[nr][nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    if reached != count {
        for (r, row) in cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if cell.is_some() && !seen[r][c] {
                    return Err(Invalid::Disconnected {
                        row: r + 1,
                        column: c + 1,
                    });
                }
            }
        }
    }
    // Words start at a tile with no tile before it and one after it: across ones in reading
    // order, then down ones column by column, as a reader checks a grid.
    let mut across = Vec::new();
    let mut down = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if cell.is_none() {
                continue;
            }
            if at(r, c.wrapping_sub(1)).is_none() && at(r, c + 1).is_some() {
                across.push((r, c));
            }
            if at(r.wrapping_sub(1), c).is_none() && at(r + 1, c).is_some() {
                down.push((c, r));
            }
        }
    }
    down.sort_unstable();
    let starts = across
        .into_iter()
        .map(|(r, c)| (r, c, false))
        .chain(down.into_iter().map(|(c, r)| (r, c, true)));
    for (row, column, down) in starts {
        let step = |k: usize| {
            if down {
                (row + k, column)
            } else {
                (row, column + k)
            }
        };
        let word: Vec<u8> = (0..)
            .map_while(|k| {
                let (r, c) = step(k);
                at(r, c)
            })
            .collect();
        if !words.contains(&word) {
            return Err(Invalid::NotAWord {
                word: String::from_utf8(word).expect("ASCII letters"),
                row: row + 1,
                column: column + 1,
                down,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::dict::Lexicon;
    use super::*;

    fn check(grid: &str, hand: &str) -> Result<(), Invalid> {
        validate(grid, &Tiles::parse(hand).unwrap(), &Lexicon::enable().list)
    }

    #[test]
    fn tile_counts_do_not_wrap() {
        // 258 = 2 mod 256: a byte counter took this row for the hand AA.
        let row = "A".repeat(258);
        assert_eq!(
            check(&row, "AA"),
            Err(Invalid::WrongTiles {
                missing: String::new(),
                extra: "Ax256".into()
            })
        );
        // A row of millions of tiles wrapped the 16-bit total and reported `extra ""`.
        let long = "a".repeat(2_000_000);
        let e = check(&long, "AA").unwrap_err();
        assert!(e.to_string().contains("extra \"Ax1999998\""), "{e}");
        assert!(e.to_string().len() < 100);
    }

    #[test]
    fn a_bad_character_is_named_as_written() {
        assert_eq!(
            check("CAFÉ\n", "CAFE"),
            Err(Invalid::BadCharacter {
                row: 1,
                column: 4,
                found: 'É'
            })
        );
    }

    #[test]
    fn valid_grids_pass() {
        assert_eq!(check("CAT\n", "TAC"), Ok(()));
        assert_eq!(check(".S.\nCAT\n.T.\n", "CATST"), Ok(()));
        // Parallel play: AB over DO makes AD and BO.
        assert_eq!(check("AB\nDO\n", "ABDO"), Ok(()));
        assert_eq!(check("..q..\n..a..\n..t..\n", "QAT"), Ok(()));
    }

    #[test]
    fn invalid_grids_are_named() {
        assert_eq!(check("", ""), Err(Invalid::Empty));
        assert_eq!(
            check("CAT\n", "CATS"),
            Err(Invalid::WrongTiles {
                missing: "S".into(),
                extra: String::new()
            })
        );
        assert_eq!(
            check("CAT.\n...A\n", "CATA"),
            Err(Invalid::Disconnected { row: 2, column: 4 })
        );
        // A single tile off on its own is disconnected even though it forms no run.
        assert_eq!(
            check("CAT\n...\nA..\n", "CATA"),
            Err(Invalid::Disconnected { row: 3, column: 1 })
        );
        assert_eq!(
            check("CAT\nA..\nX..\n", "CATAX"),
            Err(Invalid::NotAWord {
                word: "CAX".into(),
                row: 1,
                column: 1,
                down: true
            })
        );
        // Incidental runs count: AX over XA reads AX, XA across and AX, XA down.
        assert_eq!(
            check("AX\nXA\n", "AAXX"),
            Err(Invalid::NotAWord {
                word: "XA".into(),
                row: 2,
                column: 1,
                down: false
            })
        );
        assert!(matches!(check("QI\n", "QI"), Err(Invalid::NotAWord { .. })));
        assert_eq!(
            check("C#T\n", "CT"),
            Err(Invalid::BadCharacter {
                row: 1,
                column: 2,
                found: '#'
            })
        );
    }
}
