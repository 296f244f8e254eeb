//! Short games (a few units on a small board) searched whole: every answer legal and re-scored
//! with the run's own phrase set (known, plain moves, unspellable, none); a game small enough
//! to enumerate searched to its best.

use podium::core::timer::Deadline;
use podium::icfp2015::gen::problem::{generate, Spec};
use podium::icfp2015::memory::SearchMemory;
use podium::icfp2015::rules::commands::Command;
use podium::icfp2015::rules::game::{evaluate, Game, Outcome, Setup};
use podium::icfp2015::rules::phrases::PhraseSet;
use podium::icfp2015::rules::problem::Problem;
use podium::icfp2015::solve::solve_within;
use podium::icfp2015::spell::exhaustive;
use std::time::Duration;

fn tiny(seed: u64, length: usize) -> Setup {
    let spec = Spec {
        width: Some(10),
        height: Some(9),
        shapes: Some(5),
        max_size: Some(4),
        length: Some(length),
        seeds: Some(1),
        fill: Some(0.0),
        ..Spec::default()
    };
    Setup::new(generate(&spec, seed))
}

#[test]
fn short_games_are_legal_with_every_kind_of_phrase_set() {
    let sets = [
        PhraseSet::known(),
        PhraseSet::new(vec!["aal".into(), "pal".into(), "lal".into()]).unwrap(),
        PhraseSet::new(vec!["ep".into(), "dk".into()]).unwrap(),
        PhraseSet::none(),
    ];
    for (k, phrases) in sets.iter().enumerate() {
        let setup = tiny(300 + k as u64, 2 + k);
        let seed = setup.problem.source_seeds[0];
        let played = solve_within(&setup, seed, phrases, Duration::from_millis(600));
        let again = evaluate(&setup, u64::from(seed), &played.commands, phrases).unwrap();
        assert_eq!(again.error, None, "set {k}: {}", played.commands);
        assert_eq!(again.score, played.score, "set {k}");
    }
}

/// Every legal command string of the game of seed 0 (one command at a time): the best score.
fn brute_force(setup: &Setup, phrases: &PhraseSet) -> u64 {
    fn go(game: &Game, text: &mut String, phrases: &PhraseSet, best: &mut u64) {
        for c in Command::ALL {
            let mut next = game.clone();
            if matches!(next.step(c), Outcome::Repeated | Outcome::AfterEnd) {
                continue;
            }
            text.push(c.char());
            let counts = phrases.count(text);
            *best = (*best).max(next.move_score() + phrases.power_score(&counts));
            if !next.is_over() {
                go(&next, text, phrases, best);
            }
            text.pop();
        }
    }
    let mut best = 0;
    go(&Game::new(setup, 0), &mut String::new(), phrases, &mut best);
    best
}

#[test]
fn a_game_small_enough_to_enumerate_is_searched_to_its_best() {
    // 4 x 3, two units, the second's pivot outside it: few enough command strings to try all.
    let json = r#"{"id":7,"width":4,"height":3,"filled":[],"sourceLength":2,"sourceSeeds":[0],
        "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
                 {"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":1}}]}"#;
    let setup = Setup::new(Problem::parse(json.as_bytes(), "test").unwrap());
    for phrases in [
        PhraseSet::none(),
        PhraseSet::new(vec!["pa".into(), "bl".into(), "al".into()]).unwrap(),
        PhraseSet::new(vec!["pbl".into(), "dka".into(), "bpal".into()]).unwrap(),
        PhraseSet::new(vec!["dl".into(), "kd".into(), "pdb".into()]).unwrap(),
    ] {
        let best = brute_force(&setup, &phrases);
        let found = exhaustive::search(
            &setup,
            0,
            &phrases,
            &Deadline::after(Duration::from_secs(2)),
            0,
            &SearchMemory::AMPLE,
        );
        // The branch and bound after the beams ends well within the time on this game.
        assert!(found.proved, "{phrases:?}");
        assert_eq!(found.score, best, "{phrases:?}");
        let again = evaluate(&setup, 0, &found.commands, &phrases).unwrap();
        assert_eq!(
            (again.error, again.score),
            (None, best),
            "{}",
            found.commands
        );
    }
}
