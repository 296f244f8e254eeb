//! Phrases spelled across a lock: a phrase longer than one unit's descent is split so that
//! its prefix ends with the command that locks this unit and the next unit starts with the rest.
//
// The prefix is placed backwards from the lock (every command has one source position), a
// shortest path leads from the spawn to where the prefix starts, and the whole is checked by
// the rules; then a copy of the game plays it, spawns the next unit and plays the suffix, which
// must leave the next unit's lock reachable without repeating a position.

use super::dp::follows_rules;
use super::reach::{bfs, falling, path_to};
use crate::icfp2015::rules::commands::Command;
use crate::icfp2015::rules::game::{target, Game, Outcome};
use crate::icfp2015::rules::unit::Pos;

/// How to spell a phrase across the lock of the falling unit: this unit's commands (the last
/// one locks it and is the phrase's command `split`), of which the phrase's prefix is the last
/// `split + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub commands: Vec<Command>,
    pub split: usize,
}

/// A split of `phrase` (its commands) across the lock of `game`'s falling unit at `goal` that
/// lets the next unit play the rest from its spawn and still lock at `next_goal`, preferring
/// the longest prefix.
pub fn find(game: &Game, goal: Pos, next_goal: Pos, phrase: &[Command]) -> Option<Span> {
    let (grid, canonical, fits) = falling(game);
    let start = canonical(game.pos());
    let goal = canonical(goal);
    for split in (0..phrase.len().saturating_sub(1)).rev() {
        if fits(canonical(target(goal, phrase[split]))) {
            continue;
        }
        let Some(first) = phrase[..split]
            .iter()
            .rev()
            .try_fold(goal, |after, &c| source(after, c, &canonical))
        else {
            continue;
        };
        if !fits(first) {
            continue;
        }
        let Some(mut commands) = path_to(&grid, start, first, &[], &fits, &canonical) else {
            continue;
        };
        commands.extend_from_slice(&phrase[..=split]);
        if !follows_rules(&commands, start, goal, &canonical, &fits) {
            continue;
        }
        if next_unit_follows(game, &commands, &phrase[split + 1..], next_goal) {
            return Some(Span { commands, split });
        }
    }
    None
}

/// The position from which `command` leads to `after`, if there is one.
fn source(after: Pos, command: Command, canonical: &dyn Fn(Pos) -> Pos) -> Option<Pos> {
    let candidates = match command {
        Command::CW | Command::CCW => (0..6)
            .map(|orientation| Pos {
                orientation,
                ..after
            })
            .collect::<Vec<_>>(),
        _ => {
            let y = after.y - i32::from(command.descends());
            (-1..=1)
                .map(|dx| Pos {
                    x: after.x + dx,
                    y,
                    orientation: after.orientation,
                })
                .collect()
        }
    };
    candidates
        .into_iter()
        .find(|&p| canonical(p) == p && canonical(target(p, command)) == after)
}

/// Whether, after `commands` lock the falling unit of a copy of `game`, the next unit can play
/// `suffix` from its spawn (moves only) and then still lock at `next_goal`.
fn next_unit_follows(
    game: &Game,
    commands: &[Command],
    suffix: &[Command],
    next_goal: Pos,
) -> bool {
    let mut trial = game.clone();
    let (&lock, moves) = commands.split_last().expect("a span locks");
    if moves.iter().any(|&c| trial.step(c) != Outcome::Moved)
        || !matches!(trial.step(lock), Outcome::Locked { .. })
        || trial.is_over()
    {
        return false;
    }
    let Some(row) = play_moves(&mut trial, suffix) else {
        return false;
    };
    last_leg(&trial, &row, next_goal).is_some()
}

/// Plays `moves` on `game`, each of which must move the unit; the positions of the unit's
/// current row after them (canonical), or `None` if one does not move it.
pub fn play_moves(game: &mut Game, moves: &[Command]) -> Option<Vec<Pos>> {
    let unit = game.unit();
    let canonical = |pos: Pos| unit.canonical_pos(pos);
    let mut row = vec![canonical(game.pos())];
    for &c in moves {
        if game.step(c) != Outcome::Moved {
            return None;
        }
        if c.descends() {
            row.clear();
        }
        row.push(canonical(game.pos()));
    }
    Some(row)
}

/// The commands from the falling unit's position to a lock at `goal` that avoid `row` (the
/// positions of its current row so far).
pub fn last_leg(game: &Game, row: &[Pos], goal: Pos) -> Option<Vec<Command>> {
    let (grid, canonical, fits) = falling(game);
    bfs(
        &grid,
        canonical(game.pos()),
        canonical(goal),
        row,
        &fits,
        &canonical,
    )
}

#[cfg(test)]
mod tests {
    use crate::icfp2015::place::placement::placements;
    use crate::icfp2015::rules::game::{evaluate, Game, Setup};
    use crate::icfp2015::rules::phrases::PhraseSet;
    use crate::icfp2015::spell::route::Scribe;

    /// On problem 6 (ten rows), `case nightmare green` needs 11 rows of descent: routes that
    /// know the next unit's lock spell it across a lock, and the whole text stays valid.
    #[test]
    fn a_long_phrase_is_spelled_across_a_lock() {
        let phrases = PhraseSet::known();
        let long = phrases
            .phrases()
            .iter()
            .position(|p| p == "CASE NIGHTMARE GREEN")
            .unwrap();
        let setup = Setup::bundled(6);
        let seed = setup.problem.source_seeds[0];
        // The deepest lock of each unit, found by playing them once.
        let mut game = Game::new(&setup, seed);
        let mut goals = Vec::new();
        while !game.is_over() && goals.len() < 40 {
            let deepest = placements(&game)
                .into_iter()
                .max_by_key(|p| (p.pos.y, p.pos.x))
                .unwrap();
            goals.push(deepest.pos);
            for &c in &deepest.path {
                game.step(c);
            }
        }
        let mut game = Game::new(&setup, seed);
        let mut scribe = Scribe::new(&phrases);
        for k in 0..goals.len() {
            scribe.route(&mut game, goals[k], goals.get(k + 1).copied(), true);
        }
        let scored = evaluate(&setup, seed as u64, scribe.text(), &phrases).unwrap();
        assert_eq!(scored.error, None);
        assert_eq!(scored.locked as usize, goals.len());
        assert!(scored.counts[long] >= 1, "{:?}", scored.counts);
    }
}
