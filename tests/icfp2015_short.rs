//! Short games (a few units on a small board) searched whole: every answer legal and re-scored
//! with the run's own phrase set (known, plain moves, unspellable, none).

use podium::icfp2015::gen::problem::{generate, Spec};
use podium::icfp2015::rules::game::{evaluate, Setup};
use podium::icfp2015::rules::phrases::PhraseSet;
use podium::icfp2015::solve::solve_within;
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
