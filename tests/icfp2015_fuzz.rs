//! Randomised checks of the icfp2015 code: mutated problem and output files and random command
//! strings never panic and fail with one line; random play matches a naive cell-set simulator.

use podium::core::rng::Rng;
use podium::icfp2015::cli::{run_with, Icfp2015Command, PhraseArgs};
use podium::icfp2015::rules::commands::{decode, first_invalid};
use podium::icfp2015::rules::problem::{Problem, Solution};
use podium::icfp2015::{evaluate, Command, Game, PhraseSet, Probe, Setup, Status};
use std::collections::HashSet;
use std::path::PathBuf;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/icfp2015")
        .join(path)
}

fn problem_text(i: usize) -> String {
    std::fs::read_to_string(data(&format!("problems/problem_{i}.json"))).unwrap()
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "-",
    "0",
    "7",
    "1e400",
    "null",
    "true",
    "\"x\"",
    "-1",
    "99999999999",
    "0.5",
    " ",
    "\"units\"",
    "{\"x\":0,\"y\":0}",
    "{\"x\":-3,\"y\":1}",
    "\\u0000",
    "\u{e9}",
    "200",
    "127",
    "128",
];

fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.range(0..4) {
        let at = rng.range(0..bytes.len() + 1);
        match rng.range(0..5) {
            0 if !bytes.is_empty() => {
                let end = (at + 1 + rng.range(0..8)).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            1 => {
                let token = TOKENS[rng.range(0..TOKENS.len())];
                bytes.splice(at..at, token.bytes());
            }
            2 => {
                // Change a digit: coordinates, sizes and seeds move a little.
                if let Some(p) = (at..bytes.len()).find(|&i| bytes[i].is_ascii_digit()) {
                    bytes[p] = b'0' + rng.range(0..10) as u8;
                }
            }
            3 if !bytes.is_empty() => {
                let start = rng.range(0..bytes.len());
                let end = (start + rng.range(1..40)).min(bytes.len());
                let piece = bytes[start..end].to_vec();
                let at = at.min(bytes.len());
                bytes.splice(at..at, piece);
            }
            _ => {
                if !bytes.is_empty() {
                    let p = rng.range(0..bytes.len());
                    bytes[p] = rng.range(0..256) as u8;
                }
            }
        }
    }
    bytes
}

fn random_commands(rng: &mut Rng, len: usize) -> String {
    const CHARS: &[u8] = b"pbaldkPBALDK'!.0123456789 \t\n\rcefyghijmnoqrvzstuwx";
    (0..len)
        .map(|_| CHARS[rng.range(0..CHARS.len())] as char)
        .collect()
}

#[test]
fn mutated_problems_never_panic() {
    let mut rng = Rng::new(2015);
    let phrases = PhraseSet::known();
    let (mut accepted, mut rejected) = (0, 0);
    for round in 0..6000 {
        let text = problem_text(round % 25);
        let bytes = mutate(&mut rng, &text);
        match Problem::parse(&bytes, "fuzz.json") {
            Err(e) => {
                rejected += 1;
                let message = e.to_string();
                assert!(message.starts_with("icfp2015 problem fuzz.json: "));
                assert!(!message.contains('\n'), "{message}");
                assert!(message.len() < 400, "{message}");
            }
            Ok(problem) => {
                accepted += 1;
                let seed = problem.source_seeds[0] as u64;
                let setup = Setup::new(problem);
                let commands = random_commands(&mut rng, 300);
                let e = evaluate(&setup, seed, &commands, &phrases).unwrap();
                assert!(e.moves <= 300);
            }
        }
    }
    assert!(accepted > 200 && rejected > 500, "{accepted} {rejected}");
}

#[test]
fn mutated_output_files_never_panic() {
    let mut rng = Rng::new(7);
    let base = r#"[{"problemId":6,"seed":0,"tag":"t","solution":"Ei! Ia! Ia!"},
        {"problemId":1,"seed":0,"solution":"pbaldk"}]"#;
    for _ in 0..4000 {
        let bytes = mutate(&mut rng, base);
        if let Err(e) = Solution::parse_file(&bytes, "out.json") {
            let message = e.to_string();
            assert!(message.starts_with("icfp2015 solutions out.json: "));
            assert!(!message.contains('\n'), "{message}");
        }
    }
}

#[test]
fn random_command_strings_never_panic() {
    let mut rng = Rng::new(99);
    let file = data("problems/problem_6.json");
    for _ in 0..300 {
        let len = rng.range(0..60);
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.range(0..4) {
                0 => rng.range(0..256) as u8,
                _ => b"pbaldk#\n\t \xc3\xa9"[rng.range(0..12)],
            })
            .collect();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            assert_eq!(decode(text).is_ok(), first_invalid(text).is_none());
        }
        let cmd = Icfp2015Command::Score {
            files: vec![file.clone()],
            seed: Some(0),
            solutions: None,
            phrases: PhraseArgs::default(),
            json: false,
        };
        let mut out = Vec::new();
        if let Err(e) = run_with(cmd, &mut &bytes[..], &mut out) {
            assert_eq!(e.code, 2);
            assert!(
                e.message.starts_with("icfp2015 commands: "),
                "{}",
                e.message
            );
            assert!(!e.message.contains('\n'));
        } else {
            assert!(String::from_utf8(out).unwrap().starts_with("moves: "));
        }
    }
}

/// Member cells and the pivot.
type Placed = (Vec<(i32, i32)>, (i32, i32));

/// A naive simulator straight from the spec: cells in hash sets, members moved one by one,
/// rotations through cube coordinates, the history as a list of (pivot, sorted members).
struct Naive {
    width: i32,
    height: i32,
    filled: HashSet<(i32, i32)>,
    units: Vec<Placed>,
    order: Vec<usize>,
}

fn step_cell((x, y): (i32, i32), command: u8) -> (i32, i32) {
    let even = y.rem_euclid(2) == 0;
    match command {
        0 => (x - 1, y),
        1 => (x + 1, y),
        2 => (if even { x - 1 } else { x }, y + 1),
        3 => (if even { x } else { x + 1 }, y + 1),
        _ => unreachable!(),
    }
}

fn turn((x, y): (i32, i32), (px, py): (i32, i32), cw: bool) -> (i32, i32) {
    let q = |x: i32, y: i32| x - (y - y.rem_euclid(2)) / 2;
    let (cx, cz) = (q(x, y) - q(px, py), y - py);
    let cy = -cx - cz;
    let (nx, nz) = if cw { (-cz, -cy) } else { (-cy, -cx) };
    let ny = py + nz;
    (q(px, py) + nx + (ny - ny.rem_euclid(2)) / 2, ny)
}

impl Naive {
    fn new(problem: &Problem, seed: u32) -> Naive {
        let mut s = seed;
        let order = (0..problem.source_length)
            .map(|_| {
                let v = (s >> 16) & 0x7fff;
                s = s.wrapping_mul(1103515245).wrapping_add(12345);
                v as usize % problem.units.len()
            })
            .collect();
        Naive {
            width: problem.width as i32,
            height: problem.height as i32,
            filled: problem.filled.iter().map(|c| (c.x, c.y)).collect(),
            units: problem
                .units
                .iter()
                .map(|u| {
                    (
                        u.members.iter().map(|c| (c.x, c.y)).collect(),
                        (u.pivot.x, u.pivot.y),
                    )
                })
                .collect(),
            order,
        }
    }

    fn valid(&self, members: &[(i32, i32)]) -> bool {
        members.iter().all(|&(x, y)| {
            x >= 0 && x < self.width && y >= 0 && y < self.height && !self.filled.contains(&(x, y))
        })
    }

    fn spawn(&self, k: usize) -> Option<Placed> {
        let (members, pivot) = &self.units[*self.order.get(k)?];
        let mx = members.iter().map(|m| m.0).min().unwrap();
        let my = members.iter().map(|m| m.1).min().unwrap();
        let w = members.iter().map(|m| m.0 - mx).max().unwrap() + 1;
        let shift = (self.width - w) / 2;
        let members: Vec<_> = members
            .iter()
            .map(|&(x, y)| (x - mx + shift, y - my))
            .collect();
        Some((members, (pivot.0 - mx + shift, pivot.1 - my)))
    }

    /// (moves, error text, move score) for the command indices `commands` (0..6).
    fn play(&mut self, commands: &[u8]) -> (u64, String, u64) {
        let (mut moves, mut score, mut prev) = (0u64, 0u64, 0u64);
        let key = |m: &[(i32, i32)], p: (i32, i32)| {
            let mut m = m.to_vec();
            m.sort();
            (m, p)
        };
        let mut locked = 0;
        let mut current = self.spawn(0).filter(|(m, _)| self.valid(m));
        let mut history: Vec<Placed> = current.iter().map(|(m, p)| key(m, *p)).collect();
        for (i, &c) in commands.iter().enumerate() {
            let Some((members, pivot)) = current.clone() else {
                return (moves, "command after end".into(), 0);
            };
            let (next_m, next_p): (Vec<_>, _) = if c < 4 {
                (
                    members.iter().map(|&m| step_cell(m, c)).collect(),
                    step_cell(pivot, c),
                )
            } else {
                (
                    members.iter().map(|&m| turn(m, pivot, c == 4)).collect(),
                    pivot,
                )
            };
            let last = i + 1 == commands.len();
            if self.valid(&next_m) {
                let k = key(&next_m, next_p);
                if c == 2 || c == 3 {
                    history = vec![k];
                } else if history.contains(&k) {
                    let name = ["MoveLeft", "MoveRight", "", "", "RotClock", "RotAnti"][c as usize];
                    return if last {
                        (moves, format!("command caused error: {name}"), 0)
                    } else {
                        (moves, "command after end".into(), 0)
                    };
                } else {
                    history.push(k);
                }
                moves += 1;
                current = Some((next_m, next_p));
                continue;
            }
            moves += 1;
            self.filled.extend(members.iter().copied());
            let full: Vec<i32> = (0..self.height)
                .filter(|&y| (0..self.width).all(|x| self.filled.contains(&(x, y))))
                .collect();
            let lines = full.len() as u64;
            self.filled = self
                .filled
                .iter()
                .filter(|c| !full.contains(&c.1))
                .map(|&(x, y)| (x, y + full.iter().filter(|&&r| r > y).count() as i32))
                .collect();
            let points = members.len() as u64 + 100 * (1 + lines) * lines / 2;
            score += points
                + if prev > 1 {
                    (prev - 1) * points / 10
                } else {
                    0
                };
            prev = lines;
            locked += 1;
            current = self.spawn(locked).filter(|(m, _)| self.valid(m));
            history = current.iter().map(|(m, p)| key(m, *p)).collect();
            if current.is_none() && !last {
                return (moves, "command after end".into(), 0);
            }
        }
        (moves, "no error".into(), score)
    }
}

#[test]
fn random_play_matches_a_naive_simulator() {
    let mut rng = Rng::new(4242);
    let letters = b"pbaldk";
    let none = PhraseSet::new(vec!["#".into()]).unwrap();
    let mut errors = 0;
    let mut no_spawn = 0;
    for round in 0..600 {
        let i = round % 25;
        let problem = Problem::parse(problem_text(i).as_bytes(), "p").unwrap();
        let seed = problem.source_seeds[rng.range(0..problem.source_seeds.len())];
        let setup = Setup::new(problem.clone());
        // Mostly error-free games to the end (commands drawn at random, skipping the ones
        // the engine says would repeat a position), and some fully random strings.
        let mut commands: Vec<u8> = Vec::new();
        if round % 4 == 0 {
            let len = rng.range(1..60);
            commands.extend((0..len).map(|_| rng.range(0..6) as u8));
        } else {
            let mut game = Game::new(&setup, seed);
            let mut misses = 0;
            while !game.is_over() && commands.len() < 3000 && misses < 50 {
                let c = match rng.range(0..10) {
                    0..=3 => 2 + rng.range(0..2),
                    4..=6 => rng.range(0..2),
                    _ => 4 + rng.range(0..2),
                };
                if game.probe(Command::ALL[c]) == Probe::Repeats {
                    misses += 1;
                    continue;
                }
                game.step(Command::ALL[c]);
                commands.push(c as u8);
            }
            if rng.chance(0.2) {
                commands.push(rng.range(0..6) as u8);
            }
        }
        let text: String = commands
            .iter()
            .map(|&c| letters[c as usize] as char)
            .collect();
        let got = evaluate(&setup, seed as u64, &text, &none).unwrap();
        let want = Naive::new(&problem, seed).play(&commands);
        assert_eq!(
            (got.moves, got.error_text(), got.move_score),
            want,
            "problem {i} seed {seed}: {text}"
        );
        errors += usize::from(got.error.is_some());
        no_spawn += usize::from(got.status == Status::NoSpawn);
    }
    assert!(errors > 60 && errors < 300, "{errors}");
    assert!(no_spawn > 100, "{no_spawn}");
}
