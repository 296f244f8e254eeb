//! Running the `podium` binary from a test, and reading what it printed.

#![allow(dead_code)]

use std::process::{Command, Output};

/// `podium ARGS...`, waited for, with its stdout and stderr.
pub fn podium(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(args)
        .output()
        .expect("run podium")
}

/// Printed bytes as text (lossy).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
