//! `if`: a regex on the tool input, or a Claude Code permission rule.
//!
//! docs/design.md §4 makes `if` a regex on `tool_input.command` (shell tools) or on
//! the JSON of `tool_input`. Claude Code's own `if` is a permission rule,
//! `Bash(git *)`, and configs pasted from `.claude/settings.json` use that
//! form. Read as a regex it would match only text containing `Bashgit`, so a
//! guard hook would silently never run. A string shaped `Tool(spec)` with a
//! capitalized tool name (or `mcp__...`) is therefore read as a rule: it
//! names the tool, and for `Bash` / `PowerShell` its pattern becomes a regex
//! on the command. Everything else is a regex, as before.
//!
//! The translation errs towards running the hook: a rule matches any
//! subcommand of a compound command (`ls && git push` matches `Bash(git *)`,
//! as Claude Code does since v2.1.89), leading `VAR=value` assignments are
//! skipped, and spaces match any run of whitespace.

/// A compiled `if`.
#[derive(Debug, Clone)]
pub(crate) struct IfSpec {
    /// Tested against [`crate::protocol::Event::if_target`].
    pub regex: regex_lite::Regex,
    /// For a permission rule: the tool it names (the handler runs for that tool only).
    pub tool: Option<String>,
    /// Something the user should know about how the rule is read.
    pub note: Option<String>,
}

/// Compile an `if` as written.
///
/// # Errors
/// When it is a regex (not a permission rule) that does not compile.
pub(crate) fn compile(src: &str) -> Result<IfSpec, regex_lite::Error> {
    let Some((tool, spec)) = permission_rule(src) else {
        return Ok(IfSpec {
            regex: regex_lite::Regex::new(src)?,
            tool: None,
            note: None,
        });
    };
    let any = || regex_lite::Regex::new("").expect("the empty regex compiles");
    let (regex, note) = match tool {
        "Bash" | "PowerShell" => (command_rule(spec)?, None),
        _ if spec.is_empty() || spec == "*" => (any(), None),
        _ => (
            any(),
            Some(format!(
                "only the tool of the permission rule `{src}` is checked (its pattern is not \
                 supported); the hook runs for every {tool} call"
            )),
        ),
    };
    Ok(IfSpec {
        regex,
        tool: Some(tool.to_string()),
        note,
    })
}

/// `Tool(spec)` → (`Tool`, `spec`), when `src` has the shape of a permission rule.
fn permission_rule(src: &str) -> Option<(&str, &str)> {
    let open = src.find('(')?;
    let spec = src[open + 1..].strip_suffix(')')?;
    let tool = &src[..open];
    let capitalized = tool.starts_with(|c: char| c.is_ascii_uppercase())
        && tool.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let mcp = tool.starts_with("mcp__")
        && tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    (capitalized || mcp).then_some((tool, spec))
}

/// A Bash rule's pattern → a regex on the command line.
///
/// `*` is any text; a trailing ` *` also allows no arguments at all; the legacy
/// `prefix:*` is a prefix match; `*` alone (or nothing) is any command.
fn command_rule(spec: &str) -> Result<regex_lite::Regex, regex_lite::Error> {
    let spec = spec.trim();
    if spec.is_empty() || spec == "*" {
        return regex_lite::Regex::new("");
    }
    let (pattern, tail) = if let Some(p) = spec.strip_suffix(":*") {
        (p, ".*")
    } else if let Some(p) = spec.strip_suffix(" *") {
        (p, r"(?:\s.*)?")
    } else {
        (spec, "")
    };
    let mut body = String::new();
    let mut in_space = false;
    for c in pattern.chars() {
        if c.is_whitespace() {
            if !in_space {
                body.push_str(r"\s+");
            }
            in_space = true;
            continue;
        }
        in_space = false;
        if c == '*' {
            body.push_str(".*");
        } else {
            body.push_str(&regex_lite::escape(c.encode_utf8(&mut [0; 4])));
        }
    }
    // A subcommand starts the line or follows `&&`, `||`, `;`, `|`, a newline or
    // `$(`, after optional `VAR=value` assignments; it ends at one of those or the end.
    let start = r"(?:^|&&|\|\||;|\||\n|\$\(|`)\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*";
    let end = r"\s*(?:$|&&|\|\||;|\||\n|\)|`)";
    regex_lite::Regex::new(&format!("(?s){start}(?:{body}{tail}){end}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(src: &str) -> IfSpec {
        compile(src).unwrap()
    }

    #[test]
    fn plain_regexes_stay_regexes() {
        for src in [
            "^git (push|reset)",
            "rm(\\s|$)",
            "git",
            "\"file_path\":\"/etc/",
        ] {
            let spec = rule(src);
            assert_eq!(spec.tool, None, "{src}");
            assert_eq!(spec.regex.as_str(), src);
        }
        assert!(compile("git (").is_err());
    }

    #[test]
    fn bash_rules_match_commands_claude_code_would() {
        let git = rule("Bash(git *)");
        assert_eq!(git.tool.as_deref(), Some("Bash"));
        assert!(git.note.is_none());
        for yes in [
            "git push",
            "git",
            "git  status -s",
            "ls && git push",
            "FOO=bar git push",
            "echo $(git rev-parse HEAD)",
            "cd x; git commit -m 'a\nb'",
        ] {
            assert!(git.regex.is_match(yes), "should match: {yes}");
        }
        for no in ["gitk", "echo git push", "legit push", "lsof"] {
            assert!(!git.regex.is_match(no), "should not match: {no}");
        }

        let exact = rule("Bash(npm test)");
        assert!(exact.regex.is_match("npm test"));
        assert!(exact.regex.is_match("npm  test && echo ok"));
        assert!(!exact.regex.is_match("npm test --watch"));
        assert!(!exact.regex.is_match("npm testing"));

        let legacy = rule("Bash(npm run test:*)");
        assert!(legacy.regex.is_match("npm run test"));
        assert!(legacy.regex.is_match("npm run test:unit"));
        assert!(!legacy.regex.is_match("npm run build"));

        let inner = rule("Bash(git push * main)");
        assert!(inner.regex.is_match("git push origin main"));
        assert!(!inner.regex.is_match("git push origin dev"));

        let special = rule("Bash(rm -rf /tmp/a.b)");
        assert!(special.regex.is_match("rm -rf /tmp/a.b"));
        assert!(!special.regex.is_match("rm -rf /tmp/aXb"));

        for all in ["Bash(*)", "Bash()"] {
            assert!(rule(all).regex.is_match("anything at all"), "{all}");
        }
    }

    #[test]
    fn other_tools_check_the_tool_and_say_so() {
        let edit = rule("Edit(src/**)");
        assert_eq!(edit.tool.as_deref(), Some("Edit"));
        assert!(edit.regex.is_match(r#"{"file_path":"/anything"}"#));
        assert!(edit.note.unwrap().contains("runs for every Edit call"));

        let mcp = rule("mcp__memory__create_entities(*)");
        assert_eq!(mcp.tool.as_deref(), Some("mcp__memory__create_entities"));
        assert!(mcp.note.is_none());
    }
}
