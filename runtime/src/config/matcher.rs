//! A handler's compiled `matcher`, Claude Code's semantics: the value the
//! loader builds into each [`Handler`](super::Handler) and `select` asks.
//! It lives with the configuration it is part of, so that `config` imports
//! nothing from `select` above it.

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

impl Matcher {
    /// Compile a matcher as written in `hooks.json`.
    ///
    /// `None`, `""` (or only spaces) and `"*"` match everything. A matcher made
    /// only of `[A-Za-z0-9_\- ,|]` is a list of exact names separated by `|` or
    /// `,`, each trimmed; anything else is an unanchored regex, so `Edit.*`
    /// also matches `NotebookEdit`.
    ///
    /// # Errors
    /// When the matcher is a regex that does not compile.
    pub fn parse(s: Option<&str>) -> Result<Matcher, regex::Error> {
        let Some(s) = s else {
            return Ok(Matcher::All);
        };
        let trimmed = s.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Matcher::All);
        }
        let exact_charset = s
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'));
        if exact_charset {
            let names = s
                .split(['|', ','])
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect();
            return Ok(Matcher::Exact(names));
        }
        regex::Regex::new(s).map(Matcher::Regex)
    }

    /// Whether the matcher accepts `target` (the tool name, or the event's matcher field).
    ///
    /// With no target, only [`Matcher::All`] matches.
    pub fn matches(&self, target: Option<&str>) -> bool {
        match (self, target) {
            (Matcher::All, _) => true,
            (_, None) => false,
            (Matcher::Exact(names), Some(t)) => names.iter().any(|n| n == t),
            (Matcher::Regex(re), Some(t)) => re.is_match(t),
        }
    }
}

/// The matcher as it can be written back: `*` for [`Matcher::All`], the names
/// joined by `|`, or the regex. Trust fingerprints hash this text, so it must
/// stay stable.
impl std::fmt::Display for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Matcher::All => f.write_str("*"),
            Matcher::Exact(names) => f.write_str(&names.join("|")),
            Matcher::Regex(re) => f.write_str(re.as_str()),
        }
    }
}
