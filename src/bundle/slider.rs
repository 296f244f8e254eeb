//! The Slider bundle's manifest: the model, the scorer (the solver re-checks its answer with it)
//! and the solver, with the crate's std-only RNG and deadline; the CLI-only modules stay out.

use super::{Manifest, Module};

pub const MANIFEST: Manifest = Manifest {
    name: "slider",
    entry: include_str!("parts/slider_main.rs"),
    modules: &[
        Module {
            path: "slider",
            source: include_str!("../slider/mod.rs"),
        },
        Module {
            path: "slider::board",
            source: include_str!("../slider/board.rs"),
        },
        Module {
            path: "slider::score",
            source: include_str!("../slider/score.rs"),
        },
        Module {
            path: "slider::solve",
            source: include_str!("../slider/solve.rs"),
        },
        Module {
            path: "core::rng",
            source: include_str!("../core/rng.rs"),
        },
        Module {
            path: "core::stamp",
            source: include_str!("../core/stamp.rs"),
        },
        Module {
            path: "core::text",
            source: include_str!("../core/text.rs"),
        },
        Module {
            path: "core::timer",
            source: include_str!("../core/timer.rs"),
        },
    ],
    omit: &[
        "slider::cases",
        "slider::cli",
        "slider::gen",
        "slider::show",
    ],
    generated: &[],
};
