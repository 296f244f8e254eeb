//! How each unit reaches its lock: the command path from its spawn, spelling phrases of power on
//! the way (greedy and DP routes, phrases across one lock or several units). Built on `place`.

pub mod bound;
pub mod chain;
mod deep;
pub mod dp;
pub mod exhaustive;
pub mod lookahead;
pub mod power;
mod reach;
mod room;
pub mod route;
pub mod span;
mod steps;
mod words;
