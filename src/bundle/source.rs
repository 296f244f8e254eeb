//! Rust source as the bundler edits it: a small lexer that tells code from strings, chars,
//! lifetimes and comments, and the edits built on it (comments, test items, `mod` declarations).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Space,
    Comment,
    Ident,
    /// String, char and number literals, raw and byte forms included.
    Literal,
    Lifetime,
    Punct,
}

#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Splits `src` into tokens whose texts concatenate back to `src`.
pub fn lex(src: &str) -> Result<Vec<Token<'_>>, String> {
    let b = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let (kind, end) = match b[i] {
            c if c.is_ascii_whitespace() => {
                let len = b[i..]
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace())
                    .count();
                (Kind::Space, i + len)
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let len = b[i..].iter().take_while(|&&c| c != b'\n').count();
                (Kind::Comment, i + len)
            }
            b'/' if b.get(i + 1) == Some(&b'*') => (Kind::Comment, block_comment_end(b, i)?),
            b'"' => (Kind::Literal, string_end(b, i)?),
            b'\'' => quote(src, i)?,
            c if c.is_ascii_digit() => (Kind::Literal, number_end(b, i)),
            c if is_ident_byte(c) => word(b, i)?,
            _ => (Kind::Punct, i + 1),
        };
        tokens.push(Token {
            kind,
            text: &src[i..end],
        });
        i = end;
    }
    Ok(tokens)
}

fn unterminated(what: &str, at: usize) -> String {
    format!("unterminated {what} at byte {at}")
}

fn block_comment_end(b: &[u8], start: usize) -> Result<usize, String> {
    let mut depth = 0;
    let mut i = start;
    while i + 1 < b.len() {
        match &b[i..i + 2] {
            b"/*" => (depth, i) = (depth + 1, i + 2),
            b"*/" if depth == 1 => return Ok(i + 2),
            b"*/" => (depth, i) = (depth - 1, i + 2),
            _ => i += 1,
        }
    }
    Err(unterminated("block comment", start))
}

/// The end of the string or char literal whose opening `delimiter` is at `start`.
fn quoted_end(b: &[u8], start: usize, delimiter: u8) -> Result<usize, String> {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == delimiter => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(unterminated("literal", start))
}

fn string_end(b: &[u8], start: usize) -> Result<usize, String> {
    quoted_end(b, start, b'"')
}

/// The end of a raw string whose hashes (or opening quote) start at `start`.
fn raw_string_end(b: &[u8], start: usize) -> Result<usize, String> {
    let hashes = b[start..].iter().take_while(|&&c| c == b'#').count();
    let body = start + hashes + 1;
    let closing = b[body.min(b.len())..]
        .windows(hashes + 1)
        .position(|w| w[0] == b'"' && w[1..].iter().all(|&c| c == b'#'));
    closing
        .map(|at| body + at + hashes + 1)
        .ok_or_else(|| unterminated("raw string", start))
}

/// A char literal (`'x'`, `'\n'`, `'é'`) or a lifetime or label (`'a`), at `start`.
fn quote(src: &str, start: usize) -> Result<(Kind, usize), String> {
    let b = src.as_bytes();
    if b.get(start + 1) == Some(&b'\\') {
        return Ok((Kind::Literal, quoted_end(b, start, b'\'')?));
    }
    let width = src[start + 1..].chars().next().map_or(0, char::len_utf8);
    if width > 0 && b.get(start + 1 + width) == Some(&b'\'') {
        return Ok((Kind::Literal, start + width + 2));
    }
    let len = b[start + 1..]
        .iter()
        .take_while(|&&c| is_ident_byte(c))
        .count();
    Ok((Kind::Lifetime, start + 1 + len))
}

/// Digits, suffixes and a fractional part; `0..9` stays a number, a range and a number.
fn number_end(b: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < b.len() {
        let fraction = b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if !(is_ident_byte(b[i]) || fraction) {
            break;
        }
        i += 1;
    }
    i
}

/// An identifier or keyword, or the literal it prefixes (`b"..."`, `b'x'`, `r#"..."#`), or a
/// raw identifier (`r#type`).
fn word(b: &[u8], start: usize) -> Result<(Kind, usize), String> {
    let end = start + b[start..].iter().take_while(|&&c| is_ident_byte(c)).count();
    let raw_string_follows = || {
        let hashes = b[end..].iter().take_while(|&&c| c == b'#').count();
        b.get(end + hashes) == Some(&b'"')
    };
    Ok(match (&b[start..end], b.get(end)) {
        (b"b" | b"c", Some(b'"')) => (Kind::Literal, string_end(b, end)?),
        (b"b", Some(b'\'')) => (Kind::Literal, quoted_end(b, end, b'\'')?),
        (b"r" | b"br" | b"cr", Some(b'"' | b'#')) if raw_string_follows() => {
            (Kind::Literal, raw_string_end(b, end)?)
        }
        (b"r", Some(b'#')) => {
            let len = b[end + 1..]
                .iter()
                .take_while(|&&c| is_ident_byte(c))
                .count();
            (Kind::Ident, end + 1 + len)
        }
        _ => (Kind::Ident, end),
    })
}

/// `src` without comments; a line that held only a comment goes too.
pub fn strip_comments(src: &str) -> Result<String, String> {
    let mut out = String::with_capacity(src.len());
    let (mut comment_ended_line, mut separate) = (false, false);
    for token in lex(src)? {
        if token.kind == Kind::Comment {
            // `a/**/b` must not become `ab`.
            separate = !out.ends_with(|c: char| c.is_ascii_whitespace());
            out.truncate(out.trim_end_matches([' ', '\t']).len());
            comment_ended_line = out.is_empty() || out.ends_with('\n');
            continue;
        }
        let text = match token.text.strip_prefix('\n') {
            Some(rest) if comment_ended_line && token.kind == Kind::Space => rest,
            _ => token.text,
        };
        if separate && token.kind != Kind::Space {
            out.push(' ');
        }
        (comment_ended_line, separate) = (false, false);
        out.push_str(text);
    }
    Ok(out)
}

/// `src` with no trailing spaces, no blank line at either end and none twice in a row; the
/// insides of literals are left as they are.
pub fn tidy(src: &str) -> Result<String, String> {
    let tokens = lex(src)?;
    let mut out = String::with_capacity(src.len());
    for (i, token) in tokens.iter().enumerate() {
        let newlines = token.text.matches('\n').count();
        if token.kind != Kind::Space || newlines == 0 {
            out.push_str(token.text);
            continue;
        }
        let indent = token.text.rsplit('\n').next().unwrap_or("");
        if i > 0 && i + 1 < tokens.len() {
            out.push_str(if newlines > 1 { "\n\n" } else { "\n" });
        }
        if i + 1 < tokens.len() {
            out.push_str(indent);
        }
    }
    out.push('\n');
    Ok(out)
}

/// A source's tokens, and which of them are code.
struct Code<'a> {
    tokens: Vec<Token<'a>>,
    /// Indices into `tokens` of everything but spaces and comments.
    code: Vec<usize>,
}

impl<'a> Code<'a> {
    fn new(src: &'a str) -> Result<Code<'a>, String> {
        let tokens = lex(src)?;
        let code = (0..tokens.len())
            .filter(|&i| !matches!(tokens[i].kind, Kind::Space | Kind::Comment))
            .collect();
        Ok(Code { tokens, code })
    }

    fn text(&self, k: usize) -> &'a str {
        self.tokens[self.code[k]].text
    }

    /// True when the code tokens from `k` on read `pattern` (`*` matches any one token).
    fn matches(&self, k: usize, pattern: &[&str]) -> bool {
        k + pattern.len() <= self.code.len()
            && pattern
                .iter()
                .enumerate()
                .all(|(j, &p)| p == "*" || self.text(k + j) == p)
    }

    /// The code token closing the bracket opened at `k`.
    fn closing(&self, k: usize) -> Result<usize, String> {
        let mut depth = 0usize;
        for j in k..self.code.len() {
            match self.text(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(j);
                    }
                }
                _ => {}
            }
        }
        Err(format!("unbalanced {:?}", self.text(k)))
    }

    /// The last code token of the item starting at `k`: its `;`, or the `}` of its body.
    fn item_end(&self, k: usize) -> Result<usize, String> {
        let mut j = k;
        while j < self.code.len() {
            match self.text(j) {
                ";" => return Ok(j),
                "{" => {
                    let end = self.closing(j)?;
                    let semicolon = end + 1 < self.code.len() && self.text(end + 1) == ";";
                    return Ok(end + usize::from(semicolon));
                }
                "(" | "[" => j = self.closing(j)? + 1,
                _ => j += 1,
            }
        }
        Err("item runs past the end of the file".into())
    }

    /// The first code token of the attributes and visibility before the item keyword at `k`.
    fn item_start(&self, k: usize) -> usize {
        let mut start = k;
        if start >= 1 && self.text(start - 1) == "pub" {
            start -= 1;
        } else if start >= 2 && self.text(start - 1) == ")" {
            let open = (0..start - 1).rev().find(|&j| self.text(j) == "(");
            if let Some(open) = open.filter(|&o| o >= 1 && self.text(o - 1) == "pub") {
                start = open - 1;
            }
        }
        while start >= 1 && self.text(start - 1) == "]" {
            let mut depth = 0usize;
            let Some(open) = (0..start).rev().find(|&j| {
                match self.text(j) {
                    "]" => depth += 1,
                    "[" => depth -= 1,
                    _ => {}
                }
                depth == 0
            }) else {
                break;
            };
            if open == 0 || self.text(open - 1) != "#" {
                break;
            }
            start = open - 1;
        }
        start
    }

    /// The source text of code tokens `from..=to`, spaces between them included.
    fn span(&self, from: usize, to: usize) -> String {
        self.tokens[self.code[from]..=self.code[to]]
            .iter()
            .map(|t| t.text)
            .collect()
    }
}

/// What to do with a `mod name;` declaration.
pub enum ModuleDecl {
    /// Replace it with the module's body, inline.
    Inline(String),
    Drop,
}

/// Edits a source: drops every `#[cfg(test)]` item, replaces each
/// `include!(concat!(env!("OUT_DIR"), "/FILE"));` with `generated(FILE)`, and each `mod name;`
/// with `module(name)`.
pub fn edit(
    src: &str,
    mut generated: impl FnMut(&str) -> Result<String, String>,
    mut module: impl FnMut(&str) -> Result<ModuleDecl, String>,
) -> Result<String, String> {
    const CFG_TEST: [&str; 7] = ["#", "[", "cfg", "(", "test", ")", "]"];
    const OUT_DIR_INCLUDE: [&str; 16] = [
        "include",
        "!",
        "(",
        "concat",
        "!",
        "(",
        "env",
        "!",
        "(",
        "\"OUT_DIR\"",
        ")",
        ",",
        "*",
        ")",
        ")",
        ";",
    ];
    let code = Code::new(src)?;
    // (first code token, last code token, replacement), in source order.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut k = 0;
    while k < code.code.len() {
        let edit = if code.matches(k, &CFG_TEST) {
            let end = code.item_end(k + CFG_TEST.len())?;
            Some((code.item_start(k), end, String::new()))
        } else if code.matches(k, &OUT_DIR_INCLUDE) {
            let file = code.text(k + 12).trim_matches('"').trim_start_matches('/');
            Some((k, k + OUT_DIR_INCLUDE.len() - 1, generated(file)?))
        } else if code.matches(k, &["mod", "*", ";"]) {
            let start = code.item_start(k);
            let text = match module(code.text(k + 1))? {
                ModuleDecl::Inline(body) => format!("{} {{\n{body}\n}}", code.span(start, k + 1)),
                ModuleDecl::Drop => String::new(),
            };
            Some((start, k + 2, text))
        } else {
            None
        };
        match edit {
            Some(edit) => {
                k = edit.1 + 1;
                edits.push(edit);
            }
            None => k += 1,
        }
    }
    let mut out = String::with_capacity(src.len());
    let mut next = 0;
    for (first, last, replacement) in edits {
        out.extend(code.tokens[next..code.code[first]].iter().map(|t| t.text));
        out.push_str(&replacement);
        next = code.code[last] + 1;
    }
    out.extend(code.tokens[next..].iter().map(|t| t.text));
    Ok(out)
}

/// Macros and attributes that read files at compile time: a bundle must contain none.
pub fn file_reads(src: &str) -> Result<Vec<String>, String> {
    let code = Code::new(src)?;
    let reads = (0..code.code.len())
        .filter(|&k| {
            let macro_call = ["include", "include_str", "include_bytes", "env"]
                .contains(&code.text(k))
                && code.matches(k + 1, &["!"]);
            macro_call || code.matches(k, &["#", "[", "path"])
        })
        .map(|k| code.span(k, (k + 2).min(code.code.len() - 1)))
        .collect();
    Ok(reads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexing_round_trips_and_tells_literals_from_code() {
        let src =
            "let s = r#\"a \" // b\"#; let c = '\"'; fn f<'a>(x: &'a u8) {} /* x /* y */ */ b'\\''";
        let tokens = lex(src).unwrap();
        assert_eq!(tokens.iter().map(|t| t.text).collect::<String>(), src);
        let kinds = |kind| {
            tokens
                .iter()
                .filter(|t| t.kind == kind)
                .map(|t| t.text)
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds(Kind::Literal), ["r#\"a \" // b\"#", "'\"'", "b'\\''"]);
        assert_eq!(kinds(Kind::Comment), ["/* x /* y */ */"]);
        assert_eq!(kinds(Kind::Lifetime), ["'a", "'a"]);
        assert!(lex("\"open").is_err());
    }

    #[test]
    fn numbers_and_ranges_split_where_rust_does() {
        let texts: Vec<&str> = lex("0..9 1.5 0x9e37_79b1u32 'é' r#type")
            .unwrap()
            .iter()
            .filter(|t| t.kind != Kind::Space)
            .map(|t| t.text)
            .collect();
        assert_eq!(
            texts,
            ["0", ".", ".", "9", "1.5", "0x9e37_79b1u32", "'é'", "r#type"]
        );
    }

    #[test]
    fn comments_go_with_their_lines_and_strings_stay() {
        let src =
            "//! doc\n/// item\nfn f() {\n    // alone\n    let x = \"// kept\"; // trailing\n}\n";
        assert_eq!(
            strip_comments(src).unwrap(),
            "fn f() {\n    let x = \"// kept\";\n}\n"
        );
    }

    #[test]
    fn edits_drop_tests_and_inline_or_drop_modules() {
        let src = "#[cfg(target_arch = \"x86_64\")]\npub mod a;\nmod gone;\nfn keep() {}\n\
                   #[cfg(test)]\nmod tests {\n    fn t() { let s = \"}\"; }\n}\n\
                   include!(concat!(env!(\"OUT_DIR\"), \"/t.rs\"));\n";
        let out = edit(
            src,
            |file| Ok(format!("const T: &str = {file:?};")),
            |name| {
                Ok(match name {
                    "a" => ModuleDecl::Inline("fn a() {}".into()),
                    _ => ModuleDecl::Drop,
                })
            },
        )
        .unwrap();
        assert_eq!(
            tidy(&out).unwrap(),
            "#[cfg(target_arch = \"x86_64\")]\npub mod a {\nfn a() {}\n}\n\nfn keep() {}\n\n\
             const T: &str = \"t.rs\";\n"
        );
    }

    #[test]
    fn file_reads_are_found() {
        let reads =
            file_reads("const A: &str = include_str!(\"a\");\n#[path = \"b.rs\"]\nmod b;").unwrap();
        assert_eq!(reads, ["include_str!(", "#[path"]);
        assert!(file_reads("fn include() {}").unwrap().is_empty());
    }
}
