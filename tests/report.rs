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
    let picture = dir.join("same.svg");
    let out = podium(&[
        "compare",
        file,
        file,
        "--fail-if-worse",
        "0",
        "--svg",
        picture.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<rect x=").count(),
        records.len(),
        "one bar per case"
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

#[test]
fn slider_score_json_is_one_record_with_the_score() {
    let dir = std::env::temp_dir().join(format!("podium-report-slider-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let instance = dir.join("in.txt");
    let output = dir.join("out.txt");
    std::fs::write(&instance, podium(&["slider", "gen", "--seed", "3"]).stdout).unwrap();
    let solved = podium(&[
        "slider",
        "solve",
        instance.to_str().unwrap(),
        "--checks",
        "50",
    ]);
    std::fs::write(&output, solved.stdout).unwrap();
    let (i, o) = (instance.to_str().unwrap(), output.to_str().unwrap());
    let plain = String::from_utf8(podium(&["slider", "score", i, o]).stdout).unwrap();
    let json = podium(&["slider", "score", i, o, "--json"]);
    assert!(json.status.success());
    let text = String::from_utf8(json.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let record: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(record["problem"], "slider");
    assert_eq!(
        record["score"].as_f64(),
        Some(plain.trim().parse::<f64>().unwrap())
    );
    assert_eq!(record["ok"], Value::Bool(true));
    std::fs::remove_dir_all(&dir).ok();
}

/// The one record of a `--json` check, with every field, and the process's exit code.
fn one_record(args: &[&str], stdin: &str) -> (Value, Option<i32>) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run podium");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
    let record: Value = serde_json::from_str(&text).expect("a JSON line");
    for field in podium::core::report::FIELDS {
        assert!(record.get(field).is_some(), "{field}: {record}");
    }
    (record, out.status.code())
}

#[test]
fn checks_write_one_record_and_keep_their_exit_codes() {
    let data = env!("CARGO_MANIFEST_DIR");
    let problem = format!("{data}/data/icfp2015/problems/problem_1.json");
    let (record, code) = one_record(
        &[
            "icfp2015",
            "score",
            "-f",
            &problem,
            "--known-phrases",
            "--json",
        ],
        "ei!",
    );
    assert_eq!(code, Some(0));
    assert_eq!(record["score"], serde_json::json!(306.0));
    assert_eq!(record["ok"], Value::Bool(true));

    let cg01 = "20\n0 6 0\n2 2 2\n1 6 1\n";
    let (record, code) = one_record(&["verify", "cephalopod", "--json"], cg01);
    assert_eq!((code, &record["ok"]), (Some(0), &Value::Bool(true)));
    let (record, code) = one_record(&["verify", "cephalopod", "--answer", "7", "--json"], cg01);
    assert_eq!((code, &record["ok"]), (Some(1), &Value::Bool(false)));

    // Two I's side by side do not tile a 4x4 square.
    let two = r#"[["I",0,0,0],["I",0,1,0]]"#;
    let (record, code) = one_record(
        &["tetromino", "verify", "-n", "4", "-s", "I4", "--json"],
        two,
    );
    assert_eq!((code, &record["ok"]), (Some(1), &Value::Bool(false)));
    assert!(record["answer"].as_str().unwrap().starts_with("invalid: "));
}
