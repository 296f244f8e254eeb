//! `podium tetromino solve --watch`: the full-screen view driven in tmux on a small square that
//! reaches its solution, q and Ctrl-C leaving a usable terminal, and the text trace without one.

use std::process::{Command as Process, Stdio};

#[path = "common/tmux.rs"]
mod tmux;
use tmux::{has_tmux, Tmux};

const PODIUM: &str = env!("CARGO_BIN_EXE_podium");

/// The shell command watching `args`, then reporting its exit code and the terminal's modes.
fn watch_command(args: &str) -> String {
    format!(
        "'{PODIUM}' tetromino solve {args} --watch --no-color; echo \"EXIT=$?\"; stty -a; echo STTY-END; sleep 30"
    )
}

fn assert_terminal_restored(tmux: &Tmux, screen: &str) {
    let settings: Vec<&str> = screen.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(settings.contains(&mode), "stty shows {mode} off:\n{screen}");
    }
    assert_eq!(tmux.format("#{alternate_on}"), "0");
    assert_eq!(tmux.format("#{cursor_flag}"), "1");
}

#[test]
fn the_watch_view_reaches_the_solution_of_a_small_square() {
    if !has_tmux("tetromino --watch screen") {
        return;
    }
    // 6x6 with I2,J2,L2,T2,O1: the quick search runs out and the full search tiles it after a
    // few hundred steps, with pockets pruned and backtracks on the way.
    let tmux = Tmux::start(
        "watch",
        100,
        &watch_command("-n 6 -s I2,J2,L2,T2,O1 --delay 5"),
    );
    let screen = tmux.wait_for("tetromino --watch  6x6");
    assert!(screen.contains("q or Ctrl-C stops"), "{screen}");
    assert!(screen.contains("tried "), "{screen}");
    let screen = tmux.wait_for("STTY-END");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(
        screen.contains("watch: solved: 9 pieces placed"),
        "{screen}"
    );
    // The final board, six rows of six letters, precedes the verdict, then the JSON.
    let board: Vec<&str> = screen
        .lines()
        .take_while(|l| !l.starts_with("watch:"))
        .filter(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            cells.len() == 6 && cells.iter().all(|c| "IJLOSTZ".contains(*c) && c.len() == 1)
        })
        .collect();
    assert_eq!(board.len(), 6, "{screen}");
    assert!(
        screen.contains("[[\""),
        "the contest JSON follows:\n{screen}"
    );
    assert_terminal_restored(&tmux, &screen);
}

#[test]
fn ctrl_c_stops_the_watch_and_leaves_the_terminal_usable() {
    if !has_tmux("tetromino --watch screen") {
        return;
    }
    // An exhaustive proof of hundreds of steps, slowed to 200 ms a step.
    let tmux = Tmux::start("watch", 100, &watch_command("-n 8 -s T4,Z12 --delay 200"));
    tmux.wait_for("tried 2 ");
    assert_eq!(tmux.format("#{alternate_on}"), "1");
    tmux.press(&["C-c"]);
    let screen = tmux.wait_for("STTY-END");
    assert!(screen.contains("EXIT=4"), "{screen}");
    assert!(screen.contains("stopped at the watch view"), "{screen}");
    assert_terminal_restored(&tmux, &screen);
}

#[test]
fn without_a_terminal_the_watch_is_a_bounded_text_trace() {
    let out = Process::new(PODIUM)
        .args(["tetromino", "solve", "-n", "8", "-s", "T4,Z12", "--watch"])
        .stdin(Stdio::null())
        .output()
        .expect("run podium");
    assert_eq!(out.status.code(), Some(3));
    let trace = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = trace.lines().collect();
    assert!(lines[0].starts_with("#1 stage: the rules"), "{trace}");
    for step in [
        "try ",
        "prune ",
        "encloses a pocket",
        "backtrack ",
        "attempt 1 ",
    ] {
        assert!(trace.contains(step), "no {step:?} in the trace:\n{trace}");
    }
    let verdict = lines
        .iter()
        .find(|l| l.contains("unsolvable: exhaustive search"))
        .unwrap_or_else(|| panic!("no verdict:\n{trace}"));
    assert!(verdict.contains("backtracks"), "{verdict}");
    let summary = lines
        .iter()
        .find(|l| l.starts_with("trace: "))
        .expect("a summary");
    let events: u64 = summary["trace: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("an event count");
    // Thousands of events, about 110 lines: all up to #100, then powers of two.
    assert!(events > 1000, "{summary}");
    assert!(
        lines.len() < 130,
        "{} lines for {events} events",
        lines.len()
    );
    assert!(out.stdout.is_empty());
    let bad_delay = Process::new(PODIUM)
        .args([
            "tetromino",
            "solve",
            "-n",
            "4",
            "-s",
            "I1,J1,L1,Z1",
            "--watch",
        ])
        .args(["--delay", "-3"])
        .stdin(Stdio::null())
        .output()
        .expect("run podium");
    assert_eq!(bad_delay.status.code(), Some(2));
}
