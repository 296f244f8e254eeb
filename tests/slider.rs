//! Slider: the scorer on hand-made boards, the input parser (errors and a fuzz), the generator
//! against the reference files byte for byte, and the solver's outputs against the scorer.

use podium::core::rng::Rng;
use podium::core::timer::Deadline;
use podium::slider::board::{output_text, Problem};
use podium::slider::cases::{peers, INSTANCES};
use podium::slider::gen::generate;
use podium::slider::score::{score, Invalid, Scored};
use podium::slider::solve::solve;

/// A board from rows of characters: `.` empty, `O` hole, `1`..`9` a block.
fn board(rows: &[&str]) -> Problem {
    let n = rows.len();
    let cells: Vec<i8> = rows
        .iter()
        .flat_map(|r| {
            assert_eq!(r.len(), n);
            r.chars().map(|c| match c {
                '.' => 0,
                'O' => -1,
                d => d.to_digit(10).unwrap() as i8,
            })
        })
        .collect();
    let holes = cells.iter().filter(|&&c| c == -1).count();
    let colours = cells.iter().copied().max().unwrap().max(1);
    Problem {
        n,
        colours,
        holes,
        cells,
    }
}

fn points(problem: &Problem, output: &str) -> i64 {
    score(problem, output)
        .unwrap_or_else(|e| panic!("{output:?} invalid: {e}"))
        .score
}

fn invalid(problem: &Problem, output: &str) -> Invalid {
    match score(problem, output) {
        Ok(s) => panic!("{output:?} scored {s:?}, expected invalid"),
        Err(e) => e,
    }
}

#[test]
fn moves_and_slides_score_z_before_the_decrement() {
    let p = board(&["3.O", "...", "..."]);
    // N*N = 9: a move that drops on turn 2 scores (9 - 2 + 1) * (3 - 1).
    assert_eq!(points(&p, "2\n0 0 M R\n0 1 M R\n"), 16);
    // A slide runs over the empty cell and drops on turn 1.
    assert_eq!(points(&p, "1\n0 0 S R\n"), 18);
    assert_eq!(
        score(&p, "1\n0 0 S R\n"),
        Ok(Scored {
            score: 18,
            turns: 1,
            drops: 1
        })
    );
}

#[test]
fn moves_into_walls_and_blocks_spend_the_turn() {
    let p = board(&["32O", "...", "..."]);
    // Turn 1 hits the border, turn 2 hits the 2; turn 3 drops the 2: (9 - 3 + 1) * 1.
    assert_eq!(points(&p, "3\n0 0 M U\n0 0 M R\n0 1 M R\n"), 7);
    // The 3 was not moved by those turns: it drops on turn 4 from (0, 0) by a slide.
    assert_eq!(
        points(&p, "4\n0 0 M U\n0 0 S R\n0 1 M R\n0 0 S R\n"),
        7 + 6 * 2
    );
    // A slide stops before a block, then the block is still there.
    let q = board(&["3.2O", "....", "....", "...."]);
    assert_eq!(points(&q, "2\n0 0 S R\n0 1 M R\n"), 0);
    assert!(invalid(&q, "2\n0 0 S R\n0 0 M R\n")
        .reason
        .contains("no block"));
}

#[test]
fn slides_fall_into_the_first_hole_and_holes_never_fill() {
    let p = board(&["5.O.O", ".....", ".....", ".....", "4...."]);
    assert_eq!(points(&p, "1\n0 0 S R\n"), 25 * 4);
    // The hole stays a hole: the 4 slides up, then right along row 0 into the same hole.
    assert_eq!(
        points(&p, "3\n0 0 S R\n4 0 S U\n0 0 S R\n"),
        25 * 4 + 23 * 3
    );
    // A slide down the empty column ends at the border.
    let q = board(&["2O", ".."]);
    assert_eq!(points(&q, "2\n0 0 S D\n1 0 M U\n"), 0);
}

#[test]
fn value_one_blocks_score_nothing_but_move() {
    let p = board(&["1O2", "...", "..."]);
    assert_eq!(points(&p, "1\n0 0 M R\n"), 0);
    // With the 1 gone, the 2 slides left into the hole on turn 2: 8 * 1.
    assert_eq!(points(&p, "2\n0 0 M R\n0 2 S L\n"), 8);
}

#[test]
fn the_last_turn_scores_at_z_equal_one() {
    let p = board(&["9O", ".."]);
    // Three wasted turns against the border, the drop on turn 4 = N*N: Z = 1.
    assert_eq!(points(&p, "4\n0 0 M U\n0 0 M L\n0 0 S U\n0 0 M R\n"), 8);
    // Five turns are more than N*N.
    let e = invalid(&p, "5\n0 0 M U\n0 0 M U\n0 0 M U\n0 0 M U\n0 0 M R\n");
    assert_eq!(e.line, 1);
}

#[test]
fn invalid_outputs_name_the_first_bad_line() {
    let p = board(&["3.O", "...", "..."]);
    let cases: [(&str, usize, &str); 10] = [
        ("x\n", 1, "not an integer"),
        ("-1\n", 1, "outside"),
        ("10\n", 1, "outside"),
        ("2\n0 0 M R\n", 3, "only 1 of"),
        ("1\n0 0 M\n", 2, "is not `row"),
        ("1\n0 0 X R\n", 2, "kind"),
        ("1\n0 0 M Q\n", 2, "direction"),
        ("1\n0 3 M R\n", 2, "outside the grid"),
        ("2\n0 0 M D\n0 0 M R\n", 3, "no block"),
        ("1\n0 2 M L\n", 2, "no block"),
    ];
    for (output, line, reason) in cases {
        let e = invalid(&p, output);
        assert_eq!(e.line, line, "{output:?}: {e}");
        assert!(e.reason.contains(reason), "{output:?}: {e}");
    }
}

#[test]
fn empty_output_scores_zero_and_extra_lines_are_not_read() {
    let p = board(&["3.O", "...", "..."]);
    assert_eq!(points(&p, ""), 0);
    assert_eq!(points(&p, "\n  \n"), 0);
    assert_eq!(points(&p, "0\n"), 0);
    assert_eq!(points(&p, "1\n0 0 M D\n\nanything\n"), 0);
    assert_eq!(points(&p, "1\n0 0 S R\n0 9 Q Q\n"), 18);
}

#[test]
fn the_parser_names_the_line_and_value() {
    let err = |text: &str| Problem::parse(text).unwrap_err();
    assert_eq!(
        err("2\n9\n1\n0\n0\n0\n10\n"),
        "slider input: line 7: cell (row 1, column 1) value 10 is outside -1..9"
    );
    assert_eq!(
        err("2\n3\n1\n0\nx\n"),
        "slider input: line 5: cell (row 0, column 1) \"x\" is not an integer"
    );
    assert_eq!(
        err("2\n3\n1\n0\n0\n"),
        "slider input: ends before cell (row 1, column 0)"
    );
    assert_eq!(
        err("2\n3\n2\n-1\n0\n0\n1\n"),
        "slider input: H is 2 but the board has 1 holes"
    );
    assert_eq!(
        err("0\n"),
        "slider input: line 1: N value 0 is outside 1..64"
    );
    assert!(err("2\n3\n1\n-1\n0\n0\n1\n7\n").contains("line 8: unexpected \"7\""));
    let p = Problem::parse(INSTANCES[0].1).unwrap();
    assert_eq!((p.n, p.colours, p.holes), (10, 4, 6));
    assert_eq!(p.to_text(), INSTANCES[0].1);
}

#[test]
fn the_parser_survives_fuzzing() {
    let mut rng = Rng::new(126);
    let base = INSTANCES[0].1.as_bytes();
    let alphabet = b"-0123456789 \nx+.";
    for _ in 0..3000 {
        let mut bytes = base.to_vec();
        for _ in 0..rng.range(1..6) {
            let at = rng.range(0..bytes.len());
            match rng.below(3) {
                0 => bytes[at] = alphabet[rng.range(0..alphabet.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[rng.range(0..alphabet.len())]),
            }
        }
        let text = String::from_utf8(bytes).unwrap();
        match Problem::parse(&text) {
            Ok(p) => {
                assert_eq!(p.cells.len(), p.n * p.n);
                assert!(p.cells.iter().all(|&c| (-1..=p.colours).contains(&c)));
            }
            Err(e) => {
                assert!(e.starts_with("slider input: "), "{e}");
                assert!(!e.contains('\n'), "{e}");
            }
        }
    }
}

#[test]
fn the_generator_reproduces_the_reference_instances() {
    for (seed, text) in INSTANCES {
        assert_eq!(generate(seed).to_text(), text, "seed {seed}");
    }
    assert_eq!(generate(1).n, 10);
    assert_eq!(generate(2).n, 30);
    let peers = peers();
    assert_eq!(peers.len(), 40);
    assert!(peers
        .iter()
        .all(|p| p.best == p.arukuka.max(p.dedentete).max(p.highjump425)));
}

#[test]
fn solver_outputs_verify_and_respect_the_time() {
    for (seed, text) in [INSTANCES[0], INSTANCES[1], INSTANCES[6], INSTANCES[20]] {
        let problem = Problem::parse(text).unwrap();
        let deadline = Deadline::from_secs_f64(0.3);
        let solved = solve(&problem, deadline, seed);
        let elapsed = deadline.elapsed().as_secs_f64();
        assert!(elapsed < 0.6, "seed {seed}: {elapsed} s");
        let scored = score(&problem, &output_text(&solved.turns)).unwrap();
        assert_eq!(scored.score, solved.score, "seed {seed}");
        let best = peers().iter().find(|p| p.seed == seed).unwrap().best;
        assert!(
            scored.score as f64 > 0.9 * best as f64,
            "seed {seed}: {} vs peers' best {best}",
            scored.score
        );
    }
}

#[test]
fn the_solver_handles_trivial_boards() {
    let none = board(&["1.", ".O"]);
    let solved = solve(&none, Deadline::from_secs_f64(0.05), 1);
    assert_eq!(
        score(&none, &output_text(&solved.turns)).unwrap().score,
        solved.score
    );
    assert_eq!(solved.score, 0);
    let walled = board(&["2.", ".."]);
    assert_eq!(
        solve(&walled, Deadline::from_secs_f64(0.05), 1).turns.len(),
        0
    );
    let one = board(&["..2", "...", "O.."]);
    let solved = solve(&one, Deadline::from_secs_f64(0.05), 1);
    // Best: slide left (turn 1), slide down into the hole (turn 2): Z = 8.
    assert_eq!(solved.score, 8);
}

#[test]
fn a_huge_bad_token_is_quoted_briefly() {
    let token = "x".repeat(2_000_000);
    let e = Problem::parse(&format!("3\n2\n2\n{token}\n")).unwrap_err();
    assert!(e.len() < 120, "{} bytes", e.len());
    let problem = Problem::parse(INSTANCES[0].1).expect("a bundled instance");
    let e = score(&problem, &format!("1\n{token}\n")).unwrap_err();
    assert!(e.to_string().len() < 160, "{} bytes", e.to_string().len());
}
