//! A grid (text rows, `.` empty) drawn as an SVG of lettered tiles, for `solve --svg`.

const TILE: usize = 32;

pub fn render(grid: &str) -> String {
    let rows: Vec<&str> = grid.lines().collect();
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" \
         font-family=\"sans-serif\" font-weight=\"bold\" font-size=\"20\">\n",
        width * TILE + 8,
        rows.len() * TILE + 8
    );
    for (r, row) in rows.iter().enumerate() {
        for (c, letter) in row.bytes().enumerate() {
            if !letter.is_ascii_alphabetic() {
                continue;
            }
            let (x, y) = (4 + c * TILE, 4 + r * TILE);
            out += &format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{w}\" rx=\"4\" \
                 fill=\"#f6e7a8\" stroke=\"#8a6d1c\"/>\
                 <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"middle\">{l}</text>\n",
                w = TILE - 2,
                tx = x + TILE / 2 - 1,
                ty = y + TILE / 2 + 7,
                l = letter.to_ascii_uppercase() as char
            );
        }
    }
    out + "</svg>\n"
}
