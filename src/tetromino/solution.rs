//! Solutions as the contest wrote them (`[["Z",0,0,0],...]`: figure, angle, x = column, y = row
//! of the bounding box's top-left) and the verifier, which names the first problem it finds.

use super::figures::{Figure, Orientation};
use super::signature::Signature;
use serde_json::Value;

/// Coordinates beyond this are refused while parsing, so cell arithmetic never overflows.
const MAX_COORDINATE: u64 = 1 << 31;
/// The largest board the verifier checks (its cell table is `size * size`).
pub const MAX_VERIFY_SIZE: usize = 1 << 15;

/// One placed figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub figure: Figure,
    pub angle: u8,
    pub x: usize,
    pub y: usize,
}

impl Placement {
    pub fn orientation(&self) -> &'static Orientation {
        self.figure
            .orientation(self.angle)
            .expect("placements hold valid angles")
    }

    /// The covered cells as (row, column).
    pub fn cells(&self) -> [(usize, usize); 4] {
        self.orientation()
            .cells
            .map(|(r, c)| (self.y + r as usize, self.x + c as usize))
    }
}

/// The contest's JSON list.
pub fn to_json(placements: &[Placement]) -> String {
    let items: Vec<String> = placements
        .iter()
        .map(|p| format!("[\"{}\",{},{},{}]", p.figure, p.angle, p.x, p.y))
        .collect();
    format!("[{}]", items.join(","))
}

/// Parses the contest's JSON list; the error is one line naming the first bad entry.
pub fn parse_json(text: &str) -> Result<Vec<Placement>, String> {
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("solution: not valid JSON: {e}"))?;
    let Value::Array(items) = value else {
        return Err("solution: expected a JSON list of [FIGURE, ANGLE, X, Y]".into());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_item(i, item))
        .collect()
}

fn parse_item(index: usize, item: &Value) -> Result<Placement, String> {
    let bad = |what: &str| format!("solution: piece {index}: {what}");
    let Some([figure, angle, x, y]) = item
        .as_array()
        .and_then(|a| <&[Value; 4]>::try_from(a.as_slice()).ok())
    else {
        return Err(bad("expected [FIGURE, ANGLE, X, Y]"));
    };
    let figure = figure
        .as_str()
        .and_then(|s| {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Figure::from_letter(c),
                _ => None,
            }
        })
        .ok_or_else(|| bad(&format!("unknown figure {}", short(figure))))?;
    let angle = angle
        .as_u64()
        .filter(|&a| a < u64::from(figure.angles()))
        .ok_or_else(|| {
            bad(&format!(
                "unknown angle {} for figure {figure} (it has 0..{})",
                short(angle),
                figure.angles() - 1
            ))
        })? as u8;
    let coordinate = |v: &Value, name: &str| {
        v.as_u64()
            .filter(|&n| n <= MAX_COORDINATE)
            .map(|n| n as usize)
            .ok_or_else(|| {
                bad(&format!(
                    "{name} {} is not an integer from 0 to {MAX_COORDINATE}",
                    short(v)
                ))
            })
    };
    Ok(Placement {
        figure,
        angle,
        x: coordinate(x, "x")?,
        y: coordinate(y, "y")?,
    })
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 24 {
        format!("{}...", text.chars().take(24).collect::<String>())
    } else {
        text
    }
}

/// Checks that `placements` tile the `size` x `size` square with exactly `signature`'s figures.
/// Pieces are checked in order (off-board, then overlap), then the first uncovered cell in
/// reading order, then the counts.
pub fn verify(size: usize, signature: &Signature, placements: &[Placement]) -> Result<(), String> {
    if size > MAX_VERIFY_SIZE {
        return Err(format!("size {size} exceeds {MAX_VERIFY_SIZE}"));
    }
    let mut owner: Vec<u32> = vec![u32::MAX; size * size];
    let mut counts = [0u64; 7];
    for (index, p) in placements.iter().enumerate() {
        for (row, column) in p.cells() {
            if row >= size || column >= size {
                return Err(format!(
                    "piece {index} ({}{} at x={}, y={}) leaves the {size}x{size} board at cell x={column}, y={row}",
                    p.figure, p.angle, p.x, p.y
                ));
            }
        }
        for (row, column) in p.cells() {
            let cell = &mut owner[row * size + column];
            if *cell != u32::MAX {
                return Err(format!(
                    "piece {index} ({}{} at x={}, y={}) overlaps piece {} at cell x={column}, y={row}",
                    p.figure, p.angle, p.x, p.y, *cell
                ));
            }
            *cell = index as u32;
        }
        counts[p.figure.index()] += 1;
    }
    if let Some(gap) = owner.iter().position(|&o| o == u32::MAX) {
        return Err(format!(
            "gap: cell x={}, y={} is not covered",
            gap % size,
            gap / size
        ));
    }
    for figure in Figure::ALL {
        let want = u64::from(signature.count(figure));
        let have = counts[figure.index()];
        if have != want {
            return Err(format!(
                "wrong count: {have} pieces of {figure}, the signature {signature} asks for {want}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"[["Z",0,0,0],["J",1,0,1],["L",2,2,0],["I",1,0,3]]"#;

    fn sig() -> Signature {
        Signature::parse("I1,J1,L1,Z1").unwrap()
    }

    #[test]
    fn spec_example_verifies_and_round_trips() {
        let p = parse_json(EXAMPLE).unwrap();
        assert_eq!(verify(4, &sig(), &p), Ok(()));
        assert_eq!(to_json(&p), EXAMPLE.replace(' ', ""));
    }

    #[test]
    fn names_the_first_problem() {
        let cases = [
            (
                r#"[["Z",0,0,0],["J",1,0,1],["L",2,2,0]]"#,
                "gap: cell x=0, y=3",
            ),
            (
                r#"[["Z",0,0,0],["J",1,0,0]]"#,
                "piece 1 (J1 at x=0, y=0) overlaps piece 0 at cell x=0, y=0",
            ),
            (
                r#"[["I",1,1,3]]"#,
                "piece 0 (I1 at x=1, y=3) leaves the 4x4 board at cell x=4, y=3",
            ),
            (r#"[["Q",0,0,0]]"#, "piece 0: unknown figure \"Q\""),
            (r#"[["O",1,0,0]]"#, "piece 0: unknown angle 1 for figure O"),
            (
                r#"[["I",1,0,0],["I",1,0,1],["I",1,0,2],["I",1,0,3]]"#,
                "wrong count: 4 pieces of I",
            ),
            (r#"{"a":1}"#, "expected a JSON list"),
            (r#"[["Z",0,-1,0]]"#, "x -1 is not an integer from 0"),
        ];
        for (json, needle) in cases {
            let e = parse_json(json)
                .and_then(|p| verify(4, &sig(), &p))
                .unwrap_err();
            assert!(e.contains(needle), "{json}: {e}");
        }
    }
}
