//! Property tests for every parser: random bytes and mutations of the real inputs in data/ never
//! panic, errors are one bounded line, printed values parse back and verdicts on made-up inputs hold.

use proptest::collection::{hash_set, vec};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, TestCaseError};
use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Cases per property unless `PODIUM_PROPTEST_CASES` says otherwise.
const DEFAULT_CASES: u32 = 1024;

/// The longest error message accepted, in characters, counting an escape such as `\u{feff}` as
/// the one character of the input it shows: fixed text, numbers and quotes of at most 24
/// characters, however long the input.
const MAX_ERROR_CHARS: usize = 300;

/// The longest error message accepted, counting escapes as written: two quotes of 24 characters
/// escaped as `\u{10ffff}` still fit.
const MAX_ERROR_WRITTEN_CHARS: usize = 800;

fn config() -> Config {
    let cases = match std::env::var("PODIUM_PROPTEST_CASES") {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("PODIUM_PROPTEST_CASES={text:?} is not a whole number")),
        Err(_) => DEFAULT_CASES,
    };
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn data(path: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn data_text(path: &str) -> String {
    String::from_utf8(data(path)).expect("the data files are UTF-8")
}

/// `message` starts with `prefix`, is one line, and shows at most [`MAX_ERROR_CHARS`]
/// characters of text and input.
fn check_error(message: &str, prefix: &str) -> Result<(), TestCaseError> {
    let shown: String = message
        .chars()
        .take(MAX_ERROR_WRITTEN_CHARS + 100)
        .collect();
    prop_assert!(message.starts_with(prefix), "lacks {prefix:?}: {shown:?}");
    prop_assert!(!message.contains(['\n', '\r']), "not one line: {shown:?}");
    let written = message.chars().count();
    prop_assert!(
        written <= MAX_ERROR_WRITTEN_CHARS,
        "{written} characters: {shown:?}"
    );
    let unescaped = unescaped_length(message);
    prop_assert!(
        unescaped <= MAX_ERROR_CHARS,
        "{unescaped} characters: {shown:?}"
    );
    Ok(())
}

/// Characters of `message`, counting each `\u{...}` escape as one.
fn unescaped_length(message: &str) -> usize {
    let mut length = 0;
    let mut rest = message;
    while let Some(c) = rest.chars().next() {
        let escape = rest
            .strip_prefix("\\u{")
            .and_then(|digits| digits.find('}').map(|end| 4 + end));
        rest = &rest[escape.unwrap_or(c.len_utf8())..];
        length += 1;
    }
    length
}

/// An input, shown as an escaped byte string when a case fails.
#[derive(Clone)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn lossy(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// One edit of a valid input. Positions are fractions of the input's length at that point.
#[derive(Clone, Debug)]
enum Mutation {
    /// The first digit at or after a position becomes `digit`: numbers change, structure stays.
    Digit(Index, u8),
    SetByte(Index, u8),
    Delete(Index, usize),
    Insert(Index, &'static str),
    Duplicate {
        from: Index,
        len: usize,
        to: Index,
    },
    /// `token` repeated to about `bytes` bytes: a huge number, word, line or nesting.
    Flood {
        at: Index,
        token: &'static str,
        bytes: usize,
    },
}

impl Mutation {
    fn apply(&self, input: &mut Vec<u8>) {
        let gap = |at: &Index, input: &Vec<u8>| at.index(input.len() + 1);
        match self {
            Mutation::Digit(at, digit) => {
                let start = gap(at, input);
                if let Some(d) = input[start..].iter_mut().find(|b| b.is_ascii_digit()) {
                    *d = *digit;
                }
            }
            Mutation::SetByte(at, byte) => {
                if !input.is_empty() {
                    let at = at.index(input.len());
                    input[at] = *byte;
                }
            }
            Mutation::Delete(at, len) => {
                let start = gap(at, input);
                let end = (start + len).min(input.len());
                input.drain(start..end);
            }
            Mutation::Insert(at, token) => {
                let at = gap(at, input);
                input.splice(at..at, token.bytes());
            }
            Mutation::Duplicate { from, len, to } => {
                if !input.is_empty() {
                    let start = from.index(input.len());
                    let piece = input[start..(start + len).min(input.len())].to_vec();
                    let at = gap(to, input);
                    input.splice(at..at, piece);
                }
            }
            Mutation::Flood { at, token, bytes } => {
                let at = gap(at, input);
                let piece = token.repeat(bytes / token.len() + 1);
                input.splice(at..at, piece.bytes());
            }
        }
    }
}

fn mutation(tokens: Vec<&'static str>) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        8 => (any::<Index>(), b'0'..=b'9').prop_map(|(at, digit)| Mutation::Digit(at, digit)),
        6 => (any::<Index>(), any::<u8>()).prop_map(|(at, byte)| Mutation::SetByte(at, byte)),
        4 => (any::<Index>(), 1..16usize).prop_map(|(at, len)| Mutation::Delete(at, len)),
        8 => (any::<Index>(), select(tokens.clone()))
            .prop_map(|(at, token)| Mutation::Insert(at, token)),
        3 => (any::<Index>(), 1..64usize, any::<Index>())
            .prop_map(|(from, len, to)| Mutation::Duplicate { from, len, to }),
        1 => (any::<Index>(), select(tokens), 0..=20u32).prop_map(|(at, token, log2)| {
            Mutation::Flood { at, token, bytes: 1 << log2 }
        }),
    ]
}

/// One of `valid` after one to four mutations drawn with `tokens`.
fn mutated(valid: Vec<Vec<u8>>, tokens: Vec<&'static str>) -> impl Strategy<Value = Bytes> {
    (select(valid), vec(mutation(tokens), 1..=4)).prop_map(|(mut input, mutations)| {
        for m in &mutations {
            m.apply(&mut input);
        }
        Bytes(input)
    })
}

/// Numbers past every integer type, non-numbers, line breaks and characters that need escaping.
const HOSTILE: &[&str] = &[
    "4294967296",
    "18446744073709551616",
    "-9223372036854775809",
    "99999999999999999999999999",
    "-1",
    "-0",
    "+7",
    "0.5",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\0",
    "\u{b}",
    "\u{1b}[2J",
    "\u{e9}",
    "\u{feff}",
    "\u{2028}",
    "\u{10ffff}",
];

/// JSON structure, broken escapes and deep nesting.
const JSON: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "null",
    "true",
    "\"\"",
    "\"x\"",
    "\\u0000",
    "\\ud800",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "{\"a\":{\"a\":{\"a\":{\"a\":",
];

/// [`HOSTILE`] and the given groups.
fn tokens(groups: &[&[&'static str]]) -> Vec<&'static str> {
    HOSTILE
        .iter()
        .chain(groups.iter().copied().flatten())
        .copied()
        .collect()
}

mod cephalopod {
    use super::*;
    use podium::cephalopod::Problem;

    /// Every bundled case as CodinGame stdin: the depth, then three rows of three cells.
    fn cases() -> Vec<Vec<u8>> {
        let mut inputs = Vec::new();
        for file in ["cephalopod/cases.tsv", "cephalopod/generated.tsv"] {
            let text = data_text(file);
            for line in text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.is_empty())
            {
                let fields: Vec<&str> = line.split('\t').collect();
                let cells: Vec<&str> = fields[2].split_whitespace().collect();
                let rows: Vec<String> = cells.chunks(3).map(|row| row.join(" ")).collect();
                inputs.push(format!("{}\n{}\n", fields[1], rows.join("\n")).into_bytes());
            }
        }
        inputs
    }

    const TOKENS: &[&str] = &["0", "6", "7", "20", "40", "4294967295", " 0 0 0"];

    fn check(input: &[u8]) -> Result<(), TestCaseError> {
        match Problem::parse(input) {
            Ok(problem) => prop_assert!(problem.board.cells.iter().all(|&c| c <= 6)),
            Err(e) => check_error(&e.to_string(), "cephalopod input: ")?,
        }
        Ok(())
    }

    fn separator() -> impl Strategy<Value = &'static str> {
        select(&[" ", "\t", "\n", "\r\n", "  \n\t"][..])
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arbitrary_bytes_are_read_or_refused_in_one_line(input in vec(any::<u8>(), 0..200)) {
            check(&input)?;
        }

        #[test]
        fn number_like_text_is_read_or_refused_in_one_line(text in "[0-9 \t\n+-]{0,60}") {
            check(text.as_bytes())?;
        }

        #[test]
        fn mutated_cases_are_read_or_refused_in_one_line(input in mutated(cases(), tokens(&[TOKENS]))) {
            check(&input.0)?;
        }

        #[test]
        fn any_whitespace_layout_reads_back(
            depth in any::<u32>(),
            cells in prop::array::uniform9(0..=6u8),
            separators in vec(separator(), 10),
        ) {
            let mut text = depth.to_string();
            for (cell, separator) in cells.iter().zip(&separators) {
                text += separator;
                text += &cell.to_string();
            }
            text += separators[9];
            let problem = Problem::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(problem.depth, depth);
            prop_assert_eq!(problem.board.cells, cells);
        }

        #[test]
        fn a_cell_outside_0_to_6_is_named(
            cells in prop::array::uniform9(0..=6u8),
            at in 0..9usize,
            value in prop_oneof![7..=i64::MAX, i64::MIN..0],
        ) {
            let mut fields: Vec<String> = cells.iter().map(u8::to_string).collect();
            fields[at] = value.to_string();
            let text = format!("5\n{}\n", fields.join(" "));
            let message = Problem::parse(text.as_bytes()).unwrap_err().to_string();
            check_error(&message, "cephalopod input: ")?;
            let field = format!("cell (row {}, column {})", at / 3 + 1, at % 3 + 1);
            prop_assert!(message.contains(&field), "{}", message);
        }
    }
}

mod icfp2015 {
    use super::*;
    use podium::icfp2015::rules::commands::{decode, encode, first_invalid};
    use podium::icfp2015::rules::problem::UnitSpec;
    use podium::icfp2015::{evaluate, Cell, Command, PhraseSet, Problem, Setup, Solution};
    use serde_json::{json, Value};

    fn problems() -> Vec<Vec<u8>> {
        (0..25)
            .map(|i| data(&format!("icfp2015/problems/problem_{i}.json")))
            .collect()
    }

    const PROBLEM_TOKENS: &[&str] = &[
        "\"units\"",
        "\"members\"",
        "\"pivot\"",
        "\"filled\"",
        "\"sourceSeeds\"",
        "{\"x\":0,\"y\":0}",
        "{\"x\":-3,\"y\":1}",
        "127",
        "128",
        "10000",
        "1000000",
    ];

    fn check_problem(input: &[u8], phrases: &PhraseSet) -> Result<(), TestCaseError> {
        match Problem::parse(input, "fuzz.json") {
            Ok(problem) => {
                let seed = problem.source_seeds[0];
                let setup = Setup::new(problem);
                let played = evaluate(&setup, u64::from(seed), "pbaldk\nPBALDK", phrases)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert!(played.moves <= 12);
            }
            Err(e) => check_error(&e.to_string(), "icfp2015 problem fuzz.json: ")?,
        }
        Ok(())
    }

    /// A small problem that the validation accepts: cells on the board and distinct in each list,
    /// pivots near their members.
    fn valid_problem() -> impl Strategy<Value = Problem> {
        (1..=24i32, 1..=24i32).prop_flat_map(|(width, height)| {
            let area = (width * height) as usize;
            let cell = (0..width, 0..height).prop_map(|(x, y)| Cell::new(x, y));
            let unit = (
                hash_set(cell.clone(), 1..=area.min(6)),
                -8..width + 8,
                -8..height + 8,
            )
                .prop_map(|(members, x, y)| UnitSpec {
                    members: members.into_iter().collect(),
                    pivot: Cell::new(x, y),
                });
            (
                any::<i64>(),
                vec(unit, 1..=4),
                hash_set(cell, 0..=area.min(20)),
                0..=1000usize,
                vec(any::<u32>(), 1..=4),
            )
                .prop_map(move |(id, units, filled, source_length, source_seeds)| {
                    Problem {
                        id,
                        units,
                        width: width as usize,
                        height: height as usize,
                        filled: filled.into_iter().collect(),
                        source_length,
                        source_seeds,
                    }
                })
        })
    }

    fn problem_json(problem: &Problem) -> String {
        let cell = |c: &Cell| json!({"x": c.x, "y": c.y});
        let cells = |cells: &[Cell]| cells.iter().map(cell).collect::<Vec<Value>>();
        let units: Vec<Value> = problem
            .units
            .iter()
            .map(|u| json!({"members": cells(&u.members), "pivot": cell(&u.pivot)}))
            .collect();
        json!({
            "id": problem.id,
            "units": units,
            "width": problem.width,
            "height": problem.height,
            "filled": cells(&problem.filled),
            "sourceLength": problem.source_length,
            "sourceSeeds": problem.source_seeds,
        })
        .to_string()
    }

    /// Output files: the first entries of the scored solutions, and one with every field.
    fn outputs() -> Vec<Vec<u8>> {
        let scored = data("icfp2015/scored_solutions.json");
        let all = Solution::parse_file(&scored, "scored_solutions.json")
            .expect("bundled solutions parse");
        vec![
            Solution::to_json(&all[..3]).into_bytes(),
            br#"[{"problemId":6,"seed":0,"tag":"t","solution":"Ei! Ia! Ia!"},
                {"problemId":1,"seed":0,"solution":"pbaldk"}]"#
                .to_vec(),
        ]
    }

    const OUTPUT_TOKENS: &[&str] = &[
        "\"problemId\"",
        "\"seed\"",
        "\"tag\"",
        "\"solution\"",
        "{\"problemId\":1,\"seed\":0,\"solution\":\"\"}",
    ];

    fn check_output(input: &[u8]) -> Result<(), TestCaseError> {
        if let Err(e) = Solution::parse_file(input, "fuzz.json") {
            check_error(&e.to_string(), "icfp2015 solutions fuzz.json: ")?;
        }
        Ok(())
    }

    fn solution() -> impl Strategy<Value = Solution> {
        (
            any::<i64>(),
            any::<u32>(),
            proptest::option::of(any::<String>()),
            any::<String>(),
        )
            .prop_map(|(problem_id, seed, tag, solution)| Solution {
                problem_id,
                seed: u64::from(seed),
                tag,
                solution,
            })
    }

    fn known_phrases() -> &'static PhraseSet {
        static PHRASES: OnceLock<PhraseSet> = OnceLock::new();
        PHRASES.get_or_init(PhraseSet::known)
    }

    fn problem_6() -> &'static Setup {
        static SETUP: OnceLock<Setup> = OnceLock::new();
        SETUP.get_or_init(|| {
            let bytes = data("icfp2015/problems/problem_6.json");
            Setup::new(Problem::parse(&bytes, "problem_6.json").expect("bundled problem parses"))
        })
    }

    fn command_text() -> impl Strategy<Value = String> {
        prop_oneof![any::<String>(), "[pbaldkPBALDK'!. 0-5\t\n\r#6\u{e9}]{0,80}"]
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arbitrary_bytes_are_refused_as_a_problem_in_one_line(input in vec(any::<u8>(), 0..200)) {
            check_problem(&input, known_phrases())?;
        }

        #[test]
        fn mutated_problems_are_refused_in_one_line_or_playable(
            input in mutated(problems(), tokens(&[JSON, PROBLEM_TOKENS])),
        ) {
            check_problem(&input.0, known_phrases())?;
        }

        #[test]
        fn valid_problems_read_back(problem in valid_problem()) {
            let parsed = Problem::parse(problem_json(&problem).as_bytes(), "valid.json");
            prop_assert_eq!(parsed, Ok(problem));
        }

        #[test]
        fn arbitrary_bytes_are_refused_as_an_output_file_in_one_line(input in vec(any::<u8>(), 0..200)) {
            check_output(&input)?;
        }

        #[test]
        fn mutated_output_files_are_read_or_refused_in_one_line(
            input in mutated(outputs(), tokens(&[JSON, OUTPUT_TOKENS])),
        ) {
            check_output(&input.0)?;
        }

        #[test]
        fn output_files_read_back(solutions in vec(solution(), 0..4)) {
            let text = Solution::to_json(&solutions);
            prop_assert_eq!(Solution::parse_file(text.as_bytes(), "out.json"), Ok(solutions));
        }

        #[test]
        fn decode_fails_exactly_at_the_first_invalid_character(text in command_text()) {
            match decode(&text) {
                Ok(commands) => {
                    prop_assert_eq!(first_invalid(&text), None);
                    let written = text.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).count();
                    prop_assert_eq!(commands.len(), written);
                    prop_assert_eq!(decode(&encode(&commands)), Ok(commands));
                }
                Err(e) => {
                    prop_assert_eq!(first_invalid(&text), Some(e.clone()));
                    prop_assert_eq!(text.chars().nth(e.position), Some(e.character));
                    check_error(&e.to_string(), "icfp2015 commands: ")?;
                }
            }
        }

        #[test]
        fn any_spelling_of_commands_decodes_to_them(
            spelled in vec(
                (select(Command::ALL.to_vec()), any::<Index>(), any::<bool>(), proptest::option::of(select(&["\t", "\n", "\r"][..]))),
                0..60,
            ),
        ) {
            let mut text = String::new();
            for (command, letter, upper, ignored) in &spelled {
                let characters = command.characters().as_bytes();
                let c = characters[letter.index(characters.len())] as char;
                text.push(if *upper { c.to_ascii_uppercase() } else { c });
                text.extend(*ignored);
            }
            let commands: Vec<Command> = spelled.iter().map(|s| s.0).collect();
            prop_assert_eq!(decode(&text), Ok(commands));
        }

        #[test]
        fn any_command_string_is_scored_and_an_invalid_one_scores_0(text in command_text()) {
            let played = evaluate(problem_6(), 0, &text, known_phrases()).expect("seed 0 is problem 6's");
            if first_invalid(&text).is_some() {
                prop_assert!(played.error.is_some());
                prop_assert_eq!(played.score, 0);
            }
        }

        #[test]
        fn phrase_lists_are_taken_or_refused_in_one_line(
            phrases in vec(prop_oneof![any::<String>(), "[a-z\u{e9}\u{10ffff}\n]{990,1010}"], 0..4),
        ) {
            if let Err(e) = PhraseSet::new(phrases) {
                check_error(&e.to_string(), "icfp2015 phrases: ")?;
            }
        }
    }
}

mod tetromino {
    use super::*;
    use podium::tetromino::signature::MAX_COUNT;
    use podium::tetromino::solver::random_tiling;
    use podium::tetromino::{parse_json, to_json, verify, Figure, Placement, Signature};

    /// The contest server's signatures and the solvable 4 x 4 ones.
    fn signatures() -> Vec<Vec<u8>> {
        let server = data_text("tetromino/server_signatures.txt");
        let solvable = data_text("tetromino/solvable_4x4.txt");
        server
            .lines()
            .filter_map(|l| l.split_once(' ').map(|(_, signature)| signature))
            .chain(solvable.lines())
            .map(|s| s.as_bytes().to_vec())
            .collect()
    }

    const SIGNATURE_TOKENS: &[&str] = &[
        "I", "J", "L", "O", "S", "T", "Z", "X", "i", "z", ",", ",,", "0", "4", "9000000", "9000001",
    ];

    fn check_signature(text: &str) -> Result<(), TestCaseError> {
        match Signature::parse(text) {
            Ok(signature) => {
                prop_assert_eq!(Signature::parse(&signature.to_full_string()), Ok(signature));
                if signature.total() > 0 {
                    prop_assert_eq!(Signature::parse(&signature.to_string()), Ok(signature));
                }
            }
            Err(e) => check_error(&e, "signature: ")?,
        }
        Ok(())
    }

    fn signature_of(placements: &[Placement]) -> Signature {
        let mut counts = [0u32; 7];
        for p in placements {
            counts[p.figure.index()] += 1;
        }
        Signature::new(counts)
    }

    /// A random tiling of an even square up to 16 x 16, and its size.
    fn tiling() -> impl Strategy<Value = (usize, Vec<Placement>)> {
        (1..=8usize, any::<u64>()).prop_map(|(half, seed)| {
            let size = 2 * half;
            (size, random_tiling(size, seed).expect("an even size"))
        })
    }

    /// Solution files: tilings of 4 x 4 to 12 x 12 and the specification's example.
    fn solutions() -> Vec<Vec<u8>> {
        let mut files: Vec<Vec<u8>> = [4, 6, 8, 12]
            .iter()
            .map(|&size| to_json(&random_tiling(size, 1).expect("an even size")).into_bytes())
            .collect();
        files.push(br#"[["Z",0,0,0],["J",1,0,1],["L",2,2,0],["I",1,0,3]]"#.to_vec());
        files
    }

    const SOLUTION_TOKENS: &[&str] = &["\"I\"", "\"O\"", "\"Q\"", "[\"T\",3,0,0]", "2147483648"];

    fn placement() -> impl Strategy<Value = Placement> {
        (
            select(Figure::ALL.to_vec()),
            any::<u8>(),
            0..=1usize << 31,
            0..=1usize << 31,
        )
            .prop_map(|(figure, angle, x, y)| Placement {
                figure,
                angle: angle % figure.angles(),
                x,
                y,
            })
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arbitrary_signatures_are_read_back_or_refused_in_one_line(text in any::<String>()) {
            check_signature(&text)?;
        }

        #[test]
        fn mutated_signatures_are_read_back_or_refused_in_one_line(
            input in mutated(signatures(), tokens(&[SIGNATURE_TOKENS])),
        ) {
            check_signature(&input.lossy())?;
        }

        #[test]
        fn signatures_in_any_order_case_and_spacing_read_back(
            counts in prop::array::uniform7(prop_oneof![Just(0u32), 0..=MAX_COUNT]),
            order in Just(Figure::ALL.to_vec()).prop_shuffle(),
            lower in vec(any::<bool>(), 7),
            omit_zeros in any::<bool>(),
            spaces in vec(select(&["", " ", "\t", "  "][..]), 14),
        ) {
            let items: Vec<String> = order
                .iter()
                .enumerate()
                .filter(|&(i, f)| i == 0 || !omit_zeros || counts[f.index()] > 0)
                .map(|(i, f)| {
                    let letter = if lower[i] { f.letter().to_ascii_lowercase() } else { f.letter() };
                    format!("{}{letter}{}{}", spaces[2 * i], counts[f.index()], spaces[2 * i + 1])
                })
                .collect();
            prop_assert_eq!(Signature::parse(&items.join(",")), Ok(Signature::new(counts)));
        }

        #[test]
        fn a_count_over_the_limit_is_refused(
            figure in select(Figure::ALL.to_vec()),
            count in (u64::from(MAX_COUNT) + 1)..,
        ) {
            let message = Signature::parse(&format!("{figure}{count}")).unwrap_err();
            check_error(&message, "signature: ")?;
            prop_assert!(message.contains("exceeds"), "{}", message);
        }

        #[test]
        fn arbitrary_solutions_are_refused_in_one_line(text in any::<String>()) {
            if let Err(e) = parse_json(&text) {
                check_error(&e, "solution: ")?;
            }
        }

        #[test]
        fn mutated_solutions_are_verified_or_refused_in_one_line(
            input in mutated(solutions(), tokens(&[JSON, SOLUTION_TOKENS])),
        ) {
            match parse_json(&input.lossy()) {
                Ok(placements) => {
                    let signature = signature_of(&placements);
                    for size in [0, 2, 4, 8, 12] {
                        if let Err(e) = verify(size, &signature, &placements) {
                            check_error(&e, "")?;
                        }
                    }
                }
                Err(e) => check_error(&e, "solution: ")?,
            }
        }

        #[test]
        fn solutions_read_back(placements in vec(placement(), 0..20)) {
            prop_assert_eq!(parse_json(&to_json(&placements)), Ok(placements));
        }

        #[test]
        fn a_tiling_verifies_in_any_order(
            (size, placements) in tiling().prop_flat_map(|(size, p)| (Just(size), Just(p).prop_shuffle())),
        ) {
            prop_assert_eq!(verify(size, &signature_of(&placements), &placements), Ok(()));
        }

        #[test]
        fn a_tiling_with_a_moved_piece_fails(
            (size, mut placements) in tiling(),
            piece in any::<Index>(),
            (right, down) in (0..=2usize, 0..=2usize).prop_filter("a move", |&m| m != (0, 0)),
        ) {
            let signature = signature_of(&placements);
            let index = piece.index(placements.len());
            let moved = &mut placements[index];
            moved.x += right;
            moved.y += down;
            let message = verify(size, &signature, &placements).unwrap_err();
            prop_assert!(message.contains("overlaps") || message.contains("leaves"), "{}", message);
        }

        #[test]
        fn a_tiling_with_a_turned_piece_fails(
            (size, mut placements) in tiling(),
            piece in any::<Index>(),
            turn in any::<Index>(),
        ) {
            let signature = signature_of(&placements);
            let turnable: Vec<usize> = (0..placements.len())
                .filter(|&i| placements[i].figure.angles() > 1)
                .collect();
            if let Some(&index) = turnable.get(piece.index(turnable.len().max(1))) {
                let turned = &mut placements[index];
                let angles = turned.figure.angles();
                turned.angle = (turned.angle + 1 + turn.index(usize::from(angles) - 1) as u8) % angles;
                let message = verify(size, &signature, &placements).unwrap_err();
                prop_assert!(message.contains("overlaps") || message.contains("leaves"), "{}", message);
            }
        }

        #[test]
        fn a_tiling_without_a_piece_has_a_gap((size, mut placements) in tiling(), piece in any::<Index>()) {
            let signature = signature_of(&placements);
            placements.remove(piece.index(placements.len()));
            let message = verify(size, &signature, &placements).unwrap_err();
            prop_assert!(message.starts_with("gap: "), "{}", message);
        }

        #[test]
        fn a_tiling_of_another_signature_has_the_wrong_count(
            (size, placements) in tiling(),
            from in any::<Index>(),
            to in any::<Index>(),
        ) {
            let mut counts = signature_of(&placements).counts;
            let present: Vec<usize> = (0..7).filter(|&f| counts[f] > 0).collect();
            let from = present[from.index(present.len())];
            let to = (from + 1 + to.index(6)) % 7;
            counts[from] -= 1;
            counts[to] += 1;
            let message = verify(size, &Signature::new(counts), &placements).unwrap_err();
            prop_assert!(message.starts_with("wrong count: "), "{}", message);
        }
    }
}

mod slider {
    use super::*;
    use podium::slider::board::{
        output_text, parse_turns, step, Dir, Kind, Outcome, Problem, Turn, HOLE, MAX_N,
    };
    use podium::slider::score::{score, Scored};

    fn instance_files() -> Vec<Vec<u8>> {
        (1..=40)
            .map(|seed| data(&format!("slider/instances/seed_{seed:03}.txt")))
            .collect()
    }

    fn instances() -> &'static [Problem] {
        static INSTANCES: OnceLock<Vec<Problem>> = OnceLock::new();
        INSTANCES.get_or_init(|| {
            instance_files()
                .iter()
                .map(|f| Problem::parse(std::str::from_utf8(f).unwrap()).expect("bundled instance"))
                .collect()
        })
    }

    const INPUT_TOKENS: &[&str] = &["0", "1", "9", "10", "-2", "64", "65", "4096"];

    fn check_input(text: &str) -> Result<(), TestCaseError> {
        match Problem::parse(text) {
            Ok(problem) => {
                prop_assert_eq!(problem.cells.len(), problem.n * problem.n);
                prop_assert!(problem
                    .cells
                    .iter()
                    .all(|&c| (HOLE..=problem.colours).contains(&c)));
                prop_assert_eq!(
                    problem.cells.iter().filter(|&&c| c == HOLE).count(),
                    problem.holes
                );
                prop_assert_eq!(Problem::parse(&problem.to_text()), Ok(problem));
            }
            Err(e) => check_error(&e, "slider input: ")?,
        }
        Ok(())
    }

    fn valid_problem() -> impl Strategy<Value = Problem> {
        (1..=MAX_N, 1..=9i8).prop_flat_map(|(n, colours)| {
            vec(HOLE..=colours, n * n).prop_map(move |cells| Problem {
                n,
                colours,
                holes: cells.iter().filter(|&&c| c == HOLE).count(),
                cells,
            })
        })
    }

    /// A turn picked among the blocks on the board: which block, slide or move, which way.
    type Choice = (usize, bool, Dir);

    fn choices() -> impl Strategy<Value = Vec<Choice>> {
        vec(
            (any::<usize>(), any::<bool>(), select(Dir::ALL.to_vec())),
            0..80,
        )
    }

    /// Turns on blocks picked by `choices`, at most N*N of them, played with the model's rule.
    fn play(problem: &Problem, choices: &[Choice]) -> Vec<Turn> {
        let n = problem.n;
        let mut cells = problem.cells.clone();
        let mut turns = Vec::new();
        for &(pick, slide, dir) in choices.iter().take(n * n) {
            let blocks: Vec<usize> = (0..n * n).filter(|&i| cells[i] > 0).collect();
            let Some(&at) = blocks.get(pick % blocks.len().max(1)) else {
                break;
            };
            let kind = if slide { Kind::Slide } else { Kind::Move };
            let turn = Turn {
                row: at / n,
                col: at % n,
                kind,
                dir,
            };
            step(&mut cells, n, turn);
            turns.push(turn);
        }
        turns
    }

    /// The score of `turns` by the model's rule (a drop on turn t earns (N*N - t + 1) * (value - 1)),
    /// and the board they leave.
    fn replay(problem: &Problem, turns: &[Turn]) -> (Scored, Vec<i8>) {
        let n = problem.n;
        let mut cells = problem.cells.clone();
        let mut scored = Scored {
            score: 0,
            turns: turns.len(),
            drops: 0,
        };
        for (t, &turn) in (1..).zip(turns) {
            if let Outcome::Dropped(value) = step(&mut cells, n, turn) {
                scored.score += (n * n - t + 1) as i64 * i64::from(value - 1);
                scored.drops += 1;
            }
        }
        (scored, cells)
    }

    /// Valid outputs for the first instances.
    fn outputs() -> Vec<Vec<u8>> {
        let choices: Vec<Choice> = (0..60)
            .map(|i| (i * 7919, i % 3 == 0, Dir::ALL[i % 4]))
            .collect();
        instances()[..4]
            .iter()
            .map(|p| output_text(&play(p, &choices)).into_bytes())
            .collect()
    }

    const OUTPUT_TOKENS: &[&str] = &["M", "S", "U", "D", "L", "R", "X", "0 0 M U\n", "100", "-5"];

    fn check_output(problem: &Problem, text: &str) -> Result<(), TestCaseError> {
        match score(problem, text) {
            Ok(scored) => {
                prop_assert!(scored.turns <= problem.n * problem.n);
                prop_assert_eq!(replay(problem, &parse_turns(text)).0, scored);
            }
            Err(invalid) => check_error(&invalid.to_string(), "line ")?,
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arbitrary_inputs_are_read_back_or_refused_in_one_line(text in prop_oneof![any::<String>(), "[0-9 \n-]{0,40}"]) {
            check_input(&text)?;
        }

        #[test]
        fn mutated_instances_are_read_back_or_refused_in_one_line(
            input in mutated(instance_files(), tokens(&[INPUT_TOKENS])),
        ) {
            check_input(&input.lossy())?;
        }

        #[test]
        fn valid_instances_read_back_in_any_layout(
            problem in valid_problem(),
            separator in select(&["\n", " ", "\t", "\r\n", " \n "][..]),
        ) {
            let values: Vec<String> = [problem.n.to_string(), problem.colours.to_string(), problem.holes.to_string()]
                .into_iter()
                .chain(problem.cells.iter().map(i8::to_string))
                .collect();
            let spaced = Problem::parse(&values.join(separator));
            prop_assert_eq!(spaced.as_ref(), Ok(&problem));
            prop_assert_eq!(Problem::parse(&problem.to_text()), Ok(problem));
        }

        #[test]
        fn arbitrary_outputs_are_scored_as_replayed_or_refused_in_one_line(
            instance in any::<Index>(),
            text in prop_oneof![any::<String>(), "[0-9 \nMSUDLR-]{0,60}"],
        ) {
            let problem = &instances()[instance.index(instances().len())];
            check_output(problem, &text)?;
        }

        #[test]
        fn mutated_outputs_are_scored_as_replayed_or_refused_in_one_line(
            input in mutated(outputs(), tokens(&[OUTPUT_TOKENS])),
        ) {
            check_output(&instances()[0], &input.lossy())?;
        }

        #[test]
        fn valid_outputs_score_as_the_model_plays_them(instance in any::<Index>(), choices in choices()) {
            let problem = &instances()[instance.index(instances().len())];
            let turns = play(problem, &choices);
            let text = output_text(&turns);
            prop_assert_eq!(score(problem, &text), Ok(replay(problem, &turns).0));
            prop_assert_eq!(parse_turns(&text), turns);
        }

        #[test]
        fn any_spelling_the_scorer_takes_is_replayed_as_scored(
            instance in any::<Index>(),
            choices in choices(),
            spellings in vec((select(&["", "+", "0", "+00"][..]), select(&[" ", "\t", "  "][..]), select(&["\n", "\r\n", "\n\n", " \n"][..])), 80),
            trailing in "[0-9 \nMSUDLRx]{0,20}",
        ) {
            let problem = &instances()[instance.index(instances().len())];
            let turns = play(problem, &choices);
            let mut text = format!("{}\n", turns.len());
            for (turn, (sign, space, end)) in turns.iter().zip(&spellings) {
                let kind = if turn.kind == Kind::Slide { 'S' } else { 'M' };
                let (row, col, dir) = (turn.row, turn.col, turn.dir.letter());
                text += &format!("{sign}{row}{space}{sign}{col}{space}{kind}{space}{dir}{end}");
            }
            text += &trailing;
            prop_assert_eq!(score(problem, &text), Ok(replay(problem, &turns).0));
            prop_assert_eq!(parse_turns(&text), turns);
        }

        #[test]
        fn a_turn_without_a_block_is_refused_on_its_line(
            instance in any::<Index>(),
            choices in choices(),
            empty in any::<Index>(),
            slide in any::<bool>(),
            dir in select(Dir::ALL.to_vec()),
        ) {
            let problem = &instances()[instance.index(instances().len())];
            let mut turns = play(problem, &choices);
            let (_, cells) = replay(problem, &turns);
            prop_assume!(turns.len() < problem.n * problem.n);
            let without: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] <= 0).collect();
            prop_assume!(!without.is_empty());
            let at = without[empty.index(without.len())];
            let kind = if slide { Kind::Slide } else { Kind::Move };
            turns.push(Turn { row: at / problem.n, col: at % problem.n, kind, dir });
            let invalid = score(problem, &output_text(&turns)).unwrap_err();
            prop_assert_eq!(invalid.line, turns.len() + 1);
            prop_assert!(invalid.reason.ends_with("holds no block"), "{}", invalid);
        }
    }

    #[test]
    fn a_long_token_after_the_last_cell_is_quoted_briefly() {
        let text = format!("1\n1\n0\n0\n{}\n", "x".repeat(1 << 20));
        let message = Problem::parse(&text).unwrap_err();
        check_error(&message, "slider input: ").unwrap();
    }

    #[test]
    fn a_row_written_minus_0_is_replayed_as_scored() {
        let problem = Problem::parse("2 2 1\n2 -1\n0 0\n").unwrap();
        let text = "1\n-0 0 M R\n";
        let turn = Turn {
            row: 0,
            col: 0,
            kind: Kind::Move,
            dir: Dir::Right,
        };
        assert_eq!(score(&problem, text), Ok(replay(&problem, &[turn]).0));
        assert_eq!(parse_turns(text), [turn]);
    }
}

mod bananagrams {
    use super::*;
    use podium::bananagrams::dict::Lexicon;
    use podium::bananagrams::letters::{BadHand, Tiles, MAX_HAND};
    use podium::bananagrams::validate::{validate, Invalid};
    use std::collections::{BTreeSet, HashSet};

    fn enable() -> &'static Lexicon {
        static ENABLE: OnceLock<Lexicon> = OnceLock::new();
        ENABLE.get_or_init(Lexicon::enable)
    }

    /// ENABLE as data/bananagrams/enable.txt lists it, read apart from the compiled word list.
    fn enable_file() -> &'static HashSet<String> {
        static WORDS: OnceLock<HashSet<String>> = OnceLock::new();
        WORDS.get_or_init(|| {
            data_text("bananagrams/enable.txt")
                .lines()
                .map(|w| w.trim().to_ascii_uppercase())
                .collect()
        })
    }

    fn in_hand(c: char) -> bool {
        c.is_ascii_alphabetic() || matches!(c, ' ' | ',' | '\t')
    }

    fn check_hand(text: &str) -> Result<(), TestCaseError> {
        let letters = text.chars().filter(char::is_ascii_alphabetic).count();
        let chars: Vec<char> = text.chars().collect();
        match Tiles::parse(text) {
            Ok(tiles) => {
                prop_assert!(chars.iter().all(|&c| in_hand(c)));
                prop_assert_eq!(tiles.len(), letters);
                prop_assert_eq!(Tiles::parse(&tiles.to_string()), Ok(tiles));
            }
            Err(BadHand::Letter { position, found }) => {
                prop_assert_eq!(chars[position - 1], found);
                prop_assert!(!in_hand(found));
                prop_assert!(chars[..position - 1].iter().all(|&c| in_hand(c)));
            }
            Err(BadHand::TooMany { letters: counted }) => {
                prop_assert_eq!(counted, letters);
                prop_assert!(letters > MAX_HAND);
            }
        }
        Ok(())
    }

    /// Twelve-line windows of enable.txt, spread over the alphabet.
    fn word_lists() -> Vec<Vec<u8>> {
        let text = data_text("bananagrams/enable.txt");
        let lines: Vec<&str> = text.lines().collect();
        (0..8)
            .map(|i| {
                let start = i * lines.len() / 8;
                let mut window = lines[start..start + 12].join("\n");
                window.push('\n');
                window.into_bytes()
            })
            .collect()
    }

    const LIST_TOKENS: &[&str] = &["\n", "\n\n", "a", "Z", "cat", " dog ", "-", "1", "\u{c9}"];

    fn check_list(input: &[u8]) -> Result<(), TestCaseError> {
        match Lexicon::from_list(input) {
            Ok(lexicon) => {
                let words: Vec<&[u8]> = lexicon.list.iter().collect();
                prop_assert!(words.windows(2).all(|pair| pair[0] < pair[1]));
                for word in &words {
                    prop_assert!(word.len() >= 2 && word.iter().all(u8::is_ascii_uppercase));
                    prop_assert!(lexicon.dawg.contains(word));
                }
                prop_assert_eq!(lexicon.dawg.word_count(), words.len());
            }
            Err(e) => {
                check_error(&e.message, "")?;
                prop_assert!(e.line <= input.split(|&b| b == b'\n').count());
            }
        }
        Ok(())
    }

    /// A valid grid: an ENABLE word across and, when it shares a letter, another one down
    /// through it; `top` and `left` rows and columns of `.` before them.
    fn crossword() -> impl Strategy<Value = Vec<Vec<u8>>> {
        (
            any::<Index>(),
            any::<Index>(),
            any::<Index>(),
            0..4usize,
            0..4usize,
        )
            .prop_map(|(across, down, crossing, top, left)| {
                let list = &enable().list;
                let across = list.word(across.index(list.len()));
                let down = list.word(down.index(list.len()));
                let column = crossing.index(across.len());
                let shared = down.iter().position(|&b| b == across[column]);
                let height = top + shared.map_or(1, |_| down.len());
                let mut rows = vec![vec![b'.'; left + across.len()]; height];
                let across_row = top + shared.unwrap_or(0);
                rows[across_row][left..].copy_from_slice(across);
                if shared.is_some() {
                    for (r, &letter) in down.iter().enumerate() {
                        rows[top + r][left + column] = letter;
                    }
                }
                rows
            })
    }

    fn grid_text(rows: &[Vec<u8>], line_end: &str) -> String {
        rows.iter()
            .map(|row| String::from_utf8_lossy(row).into_owned() + line_end)
            .collect()
    }

    fn transposed(rows: &[Vec<u8>]) -> Vec<Vec<u8>> {
        (0..rows[0].len())
            .map(|c| rows.iter().map(|row| row[c]).collect())
            .collect()
    }

    fn hand_of(grid: &str) -> Tiles {
        let letters: String = grid.chars().filter(char::is_ascii_alphabetic).collect();
        Tiles::parse(&letters).unwrap_or(Tiles::EMPTY)
    }

    /// Grids to mutate: the validator's own examples and a few crosswords.
    fn grids() -> Vec<Vec<u8>> {
        [
            "CAT\n",
            ".S.\nCAT\n.T.\n",
            "AB\nDO\n",
            "..q..\n..a..\n..t..\n",
            "..B.....\n..A.....\nJUNGLE..\n..A.....\n..N.....\n..A.....\n",
        ]
        .iter()
        .map(|g| g.as_bytes().to_vec())
        .collect()
    }

    const GRID_TOKENS: &[&str] = &[".", "A", "q", "#", ".....", "AA", "\n.\n", "\u{c9}"];

    fn check_grid(grid: &str, hand: &Tiles) -> Result<(), TestCaseError> {
        if let Err(fault) = validate(grid, hand, &enable().list) {
            check_error(&fault.to_string(), "")?;
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arbitrary_hands_are_read_back_or_refused_at_the_first_bad_character(
            text in prop_oneof![any::<String>(), "[a-zA-Z ,\t]{0,300}", "[a-c ,1\u{e9}]{0,20}"],
        ) {
            check_hand(&text)?;
        }

        #[test]
        fn arbitrary_word_lists_are_compiled_or_refused_in_one_line(input in vec(any::<u8>(), 0..200)) {
            check_list(&input)?;
        }

        #[test]
        fn mutated_word_lists_are_compiled_or_refused_in_one_line(
            input in mutated(word_lists(), tokens(&[LIST_TOKENS])),
        ) {
            check_list(&input.0)?;
        }

        #[test]
        fn a_word_list_holds_exactly_its_words(
            words in vec("[a-zA-Z]{1,12}", 1..40),
            line_end in select(&["\n", "\r\n", " \n", "\n\n"][..]),
            probe in "[A-Z]{2,6}",
        ) {
            let text: String = words.iter().map(|w| format!("{w}{line_end}")).collect();
            let wanted: BTreeSet<Vec<u8>> = words
                .iter()
                .filter(|w| w.len() >= 2)
                .map(|w| w.to_ascii_uppercase().into_bytes())
                .collect();
            match Lexicon::from_list(text.as_bytes()) {
                Ok(lexicon) => {
                    let listed: Vec<Vec<u8>> = lexicon.list.iter().map(<[u8]>::to_vec).collect();
                    prop_assert_eq!(listed, wanted.iter().cloned().collect::<Vec<_>>());
                    let probe = probe.as_bytes();
                    prop_assert_eq!(lexicon.dawg.contains(probe), wanted.contains(probe));
                    prop_assert_eq!(lexicon.list.contains(probe), wanted.contains(probe));
                }
                Err(e) => {
                    prop_assert!(wanted.is_empty(), "{}", e.message);
                    prop_assert_eq!(e.line, 0);
                }
            }
        }

        #[test]
        fn arbitrary_grids_are_checked_in_one_line(grid in "[A-Za-z. \n\r#\u{e9}]{0,80}") {
            check_grid(&grid, &hand_of(&grid))?;
        }

        #[test]
        fn mutated_grids_are_checked_in_one_line(input in mutated(grids(), tokens(&[GRID_TOKENS]))) {
            let grid = input.lossy();
            check_grid(&grid, &hand_of(&grid))?;
            check_grid(&grid, &Tiles::parse("CAT").unwrap())?;
        }

        #[test]
        fn crosswords_are_valid_in_any_case_transposed_and_with_crlf(rows in crossword(), crlf in any::<bool>()) {
            let line_end = if crlf { "\r\n" } else { "\n" };
            let words = &enable().list;
            let grid = grid_text(&rows, line_end);
            let hand = hand_of(&grid);
            prop_assert_eq!(validate(&grid, &hand, words), Ok(()));
            prop_assert_eq!(validate(&grid.to_ascii_lowercase(), &hand, words), Ok(()));
            prop_assert_eq!(validate(&grid_text(&transposed(&rows), line_end), &hand, words), Ok(()));
        }

        #[test]
        fn a_crossword_short_of_a_tile_has_the_wrong_tiles(rows in crossword(), dropped in any::<Index>()) {
            let grid = grid_text(&rows, "\n");
            let mut hand = hand_of(&grid);
            let letters: Vec<u8> = hand.letters().collect();
            let letter = letters[dropped.index(letters.len())];
            hand.take(letter);
            prop_assert_eq!(
                validate(&grid, &hand, &enable().list),
                Err(Invalid::WrongTiles { missing: String::new(), extra: char::from(b'A' + letter).to_string() })
            );
        }

        #[test]
        fn a_row_of_letters_is_valid_exactly_when_enable_lists_it(
            word in prop_oneof!["[A-Z]{2,4}", any::<Index>().prop_map(|i| {
                let list = &enable().list;
                String::from_utf8_lossy(list.word(i.index(list.len()))).into_owned()
            })],
        ) {
            let verdict = validate(&word, &Tiles::parse(&word).unwrap(), &enable().list);
            prop_assert_eq!(verdict.is_ok(), enable_file().contains(&word), "{:?}", verdict);
        }
    }

    #[test]
    fn a_wide_and_tall_grid_of_one_tile_is_checked() {
        // 1 MB of text: the validator once allocated lines x longest line cells, 250 GB here.
        let side = 500_000;
        let grid = format!("A\n{}\n{}", ".".repeat(side), "\n".repeat(side));
        let verdict = validate(&grid, &Tiles::parse("A").unwrap(), &enable().list);
        assert_eq!(verdict, Ok(()));
    }
}
