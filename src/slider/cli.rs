//! `podium slider score|solve|gen|show|bench`: the clap types and their runner. Bad input is one
//! line naming the line and value, with exit code 2; an invalid output scores -1 with its line.

use super::board::{output_text, parse_turns, Problem};
use super::cases::{peers, INSTANCES};
use super::score::score;
use super::show;
use super::solve::{solve, solve_by, Checks};
use crate::core::progress::Progress;
use crate::core::report::{Record, Report};
use crate::core::timer::Deadline;
use crate::slider::bound::upper_bound;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(clap::Subcommand, Debug, Clone)]
pub enum SliderCommand {
    /// Score an output on an instance: prints the score, or -1 and the first invalid line.
    Score {
        /// Instance (official stdin format).
        input: PathBuf,
        /// Output (T, then T lines `r c M|S U|D|L|R`).
        output: PathBuf,
        /// One JSON record on stdout (fields in the README) instead of the score alone.
        #[arg(long)]
        json: bool,
    },
    /// Solve an instance (stdin when INPUT is absent) and print the official output.
    Solve {
        /// Instance (official stdin format); stdin when absent.
        input: Option<PathBuf>,
        /// Seconds to search; the answer is printed within this.
        #[arg(long, value_name = "SECONDS", default_value_t = 9.5, allow_negative_numbers = true,
              value_parser = crate::core::cli::parse_seconds)]
        time: f64,
        /// Seed of the search's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead of --time, stop after this many progress checks (one per 64 annealing steps):
        /// the same output on every machine.
        #[arg(long, conflicts_with = "time")]
        checks: Option<u64>,
        /// Also print the score and search statistics on stderr.
        #[arg(long)]
        verbose: bool,
        /// Also offer the answer to the best-solution store in DIR (kept only if better than
        /// the stored one; README "Beyond one machine").
        #[arg(long, value_name = "DIR")]
        store: Option<PathBuf>,
    },
    /// Write the instance of a seed (data/slider/GENERATOR.md; seeds 1..40 are the benchmark).
    Gen {
        /// The instance's seed (the generator's own numbering).
        #[arg(long)]
        seed: u64,
        /// Output file; stdout when absent.
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Replay an output: the board after STEP turns in the terminal (ANSI colours) or as an SVG.
    Show {
        /// Instance (official stdin format).
        input: PathBuf,
        /// Output to replay (T, then T lines `r c M|S U|D|L|R`).
        output: PathBuf,
        /// Turns to play (default: all).
        #[arg(long)]
        step: Option<usize>,
        /// Print every turn's board.
        #[arg(long, conflicts_with = "step")]
        animate: bool,
        /// Write an SVG of the board instead of printing it.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Plain letters instead of ANSI colours.
        #[arg(long)]
        no_color: bool,
    },
    /// Solve the 40 reference instances and compare with the public peers' scores.
    Bench {
        /// Seconds per instance.
        #[arg(long, value_name = "SECONDS", default_value_t = 9.5, allow_negative_numbers = true,
              value_parser = crate::core::cli::parse_seconds)]
        time: f64,
        /// Instances solved at once, 1 to 1024.
        #[arg(long = "threads", alias = "jobs", default_value_t = 1,
              value_parser = crate::core::cli::parse_threads)]
        jobs: usize,
        /// Only these seeds (comma-separated).
        #[arg(long, value_delimiter = ',')]
        seeds: Vec<u64>,
        /// JSON lines on stdout, one record per instance (fields in the README), instead of the
        /// table.
        #[arg(long)]
        json: bool,
        /// No progress line on stderr (there is none when stderr is not a terminal).
        #[arg(long)]
        quiet: bool,
        /// Also offer the answer to the best-solution store in DIR (kept only if better than
        /// the stored one; README "Beyond one machine").
        #[arg(long, value_name = "DIR")]
        store: Option<PathBuf>,
        /// Only shard I of N (0-based) of the instances, by a hash of the seed.
        #[arg(long, value_name = "I/N", value_parser = crate::core::shard::Shard::parse)]
        shard: Option<crate::core::shard::Shard>,
    },
}

pub use crate::core::cli::CliError;

fn read(path: Option<&Path>) -> Result<String, CliError> {
    match path {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", p.display()))),
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
            Ok(text)
        }
    }
}

fn write(path: Option<&Path>, text: &str) -> Result<(), CliError> {
    match path {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| CliError::write(&p.display().to_string(), e))
        }
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .and_then(|()| std::io::stdout().flush())
            .map_err(|e| CliError::write("stdout", e)),
    }
}

pub fn run(command: SliderCommand) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    match command {
        SliderCommand::Score {
            input,
            output,
            json,
        } => {
            let problem = Problem::parse(&read(Some(&input))?).map_err(CliError::input)?;
            let started = std::time::Instant::now();
            let scored = score(&problem, &read(Some(&output))?);
            if json {
                Report::json(&mut out).record(&Record {
                    problem: "slider",
                    case: format!("{} {}", input.display(), output.display()),
                    score: Some(scored.as_ref().map_or(-1.0, |s| s.score as f64)),
                    ok: Some(scored.is_ok()),
                    runs: vec![started.elapsed()],
                    ..Record::default()
                })?;
            }
            match scored {
                Ok(_) if json => Ok(()),
                Ok(s) => {
                    writeln!(out, "{}", s.score)?;
                    eprintln!("{} turns, {} blocks dropped", s.turns, s.drops);
                    Ok(())
                }
                Err(invalid) => {
                    if !json {
                        writeln!(out, "-1")?;
                    }
                    Err(CliError {
                        message: format!("slider output: {invalid}"),
                        code: 1,
                    })
                }
            }
        }
        SliderCommand::Solve {
            input,
            time,
            seed,
            checks,
            verbose,
            store,
        } => {
            let deadline = Deadline::from_secs_f64(time);
            let text = read(input.as_deref())?;
            let problem = Problem::parse(&text).map_err(CliError::input)?;
            let solved = match checks {
                Some(total) => solve_by(&problem, Checks { total, done: 0 }, seed),
                None => solve(&problem, deadline, seed),
            };
            let output = output_text(&solved.turns);
            write(None, &output)?;
            if let Some(dir) = store {
                offer(&dir, &problem, &text, output)?;
            }
            if verbose {
                eprintln!(
                    "score {}, {} turns, {} annealing steps, {:.2} s",
                    solved.score,
                    solved.turns.len(),
                    solved.iterations,
                    deadline.elapsed().as_secs_f64()
                );
            }
            Ok(())
        }
        SliderCommand::Gen { seed, out } => {
            write(out.as_deref(), &super::gen::generate(seed).to_text())
        }
        SliderCommand::Show {
            input,
            output,
            step,
            animate,
            svg,
            no_color,
        } => {
            let problem = Problem::parse(&read(Some(&input))?).map_err(CliError::input)?;
            let text = read(Some(&output))?;
            if let Err(invalid) = score(&problem, &text) {
                return Err(CliError {
                    message: format!("slider output: {invalid}"),
                    code: 1,
                });
            }
            let turns = parse_turns(&text);
            if animate {
                for k in 0..=turns.len() {
                    let frame = show::replay(&problem, &turns, k);
                    writeln!(out, "{}", show::ansi(&problem, &frame, !no_color))?;
                }
                return Ok(());
            }
            let frame = show::replay(&problem, &turns, step.unwrap_or(turns.len()));
            match svg {
                Some(path) => write(Some(&path), &show::svg(&problem, &frame)),
                None => write(None, &show::ansi(&problem, &frame, !no_color)),
            }
        }
        SliderCommand::Bench {
            time,
            jobs,
            seeds,
            json,
            quiet,
            store,
            shard,
        } => bench(&BenchRun {
            time,
            jobs: jobs.max(1),
            seeds: &seeds,
            json,
            quiet,
            store: store.as_deref(),
            shard,
        }),
    }
}

/// Offers `output` on the instance `text` to the store in `dir`, scored by the independent
/// scorer (an invalid output is not offered).
fn offer(dir: &Path, problem: &Problem, text: &str, output: String) -> Result<(), CliError> {
    let Ok(scored) = score(problem, &output) else {
        return Ok(());
    };
    let entry = crate::store::slider::entry(text, scored.score, output);
    crate::store::offer(dir, &entry)
        .map(|_| ())
        .map_err(|e| CliError::output(format!("cannot store in {}: {e}", dir.display())))
}

/// What `slider bench` was asked for.
struct BenchRun<'a> {
    time: f64,
    jobs: usize,
    seeds: &'a [u64],
    json: bool,
    quiet: bool,
    store: Option<&'a Path>,
    shard: Option<crate::core::shard::Shard>,
}

fn bench(run: &BenchRun) -> Result<(), CliError> {
    let &BenchRun {
        time,
        jobs,
        seeds,
        json,
        quiet,
        store,
        shard,
    } = run;
    let peers = peers();
    let chosen: Vec<(u64, &str)> = INSTANCES
        .iter()
        .copied()
        .filter(|(s, _)| seeds.is_empty() || seeds.contains(s))
        .filter(|(s, _)| crate::core::shard::takes(shard, &s.to_string()))
        .collect();
    if chosen.is_empty() && shard.is_some() {
        return Ok(());
    }
    if chosen.is_empty() {
        return Err(CliError::input(format!(
            "slider bench: no bundled instance has any of the seeds {seeds:?} (seeds are {}..={})",
            INSTANCES.first().map_or(0, |i| i.0),
            INSTANCES.last().map_or(0, |i| i.0)
        )));
    }
    let mut out = crate::core::report::table_out(json);
    writeln!(
        out,
        "slider bench: {} instances, {time} s each, {jobs} at once",
        chosen.len()
    )?;
    writeln!(
        out,
        "seed    ours  arukuka dedentete highjump    best  ours/best    bound  ours/bound"
    )?;
    let records = Mutex::new(Vec::new());
    // Beside the table's lines, which a terminal shows anyway, only under --json does it help.
    let progress = Mutex::new(Progress::new("slider bench", chosen.len(), quiet || !json));
    // The workers print their own lines as they finish.
    let write_error = Mutex::new(None);
    let store_error = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(seed, text)) = chosen.get(k) else {
                    break;
                };
                let problem = Problem::parse(text).expect("bundled instance");
                let started = std::time::Instant::now();
                let solved = solve(&problem, Deadline::from_secs_f64(time), seed);
                let took = started.elapsed();
                let output = output_text(&solved.turns);
                let checked = score(&problem, &output).map_or(-1, |s| s.score);
                if let Some(dir) = store {
                    if let Err(e) = offer(dir, &problem, text, output) {
                        *store_error.lock().expect("store error") = Some(e);
                    }
                }
                let peer = peers.iter().find(|p| p.seed == seed).copied();
                let bound = upper_bound(&problem);
                let of_bound = checked as f64 / bound.max(1) as f64;
                let line = match peer {
                    Some(p) => format!(
                        "{seed:4} {checked:7} {:8} {:9} {:8} {:7}  {:9.4} {bound:8}  {of_bound:10.4}",
                        p.arukuka,
                        p.dedentete,
                        p.highjump425,
                        p.best,
                        checked as f64 / p.best as f64
                    ),
                    None => format!("{seed:4} {checked:7} {bound:54}  {of_bound:10.4}"),
                };
                if json {
                    records.lock().expect("records").push(Record {
                        problem: "slider",
                        case: seed.to_string(),
                        score: Some(checked as f64),
                        references: peer
                            .map_or_else(Vec::new, |p| {
                                vec![
                                    ("arukuka", p.arukuka as f64),
                                    ("dedentete", p.dedentete as f64),
                                    ("highjump425", p.highjump425 as f64),
                                    ("best", p.best as f64),
                                ]
                            })
                            .into_iter()
                            .chain([("upper_bound", bound as f64)])
                            .collect(),
                        // A score above a proven bound would mean a wrong scorer or bound.
                        ok: Some(checked >= 0 && checked as u64 <= bound),
                        runs: vec![took],
                        ..Record::default()
                    });
                } else if let Err(e) = writeln!(std::io::stdout(), "{line}") {
                    *write_error.lock().expect("write error") = Some(e);
                    break;
                }
                let ratio = peer.map(|p| checked as f64 / p.best as f64);
                let mut results = results.lock().expect("results");
                results.push((seed, ratio, of_bound, checked as u64 > bound));
                let ratios: Vec<f64> = results.iter().filter_map(|r| r.1).collect();
                let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
                drop(results);
                progress
                    .lock()
                    .expect("progress")
                    .advance(&format!("mean ours/best {mean:.4}"));
            });
        }
    });
    if let Some(e) = write_error.into_inner().expect("write error") {
        return Err(CliError::write("stdout", e));
    }
    if let Some(e) = store_error.into_inner().expect("store error") {
        return Err(e);
    }
    if json {
        let mut records = records.into_inner().expect("records");
        records.sort_by_key(|r| r.case.parse::<u64>().unwrap_or(u64::MAX));
        let mut stdout = std::io::stdout();
        let mut report = Report::json(&mut stdout);
        for record in &records {
            report.record(record)?;
        }
        return Ok(());
    }
    let mut out = std::io::stdout();
    let results = results.into_inner().expect("results");
    let ratios: Vec<f64> = results.iter().filter_map(|r| r.1).collect();
    if !ratios.is_empty() {
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        let at_best = ratios.iter().filter(|&&r| r >= 1.0).count();
        writeln!(
            out,
            "mean ours/best {mean:.4} over {} seeds; at or above best on {at_best}",
            ratios.len()
        )?;
    }
    let of_bound = results.iter().map(|r| r.2).sum::<f64>() / results.len().max(1) as f64;
    writeln!(
        out,
        "mean ours/bound {of_bound:.4} (bound: src/slider/bound.rs, each block's own turns \
         scheduled by Smith's rule)"
    )?;
    if let Some(seed) = results.iter().find(|r| r.3).map(|r| r.0) {
        return Err(CliError::new(
            crate::core::cli::EXIT_INVALID,
            format!("slider bench: seed {seed} scored above its proven upper bound"),
        ));
    }
    Ok(())
}
