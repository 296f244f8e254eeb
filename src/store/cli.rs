//! `podium best merge|export|runs`: the clap types of the store's commands and their runner.

use crate::core::cli::CliError;
use std::path::PathBuf;

#[derive(clap::Subcommand, Debug, Clone)]
pub enum BestCommand {
    /// Keep per (problem, instance) the best entry of several stores, each re-scored by its
    /// problem's scorer; a forged or corrupt entry is rejected with one line (exit 1 at the end).
    Merge {
        /// The stores to read (`--store DIR` of slider solve/bench, icfp2015).
        #[arg(required = true)]
        stores: Vec<PathBuf>,
        /// The store they merge into (it may be one of them).
        #[arg(long)]
        into: PathBuf,
        /// A file of `PROBLEM INSTANCE` lines the merged store must hold: each one it lacks is
        /// named (exit 1).
        #[arg(long, value_name = "FILE")]
        expect: Option<PathBuf>,
    },
    /// Write a store's entries of one problem as the contest's submission files (slider: one
    /// output per instance; icfp2015: one JSON array), each re-scored first.
    Export {
        /// The store.
        store: PathBuf,
        /// The problem: slider or icfp2015.
        #[arg(long)]
        problem: String,
        /// The directory the files go to.
        #[arg(long)]
        out: PathBuf,
    },
    /// Join shards' JSON lines (`bench --json --shard I/N`) into one run, naming each case
    /// repeated, unreadable, or missing from an expected run (exit 1).
    Runs {
        /// The shards' JSON-lines files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A run whose cases the join must hold (e.g. an earlier whole run).
        #[arg(long, value_name = "FILE")]
        expect: Option<PathBuf>,
        /// The number of shards, to name the shard to re-run for a missing case.
        #[arg(long, value_name = "N")]
        shards: Option<u64>,
        /// Write the joined records here.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

pub fn run(command: BestCommand) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    match command {
        BestCommand::Merge {
            stores,
            into,
            expect,
        } => super::merge::merge(&stores, &into, expect.as_deref(), &mut out),
        BestCommand::Export {
            store,
            problem,
            out: dir,
        } => super::export::export(&store, &problem, &dir, &mut out),
        BestCommand::Runs {
            files,
            expect,
            shards,
            out: path,
        } => super::runs::join(
            &super::runs::RunsArgs {
                files: &files,
                expect: expect.as_deref(),
                shards,
                out: path.as_deref(),
            },
            &mut out,
        ),
    }
}
