//! Whether the solver's trace is on (`PODIUM_ICFP2015_TRACE` set): the one switch every layer
//! that writes trace lines on stderr (the beam's plans, a game's attempts) reads.

/// Whether `PODIUM_ICFP2015_TRACE` is set.
pub fn tracing() -> bool {
    std::env::var_os("PODIUM_ICFP2015_TRACE").is_some()
}
