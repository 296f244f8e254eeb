//! `podium tetromino` commands run in-process: output, exit codes and one-line errors.

use podium::tetromino::cli::{run_with, CliError, TetrominoCommand};
use podium::tetromino::{parse_json, verify, Signature};

fn run(cmd: TetrominoCommand, input: &str) -> (Result<(), CliError>, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let result = run_with(cmd, &mut input.as_bytes(), &mut out, &mut err);
    (
        result,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn solve(size: usize, signature: &str) -> TetrominoCommand {
    TetrominoCommand::Solve {
        size,
        signature: signature.into(),
        show: false,
        svg: None,
        no_color: false,
        time: 30.0,
        nodes: None,
        memory: None,
        seed: 1,
        stats: false,
        watch: false,
        delay: 100,
    }
}

fn verify_cmd(size: usize, signature: &str) -> TetrominoCommand {
    TetrominoCommand::Verify {
        size,
        signature: signature.into(),
        file: None,
        json: false,
    }
}

#[test]
fn solve_prints_json_that_verify_accepts() {
    let (result, out, _) = run(solve(10, "I4,J4,L4,O1,S1,T4,Z7"), "");
    assert_eq!(result, Ok(()));
    let placements = parse_json(&out).unwrap();
    let sig = Signature::parse("I4,J4,L4,O1,S1,T4,Z7").unwrap();
    assert_eq!(verify(10, &sig, &placements), Ok(()));
    let (result, out, _) = run(verify_cmd(10, "I4,J4,L4,O1,S1,T4,Z7"), &out);
    assert_eq!(result, Ok(()));
    assert!(out.starts_with("ok: 25 pieces"), "{out}");
}

#[test]
fn exit_codes_follow_the_issue() {
    let (result, out, _) = run(solve(4, "T1,O3"), "");
    let e = result.unwrap_err();
    assert_eq!(e.code, 3);
    assert!(
        e.message.starts_with("unsolvable: checkerboard"),
        "{}",
        e.message
    );
    assert!(out.is_empty());
    let e = run(solve(8, "T4,Z12"), "").0.unwrap_err();
    assert_eq!(e.code, 3);
    assert!(
        e.message.starts_with("unsolvable: exhaustive search"),
        "{}",
        e.message
    );
    let mut budgeted = solve(8, "T4,Z12");
    if let TetrominoCommand::Solve { nodes, .. } = &mut budgeted {
        *nodes = Some(10);
    }
    let e = run(budgeted, "").0.unwrap_err();
    assert_eq!(e.code, 4);
    assert!(e.message.starts_with("gave up"), "{}", e.message);
    for (size, sig) in [(4, "X1"), (0, "O1"), (4, "I1,I2")] {
        let e = run(solve(size, sig), "").0.unwrap_err();
        assert_eq!(e.code, 2, "{}", e.message);
        assert!(!e.message.contains('\n'));
    }
}

#[test]
fn verify_names_the_first_problem_with_exit_1() {
    let (result, _, _) = run(verify_cmd(4, "I1,J1,L1,Z1"), r#"[["Z",0,0,0],["J",1,0,0]]"#);
    let e = result.unwrap_err();
    assert_eq!(e.code, 1);
    assert!(
        e.message.contains("overlaps piece 0 at cell x=0, y=0"),
        "{}",
        e.message
    );
    let e = run(verify_cmd(4, "I1,J1,L1,Z1"), "[[").0.unwrap_err();
    assert_eq!(e.code, 2);
}

#[test]
fn show_and_svg_draw_the_tiling() {
    let path = std::env::temp_dir().join(format!("tetromino-cli-{}.svg", std::process::id()));
    let cmd = TetrominoCommand::Solve {
        size: 4,
        signature: "I1,J1,L1,Z1".into(),
        show: true,
        svg: Some(path.clone()),
        no_color: true,
        time: 10.0,
        nodes: None,
        memory: None,
        seed: 3,
        stats: true,
        watch: false,
        delay: 100,
    };
    let (result, out, err) = run(cmd, "");
    assert_eq!(result, Ok(()));
    assert!(out.starts_with("[["));
    assert!(err.contains("stats: "), "{err}");
    let grid: Vec<&str> = err.lines().filter(|l| l.len() == 8).collect();
    assert_eq!(grid.len(), 4, "{err}");
    let picture = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(picture.starts_with("<svg") && picture.matches("<g ").count() == 4);
}

#[test]
fn gen_prints_solvable_signatures_and_multisets() {
    for multiset in [false, true] {
        let cmd = TetrominoCommand::Gen {
            size: 12,
            count: 5,
            seed: 9,
            multiset,
            skewed: false,
            impossible: false,
        };
        let (result, out, _) = run(cmd, "");
        assert_eq!(result, Ok(()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5);
        for line in lines {
            let sig = Signature::parse(line).unwrap();
            assert_eq!(sig.total(), 36);
            if !multiset {
                let (r, _, _) = run(solve(12, line), "");
                assert_eq!(r, Ok(()), "{line}");
            }
        }
    }
    let e = run(
        TetrominoCommand::Gen {
            size: 7,
            count: 1,
            seed: 1,
            multiset: false,
            skewed: false,
            impossible: false,
        },
        "",
    )
    .0
    .unwrap_err();
    assert_eq!(e.code, 2);
}

#[test]
fn gen_skewed_is_solved_and_gen_impossible_is_refuted() {
    for (skewed, impossible) in [(true, false), (false, true)] {
        let cmd = TetrominoCommand::Gen {
            size: 24,
            count: 4,
            seed: 3,
            multiset: false,
            skewed,
            impossible,
        };
        let (result, out, err) = run(cmd, "");
        assert_eq!(result, Ok(()));
        assert_eq!(out.lines().count(), 4);
        assert_eq!(err.lines().count(), if impossible { 4 } else { 0 }, "{err}");
        for line in out.lines() {
            let e = run(solve(24, line), "").0;
            if skewed {
                assert_eq!(e, Ok(()), "{line}");
            } else {
                assert_eq!(e.unwrap_err().code, 3, "{line}");
            }
        }
    }
}

#[derive(clap::Parser)]
struct Wrapper {
    #[command(subcommand)]
    command: TetrominoCommand,
}

#[test]
fn the_clap_types_parse_the_issue_command_lines() {
    use clap::{CommandFactory, Parser};
    Wrapper::command().debug_assert();
    let parse = |line: &str| Wrapper::try_parse_from(line.split(' ')).map(|w| w.command);
    let solve =
        parse("t solve --size 4 --signature I1,J1,L1,Z1 --show --svg out.svg --budget 2").unwrap();
    assert!(
        matches!(solve, TetrominoCommand::Solve { size: 4, show: true, time: b, .. } if b == 2.0)
    );
    let net = parse("t net-solve --url http://127.0.0.1:9 --token T 50 2.5").unwrap();
    assert!(
        matches!(net, TetrominoCommand::NetSolve { size: 50, timeout: Some(t), .. } if t == 2.5)
    );
    let serve = parse("t serve --port 0 --token a --token b").unwrap();
    assert!(
        matches!(serve, TetrominoCommand::Serve { port: 0, ref tokens, .. } if tokens.len() == 2)
    );
    assert!(parse("t verify -n 4 -s I1,J1,L1,Z1 sol.json").is_ok());
    assert!(parse("t gen -n 10 --count 3 --multiset").is_ok());
    assert!(parse("t gen -n 10 --skewed").is_ok());
    assert!(parse("t gen -n 10 --skewed --impossible").is_err());
    assert!(parse("t serve --port 1").is_err(), "a token is required");
}
