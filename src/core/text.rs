//! Untrusted text inside messages: a bounded, escaped quotation, so a hostile 20 MB token never
//! becomes a 20 MB error line. Std-only, so the single-file bundles carry it too.

/// How many characters of an offending token an error message quotes.
pub const QUOTE_LIMIT: usize = 24;

/// `text` for an error message: at most [`QUOTE_LIMIT`] characters, then `...`, so a hostile
/// 20 MB token never becomes a 20 MB line. Control characters are escaped.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push_str("...");
            break;
        }
        out.extend(c.escape_debug());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_bounded_and_escaped() {
        assert_eq!(
            quote(&"a".repeat(100)),
            format!("{}...", "a".repeat(QUOTE_LIMIT))
        );
        assert_eq!(quote("a\nb"), "a\\nb");
        assert_eq!(quote("é"), "é");
    }
}
