//! The cephalopod bundle end to end: generated, compiled with plain `rustc -O`, run on every
//! bundled case, and held to the judge's size limit and to Rust 1.70.

use podium::cephalopod::cases::{self, Case};
use std::process::Output;
use std::sync::OnceLock;

mod common;

use common::{stderr, Built};

/// The bundle, written and compiled once for every test here.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| common::build("cephalopod"))
}

/// Runs the bundle on `stdin`, with `env` added to its environment.
fn run(stdin: &str, env: &[(&str, &str)]) -> Output {
    common::run(&built().binary, stdin, env)
}

/// The case as CodinGame gives it: the depth, then the board as three rows of three.
fn codingame_input(case: &Case) -> String {
    let rows: Vec<String> = case
        .board()
        .cells
        .chunks(3)
        .map(|row| format!("{} {} {}\n", row[0], row[1], row[2]))
        .collect();
    format!("{}\n{}", case.problem.depth, rows.concat())
}

fn check_answers<'a>(cases: impl IntoIterator<Item = &'a Case>, env: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for case in cases {
        let out = run(&codingame_input(case), env);
        let answer = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || answer != case.expected.to_string() {
            wrong.push(format!(
                "{}: {answer:?} (expected {}), {}, {}",
                case.id,
                case.expected,
                out.status,
                stderr(&out)
            ));
        }
    }
    assert!(wrong.is_empty(), "wrong answers:\n{}", wrong.join("\n"));
}

#[test]
fn compiles_without_warnings() {
    assert_eq!(built().diagnostics, "");
}

#[test]
fn answers_every_bundled_case() {
    let all = cases::all();
    assert!(all.len() > 80, "only {} cases", all.len());
    check_answers(&all, &[]);
}

#[test]
fn portable_kernel_answers_the_codingame_cases() {
    let all = cases::all();
    let codingame = all.iter().filter(|c| c.id.starts_with("cg"));
    check_answers(codingame, &[("PODIUM_NO_AVX2", "1")]);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let out = run("3\n1 2 3\n4 7 0\n0 0 0\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out).trim(),
        "cephalopod input: line 3: cell (row 2, column 2) value 7 is outside 0..6"
    );
}

#[test]
fn fits_the_size_limit() {
    common::check_size(built());
}

#[test]
fn uses_only_rust_1_70() {
    common::check_rust_1_70(built());
}

#[test]
fn a_closed_pipe_is_quiet_and_a_full_disk_is_exit_1() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let input = "3\n0 0 0\n0 0 0\n0 0 0\n";
    let run_to = |stdout: Stdio| {
        let mut child = Command::new(&built().binary)
            .stdin(Stdio::piped())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .expect("run the bundle");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("feed the bundle");
        child.wait_with_output().expect("the bundle ends")
    };
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let closed = run_to(Stdio::from(writer));
    assert_eq!(closed.status.code(), Some(0), "{}", stderr(&closed));
    assert!(closed.stderr.is_empty(), "{}", stderr(&closed));
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let full = run_to(Stdio::from(full));
        assert_eq!(full.status.code(), Some(1), "{}", stderr(&full));
        assert_eq!(stderr(&full).lines().count(), 1, "{}", stderr(&full));
    }
}
