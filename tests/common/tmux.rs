//! Drives a full-screen command in a tmux server of its own, as a person at a terminal would:
//! send-keys to type, capture-pane to read the screen, display-message for its modes.

use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long any one thing on the screen may take to appear.
pub const DEADLINE: Duration = Duration::from_secs(10);

/// Whether tmux is installed; if not, says which tests are skipped.
pub fn has_tmux(skipped: &str) -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("note: tmux is not installed; the {skipped} tests are skipped");
    }
    found
}

/// A tmux server of its own holding one window, killed when dropped.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `shell_command` (run by `sh -c`) in a new detached `width` x 40 session.
    pub fn start(name: &str, width: u16, shell_command: &str) -> Tmux {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "podium-{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let tmux = Tmux { socket };
        let width = width.to_string();
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-x",
            &width,
            "-y",
            "40",
            "-s",
            "main",
            "sh",
            "-c",
            shell_command,
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        tmux
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run tmux")
    }

    /// Types `text` as it is.
    #[allow(dead_code, reason = "not every screen test types text")]
    pub fn type_text(&self, text: &str) {
        assert!(self
            .run(&["send-keys", "-t", "main", "-l", text])
            .status
            .success());
    }

    /// Presses keys by tmux's names (`C-s`, `Escape`, `Left`).
    pub fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout)
            .into_owned()
    }

    /// A tmux format of the pane, e.g. `#{alternate_on}`.
    pub fn format(&self, format: &str) -> String {
        let out = self.run(&["display-message", "-p", "-t", "main", format]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The screen once it shows `wanted`; fails with the screen after the deadline.
    pub fn wait_for(&self, wanted: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(wanted) {
                return screen;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "{wanted:?} not on the screen after {DEADLINE:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}
