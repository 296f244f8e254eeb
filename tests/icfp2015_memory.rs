//! `play_icfp2015 -m`: the process's peak memory (the child's max RSS, from `wait4`) stays under
//! the limit on a short game and on the largest legal board, and a limit below the least podium
//! honours is one line and exit 2.

use podium::icfp2015::rules::game::{evaluate, Setup};
use podium::icfp2015::rules::phrases::PhraseSet;
use podium::icfp2015::rules::problem::Problem;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn problem(i: usize) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/icfp2015/problems/problem_{i}.json"))
}

/// A file of this process's own under the target's scratch directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("icfp2015-memory-{name}-{}", std::process::id())),
        )
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// What a run left: exit code, stdout, stderr and the child's peak resident set in MB.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    peak_mb: f64,
}

/// Runs `play_icfp2015 args`, its output in files (the largest board's answers are megabytes),
/// and reaps it with `wait4` for its own peak RSS.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which std's wait does not expose"
)]
fn play(name: &str, args: &[&str]) -> Run {
    let (out, err) = (
        TempFile::new(&format!("{name}.out")),
        TempFile::new(&format!("{name}.err")),
    );
    let child = Command::new(env!("CARGO_BIN_EXE_play_icfp2015"))
        .args(args)
        .stdout(Stdio::from(std::fs::File::create(&out.0).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err.0).unwrap()))
        .spawn()
        .expect("run play_icfp2015");
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct `wait4` fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `child.id()` is our own child, not yet reaped (the `Child` is never waited on),
    // and both out-pointers are valid for the call.
    let reaped = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(reaped, child.id() as libc::pid_t, "wait4 failed");
    assert!(
        libc::WIFEXITED(status),
        "play_icfp2015 did not exit: {status}"
    );
    Run {
        code: libc::WEXITSTATUS(status),
        stdout: std::fs::read_to_string(&out.0).unwrap(),
        stderr: std::fs::read_to_string(&err.0).unwrap(),
        // Linux reports kilobytes.
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
    }
}

/// Every solution of `run` replays legally with no phrases; how many there are.
fn legal_answers(file: &Path, run: &Run) -> usize {
    let setup = Setup::new(Problem::parse(&std::fs::read(file).unwrap(), "p.json").unwrap());
    let solutions: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    for s in &solutions {
        let seed = s["seed"].as_u64().unwrap();
        let text = s["solution"].as_str().unwrap();
        let e = evaluate(&setup, seed, text, &PhraseSet::none()).unwrap();
        assert!(e.error.is_none(), "seed {seed}: {:?}", e.error);
    }
    solutions.len()
}

/// Problem 13 (15 x 20, 100 units of 17 cells) under -m 40: its branch and bound's children
/// and its bound's caches once took it to 74 MB (docs/icfp2015.md, Part 27). A 128 x 10,000
/// board of 5,000 units and 2 seeds: one search thread (~140 MB with its routes' grids) under
/// -m 200; under -m 64 none fits, and both seeds get the drop answer (a route's DP table alone
/// took 794 MB before, whatever -m said). One test, and every answer checked only after the
/// last run: a child's max RSS counts its parent's at the fork (Linux keeps the old memory's
/// high-water mark across `exec`), and this process grows by ~140 MB replaying the big board's
/// answers (a first version measured 146 MB "under -m 64" that way).
#[test]
fn the_peak_memory_stays_under_the_limit() {
    let p13 = problem(13);
    let largest = TempFile::new("largest.json");
    std::fs::write(
        &largest.0,
        r#"{"id":1,"width":128,"height":10000,"filled":[],"sourceLength":5000,
        "sourceSeeds":[0,1],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}},
        {"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
    )
    .unwrap();
    let cases: [(&Path, &str, &str, usize); 3] = [
        (&p13, "40", "1", 1),
        (&largest.0, "200", "2", 2),
        (&largest.0, "64", "2", 2),
    ];
    let runs: Vec<Run> = cases
        .iter()
        .map(|&(file, limit, threads, _)| {
            let args = [
                "-f",
                file.to_str().unwrap(),
                "-t",
                "3",
                "-c",
                threads,
                "-m",
                limit,
                "--known-phrases",
            ];
            play(&format!("run-{limit}"), &args)
        })
        .collect();
    for (&(file, limit, _, seeds), run) in cases.iter().zip(&runs) {
        assert_eq!(run.code, 0, "{}", run.stderr);
        let megabytes: f64 = limit.parse().unwrap();
        assert!(
            run.peak_mb <= megabytes,
            "{}: peak {:.1} MB under -m {limit}",
            file.display(),
            run.peak_mb
        );
        assert_eq!(legal_answers(file, run), seeds);
    }
    assert!(runs[2].stderr.contains("drop answer"), "{}", runs[2].stderr);
}

#[test]
fn a_limit_below_the_least_is_one_line_and_exit_2() {
    let file = problem(1);
    let run = play(
        "least",
        &["-f", file.to_str().unwrap(), "-t", "1", "-m", "15"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("outside 16..="), "{}", run.stderr);
}
