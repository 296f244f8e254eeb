//! Build-time tables in a bundle: a small one is written as its literal, a big one (whose literal
//! would not fit) as a `runtime_table::Table` of the same type, filled by `init()` at start-up.

use super::Module;

/// The bundle-only module holding `Table`: a manifest using `module_text` lists it.
pub const SUPPORT: Module = Module {
    path: "runtime_table",
    source: include_str!("parts/runtime_table.rs"),
};

/// The most u32s a table inlined as a literal may hold; bigger ones are filled at start-up.
pub const INLINE_WORDS: usize = 256;

/// A generated item, as the build script would declare it.
pub struct Item<'a> {
    /// `const` or `static`.
    pub keyword: &'a str,
    pub name: &'a str,
    pub ty: String,
    /// Its value as a Rust literal, or `None` to compute it at start-up.
    pub literal: Option<String>,
}

/// Rust declarations of `items`, and `pub unsafe fn init()`, which fills the ones without a
/// literal in place: `fill` is a function (in the bundle) that takes `table(name)`, which hands
/// out each such table once as its `&mut [u32]`, and writes every one of their words.
pub fn module_text<'a>(
    items: impl IntoIterator<Item = Item<'a>>,
    fill: &str,
) -> Result<String, String> {
    const TABLE: &str = "crate::runtime_table::Table";
    let mut text = String::new();
    let mut fills = String::new();
    for Item {
        keyword,
        name,
        ty,
        literal,
    } in items
    {
        match literal {
            Some(literal) => text += &format!("pub {keyword} {name}: {ty} = {literal};\n"),
            None if keyword == "static" => {
                if fills.is_empty() {
                    text += "// SAFETY: main calls `init` first, which fills each `Table` here.\n";
                }
                text +=
                    &format!("pub static {name}: {TABLE}<{ty}> = unsafe {{ {TABLE}::new() }};\n");
                fills += &format!("            \"{name}\" => {name}.words(),\n");
            }
            None => return Err(format!("{keyword} {name} is too big to inline")),
        }
    }
    if fills.is_empty() {
        text += "pub unsafe fn init() {}\n";
        return Ok(text);
    }
    text += &format!(
        "pub unsafe fn init() {{\n    \
         // SAFETY: the caller's: first thing in main, on one thread; tables hold u32s, each is\n    \
         // handed out once, and `{fill}` writes every word before anything reads one.\n    \
         {fill}(|name| unsafe {{\n        match name {{\n{fills}            \
         _ => panic!(\"no filled table {{name}}\"),\n        }}\n    }});\n}}\n"
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_items_are_literals_and_big_ones_are_filled() {
        let items = [
            Item {
                keyword: "const",
                name: "A",
                ty: "u32".into(),
                literal: Some("7".into()),
            },
            Item {
                keyword: "static",
                name: "B",
                ty: "[u32; 300]".into(),
                literal: None,
            },
        ];
        let text = module_text(items, "gen::fill").unwrap();
        assert!(text.starts_with("pub const A: u32 = 7;\n"));
        let table = "crate::runtime_table::Table";
        assert!(text.contains(&format!(
            "pub static B: {table}<[u32; 300]> = unsafe {{ {table}::new() }};"
        )));
        assert!(text.contains("gen::fill(|name| unsafe {"));
        assert!(text.contains("    \"B\" => B.words(),\n"));
        let big_const = Item {
            keyword: "const",
            name: "C",
            ty: "[u32; 300]".into(),
            literal: None,
        };
        assert!(module_text([big_const], "").is_err());
    }
}
