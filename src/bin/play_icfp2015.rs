//! `play_icfp2015`: the ICFP Contest 2015 program interface, as the judges ran it:
//! `play_icfp2015 -f FILE... [-t SECONDS] [-m MEGABYTES] [-c CORES] [-p PHRASE...]`.

use clap::Parser;
use podium::core::cli::finish;
use podium::icfp2015::cli::{run, Icfp2015Command, PlayArgs};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "play_icfp2015",
    version,
    about = "ICFP 2015 solver: output JSON on stdout"
)]
struct Cli {
    #[command(flatten)]
    play: PlayArgs,
}

fn main() -> ExitCode {
    match podium::core::cli::parse_args::<Cli>("play_icfp2015") {
        Ok(cli) => finish("play_icfp2015", run(Icfp2015Command::Play(cli.play))),
        Err(code) => code,
    }
}
