//! The game page in a real browser: headless Chromium plays a person's game against two podium
//! players on `podium bananagrams serve`, by keyboard and drag and drop, to someone's BANANAS.
//!
//! About 20 s (the podium players keep a human pace) and Chromium, so ignored by default; run with
//!     cargo test --test bananagrams_browser -- --ignored --nocapture
//! and PODIUM_SCREENSHOTS=docs/img to refresh the README's screenshots.

#[path = "browser/devtools.rs"]
mod devtools;

use devtools::Browser;
use podium::bananagrams::dict::{Lexicon, Place};
use podium::bananagrams::letters::Tiles;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// `podium bananagrams serve --port 0`, stopped when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_podium"))
            .args(["bananagrams", "serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start podium bananagrams serve");
        let stderr = child.stderr.take().expect("stderr is piped");
        let mut lines = BufReader::new(stderr).lines();
        let url = loop {
            let line = lines
                .next()
                .expect("the server exited before serving")
                .expect("read the server's stderr");
            if let Some(at) = line.find("http://") {
                break line[at..].trim().to_string();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rack(browser: &mut Browser) -> String {
    let letters = browser.eval(
        "[...document.querySelectorAll('#rack .rack-tile')].map(t => t.dataset.letter).join('')",
    );
    letters.as_str().unwrap_or_default().to_string()
}

fn without(letters: &str, word: &[u8]) -> String {
    let mut rest = letters.as_bytes().to_vec();
    for letter in word {
        let at = rest
            .iter()
            .position(|l| l == letter)
            .expect("a letter of the rack");
        rest.remove(at);
    }
    String::from_utf8(rest).expect("letters are ASCII")
}

/// A word of 3-6 letters from `letters`, and a second one crossing it at one of its letters
/// (its index in the first word, then in the second) made from the letters left.
fn two_words(letters: &str) -> (Vec<u8>, Vec<u8>, usize, usize) {
    let dawg = Lexicon::enable().dawg;
    let hand = Tiles::parse(letters).expect("a rack of letters");
    let mut firsts = dawg.anagrams(&hand, None);
    firsts.retain(|w| (3..=6).contains(&w.len()));
    firsts.sort_by_key(|w| w.len().abs_diff(5));
    for first in &firsts {
        let rest = Tiles::parse(&without(letters, first)).expect("letters");
        for (i, &letter) in first.iter().enumerate() {
            let through = Some((letter - b'A', Place::Anywhere));
            for second in dawg.anagrams(&rest, through) {
                if !(3..=5).contains(&second.len()) {
                    continue;
                }
                for (j, &l) in second.iter().enumerate() {
                    let mut others = second.clone();
                    others.remove(j);
                    if l == letter
                        && Tiles::of_word(&others)
                            .counts()
                            .iter()
                            .zip(rest.counts())
                            .all(|(a, b)| a <= b)
                    {
                        return (first.clone(), second, i, j);
                    }
                }
            }
        }
    }
    panic!("no two crossing words in {letters}");
}

fn cell(row: usize, col: usize) -> String {
    format!("#cell-{row}-{col}")
}

fn shots_dir() -> PathBuf {
    match std::env::var_os("PODIUM_SCREENSHOTS") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir(),
    }
}

#[test]
#[ignore = "20 s of real-time play in headless Chromium; see the top of this file"]
fn a_person_plays_two_podium_players_in_chromium() {
    let server = Server::start();
    let mut browser = Browser::launch(1400, 900);
    browser.navigate(&server.url);
    browser.wait_for(
        "document.querySelectorAll('#seat-list li').length === 1",
        Duration::from_secs(10),
    );

    // The lobby: you, and two podium players at a pace a person can follow.
    browser.click("#add-podium");
    browser.eval(
        "document.querySelectorAll('.seat-pace').forEach((input, i) => input.value = 700 + 300 * i); \
         document.querySelectorAll('.seat-player')[1].value = 'TwoLetterStranding'; true",
    );
    browser.click("#create-button");
    browser.wait_for(
        "document.getElementById('phase-line').textContent === 'Playing.' && document.querySelectorAll('#rack .rack-tile').length > 0",
        Duration::from_secs(10),
    );
    let letters = rack(&mut browser);
    let (first, second, i, j) = two_words(&letters);
    eprintln!(
        "rack {letters}: {} across, {} down through its letter {i}",
        String::from_utf8_lossy(&first),
        String::from_utf8_lossy(&second)
    );

    // One word by keyboard: click a cell, type it across.
    let (row, col) = (30, 28);
    browser.click(&cell(row, col));
    for letter in &first {
        browser.key(&(char::from(*letter).to_ascii_lowercase()).to_string());
    }
    let across: String = (0..first.len())
        .map(|k| {
            format!(
                "document.querySelector('{}').textContent",
                cell(row, col + k)
            )
        })
        .collect::<Vec<_>>()
        .join("+");
    browser.wait_for(
        &format!(
            "{across} === '{}' && !document.querySelector('.pending')",
            String::from_utf8_lossy(&first)
        ),
        Duration::from_secs(5),
    );

    // One word by drag and drop, down through the first word's letter i.
    for (k, &letter) in second.iter().enumerate() {
        if k == j {
            continue;
        }
        let target = cell(row + k - j, col + i);
        browser.drag(
            &format!("#rack .rack-tile[data-letter='{}']", char::from(letter)),
            &target,
        );
        browser.wait_for(&format!("document.querySelector('{target}').textContent === '{}' && !document.querySelector('.pending')", char::from(letter)), Duration::from_secs(5));
    }

    // Backspace lifts the last letter typed, and typing it again puts it back.
    let last = first.len() - 1;
    browser.click(&cell(row, col + last));
    browser.key("Backspace");
    browser.wait_for(
        &format!(
            "document.querySelector('{}').textContent === ''",
            cell(row, col + last)
        ),
        Duration::from_secs(5),
    );
    browser.key(&char::from(first[last]).to_string());
    browser.wait_for(
        &format!(
            "document.querySelector('{}').textContent === '{}'",
            cell(row, col + last),
            char::from(first[last])
        ),
        Duration::from_secs(5),
    );

    // A dump: select a rack tile, then DUMP.
    browser.click("#rack .rack-tile");
    browser.click("#dump");
    browser.wait_for("[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('You dumped'))", Duration::from_secs(5));

    // The podium players peel meanwhile: wait for a peel in the log, then take the picture.
    browser.wait_for("[...document.querySelectorAll('#log li')].filter(li => /peel/i.test(li.textContent)).length >= 2", Duration::from_secs(60));
    let shot = shots_dir().join("bananagrams-game.png");
    std::fs::write(&shot, browser.screenshot()).expect("write the game screenshot");

    // A reload rejoins the seat with the token kept in sessionStorage.
    browser.navigate(&server.url);
    browser.wait_for(
        &format!(
            "!!document.querySelector('{}') && document.querySelector('{}').textContent === '{}'",
            cell(row, col),
            cell(row, col),
            char::from(first[0])
        ),
        Duration::from_secs(10),
    );

    // A dropped socket rejoins by itself.
    browser.eval("app.socket.close(); true");
    browser.wait_for(
        "document.querySelectorAll('#log li.log-back').length >= 2",
        Duration::from_secs(10),
    );

    // Play on: the podium players peel at their pace until one of them calls BANANAS.
    browser.wait_for(
        "!document.getElementById('final').hidden",
        Duration::from_secs(240),
    );
    let figures = browser.eval("document.querySelectorAll('#final-grids figure').length");
    assert_eq!(
        figures,
        serde_json::json!(3),
        "every seat's grid at the end"
    );
    let podium_tiles = browser.eval(
        "[...document.querySelectorAll('#final-grids figure')].slice(1).every(f => f.querySelectorAll('.mini.tile').length > 0)",
    );
    assert_eq!(
        podium_tiles,
        serde_json::json!(true),
        "the podium players' grids are shown"
    );
    let reason = browser.eval("document.getElementById('final-reason').textContent");
    eprintln!("over: {reason}");
    let shot = shots_dir().join("bananagrams-final.png");
    std::fs::write(&shot, browser.screenshot()).expect("write the final screenshot");
    assert!(
        browser.errors.is_empty(),
        "console errors: {:#?}",
        browser.errors
    );
    drop(browser);
    drop(server);
}

#[test]
#[ignore = "two headless Chromiums; see the top of this file"]
fn a_second_person_joins_by_the_room_link() {
    let server = Server::start();
    let mut host = Browser::launch(1200, 800);
    host.navigate(&server.url);
    host.wait_for(
        "document.querySelectorAll('#seat-list li').length === 1",
        Duration::from_secs(10),
    );
    host.click("#seat-list li button");
    host.click("#add-person");
    host.click("#add-podium");
    host.click("#create-button");
    host.wait_for("document.getElementById('room-code').textContent.length === 10 && document.getElementById('phase-line').textContent.startsWith('Waiting')", Duration::from_secs(10));
    let code = host.eval("document.getElementById('room-code').textContent");
    let code = code.as_str().expect("a room code").to_string();

    let mut guest = Browser::launch(1200, 800);
    guest.navigate(&format!("{}#{code}", server.url));
    guest.wait_for(
        &format!("document.getElementById('join-room').value === '{code}'"),
        Duration::from_secs(10),
    );
    guest.eval("document.getElementById('join-name').value = 'Guest'; true");
    guest.click("#join-button");
    for page in [&mut host, &mut guest] {
        page.wait_for("document.getElementById('phase-line').hidden && document.querySelectorAll('#rack .rack-tile').length === 21 && document.querySelectorAll('#seats li').length === 3", Duration::from_secs(10));
    }
    let names = guest.eval(
        "[...document.querySelectorAll('#seats .seat-name')].map(e => e.textContent).join(', ')",
    );
    assert_eq!(
        names,
        serde_json::json!("Player, Guest (you), Podium (computer)")
    );
    host.eval("true");
    guest.eval("true");
    assert!(
        host.errors.is_empty(),
        "host's console errors: {:#?}",
        host.errors
    );
    assert!(
        guest.errors.is_empty(),
        "guest's console errors: {:#?}",
        guest.errors
    );
}
