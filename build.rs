//! Runs the pure table generators in `tables/` and writes their Rust rendering into OUT_DIR,
//! where the runtime include!s it: no table is computed at run time or typed by hand.

#[path = "tables/cephalopod.rs"]
#[allow(dead_code)]
mod cephalopod;

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=tables");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("cephalopod_tables.rs"), cephalopod::render())
        .expect("write cephalopod tables");
}
