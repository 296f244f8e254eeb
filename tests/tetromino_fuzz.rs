//! Random mutations of valid signatures and solutions: the parsers and the verifier never
//! panic, and every error is one line.

use podium::core::rng::Rng;
use podium::tetromino::{parse_json, verify, Signature};

const ALPHABET: &[u8] = b"IJLOSTZXijlo0123456789,[]\"{}:-+. \n\te9";
const BIG: [&str; 3] = ["18446744073709551615", "4294967296", "99999999999999999999"];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.range(1..5) {
        let at = if bytes.is_empty() {
            0
        } else {
            rng.range(0..bytes.len())
        };
        match rng.below(4) {
            0 if !bytes.is_empty() => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, *rng.choose(ALPHABET).unwrap()),
            2 if !bytes.is_empty() => bytes[at] = *rng.choose(ALPHABET).unwrap(),
            3 if rng.chance(0.3) => {
                let big = rng.choose(&BIG).unwrap().as_bytes();
                bytes.splice(at..at, big.iter().copied());
            }
            _ => {
                let end = (at + rng.range(0..8)).min(bytes.len());
                let piece = bytes[at..end].to_vec();
                bytes.splice(at..at, piece);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn signature_parser_survives_mutations() {
    let mut rng = Rng::new(1);
    let seeds = ["I49,J127,L49,O13,S127,T126,Z134", "I1,J1,L1,Z1", "O0,T4"];
    let mut accepted = 0;
    for i in 0..20_000 {
        let text = mutate(&mut rng, seeds[i % seeds.len()]);
        match Signature::parse(&text) {
            Ok(sig) => {
                accepted += 1;
                assert_eq!(Signature::parse(&sig.to_full_string()), Ok(sig));
            }
            Err(e) => assert!(
                !e.contains('\n') && e.starts_with("signature: "),
                "{text:?}: {e}"
            ),
        }
    }
    assert!(accepted > 100 && accepted < 20_000, "accepted {accepted}");
}

#[test]
fn solution_parser_and_verifier_survive_mutations() {
    let mut rng = Rng::new(2);
    let valid = r#"[["Z",0,0,0],["J",1,0,1],["L",2,2,0],["I",1,0,3]]"#;
    let sig = Signature::parse("I1,J1,L1,Z1").unwrap();
    let (mut parsed, mut verified) = (0, 0);
    for _ in 0..20_000 {
        let text = mutate(&mut rng, valid);
        match parse_json(&text) {
            Ok(placements) => {
                parsed += 1;
                for size in [0, 1, 4, 5] {
                    match verify(size, &sig, &placements) {
                        Ok(()) => verified += 1,
                        Err(e) => assert!(!e.contains('\n'), "{text:?}: {e}"),
                    }
                }
            }
            Err(e) => assert!(
                !e.contains('\n') && e.starts_with("solution: "),
                "{text:?}: {e}"
            ),
        }
    }
    assert!(parsed > 100, "parsed {parsed}");
    assert!(verified > 0, "verified {verified}");
}
