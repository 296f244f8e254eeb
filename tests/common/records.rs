//! Reading `--json` output in tests: the (case, answer) pairs of its records, sorted, so two runs
//! (or a run and its shards) compare as sets.

/// (case, answer) of each record of JSON-lines text, sorted.
pub fn cases(json: &str) -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = json
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            (value["case"].to_string(), value["answer"].to_string())
        })
        .collect();
    cases.sort();
    cases
}
