//! Criterion timings of the cephalopod engine on the CodinGame and generated cases (solve only,
//! one engine reused, as `podium bench` does), and the AVX2/portable ratio from one run.

use criterion::{black_box, BenchmarkId, Criterion};
use podium::cephalopod::{self, cases, engine, memory, Engine, Kernel, KernelChoice};
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

/// Interleaves the two kernels on the same cases and prints the ratio of their medians.
fn kernel_ratio() {
    let Ok(avx2) = cephalopod::select(KernelChoice::Avx2) else {
        println!("kernel ratio: no AVX2/BMI2 on this CPU, nothing to compare");
        return;
    };
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    for id in ["cg11", "gen09_play"] {
        let case = cases::find(id).unwrap();
        let mut times = [Vec::new(), Vec::new()];
        for _ in 0..7 {
            for (i, kernel) in [avx2, Kernel::Portable].into_iter().enumerate() {
                let start = Instant::now();
                assert_eq!(
                    engine::run(&mut engine, kernel, case.board(), case.problem.depth, None),
                    case.expected
                );
                times[i].push(start.elapsed());
            }
        }
        let [a, p] = times.map(|mut t| {
            t.sort();
            t[t.len() / 2]
        });
        println!(
            "kernel ratio {id}: avx2 {:.2} ms, portable {:.2} ms, portable/avx2 = {:.2}",
            a.as_secs_f64() * 1e3,
            p.as_secs_f64() * 1e3,
            p.as_secs_f64() / a.as_secs_f64()
        );
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_cases(&mut criterion);
    criterion.final_summary();
    kernel_ratio();
}
