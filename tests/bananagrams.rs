//! `podium bananagrams`: exit codes (0 solved, 3 impossible, 4 gave up, 2 bad input), grids
//! that the validator accepts, one-line errors for bad letters and bad word lists, fuzzed parsers.

#[path = "common/run.rs"]
mod run;
use run::{podium, text};

use podium::bananagrams::dict::Lexicon;
use podium::bananagrams::letters::Tiles;
use podium::bananagrams::validate::validate;
use podium::core::rng::Rng;

#[test]
fn solve_prints_a_valid_grid_and_exits_0() {
    let letters = "BANANAGRAMSAREFUNTOPLAY";
    let out = podium(&["bananagrams", "solve", letters]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let grid = text(&out.stdout);
    let hand = Tiles::parse(letters).unwrap();
    assert_eq!(
        validate(&grid, &hand, &Lexicon::enable().list),
        Ok(()),
        "{grid}"
    );
    // The grid checks through the CLI too.
    let dir = std::env::temp_dir().join(format!("podium-bg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("grid.txt");
    std::fs::write(&file, &grid).unwrap();
    let out = podium(&["bananagrams", "check", file.to_str().unwrap(), letters]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = podium(&["verify", "bananagrams", file.to_str().unwrap(), letters]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = podium(&["bananagrams", "check", file.to_str().unwrap(), "BANANA"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("differ from the hand"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn impossible_hands_exit_3_with_the_proof() {
    let out = podium(&["bananagrams", "solve", "QXZJ"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stdout).starts_with("impossible: "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn an_exhausted_budget_exits_4() {
    let out = podium(&["bananagrams", "solve", "RETAINSBLOCKWHIZ", "--nodes", "1"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stdout));
    assert_eq!(text(&out.stdout), "gave up\n");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let out = podium(&["bananagrams", "solve", "AB3C"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("character 3") && err.contains("'3'"), "{err}");
    let out = podium(&["bananagrams", "solve", ""]);
    assert_eq!(out.status.code(), Some(2));
    for args in [
        &["bananagrams", "solve", "CAT", "--budget", "nan"][..],
        &["bananagrams", "hands", "--count", "0"],
        &["bananagrams", "hands", "--budget=-1"],
    ] {
        let out = podium(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stderr).lines().count(), 1, "{args:?}");
    }
    let out = podium(&["bananagrams", "solve", &"Q".repeat(300)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("300 letters; at most 255"));
    let dir = std::env::temp_dir().join(format!("podium-bg-dict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("words.txt");
    std::fs::write(&list, "cat\ndog\nbad word\n").unwrap();
    let out = podium(&[
        "bananagrams",
        "solve",
        "TAC",
        "--dict",
        list.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("line 3") && err.contains("' '"), "{err}");
}

#[test]
fn a_custom_list_is_used() {
    let dir = std::env::temp_dir().join(format!("podium-bg-list-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("words.txt");
    std::fs::write(&list, "qi\nza\nqiz\n").unwrap();
    // QI is a word of this list and not of ENABLE.
    let out = podium(&[
        "bananagrams",
        "solve",
        "QI",
        "--dict",
        list.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "QI\n");
    let out = podium(&["bananagrams", "solve", "QI"]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn anagrams_through_a_board_letter() {
    let out = podium(&[
        "bananagrams",
        "anagrams",
        "TA",
        "--through",
        "q",
        "--at",
        "first",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "QAT\n");
}

#[test]
fn hands_report_counts_every_hand() {
    let out = podium(&["bananagrams", "hands", "--count", "20", "--seed", "4"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let counts: Vec<usize> = report
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(counts.iter().sum::<usize>(), 20, "{report}");
}

#[test]
fn parsers_survive_random_input() {
    let lexicon = Lexicon::enable();
    let mut rng = Rng::new(2026);
    let alphabet = b"ABCQZ.. \n\n\r#\xff\x00az";
    for _ in 0..3000 {
        let len = rng.below(40) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| *rng.choose(alphabet).unwrap()).collect();
        let as_text = String::from_utf8_lossy(&bytes);
        let _ = Tiles::parse(&as_text);
        let hand = Tiles::parse("ABCQZ").unwrap();
        let _ = validate(&as_text, &hand, &lexicon.list);
        if let Ok(custom) = Lexicon::from_list(&bytes) {
            assert!(custom.list.len() <= bytes.len());
            for word in custom.list.iter() {
                assert!(custom.dawg.contains(word));
            }
        }
    }
}

#[test]
fn games_bench_through_the_cli() {
    let out = podium(&[
        "bananagrams",
        "bench",
        "--games",
        "20",
        "--players",
        "Podium,TwoLetterStranding",
        "--seed",
        "3",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("invalid wins 0"), "{table}");
    assert!(table.contains("hung games 0"), "{table}");
    let out = podium(&["bananagrams", "bench", "--players", "Podium,Nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Nobody"));
}
