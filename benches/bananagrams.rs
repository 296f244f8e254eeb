//! Bananagrams timings with criterion: move generation on a mid-game grid, solving 21-tile
//! hands and all 144 tiles, and the embedded dictionary against compiling ENABLE from text.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use podium::bananagrams::board::Board;
use podium::bananagrams::dict::Lexicon;
use podium::bananagrams::letters::Tiles;
use podium::bananagrams::movegen::{generate, MoveList, Options};
use podium::bananagrams::solver::{solve, Budget, Verdict};
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
    let mut group = c.benchmark_group("slow");
    group.sample_size(10);
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
