//! The best-solution store: one JSON file per (problem, instance) under DIR/<problem>/, replaced
//! atomically and only by a better score, safe for many processes and machines writing at once.
//
// `entry`: the file's fields and keys; `put`: the locked read-compare-replace; `rescore`: each
// problem's independent scorer; `merge` and `export`: `podium best`; `runs`: shards' JSON lines.

pub mod cli;
pub mod entry;
pub mod export;
pub mod icfp2015;
pub mod merge;
pub mod put;
pub mod rescore;
pub mod runs;
pub mod scan;
pub mod slider;

pub use entry::Entry;
pub use put::{offer, Offer};
