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
    Regex(regex_lite::Regex),
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
    pub fn parse(s: Option<&str>) -> Result<Matcher, regex_lite::Error> {
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
        regex_lite::Regex::new(s).map(Matcher::Regex)
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

#[cfg(test)]
mod tests {
    use super::Matcher;

    /// Claude Code compiles a matcher with JavaScript's `RegExp` (no `u`
    /// flag), whose `\w`, `\d` and `\b` are ASCII: a hook for `^\w+$` does
    /// not run for a tool whose name has an accented letter, in Claude Code
    /// as here.
    #[test]
    fn perl_classes_are_ascii_as_in_javascript() {
        let word = Matcher::parse(Some(r"^\w+$")).unwrap();
        assert!(word.matches(Some("Edit_2")));
        assert!(!word.matches(Some("Édit")));
        let digits = Matcher::parse(Some(r"^mcp__s\d$")).unwrap();
        assert!(digits.matches(Some("mcp__s1")));
        assert!(!digits.matches(Some("mcp__s١")));
        // Any character still means a character, not a byte.
        assert!(Matcher::parse(Some("^.dit$"))
            .unwrap()
            .matches(Some("Édit")));
    }

    #[test]
    fn a_broken_regex_is_an_error_not_a_panic() {
        assert!(Matcher::parse(Some("Edit(")).is_err());
        assert!(Matcher::parse(Some("[z-a]")).is_err());
        // Past the size limit: a bounded compile, refused.
        assert!(Matcher::parse(Some("(a{500}){500}{500}")).is_err());
    }
}
