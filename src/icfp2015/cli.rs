//! `podium icfp2015 score|play|bench|show`: the clap types and their runner. Output follows the
//! official evaluator; bad input is one line naming the file, field or position, with exit code 2.

use super::gen::phrases::{phrase_set as random_phrases, Kind};
use super::gen::problem::{generate, to_json as generate_json, Spec};
use super::place::weights::Weights;
use super::play::{BenchOptions, MIN_MEGABYTES};
use super::rules::commands::first_invalid;
use super::rules::game::{evaluate, Evaluation, Setup};
use super::rules::phrases::PhraseSet;
use super::rules::problem::{Problem, Solution};
use super::show::{LockRow, Replay};
use crate::core::report::{Record, Report};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `-m`: megabytes from [`MIN_MEGABYTES`] (what the code and the quickest answers need), so a
/// limit below it is refused with the same range as one above the most.
fn parse_memory_limit(text: &str) -> Result<u64, String> {
    crate::core::cli::parse_bounded(text, "MiB", MIN_MEGABYTES, crate::core::cli::MAX_MEGABYTES)
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum Icfp2015Command {
    /// Score command strings as the official evaluator did: one from stdin, or an output file.
    Score {
        /// Problem file (JSON); repeat it to score an output file over several problems.
        #[arg(short = 'f', long = "file", value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Seed to play (one of the problem's sourceSeeds; optional if it has only one).
        /// The command string is read from stdin.
        #[arg(long)]
        seed: Option<u64>,
        /// Score every entry of this output file ([{problemId, seed, tag, solution}]) instead.
        #[arg(long, value_name = "FILE", conflicts_with = "seed")]
        solutions: Option<PathBuf>,
        #[command(flatten)]
        phrases: PhraseArgs,
        /// JSON lines on stdout, one record per scored game (fields in the README), instead of
        /// the evaluator's lines.
        #[arg(long)]
        json: bool,
    },
    /// Solve problems: the output JSON [{problemId, seed, tag, solution}] on stdout.
    Play(PlayArgs),
    /// Solve all 25 qualifier problems (bundled) and compare with the leaderboard.
    Bench {
        /// Seconds per problem (shared by its seeds), 0 to 1000000.
        #[arg(long = "time", alias = "per-problem", value_name = "SECONDS", default_value_t = 10.0,
              allow_negative_numbers = true, value_parser = crate::core::cli::parse_seconds)]
        per_problem: f64,
        /// Threads, 1 to 1024, capped at the cores available [default: all cores].
        #[arg(short = 'c', long = "threads", alias = "cores", value_name = "THREADS", value_parser = crate::core::cli::parse_threads)]
        cores: Option<usize>,
        /// JSON lines on stdout, one record per problem (fields in the README), instead of the
        /// table.
        #[arg(long)]
        json: bool,
        /// Only these problem ids (comma-separated; default all 25, or the whole generated set).
        #[arg(long, value_name = "IDS", value_delimiter = ',')]
        only: Vec<i64>,
        /// The phrase set to play with: the 18 known ones (as the leaderboard was scored), none,
        /// or a generated set of 6 (fixed seed; `gen --phrases KIND` prints it).
        #[arg(long, value_name = "SET", default_value = "known")]
        phrase_set: BenchPhrases,
        /// Play the fixed generated set (`gen::set`, ids 1000 and up) instead of the qualifiers.
        #[arg(long)]
        generated: bool,
        /// Only shard I of N (0-based) of the problems, by a hash of the problem id.
        #[arg(long, value_name = "I/N", value_parser = crate::core::shard::Shard::parse)]
        shard: Option<crate::core::shard::Shard>,
        /// Keep each qualifier game's solution in the best-solution store DIR when it beats the
        /// stored one (see `podium best`).
        #[arg(long, value_name = "DIR")]
        store: Option<PathBuf>,
    },
    /// Write a random problem (the contest's JSON) from documented distributions, deterministic
    /// by --seed; or, with --phrases, a random phrase set, one phrase a line.
    Gen(GenArgs),
    /// Replay a command string: the board, unit, pivot and score at any step, in the terminal
    /// (ANSI colours) or as an SVG.
    Show {
        /// Problem file (JSON).
        #[arg(short = 'f', long = "file", value_name = "FILE")]
        file: PathBuf,
        /// Seed to play (one of the problem's sourceSeeds; optional if it has only one).
        #[arg(long)]
        seed: Option<u64>,
        /// Take the command string from this output file's entry for the problem and seed
        /// (default: read it from stdin).
        #[arg(long, value_name = "FILE")]
        solutions: Option<PathBuf>,
        /// Show the state after this many commands (default: after all of them).
        #[arg(long, value_name = "K")]
        step: Option<usize>,
        /// Replay every step in the terminal.
        #[arg(long, conflicts_with = "step")]
        animate: bool,
        /// Milliseconds between animation frames.
        #[arg(long, value_name = "MS", default_value_t = 60)]
        delay: u64,
        /// Write the step as an SVG file instead of printing it.
        #[arg(long, value_name = "FILE", conflicts_with = "animate")]
        svg: Option<PathBuf>,
        /// Plain characters instead of ANSI colours.
        #[arg(long)]
        no_color: bool,
        /// A line per lock instead of the board: the unit, where its pivot locked and how far
        /// it fell, the commands and power points of its route, the rows cleared, the stack.
        #[arg(long, conflicts_with_all = ["step", "animate", "svg"])]
        locks: bool,
        #[command(flatten)]
        phrases: PhraseArgs,
    },
    /// Play a problem by hand in the terminal: every character typed is recorded, an illegal
    /// command is refused, Ctrl-S saves the output JSON that `score` reads.
    Manual {
        /// Problem file (JSON).
        #[arg(short = 'f', long = "file", value_name = "FILE")]
        file: PathBuf,
        /// Seed to play (one of the problem's sourceSeeds; optional if it has only one).
        #[arg(long)]
        seed: Option<u64>,
        /// Start from this output file's entry for the problem and seed.
        #[arg(long, value_name = "SOLUTION")]
        load: Option<PathBuf>,
        /// Where Ctrl-S saves [default: icfp2015-manual-problemID-seedSEED.json].
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        phrases: PhraseArgs,
    },
}

/// The phrase sets `bench` plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchPhrases {
    Known,
    None,
    Moves,
    Unspellable,
    Long,
    Mixed,
}

impl BenchPhrases {
    /// The set: the known 18, none, or 6 generated phrases of the kind from seed 1.
    pub fn set(self) -> PhraseSet {
        let kind = match self {
            BenchPhrases::Known => return PhraseSet::known(),
            BenchPhrases::None => return PhraseSet::none(),
            BenchPhrases::Moves => Kind::Moves,
            BenchPhrases::Unspellable => Kind::Unspellable,
            BenchPhrases::Long => Kind::Long,
            BenchPhrases::Mixed => Kind::Mixed,
        };
        PhraseSet::new(random_phrases(kind, BENCH_PHRASES, 1)).expect("generated phrases are valid")
    }
}

/// Phrases in a generated bench set.
const BENCH_PHRASES: usize = 6;

/// `podium icfp2015 gen`: the problem's values not given are drawn (distributions in
/// `gen::problem::Spec` and docs/icfp2015.md).
#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    /// The seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The problem's id [default: the seed].
    #[arg(long)]
    pub id: Option<i64>,
    /// Board width, 1 to 128 [default: log-uniform 5..=100].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=128))]
    pub width: Option<u64>,
    /// Board height, 1 to 10000 [default: log-uniform 5..=100].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub height: Option<u64>,
    /// Distinct unit shapes, 1 to 1000 [default: log-uniform 1..=50].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub shapes: Option<u64>,
    /// Cells of the largest unit, 1 to 50 [default: log-uniform 1..=12].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=50))]
    pub max_size: Option<u64>,
    /// Big units among small ones: the chance, 0 to 1, that a shape is big (size in
    /// max-size/2+1..=max-size; a small one's in 1..=max-size/4) [default: every size uniform
    /// in 1..=max-size].
    #[arg(long, value_name = "SHARE", value_parser = parse_share)]
    pub big_units: Option<f64>,
    /// Units in the game (sourceLength), 0 to 1000000 [default: log-uniform 1..=5000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub length: Option<u64>,
    /// Source seeds, 1 to 1000 [default: 1 half the time, else 2..=10].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub seeds: Option<u64>,
    /// Share of the lower 60 % of the board pre-filled, 0 to 0.9 [default: 0 with
    /// probability 0.4, else 0.05..0.4].
    #[arg(long, value_parser = parse_fill)]
    pub fill: Option<f64>,
    /// Print a random phrase set of this kind instead of a problem.
    #[arg(long, value_name = "KIND")]
    pub phrases: Option<Kind>,
    /// Phrases in the set (with --phrases), 1 to 100.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub count: u64,
}

fn parse_share(text: &str) -> Result<f64, String> {
    share_up_to(text, 1.0)
}

fn parse_fill(text: &str) -> Result<f64, String> {
    share_up_to(text, 0.9)
}

/// `text` as a number from 0 to `most`, else the message naming the range.
fn share_up_to(text: &str, most: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=most).contains(&v) => Ok(v),
        _ => Err(format!("{text:?} is not a share from 0 to {most}")),
    }
}

impl GenArgs {
    fn spec(&self) -> Spec {
        let size = |v: Option<u64>| v.map(|v| v as usize);
        Spec {
            id: self.id.unwrap_or(self.seed as i64),
            width: size(self.width),
            height: size(self.height),
            shapes: size(self.shapes),
            max_size: size(self.max_size),
            big_units: self.big_units,
            length: size(self.length),
            seeds: size(self.seeds),
            fill: self.fill,
        }
    }
}

/// The contest's program interface: `-f FILE... -t SECONDS -m MEGABYTES -c CORES -p PHRASE...`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// Problem file (JSON); repeatable.
    #[arg(short = 'f', long = "file", value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Total time for all problems, in seconds from 0 to 1000000 (the answer is printed within
    /// it; 0 plays the quickest legal answer at once) [default: 3600].
    #[arg(short = 't', long = "time", value_name = "SECONDS", allow_negative_numbers = true,
        value_parser = crate::core::cli::parse_seconds)]
    pub time: Option<f64>,
    /// Memory limit in megabytes (16 to 1048576): fewer threads run when -c of them would not
    /// fit (a thread takes ~4 MB plus 110 bytes a board cell: 4 MB on the qualifier problems,
    /// 140 MB on a 128 x 10000 board), and their search tables take a share of what is left;
    /// where not one fits, every seed gets the quickest (drop) answer.
    #[arg(short = 'm', long = "memory", value_name = "MEGABYTES", value_parser = parse_memory_limit)]
    pub memory: Option<u64>,
    /// Threads to play seeds on, 1 to 1024, capped at the cores this process may use [default: 1].
    #[arg(short = 'c', long = "cores", value_name = "CORES", value_parser = crate::core::cli::parse_threads)]
    pub cores: Option<usize>,
    #[command(flatten)]
    pub phrases: PhraseArgs,
    /// Keep each solution of a bundled qualifier problem in the best-solution store DIR when it
    /// beats the stored one (see `podium best`).
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
}

/// The phrases of power in play: exactly the `-p` arguments, as the contest's program interface
/// had it (none: the move score alone), and the 18 known ones on request.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PhraseArgs {
    /// A phrase of power (repeatable). The phrases in play are exactly these (plus the 18 known
    /// ones with --known-phrases); with none, only the move score counts.
    #[arg(short = 'p', long = "phrase", value_name = "PHRASE")]
    pub phrases: Vec<String>,
    /// Add the 18 phrases known from the qualifier ("Ei!", "Ia! Ia!", ...) to the set.
    #[arg(long)]
    pub known_phrases: bool,
    /// Accepted and ignored: -p always replaced the known phrases under it, as it now does
    /// without it (the older default added -p to them).
    #[arg(long, hide = true)]
    pub no_default_phrases: bool,
}

pub use crate::core::cli::CliError;

/// Runs a command on the process's stdin and stdout.
pub fn run(cmd: Icfp2015Command) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run_with(cmd, &mut std::io::stdin().lock(), &mut out)
}

/// Runs a command on the given input and output (what `run` does, testable in-process).
pub fn run_with(
    cmd: Icfp2015Command,
    input: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match cmd {
        Icfp2015Command::Score {
            files,
            seed,
            solutions,
            phrases,
            json,
        } => {
            let phrases = phrase_set(&phrases)?;
            let setups = load_problems(&files)?;
            if json {
                let records: Vec<Record> = match &solutions {
                    Some(path) => {
                        let (solutions, evaluations) = evaluate_file(&setups, path, &phrases)?;
                        solutions
                            .iter()
                            .zip(&evaluations)
                            .map(|(s, (_, e))| score_record(s.problem_id, s.seed, e))
                            .collect()
                    }
                    None => {
                        let [setup] = setups.as_slice() else {
                            return Err(CliError::input(
                                "icfp2015: scoring stdin takes exactly one -f problem (use --solutions for several)",
                            ));
                        };
                        let seed = pick_seed(&setup.problem, seed)?;
                        let text = read_commands(input)?;
                        let e = evaluate(setup, u64::from(seed), &text, &phrases)
                            .map_err(CliError::input)?;
                        vec![score_record(setup.problem.id, u64::from(seed), &e)]
                    }
                };
                let mut report = Report::json(out);
                for record in &records {
                    report.record(record).map_err(write_err)?;
                }
                return Ok(());
            }
            match solutions {
                Some(path) => score_file(&setups, &path, &phrases, out),
                None => {
                    let [setup] = setups.as_slice() else {
                        return Err(CliError::input(
                            "icfp2015: scoring stdin takes exactly one -f problem (use --solutions for several)",
                        ));
                    };
                    let seed = pick_seed(&setup.problem, seed)?;
                    let text = read_commands(input)?;
                    score_one(setup, seed, &text, &phrases, out)
                }
            }
        }
        Icfp2015Command::Play(args) => {
            Weights::from_env().map_err(CliError::input)?;
            let phrases = phrase_set(&args.phrases)?;
            let setups = load_problems(&args.files)?;
            let time = Duration::from_secs_f64(args.time.unwrap_or(3600.0));
            let cores = crate::core::cli::threads_available(args.cores.unwrap_or(1));
            let plan = super::play::plan_memory(cores, args.memory, &setups)
                .map_err(|e| CliError::input(format!("icfp2015 play: {e}")))?;
            if plan.threads == 0 {
                eprintln!(
                    "icfp2015 play: a search of this board does not fit in -m {} MB: every seed gets the drop answer",
                    args.memory.unwrap_or(0)
                );
            }
            let played = super::play::play_all(&setups, &phrases, time, plan);
            writeln!(out, "{}", Solution::to_json(&played))
                .and_then(|()| out.flush())
                .map_err(write_err)?;
            // After the answer, so a failed write is still the only line on stderr.
            eprintln!("icfp2015 play: played with {}", phrases.describe());
            match &args.store {
                Some(dir) => super::play::store_solutions(dir, &setups, &phrases, &played),
                None => Ok(()),
            }
        }
        Icfp2015Command::Gen(args) => {
            let text = match args.phrases {
                Some(kind) => random_phrases(kind, args.count as usize, args.seed).join("\n"),
                None => generate_json(&generate(&args.spec(), args.seed)),
            };
            writeln!(out, "{text}")
                .and_then(|()| out.flush())
                .map_err(write_err)
        }
        Icfp2015Command::Bench {
            per_problem,
            cores,
            json,
            only,
            phrase_set,
            generated,
            shard,
            store,
        } => {
            Weights::from_env().map_err(CliError::input)?;
            let options = BenchOptions {
                phrases: phrase_set.set(),
                generated,
                store,
            };
            let mut only = only;
            if let Some(shard) = shard {
                if only.is_empty() {
                    only = if generated {
                        (0..super::gen::set::specs().len() as i64)
                            .map(|i| 1000 + i)
                            .collect()
                    } else {
                        (0..25).collect()
                    };
                }
                only.retain(|id| shard.contains(&id.to_string()));
                if only.is_empty() {
                    return Err(CliError::input(format!(
                        "icfp2015 bench --shard {}/{}: no problem falls in this shard",
                        shard.index, shard.count
                    )));
                }
            }
            if generated {
                let cores = crate::core::cli::threads_available(cores.unwrap_or(usize::MAX));
                let per_problem = Duration::from_secs_f64(per_problem);
                let bench = |table: &mut dyn Write, report: &mut Report| {
                    super::play::bench_generated(per_problem, cores, &only, &options, table, report)
                };
                return if json {
                    bench(&mut std::io::sink(), &mut Report::json(out))
                } else {
                    bench(out, &mut Report::none())
                }
                .map_err(write_err);
            }
            if let Some(id) = only.iter().find(|&&id| !(0..25).contains(&id)) {
                return Err(CliError::input(format!(
                    "icfp2015 bench --only: {id} is not a qualifier problem id (0..=24)"
                )));
            }
            let cores = crate::core::cli::threads_available(cores.unwrap_or(usize::MAX));
            let per_problem = Duration::from_secs_f64(per_problem);
            if json {
                let mut report = Report::json(out);
                let sink = &mut std::io::sink();
                super::play::bench_with(per_problem, cores, &only, &options, sink, &mut report)
            } else {
                super::play::bench_with(
                    per_problem,
                    cores,
                    &only,
                    &options,
                    out,
                    &mut Report::none(),
                )
            }
            .map_err(write_err)
        }
        Icfp2015Command::Show {
            file,
            seed,
            solutions,
            step,
            animate,
            delay,
            svg,
            no_color,
            locks,
            phrases,
        } => {
            let phrases = phrase_set(&phrases)?;
            let (setup, seed) = one_game(&file, seed)?;
            let setup = &setup;
            let text = match solutions {
                Some(path) => solution_for(&path, setup.problem.id, seed)?,
                None => read_commands(input)?,
            };
            let options = ShowOptions {
                step,
                animate,
                delay: Duration::from_millis(delay),
                svg,
                color: !no_color,
                locks,
            };
            show(setup, seed, &text, &phrases, &options, out)
        }
        Icfp2015Command::Manual {
            file,
            seed,
            load,
            output,
            phrases,
        } => {
            let phrases = phrase_set(&phrases)?;
            let (setup, seed) = one_game(&file, seed)?;
            let setup = &setup;
            let loaded = match &load {
                Some(path) => solution_for(path, setup.problem.id, seed)?,
                None => String::new(),
            };
            let output =
                output.unwrap_or_else(|| super::manual::default_output(setup.problem.id, seed));
            super::manual::run(setup, seed, &phrases, &loaded, &output, out)
        }
    }
}

fn phrase_set(args: &PhraseArgs) -> Result<PhraseSet, CliError> {
    PhraseSet::with(&args.phrases, args.known_phrases).map_err(CliError::input)
}

fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path)
        .map_err(|e| CliError::input(format!("icfp2015: cannot read {}: {e}", path.display())))
}

/// The problems of `files`, each with a distinct id.
fn load_problems(files: &[PathBuf]) -> Result<Vec<Setup>, CliError> {
    let mut setups: Vec<Setup> = Vec::with_capacity(files.len());
    for path in files {
        let name = path.display().to_string();
        let problem = Problem::parse(&read_file(path)?, &name).map_err(CliError::input)?;
        if let Some(j) = setups.iter().position(|s| s.problem.id == problem.id) {
            return Err(CliError::input(format!(
                "icfp2015 problem {name}: id {} is also the id of {}",
                problem.id,
                files[j].display()
            )));
        }
        setups.push(Setup::new(problem));
    }
    Ok(setups)
}

/// The problem in `file` and the seed to play: `seed`, or its only one.
fn one_game(file: &PathBuf, seed: Option<u64>) -> Result<(Setup, u32), CliError> {
    let setup = load_problems(std::slice::from_ref(file))?
        .pop()
        .ok_or_else(|| CliError::input("icfp2015: no problem file"))?;
    let seed = pick_seed(&setup.problem, seed)?;
    Ok((setup, seed))
}

fn pick_seed(problem: &Problem, seed: Option<u64>) -> Result<u32, CliError> {
    match seed {
        Some(s) => problem.check_seed(s).map_err(CliError::input),
        None => match problem.source_seeds.as_slice() {
            [only] => Ok(*only),
            seeds => Err(CliError::input(format!(
                "icfp2015: --seed is required: problem {} has {} sourceSeeds",
                problem.id,
                seeds.len()
            ))),
        },
    }
}

/// The command string on `input`: UTF-8 and nothing but commands and ignored characters.
fn read_commands(input: &mut dyn Read) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::input(format!("icfp2015 commands: cannot read stdin: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::input(format!(
            "icfp2015 commands: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    if let Some(e) = first_invalid(&text) {
        return Err(CliError::input(e));
    }
    Ok(text)
}

fn write_err(e: std::io::Error) -> CliError {
    CliError::write("stdout", e)
}

fn score_one(
    setup: &Setup,
    seed: u32,
    text: &str,
    phrases: &PhraseSet,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let e = evaluate(setup, seed as u64, text, phrases).map_err(CliError::input)?;
    print_evaluation(&e, phrases, out).map_err(write_err)
}

/// The evaluator's four lines, then each used phrase's count.
fn print_evaluation(
    e: &Evaluation,
    phrases: &PhraseSet,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "moves: {}", e.moves)?;
    writeln!(out, "error: {}", e.error_text())?;
    writeln!(out, "score: {}", e.score)?;
    writeln!(out, "power: {}", e.power_line())?;
    if e.error.is_none() {
        for (i, &n) in e.counts.iter().enumerate().filter(|(_, &n)| n > 0) {
            writeln!(out, "phrase {i} {:?}: {n}", phrases.phrases()[i])?;
        }
    }
    Ok(())
}

/// One scored game as a record: the problem and seed as its case, the score, whether the
/// commands were legal, and the evaluator's moves, error and power lines as its answer.
fn score_record(problem_id: i64, seed: u64, e: &Evaluation) -> Record {
    Record {
        problem: "icfp2015",
        case: format!("problem {problem_id} seed {seed}"),
        score: Some(e.score as f64),
        answer: Some(
            format!(
                "moves {}, {}, power {}",
                e.moves,
                e.error_text(),
                e.power_line()
            )
            .into(),
        ),
        ok: Some(e.error.is_none()),
        ..Record::default()
    }
}

/// An output file's entries, and for each the index of its problem and its evaluation.
type EvaluatedFile = (Vec<Solution>, Vec<(usize, Evaluation)>);

/// Every entry of an output file, checked against the problems and evaluated.
fn evaluate_file(
    setups: &[Setup],
    path: &Path,
    phrases: &PhraseSet,
) -> Result<EvaluatedFile, CliError> {
    let name = path.display().to_string();
    let solutions = Solution::parse_file(&read_file(path)?, &name).map_err(CliError::input)?;
    let mut evaluations = Vec::with_capacity(solutions.len());
    for (i, s) in solutions.iter().enumerate() {
        let at = |msg: String| CliError::input(format!("icfp2015 solutions {name}: [{i}].{msg}"));
        let Some(p) = setups.iter().position(|x| x.problem.id == s.problem_id) else {
            return Err(at(format!(
                "problemId: {} is not one of the given problems (-f)",
                s.problem_id
            )));
        };
        if setups[p].problem.check_seed(s.seed).is_err() {
            return Err(at(format!(
                "seed: {} is not one of problem {}'s sourceSeeds",
                s.seed, s.problem_id
            )));
        }
        if let Some(e) = first_invalid(&s.solution) {
            return Err(at(format!(
                "solution: position {}: character {:?} is not a command",
                e.position, e.character
            )));
        }
        let e = evaluate(&setups[p], s.seed, &s.solution, phrases).map_err(CliError::input)?;
        evaluations.push((p, e));
    }
    Ok((solutions, evaluations))
}

fn score_file(
    setups: &[Setup],
    path: &Path,
    phrases: &PhraseSet,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (solutions, evaluations) = evaluate_file(setups, path, phrases)?;
    let w = |r: std::io::Result<()>| r.map_err(write_err);
    // The last entry for a (problem, seed) counts, as resubmissions did.
    let mut counted: Vec<Vec<Option<u64>>> = setups
        .iter()
        .map(|s| vec![None; s.problem.source_seeds.len()])
        .collect();
    for (i, (s, (p, e))) in solutions.iter().zip(&evaluations).enumerate() {
        let replaced = solutions[i + 1..]
            .iter()
            .any(|t| t.problem_id == s.problem_id && t.seed == s.seed);
        let tag = s
            .tag
            .as_ref()
            .map(|t| format!(" tag {t:?}"))
            .unwrap_or_default();
        w(writeln!(
            out,
            "problem {} seed {}{tag}: score {} (moves {}, {}, power {}){}",
            s.problem_id,
            s.seed,
            e.score,
            e.moves,
            e.error_text(),
            e.power_line(),
            if replaced {
                " (replaced by a later entry)"
            } else {
                ""
            }
        ))?;
        let k = setups[*p]
            .problem
            .source_seeds
            .iter()
            .position(|&x| x as u64 == s.seed)
            .expect("checked seed");
        counted[*p][k] = Some(e.score);
    }
    let mut order: Vec<usize> = (0..setups.len()).collect();
    order.sort_by_key(|&p| setups[p].problem.id);
    let mut total = 0u64;
    for p in order {
        let seeds = &counted[p];
        let sum: u64 = seeds.iter().flatten().sum();
        let mean = sum / seeds.len() as u64;
        let missing = seeds.iter().filter(|s| s.is_none()).count();
        total += mean;
        let note = if missing > 0 {
            format!("; {missing} without a solution count 0")
        } else {
            String::new()
        };
        w(writeln!(
            out,
            "problem {}: {mean} (floor of the mean over {} seeds{note})",
            setups[p].problem.id,
            seeds.len()
        ))?;
    }
    w(writeln!(
        out,
        "total: {total} (sum over {} problems)",
        setups.len()
    ))
}

/// The command string of the output file's last entry for `problem` and `seed`.
fn solution_for(path: &Path, problem: i64, seed: u32) -> Result<String, CliError> {
    let name = path.display().to_string();
    let solutions = Solution::parse_file(&read_file(path)?, &name).map_err(CliError::input)?;
    let Some((i, s)) = solutions
        .iter()
        .enumerate()
        .rev()
        .find(|(_, s)| s.problem_id == problem && s.seed == seed as u64)
    else {
        return Err(CliError::input(format!(
            "icfp2015 solutions {name}: no entry for problem {problem} seed {seed}"
        )));
    };
    if let Some(e) = first_invalid(&s.solution) {
        return Err(CliError::input(format!(
            "icfp2015 solutions {name}: [{i}].solution: position {}: character {:?} is not a command",
            e.position, e.character
        )));
    }
    Ok(s.solution.clone())
}

/// How `show` draws.
#[derive(Clone, Debug)]
pub struct ShowOptions {
    pub step: Option<usize>,
    pub animate: bool,
    pub delay: Duration,
    pub svg: Option<PathBuf>,
    pub color: bool,
    /// A table of the locks instead of a board.
    pub locks: bool,
}

/// Replays `text` and draws the requested step(s) on `out` or into an SVG file.
pub fn show(
    setup: &Setup,
    seed: u32,
    text: &str,
    phrases: &PhraseSet,
    options: &ShowOptions,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut replay = Replay::new(setup, seed, text, phrases).map_err(CliError::input)?;
    let total = replay.len();
    let step = options.step.unwrap_or(total);
    if step > total {
        return Err(CliError::input(format!(
            "icfp2015: --step {step}: the solution has {total} commands"
        )));
    }
    let final_line = {
        let e = evaluate(setup, seed as u64, text, phrases).map_err(CliError::input)?;
        format!(
            "evaluator: moves {}, {}, score {}",
            e.moves,
            e.error_text(),
            e.score
        )
    };
    let w = |r: std::io::Result<()>| r.map_err(write_err);
    if options.locks {
        return w(write_locks(&mut replay, &final_line, out));
    }
    if options.animate {
        loop {
            w(write!(out, "\x1b[H\x1b[2J{}", replay.ansi(options.color)))?;
            w(out.flush())?;
            if !replay.advance() {
                break;
            }
            if !options.delay.is_zero() {
                std::thread::sleep(options.delay);
            }
        }
        return w(writeln!(out, "{final_line}"));
    }
    replay.advance_to(step);
    match &options.svg {
        Some(path) => {
            std::fs::write(path, replay.svg()).map_err(|e| {
                CliError::output(format!("icfp2015: cannot write {}: {e}", path.display()))
            })?;
            w(writeln!(
                out,
                "wrote {} (step {} of {total})",
                path.display(),
                replay.step()
            ))
        }
        None => {
            w(write!(out, "{}", replay.ansi(options.color)))?;
            w(writeln!(out, "{final_line}"))
        }
    }
}

/// `show --locks`: the replay's header, a line per lock, their totals and the evaluator's line.
fn write_locks(replay: &mut Replay, final_line: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let rows = replay.locks();
    writeln!(out, "{}", replay.header()[0])?;
    writeln!(
        out,
        "{:>5} {:>5} {:>4} {:>11} {:>5} {:>8} {:>6} {:>5} {:>5} {:>6}",
        "lock", "unit", "size", "pivot", "fell", "commands", "power", "lines", "stack", "filled"
    )?;
    for (k, row) in rows.iter().enumerate() {
        writeln!(
            out,
            "{k:>5} {:>5} {:>4} {:>11} {:>5} {:>8} {:>6} {:>5} {:>5} {:>6}",
            row.unit,
            row.size,
            format!("({}, {})", row.pivot.x, row.pivot.y),
            row.fell,
            row.commands,
            row.power,
            row.lines,
            row.stack,
            row.filled
        )?;
    }
    let sum = |f: fn(&LockRow) -> u64| rows.iter().map(f).sum::<u64>();
    let fell = rows.iter().map(|r| i64::from(r.fell)).sum::<i64>();
    let commands = sum(|r| r.commands as u64);
    writeln!(
        out,
        "{} locks: pivots fell {fell} rows ({:.1} a lock), {commands} commands ({:.2} a row \
         fallen), power {}, lines {}",
        rows.len(),
        fell as f64 / rows.len().max(1) as f64,
        commands as f64 / fell.max(1) as f64,
        sum(|r| r.power),
        sum(|r| u64::from(r.lines))
    )?;
    writeln!(out, "{final_line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_take_their_range_and_refuse_the_rest() {
        assert_eq!(parse_share("0.25"), Ok(0.25));
        assert_eq!(parse_share("1"), Ok(1.0));
        assert_eq!(parse_fill("0.9"), Ok(0.9));
        for bad in ["nan", "1.5", "-0.1", "inf", "", "x"] {
            assert_eq!(
                parse_share(bad),
                Err(format!("{bad:?} is not a share from 0 to 1"))
            );
        }
        assert_eq!(
            parse_fill("0.95"),
            Err("\"0.95\" is not a share from 0 to 0.9".to_string())
        );
    }
}
