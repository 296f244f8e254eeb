//! Plans for boards where the phrases spelled on the way down are most of the score (problem
//! 24): many one-unit-at-a-time plans that fill the fullest rows, the one whose units fall furthest kept.
//
// On problem 24 (100 x 40, 1620 units of 1-13 cells, ~5,900 of its ~306,000 best points from
// the move score) a route spells about 6 points per row the unit falls (Ei! and R'lyeh, one
// descent in three commands), so a game is worth ~6 x the rows its units fall. The beam's
// depth-first weights sink units into the caves under the pre-filled islands, seal them and end
// with ~1,850 cells on the board and the units falling ~16 rows (225,738). Filling the rows with
// the most filled cells first (the second of the Frictionless Bananas orders), with a little
// weight on depth, builds a band over the islands that clears a row every ~32 units: all 50
// rows of cells clear and the units fall ~28 rows. Which plan falls furthest varies a lot with
// the tie-breaks (44,300 to 48,500 rows over three seeds and drop weights 3-5), so this plans
// greedily, many times, and keeps the best. A beam over the same weights fell ~46,000 rows.

use super::placement::lock_positions_where;
use super::value::placement_value;
use super::weights::Weights;
use crate::core::rng::Rng;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::game::{move_score, Setup};
use crate::icfp2015::rules::unit::{Pos, Unit};

/// Power points a route spells per row a unit falls with the 18 known phrases, on an open board
/// (measured on problem 24: 269,582 power points over 45,359 descents); other phrase sets pass
/// their own rate (`spell::power::power_per_row`), 0 without phrases.
pub const POWER_PER_ROW: u64 = 6;

/// The weights of a band plan on `setup`: filled cells of the rows the unit touches, plus `drop`
/// per row it falls, with filled neighbours breaking ties.
pub fn band_weights(setup: &Setup, drop: f64) -> Weights {
    Weights {
        points: 0.0,
        depth: 0.0,
        row_fill: setup.width() as f64,
        neighbours: 0.01,
        covered: 0.0,
        drop,
        fall: 0.0,
        stack: 0.0,
        lines: 0.0,
        holes: 0.0,
        height: 0.0,
        cover: 0.0,
        bumps: 0.0,
        rows: 0.0,
        ahead: 0.0,
        next: 0.0,
        spawn: 0.0,
        burst: 1,
        spread: 2,
        resting: false,
        hold_single: false,
    }
}

/// A plan and what it is expected to score: its move score plus [`POWER_PER_ROW`] per row its
/// units fall.
#[derive(Clone, Debug, Default)]
pub struct Sweep {
    pub locks: Vec<Pos>,
    pub merit: u64,
}

/// One plan from `start`: each unit of `order` at its best lock by `weights`, ties broken at
/// random; it ends where a unit cannot spawn or lock.
pub fn greedy(
    setup: &Setup,
    start: &Board,
    order: &[u32],
    weights: &Weights,
    power: u64,
    rng: &mut Rng,
) -> Sweep {
    let mut board = start.clone();
    let mut sweep = Sweep::default();
    let mut prev_lines = 0u32;
    for &unit_index in order {
        let unit = &setup.units[unit_index as usize];
        let spawn = unit.spawn;
        if !board.fits(unit.shape(spawn.orientation, spawn.y), spawn.x, spawn.y) {
            break;
        }
        let mut best: Option<(f64, u64, Pos)> = None;
        for pos in lock_positions_where(&board, unit, spawn, false) {
            let (value, _) = placement_value(&board, unit, pos, weights);
            let tie = rng.next_u64();
            if best.is_none_or(|(v, t, _)| value > v || (value == v && tie > t)) {
                best = Some((value, tie, pos));
            }
        }
        let Some((_, _, pos)) = best else { break };
        let lines = board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
        sweep.merit += lock_merit(unit, pos, lines, prev_lines, power);
        prev_lines = lines;
        sweep.locks.push(pos);
    }
    sweep
}

/// The merit of the plan `locks` for the units of `order` from `start` (see [`Sweep`]).
pub fn merit(setup: &Setup, start: &Board, order: &[u32], locks: &[Pos], power: u64) -> u64 {
    let mut board = start.clone();
    let (mut merit, mut prev_lines) = (0u64, 0u32);
    for (&unit_index, &pos) in order.iter().zip(locks) {
        let unit = &setup.units[unit_index as usize];
        let lines = board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
        merit += lock_merit(unit, pos, lines, prev_lines, power);
        prev_lines = lines;
    }
    merit
}

/// What locking `unit` at `pos`, clearing `lines` after a lock that cleared `prev_lines`, adds
/// to a plan's merit, at `power` points per row fallen.
fn lock_merit(unit: &Unit, pos: Pos, lines: u32, prev_lines: u32, power: u64) -> u64 {
    move_score(unit.size, lines, prev_lines) + power * (pos.y - unit.spawn.y).max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::game::Game;

    #[test]
    fn a_band_plan_plays_to_its_claimed_merit_and_clears_the_rows() {
        let setup = Setup::bundled(24);
        let seed = setup.problem.source_seeds[0];
        let order = Game::new(&setup, seed).order().to_vec();
        let mut rng = Rng::new(5);
        let weights = band_weights(&setup, 4.0);
        let plan = greedy(
            &setup,
            &setup.start,
            &order,
            &weights,
            POWER_PER_ROW,
            &mut rng,
        );
        assert_eq!(plan.locks.len(), order.len());
        // Replayed in a game: every lock is reachable, and the merit is the move score plus the
        // rows fallen.
        let mut game = Game::new(&setup, seed);
        let phrases = crate::icfp2015::PhraseSet::known();
        let mut scribe = crate::icfp2015::spell::route::Scribe::new(&phrases);
        let mut fallen = 0u64;
        for &pos in &plan.locks {
            fallen += (pos.y - game.unit().spawn.y) as u64;
            scribe.route(&mut game, pos, None, false);
        }
        assert_eq!(game.locked() as usize, order.len());
        assert_eq!(plan.merit, game.move_score() + POWER_PER_ROW * fallen);
        assert_eq!(
            plan.merit,
            merit(&setup, &setup.start, &order, &plan.locks, POWER_PER_ROW)
        );
        // The cells of 1620 units clear ~50 rows; the band leaves fewer cells than it started
        // with, where the depth-first beam left ~1,850.
        assert!(
            game.board().count() < setup.start.count(),
            "{}",
            game.board().count()
        );
    }
}
