//! `cephalopod_judge [FILE]`: `podium cephalopod` for a judge that times the whole process; C's
//! `main` directly (no std runtime set-up: its stack-guard probe reads /proc/self/maps).
#![no_main]

/// The C entry point; std's arguments and stdout work without its runtime on Linux.
#[no_mangle]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    podium::cephalopod::judge::main_code()
}
