//! The recipes of deploy/ on this machine: GNU parallel over 2 shards gives one whole run's
//! cases and answers, a shard that died is named by the join and re-running it completes the run;
//! Slurm's array when `sbatch` is installed. Each skips with one line when its tool is missing.

#[path = "common/run.rs"]
mod run;
use run::text;

#[path = "common/records.rs"]
mod records;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BENCH: [&str; 6] = ["--problem", "cephalopod", "--filter", "cg0", "--runs", "1"];

fn shell_ok(script: &str) -> bool {
    Command::new("sh")
        .args(["-c", script])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn has(tool: &str) -> bool {
    shell_ok(&format!("command -v {tool}"))
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("podium-deploy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// (case, answer) of every record of the file, sorted.
fn cases(path: &Path) -> Vec<(String, String)> {
    records::cases(&std::fs::read_to_string(path).unwrap())
}

fn whole_run(dir: &Path) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(["bench", "--json", "--quiet"])
        .args(BENCH)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = dir.join("whole.jsonl");
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

fn parallel(dir: &Path, expect: &Path, only: Option<&str>) -> Output {
    let mut command = Command::new("deploy/parallel.sh");
    command
        .args(["2", dir.join("run").to_str().unwrap()])
        .args(BENCH)
        .env("PODIUM", env!("CARGO_BIN_EXE_podium"))
        .env("EXPECT", expect);
    if let Some(only) = only {
        command.env("ONLY", only);
    }
    command.output().unwrap()
}

#[test]
fn gnu_parallel_shards_make_one_whole_run_and_a_dead_shard_is_rerun() {
    if !has("parallel") {
        println!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let dir = fresh_dir("parallel");
    let whole = whole_run(&dir);
    let joined = parallel(&dir, &whole, None);
    assert!(
        joined.status.success(),
        "{}{}",
        text(&joined.stdout),
        text(&joined.stderr)
    );
    let run = dir.join("run");
    assert_eq!(cases(&run.join("run.jsonl")), cases(&whole));

    // Shard 1 dies mid-write: its file keeps half a line.
    let shard = run.join("shard-1.jsonl");
    let lines = std::fs::read_to_string(&shard).unwrap();
    std::fs::write(&shard, &lines[..lines.len() / 2]).unwrap();
    let broken = parallel(&dir, &whole, Some("none"));
    let report = text(&broken.stdout);
    assert_eq!(broken.status.code(), Some(1), "{report}");
    assert!(report.contains("(shard 1/2)"), "{report}");
    assert!(!report.contains("(shard 0/2)"), "{report}");

    let rerun = parallel(&dir, &whole, Some("1"));
    assert!(rerun.status.success(), "{}", text(&rerun.stdout));
    assert_eq!(cases(&run.join("run.jsonl")), cases(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Submits the array (all shards, or only `array` such as "1") and its merge, and waits for both.
fn slurm(run: &Path, whole: &Path, array: Option<&str>) -> String {
    let _ = std::fs::remove_file(run.join("merge.txt"));
    let mut command = Command::new("deploy/slurm/submit.sh");
    command
        .args(["2", run.to_str().unwrap()])
        .args(BENCH)
        .env("PODIUM", env!("CARGO_BIN_EXE_podium"))
        .env("EXPECT", whole);
    if let Some(array) = array {
        command.env("ARRAY", array);
    }
    let submitted = command.output().unwrap();
    assert!(submitted.status.success(), "{}", text(&submitted.stderr));
    let job = text(&submitted.stdout).trim().to_string();
    let started = std::time::Instant::now();
    while !run.join("merge.txt").exists() || shell_ok(&format!("squeue -h -j {job} | grep -q .")) {
        assert!(
            started.elapsed().as_secs() < 120,
            "slurm job {job} did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    std::fs::read_to_string(run.join("merge.txt")).unwrap()
}

#[test]
fn slurm_array_shards_make_one_whole_run_and_a_dead_shard_is_rerun() {
    if !has("sbatch") || !shell_ok("sinfo -h | grep -q idle") {
        println!("skipped: no Slurm node is up here (deploy/slurm/setup-single-node.sh)");
        return;
    }
    let dir = fresh_dir("slurm");
    let whole = whole_run(&dir);
    let run = dir.join("run");
    slurm(&run, &whole, None);
    assert_eq!(cases(&run.join("run.jsonl")), cases(&whole));

    // Shard 1 dies mid-write; the merge names its cases, and re-running it alone completes the run.
    let shard = run.join("shard-1.jsonl");
    let lines = std::fs::read_to_string(&shard).unwrap();
    std::fs::write(&shard, &lines[..lines.len() / 2]).unwrap();
    std::fs::remove_file(run.join("run.jsonl")).unwrap();
    slurm(&run, &whole, Some("1"));
    assert_eq!(cases(&run.join("run.jsonl")), cases(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}
