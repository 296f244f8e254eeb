//! Reads the CodinGame input (the depth, then nine cells 0..6 row-major, any whitespace) and
//! rejects anything else with a one-line error naming the line, the field and the value.

use super::board::Board;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    pub depth: u32,
    pub board: Board,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cephalopod input: {}", self.0)
    }
}

impl std::error::Error for InputError {}

fn field_name(index: usize) -> String {
    match index {
        0 => "depth".to_string(),
        i => format!("cell (row {}, column {})", (i - 1) / 3 + 1, (i - 1) % 3 + 1),
    }
}

/// Shortens a token for an error message so adversarial input cannot flood the terminal.
fn shown(token: &str) -> String {
    let mut s: String = token.chars().take(24).collect();
    if s.len() < token.len() {
        s.push_str("...");
    }
    format!("{s:?}")
}

impl Problem {
    pub fn parse(bytes: &[u8]) -> Result<Problem, InputError> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| InputError(format!("not UTF-8 text (byte {})", e.valid_up_to())))?;
        let mut values = [0u32; 10];
        let mut count = 0;
        let mut last_line = 0;
        for (line_no, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
            for token in line.split_whitespace() {
                if count == values.len() {
                    return Err(InputError(format!(
                        "line {line_no}: unexpected extra token {} after the board",
                        shown(token)
                    )));
                }
                values[count] = parse_field(token, count)
                    .map_err(|why| InputError(format!("line {line_no}: {why}")))?;
                count += 1;
                last_line = line_no;
            }
        }
        if count < values.len() {
            let at = if count == 0 {
                "empty input".to_string()
            } else {
                format!("after line {last_line}")
            };
            return Err(InputError(format!(
                "{at}: missing {} (expected the depth and 9 cells, found {count} numbers)",
                field_name(count)
            )));
        }
        let mut cells = [0u8; 9];
        for (cell, &v) in cells.iter_mut().zip(&values[1..]) {
            *cell = v as u8;
        }
        Ok(Problem {
            depth: values[0],
            board: Board { cells },
        })
    }
}

fn parse_field(token: &str, index: usize) -> Result<u32, String> {
    let name = field_name(index);
    let value: i64 = match token.parse() {
        Ok(v) => v,
        Err(_)
            if token
                .trim_start_matches(['-', '+'])
                .bytes()
                .all(|b| b.is_ascii_digit())
                && token.len() > 1 =>
        {
            return Err(format!("{name} {} is out of range", shown(token)))
        }
        Err(_) => return Err(format!("{name} {} is not an integer", shown(token))),
    };
    match index {
        0 if value < 0 => Err(format!("depth {value} is negative")),
        0 if value > u32::MAX as i64 => Err(format!("depth {value} is out of range")),
        0 => Ok(value as u32),
        _ if !(0..=6).contains(&value) => Err(format!("{name} value {value} is outside 0..6")),
        _ => Ok(value as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Problem::parse(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn parses_codingame_layout_and_any_whitespace() {
        let p = Problem::parse(b"20\n0 6 0\n2 2 2\n1 6 1\n").unwrap();
        assert_eq!(p.depth, 20);
        assert_eq!(p.board.cells, [0, 6, 0, 2, 2, 2, 1, 6, 1]);
        let q = Problem::parse(b" 20 0\t6 0 2\r\n2 2 1 6 1").unwrap();
        assert_eq!(p, q);
    }

    #[test]
    fn rejects_bad_input_with_position() {
        assert_eq!(err(""), "cephalopod input: empty input: missing depth (expected the depth and 9 cells, found 0 numbers)");
        assert_eq!(err("3\n1 2 3\n4 5"), "cephalopod input: after line 3: missing cell (row 2, column 3) (expected the depth and 9 cells, found 6 numbers)");
        assert_eq!(
            err("3\n1 2 3\n4 7 0\n0 0 0"),
            "cephalopod input: line 3: cell (row 2, column 2) value 7 is outside 0..6"
        );
        assert_eq!(
            err("-1\n0 0 0\n0 0 0\n0 0 0"),
            "cephalopod input: line 1: depth -1 is negative"
        );
        assert_eq!(
            err("x\n"),
            "cephalopod input: line 1: depth \"x\" is not an integer"
        );
        assert_eq!(
            err("1\n0 0 0\n0 0 0\n0 0 0 9"),
            "cephalopod input: line 4: unexpected extra token \"9\" after the board"
        );
        assert_eq!(
            err(&"9".repeat(30)),
            "cephalopod input: line 1: depth \"999999999999999999999999...\" is out of range"
        );
        assert!(err("1\n0 0 0\n0 0 1.5").contains("\"1.5\" is not an integer"));
        assert!(Problem::parse(&[0xff, 0x31])
            .unwrap_err()
            .to_string()
            .contains("UTF-8"));
    }
}
