//! Unguessable room codes and rejoin tokens, read from the operating system's CSPRNG
//! (/dev/urandom), never from the seeded `core::rng` that replays games.

use std::io::Read;

/// Letters and digits without 0/O and 1/I, so a code read aloud is not mistaken: 32 symbols.
const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/// Room codes: 10 symbols, 50 bits.
pub const CODE_LENGTH: usize = 10;
/// Rejoin tokens: 26 symbols, 130 bits.
pub const TOKEN_LENGTH: usize = 26;

/// `n` bytes from /dev/urandom.
pub fn random_bytes(n: usize) -> Result<Vec<u8>, String> {
    let mut bytes = vec![0; n];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
    Ok(bytes)
}

/// `length` symbols of [`ALPHABET`], 5 random bits each.
pub fn code(length: usize) -> Result<String, String> {
    Ok(random_bytes(length)?
        .into_iter()
        .map(|b| ALPHABET[usize::from(b & 31)] as char)
        .collect())
}

/// A seed for the room's shuffles, from the CSPRNG so no one can replay a room's bunch.
pub fn seed() -> Result<u64, String> {
    let bytes = random_bytes(8)?;
    Ok(u64::from_le_bytes(bytes.try_into().expect("8 bytes")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_fresh_and_from_the_alphabet() {
        let a = code(CODE_LENGTH).unwrap();
        let b = code(CODE_LENGTH).unwrap();
        assert_eq!(a.len(), CODE_LENGTH);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| ALPHABET.contains(&c)));
    }
}
