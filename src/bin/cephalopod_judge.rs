//! `cephalopod_judge [FILE]`: `podium cephalopod` for a judge that times the whole process; C's
//! `main` directly (no std runtime set-up: its stack-guard probe reads /proc/self/maps).
#![no_main]

/// The C entry point; std's arguments and stdout work without its runtime on Linux.
#[no_mangle]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    // std's runtime, skipped here, is what ignores SIGPIPE: without this a closed stdout
    // (`cephalopod_judge FILE | head -c 0`) killed the process (status 141) instead of the
    // quiet exit 0 every podium command gives.
    // SAFETY: `signal` with `SIG_IGN` installs no handler code; nothing else in the process
    // has set a SIGPIPE disposition yet (no threads run before `main`).
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    podium::cephalopod::judge::main_code()
}
