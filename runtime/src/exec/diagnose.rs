//! Why a command hook did not do what its author meant, when the outcome
//! alone does not say: a script without its executable bit (`check` finds
//! it before, `run` names it after), and text on stdout where only a JSON
//! answer counts. One rule each, used by `check` and by the executor.

use std::path::{Path, PathBuf};

use crate::protocol::{EventName, Exit, Failure, Outcome};

use super::Report;

/// The file a command runs as its program (its first word, when that is a
/// path: `./x.sh`, `.agents/hooks/x.sh`, `"$CLAUDE_PROJECT_DIR"/x.sh` once
/// expanded) if it is a regular file without an executable bit, resolved
/// against `dir`; `None` otherwise (a program on PATH, `sh x.sh`, ...).
pub fn not_executable(command: &str, dir: &Path) -> Option<PathBuf> {
    let word = first_word(command)?;
    if !word.contains('/') {
        return None;
    }
    let path = dir.join(&word);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && !executable(&meta)).then(|| PathBuf::from(word))
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    // Windows runs a script by its extension, not a mode bit.
    true
}

/// Interpreters a command hands a script to (`sh x.sh`, `python3 x.py`):
/// the script is their first argument, and needs no executable bit.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "deno", "bun",
];

/// What keeps a command's script from running, as `status` and `check`
/// see it before any event: the path the command runs (its first word, or
/// an interpreter's first argument, when that is a path) and whether it is
/// missing (`true`) or a regular file without an executable bit (`false`,
/// only for a script run as the program). `None` when the command names
/// no path (a program on PATH) or its script is fine.
pub fn script_problem(command: &str, dir: &Path) -> Option<(PathBuf, bool)> {
    let words = leading_words(command, 2);
    let first = words.first()?;
    let name = first.rsplit('/').next().unwrap_or(first);
    let (word, interpreted) = match words.get(1) {
        Some(arg) if INTERPRETERS.contains(&name) && !arg.starts_with('-') => (arg, true),
        _ => (first, false),
    };
    if !word.contains('/') || word.contains('$') {
        return None;
    }
    let path = dir.join(word);
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some((PathBuf::from(word), true)),
        Ok(meta) if !interpreted && meta.is_file() && !executable(&meta) => {
            Some((PathBuf::from(word), false))
        }
        _ => None,
    }
}

/// The first `n` words of a shell command, quotes dropped; bounded.
fn leading_words(command: &str, n: usize) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = command;
    while words.len() < n {
        let Some(word) = first_word(rest) else { break };
        words.push(word);
        // Past the word just read: up to the next unquoted blank.
        let trimmed = rest.trim_start();
        let mut quote: Option<char> = None;
        let mut end = trimmed.len();
        for (i, c) in trimmed.char_indices().take(4096) {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, c) if c.is_whitespace() => {
                    end = i;
                    break;
                }
                (None, ';' | '|' | '&' | '<' | '>') => return words,
                _ => {}
            }
        }
        rest = &trimmed[end..];
    }
    words
}

/// The first word of a shell command, its quotes dropped; bounded.
fn first_word(command: &str) -> Option<String> {
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in command.trim_start().chars().take(4096) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c.is_whitespace() || matches!(c, ';' | '|' | '&' | '<' | '>') => break,
            (None, c) => word.push(c),
        }
    }
    (!word.is_empty()).then_some(word)
}

/// The fix for [`not_executable`]'s file.
pub fn chmod_hint(file: &Path) -> String {
    format!(
        "`{}` is not executable; run `chmod +x {}`",
        file.display(),
        file.display()
    )
}

/// How much of ignored stdout a note quotes.
const QUOTED_CHARS: usize = 80;

/// Notes on a finished command hook `report` that ran `command` in `dir`
/// for `event`: a permission failure on a script without its executable
/// bit, and text on stdout that is not an answer where text means nothing
/// (PreToolUse, Stop, ...), which agenthooks then ignores as Claude Code does.
pub fn after_run(
    command: &str,
    dir: Option<&Path>,
    event: EventName,
    report: &Report,
) -> Vec<String> {
    let mut notes = Vec::new();
    if let Outcome::Failed(Failure::ExitCode { code: 126, .. }) = &report.outcome {
        if let Some(file) = dir.and_then(|d| not_executable(command, d)) {
            notes.push(chmod_hint(&file));
        }
    }
    let text = report.stdout.trim();
    let ignored = report.exit == Some(Exit::Code(0))
        && !text.is_empty()
        && !text.starts_with('{')
        && event.can_veto()
        && !event.plain_text_is_context();
    if ignored {
        let first: String = text
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .take(QUOTED_CHARS)
            .collect();
        notes.push(format!(
            "printed text that is not a JSON answer on stdout (`{}`), which {} ignores; print a JSON answer (or nothing), or exit 2 with the reason on stderr to block",
            crate::protocol::one_line(&first),
            event.as_str()
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_script_without_its_executable_bit_is_found() {
        use std::os::unix::fs::PermissionsExt;
        let (dir, script) = crate::fsread::temp_path("x.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(
            not_executable("./x.sh --flag", dir.path()),
            Some(PathBuf::from("./x.sh"))
        );
        assert_eq!(
            not_executable("'./x.sh'; echo", dir.path()),
            Some(PathBuf::from("./x.sh"))
        );
        // Handed to an interpreter, a program on PATH, or executable: fine.
        assert_eq!(not_executable("sh ./x.sh", dir.path()), None);
        assert_eq!(not_executable("true", dir.path()), None);
        assert_eq!(not_executable("./missing.sh", dir.path()), None);
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(not_executable("./x.sh", dir.path()), None);
        assert_eq!(script_problem("./x.sh", dir.path()), None);
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(
            script_problem("'./x.sh' --flag", dir.path()),
            Some((PathBuf::from("./x.sh"), false))
        );
        // An interpreter needs no executable bit, only the script.
        assert_eq!(script_problem("sh ./x.sh", dir.path()), None);
        assert_eq!(
            script_problem("/bin/bash ./gone.sh", dir.path()),
            Some((PathBuf::from("./gone.sh"), true))
        );
        assert_eq!(
            script_problem("./gone.sh; echo", dir.path()),
            Some((PathBuf::from("./gone.sh"), true))
        );
        // A program on PATH, a variable left for the shell, a flag: not judged.
        assert_eq!(script_problem("true", dir.path()), None);
        assert_eq!(script_problem("sh -c 'x/y'", dir.path()), None);
        assert_eq!(script_problem("$HOME/x.sh", dir.path()), None);
        assert_eq!(
            chmod_hint(Path::new("./x.sh")),
            "`./x.sh` is not executable; run `chmod +x ./x.sh`"
        );
    }
}
