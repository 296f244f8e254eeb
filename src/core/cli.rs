//! How every problem's command line reads its common values (seconds, threads, sizes) and fails:
//! one line of message and a documented exit code, quiet on a closed pipe.
//!
//! Exit codes, the same for every command: 0 ok, 1 an invalid answer, a failed check or an
//! unwritable output, 2 bad input, 3 proven impossible, 4 gave up (budget exhausted).

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

pub use super::text::{quote, QUOTE_LIMIT};

/// Success.
pub const EXIT_OK: u8 = 0;
/// An invalid answer, a failed check, or output that could not be written.
pub const EXIT_INVALID: u8 = 1;
/// Bad input: arguments, files, standard input.
pub const EXIT_INPUT: u8 = 2;
/// The instance is proven impossible.
pub const EXIT_IMPOSSIBLE: u8 = 3;
/// The search ran out of its budget without deciding.
pub const EXIT_GAVE_UP: u8 = 4;

/// The longest time limit any command accepts: about 11.6 days. Larger values are absurd for a
/// contest solver and overflow `Instant` arithmetic on some platforms.
pub const MAX_SECONDS: f64 = 1_000_000.0;
/// The most worker threads any command starts.
pub const MAX_THREADS: usize = 1024;
/// The largest memory limit any command accepts, in MiB (1 TiB).
pub const MAX_MEGABYTES: u64 = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError {
    pub message: String,
    pub code: u8,
}

impl CliError {
    pub fn new(code: u8, message: impl ToString) -> CliError {
        CliError {
            message: message.to_string(),
            code,
        }
    }

    /// Bad input: exit code 2.
    pub fn input(message: impl ToString) -> CliError {
        CliError::new(EXIT_INPUT, message)
    }

    /// Trouble writing the output: exit code 1.
    pub fn output(message: impl ToString) -> CliError {
        CliError::new(EXIT_INVALID, message)
    }

    /// A failed write to `what` (e.g. "stdout"): a closed pipe ends the command quietly, any
    /// other error (a full disk) is exit code 1 with the system's reason.
    pub fn write(what: &str, error: io::Error) -> CliError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            CliError::closed_pipe()
        } else {
            CliError::output(format!("cannot write {what}: {error}"))
        }
    }

    /// The reader of our output went away (`podium ... | head -1`): not an error, as for Unix
    /// tools; the command stops and exits 0 without a message.
    pub fn closed_pipe() -> CliError {
        CliError::new(EXIT_OK, "")
    }

    pub fn is_closed_pipe(&self) -> bool {
        self.code == EXIT_OK && self.message.is_empty()
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    /// An I/O error met while writing the command's output to stdout.
    fn from(error: io::Error) -> CliError {
        CliError::write("stdout", error)
    }
}

/// Ends a command: prints `program: message` on one line of stderr for an error (nothing for a
/// closed pipe) and returns its exit code.
pub fn finish(program: &str, result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_closed_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // stderr itself may be closed; there is nobody left to tell then.
            let _ = writeln!(io::stderr().lock(), "{program}: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

/// The command line parsed by clap, or the process's end: help and `--version` print as clap
/// prints them (exit 0); a bad argument is one line, `PROGRAM: ...`, and exit 2, like any other
/// bad input (clap's own message adds a blank line and a usage hint).
pub fn parse_args<P: clap::Parser>(program: &str) -> Result<P, ExitCode> {
    check_cpu(program)?;
    P::try_parse().map_err(|error| {
        use clap::error::ErrorKind;
        if matches!(
            error.kind(),
            ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(EXIT_INPUT)
            } else {
                ExitCode::SUCCESS
            };
        }
        let text = error.render().to_string();
        let _ = writeln!(io::stderr().lock(), "{program}: {}", first_line(&text));
        ExitCode::from(EXIT_INPUT)
    })
}

/// Ends the process with one line and exit code 1 (a failed check) where the CPU lacks an
/// instruction the build assumes (`core::cpu::missing_baseline`), before any code uses it.
pub fn check_cpu(program: &str) -> Result<(), ExitCode> {
    match crate::core::cpu::missing_baseline() {
        None => Ok(()),
        Some(feature) => {
            let _ = writeln!(
                io::stderr().lock(),
                "{program}: this build needs a CPU with {feature} (x86-64-v2); rebuild with \
                 RUSTFLAGS=\"\" for older CPUs"
            );
            Err(ExitCode::from(EXIT_INVALID))
        }
    }
}

/// A clap error as one line: its first line, and when that ends in a colon ("the following
/// required arguments were not provided:"), the indented lines it announces.
fn first_line(text: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("bad arguments");
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if line.ends_with(':') {
        let listed: Vec<&str> = lines
            .take_while(|l| l.starts_with("  "))
            .map(str::trim)
            .collect();
        line = format!("{} {}", line, listed.join(", "));
    }
    line
}

/// A time limit in seconds (clap `value_parser`): a finite number from 0 to [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of seconds", quote(text)))?;
    if !value.is_finite() || !(0.0..=MAX_SECONDS).contains(&value) {
        return Err(format!(
            "{} seconds is outside 0..={MAX_SECONDS}",
            quote(text)
        ));
    }
    Ok(value)
}

/// [`parse_seconds`] as a `Duration`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    parse_seconds(text).map(Duration::from_secs_f64)
}

/// A number of worker threads (clap `value_parser`): 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    parse_bounded(text, "threads", 1, MAX_THREADS as u64).map(|n| n as usize)
}

/// A memory limit in MiB (clap `value_parser`): 1 to [`MAX_MEGABYTES`].
pub fn parse_megabytes(text: &str) -> Result<u64, String> {
    parse_bounded(text, "MiB", 1, MAX_MEGABYTES)
}

/// A whole number of `unit` from `low` to `high`, with the range in the error.
pub fn parse_bounded(text: &str, unit: &str, low: u64, high: u64) -> Result<u64, String> {
    let value: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a whole number of {unit}", quote(text)))?;
    if !(low..=high).contains(&value) {
        return Err(format!("{value} {unit} is outside {low}..={high}"));
    }
    Ok(value)
}

/// The threads a command asked for, capped at the cores this process may use: for interfaces
/// (the ICFP judge's `-c`) that must answer whatever they are given.
pub fn threads_available(requested: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    requested.clamp(1, cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_reject_nan_negative_infinite_and_absurd() {
        for bad in [
            "nan", "NaN", "-1", "-0.5", "inf", "-inf", "1e300", "1000001", "", "x", "1s",
        ] {
            assert!(parse_seconds(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(parse_seconds("0"), Ok(0.0));
        assert_eq!(parse_seconds(" 2.5 "), Ok(2.5));
        assert_eq!(parse_seconds("1000000"), Ok(MAX_SECONDS));
        assert_eq!(parse_duration("0.25"), Ok(Duration::from_millis(250)));
    }

    #[test]
    fn threads_and_sizes_have_named_limits() {
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads("1024"), Ok(1024));
        let too_many = parse_threads("100000").unwrap_err();
        assert!(too_many.contains("1..=1024"), "{too_many}");
        for bad in ["0", "-1", "2.5", "", "99999999999999999999999"] {
            assert!(parse_threads(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(parse_megabytes("1024"), Ok(1024));
        assert!(parse_megabytes("0").is_err());
        assert!(parse_megabytes("99999999999").is_err());
        assert!(threads_available(100_000) >= 1);
        assert_eq!(threads_available(0), 1);
    }

    #[test]
    fn quotes_are_bounded_and_escaped() {
        let huge = "a".repeat(20_000_000);
        let message = parse_seconds(&huge).unwrap_err();
        assert!(message.len() < 100, "{} bytes", message.len());
        assert_eq!(quote("a\nb"), "a\\nb");
        assert_eq!(quote("é"), "é");
    }

    #[test]
    fn a_closed_pipe_is_quiet_and_a_full_disk_is_exit_1() {
        let pipe = CliError::write("stdout", io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(pipe.is_closed_pipe());
        let disk = CliError::write("stdout", io::Error::from_raw_os_error(libc::ENOSPC));
        assert_eq!(disk.code, EXIT_INVALID);
        assert!(
            disk.message.starts_with("cannot write stdout: "),
            "{}",
            disk.message
        );
        assert!(!disk.is_closed_pipe());
    }
}
