//! No non-test function over [`MAX_LINES`] lines: a long function is a list
//! of steps that want names. Counted from the line of `fn` to the line of
//! its closing brace, on the code with comments, literals and test items
//! blanked (`scan::code`).

use super::scan::{block_end, File};

/// The most lines a function may take, signature and closing brace
/// included.
pub(super) const MAX_LINES: usize = 100;

/// Each function of `file` longer than [`MAX_LINES`]: one line naming the
/// file, the line of its `fn`, its name and its length.
pub(super) fn too_long(file: &File) -> Vec<String> {
    let s: Vec<char> = file.code.chars().collect();
    let line_at = |i: usize| 1 + s[..i].iter().filter(|&&c| c == '\n').count();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for at in 0..s.len().saturating_sub(3) {
        let word = s[at..].starts_with(&['f', 'n']) && s[at + 2].is_whitespace();
        if !word || (at > 0 && ident(s[at - 1])) {
            continue;
        }
        let from = (at + 2..s.len())
            .find(|&i| !s[i].is_whitespace())
            .unwrap_or(s.len());
        let to = (from..s.len()).find(|&i| !ident(s[i])).unwrap_or(s.len());
        if to == from {
            continue; // `fn (…)`, a pointer type
        }
        let Some(open) = body(&s, to) else { continue };
        let Some(end) = block_end(&s, open) else {
            continue;
        };
        let lines = line_at(end - 1) - line_at(at) + 1;
        if lines > MAX_LINES {
            let name: String = s[from..to].iter().collect();
            out.push(format!(
                "{}:{}: fn `{name}` is {lines} lines (at most {MAX_LINES}); split it into named steps",
                file.rel,
                line_at(at)
            ));
        }
    }
    out
}

/// The `{` that opens the body of the function whose signature goes on
/// at `i`, or None for a declaration without one (`fn f();`).
fn body(s: &[char], mut i: usize) -> Option<usize> {
    let mut depth = 0i32;
    while i < s.len() {
        match s[i] {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => return None,
            '{' if depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}
