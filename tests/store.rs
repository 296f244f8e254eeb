//! The best-solution store as users drive it: processes writing one store at once lose no
//! update (every replacement replaces the one before it), `best merge` rejects forged and corrupt entries, `best export` writes scorable outputs,
//! and `bench --shard` splits the cephalopod cases exactly.

#[path = "common/run.rs"]
mod run;
use run::{podium, text};

use podium::store::put::entry_path;
use podium::store::put::Offer;
use podium::store::{offer, Entry};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/records.rs"]
mod records;
use records::cases;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("podium-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const INSTANCES: u64 = 4;
const OFFERS: u64 = 300;
const WRITERS: u64 = 3;

/// The score writer `writer` offers on its `k`-th try. Even tries climb, interleaved between
/// the writers, so most of them replace the entry while another writer is replacing it too (the
/// moment a lost update needs); odd tries are a scrambled low sequence, mostly kept out.
fn offered(writer: u64, k: u64) -> i64 {
    if k.is_multiple_of(2) {
        (k * WRITERS + writer) as i64
    } else {
        ((k * 7919 + writer * 104_729) % 1000) as i64
    }
}

/// Run as a child process by the concurrency test (env PODIUM_STORE_WRITER=DIR,ID): prints
/// `instance replaced stored` for every offer the store took (replaced `-` for the first).
#[test]
fn writer_child() {
    let Ok(spec) = std::env::var("PODIUM_STORE_WRITER") else {
        return;
    };
    let (dir, writer) = spec.split_once(',').unwrap();
    let writer: u64 = writer.parse().unwrap();
    for k in 0..OFFERS {
        let instance = format!("seed-{}", k % INSTANCES + 1);
        let score = offered(writer, k);
        let entry = Entry::new("slider", instance.clone(), score, format!("{writer} {k}\n"));
        if let Offer::Stored { replaced } = offer(Path::new(dir), &entry).unwrap() {
            let replaced = replaced.map_or("-".to_string(), |r| r.to_string());
            println!("STORED {instance} {replaced} {score}");
        }
    }
}

#[test]
fn processes_writing_at_once_lose_no_update() {
    let dir = fresh_dir("race");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..WRITERS)
        .map(|writer| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "writer_child",
                    "--test-threads",
                    "1",
                    "--nocapture",
                ])
                .env("PODIUM_STORE_WRITER", format!("{},{writer}", dir.display()))
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Per instance, what each replacement replaced: under the lock the replacements form one
    // chain (each replaces the one stored just before it). Two that replaced the same score read
    // the file at the same time: one of them overwrote the other's update unseen.
    let mut replaced_by: BTreeMap<(String, String), i64> = BTreeMap::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        for line in text(&out.stdout).lines() {
            let Some(stored) = line.strip_prefix("STORED ") else {
                continue;
            };
            let fields: Vec<&str> = stored.split(' ').collect();
            let (instance, replaced, score) = (fields[0], fields[1], fields[2]);
            let score: i64 = score.parse().unwrap();
            let key = (instance.to_string(), replaced.to_string());
            if let Some(other) = replaced_by.insert(key, score) {
                panic!("lost update on {instance}: {score} and {other} both replaced {replaced}");
            }
        }
    }
    let mut best: BTreeMap<u64, i64> = BTreeMap::new();
    for writer in 0..WRITERS {
        for k in 0..OFFERS {
            let slot = best.entry(k % INSTANCES + 1).or_insert(i64::MIN);
            *slot = (*slot).max(offered(writer, k));
        }
    }
    for (seed, score) in best {
        let path = entry_path(&dir, "slider", &format!("seed-{seed}"));
        let entry = Entry::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(entry.score, score, "seed {seed}");
        let (writer, k) = entry.solution.trim().split_once(' ').unwrap();
        assert_eq!(offered(writer.parse().unwrap(), k.parse().unwrap()), score);
    }
    let leftovers = std::fs::read_dir(dir.join("slider"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".tmp")
        })
        .count();
    assert_eq!(leftovers, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_rejects_forged_and_corrupt_entries_and_export_writes_scorable_outputs() {
    let root = fresh_dir("merge");
    let (a, b, merged, out) = (
        root.join("a"),
        root.join("b"),
        root.join("merged"),
        root.join("out"),
    );
    let instance = root.join("seed_001.txt");
    std::fs::write(&instance, podium::slider::cases::INSTANCES[0].1).unwrap();
    let solved = podium(&[
        "slider",
        "solve",
        instance.to_str().unwrap(),
        "--checks",
        "20",
        "--store",
        a.to_str().unwrap(),
    ]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let good = std::fs::read_to_string(entry_path(&a, "slider", "seed-1")).unwrap();
    let entry = Entry::parse(&good).unwrap();
    assert!(entry.score > 0);
    let forged = Entry {
        score: entry.score + 1000,
        ..entry.clone()
    };
    std::fs::create_dir_all(b.join("slider")).unwrap();
    std::fs::write(entry_path(&b, "slider", "seed-1"), forged.to_text()).unwrap();
    std::fs::write(entry_path(&b, "slider", "seed-2"), "{\"problem\": \"sli").unwrap();
    let merging = podium(&[
        "best",
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--into",
        merged.to_str().unwrap(),
    ]);
    let report = text(&merging.stdout);
    assert_eq!(merging.status.code(), Some(1), "{report}");
    assert!(
        report.contains(&format!(
            "seed-1.json: claims score {}, the scorer gives {}",
            entry.score + 1000,
            entry.score
        )),
        "{report}"
    );
    assert!(
        report.contains("seed-2.json: not a store entry"),
        "{report}"
    );
    assert!(report.contains("merged 3 entries"), "{report}");
    let kept = std::fs::read_to_string(entry_path(&merged, "slider", "seed-1")).unwrap();
    assert_eq!(Entry::parse(&kept).unwrap().score, entry.score);

    let exported = podium(&[
        "best",
        "export",
        merged.to_str().unwrap(),
        "--problem",
        "slider",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(exported.status.success(), "{}", text(&exported.stderr));
    let scored = podium(&[
        "slider",
        "score",
        instance.to_str().unwrap(),
        out.join("seed-1.out").to_str().unwrap(),
    ]);
    assert_eq!(text(&scored.stdout).trim(), entry.score.to_string());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn cephalopod_shards_together_are_one_whole_run() {
    let bench = |shard: Option<&str>| {
        let mut args = vec!["bench", "--problem", "cephalopod", "--json", "--runs", "1"];
        args.extend(["--filter", "cg0"]);
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        let out = podium(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let whole = bench(None);
    let shards = [bench(Some("0/2")), bench(Some("1/2"))];
    assert!(!shards[0].is_empty() && !shards[1].is_empty());
    assert_eq!(cases(&(shards[0].clone() + &shards[1])), cases(&whole));
    let bad = podium(&["bench", "--shard", "2/2"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("shard '2/2' is not I/N"));
}

#[test]
fn bananagrams_game_shards_together_are_one_whole_run() {
    let bench = |extra: &[&str]| {
        let mut args = vec!["bananagrams", "bench", "--games", "12", "--json", "--quiet"];
        args.extend(extra);
        let out = podium(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let whole = bench(&["--per-game"]);
    assert_eq!(cases(&whole).len(), 12);
    let shards = [bench(&["--shard", "0/2"]), bench(&["--shard", "1/2"])];
    assert!(!shards[0].is_empty() && !shards[1].is_empty());
    // Same games, same winners: the simulated clock makes every game repeatable.
    assert_eq!(cases(&(shards[0].clone() + &shards[1])), cases(&whole));
}
