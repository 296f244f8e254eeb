//! The cephalopod engine against the bundled answers (both kernels), an independent DFS over
//! move sequences, the brute-force verifier, and a fuzzed parser. Heavy: run with --release.

use podium::cephalopod::hybrid::Hybrid;
use podium::cephalopod::{
    self, cases, engine, hybrid, memory, reference, Board, Engine, Kernel, KernelChoice, Problem,
};
use podium::core::rng::Rng;

fn kernels() -> Vec<Kernel> {
    let mut out = vec![Kernel::Portable];
    for (choice, name) in [
        (KernelChoice::Avx2, "AVX2/BMI2"),
        (KernelChoice::Avx512, "AVX-512"),
    ] {
        match cephalopod::select(choice) {
            Ok(k) => out.push(k),
            Err(_) => eprintln!("note: this CPU has no {name}: that kernel is not tested"),
        }
    }
    out
}

#[test]
fn every_bundled_case_is_exact_with_every_kernel() {
    let all = cases::all();
    assert_eq!(
        all.len(),
        88,
        "12 CodinGame + 40 empty + 4 small + 32 generated"
    );
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    let mut pips = cephalopod::pips::PipEngine::new();
    let other = memory::arena();
    let mut hybrid = Hybrid::new(Engine::new(memory::buffers(&other)));
    for kernel in kernels() {
        for case in &all {
            let (board, depth) = (case.board(), case.problem.depth);
            let layers = engine::run(&mut engine, kernel, board, depth, None);
            let by_pips = cephalopod::pips::run(&mut pips, kernel, board, depth);
            let by_default = hybrid::run(&mut hybrid, kernel, board, depth);
            let what = format!("{} with the {} kernel", case.id, kernel.name());
            assert_eq!(layers, case.expected, "{what}, layers");
            assert_eq!(by_pips, case.expected, "{what}, pips");
            assert_eq!(by_default, case.expected, "{what}, the default (hybrid)");
        }
    }
}

/// Sum of final-board hashes over every move sequence, by plain recursion over boards.
fn dfs(b: &Board, depth: u32) -> u64 {
    if depth == 0 || b.cells.iter().all(|&c| c != 0) {
        return b.hash() as u64;
    }
    let mut total = 0;
    for cell in (0..9).filter(|&c| b.cells[c] == 0) {
        let (r, c) = (cell / 3, cell % 3);
        let near: Vec<usize> = [
            (r > 0, cell.wrapping_sub(3)),
            (r < 2, cell + 3),
            (c > 0, cell.wrapping_sub(1)),
            (c < 2, cell + 1),
        ]
        .iter()
        .filter(|&&(ok, n)| ok && b.cells[n] != 0)
        .map(|&(_, n)| n)
        .collect();
        let mut captured = false;
        for mask in 0u32..1 << near.len() {
            let chosen: Vec<usize> = (0..near.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| near[i])
                .collect();
            let sum: u8 = chosen.iter().map(|&n| b.cells[n]).sum();
            if chosen.len() > 1 && sum <= 6 {
                captured = true;
                let mut child = *b;
                chosen.iter().for_each(|&n| child.cells[n] = 0);
                child.cells[cell] = sum;
                total += dfs(&child, depth - 1);
            }
        }
        if !captured {
            let mut child = *b;
            child.cells[cell] = 1;
            total += dfs(&child, depth - 1);
        }
    }
    total
}

fn random_board(rng: &mut Rng) -> Board {
    let empty = rng.f64();
    Board {
        cells: std::array::from_fn(|_| {
            if rng.chance(empty) {
                0
            } else {
                1 + rng.below(6) as u8
            }
        }),
    }
}

#[test]
fn engine_agrees_with_plain_dfs_on_random_boards() {
    let mut rng = Rng::new(2025);
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    for i in 0..300 {
        let board = random_board(&mut rng);
        let depth = (i % 7) as u32;
        let want = (dfs(&board, depth) % (1 << 30)) as u32;
        for kernel in kernels() {
            let got = engine::run(&mut engine, kernel, &board, depth, None);
            assert_eq!(
                got,
                want,
                "board {:?} depth {depth} kernel {}",
                board.cells,
                kernel.name()
            );
        }
    }
}

#[test]
fn verifier_agrees_with_the_engine_and_the_bundled_answers() {
    let mut rng = Rng::new(7);
    for i in 0..100 {
        let board = random_board(&mut rng);
        let depth = 1 + (i % 10) as u32;
        let problem = Problem { depth, board };
        assert_eq!(
            reference::answer(&board, depth),
            cephalopod::solve(&problem, Kernel::Portable)
        );
    }
    for id in ["cg01", "cg05", "cg06", "cg11", "empty12", "duck04"] {
        let case = cases::find(id).unwrap();
        assert_eq!(
            reference::answer(case.board(), case.problem.depth),
            case.expected,
            "{id}"
        );
    }
}

#[test]
fn depth_zero_and_full_boards_give_the_starting_hash() {
    let full = Board {
        cells: [1, 2, 3, 4, 5, 6, 1, 2, 3],
    };
    let partial = Board {
        cells: [0, 6, 0, 2, 2, 2, 1, 6, 1],
    };
    for kernel in kernels() {
        for depth in [0, 1, 7, 40] {
            assert_eq!(
                cephalopod::solve(&Problem { depth, board: full }, kernel),
                123456123
            );
        }
        assert_eq!(
            cephalopod::solve(
                &Problem {
                    depth: 0,
                    board: partial
                },
                kernel
            ),
            60222161
        );
        assert_eq!(
            cephalopod::solve(
                &Problem {
                    depth: 0,
                    board: Board { cells: [0; 9] }
                },
                kernel
            ),
            0
        );
    }
}

/// One engine, many solves: the table's generation tags wrap after 255 layers, which must
/// clear it rather than let old slots look occupied.
#[test]
fn one_engine_solves_many_problems_across_generation_wraps() {
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    let kernel = cephalopod::select(KernelChoice::Auto).unwrap();
    let deep = cases::find("cg10").unwrap();
    let small = cases::find("cg06").unwrap();
    for _ in 0..8 {
        for case in [&deep, &small] {
            assert_eq!(
                engine::run(&mut engine, kernel, case.board(), case.problem.depth, None),
                case.expected
            );
        }
    }
}

#[test]
fn stats_count_layers_and_children() {
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    let case = cases::find("cg11").unwrap();
    let mut layers = Vec::new();
    let answer = engine::run(
        &mut engine,
        Kernel::Portable,
        case.board(),
        case.problem.depth,
        Some(&mut layers),
    );
    assert_eq!(answer, case.expected);
    assert_eq!(layers.len(), 20);
    assert_eq!(layers[0].states, 1);
    for pair in layers.windows(2) {
        assert!(pair[1].states as u64 <= pair[0].children - pair[0].terminal);
    }
}

#[test]
fn parser_never_panics_and_errors_are_one_line() {
    let mut rng = Rng::new(99);
    let alphabet: &[u8] = b"0123456789 \n\t-+x.\r\xff7";
    let valid = b"20\n0 6 0\n2 2 2\n1 6 1\n";
    for i in 0..50_000 {
        let bytes: Vec<u8> = if i % 2 == 0 {
            (0..rng.below(40))
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect()
        } else {
            let mut v = valid.to_vec();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(v.len() as u64) as usize;
                match rng.below(3) {
                    0 => v[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                    1 => {
                        v.remove(at);
                    }
                    _ => v.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
                }
            }
            v
        };
        match Problem::parse(&bytes) {
            Ok(p) => {
                assert!(p.board.cells.iter().all(|&c| c <= 6));
                let text = std::str::from_utf8(&bytes).unwrap();
                let numbers: Vec<i64> = text
                    .split_whitespace()
                    .map(|t| t.parse().unwrap())
                    .collect();
                assert_eq!(numbers.len(), 10);
                assert_eq!(numbers[0], p.depth as i64);
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.starts_with("cephalopod input: "), "{msg}");
                assert!(!msg.contains('\n') && msg.len() < 200, "{msg:?}");
            }
        }
    }
}

/// `cephalopod_judge`: the answer from a file and from stdin, and bad input as one line, exit 2.
#[test]
fn judge_binary_answers_from_a_file_and_stdin() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let judge = env!("CARGO_BIN_EXE_cephalopod_judge");
    let dir = std::env::temp_dir().join(format!("podium-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cg03.txt");
    std::fs::write(&file, "1\n5 5 5\n0 0 5\n5 5 5\n").unwrap();
    let out = Command::new(judge).arg(&file).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "36379286\n");
    let mut child = Command::new(judge)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"20\n0 6 0\n2 2 2\n1 6 1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "322444322\n");
    std::fs::write(&file, "1\n5 5 5\n0 0 7\n5 5 5\n").unwrap();
    let out = Command::new(judge).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("cephalopod_judge: "), "{err}");
    let out = Command::new(judge).args(["a", "b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Depth beyond 40 (#19 must-have 5): every game from the empty board ends by depth 61, so the
/// answer there is the answer at any greater depth, and every engine gives it.
#[test]
fn the_empty_board_past_depth_40_on_every_engine() {
    let empty = Board { cells: [0; 9] };
    let kernel = cephalopod::select(KernelChoice::Auto).unwrap();
    let mut pips = cephalopod::pips::PipEngine::new();
    let at_61 = cephalopod::pips::run(&mut pips, kernel, &empty, 61);
    assert_eq!(cephalopod::pips::run(&mut pips, kernel, &empty, 75), at_61);
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    assert_eq!(engine::run(&mut engine, kernel, &empty, 61, None), at_61);
    let other = memory::arena();
    let mut hybrid = Hybrid::new(Engine::new(memory::buffers(&other)));
    assert_eq!(hybrid::run(&mut hybrid, kernel, &empty, 75), at_61);
}
