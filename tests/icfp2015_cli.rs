//! `podium icfp2015 score|show` driven in-process through `cli::run_with`: the evaluator's output
//! shape, output files with per-problem means, the viewer (text, animation, SVG) and bad input.

use podium::icfp2015::cli::{run_with, CliError, Icfp2015Command, PhraseArgs};
use std::path::PathBuf;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/icfp2015")
        .join(path)
}

fn problem(i: usize) -> PathBuf {
    data(&format!("problems/problem_{i}.json"))
}

fn temp(name: &str, contents: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("podium-icfp2015-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

fn run(cmd: Icfp2015Command, stdin: &[u8]) -> Result<String, CliError> {
    let mut out = Vec::new();
    run_with(cmd, &mut &stdin[..], &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

/// `score` with the 18 known phrases (`--known-phrases`), as the qualifier was scored.
fn score(files: Vec<PathBuf>, seed: Option<u64>, solutions: Option<PathBuf>) -> Icfp2015Command {
    Icfp2015Command::Score {
        files,
        seed,
        solutions,
        phrases: known(),
        json: false,
    }
}

fn known() -> PhraseArgs {
    PhraseArgs {
        known_phrases: true,
        ..PhraseArgs::default()
    }
}

fn show(seed: u64, step: Option<usize>, svg: Option<PathBuf>) -> Icfp2015Command {
    Icfp2015Command::Show {
        file: problem(6),
        seed: Some(seed),
        solutions: None,
        step,
        animate: false,
        delay: 0,
        svg,
        no_color: true,
        locks: false,
        phrases: PhraseArgs::default(),
    }
}

fn bad(result: Result<String, CliError>) -> String {
    let e = result.expect_err("bad input");
    assert_eq!(e.code, 2, "{}", e.message);
    assert!(!e.message.contains('\n'), "{}", e.message);
    e.message
}

fn sample() -> Vec<u8> {
    std::fs::read(data("sample_problem6_seed0.txt")).unwrap()
}

#[test]
fn show_locks_lists_every_lock_of_the_sample() {
    let Icfp2015Command::Show {
        file,
        seed,
        solutions,
        delay,
        no_color,
        phrases,
        ..
    } = show(0, None, None)
    else {
        unreachable!()
    };
    let locks = Icfp2015Command::Show {
        file,
        seed,
        solutions,
        step: None,
        animate: false,
        delay,
        svg: None,
        no_color,
        locks: true,
        phrases,
    };
    let out = run(locks, &sample()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    // The header, the column names, a line per lock, their totals, the evaluator's line.
    assert!(lines[0].contains("148/150 units locked"), "{}", lines[0]);
    assert_eq!(lines.len(), 2 + 148 + 2, "{out}");
    // The commands of all locks are the evaluator's moves: the sample ends on a lock.
    let totals = lines[150];
    assert!(totals.starts_with("148 locks: "), "{totals}");
    assert!(totals.contains(" 1180 commands "), "{totals}");
    assert!(totals.ends_with("power 0, lines 29"), "{totals}");
    assert_eq!(lines[151], "evaluator: moves 1180, no error, score 3261");
}

#[test]
fn scores_the_sample_like_the_evaluator() {
    let out = run(score(vec![problem(6)], Some(0), None), &sample()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..4],
        ["moves: 1180", "error: no error", "score: 3261", "power: []"]
    );
    assert_eq!(lines.len(), 4);
    // The phrases are exactly -p's, plus the 18 known ones with --known-phrases (then -p's
    // come after them, index 18); none: the move score alone.
    let cmd = |phrases: &[&str], known: bool| Icfp2015Command::Score {
        files: vec![problem(6)],
        seed: Some(0),
        solutions: None,
        phrases: PhraseArgs {
            phrases: phrases.iter().map(|p| p.to_string()).collect(),
            known_phrases: known,
            no_default_phrases: false,
        },
        json: false,
    };
    let out = run(cmd(&[], true), b"Ei!").unwrap();
    assert_eq!(
        out,
        "moves: 3\nerror: no error\nscore: 306\npower: [0]\nphrase 0 \"Ei!\": 1\n"
    );
    let none = run(cmd(&[], false), b"Ei!").unwrap();
    assert_eq!(none, "moves: 3\nerror: no error\nscore: 0\npower: []\n");
    let added = run(cmd(&["iii"], true), b"iiii").unwrap();
    assert!(
        added.contains("power: [18]\nphrase 18 \"iii\": 2\n"),
        "{added}"
    );
    // Case-insensitive, as the evaluator lower-cased the solution.
    let replaced = run(cmd(&["III"], false), b"iIii").unwrap();
    assert!(
        replaced.contains("power: [0]\nphrase 0 \"III\": 2\n"),
        "{replaced}"
    );
}

#[test]
fn scores_an_output_file_per_seed_and_per_problem() {
    let sample = String::from_utf8(sample()).unwrap();
    let file = serde_json::json!([
        {"problemId": 6, "seed": 0, "tag": "sample", "solution": sample},
        {"problemId": 6, "seed": 13120, "solution": "Ei!"},
        {"problemId": 1, "seed": 0, "solution": ""},
        {"problemId": 6, "seed": 13120, "solution": "pb"},
    ]);
    let path = temp("out.json", file.to_string().as_bytes());
    let out = run(
        score(vec![problem(6), problem(1)], None, Some(path.clone())),
        b"",
    )
    .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "problem 6 seed 0 tag \"sample\": score 3261 (moves 1180, no error, power [])",
            "problem 6 seed 13120: score 306 (moves 3, no error, power [0]) (replaced by a later entry)",
            "problem 1 seed 0: score 0 (moves 0, no error, power [])",
            "problem 6 seed 13120: score 0 (moves 1, command caused error: MoveRight, power [])",
            "problem 1: 0 (floor of the mean over 1 seeds)",
            "problem 6: 65 (floor of the mean over 50 seeds; 48 without a solution count 0)",
            "total: 65 (sum over 2 problems)",
        ]
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn bad_input_is_one_line_with_exit_code_2() {
    let broken = temp("broken.json", b"{\"id\": 3, \"units\": [");
    let message = bad(run(score(vec![broken.clone()], Some(0), None), b""));
    assert!(
        message.starts_with(&format!(
            "icfp2015 problem {}: truncated JSON: EOF while parsing",
            broken.display()
        )),
        "{message}"
    );
    let text = std::fs::read_to_string(problem(6)).unwrap();
    let off = temp(
        "off.json",
        text.replacen("{\"x\":2,\"y\":0}", "{\"x\":12,\"y\":0}", 1)
            .as_bytes(),
    );
    let message = bad(run(score(vec![off.clone()], Some(0), None), b""));
    assert_eq!(
        message,
        format!(
            "icfp2015 problem {}: units[2].members[2]: (12, 0) is off the 10-wide board",
            off.display()
        )
    );
    assert_eq!(
        bad(run(score(vec![problem(3)], Some(7), None), b"")),
        "icfp2015: seed 7 is not one of problem 3's sourceSeeds"
    );
    assert_eq!(
        bad(run(score(vec![problem(6)], None, None), b"")),
        "icfp2015: --seed is required: problem 6 has 50 sourceSeeds"
    );
    assert_eq!(
        bad(run(score(vec![problem(6)], Some(0), None), b"Ei!\nabc#d")),
        "icfp2015 commands: position 7: character '#' is not a command"
    );
    assert_eq!(
        bad(run(score(vec![problem(6)], Some(0), None), b"ab\xff")),
        "icfp2015 commands: not UTF-8 text (byte 2)"
    );
    assert_eq!(
        bad(run(show(0, Some(5), None), b"pp")),
        "icfp2015: --step 5: the solution has 2 commands"
    );
    let unknown = temp(
        "unknown.json",
        br#"[{"problemId":6,"seed":0,"solution":""},{"problemId":9,"seed":0,"solution":""}]"#,
    );
    let message = bad(run(
        score(vec![problem(6)], None, Some(unknown.clone())),
        b"",
    ));
    assert_eq!(
        message,
        format!(
            "icfp2015 solutions {}: [1].problemId: 9 is not one of the given problems (-f)",
            unknown.display()
        )
    );
    let seedless = temp(
        "seedless.json",
        br#"[{"problemId":6,"seed":1,"solution":"x"}]"#,
    );
    assert!(bad(run(
        score(vec![problem(6)], None, Some(seedless.clone())),
        b""
    ))
    .ends_with("[0].seed: 1 is not one of problem 6's sourceSeeds"));
    let missing = PathBuf::from("/nonexistent/problem.json");
    assert!(bad(run(score(vec![missing], Some(0), None), b""))
        .starts_with("icfp2015: cannot read /nonexistent/problem.json: "));
    for p in [broken, off, unknown, seedless] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn show_prints_a_step_and_animates() {
    let out = run(show(0, Some(0), None), &sample()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "problem 6 seed 0 | step 0/1180 | unit 1/150 | last none | playing"
    );
    assert_eq!(lines[2], ". . . . @ . . . . .");
    assert_eq!(lines.len(), 2 + 10 + 1);
    assert_eq!(lines[12], "evaluator: moves 1180, no error, score 3261");
    let end = run(show(0, None, None), &sample()).unwrap();
    assert!(end.starts_with(
        "problem 6 seed 0 | step 1180/1180 | 148/150 units locked | last SE 'm' | over: the next unit cannot spawn\nscore 3261 = moves 3261 + power 0"
    ), "{end}");
    let animate = Icfp2015Command::Show {
        file: problem(6),
        seed: Some(0),
        solutions: None,
        step: None,
        animate: true,
        delay: 0,
        svg: None,
        no_color: false,
        locks: false,
        phrases: PhraseArgs::default(),
    };
    let frames = run(animate, b"iiiim").unwrap();
    assert_eq!(frames.matches("\x1b[H\x1b[2J").count(), 6);
    assert!(frames.contains("step 5/5"));
}

/// Checks that `svg` is well-formed XML of the kinds of tags the viewer writes: every tag
/// closed in order, attributes quoted, no stray `<` or `&`.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "stray '>' in {text:?}");
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bad entity in {text:?}"
            );
        }
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "'<' inside tag {tag:?}");
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in {tag:?}"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().expect("tag name");
            stack.push(name.to_string());
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    assert!(rest.trim().is_empty());
}

#[test]
fn svg_of_a_step_is_well_formed() {
    let path = std::env::temp_dir().join(format!("podium-icfp2015-{}.svg", std::process::id()));
    let out = run(show(0, Some(200), Some(path.clone())), &sample()).unwrap();
    assert_eq!(
        out,
        format!("wrote {} (step 200 of 1180)\n", path.display())
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_well_formed(&svg);
    assert_eq!(svg.matches("<polygon ").count(), 100);
    assert_eq!(svg.matches("<circle ").count(), 1);
    std::fs::remove_file(&path).unwrap();
    // A big board, with quotes in the header (the last command's character).
    let big = Icfp2015Command::Show {
        file: problem(24),
        seed: None,
        solutions: None,
        step: None,
        animate: false,
        delay: 0,
        svg: Some(path.clone()),
        no_color: true,
        locks: false,
        phrases: PhraseArgs::default(),
    };
    run(big, b"R'lyeh").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_well_formed(&svg);
    assert!(svg.contains("&apos;"));
    assert_eq!(svg.matches("<polygon ").count(), 100 * 40);
    std::fs::remove_file(&path).unwrap();
}

#[derive(clap::Parser)]
struct Wrapper {
    #[command(subcommand)]
    command: Icfp2015Command,
}

#[test]
fn clap_arguments_parse() {
    use clap::{CommandFactory, Parser};
    Wrapper::command().debug_assert();
    let parsed = Wrapper::try_parse_from([
        "icfp2015",
        "score",
        "-f",
        "a.json",
        "-f",
        "b.json",
        "--solutions",
        "out.json",
        "-p",
        "Ei!",
        "-p",
        "ph'nglui",
        "--known-phrases",
        "--no-default-phrases",
    ])
    .unwrap();
    match parsed.command {
        Icfp2015Command::Score {
            files,
            seed,
            solutions,
            phrases,
            json,
        } => {
            assert!(!json);
            assert_eq!(files, [PathBuf::from("a.json"), PathBuf::from("b.json")]);
            assert_eq!(seed, None);
            assert_eq!(solutions, Some(PathBuf::from("out.json")));
            assert_eq!(phrases.phrases, ["Ei!", "ph'nglui"]);
            assert!(phrases.known_phrases && phrases.no_default_phrases);
        }
        _ => panic!("score expected"),
    }
    let parsed = Wrapper::try_parse_from([
        "icfp2015", "show", "-f", "p.json", "--seed", "3", "--svg", "x.svg", "--step", "9",
    ])
    .unwrap();
    assert!(matches!(
        parsed.command,
        Icfp2015Command::Show {
            step: Some(9),
            seed: Some(3),
            animate: false,
            delay: 60,
            ..
        }
    ));
    assert!(
        Wrapper::try_parse_from(["icfp2015", "show", "-f", "p", "--animate", "--step", "3"])
            .is_err()
    );
    assert!(Wrapper::try_parse_from(["icfp2015", "score", "--seed", "3"]).is_err());
}
