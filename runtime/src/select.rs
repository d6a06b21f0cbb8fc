//! Stage 3 of the pipeline (select): which handlers an event runs.
//!
//! Claude Code's matcher semantics: `""`, `"*"` or no matcher match everything;
//! a matcher of only letters, digits, `_`, `-`, space, `,` and `|` is a list of
//! exact names; anything else is an unanchored regex.

/// A compiled matcher.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// Matches everything.
    All,
    /// One of these exact names.
    Exact(Vec<String>),
    /// An unanchored regex.
    Regex(regex::Regex),
}
