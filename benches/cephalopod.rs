//! Criterion timings of the cephalopod engine on the CodinGame and generated cases (solve only,
//! one engine reused, as `podium bench` does), and every kernel against AVX2 in one run.

use criterion::{black_box, BenchmarkId, Criterion};
use podium::cephalopod::{self, cases, engine, memory, pips, Engine, Kernel, KernelChoice};
use std::time::{Duration, Instant};

fn bench_cases(c: &mut Criterion) {
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    let kernel = cephalopod::select(KernelChoice::Auto).expect("a kernel");
    let all = cases::all();
    let codingame: Vec<_> = all.iter().filter(|c| c.id.starts_with("cg")).collect();

    let mut group = c.benchmark_group(format!("cephalopod/{}", kernel.name()));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("cg01..cg12", |b| {
        b.iter(|| {
            for case in &codingame {
                assert_eq!(
                    engine::run(
                        &mut engine,
                        kernel,
                        case.board(),
                        black_box(case.problem.depth),
                        None
                    ),
                    case.expected
                );
            }
        })
    });
    for case in all
        .iter()
        .filter(|c| c.id.starts_with("cg") || c.id.starts_with("gen") || c.id == "empty40")
    {
        group.bench_with_input(BenchmarkId::from_parameter(&case.id), case, |b, case| {
            b.iter(|| {
                engine::run(
                    &mut engine,
                    kernel,
                    case.board(),
                    black_box(case.problem.depth),
                    None,
                )
            })
        });
    }
    group.finish();
}

/// Interleaves every kernel this CPU has, on both engines, on the same cases, and prints each
/// one's median against AVX2's (valgrind cannot run AVX-512, so it is timed here).
fn kernel_ratio() {
    let kernels: Vec<Kernel> = [
        KernelChoice::Avx2,
        KernelChoice::Avx512,
        KernelChoice::Portable,
    ]
    .into_iter()
    .filter_map(|c| cephalopod::select(c).ok())
    .collect();
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    let mut pips = pips::PipEngine::new();
    for id in ["cg11", "gen09_play"] {
        let case = cases::find(id).unwrap();
        let (board, depth) = (case.board(), case.problem.depth);
        let mut times = vec![[Vec::new(), Vec::new()]; kernels.len()];
        for _ in 0..7 {
            for (i, &kernel) in kernels.iter().enumerate() {
                let start = Instant::now();
                assert_eq!(
                    engine::run(&mut engine, kernel, board, depth, None),
                    case.expected
                );
                times[i][0].push(start.elapsed());
                let start = Instant::now();
                assert_eq!(pips::run(&mut pips, kernel, board, depth), case.expected);
                times[i][1].push(start.elapsed());
            }
        }
        let medians: Vec<[Duration; 2]> = times
            .into_iter()
            .map(|engines| {
                engines.map(|mut t| {
                    t.sort();
                    t[t.len() / 2]
                })
            })
            .collect();
        for (kernel, m) in kernels.iter().zip(&medians) {
            println!(
                "kernel ratio {id} {}: layers {:.2} ms ({:.2}x the first), pips {:.2} ms ({:.2}x)",
                kernel.name(),
                m[0].as_secs_f64() * 1e3,
                m[0].as_secs_f64() / medians[0][0].as_secs_f64(),
                m[1].as_secs_f64() * 1e3,
                m[1].as_secs_f64() / medians[0][1].as_secs_f64(),
            );
        }
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_cases(&mut criterion);
    criterion.final_summary();
    kernel_ratio();
}
