//! Phrases spelled across several units: a phrase longer than two units' descent (the 51-letter
//! ones on boards of 10 to 20 rows) is played from one start position straight through.
//
// Once the phrase starts, nothing is chosen: a command the board blocks locks the unit, and the
// next unit goes on with the next command from its spawn. So the only choice is where in reach
// of the falling unit the phrase starts; every start is played out on a copy of the game, and
// the last unit, mid-air when the phrase ends, goes to the deepest lock it can reach without
// repeating a position. Starts are ranked by the board when the phrase ends: the most empty
// rows on top, then the fewest holes.

use super::reach::Reach;
use super::span::last_leg;
use crate::icfp2015::place::placement::lock_positions_where;
use crate::icfp2015::place::value::Features;
use crate::icfp2015::rules::commands::Command;
use crate::icfp2015::rules::game::{Game, Outcome};
use crate::icfp2015::rules::unit::Pos;

/// Starts (best first) whose last unit is given a leg to a lock.
const LEG_TRIALS: usize = 4;

/// A phrase played across units from the falling unit: the commands before it (from the
/// unit's position) and after it (locking the last unit it reaches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub lead: Vec<Command>,
    pub tail: Vec<Command>,
    /// Units locked by the whole chain.
    pub units: u32,
}

/// The best start for `phrase` (its commands) from `game`'s falling unit, if any start plays
/// it through with the game still running at the end.
pub fn find(game: &Game, phrase: &[Command]) -> Option<Chain> {
    find_within(game, phrase, u32::MAX)
}

/// [`find`] among the starts whose chain locks at most `units` units (1: the falling unit
/// spells the whole phrase and locks, as `spell::lookahead` asks for a phrase not used yet).
pub fn find_within(game: &Game, phrase: &[Command], units: u32) -> Option<Chain> {
    let most = units;
    let (grid, reach) = Reach::from_falling(game)?;
    // Every start played through the phrase; the few whose boards look best (before the last
    // unit's lock) get a last leg, as it costs a search of its own. Only those few games are
    // kept, best first (ties in the order of `reach`): keeping all of them took 100 MB on
    // problem 24 (23 k starts, `play_icfp2015 -t 10 -c 2`, heaptrack).
    let mut played: Vec<PlayedThrough> = Vec::with_capacity(LEG_TRIALS + 1);
    for &from in &reach.order {
        let Some(lead) = reach.path(&grid, from) else {
            continue;
        };
        let mut trial = game.clone();
        if lead.iter().any(|&c| trial.step(c) != Outcome::Moved) {
            continue;
        }
        let Some((units, row)) = play_through(&mut trial, phrase) else {
            continue;
        };
        if units >= most {
            continue;
        }
        let features = Features::of(trial.board());
        let merit = (features.clear_rows, -(features.holes as i64));
        let at = played.partition_point(|p| p.merit >= merit);
        if at < LEG_TRIALS {
            played.insert(
                at,
                PlayedThrough {
                    merit,
                    lead,
                    units,
                    game: trial,
                    row,
                },
            );
            played.truncate(LEG_TRIALS);
        }
    }
    played.into_iter().find_map(
        |PlayedThrough {
             lead,
             units,
             game: mut trial,
             row,
             ..
         }| {
            let tail = deepest_leg(&trial, &row)?;
            let (&lock, moves) = tail.split_last().expect("a leg ends with its lock");
            let moved = moves.iter().all(|&c| trial.step(c) == Outcome::Moved);
            let locked = matches!(trial.step(lock), Outcome::Locked { .. });
            (moved && locked && !trial.is_over()).then_some(Chain {
                lead,
                tail,
                units: units + 1,
            })
        },
    )
}

/// A start played through the phrase: the board's rank, the lead, the units locked, the game
/// after the phrase and the last unit's current row.
struct PlayedThrough<'a> {
    merit: (u32, i64),
    lead: Vec<Command>,
    units: u32,
    game: Game<'a>,
    row: Vec<Pos>,
}

/// Plays `phrase` on `game`: the units it locks and the positions of the falling unit's
/// current row at the end (canonical), or `None` if it repeats a position or ends the game.
fn play_through(game: &mut Game, phrase: &[Command]) -> Option<(u32, Vec<Pos>)> {
    let mut units = 0;
    let mut row = vec![game.unit().canonical_pos(game.pos())];
    for &c in phrase {
        match game.step(c) {
            Outcome::Moved if c.descends() => row.clear(),
            Outcome::Moved => {}
            Outcome::Locked { .. } if !game.is_over() => {
                units += 1;
                row.clear();
            }
            _ => return None,
        }
        row.push(game.unit().canonical_pos(game.pos()));
    }
    Some((units, row))
}

/// Commands taking the falling unit to the deepest lock it reaches from where it is without
/// entering `row` (the positions of its current row so far), the last one locking it.
fn deepest_leg(game: &Game, row: &[Pos]) -> Option<Vec<Command>> {
    let unit = game.unit();
    let mut locks = lock_positions_where(game.board(), unit, game.pos(), true);
    let depth = |pos: Pos| -> i32 { unit.cells(pos).iter().map(|c| c.y).sum() };
    locks.sort_by_key(|&p| std::cmp::Reverse(depth(p)));
    locks
        .into_iter()
        .take(16)
        .find_map(|goal| last_leg(game, row, goal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::commands::decode;
    use crate::icfp2015::rules::game::Setup;

    /// Problem 12 has 20 rows; `ph'nglui ...` needs 32 rows of descent. A chain exists from
    /// the first unit and, replayed, locks the units it claims with the game still running.
    #[test]
    fn a_long_phrase_runs_across_units() {
        let setup = Setup::bundled(12);
        let game = Game::new(&setup, setup.problem.source_seeds[0]);
        let phrase = decode("ph'nglui mglw'nafh cthulhu r'lyeh wgah'nagl fhtagn.").unwrap();
        let chain = find(&game, &phrase).expect("a start that plays the phrase through");
        assert!(chain.units >= 2, "{chain:?}");
        let mut replay = game.clone();
        for &c in chain.lead.iter().chain(&phrase).chain(&chain.tail) {
            assert_ne!(replay.step(c), Outcome::Repeated);
        }
        assert_eq!(replay.locked(), chain.units);
        assert!(!replay.is_over());
    }
}
