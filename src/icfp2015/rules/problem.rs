//! The contest's JSON: problems (`{id, units, width, height, filled, sourceLength, sourceSeeds}`)
//! and output files (`[{problemId, seed, tag, solution}]`), validated with one-line errors naming the field.

use super::hex::Cell;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// Widest board the engine takes (one `u128` per row).
pub const MAX_WIDTH: usize = 128;
/// Tallest board accepted.
pub const MAX_HEIGHT: usize = 10_000;
/// Longest source accepted.
pub const MAX_SOURCE_LENGTH: usize = 1_000_000;
/// Largest pivot coordinate accepted (pivots may lie off the board).
pub const MAX_PIVOT: i64 = 1_000_000;
/// Most units accepted.
pub const MAX_UNITS: usize = 65_536;
/// Farthest a unit's pivot may lie from its members, in hex steps, beyond the board's width plus
/// height: a rotation about a pivot that far puts every member off the board, and the shapes
/// and reach tables grow with the distance (a pivot at (10^4, 10^4) asked for 7.8 GB).
pub const PIVOT_SLACK: i64 = 64;

/// A unit as the problem gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitSpec {
    pub members: Vec<Cell>,
    pub pivot: Cell,
}

/// A validated problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub id: i64,
    pub units: Vec<UnitSpec>,
    pub width: usize,
    pub height: usize,
    pub filled: Vec<Cell>,
    pub source_length: usize,
    pub source_seeds: Vec<u32>,
}

/// A problem file that cannot be used; `source` names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemError {
    pub source: String,
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "icfp2015 problem {}: {}", self.source, self.message)
    }
}

impl std::error::Error for ProblemError {}

/// A seed that is not one of the problem's `sourceSeeds`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedError {
    pub problem: i64,
    pub seed: u64,
}

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "icfp2015: seed {} is not one of problem {}'s sourceSeeds",
            self.seed, self.problem
        )
    }
}

impl std::error::Error for SeedError {}

/// Describes a JSON value's kind for an error message.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads JSON text into a value; the error is one line with the line and column.
pub fn parse_json(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Eof => "truncated JSON",
            serde_json::error::Category::Syntax => "malformed JSON",
            serde_json::error::Category::Data => "unexpected JSON",
            serde_json::error::Category::Io => "unreadable JSON",
        };
        format!("{what}: {e}")
    })
}

pub(crate) fn field<'a>(object: &'a Value, path: &str, name: &str) -> Result<&'a Value, String> {
    let Value::Object(map) = object else {
        let at = if path.is_empty() { "top level" } else { path };
        return Err(format!("{at}: expected an object, found {}", kind(object)));
    };
    map.get(name).ok_or_else(|| {
        let at = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        format!("{at}missing field \"{name}\"")
    })
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

pub(crate) fn integer(value: &Value, path: &str) -> Result<i64, String> {
    match value {
        Value::Number(n) => n.as_i64().ok_or_else(|| {
            if n.is_f64() {
                format!("{path}: {n} is not an integer")
            } else {
                format!("{path}: {n} is out of range")
            }
        }),
        other => Err(format!(
            "{path}: expected an integer, found {}",
            kind(other)
        )),
    }
}

fn integer_in(value: &Value, path: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let n = integer(value, path)?;
    if n < lo || n > hi {
        return Err(format!("{path}: {n} is outside {lo}..={hi}"));
    }
    Ok(n)
}

pub(crate) fn array<'a>(value: &'a Value, path: &str) -> Result<&'a [Value], String> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(format!("{path}: expected an array, found {}", kind(other))),
    }
}

fn cell(value: &Value, path: &str, bound: i64) -> Result<Cell, String> {
    let x = integer_in(field(value, path, "x")?, &join(path, "x"), -bound, bound)?;
    let y = integer_in(field(value, path, "y")?, &join(path, "y"), -bound, bound)?;
    Ok(Cell::new(x as i32, y as i32))
}

/// Cells that must lie on the board and be distinct.
fn board_cells(
    value: &Value,
    path: &str,
    width: usize,
    height: usize,
) -> Result<Vec<Cell>, String> {
    let items = array(value, path)?;
    let mut cells = Vec::with_capacity(items.len());
    let mut seen = std::collections::HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let c = cell(item, &at, MAX_PIVOT)?;
        if c.x < 0 || c.x as usize >= width {
            return Err(format!(
                "{at}: ({}, {}) is off the {width}-wide board",
                c.x, c.y
            ));
        }
        if c.y < 0 || c.y as usize >= height {
            return Err(format!(
                "{at}: ({}, {}) is off the {height}-high board",
                c.x, c.y
            ));
        }
        if let Some(first) = seen.insert(c, i) {
            return Err(format!("{at}: ({}, {}) repeats {path}[{first}]", c.x, c.y));
        }
        cells.push(c);
    }
    Ok(cells)
}

/// Hex steps between two cells.
fn hex_distance(a: Cell, b: Cell) -> i64 {
    let d = super::hex::to_cube(a, b);
    let (x, z) = (i64::from(d.x), i64::from(d.z));
    (x.abs() + z.abs() + (x + z).abs()) / 2
}

impl Problem {
    /// Parses and validates a problem; `source` (a file name) only labels errors.
    pub fn parse(bytes: &[u8], source: &str) -> Result<Problem, ProblemError> {
        let error = |message: String| ProblemError {
            source: source.to_string(),
            message,
        };
        let root = parse_json(bytes).map_err(error)?;
        Problem::from_value(&root).map_err(error)
    }

    /// Validates an already parsed problem.
    pub fn from_value(root: &Value) -> Result<Problem, String> {
        let id = integer(field(root, "", "id")?, "id")?;
        let width = integer_in(field(root, "", "width")?, "width", 1, MAX_WIDTH as i64)? as usize;
        let height =
            integer_in(field(root, "", "height")?, "height", 1, MAX_HEIGHT as i64)? as usize;
        let source_length = integer_in(
            field(root, "", "sourceLength")?,
            "sourceLength",
            0,
            MAX_SOURCE_LENGTH as i64,
        )? as usize;
        let seed_items = array(field(root, "", "sourceSeeds")?, "sourceSeeds")?;
        if seed_items.is_empty() {
            return Err("sourceSeeds: empty, so there is no game to play".to_string());
        }
        let mut source_seeds = Vec::with_capacity(seed_items.len());
        for (i, s) in seed_items.iter().enumerate() {
            source_seeds
                .push(integer_in(s, &format!("sourceSeeds[{i}]"), 0, u32::MAX as i64)? as u32);
        }
        let filled = board_cells(field(root, "", "filled")?, "filled", width, height)?;
        let unit_items = array(field(root, "", "units")?, "units")?;
        if unit_items.is_empty() {
            return Err("units: empty, so there is nothing to play".to_string());
        }
        if unit_items.len() > MAX_UNITS {
            return Err(format!(
                "units: {} units; at most {MAX_UNITS} are supported",
                unit_items.len()
            ));
        }
        let mut units = Vec::with_capacity(unit_items.len());
        for (i, u) in unit_items.iter().enumerate() {
            let at = format!("units[{i}]");
            let members = board_cells(
                field(u, &at, "members")?,
                &join(&at, "members"),
                width,
                height,
            )?;
            if members.is_empty() {
                return Err(format!("{at}.members: empty, a unit needs a cell"));
            }
            let pivot = cell(field(u, &at, "pivot")?, &join(&at, "pivot"), MAX_PIVOT)?;
            let reach = (width + height) as i64 + PIVOT_SLACK;
            let far = members
                .iter()
                .map(|&m| hex_distance(m, pivot))
                .max()
                .unwrap_or(0);
            if far > reach {
                return Err(format!(
                    "{at}.pivot: ({}, {}) lies {far} cells from a member; at most width + height + {PIVOT_SLACK} = {reach} are supported",
                    pivot.x, pivot.y
                ));
            }
            units.push(UnitSpec { members, pivot });
        }
        Ok(Problem {
            id,
            units,
            width,
            height,
            filled,
            source_length,
            source_seeds,
        })
    }

    /// `Ok` if `seed` is one of the problem's seeds.
    pub fn check_seed(&self, seed: u64) -> Result<u32, SeedError> {
        match u32::try_from(seed) {
            Ok(s) if self.source_seeds.contains(&s) => Ok(s),
            _ => Err(SeedError {
                problem: self.id,
                seed,
            }),
        }
    }
}

/// One entry of an output file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Solution {
    #[serde(rename = "problemId")]
    pub problem_id: i64,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    pub solution: String,
}

/// An output file that cannot be used; `source` names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionsError {
    pub source: String,
    pub message: String,
}

impl fmt::Display for SolutionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "icfp2015 solutions {}: {}", self.source, self.message)
    }
}

impl std::error::Error for SolutionsError {}

impl Solution {
    /// Parses an output file: a JSON array of `{problemId, seed, tag?, solution}`.
    pub fn parse_file(bytes: &[u8], source: &str) -> Result<Vec<Solution>, SolutionsError> {
        let error = |message: String| SolutionsError {
            source: source.to_string(),
            message,
        };
        let root = parse_json(bytes).map_err(error)?;
        let items = array(&root, "top level").map_err(error)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(Solution::from_value(item, &format!("[{i}]")).map_err(error)?);
        }
        Ok(out)
    }

    fn from_value(item: &Value, at: &str) -> Result<Solution, String> {
        let problem_id = integer(field(item, at, "problemId")?, &join(at, "problemId"))?;
        let seed = integer_in(
            field(item, at, "seed")?,
            &join(at, "seed"),
            0,
            u32::MAX as i64,
        )?;
        let tag = match item.get("tag") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(format!(
                    "{}: expected a string, found {}",
                    join(at, "tag"),
                    kind(other)
                ))
            }
        };
        let solution = match field(item, at, "solution")? {
            Value::String(s) => s.clone(),
            other => {
                return Err(format!(
                    "{}: expected a string, found {}",
                    join(at, "solution"),
                    kind(other)
                ))
            }
        };
        Ok(Solution {
            problem_id,
            seed: seed as u64,
            tag,
            solution,
        })
    }

    /// An output file holding `solutions`.
    pub fn to_json(solutions: &[Solution]) -> String {
        serde_json::to_string(solutions).expect("solutions serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"id":3,"width":5,"height":4,"sourceLength":7,"sourceSeeds":[0,9],
        "filled":[{"x":1,"y":3}],
        "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":-2}}]}"#;

    fn err(text: &str) -> String {
        Problem::parse(text.as_bytes(), "p.json")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_pivot_far_from_its_members_is_refused_with_the_limit() {
        let text = |px: i64, py: i64| {
            format!(
                r#"{{"id":1,"width":10,"height":10,"filled":[],"sourceLength":5,"sourceSeeds":[0],
                "units":[{{"members":[{{"x":0,"y":0}}],"pivot":{{"x":{px},"y":{py}}}}}]}}"#
            )
        };
        let e = Problem::parse(text(10_000, 10_000).as_bytes(), "p.json").unwrap_err();
        assert!(
            e.to_string().contains("at most width + height + 64 = 84"),
            "{e}"
        );
        assert!(Problem::parse(text(-30, 40).as_bytes(), "p.json").is_ok());
        assert_eq!(hex_distance(Cell::new(0, 0), Cell::new(3, 0)), 3);
        assert_eq!(hex_distance(Cell::new(0, 0), Cell::new(0, 2)), 2);
        assert_eq!(hex_distance(Cell::new(0, 0), Cell::new(1, 2)), 2);
    }

    #[test]
    fn parses_a_problem() {
        let p = Problem::parse(SMALL.as_bytes(), "p.json").unwrap();
        assert_eq!((p.id, p.width, p.height, p.source_length), (3, 5, 4, 7));
        assert_eq!(p.filled, [Cell::new(1, 3)]);
        assert_eq!(p.units[0].pivot, Cell::new(0, -2));
        assert_eq!(p.check_seed(9), Ok(9));
        assert_eq!(
            p.check_seed(7).unwrap_err().to_string(),
            "icfp2015: seed 7 is not one of problem 3's sourceSeeds"
        );
    }

    #[test]
    fn errors_name_the_field() {
        let off = SMALL.replace(r#"{"x":1,"y":0}"#, r#"{"x":12,"y":0}"#);
        assert_eq!(
            err(&off),
            "icfp2015 problem p.json: units[0].members[1]: (12, 0) is off the 5-wide board"
        );
        let low = SMALL.replace(r#"{"x":1,"y":3}"#, r#"{"x":1,"y":4}"#);
        assert_eq!(
            err(&low),
            "icfp2015 problem p.json: filled[0]: (1, 4) is off the 4-high board"
        );
        let twice = SMALL.replace(r#"{"x":1,"y":0}"#, r#"{"x":0,"y":0}"#);
        assert_eq!(
            err(&twice),
            "icfp2015 problem p.json: units[0].members[1]: (0, 0) repeats units[0].members[0]"
        );
        assert_eq!(
            err(&SMALL.replace("\"width\":5", "\"width\":5.5")),
            "icfp2015 problem p.json: width: 5.5 is not an integer"
        );
        assert_eq!(
            err(&SMALL.replace("\"width\":5", "\"width\":500")),
            "icfp2015 problem p.json: width: 500 is outside 1..=128"
        );
        assert_eq!(
            err(&SMALL.replace("\"sourceSeeds\"", "\"seeds\"")),
            "icfp2015 problem p.json: missing field \"sourceSeeds\""
        );
        assert_eq!(
            err(&SMALL.replace("\"y\":-2", "\"y\":\"a\"")),
            "icfp2015 problem p.json: units[0].pivot.y: expected an integer, found a string"
        );
        assert!(err("{\"id\":").starts_with("icfp2015 problem p.json: truncated JSON: "));
        assert!(err("[1,]").starts_with("icfp2015 problem p.json: malformed JSON: "));
        assert_eq!(
            err("[]"),
            "icfp2015 problem p.json: top level: expected an object, found an array"
        );
    }

    #[test]
    fn solutions_round_trip() {
        let text = r#"[{"problemId":6,"seed":0,"tag":"t","solution":"Ei!"},
                       {"problemId":1,"seed":5,"solution":"pp"}]"#;
        let s = Solution::parse_file(text.as_bytes(), "out.json").unwrap();
        assert_eq!(s[0].tag.as_deref(), Some("t"));
        assert_eq!(s[1].tag, None);
        let again = Solution::parse_file(Solution::to_json(&s).as_bytes(), "again").unwrap();
        assert_eq!(again, s);
        let bad = Solution::parse_file(br#"[{"problemId":6,"seed":-1,"solution":""}]"#, "o.json");
        assert_eq!(
            bad.unwrap_err().to_string(),
            "icfp2015 solutions o.json: [0].seed: -1 is outside 0..=4294967295"
        );
    }
}
