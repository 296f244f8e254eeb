//! The `podium` binary as a user drives it: answers on files and stdin, one-line errors with
//! exit code 2 on bad input, `--stats`, `bench`, `verify`, and help text on every argument.

#[path = "common/run.rs"]
mod run;
use run::text;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn podium(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run podium");
    // A command that fails on its arguments exits before reading stdin: a closed pipe is fine.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

const CG01: &[u8] = b"20\n0 6 0\n2 2 2\n1 6 1\n";

#[test]
fn answers_from_stdin_and_from_a_file() {
    let out = podium(&["cephalopod"], CG01);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "322444322\n");
    let path = std::env::temp_dir().join(format!("podium-cli-{}.txt", std::process::id()));
    std::fs::write(&path, CG01).unwrap();
    for kernel in ["auto", "portable"] {
        let out = podium(
            &["cephalopod", "--kernel", kernel, path.to_str().unwrap()],
            b"",
        );
        assert_eq!(text(&out.stdout), "322444322\n", "kernel {kernel}");
    }
    std::fs::remove_file(path).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let cases: [(&[u8], &str); 7] = [
        (b"", "missing depth"),
        (b"5\n1 2 3\n4 5 6\n0 0", "missing cell (row 3, column 3)"),
        (
            b"5\n1 2 3\n4 9 6\n0 0 0",
            "line 3: cell (row 2, column 2) value 9 is outside 0..6",
        ),
        (b"-2\n0 0 0\n0 0 0\n0 0 0", "depth -2 is negative"),
        (b"5\n0 0 0\n0 zero 0\n0 0 0", "\"zero\" is not an integer"),
        (b"5\n0 0 0\n0 0 0\n0 0 0\n4", "unexpected extra token \"4\""),
        (b"\xff\xfe", "not UTF-8"),
    ];
    for (input, expected) in cases {
        let out = podium(&["cephalopod"], input);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}: {err}");
        assert!(out.stdout.is_empty());
        assert!(
            err.starts_with("podium: cephalopod input: ") && err.contains(expected),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = podium(&["cephalopod", "/nonexistent/podium.txt"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /nonexistent/podium.txt"));
}

#[test]
fn stats_report_layers_memory_and_counters_without_failing() {
    let out = podium(&["cephalopod", "--stats"], CG01);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "322444322\n");
    let err = text(&out.stderr);
    for expected in [
        "depth",
        "states:",
        "peak RSS:",
        "counters during the solve:",
    ] {
        assert!(err.contains(expected), "{expected} missing in {err}");
    }
    assert!(
        err.contains("instructions")
            || err.contains("hardware counters not supported")
            || err.contains("note:")
    );
}

#[test]
fn stats_draw_the_layers_as_a_picture() {
    let picture = std::env::temp_dir().join(format!("podium-cli-{}.svg", std::process::id()));
    let path = picture.to_str().unwrap();
    let out = podium(&["cephalopod", "--stats", "--svg", path], CG01);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&picture).unwrap();
    // A states bar and a time bar per depth the layers reached (cg01's game ends at depth 2).
    let depths: usize = svg
        .split(" depths,")
        .next()
        .and_then(|head| head.rsplit('>').next())
        .and_then(|n| n.parse().ok())
        .expect("the subtitle says how many depths");
    assert!(depths >= 1);
    assert_eq!(svg.matches("<rect x=").count(), 2 * depths, "{svg}");
    std::fs::remove_file(&picture).unwrap();
    let out = podium(&["cephalopod", "--svg", path], CG01);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "podium: the following required arguments were not provided: --stats\n"
    );
}

#[test]
fn bench_runs_the_bundled_cases() {
    let out = podium(
        &[
            "bench",
            "--problem",
            "cephalopod",
            "--filter",
            "cg0",
            "--runs",
            "1",
        ],
        b"",
    );
    let table = text(&out.stdout);
    assert!(out.status.success(), "{table}{}", text(&out.stderr));
    assert_eq!(
        table
            .lines()
            .filter(|l| l.starts_with("cg0") && l.contains(" ok "))
            .count(),
        9,
        "{table}"
    );
    assert!(!table.contains("FAIL"));
}

#[test]
fn verify_recomputes_by_the_rules() {
    let out = podium(&["verify", "cephalopod"], CG01);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "ok: 322444322\n");
    let out = podium(&["verify", "cephalopod", "--answer", "322444321"], CG01);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("the rules give 322444322"));
}

/// The subcommands reached by walking `--help`'s "Commands:" lists from the top.
fn every_subcommand() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut pending = vec![Vec::<String>::new()];
    while let Some(path) = pending.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = text(&podium(&args, b"").stdout);
        let mut in_commands = false;
        for line in help.lines() {
            if line.ends_with(':') && !line.starts_with(' ') {
                in_commands = line == "Commands:";
                continue;
            }
            let name = line.split_whitespace().next().unwrap_or("");
            if in_commands && line.starts_with("  ") && !name.is_empty() && name != "help" {
                let mut child = path.clone();
                child.push(name.to_string());
                pending.push(child);
            }
        }
        found.push(path);
    }
    found
}

/// The convention: every argument says what it is (with its default), and every command
/// answers --version.
#[test]
fn every_argument_has_help_text_and_every_command_a_version() {
    let commands = every_subcommand();
    assert!(commands.len() > 20, "{commands:?}");
    for path in commands {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        // -h: one line per argument (--help puts a long help under its argument).
        args.push("-h");
        let help = text(&podium(&args, b"").stdout);
        let mut in_arguments = false;
        for line in help.lines() {
            if line.ends_with(':') && !line.starts_with(' ') {
                in_arguments = line == "Arguments:" || line == "Options:";
                continue;
            }
            // An argument's line starts with `-`, `<` or `[` after its indent; a wrapped help
            // line starts with a word.
            let rest = line.trim_start();
            if !in_arguments || !rest.starts_with(['-', '<', '[']) {
                continue;
            }
            let described = rest
                .split_once("  ")
                .map(|(_, help)| help.trim())
                .is_some_and(|help| !help.is_empty() && !help.starts_with("[default"));
            assert!(
                described,
                "`podium {}`: {line:?} has no help text",
                path.join(" ")
            );
        }
        args.pop();
        args.push("--version");
        let out = podium(&args, b"");
        assert!(
            out.status.success() && text(&out.stdout).starts_with("podium"),
            "`podium {} --version`",
            path.join(" ")
        );
    }
}
