//! Bananagrams timings with criterion: move generation on a mid-game grid, solving 21-tile
//! hands and all 144 tiles, and the embedded dictionary against compiling ENABLE from text.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use podium::bananagrams::board::Board;
use podium::bananagrams::dict::Lexicon;
use podium::bananagrams::letters::Tiles;
use podium::bananagrams::movegen::{generate, MoveList, Options};
use podium::bananagrams::solver::{extend, solve, Verdict};
use podium::core::budget::Budget;
use podium::core::rng::Rng;
use std::time::Instant;

const ENABLE_TEXT: &[u8] = include_bytes!("../data/bananagrams/enable.txt");

fn hands(count: usize, seed: u64) -> Vec<Tiles> {
    let mut rng = Rng::new(seed);
    let bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
    (0..count)
        .map(|_| {
            let mut shuffled = bunch.clone();
            rng.shuffle(&mut shuffled);
            shuffled[..21].iter().fold(Tiles::EMPTY, |mut t, &l| {
                t.add(l);
                t
            })
        })
        .collect()
}

fn mid_game() -> (Board, Tiles) {
    let lexicon = Lexicon::enable();
    let hand = Tiles::parse("PERAMBULATORYFANNAGS").unwrap();
    let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(10_000)) else {
        panic!("the mid-game grid is solvable");
    };
    (*board, Tiles::parse("RETAINSLOWQ").unwrap())
}

fn bench(c: &mut Criterion) {
    let lexicon = Lexicon::enable();
    let (board, hand) = mid_game();
    let mut list = MoveList::default();
    c.bench_function("movegen 20-tile grid, 11-letter hand", |b| {
        b.iter(|| {
            list.clear();
            generate(
                &lexicon.dawg,
                black_box(&board),
                &hand,
                Options::default(),
                &mut list,
            );
            list.len()
        })
    });
    let set = hands(50, 1);
    c.bench_function("solve 50 random 21-tile hands", |b| {
        b.iter(|| {
            set.iter()
                .filter(|h| {
                    matches!(
                        solve(&lexicon.dawg, h, Budget::nodes(20_000)),
                        Verdict::Solved(_)
                    )
                })
                .count()
        })
    });
    // A 2-player game's peels as podium's player sees them: 21 tiles solved, then 40 tiles
    // added one at a time.
    let mut rng = Rng::new(3);
    let mut bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
    rng.shuffle(&mut bunch);
    let start = bunch[..21].iter().fold(Tiles::EMPTY, |mut t, &l| {
        t.add(l);
        t
    });
    let Verdict::Solved(first) = solve(&lexicon.dawg, &start, Budget::nodes(20_000)) else {
        panic!("the opening hand is solvable");
    };
    let peels: Vec<u8> = bunch[21..61].to_vec();
    let mut group = c.benchmark_group("slow");
    group.sample_size(10);
    let mut board = (*first).clone();
    for &tile in &peels {
        let mut new = Tiles::EMPTY;
        new.add(tile);
        board = extend(&lexicon.dawg, &board, &new, Budget::nodes(2_000))
            .expect("every peel fits the grid");
    }
    assert_eq!(board.tile_count(), 61);
    group.bench_function("extend a grid by 40 peels", |b| {
        b.iter(|| {
            let mut board = (*first).clone();
            let mut stuck = 0;
            for &tile in &peels {
                let mut new = Tiles::EMPTY;
                new.add(tile);
                match extend(&lexicon.dawg, &board, &new, Budget::nodes(2_000)) {
                    Some(grown) => board = grown,
                    None => stuck += 1,
                }
            }
            stuck
        })
    });
    group.bench_function("solve all 144 tiles", |b| {
        b.iter(|| solve(&lexicon.dawg, &Tiles::full_bunch(), Budget::nodes(5_000)))
    });
    group.finish();
    // The reference: what a run would pay to build the dictionary from the word list instead
    // of mapping the build-time image (one run of each, ratio printed).
    let started = Instant::now();
    let compiled = Lexicon::from_list(ENABLE_TEXT).expect("ENABLE compiles");
    let compile = started.elapsed();
    let started = Instant::now();
    let embedded = black_box(Lexicon::enable());
    let map = started.elapsed();
    assert_eq!(compiled.dawg.state_count(), embedded.dawg.state_count());
    println!(
        "dictionary: compile ENABLE from text {:.1} ms, embedded image {:.3} ms, ratio {:.0}x",
        compile.as_secs_f64() * 1e3,
        map.as_secs_f64() * 1e3,
        compile.as_secs_f64() / map.as_secs_f64().max(1e-9)
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
