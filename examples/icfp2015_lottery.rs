//! How often a long game's plan lasts over many weight draws, without the clock: fixed-width
//! beams (deterministic) of the first seed, each with the setup's weights nudged by its own draw.
//
// Usage: cargo run --release --example icfp2015_lottery -- [--width W] [--draws N]
//   [--prefix P,...] [--cross M] [--fate] FILE
// `--fate` spreads each plan's width as a long game's plans for survival do
// (`Spread::ForSurvival`: wider where the board first fills, the same mean).
// Prints one line per draw (units locked). With `--prefix` and `--cross M`, the first M draws'
// plans are cut at each P and every one of those prefixes is planned on with each of the M
// draws' weights: a matrix of units locked, rows the prefix's draw, columns the weights' draw,
// to see whether survival follows the weights or the early placements. Move score only.

use podium::core::rng::Rng;
use podium::icfp2015::place::beam::{plan_fixed, Spread};
use podium::icfp2015::place::weights::Weights;
use podium::icfp2015::{Board, Game, Pos, Problem, Setup};
use std::time::Instant;

fn main() {
    let (mut width, mut draws, mut cross) = (8usize, 20usize, 0usize);
    let mut prefixes: Vec<usize> = Vec::new();
    let mut fate = false;
    let mut file = None;
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> usize {
        v.and_then(|w| w.parse().ok())
            .unwrap_or_else(|| fail(&format!("{what} takes a whole number")))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--width" => width = number(args.next(), "--width").max(1),
            "--draws" => draws = number(args.next(), "--draws"),
            "--cross" => cross = number(args.next(), "--cross"),
            "--fate" => fate = true,
            "--prefix" => {
                prefixes = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(|p| p.parse().unwrap_or_else(|_| fail("--prefix takes P,P,...")))
                    .collect()
            }
            _ => file = Some(arg),
        }
    }
    let file = file.unwrap_or_else(|| fail("no problem file"));
    let bytes = std::fs::read(&file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    let problem = Problem::parse(&bytes, &file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    let setup = Setup::new(problem);
    let Some(&seed) = setup.problem.source_seeds.first() else {
        fail(&format!("{file}: no source seeds"))
    };
    let order = Game::new(&setup, seed).order().to_vec();
    let spread = if fate {
        Spread::ForSurvival
    } else {
        Spread::Even
    };
    let planner = |setup: &Setup, board: &Board, order: &[u32], w: &Weights, width: usize| {
        plan_fixed(setup, board, order, w, width, spread)
    };
    let base = Weights::for_setup(&setup);
    let weights: Vec<Weights> = (0..draws.max(cross))
        .map(|i| {
            if i == 0 {
                base
            } else {
                base.nudged(&mut Rng::new(0x5EED_0000 + i as u64))
            }
        })
        .collect();
    let mut plans: Vec<Vec<Pos>> = Vec::new();
    let all = Instant::now();
    for (i, w) in weights.iter().enumerate() {
        let started = Instant::now();
        let locks = planner(&setup, &setup.start, &order, w, width);
        println!(
            "draw {i}\tlocked {} of {}\t{:.2} s",
            locks.len(),
            order.len(),
            started.elapsed().as_secs_f64()
        );
        plans.push(locks);
    }
    let whole = plans.iter().filter(|p| p.len() == order.len()).count();
    // Lasting: 86 % of the game or more (problem 18's plans end at 860+ or by 560).
    let lasting = plans
        .iter()
        .filter(|p| p.len() * 100 >= order.len() * 86)
        .count();
    let mut lengths: Vec<usize> = plans.iter().map(Vec::len).collect();
    lengths.sort_unstable();
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64;
    println!(
        "whole {whole} lasting {lasting} of {}, median {}, mean {mean:.0}, {:.1} s",
        plans.len(),
        lengths.get(lengths.len() / 2).copied().unwrap_or(0),
        all.elapsed().as_secs_f64()
    );
    for &p in &prefixes {
        println!("prefix {p}: rows the prefix's draw, columns the weights' draw");
        for (a, plan) in plans.iter().take(cross).enumerate() {
            if plan.len() <= p {
                println!("{a} ({}): shorter than the prefix", plan.len());
                continue;
            }
            let mut board = setup.start.clone();
            for (&u, &pos) in order.iter().zip(&plan[..p]) {
                let unit = &setup.units[u as usize];
                board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
            }
            let row: Vec<String> = weights
                .iter()
                .take(cross)
                .map(|w| (p + planner(&setup, &board, &order[p..], w, width).len()).to_string())
                .collect();
            println!("{a} ({})\t{}", plan.len(), row.join("\t"));
        }
    }
}

/// Says what is wrong in one line and exits 2 (bad input).
fn fail(message: &str) -> ! {
    eprintln!("icfp2015_lottery: {message}");
    std::process::exit(2)
}
