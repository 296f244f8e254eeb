//! Machine-readable results end to end: `podium bench --json` writes one parseable record per
//! case with every field, and `podium compare` finds a run the same as itself.

use serde_json::Value;
use std::process::Command;

fn podium(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(args)
        .output()
        .expect("run podium")
}

#[test]
fn bench_json_records_carry_every_field_and_compare_with_themselves() {
    let out = podium(&[
        "bench",
        "--problem",
        "cephalopod",
        "--json",
        "--filter",
        "cg0",
        "--runs",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    // cg01..cg09, each by both engines.
    assert_eq!(records.len(), 18, "{text}");
    for record in &records {
        for field in podium::core::report::FIELDS {
            assert!(record.get(field).is_some(), "{field}: {record}");
        }
        assert_eq!(record["ok"], Value::Bool(true), "{record}");
        assert_eq!(record["runs"].as_array().unwrap().len(), 2);
        assert!(record["machine"]["cores"].as_u64().unwrap() >= 1);
    }
    let dir = std::env::temp_dir().join(format!("podium-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.jsonl");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap();
    let out = podium(&["compare", file, file, "--fail-if-worse", "0"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("verdict: B is the same as A"), "{text}");
    let out = podium(&["bench", "--problem", "tetromino", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().count() > 28, "{text}");
    assert!(text
        .lines()
        .all(|l| serde_json::from_str::<Value>(l).is_ok()));
    std::fs::remove_dir_all(&dir).ok();
}
