//! Ending on a signal: a handler that only records that a stop signal arrived, for loops (a
//! full-screen session, a server) that poll [`arrived`] and end in their own way.

use std::sync::atomic::{AtomicBool, Ordering};

static ARRIVED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_signal: libc::c_int) {
    // Only an atomic store: nothing else is async-signal-safe here. The loop does the rest.
    ARRIVED.store(true, Ordering::SeqCst);
}

/// From now on, each of `signals` (e.g. SIGINT, SIGTERM, SIGHUP) sets the flag instead of
/// ending the process.
pub fn catch(signals: &[libc::c_int]) {
    for &signal in signals {
        // SAFETY: `on_signal` is an `extern "C" fn(c_int)` that only stores to an atomic, which
        // is async-signal-safe; the handler stays valid for the life of the process.
        unsafe { libc::signal(signal, on_signal as extern "C" fn(libc::c_int) as usize) };
    }
}

/// True once one of the caught signals arrived.
pub fn arrived() -> bool {
    ARRIVED.load(Ordering::SeqCst)
}
