//! `podium icfp2015 manual` driven in tmux, the 18 known phrases in play: a scripted game that
//! spells a phrase, saved and re-scored; a repeat refused; Ctrl-C and signals; --load; no tty.

use podium::icfp2015::{Command, Game, Outcome, PhraseSet, Problem, Setup};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

#[path = "common/tmux.rs"]
mod tmux;
use tmux::{has_tmux, Tmux};

const PODIUM: &str = env!("CARGO_BIN_EXE_podium");

fn problem(i: usize) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("data/icfp2015/problems/problem_{i}.json"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("icfp2015-manual");
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    let path = dir.join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The shell command running the game on problem 0, then reporting its exit code and waiting.
fn game_command(output: &Path) -> String {
    format!(
        "'{PODIUM}' icfp2015 manual -f '{}' -o '{}' --known-phrases; echo \"EXIT=$?\"; stty -a; echo STTY-END; sleep 30",
        problem(0).display(),
        output.display()
    )
}

/// The number after `label` on the screen.
fn number_after(screen: &str, label: &str) -> u64 {
    let at = screen
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in:\n{screen}"))
        + label.len();
    let digits: String = screen[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a number after {label:?} in:\n{screen}"))
}

/// The saved file's solution string.
fn saved_solution(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("the saved file");
    let entries: serde_json::Value = serde_json::from_str(&text).expect("saved JSON");
    assert_eq!(entries[0]["problemId"], 0, "{text}");
    assert_eq!(entries[0]["seed"], 0, "{text}");
    entries[0]["solution"]
        .as_str()
        .expect("a solution string")
        .to_string()
}

/// `ei!` at each unit's spawn, then down-left and down-right until it locks, for `units` units.
fn spelling_script(setup: &Setup, units: u32) -> String {
    let mut game = Game::new(setup, 0);
    let mut script = String::new();
    let mut play = |c: char, command: Command, script: &mut String| {
        script.push(c);
        game.step(command)
    };
    let mut locked = 0;
    while locked < units {
        for (c, command) in [('e', Command::E), ('i', Command::SW), ('!', Command::W)] {
            if let Outcome::Locked { .. } = play(c, command, &mut script) {
                locked += 1;
            }
        }
        let mut down = [('a', Command::SW), ('l', Command::SE)].into_iter().cycle();
        while locked < units {
            let (c, command) = down.next().expect("a cycle");
            let outcome = play(c, command, &mut script);
            assert_ne!(outcome, Outcome::Repeated);
            if let Outcome::Locked { .. } = outcome {
                locked += 1;
                break;
            }
        }
    }
    script
}

#[test]
fn a_scripted_game_spells_a_phrase_and_rescores_to_the_screen() {
    if !has_tmux("icfp2015 manual screen") {
        return;
    }
    let bytes = std::fs::read(problem(0)).expect("problem 0");
    let setup = Setup::new(Problem::parse(&bytes, "problem_0.json").expect("problem 0 parses"));
    let script = spelling_script(&setup, 3);
    let phrases = PhraseSet::known();
    let spelled = phrases.count(&script)[0];
    assert!(spelled >= 3, "{script}");

    let output = scratch("spelled.json");
    let tmux = Tmux::start("manual", 120, &game_command(&output));
    tmux.wait_for("podium icfp2015 manual");
    tmux.type_text(&script);
    let screen = tmux.wait_for(&format!("commands {} ", script.len()));
    assert!(screen.contains(&format!("typed: \"{script}\"")), "{screen}");
    assert!(screen.contains("unit 4/100"), "{screen}");
    let power = 2 * 3 * spelled + 300;
    assert!(
        screen.contains(&format!("{spelled:>3} ({power:>4}) Ei!")),
        "{screen}"
    );
    let shown = number_after(&screen, "score ");
    assert_eq!(number_after(&screen, "+ power "), power, "{screen}");

    tmux.press(&["C-s"]);
    tmux.wait_for("saved ");
    assert_eq!(saved_solution(&output), script);
    tmux.press(&["C-q"]);
    tmux.wait_for("EXIT=0");

    let scored = Process::new(PODIUM)
        .args(["icfp2015", "score", "--known-phrases", "-f"])
        .arg(problem(0))
        .arg("--solutions")
        .arg(&output)
        .output()
        .expect("run podium icfp2015 score");
    let report = String::from_utf8_lossy(&scored.stdout);
    assert!(scored.status.success(), "{report}");
    assert!(
        report.contains(&format!("problem 0 seed 0 tag \"manual\": score {shown} ")),
        "screen score {shown}, scorer:\n{report}"
    );
}

#[test]
fn a_repeated_position_is_refused_and_not_recorded() {
    if !has_tmux("icfp2015 manual screen") {
        return;
    }
    let output = scratch("refused.json");
    let tmux = Tmux::start("manual", 120, &game_command(&output));
    tmux.wait_for("podium icfp2015 manual");
    tmux.type_text("p");
    tmux.wait_for("typed: \"p\"");
    tmux.type_text("b");
    let screen = tmux.wait_for("refused 'b' (E): it would repeat a position; not recorded");
    assert!(screen.contains("typed: \"p\""), "{screen}");
    assert!(screen.contains("commands 1 "), "{screen}");
    tmux.press(&["Right"]);
    tmux.wait_for("refused 'b' (E)");
    tmux.press(&["C-s"]);
    tmux.wait_for("saved 1 commands");
    assert_eq!(saved_solution(&output), "p");
    tmux.press(&["Escape"]);
    tmux.wait_for("EXIT=0");
}

#[test]
fn ctrl_c_leaves_the_terminal_usable() {
    if !has_tmux("icfp2015 manual screen") {
        return;
    }
    let output = scratch("interrupted.json");
    let tmux = Tmux::start("manual", 120, &game_command(&output));
    tmux.wait_for("podium icfp2015 manual");
    assert_eq!(tmux.format("#{alternate_on}"), "1");
    tmux.type_text("ei!");
    tmux.wait_for("typed: \"ei!\"");
    tmux.press(&["C-c"]);
    let screen = tmux.wait_for("STTY-END");
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(
        screen.contains("podium: icfp2015 manual: problem 0 seed 0: score 306, 3 commands not saved (interrupted)"),
        "{screen}"
    );
    let settings: Vec<&str> = screen.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(settings.contains(&mode), "stty shows {mode} off:\n{screen}");
    }
    assert_eq!(tmux.format("#{alternate_on}"), "0");
    assert_eq!(tmux.format("#{cursor_flag}"), "1");
    assert!(!output.exists(), "Ctrl-C saved nothing");
}

#[test]
fn sigterm_and_sighup_leave_the_terminal_usable() {
    if !has_tmux("icfp2015 manual screen") {
        return;
    }
    for signal in ["TERM", "HUP"] {
        let output = scratch(&format!("signalled-{signal}.json"));
        let tmux = Tmux::start("manual", 120, &game_command(&output));
        tmux.wait_for("podium icfp2015 manual");
        tmux.type_text("ei!");
        tmux.wait_for("typed: \"ei!\"");
        // The game's own process only: its command line holds this test's output path.
        let killed = Process::new("pkill")
            .args([
                &format!("-{signal}"),
                "-f",
                &format!("manual -f .* -o {}", output.display()),
            ])
            .status()
            .expect("run pkill");
        assert!(killed.success(), "pkill -{signal} found no game");
        let screen = tmux.wait_for("STTY-END");
        assert!(screen.contains("EXIT=130"), "SIG{signal}:\n{screen}");
        assert!(screen.contains("(interrupted)"), "SIG{signal}:\n{screen}");
        let settings: Vec<&str> = screen.split_whitespace().collect();
        for mode in ["icanon", "echo", "isig"] {
            assert!(
                settings.contains(&mode),
                "SIG{signal}: stty shows {mode} off:\n{screen}"
            );
        }
        assert_eq!(tmux.format("#{alternate_on}"), "0");
        assert_eq!(tmux.format("#{cursor_flag}"), "1");
    }
}

/// A terminal that dies under the game (its tmux server killed) must not leave the game running:
/// the key reader then sees end-of-file forever, and the hangup ends the process.
#[test]
fn a_dead_terminal_ends_the_game() {
    if !has_tmux("icfp2015 manual screen") {
        return;
    }
    let output = scratch("dead-terminal.json");
    let tmux = Tmux::start("manual", 120, &game_command(&output));
    tmux.wait_for("podium icfp2015 manual");
    drop(tmux);
    let pattern = format!("manual -f .* -o {}", output.display());
    let start = std::time::Instant::now();
    loop {
        let running = Process::new("pgrep")
            .args(["-f", &pattern])
            .output()
            .expect("run pgrep")
            .status
            .success();
        if !running {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "the game still runs 5 s after its terminal died"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn without_a_terminal_it_says_so_and_exits_2() {
    let out = Process::new(PODIUM)
        .args(["icfp2015", "manual", "-f"])
        .arg(problem(0))
        .stdin(Stdio::null())
        .output()
        .expect("run podium");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "podium: icfp2015 manual: stdin is not a terminal; the game needs one (score and show work without)\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn load_continues_a_saved_game_and_quitting_unsaved_asks_again() {
    if !has_tmux("icfp2015 manual screen") {
        return;
    }
    let saved = scratch("load.json");
    std::fs::write(
        &saved,
        r#"[{"problemId":0,"seed":0,"tag":"earlier","solution":"ei!"}]"#,
    )
    .expect("write the solution to load");
    let output = scratch("load-out.json");
    let command = format!(
        "'{PODIUM}' icfp2015 manual -f '{}' --load '{}' -o '{}' --known-phrases; echo \"EXIT=$?\"; sleep 30",
        problem(0).display(),
        saved.display(),
        output.display()
    );
    let tmux = Tmux::start("manual", 120, &command);
    let screen = tmux.wait_for("loaded 3 commands");
    assert!(screen.contains("typed: \"ei!\""), "{screen}");
    assert!(
        screen.contains("score 306 = moves 0 + power 306"),
        "{screen}"
    );
    tmux.press(&["BSpace"]);
    let screen = tmux.wait_for("undid '!' (W)");
    assert!(screen.contains("typed: \"ei\""), "{screen}");
    assert!(screen.contains("score 0 = moves 0 + power 0"), "{screen}");
    tmux.press(&["Escape"]);
    tmux.wait_for("refused to quit: unsaved commands");
    tmux.press(&["Escape"]);
    let screen = tmux.wait_for("EXIT=0");
    assert!(
        screen.contains("icfp2015 manual: problem 0 seed 0: score 0, 2 commands not saved"),
        "{screen}"
    );
    assert!(!output.exists(), "quitting saved nothing");
}

#[test]
fn a_loaded_solution_ending_in_an_error_is_refused() {
    let saved = scratch("bad-load.json");
    std::fs::write(&saved, r#"[{"problemId":0,"seed":0,"solution":"pb"}]"#)
        .expect("write the solution to load");
    let out = Process::new(PODIUM)
        .args(["icfp2015", "manual", "-f"])
        .arg(problem(0))
        .arg("--load")
        .arg(&saved)
        .stdin(Stdio::null())
        .output()
        .expect("run podium");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "podium: icfp2015 manual --load: the loaded solution ends in an error (command caused \
         error: MoveRight); manual play keeps legal commands only\n"
    );
}
