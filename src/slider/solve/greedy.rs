//! The starting orders: greedy drops by value per turn, with the seed write-up's lookahead (the
//! blocks queued behind a drop), the best of several randomised runs.

use super::event::drop_event;
use super::order::Change;
use super::play::Play;
use super::progress::Progress;
use super::replay::{replay, Trace, Trial};
use super::search::Search;
use crate::core::rng::Rng;
use crate::slider::board::{neighbour, Dir, EMPTY, HOLE};

/// The best of greedy orders built with lookahead weights from `LOOKAHEADS` (randomised anew each
/// time) while a tenth of the budget lasts: the write-up's restarts with new parameters, spent on
/// the start rather than on the annealing (restarting the annealing did not pay, see `solve_by`).
pub(super) fn greedy_starts(
    search: &mut Search,
    play: &mut Play,
    progress: &mut impl Progress,
    rng: &mut Rng,
) -> Vec<u16> {
    let mut best: Option<(i64, Vec<u16>)> = None;
    for (k, &lookahead) in LOOKAHEADS.iter().cycle().enumerate() {
        if k > 0 && progress.fraction_used() > 0.1 || k >= MAX_STARTS {
            break;
        }
        let order: Vec<u16> = greedy(search, lookahead, rng)
            .into_iter()
            .map(|b| drop_event(b as usize))
            .collect();
        let everything = Change::everything(order.len());
        let mut trial = Trial::default();
        let score = replay(
            search,
            play,
            &order,
            &Trace::default(),
            everything,
            &mut trial,
        );
        if best.as_ref().map(|(s, _)| *s) < Some(score) {
            best = Some((score, order));
        }
    }
    best.map(|b| b.1).unwrap_or_default()
}

/// Lookahead weights of the greedy starts, in the order tried. Alone, 0.5 took the annealed
/// result from 1.0037 to 1.0041 of the best peer on 14 instances at 4 s; its start is often
/// 1-2% above that of 0 (seed 27: 1,408,021 against 1,381,207, before any annealing).
const LOOKAHEADS: [f64; 5] = [0.5, 0.0, 0.3, 0.75, 1.0];
const MAX_STARTS: usize = 20;

/// Greedy start: repeatedly drop the block with the best value per turn (ties: higher value).
/// With `lookahead` > 0 a drop is also worth, times `lookahead`, the blocks queued behind the
/// cell it falls from (the write-up's value: each block's worth over a distance that grows by a
/// random 1..=3 per block), and worthless blocks may fall to free such queues.
fn greedy(search: &mut Search, lookahead: f64, rng: &mut Rng) -> Vec<u16> {
    let n2 = search.n * search.n;
    let mut cells = search.start.clone();
    let mut left: Vec<u16> = (0..search.home.len() as u16)
        .filter(|&b| lookahead > 0.0 || search.value[b as usize] > 1)
        .collect();
    left.sort_by_key(|&b| std::cmp::Reverse(search.value[b as usize]));
    let mut order = Vec::new();
    let mut turns = 0;
    while turns < n2 {
        let mut best: Option<(f64, usize, usize)> = None;
        for (k, &b) in left.iter().enumerate() {
            let from = search.home[b as usize];
            let worth = f64::from(search.value[b as usize] - 1);
            let most = match lookahead > 0.0 {
                true => {
                    let queued: f64 = Dir::ALL
                        .into_iter()
                        .map(|dir| queued_worth(search, &cells, from, dir, None))
                        .sum();
                    worth + lookahead * queued
                }
                false => worth,
            };
            let mut limit = n2 - turns;
            if let Some((ratio, _, _)) = best {
                if most <= ratio {
                    continue;
                }
                limit = limit.min((most / ratio).ceil() as usize);
            } else if most <= 0.0 {
                continue;
            }
            if let Some(d) = search.distance(&mut cells, from, limit) {
                let mut value = worth;
                if lookahead > 0.0 {
                    let (at, _, dir) = search.hit;
                    cells[from] = EMPTY;
                    let back = opposite(dir);
                    value += lookahead * queued_worth(search, &cells, at, back, Some(&mut *rng));
                    cells[from] = search.value[b as usize];
                }
                let ratio = value / d as f64;
                if ratio > 0.0 && best.map(|(r, _, _)| r) < Some(ratio) {
                    best = Some((ratio, k, d));
                }
            }
        }
        let Some((_, k, d)) = best else { break };
        let b = left.remove(k);
        cells[search.home[b as usize]] = EMPTY;
        turns += d;
        order.push(b);
    }
    order
}

fn opposite(dir: Dir) -> Dir {
    match dir {
        Dir::Up => Dir::Down,
        Dir::Down => Dir::Up,
        Dir::Left => Dir::Right,
        Dir::Right => Dir::Left,
    }
}

/// The worth of the blocks met walking from `cell` in `dir` until a hole or the border, each over
/// its distance: 1 for the first, then growing by a random 1..=3 per block (by 1 without `rng`,
/// which bounds the random sum).
fn queued_worth(
    search: &Search,
    cells: &[i8],
    cell: usize,
    dir: Dir,
    mut rng: Option<&mut Rng>,
) -> f64 {
    let mut total = 0.0;
    let mut distance = 1.0;
    let mut at = cell;
    while let Some(next) = neighbour(search.n, at, dir) {
        match cells[next] {
            HOLE => break,
            EMPTY => {}
            value => {
                total += f64::from(value - 1) / distance;
                distance += rng.as_mut().map_or(1.0, |r| (1 + r.below(3)) as f64);
            }
        }
        at = next;
    }
    total
}
