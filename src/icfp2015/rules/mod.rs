//! The exact engine: what the official evaluator does, and nothing a solver chooses. The
//! solver's layers (`place`, `spell`, `solve`) and the viewer build on it; it imports none of them.

pub mod board;
pub mod commands;
pub mod game;
pub mod hex;
pub mod phrases;
pub mod problem;
pub mod qualifiers;
pub mod source;
pub mod unit;
