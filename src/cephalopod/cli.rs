//! `podium cephalopod`, `verify cephalopod` and the cephalopod section of `podium bench`: the
//! clap arguments and their runners.

use super::hybrid::{Hybrid, RULE};
use super::pips::PipEngine;
use super::{cases, memory, reference, Engine, Kernel, KernelChoice, LayerStats, Problem};
use crate::core::cli::{CliError, EXIT_INVALID};
use crate::core::counters::{peak_rss_bytes, CounterReport, CounterSet};
use crate::core::report::{Record, Report};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `podium cephalopod`: the sum of final-board hashes after DEPTH turns (CodinGame input).
#[derive(Args, Debug)]
pub struct CephalopodArgs {
    /// Input file (depth, then 3 lines of 3 cells 0..6); stdin when absent.
    pub file: Option<PathBuf>,
    /// Also print per-depth state counts, time per phase, peak memory and counters.
    #[arg(long)]
    pub stats: bool,
    /// The lane kernel (auto: the fastest this CPU has, detected once).
    #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
    pub kernel: KernelArg,
    /// Fault in the memory of the widest public case before reading the input, as a
    /// CodinGame submission would (costs ~3 ms, so it only pays when the clock starts
    /// at the input).
    #[arg(long)]
    pub prefault: bool,
    /// With --stats: also draw the states and the time per depth as an SVG picture into FILE
    /// (the layered engine's layers; under auto, those before it hands over).
    #[arg(long, value_name = "FILE", requires = "stats")]
    pub svg: Option<PathBuf>,
    /// The search: auto (the layered BFS, handing its layer to the pip engine once the game
    /// is big), the layered BFS alone (one layer per depth; --stats shows them), or every
    /// distinct board once in pip order alone.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
}

/// Which search computes the answer (both exact; see src/cephalopod/pips.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    Auto,
    Layers,
    Pips,
}

/// Which lane kernel runs: the fastest this CPU has, or one named.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KernelArg {
    Auto,
    Avx512,
    Avx2,
    Portable,
}

impl From<KernelArg> for KernelChoice {
    fn from(k: KernelArg) -> KernelChoice {
        match k {
            KernelArg::Auto => KernelChoice::Auto,
            KernelArg::Avx512 => KernelChoice::Avx512,
            KernelArg::Avx2 => KernelChoice::Avx2,
            KernelArg::Portable => KernelChoice::Portable,
        }
    }
}

pub fn run(args: CephalopodArgs) -> Result<(), CliError> {
    match args.engine {
        EngineArg::Pips if args.svg.is_some() => Err(CliError::input(
            "cephalopod --svg draws the layered engine's layers: use --engine layers or auto",
        )),
        EngineArg::Pips => solve_file_by_pips(args.file, args.stats, args.kernel.into()),
        EngineArg::Auto | EngineArg::Layers => solve_file(
            args.file,
            args.stats.then_some(args.svg.as_deref()),
            args.prefault,
            args.kernel.into(),
            args.engine == EngineArg::Auto,
        ),
    }
}

/// The pip-ordered engine: its tables grow with the case, so nothing is reserved up front.
fn solve_file_by_pips(
    file: Option<PathBuf>,
    stats: bool,
    choice: KernelChoice,
) -> Result<(), CliError> {
    let kernel = super::select(choice).map_err(CliError::input)?;
    let clock = Instant::now();
    let problem = Problem::parse(&read_input(file.as_ref())?).map_err(CliError::input)?;
    let read = clock.elapsed();
    let mut engine = PipEngine::new();
    let answer = super::pips::run(&mut engine, kernel, &problem.board, problem.depth);
    let solved = clock.elapsed();
    writeln!(std::io::stdout(), "{answer}")?;
    if stats {
        eprintln!(
            "engine: pips, kernel: {} (cpu: {})",
            kernel.name(),
            crate::core::cpu::features()
        );
        let s = engine.stats;
        eprintln!(
            "levels: {}, boards: {} ({} in the widest level), edges: {}, counts rows: {}",
            s.levels, s.boards, s.widest, s.edges, s.rows
        );
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        eprintln!(
            "time: read+parse {:.3} ms, solve {:.3} ms, total {:.3} ms; peak RSS: {:.1} MiB",
            ms(read),
            ms(solved - read),
            ms(solved),
            peak_rss_bytes() as f64 / (1 << 20) as f64
        );
    }
    Ok(())
}

pub(crate) fn read_input(file: Option<&PathBuf>) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    match file {
        Some(path) => {
            bytes = std::fs::read(path)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
        }
    }
    Ok(bytes)
}

/// `stats`: none, or the statistics on stderr and the picture's file if one is asked for.
/// `auto`: the layered BFS may hand over to the pip engine (`hybrid`), else it runs alone.
fn solve_file(
    file: Option<PathBuf>,
    stats: Option<Option<&std::path::Path>>,
    prefault: bool,
    choice: KernelChoice,
    auto: bool,
) -> Result<(), CliError> {
    let picture = stats.flatten();
    let stats = stats.is_some();
    let mut out = std::io::stdout();
    let kernel = super::select(choice).map_err(CliError::input)?;
    let clock = Instant::now();
    let arena = memory::arena();
    let mut buffers = memory::buffers(&arena);
    // Pre-faulting is for a clock that starts at the input: before it, whatever the case.
    if prefault {
        memory::prefault_for(&mut buffers, super::engine::PREFAULT_STATES);
    }
    let reserved = clock.elapsed();
    let problem = Problem::parse(&read_input(file.as_ref())?).map_err(CliError::input)?;
    // Under auto the buffers start in small pages (huge ones cost a tiny game 2 MiB of zeroing
    // per buffer touched) and take huge pages past their first 512 KiB, where a game staying on
    // layers reads its table and rows at random (the pip engine hints its own big blocks).
    if !prefault && (auto || memory::is_small(problem.depth, problem.board.empty_cells())) {
        memory::small_pages_first(&arena, &buffers);
    }
    let read = clock.elapsed();
    let mut layers = Vec::new();
    let mut hybrid = Hybrid::new(Engine::new(buffers));
    let counters = stats.then(CounterSet::start);
    let parsed = clock.elapsed();
    let (board, depth) = (&problem.board, problem.depth);
    let layer_stats = stats.then_some(&mut layers);
    let answer = if auto {
        super::hybrid::run_with_rule(&mut hybrid, kernel, board, depth, RULE, layer_stats)
    } else {
        super::engine::run(&mut hybrid.layers, kernel, board, depth, layer_stats)
    };
    let solved = clock.elapsed();
    writeln!(out, "{answer}")?;
    if let Some(counters) = counters {
        if auto {
            print_handoff(&hybrid);
        }
        print_stats(
            kernel,
            &layers,
            [reserved, read, parsed, solved],
            counters.stop(),
        );
    }
    if let Some(path) = picture {
        let case = file
            .as_ref()
            .map_or_else(|| "stdin".to_string(), |f| f.display().to_string());
        let title = format!(
            "podium cephalopod {case}: depth {}, answer {answer}",
            problem.depth
        );
        std::fs::write(path, super::svg::draw(&layers, &title)).map_err(|e| {
            CliError::output(format!("cephalopod: cannot write {}: {e}", path.display()))
        })?;
    }
    Ok(())
}

/// Which engines an `auto` run used.
fn print_handoff(hybrid: &Hybrid) {
    match hybrid.last.depth {
        Some(depth) => {
            let s = hybrid.pips.stats;
            eprintln!(
                "engine: auto: layers up to depth {depth}, then pips (levels: {}, boards: {}, edges: {}, counts rows: {})",
                s.levels, s.boards, s.edges, s.rows
            );
        }
        None => eprintln!("engine: auto: layers only (the game stayed small)"),
    }
}

fn print_stats(
    kernel: Kernel,
    layers: &[LayerStats],
    [reserved, read, parsed, solved]: [Duration; 4],
    counters: CounterReport,
) {
    eprintln!(
        "kernel: {} (cpu: {})",
        kernel.name(),
        crate::core::cpu::features()
    );
    eprintln!(
        "{:>5} {:>9} {:>11} {:>9} {:>9}",
        "depth", "states", "children", "terminal", "ms"
    );
    for l in layers {
        eprintln!(
            "{:>5} {:>9} {:>11} {:>9} {:>9.3}",
            l.depth,
            l.states,
            l.children,
            l.terminal,
            l.nanos as f64 / 1e6
        );
    }
    let total_states: usize = layers.iter().map(|l| l.states).sum();
    let children: u64 = layers.iter().map(|l| l.children).sum();
    let widest = layers.iter().map(|l| l.states).max().unwrap_or(0);
    eprintln!("states: {total_states} expanded over all depths, {widest} at the widest; {children} children");
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "time: reserve {:.3} ms, read+parse {:.3} ms, open counters {:.3} ms, solve {:.3} ms, total {:.3} ms",
        ms(reserved),
        ms(read - reserved),
        ms(parsed - read),
        ms(solved - parsed),
        ms(solved)
    );
    eprintln!(
        "peak RSS: {:.1} MiB",
        peak_rss_bytes() as f64 / (1 << 20) as f64
    );
    eprintln!("counters during the solve:\n{counters}");
}

/// The bundled cases, each the median of `runs` solves, against their known answers.
/// Under `--json` (a `report` that writes) one record per case and engine replaces the table.
pub fn bench(
    filter: Option<&str>,
    shard: Option<crate::core::shard::Shard>,
    runs: usize,
    choice: KernelChoice,
    report: &mut Report,
) -> Result<(), CliError> {
    let mut out = crate::core::report::table_out(report.is_json());
    let kernel = super::select(choice).map_err(CliError::input)?;
    let all = cases::all();
    let selected: Vec<_> = all
        .iter()
        .filter(|c| filter.is_none_or(|f| c.id.contains(f)))
        .filter(|c| crate::core::shard::takes(shard, &c.id))
        .collect();
    if selected.is_empty() && shard.is_some() {
        return Ok(());
    }
    if selected.is_empty() {
        return Err(CliError::input(format!(
            "bench: no cephalopod case id contains '{}'",
            crate::core::cli::quote(filter.unwrap_or_default())
        )));
    }
    let arena = memory::arena();
    let mut buffers = memory::buffers(&arena);
    memory::prefault_for(&mut buffers, super::engine::PREFAULT_STATES);
    let mut layered = Engine::new(buffers);
    let mut pips = PipEngine::new();
    writeln!(
        out,
        "cephalopod ({} kernel, median of {runs} runs; both engines, alternating, in one run)",
        kernel.name()
    )?;
    writeln!(
        out,
        "{:<14} {:>5} {:>11} {:>11} {:>4} {:>10} {:>10} {:>7}",
        "case", "depth", "answer", "expected", "ok", "pips ms", "layers ms", "ratio"
    )?;
    let mut failures = 0;
    let mut total = [Duration::ZERO; 2];
    for case in selected {
        let mut times = [Vec::with_capacity(runs), Vec::with_capacity(runs)];
        let mut answers = [0; 2];
        for _ in 0..runs {
            let start = Instant::now();
            answers[0] = super::pips::run(&mut pips, kernel, case.board(), case.problem.depth);
            times[0].push(start.elapsed());
            let start = Instant::now();
            answers[1] =
                super::engine::run(&mut layered, kernel, case.board(), case.problem.depth, None);
            times[1].push(start.elapsed());
        }
        let median = |t: &mut Vec<Duration>| {
            t.sort();
            t[runs / 2]
        };
        let medians = [median(&mut times[0]), median(&mut times[1])];
        total[0] += medians[0];
        total[1] += medians[1];
        let ok = answers == [case.expected; 2];
        for (engine, (answer, runs)) in ["", " --engine pips"]
            .iter()
            .zip([(answers[1], &times[1]), (answers[0], &times[0])])
        {
            report.record(&Record {
                problem: "cephalopod",
                case: format!("{}{engine}", case.id),
                answer: Some(answer.into()),
                references: vec![("expected", f64::from(case.expected))],
                ok: Some(answer == case.expected),
                runs: runs.clone(),
                ..Record::default()
            })?;
        }
        failures += usize::from(!ok);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        writeln!(
            out,
            "{:<14} {:>5} {:>11} {:>11} {:>4} {:>10.3} {:>10.3} {:>7.2}",
            case.id,
            case.problem.depth,
            answers[0],
            case.expected,
            if ok { "ok" } else { "FAIL" },
            ms(medians[0]),
            ms(medians[1]),
            medians[1].as_secs_f64() / medians[0].as_secs_f64().max(1e-9)
        )?;
    }
    writeln!(
        out,
        "total {:.3} ms pips, {:.3} ms layers, layers/pips {:.2} (sums of medians, solve only, in-process)",
        total[0].as_secs_f64() * 1e3,
        total[1].as_secs_f64() * 1e3,
        total[1].as_secs_f64() / total[0].as_secs_f64().max(1e-9)
    )?;
    if failures > 0 {
        return Err(CliError::new(
            EXIT_INVALID,
            format!("cephalopod: {failures} wrong answers"),
        ));
    }
    Ok(())
}

/// Recomputes an answer by brute force over boards (the solver's, without `answer`).
pub fn verify(file: Option<PathBuf>, answer: Option<u32>, json: bool) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    let problem = Problem::parse(&read_input(file.as_ref())?).map_err(CliError::input)?;
    let claimed = match answer {
        Some(a) => a,
        None => super::solve(
            &problem,
            super::select(KernelChoice::Auto).map_err(CliError::input)?,
        ),
    };
    let truth = reference::answer(&problem.board, problem.depth);
    let checked = if claimed == truth {
        Ok(format!("ok: {truth}"))
    } else {
        Err(format!(
            "cephalopod: answer {claimed} is wrong, the rules give {truth}"
        ))
    };
    let case = file
        .as_ref()
        .map_or_else(|| "stdin".to_string(), |f| f.display().to_string());
    crate::core::report::check_outcome(&mut out, json, "cephalopod", case, checked)
}
