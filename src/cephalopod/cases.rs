//! The bundled cases (data/cephalopod/*.tsv, embedded at compile time): the 12 CodinGame
//! tests, the empty board at depths 1..40, small depth-1 cases and 32 harder generated ones.

use super::board::Board;
use super::input::Problem;

pub const CASES_TSV: &str = include_str!("../../data/cephalopod/cases.tsv");
pub const GENERATED_TSV: &str = include_str!("../../data/cephalopod/generated.tsv");

#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    pub problem: Problem,
    pub expected: u32,
}

/// Parses `id \t depth \t nine cells \t expected` rows; `#` starts a comment line.
pub fn parse_tsv(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let bad = |what: &str| format!("cephalopod cases: line {}: {what}: {line:?}", n + 1);
        let [id, depth, cells, expected] = fields[..] else {
            return Err(bad("expected 4 tab-separated fields"));
        };
        let problem = Problem::parse(format!("{depth}\n{cells}").as_bytes())
            .map_err(|e| bad(&e.to_string()))?;
        let expected = expected
            .trim()
            .parse()
            .map_err(|_| bad("bad expected answer"))?;
        cases.push(Case {
            id: id.to_string(),
            problem,
            expected,
        });
    }
    Ok(cases)
}

/// Every bundled case, CodinGame's first.
pub fn all() -> Vec<Case> {
    let mut cases = parse_tsv(CASES_TSV).expect("bundled cases.tsv parses");
    cases.extend(parse_tsv(GENERATED_TSV).expect("bundled generated.tsv parses"));
    cases
}

pub fn find(id: &str) -> Option<Case> {
    all().into_iter().find(|c| c.id == id)
}

impl Case {
    pub fn board(&self) -> &Board {
        &self.problem.board
    }
}
