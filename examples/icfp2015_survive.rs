//! How long games last without the clock: plays each problem's first seed with a beam of a
//! fixed width (deterministic, load-independent) and prints units locked, rows cleared, score.
//
// Usage: cargo run --release --example icfp2015_survive -- [--width W] [--band] [--show] [--fate]
//   FILE...
// `--fate` spreads the width as a long game's plans for survival do (`Spread::ForSurvival`).
// `--show` draws the last board and the unit that found no place (hex rows, odd rows shifted).
// The weights are `Weights::for_setup` with `PODIUM_ICFP2015_WEIGHTS` applied; `--band` plays
// the greedy band plan (drop weight 4, tie-break seed 1) instead of the beam. Move score only
// (no phrases): the contest's score of a run without `-p`.

use podium::icfp2015::place::bands::{band_weights, greedy};
use podium::icfp2015::place::beam::{plan_fixed, Spread};
use podium::icfp2015::place::weights::Weights;
use podium::icfp2015::rules::game::move_score;
use podium::icfp2015::{Game, Pos, Problem, Setup};
use std::time::Instant;

fn main() {
    let mut width = 8usize;
    let mut band = false;
    let mut fate = false;
    let mut show = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--width" => {
                width = args
                    .next()
                    .and_then(|w| w.parse().ok())
                    .filter(|&w| w > 0)
                    .unwrap_or_else(|| fail("--width takes a whole number above 0"))
            }
            "--band" => band = true,
            "--fate" => fate = true,
            "--show" => show = true,
            _ => files.push(arg),
        }
    }
    let (mut all_locked, mut all_rows, mut all_score) = (0usize, 0u64, 0u64);
    for file in &files {
        let bytes = std::fs::read(file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        let problem =
            Problem::parse(&bytes, file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        let setup = Setup::new(problem);
        let Some(&seed) = setup.problem.source_seeds.first() else {
            fail(&format!("{file}: no source seeds"))
        };
        let order = Game::new(&setup, seed).order().to_vec();
        let started = Instant::now();
        let locks = if band {
            let weights = band_weights(&setup, 4.0);
            let mut rng = podium::core::rng::Rng::new(1);
            greedy(&setup, &setup.start, &order, &weights, 0, &mut rng).locks
        } else {
            let weights = Weights::for_setup(&setup)
                .with_env()
                .unwrap_or_else(|e| fail(&e))
                .unwrap_or_else(|| Weights::for_setup(&setup));
            let spread = if fate {
                Spread::ForSurvival
            } else {
                Spread::Even
            };
            plan_fixed(&setup, &setup.start, &order, &weights, width, spread)
        };
        let (rows, score) = replay(&setup, &order, &locks);
        if show {
            out(&picture(&setup, &order, &locks));
        }
        out(&format!(
            "{file}\tunits {}\tlocked {}\trows {rows}\tscore {score}\t{:.1}s\n",
            order.len(),
            locks.len(),
            started.elapsed().as_secs_f64()
        ));
        all_locked += locks.len();
        all_rows += rows;
        all_score += score;
    }
    out(&format!(
        "total\tlocked {all_locked}\trows {all_rows}\tscore {all_score}\n"
    ));
}

/// Writes `text` to stdout; a closed pipe (`| head`) ends the run quietly with exit 0, as
/// podium's commands do, and any other write error is exit 1.
fn out(text: &str) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("icfp2015_survive: cannot write stdout: {e}");
        std::process::exit(1);
    }
}

/// Says what is wrong in one line and exits 2 (bad input), as podium's commands do.
fn fail(message: &str) -> ! {
    eprintln!("icfp2015_survive: {message}");
    std::process::exit(2)
}

/// The rows `locks` clear and their move score, locked in turn from the start.
fn replay(setup: &Setup, order: &[u32], locks: &[Pos]) -> (u64, u64) {
    let mut board = setup.start.clone();
    let (mut rows, mut score, mut prev) = (0u64, 0u64, 0u32);
    for (&unit_index, &pos) in order.iter().zip(locks) {
        let unit = &setup.units[unit_index as usize];
        let lines = board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
        rows += u64::from(lines);
        score += move_score(unit.size, lines, prev);
        prev = lines;
    }
    (rows, score)
}

/// The board after `locks` ('#' filled) with the next unit at its spawn ('@'), one text line a
/// row, odd rows shifted half a cell right.
fn picture(setup: &Setup, order: &[u32], locks: &[Pos]) -> String {
    let mut board = setup.start.clone();
    for (&unit_index, &pos) in order.iter().zip(locks) {
        let unit = &setup.units[unit_index as usize];
        board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
    }
    let next = order
        .get(locks.len())
        .map(|&u| &setup.units[u as usize])
        .map(|unit| unit.cells(unit.spawn))
        .unwrap_or_default();
    let mut text = String::new();
    for y in 0..board.height() as i32 {
        if y % 2 == 1 {
            text.push(' ');
        }
        for x in 0..board.width() as i32 {
            let cell = podium::icfp2015::rules::hex::Cell::new(x, y);
            let c = match (next.contains(&cell), board.get(cell)) {
                (true, true) => 'X',
                (true, false) => '@',
                (false, true) => '#',
                (false, false) => '.',
            };
            text.push(c);
            text.push(' ');
        }
        text.push('\n');
    }
    text
}
