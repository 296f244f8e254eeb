//! How every problem's command line fails: one line of message and the process's exit code
//! (2 bad input, 1 a failed check or unwritable output; a problem may add its own, e.g. 3, 4).

use std::fmt;

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
        CliError::new(2, message)
    }

    /// Trouble writing the output: exit code 1.
    pub fn output(message: impl ToString) -> CliError {
        CliError::new(1, message)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}
