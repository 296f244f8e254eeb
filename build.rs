//! Runs the pure table generators in `tables/` and writes their Rust rendering into OUT_DIR,
//! where the runtime include!s it: no table is computed at run time or typed by hand.

#[path = "tables/bananagrams.rs"]
#[allow(dead_code)]
mod bananagrams;
#[path = "tables/cephalopod.rs"]
#[allow(dead_code)]
mod cephalopod;
#[path = "tables/icfp2015.rs"]
#[allow(dead_code)]
mod icfp2015;

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=tables");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=data/bananagrams/enable.txt");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("cephalopod_tables.rs"), cephalopod::render())
        .expect("write cephalopod tables");
    fs::write(out.join("icfp2015_tables.rs"), icfp2015::render()).expect("write icfp2015 tables");
    write_dictionary(&out);
}

/// ENABLE as a minimal DAWG image (the solver's structure) and as a sorted word list with word
/// offsets (the validator's, kept independent of the DAWG).
fn write_dictionary(out: &std::path::Path) {
    let text = fs::read("data/bananagrams/enable.txt").expect("read data/bananagrams/enable.txt");
    let words = bananagrams::parse_list(&text)
        .unwrap_or_else(|e| panic!("enable.txt line {}: {}", e.line, e.message));
    fs::write(
        out.join("bananagrams_enable.dawg"),
        bananagrams::to_bytes(&bananagrams::compile(&words)),
    )
    .expect("write the DAWG");
    let (list, offsets) = bananagrams::word_list(&words);
    fs::write(out.join("bananagrams_enable.words"), list).expect("write the word list");
    fs::write(
        out.join("bananagrams_enable.offsets"),
        bananagrams::to_bytes(&offsets),
    )
    .expect("write the word offsets");
}
