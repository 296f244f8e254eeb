//! Playing many games at once for `podium icfp2015 play` and `bench`: (problem, seed) jobs
//! shared by threads under one time budget, and the comparison with the qualifying leaderboard.

use super::memory::SearchMemory;
use super::rules::game::{evaluate, Game, Setup, Status};
use super::rules::phrases::PhraseSet;
use super::rules::problem::{Problem, Solution};
use super::solve::{fall_rest, solve_offering, Played, ROUTE_GRACE};
use super::trace::tracing;
use crate::core::progress::Progress;
use crate::core::report::{Record, Report};
use crate::core::timer::Deadline;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Tag of every solution: the solver and its version; the score is appended.
pub const SOLVER_TAG: &str = "podium-beam-0.11";

pub use super::rules::qualifiers::QUALIFIER_PROBLEMS;

/// `problem  best_score  best_team  unagi_score  unagi_rank  fb_score  fb_rank  fb_phrases`.
pub const LEADERBOARD_TSV: &str = include_str!("../../data/icfp2015/leaderboard.tsv");

/// The process before any search: code, libraries and the problems. `play_icfp2015 -t 0`
/// peaks at 3.5 MB on problem 13 and 5.1 MB on a 128 x 10,000 board (`/usr/bin/time`,
/// 2026-11-27).
const PROCESS_MEGABYTES: u64 = 8;

/// A search thread beyond its tables ([`SearchMemory`]) and its board's cells: its stack's
/// touched pages, the routes' scribe, games and plans. Problem 13 at `-t 15 -c 1 -m 40` (tables
/// capped to 22 MB) peaked at 6 MB in all (2026-11-27).
const THREAD_MEGABYTES: u64 = 4;

/// What a search thread holds per board cell: the falling unit's reach and the route's
/// distances over 6 orientations. A 128 x 10,000 board's routes took 132 MB (heaptrack, `-t 10
/// -c 1`, 2026-11-27: 101 MB of reach, 31 MB of distances), 103 bytes a cell; before the DP's
/// table was capped they took 830 MB (700 bytes a cell).
const BYTES_PER_CELL: u64 = 110;

/// The least `-m` podium honours: the process and the quickest answers of a small problem.
/// Below it `play` refuses in one line (exit 2), as for `-m 0`.
pub const MIN_MEGABYTES: u64 = 16;

/// What `play` keeps of `-m` under `megabytes` for `setups` on at most `cores` threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Search threads; 0 where not even one fits beside the answers (every seed then gets the
    /// drop answer).
    pub threads: usize,
    /// Each thread's tables.
    pub memory: SearchMemory,
    /// The most bytes a drop answer's text may take.
    pub drop_bytes: usize,
}

/// The copies of an answer's text held at once: the answer, its JSON, the evaluator's and a
/// growing string's spare room. With two, 2 seeds' drop answers on a 128 x 10,000 board took
/// 74 MB under `-m 64` (2026-11-27).
const ANSWER_COPIES: u64 = 4;

/// The bytes the answers of `setups` may hold: every unit of a seed's source falling the
/// board's height (a text byte a row), [`ANSWER_COPIES`] times. 8 kB for problem 13, 600 MB
/// for 3 seeds of 5,000 units on 10,000 rows.
fn answer_bytes(setups: &[Setup]) -> u64 {
    setups
        .iter()
        .map(|s| {
            let p = &s.problem;
            ANSWER_COPIES * p.source_seeds.len() as u64 * p.source_length as u64 * p.height as u64
        })
        .sum()
}

/// How `play` runs under `-m megabytes` (none: no limit) on `cores` cores: as many search
/// threads as fit beside the process and the answers, each thread's tables within its share
/// of what is left; none where even one does not fit. `Err` below [`MIN_MEGABYTES`].
pub fn plan_memory(
    cores: usize,
    megabytes: Option<u64>,
    setups: &[Setup],
) -> Result<MemoryPlan, String> {
    let cells = setups
        .iter()
        .map(|s| s.width() * s.height())
        .max()
        .unwrap_or(0) as u64;
    let Some(m) = megabytes else {
        return Ok(ample(cores));
    };
    if m < MIN_MEGABYTES {
        return Err(format!(
            "-m {m} is below the {MIN_MEGABYTES} MB podium needs (its code and the quickest answers)"
        ));
    }
    let limit = m << 20;
    let process = (PROCESS_MEGABYTES << 20) + answer_bytes(setups);
    let per_thread = (THREAD_MEGABYTES << 20) + cells.saturating_mul(BYTES_PER_CELL);
    let jobs: u64 = setups
        .iter()
        .map(|s| s.problem.source_seeds.len() as u64)
        .sum();
    let drop_bytes =
        (limit.saturating_sub(PROCESS_MEGABYTES << 20) / (ANSWER_COPIES * jobs.max(1))) as usize;
    let left = limit.saturating_sub(process);
    let fit = (left / per_thread.max(1)) as usize;
    let threads = cores.max(1).min(fit);
    let share = left.checked_div(threads as u64).unwrap_or(0);
    let tables = usize::try_from(share.saturating_sub(per_thread)).unwrap_or(usize::MAX);
    Ok(MemoryPlan {
        threads,
        memory: SearchMemory::within(tables),
        drop_bytes,
    })
}

/// The stack of a search thread: the short game's branch and bound recurses once a level
/// (`spell::deep::DEEPEST` levels at most); only the pages it touches are resident.
pub const SEARCH_STACK: usize = 32 << 20;

/// `cores` threads without a memory limit (the benches).
fn ample(cores: usize) -> MemoryPlan {
    MemoryPlan {
        threads: cores.max(1),
        memory: SearchMemory::AMPLE,
        drop_bytes: usize::MAX,
    }
}

/// What `play` keeps after the watchdog (below) for the jobs still running: their quickest
/// answers, re-scoring and printing. A fixed part and a share of `-t`: the 5000-unit x 3-seed
/// game at `-t 2 -c 2`, one seed drop-answered, ended 10-20 ms after the watchdog (1.89 s wall
/// with it at 1.88 s; 1.95 s at 1.94 s before), and nothing after the watchdog grows with `-t`.
const TAIL_FIXED: Duration = Duration::from_millis(100);
const TAIL_SHARE: f64 = 0.01;

/// What a job's search keeps between the end of its routes' grace and the watchdog, to score
/// its game and hand it over. With none, the last job of the 5000-unit x 3-seed game at `-t 2
/// -c 2` (whose share runs to the searches' end) routed to its grace's end, at the watchdog,
/// and was answered by the drop answer under load (three test binaries at once; its game was
/// scored 0.02-0.05 s past its deadline in the runs that made it, `docs/icfp2015.md`, Part 20).
const WRAP_UP: Duration = Duration::from_millis(60);

/// The watchdog (after which the jobs still running are answered by [`drop_answer`]), the
/// searches' end (early enough that a job's routes, which may run [`ROUTE_GRACE`] of its time
/// past its deadline to route a whole plan, end [`WRAP_UP`] before the watchdog), and the time
/// by which the quickest answers are written: before, a flat 90 % / 97 % / 99 % of `-t`, which
/// left 30 s of the finals' `-t 300` unused.
fn schedule(time: Duration) -> (Duration, Duration, Duration) {
    let tail = TAIL_FIXED + time.mul_f64(TAIL_SHARE);
    let watchdog = time.saturating_sub(tail);
    let searching = watchdog.saturating_sub(WRAP_UP).div_f64(1.0 + ROUTE_GRACE);
    let fallback = time.saturating_sub(tail / 3);
    (searching, watchdog, fallback)
}

/// The least time the quickest answers get in all, so `-t 0` still drops every unit (within
/// the judge's tolerance of 1 s).
const FALLBACK_FLOOR: Duration = Duration::from_millis(50);

/// Solves every seed of every problem on `cores` threads and returns within `time`, whatever
/// the problem's size: each solution has been re-scored by the evaluator, and its tag says the
/// solver and the score. Jobs that have not finished (or not started) by the watchdog's share of
/// `time` get the quickest legal answer instead; their threads are left to end with the process.
/// It runs `plan.threads` threads (none: every seed gets the drop answer), each search's
/// tables within `plan.memory` ([`plan_memory`]).
pub fn play_all(
    setups: &[Setup],
    phrases: &PhraseSet,
    time: Duration,
    plan: MemoryPlan,
) -> Vec<Solution> {
    let MemoryPlan {
        threads: cores,
        memory,
        drop_bytes,
    } = plan;
    let started = Instant::now();
    let jobs: Arc<Vec<(usize, u32)>> = Arc::new(
        setups
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.problem.source_seeds.iter().map(move |&seed| (i, seed)))
            .collect(),
    );
    // Cores beyond one per job run more searches of the same job side by side (each from
    // other weights), and the best game is kept.
    let per_job = (cores / jobs.len().max(1)).max(1);
    let cores = cores.min(jobs.len());
    let (searching, watchdog, fallback_by) = schedule(time);
    let shared = Arc::new((setups.to_vec(), phrases.clone()));
    // The costliest jobs start first (routes grow with units x rows x columns), so the last
    // jobs handed out are short ones and no long job starts with little time left.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| {
        let p = &setups[jobs[j].0].problem;
        std::cmp::Reverse(p.source_length as u64 * p.height as u64 * p.width as u64)
    });
    let order = Arc::new(order);
    let next = Arc::new(AtomicUsize::new(0));
    let results: Arc<Vec<BestGame>> = Arc::new(jobs.iter().map(|_| BestGame::default()).collect());
    // Every job first gets its drop answer (its first answer), within its share of
    // [`FIRST_ANSWER_SHARE`] of the searching time, before any job's search: on a 128 x 10,000
    // board of 5,000 units x 3 seeds the searches overran their shares and the last seed started
    // at the watchdog, and the drop answers, written one after another in the last 70 ms, left
    // the second and third seeds empty (they scored 0).
    let first_rounds = jobs.len().div_ceil(cores.max(1)).max(1) as f64;
    let first_share = searching.mul_f64(FIRST_ANSWER_SHARE).div_f64(first_rounds);
    let (done, finished) = mpsc::channel::<()>();
    for _ in 0..cores {
        let (jobs, order, shared, next, results, done) = (
            Arc::clone(&jobs),
            Arc::clone(&order),
            Arc::clone(&shared),
            Arc::clone(&next),
            Arc::clone(&results),
            done.clone(),
        );
        let thread = std::thread::Builder::new().stack_size(SEARCH_STACK);
        let spawned = thread.spawn(move || {
            let (setups, phrases) = &*shared;
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k < jobs.len() {
                    let j = order[k];
                    let (i, seed) = jobs[j];
                    let deadline = Deadline::after(first_share);
                    if let Some((first, whole)) =
                        first_answer(&setups[i], seed, phrases, &deadline, drop_bytes)
                    {
                        results[j].offer_drop(&first, whole);
                    }
                    continue;
                }
                let k = k - jobs.len();
                let Some(&j) = order.get(k) else { break };
                let (i, seed) = jobs[j];
                let left = searching.saturating_sub(started.elapsed());
                if left.is_zero() {
                    break;
                }
                // The time left over the rounds of jobs left (each core takes one job a
                // round), so a job that overran its share takes time from the later ones
                // instead of leaving them none. With `cores / jobs left` instead, 3 jobs on 2
                // cores had 2/3, all, and the 1/3 left (the 5000-unit x 3-seed game at `-t 2
                // -c 2`: the third seed 0.5 s, one lock); by rounds, 1/2, all, 1/2.
                let rounds_left = (jobs.len() - k).div_ceil(cores) as f64;
                let share = left.div_f64(rounds_left.max(1.0));
                let deadline = Deadline::after(share);
                let offer = |played: &Played| results[j].offer(played);
                let played = play_job(
                    &setups[i], seed, phrases, &deadline, per_job, &memory, &offer,
                );
                results[j].end(&played);
                // The receiver may be gone at the watchdog: nothing then waits for this job.
                let _ = done.send(());
            }
        });
        // A thread the system refuses leaves its jobs to the others, or to the drop answer.
        drop(spawned);
    }
    drop(done);
    let mut answered = 0;
    while answered < jobs.len() {
        let left = watchdog.saturating_sub(started.elapsed());
        match finished.recv_timeout(left) {
            Ok(()) => answered += 1,
            Err(_) => break,
        }
    }
    // Jobs without a game yet: the quickest legal answer, all written by the fallback share,
    // which the jobs still to answer split evenly (written one after another under one
    // deadline, the first took it all and the others answered nothing). A job whose first
    // answer was the whole drop game answers its best game as it is: the drop answer written
    // now would be a prefix of that game, scoring no more (on a 128 x 10,000 board, 3 seeds,
    // three drop answers of ~1 M commands each were written and scored again there).
    let taken: Vec<_> = results.iter().map(BestGame::take).collect();
    let mut unanswered = taken.iter().filter(|(_, settled)| !settled).count();
    let at_watchdog = Instant::now();
    let (running, dropping) = (jobs.len() - answered, unanswered);
    let answers = jobs
        .iter()
        .zip(taken)
        .map(|(&(i, seed), (best, settled))| {
            let setup = &setups[i];
            if let (Some(played), true) = (&best, settled) {
                return solution(setup, seed, played.score, played.commands.clone());
            }
            let fallback = Deadline::after(
                fallback_by
                    .saturating_sub(started.elapsed())
                    .div_f64(unanswered.max(1) as f64)
                    .max(FALLBACK_FLOOR.div_f64(jobs.len().max(1) as f64)),
            );
            unanswered = unanswered.saturating_sub(1);
            let text = drop_answer_within(setup, seed, &fallback, drop_bytes);
            let score = evaluate(setup, u64::from(seed), &text, phrases)
                .ok()
                .filter(|e| e.error.is_none())
                .map_or(0, |e| e.score);
            match best {
                Some(played) if played.score > score => {
                    solution(setup, seed, played.score, played.commands)
                }
                _ => solution(setup, seed, score, text),
            }
        })
        .collect();
    if tracing() {
        eprintln!(
            "icfp2015 trace play: {running} of {} jobs running at the watchdog ({:.2} s), {dropping} drop answers written in {:.2} s",
            jobs.len(),
            at_watchdog.duration_since(started).as_secs_f64(),
            at_watchdog.elapsed().as_secs_f64()
        );
    }
    answers
}

/// The best game a job's searches offered so far, whether the job ended and whether its first
/// answer was the whole drop game: the job's answer once it ends or where that drop game was
/// whole; for another job still running at the watchdog, the better of it and the drop answer.
#[derive(Default)]
struct BestGame {
    best: Mutex<Option<Played>>,
    ended: std::sync::atomic::AtomicBool,
    dropped_whole: std::sync::atomic::AtomicBool,
}

impl BestGame {
    /// Keeps `played` where it scores more than the best so far.
    fn offer(&self, played: &Played) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| played.score > b.score) {
            *best = Some(played.clone());
        }
    }

    /// The job's first answer, its drop answer, offered; `whole` where it reached the game's end.
    fn offer_drop(&self, played: &Played, whole: bool) {
        self.offer(played);
        self.dropped_whole.store(whole, Ordering::Release);
    }

    /// The job's last game: `played` offered, and the job ended.
    fn end(&self, played: &Played) {
        self.offer(played);
        self.ended.store(true, Ordering::Release);
    }

    /// The best game offered, and whether it is the job's answer as it is: the job had ended,
    /// or its drop answer was whole (no drop answer written later scores more).
    fn take(&self) -> (Option<Played>, bool) {
        let settled =
            self.ended.load(Ordering::Acquire) || self.dropped_whole.load(Ordering::Acquire);
        let best = self.best.lock().unwrap_or_else(|e| e.into_inner()).take();
        (best, settled)
    }
}

/// One job's search: one thread, or `per_job` searches side by side, the best game kept; each
/// game routed is handed to `offer` as it is scored.
fn play_job(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    per_job: usize,
    memory: &SearchMemory,
    offer: &(dyn Fn(&Played) + Sync),
) -> Played {
    let here = || {
        memory.install();
        solve_offering(setup, seed, phrases, deadline, 0, memory, offer)
    };
    if per_job == 1 {
        return here();
    }
    // Where the system refused every search thread, the search runs on this one.
    let best = std::thread::scope(|inner| {
        let searches: Vec<_> = (0..per_job as u32)
            .map(|v| {
                std::thread::Builder::new()
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(inner, move || {
                        memory.install();
                        solve_offering(setup, seed, phrases, deadline, v, memory, offer)
                    })
            })
            .collect();
        searches
            .into_iter()
            .filter_map(|s| s.ok()?.join().ok())
            .max_by_key(|p| p.score)
    });
    best.unwrap_or_else(here)
}

/// Share of the searching time the jobs' first answers (their drop answers) may take in all,
/// before any search: nothing on a qualifier (problem 24's 1,620 units x 40 rows drop in a
/// millisecond or two), a third on a 128 x 10,000 board of 5,000 units, where the searches answer
/// less than the drop answer anyway (Parts 27 and 40).
const FIRST_ANSWER_SHARE: f64 = 0.35;

/// A job's first answer: its drop answer written until `deadline` (at most `bytes`), scored by
/// the evaluator, and whether it reached the game's end; `None` if it scores nothing.
fn first_answer(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    bytes: usize,
) -> Option<(Played, bool)> {
    let text = drop_answer_within(setup, seed, deadline, bytes);
    let e = evaluate(setup, u64::from(seed), &text, phrases).ok()?;
    let whole = e.status != Status::Playing;
    (e.error.is_none() && e.score > 0).then_some((
        Played {
            commands: text,
            score: e.score,
            locked: e.locked,
        },
        whole,
    ))
}

fn solution(setup: &Setup, seed: u32, score: u64, commands: String) -> Solution {
    Solution {
        problem_id: setup.problem.id,
        seed: u64::from(seed),
        tag: Some(format!("{SOLVER_TAG} score {score}")),
        solution: commands,
    }
}

/// The quickest legal answer: every unit falls straight down (SW and SE in turn, which never
/// brings it back to a position it had) until it locks, written until the game ends or
/// `deadline`; a prefix of a legal answer is legal, so stopping anywhere is safe.
pub fn drop_answer(setup: &Setup, seed: u32, deadline: &Deadline) -> String {
    drop_answer_within(setup, seed, deadline, usize::MAX)
}

/// [`drop_answer`] of at most `bytes` commands.
pub fn drop_answer_within(setup: &Setup, seed: u32, deadline: &Deadline, bytes: usize) -> String {
    let mut game = Game::new(setup, seed);
    let mut text = String::new();
    fall_rest(&mut game, &mut text, bytes, || deadline.expired());
    text
}

/// One leaderboard row: best, Unagi's and Frictionless Bananas' score for a problem.
struct Row {
    best: u64,
    unagi: u64,
    bananas: u64,
}

fn leaderboard() -> Vec<Row> {
    LEADERBOARD_TSV
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| {
                f[i].parse()
                    .expect("bundled leaderboard.tsv is well formed")
            };
            Row {
                best: n(1),
                unagi: n(3),
                bananas: n(5),
            }
        })
        .collect()
}

/// Plays the 25 qualifier problems (those of `only` if it is not empty) and prints our score
/// per problem (floor of the mean over its seeds, as the leaderboard did) next to the
/// leaderboard's.
/// Under a writing `report` (`--json`), one record per problem goes there besides the table.
pub fn bench(
    per_problem: Duration,
    cores: usize,
    only: &[i64],
    out: &mut dyn Write,
    report: &mut Report,
) -> std::io::Result<()> {
    let options = BenchOptions {
        phrases: PhraseSet::known(),
        generated: false,
        store: None,
    };
    bench_with(per_problem, cores, only, &options, out, report)
}

/// What a bench plays: with which phrases, on which problems.
pub struct BenchOptions {
    pub phrases: PhraseSet,
    /// The generated set (`gen::set`) instead of the qualifiers.
    pub generated: bool,
    /// The best-solution store the games' solutions are offered to.
    pub store: Option<std::path::PathBuf>,
}

/// Offers every solution of a bundled qualifier problem (the very problem, not only its id) to
/// the best-solution store in `dir`, with its score under `phrases`; other problems are skipped,
/// as the store's re-scorer knows only the bundled ones.
pub fn store_solutions(
    dir: &std::path::Path,
    setups: &[Setup],
    phrases: &PhraseSet,
    solutions: &[Solution],
) -> Result<(), crate::core::cli::CliError> {
    for solution in solutions {
        let bundled = usize::try_from(solution.problem_id)
            .ok()
            .and_then(|i| QUALIFIER_PROBLEMS.get(i))
            .and_then(|json| Problem::parse(json.as_bytes(), "bundled").ok());
        let played = setups.iter().find(|s| s.problem.id == solution.problem_id);
        if bundled.is_none() || played.map(|s| &s.problem) != bundled.as_ref() {
            continue;
        }
        crate::store::icfp2015::offer(
            dir,
            solution.problem_id,
            solution.seed,
            phrases,
            &solution.solution,
            tagged_score(solution),
        )
        .map_err(|e| {
            crate::core::cli::CliError::output(format!(
                "icfp2015: cannot store in {}: {e}",
                dir.display()
            ))
        })?;
    }
    Ok(())
}

/// [`bench`] with a phrase set of `options` (the leaderboard's scores were made with the known
/// 18, so only those compare).
pub fn bench_with(
    per_problem: Duration,
    cores: usize,
    only: &[i64],
    options: &BenchOptions,
    out: &mut dyn Write,
    report: &mut Report,
) -> std::io::Result<()> {
    let setups: Vec<Setup> = QUALIFIER_PROBLEMS
        .iter()
        .enumerate()
        .map(|(i, json)| {
            let name = format!("problem_{i}.json");
            Setup::new(Problem::parse(json.as_bytes(), &name).expect("bundled problem parses"))
        })
        .collect();
    let rows = leaderboard();
    let phrases = &options.phrases;
    writeln!(
        out,
        "icfp2015 ({SOLVER_TAG}, {:.1} s per problem, {cores} threads; {})",
        per_problem.as_secs_f64(),
        phrases.describe()
    )?;
    writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "problem", "seeds", "podium", "bananas", "unagi", "best", "/bananas"
    )?;
    let started = Instant::now();
    let mut sums = [0u64; 4];
    let selected = setups
        .iter()
        .filter(|s| only.is_empty() || only.contains(&s.problem.id))
        .count();
    // The table's rows show the progress; under --json a line on stderr does.
    let mut progress = Progress::new("icfp2015 bench", selected, !report.is_json());
    for (setup, row) in setups.iter().zip(&rows) {
        if !only.is_empty() && !only.contains(&setup.problem.id) {
            continue;
        }
        let seeds = setup.problem.source_seeds.len();
        let played = Instant::now();
        let solutions = play_all(
            std::slice::from_ref(setup),
            phrases,
            per_problem,
            ample(cores),
        );
        if let Some(dir) = &options.store {
            store_solutions(dir, std::slice::from_ref(setup), phrases, &solutions)
                .map_err(|e| std::io::Error::other(e.message))?;
        }
        let total: u64 = solutions.iter().map(tagged_score).sum();
        let ours = total / seeds.max(1) as u64;
        report.record(&Record {
            problem: "icfp2015",
            case: case_name(&setup.problem.id.to_string(), phrases),
            score: Some(ours as f64),
            references: vec![
                ("frictionless_bananas", row.bananas as f64),
                ("unagi", row.unagi as f64),
                ("best", row.best as f64),
            ],
            runs: vec![played.elapsed()],
            ..Record::default()
        })?;
        for (sum, v) in sums
            .iter_mut()
            .zip([ours, row.bananas, row.unagi, row.best])
        {
            *sum += v;
        }
        progress.advance(&format!("podium {} against Unagi {}", sums[0], sums[2]));
        writeln!(
            out,
            "{:>7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8.2}",
            setup.problem.id,
            seeds,
            ours,
            row.bananas,
            row.unagi,
            row.best,
            ours as f64 / row.bananas.max(1) as f64
        )?;
    }
    writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8.2}   ({:.1} s)",
        "sum",
        "",
        sums[0],
        sums[1],
        sums[2],
        sums[3],
        sums[0] as f64 / sums[1].max(1) as f64,
        started.elapsed().as_secs_f64()
    )
}

/// A bench record's case: the problem, and the phrase set unless it is the known 18.
fn case_name(problem: &str, phrases: &PhraseSet) -> String {
    let described = phrases.describe();
    if described.starts_with("the 18 known") {
        problem.to_string()
    } else {
        format!("{problem} ({described})")
    }
}

/// Plays the generated set (`gen::set`; ids 1000 and up, those of `only` if it is not empty)
/// and prints each problem's shape and our score (floor of the mean over its seeds).
pub fn bench_generated(
    per_problem: Duration,
    cores: usize,
    only: &[i64],
    options: &BenchOptions,
    out: &mut dyn Write,
    report: &mut Report,
) -> std::io::Result<()> {
    let phrases = &options.phrases;
    let problems: Vec<(String, Problem)> = crate::icfp2015::gen::set::problems()
        .into_iter()
        .filter(|(_, p)| only.is_empty() || only.contains(&p.id))
        .collect();
    writeln!(
        out,
        "icfp2015 generated set ({SOLVER_TAG}, {:.1} s per problem, {cores} threads; {})",
        per_problem.as_secs_f64(),
        phrases.describe()
    )?;
    writeln!(
        out,
        "{:>5} {:<20} {:>9} {:>6} {:>8} {:>6} {:>6} {:>5} {:>9}",
        "id", "name", "board", "shapes", "max size", "units", "filled", "seeds", "podium"
    )?;
    let started = Instant::now();
    let mut sum = 0;
    let mut progress = Progress::new("icfp2015 bench", problems.len(), !report.is_json());
    for (name, problem) in problems {
        let setup = Setup::new(problem);
        let p = &setup.problem;
        let played = Instant::now();
        let solutions = play_all(
            std::slice::from_ref(&setup),
            phrases,
            per_problem,
            ample(cores),
        );
        let total: u64 = solutions.iter().map(tagged_score).sum();
        let ours = total / p.source_seeds.len().max(1) as u64;
        sum += ours;
        report.record(&Record {
            problem: "icfp2015",
            case: case_name(&format!("generated {name}"), phrases),
            score: Some(ours as f64),
            runs: vec![played.elapsed()],
            ..Record::default()
        })?;
        progress.advance(&format!("podium {sum}"));
        let max_size = p.units.iter().map(|u| u.members.len()).max().unwrap_or(0);
        writeln!(
            out,
            "{:>5} {:<20} {:>9} {:>6} {:>8} {:>6} {:>6} {:>5} {:>9}",
            p.id,
            name,
            format!("{}x{}", p.width, p.height),
            p.units.len(),
            max_size,
            p.source_length,
            p.filled.len(),
            p.source_seeds.len(),
            ours
        )?;
    }
    writeln!(
        out,
        "{:>5} {:<20} {:>47} {:>9}   ({:.1} s)",
        "sum",
        "",
        "",
        sum,
        started.elapsed().as_secs_f64()
    )
}

/// The score `play_all` wrote into a solution's tag.
fn tagged_score(solution: &Solution) -> u64 {
    solution
        .tag
        .as_deref()
        .and_then(|t| t.rsplit(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_ends_the_grace_by_the_watchdog_and_uses_long_limits() {
        for seconds in [0.0, 0.5, 2.0, 10.0, 60.0, 300.0] {
            let time = Duration::from_secs_f64(seconds);
            let (searching, watchdog, fallback) = schedule(time);
            assert!(
                searching.mul_f64(1.0 + ROUTE_GRACE) + WRAP_UP
                    <= watchdog + Duration::from_micros(1)
                    || searching.is_zero()
            );
            assert!(watchdog <= fallback && fallback <= time);
        }
        // The finals' -t 300: searches until past 280 s (270 s with the flat 90 %).
        assert!(schedule(Duration::from_secs(300)).0 > Duration::from_secs(280));
    }

    #[test]
    fn the_best_game_offered_is_kept_and_the_end_is_told() {
        let best = BestGame::default();
        assert!(best.take().0.is_none());
        let game = |score: u64| Played {
            commands: format!("{score}"),
            score,
            locked: 1,
        };
        for score in [5, 3, 7, 7, 6] {
            best.offer(&game(score));
        }
        let (kept, ended) = best.take();
        assert_eq!(
            (kept.map(|p| p.commands), ended),
            (Some("7".to_string()), false)
        );
        best.offer(&game(4));
        best.end(&game(2));
        let (kept, ended) = best.take();
        assert_eq!(
            (kept.map(|p| p.commands), ended),
            (Some("4".to_string()), true)
        );
    }

    #[test]
    fn a_whole_drop_answer_settles_a_job_and_a_cut_one_does_not() {
        let game = |score: u64| Played {
            commands: format!("{score}"),
            score,
            locked: 1,
        };
        // Cut by its deadline: the watchdog still writes a drop answer and keeps the better.
        let cut = BestGame::default();
        cut.offer_drop(&game(3), false);
        assert!(!cut.take().1);
        // Whole: the job's best game is its answer at the watchdog as it is, a search's better
        // game offered after it included.
        let whole = BestGame::default();
        whole.offer_drop(&game(3), true);
        whole.offer(&game(5));
        let (kept, settled) = whole.take();
        assert_eq!((kept.map(|p| p.score), settled), (Some(5), true));
        // The first answers of a game that ends: one whole, one cut short by a deadline passed.
        let setup = problem(10, 10, 30, 1);
        let phrases = PhraseSet::none();
        let later = Deadline::after(Duration::from_secs(60));
        let (first, whole) = first_answer(&setup, 0, &phrases, &later, usize::MAX).unwrap();
        assert!(whole && first.score > 0, "{first:?}");
        let (part, whole) = first_answer(&setup, 0, &phrases, &later, 20).unwrap();
        assert!(!whole && part.score < first.score, "{part:?}");
    }

    /// An empty `width` x `height` problem of `units` one-cell units and `seeds` seeds.
    fn problem(width: usize, height: usize, units: usize, seeds: usize) -> Setup {
        let seeds: Vec<String> = (0..seeds).map(|s| s.to_string()).collect();
        let json = format!(
            r#"{{"id":1,"width":{width},"height":{height},"filled":[],"sourceLength":{units},
            "sourceSeeds":[{}],"units":[{{"members":[{{"x":0,"y":0}}],"pivot":{{"x":0,"y":0}}}}]}}"#,
            seeds.join(",")
        );
        Setup::new(Problem::parse(json.as_bytes(), "p.json").expect("a valid problem"))
    }

    #[test]
    fn memory_limits_the_threads_and_their_tables() {
        let small = [problem(15, 20, 100, 1)];
        let threads = |cores, m| plan_memory(cores, m, &small).unwrap().threads;
        assert_eq!(threads(4, None), 4);
        assert_eq!(threads(4, Some(1000)), 4);
        assert_eq!(threads(4, Some(20)), 2);
        assert_eq!(threads(4, Some(16)), 1);
        assert_eq!(threads(0, Some(1000)), 1);
        assert!(plan_memory(1, Some(MIN_MEGABYTES - 1), &small).is_err());
        // No limit, or the contest's on 2 cores: the short game's tables whole.
        assert_eq!(
            plan_memory(2, None, &small).unwrap().memory,
            SearchMemory::AMPLE
        );
        let contest = plan_memory(2, Some(1024), &small).unwrap().memory;
        assert_eq!(contest.nodes, SearchMemory::AMPLE.nodes);
        // -m 40 on 2 threads: what is left of 40 MB beyond the process, 2 threads and the
        // answers, shared.
        let each = plan_memory(2, Some(40), &small).unwrap().memory;
        let cells = 15 * 20 * BYTES_PER_CELL as usize;
        let left = (40 - PROCESS_MEGABYTES as usize) << 20;
        let share = left / 2 - (THREAD_MEGABYTES << 20) as usize - cells;
        assert!(
            each.bytes() <= share && each.bytes() > share * 9 / 10,
            "{each:?}"
        );
        // The largest legal board of 5,000 units: a search thread takes ~140 MB, one seed's
        // answers ~190 MB. One seed: one thread under 400 MB, two under 1024. Three seeds: none
        // under 700 (every seed gets a drop answer of at most the bytes left).
        let one = [problem(128, 10_000, 5000, 1)];
        assert_eq!(plan_memory(2, Some(400), &one).unwrap().threads, 1);
        assert_eq!(plan_memory(2, Some(1024), &one).unwrap().threads, 2);
        let largest = [problem(128, 10_000, 5000, 3)];
        assert_eq!(plan_memory(2, Some(700), &largest).unwrap().threads, 0);
        let tight = plan_memory(2, Some(100), &largest).unwrap();
        assert_eq!(tight.threads, 0);
        assert!(tight.drop_bytes * 3 * ANSWER_COPIES as usize <= 100 << 20);
    }

    #[test]
    fn a_drop_answer_stops_at_its_bytes() {
        let setup = problem(10, 30, 50, 1);
        let forever = Deadline::after(Duration::from_secs(60));
        let whole = drop_answer(&setup, 0, &forever);
        let cut = drop_answer_within(&setup, 0, &forever, 100);
        assert!(whole.len() > 100 && cut.len() == 100 && whole.starts_with(&cut));
    }
}
