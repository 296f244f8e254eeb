//! The ICFP 2015 solver: a beam search over the lock positions of the known unit sequence,
//! then each unit routed from its spawn to its lock spelling phrases of power (`route.rs`).
//
// A beam node is a board after k locks; its value is the sum of the placement values along its
// path (the Frictionless Bananas features, covered cells, the move score, and the rows the unit
// drops, where its route can spell). The width follows the time: before each layer it is what
// the remaining beam time allows at the measured cost of one node. While time is left, whole
// games are replayed with other weights (a stack-height term, then a line bonus, then random
// perturbations) and the best kept. Every solution is re-scored by
// the evaluator (`game::evaluate`).

use super::board::Board;
use super::game::{evaluate, Game, Setup};
use super::hex::{neighbour, Cell, Direction};
use super::phrases::PhraseSet;
use super::placement::lock_positions;
use super::route::Scribe;
use super::unit::{Pos, Unit};
use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Weights of the placement features; see `placement_value`.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub points: f64,
    pub depth: f64,
    pub row_fill: f64,
    pub neighbours: f64,
    pub covered: f64,
    /// Per row the unit drops before it locks: the rows where the route can spell phrases.
    pub drop: f64,
    /// Per row between the board's top and its highest filled cell after the lock.
    pub stack: f64,
    /// Per row the lock clears, on top of its points.
    pub lines: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            points: 1.0,
            depth: 4.0,
            row_fill: 1.0,
            neighbours: 2.0,
            covered: -6.0,
            drop: 4.0,
            stack: 0.0,
            lines: 0.0,
        }
    }
}

/// Share of a game's time given to each attempt's beam search.
const BEAM_SHARE: f64 = 0.45;

/// Widest beam (bounds the memory of the layers kept for the way back).
const MAX_WIDTH: usize = 4000;

/// A solved game: the command string and what the evaluator gives it.
#[derive(Clone, Debug)]
pub struct Played {
    pub commands: String,
    pub score: u64,
    pub locked: u32,
}

/// How good locking `unit` at `pos` on `board` is (higher is better), and the rows it clears.
pub fn placement_value(board: &Board, unit: &Unit, pos: Pos, w: &Weights) -> (f64, u32) {
    let cells = unit.cells(pos);
    let height = board.height() as f64;
    let filled = |c: Cell| !board.is_on_board(c) || board.get(c) || cells.contains(&c);
    let mut rows: Vec<i32> = cells.iter().map(|c| c.y).collect();
    rows.sort_unstable();
    rows.dedup();
    let mut lines = 0;
    let mut row_fill = 0.0;
    for &y in &rows {
        let taken = board.rows()[y as usize].count_ones() as usize
            + cells.iter().filter(|c| c.y == y).count();
        lines += u32::from(taken == board.width());
        row_fill += taken as f64 / board.width() as f64;
    }
    let points = unit.size as f64 + 50.0 * (1.0 + lines as f64) * lines as f64;
    let depth: f64 = cells.iter().map(|c| c.y as f64 / height).sum();
    let drop = cells.iter().map(|c| c.y).min().unwrap_or(0) as f64;
    let sides = [
        Direction::E,
        Direction::W,
        Direction::SE,
        Direction::SW,
        Direction::NE,
        Direction::NW,
    ];
    let neighbours = cells
        .iter()
        .flat_map(|&c| sides.iter().map(move |&d| neighbour(c, d)))
        .filter(|&n| !cells.contains(&n) && filled(n))
        .count() as f64;
    let covered = cells
        .iter()
        .flat_map(|&c| [neighbour(c, Direction::SE), neighbour(c, Direction::SW)])
        .filter(|&n| board.is_on_board(n) && !filled(n))
        .count() as f64;
    let top = board
        .rows()
        .iter()
        .position(|&r| r != 0)
        .unwrap_or(board.height()) as i32;
    let top = cells.iter().map(|c| c.y).min().unwrap_or(top).min(top) + lines as i32;
    let value = w.points * points
        + w.stack * top as f64
        + w.lines * lines as f64
        + w.depth * depth
        + w.row_fill * row_fill
        + w.neighbours * neighbours
        + w.covered * covered
        + w.drop * drop;
    (value, lines)
}

impl Weights {
    /// These weights, each scaled by a random factor in [0.5, 2], and a drop weight in [0, 8].
    pub fn perturbed(&self, rng: &mut Rng) -> Weights {
        let drop = 8.0 * rng.f64();
        let mut scale = |w: f64| w * 2f64.powf(2.0 * rng.f64() - 1.0);
        Weights {
            points: scale(self.points),
            depth: scale(self.depth),
            row_fill: scale(self.row_fill),
            neighbours: scale(self.neighbours),
            covered: scale(self.covered),
            drop,
            stack: scale(self.stack),
            lines: scale(self.lines),
        }
    }
}

/// A board of the beam after some locks.
struct Node {
    board: Board,
    value: f64,
    move_score: u64,
    prev_lines: u32,
}

/// The lock positions, one per unit of `order` while the game lasts, found by a beam search
/// that ends by `deadline` (narrowing to one node when time is short).
pub fn plan(setup: &Setup, order: &[u32], weights: &Weights, deadline: &Deadline) -> Vec<Pos> {
    let phrase_guess = 3 * setup.height() as u64;
    let mut layer = vec![Node {
        board: setup.start.clone(),
        value: 0.0,
        move_score: 0,
        prev_lines: 0,
    }];
    // Per layer k: each node's parent in layer k - 1 and the lock that made it.
    let mut history: Vec<Vec<(u32, Pos)>> = Vec::new();
    // The best game found: (merit, layer count, node index).
    let mut best: (u64, usize, usize) = (0, 0, 0);
    let started = Instant::now();
    let mut expanded = 0u64;
    for (k, &unit_index) in order.iter().enumerate() {
        let unit = &setup.units[unit_index as usize];
        let left = order.len() - k;
        let width = if expanded == 0 {
            1
        } else {
            let per_node = started.elapsed().as_secs_f64() / expanded as f64;
            let per_layer = deadline.remaining().as_secs_f64() / left as f64;
            ((per_layer / per_node) as usize).clamp(1, MAX_WIDTH)
        };
        let mut children: Vec<(f64, u32, Pos, u32)> = Vec::new();
        for (i, node) in layer.iter().enumerate() {
            expanded += 1;
            let spawn = unit.spawn;
            if !node
                .board
                .fits(unit.shape(spawn.orientation, spawn.y), spawn.x, spawn.y)
            {
                let merit = node.move_score + k as u64 * phrase_guess;
                if merit > best.0 {
                    best = (merit, k, i);
                }
                continue;
            }
            for pos in lock_positions(&node.board, unit, spawn) {
                let (value, lines) = placement_value(&node.board, unit, pos, weights);
                children.push((node.value + value, i as u32, pos, lines));
            }
        }
        if children.is_empty() {
            break;
        }
        children.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        let mut next: Vec<Node> = Vec::with_capacity(width);
        let mut links = Vec::with_capacity(width);
        let mut seen: HashSet<u64> = HashSet::new();
        for &(value, parent, pos, lines) in &children {
            if next.len() == width {
                break;
            }
            let from = &layer[parent as usize];
            let mut board = from.board.clone();
            board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
            let mut hasher = DefaultHasher::new();
            board.rows().hash(&mut hasher);
            if !seen.insert(hasher.finish()) {
                continue;
            }
            let points = unit.size as u64 + 50 * (1 + lines as u64) * lines as u64;
            let bonus = if from.prev_lines > 1 {
                (from.prev_lines as u64 - 1) * points / 10
            } else {
                0
            };
            next.push(Node {
                board,
                value,
                move_score: from.move_score + points + bonus,
                prev_lines: lines,
            });
            links.push((parent, pos));
        }
        layer = next;
        history.push(links);
    }
    let done = history.len();
    for (i, node) in layer.iter().enumerate() {
        let merit = node.move_score + done as u64 * phrase_guess;
        if merit > best.0 {
            best = (merit, done, i);
        }
    }
    let (_, layers, mut index) = best;
    let mut locks = Vec::with_capacity(layers);
    for links in history[..layers].iter().rev() {
        let (parent, pos) = links[index];
        locks.push(pos);
        index = parent as usize;
    }
    locks.reverse();
    locks
}

/// Plans the game with a beam search and routes each unit to its lock spelling phrases; then
/// again with perturbed weights while the time left allows a whole attempt. Returns the best
/// game, re-scored by the evaluator.
pub fn solve(setup: &Setup, seed: u32, phrases: &PhraseSet, deadline: &Deadline) -> Played {
    solve_variant(setup, seed, phrases, deadline, 0)
}

/// [`solve`] starting from the `variant`-th set of weights with its own random perturbations:
/// the searches that run side by side on spare cores try different games.
pub fn solve_variant(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    variant: u32,
) -> Played {
    let mut rng = Rng::new(
        ((setup.problem.id as u64) << 32 | seed as u64)
            ^ u64::from(variant).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let beam_time = deadline.remaining().mul_f64(BEAM_SHARE);
    let mut attempts = variant;
    let mut weights = attempt_weights(attempts, &mut rng);
    let mut best: Option<Played> = None;
    let mut this_beam = beam_time;
    loop {
        let (played, route_time) = attempt(setup, seed, phrases, &weights, this_beam, deadline);
        if best.as_ref().is_none_or(|b| played.score > b.score) {
            best = Some(played);
        }
        // Another attempt needs its routes' time and some beam time on top.
        let spare = deadline.remaining().saturating_sub(route_time.mul_f64(1.3));
        if spare < beam_time.mul_f64(0.2) {
            break;
        }
        this_beam = beam_time.min(spare);
        attempts += 1;
        weights = attempt_weights(attempts, &mut rng);
    }
    best.expect("at least one attempt")
}

/// The weights of attempt `k`: the defaults, then a stack-height term, then a line bonus, then
/// random perturbations of the defaults.
fn attempt_weights(k: u32, rng: &mut Rng) -> Weights {
    match k {
        0 => Weights::default(),
        1 => Weights {
            stack: 40.0,
            ..Weights::default()
        },
        2 => Weights {
            stack: 8.0,
            lines: 100.0,
            ..Weights::default()
        },
        _ => Weights::default().perturbed(rng),
    }
}

/// One game: a beam search of at most `beam_time`, then the routes (spelling while `deadline`
/// allows); the game re-scored by the evaluator, and how long the routes took.
fn attempt(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    weights: &Weights,
    beam_time: Duration,
    deadline: &Deadline,
) -> (Played, Duration) {
    let mut game = Game::new(setup, seed);
    let order = game.order().to_vec();
    let locks = plan(setup, &order, weights, &Deadline::after(beam_time));
    let route_started = Instant::now();
    let mut scribe = Scribe::new(phrases);
    for (k, &lock) in locks.iter().enumerate() {
        if game.is_over() {
            break;
        }
        // Spelling stops only when the game's time is up (with a margin for the evaluation),
        // except on the first unit, which can collect each phrase's +300.
        let spell = k == 0 || deadline.fraction_used() < 0.97;
        // The DP costs several times the greedy route (about 3 ms a unit on the 100-column
        // problem 24): it runs while the time left holds the units left at the mean cost so
        // far with a margin, so a loaded machine spells with the greedy instead of not at all.
        let left = (locks.len() - k) as f64;
        let mean = route_started.elapsed().as_secs_f64() / k.max(1) as f64;
        scribe.use_dp = deadline.remaining().as_secs_f64() > 1.5 * left * mean;
        scribe.route(&mut game, lock, locks.get(k + 1).copied(), spell);
    }
    let route_time = route_started.elapsed();
    let text = scribe.into_text();
    let scored =
        evaluate(setup, seed as u64, &text, phrases).expect("the seed comes from the problem");
    assert!(
        scored.error.is_none(),
        "the solver produced an invalid solution: {:?}",
        scored.error
    );
    let played = Played {
        commands: text,
        score: scored.score,
        locked: scored.locked,
    };
    (played, route_time)
}

/// [`solve`] with a time limit instead of a deadline.
pub fn solve_within(setup: &Setup, seed: u32, phrases: &PhraseSet, time: Duration) -> Played {
    solve(setup, seed, phrases, &Deadline::after(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_are_valid_and_score() {
        for id in [0, 1, 2, 6] {
            let setup = Setup::bundled(id);
            let seed = setup.problem.source_seeds[0];
            let played = solve_within(
                &setup,
                seed,
                &PhraseSet::known(),
                Duration::from_millis(300),
            );
            let again =
                evaluate(&setup, seed as u64, &played.commands, &PhraseSet::known()).unwrap();
            assert_eq!(again.error, None);
            assert_eq!(again.score, played.score);
            assert!(
                played.score > 0 && played.locked > 0,
                "problem {id}: {played:?}"
            );
        }
    }
}
