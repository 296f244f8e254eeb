//! Tetromino square (Anadea IT Duel 2015): tile an N x N square with a given multiset.
//! Model, verifier, impossibility rules, exact solver, generators, viewer, contest API and CLI.

pub mod blocks;
pub mod cli;
pub mod client;
pub mod decide;
pub mod figures;
pub mod generate;
pub mod invariants;
pub mod rules;
pub mod server;
pub mod show;
pub mod signature;
pub mod solution;
pub mod solver;
pub mod trace;
pub mod watch;

pub use decide::solve;
pub use figures::Figure;
pub use signature::Signature;
pub use solution::{parse_json, to_json, verify, Placement};
pub use solver::{Options, Outcome, Stats};
