//! Every command ends the same way when its output cannot be written: quietly with exit 0 on a
//! closed pipe (as Unix tools do), one line and exit 1 on a full disk; never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn scratch(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("output-errors-{name}"));
    std::fs::write(&path, text).expect("write a scratch file");
    path
}

/// The commands whose answers go to stdout, with inputs that make them answer at once.
fn commands() -> Vec<(&'static str, Vec<String>)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let cephalopod = scratch("cephalopod.txt", "3\n0 0 0\n0 0 0\n0 0 0\n");
    let grid = scratch("grid.txt", "CAT\n");
    let slider_in = format!("{root}/data/slider/instances/seed_001.txt");
    let slider_out = scratch("slider-out.txt", "0\n");
    let icfp = format!("{root}/data/icfp2015/problems/problem_1.json");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let c = cephalopod.to_str().unwrap();
    vec![
        ("podium", s(&["cephalopod", c])),
        ("podium", s(&["verify", "cephalopod", c])),
        (
            "podium",
            s(&["slider", "score", &slider_in, slider_out.to_str().unwrap()]),
        ),
        (
            "podium",
            s(&["slider", "solve", &slider_in, "--time", "0.05"]),
        ),
        ("podium", s(&["bananagrams", "solve", "CATDOG"])),
        ("podium", s(&["bananagrams", "anagrams", "CATDOG"])),
        (
            "podium",
            s(&["bananagrams", "check", grid.to_str().unwrap(), "CAT"]),
        ),
        ("podium", s(&["bananagrams", "hands", "--count", "5"])),
        ("podium", s(&["bananagrams", "dict"])),
        ("podium", s(&["bench", "--problem", "tetromino"])),
        (
            "podium",
            s(&[
                "bench",
                "--problem",
                "cephalopod",
                "--filter",
                "cg01",
                "--runs",
                "1",
            ]),
        ),
        ("podium", s(&["tetromino", "solve", "-n", "4", "-s", "I4"])),
        (
            "podium",
            s(&["tetromino", "gen", "-n", "8", "--count", "3"]),
        ),
        ("podium", s(&["icfp2015", "play", "-f", &icfp, "-t", "0.2"])),
        ("play_icfp2015", s(&["-f", &icfp, "-t", "0.2"])),
        ("cephalopod_judge", s(&[c])),
    ]
}

fn binary(name: &str) -> &'static str {
    match name {
        "podium" => env!("CARGO_BIN_EXE_podium"),
        "cephalopod_judge" => env!("CARGO_BIN_EXE_cephalopod_judge"),
        _ => env!("CARGO_BIN_EXE_play_icfp2015"),
    }
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    for (name, args) in commands() {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(binary(name))
            .args(&args)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .expect("run the command");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(0) && !stderr.contains("panicked"),
            "{name} {args:?}: {:?} {stderr}",
            out.status
        );
    }
}

#[test]
fn a_full_disk_is_one_line_and_exit_1() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    for (name, args) in commands() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full");
        let out = Command::new(binary(name))
            .args(&args)
            .stdout(Stdio::from(full))
            .output()
            .expect("run the command");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name} {args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name} {args:?}: {stderr}");
        assert!(
            stderr.contains("No space left"),
            "{name} {args:?}: {stderr}"
        );
    }
}
