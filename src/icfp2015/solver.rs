//! A first solver for ICFP 2015: one unit at a time, every reachable lock position scored by
//! board features (the Frictionless Bananas three plus holes and lines), the best one taken.
//
// Phrases: once a placement is chosen, each phrase of power is tried as a prefix of the unit's
// path (new phrases first, for their +300): the phrase's commands must all move, and a BFS from
// where they end must still reach the same locked cells; the first that works is kept. This
// is the baseline the beam search and the phrase DP of part 2 build on. Every solution it
// returns has been re-scored by the evaluator (`game::evaluate`).

use super::commands::{decode, encode, Command};
use super::game::{evaluate, Game, Outcome, Setup};
use super::hex::{neighbour, Cell, Direction};
use super::phrases::PhraseSet;
use super::placement::{placements, Placement};
use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use std::time::Instant;

/// Weights of the placement features; see `placement_value`.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub points: f64,
    pub depth: f64,
    pub row_fill: f64,
    pub neighbours: f64,
    pub covered: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            points: 1.0,
            depth: 4.0,
            row_fill: 1.0,
            neighbours: 2.0,
            covered: -6.0,
        }
    }
}

/// Phrases spelled before one unit locks, at most.
const MAX_PHRASES_PER_UNIT: usize = 32;

impl Weights {
    /// These weights, each scaled by a random factor in [0.5, 2].
    pub fn perturbed(&self, rng: &mut Rng) -> Weights {
        let mut scale = |w: f64| w * 2f64.powf(2.0 * rng.f64() - 1.0);
        Weights {
            points: scale(self.points),
            depth: scale(self.depth),
            row_fill: scale(self.row_fill),
            neighbours: scale(self.neighbours),
            covered: scale(self.covered),
        }
    }
}

/// Plays the game with the default weights, then again with perturbed ones while the time
/// left allows a whole game (judged by the last one's duration); returns the best.
pub fn play_restarts(setup: &Setup, seed: u32, phrases: &PhraseSet, deadline: &Deadline) -> Played {
    let mut rng = Rng::new((setup.problem.id as u64) << 32 | seed as u64);
    let started = Instant::now();
    let mut best = play_greedy(setup, seed, &Weights::default(), phrases, deadline);
    let mut last = started.elapsed();
    while deadline.remaining() > last.mul_f64(1.2) {
        let weights = Weights::default().perturbed(&mut rng);
        let started = Instant::now();
        let played = play_greedy(
            setup,
            seed,
            &weights,
            phrases,
            &Deadline::after(deadline.remaining()),
        );
        last = started.elapsed();
        if played.score > best.score {
            best = played;
        }
    }
    best
}

/// A solved game: the command string and what the evaluator gives it.
#[derive(Clone, Debug)]
pub struct Played {
    pub commands: String,
    pub score: u64,
    pub locked: u32,
}

/// How good locking the falling unit at `p` is (higher is better).
pub fn placement_value(game: &Game, p: &Placement, w: &Weights) -> f64 {
    let unit = game.unit();
    let board = game.board();
    let cells = unit.cells(p.pos);
    let height = board.height() as f64;
    let filled = |c: Cell| !board.is_on_board(c) || board.get(c) || cells.contains(&c);
    let mut after = board.clone();
    let lines = after.lock(unit.shape(p.pos.orientation, p.pos.y), p.pos.x, p.pos.y);
    let points = unit.size as f64 + 50.0 * (1.0 + lines as f64) * lines as f64;
    let depth: f64 = cells.iter().map(|c| c.y as f64 / height).sum();
    let mut rows: Vec<i32> = cells.iter().map(|c| c.y).collect();
    rows.sort_unstable();
    rows.dedup();
    let row_fill: f64 = rows
        .iter()
        .map(|&y| {
            let taken = board.rows()[y as usize].count_ones() as usize
                + cells.iter().filter(|c| c.y == y).count();
            taken as f64 / board.width() as f64
        })
        .sum();
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
    w.points * points
        + w.depth * depth
        + w.row_fill * row_fill
        + w.neighbours * neighbours
        + w.covered * covered
}

/// Plays the whole game greedily (or until `deadline`, locking nothing more after it), and
/// returns the commands with the evaluator's score.
pub fn play_greedy(
    setup: &Setup,
    seed: u32,
    weights: &Weights,
    phrases: &PhraseSet,
    deadline: &Deadline,
) -> Played {
    let mut game = Game::new(setup, seed);
    let spelled: Vec<(String, Vec<Command>)> = phrases
        .phrases()
        .iter()
        .filter_map(|p| {
            decode(p)
                .ok()
                .filter(|c| !c.is_empty())
                .map(|c| (p.to_lowercase(), c))
        })
        .collect();
    let mut used = vec![false; spelled.len()];
    let mut text = String::new();
    let units = setup.problem.source_length.max(1) as f64;
    while !game.is_over() && !deadline.expired() {
        let options = placements(&game);
        let Some(best) = options
            .iter()
            .map(|p| (placement_value(&game, p, weights), p))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| p)
        else {
            break;
        };
        // Phrases, as many in a row as fit, while the game keeps to its share of the time.
        let mut rest = best.path.clone();
        let mut here = game.clone();
        for _ in 0..MAX_PHRASES_PER_UNIT {
            if deadline.fraction_used() >= (game.locked() + 1) as f64 / units {
                break;
            }
            let Some((index, path)) = with_a_phrase(&here, best, &spelled, &used) else {
                break;
            };
            used[index] = true;
            text.push_str(&spelled[index].0);
            for &c in &spelled[index].1 {
                here.step(c);
            }
            rest = path;
        }
        text.push_str(&encode(&rest));
        for &c in &rest {
            here.step(c);
        }
        game = here;
    }
    let scored =
        evaluate(setup, seed as u64, &text, phrases).expect("the seed comes from the problem");
    assert!(
        scored.error.is_none(),
        "the solver produced an invalid solution: {:?}",
        scored.error
    );
    Played {
        commands: text,
        score: scored.score,
        locked: scored.locked,
    }
}

/// A phrase (its index) and the commands after it that lock the falling unit on the same cells
/// as `target`, if one can be spelled first; unused phrases are tried first, longest first.
fn with_a_phrase(
    game: &Game,
    target: &Placement,
    spelled: &[(String, Vec<Command>)],
    used: &[bool],
) -> Option<(usize, Vec<Command>)> {
    let unit = game.unit();
    let cells_of = |pos| {
        let mut cells = unit.cells(pos);
        cells.sort_by_key(|c| (c.y, c.x));
        cells
    };
    let goal = cells_of(target.pos);
    let mut order: Vec<usize> = (0..spelled.len()).collect();
    order.sort_by_key(|&i| (used[i], std::cmp::Reverse(spelled[i].1.len())));
    for i in order {
        let mut trial = game.clone();
        if !spelled[i]
            .1
            .iter()
            .all(|&c| trial.step(c) == Outcome::Moved)
        {
            continue;
        }
        let Some(rest) = placements(&trial)
            .into_iter()
            .find(|p| cells_of(p.pos) == goal)
        else {
            continue;
        };
        // The BFS path is valid on its own; with the phrase before it, replay to be sure no
        // position repeats within a row.
        let mut check = trial.clone();
        let (last, moves) = rest.path.split_last()?;
        if moves.iter().all(|&c| check.step(c) == Outcome::Moved)
            && matches!(check.step(*last), Outcome::Locked { .. })
        {
            return Some((i, rest.path));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::problem::Problem;
    use std::time::Duration;

    #[test]
    fn greedy_solutions_are_valid_and_score() {
        for id in [0, 1, 2, 6] {
            let path = format!(
                "{}/data/icfp2015/problems/problem_{id}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let setup = Setup::new(Problem::parse(&std::fs::read(&path).unwrap(), &path).unwrap());
            let seed = setup.problem.source_seeds[0];
            let deadline = Deadline::after(Duration::from_secs(60));
            let played = play_greedy(
                &setup,
                seed,
                &Weights::default(),
                &PhraseSet::known(),
                &deadline,
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
