//! The tools an agent hook's model may call: `Read`, `Grep` and `Glob`,
//! read-only and confined to the project root.
//!
//! Why each piece is the way it is:
//!
//! - **Confined.** A path is taken relative to the root (an absolute one
//!   must be inside it); `..` is refused outright, and the path is
//!   canonicalised before use, so a symlink that leads out of the project is
//!   refused too. Walks do not follow symlinks.
//! - **The runtime's bounded reads.** Files are read with
//!   [`crate::fsread::read_bounded`]: regular files only (a FIFO is refused
//!   without blocking), size-checked before reading.
//! - **Bounded output.** Each result is cut at [`RESULT_MAX`] bytes and a
//!   walk stops after [`WALK_MAX`] entries, so a huge repository costs the
//!   same as a small one.
//! - **Errors go back to the model.** An unknown tool, bad arguments or a
//!   refused path is a tool error the model reads, never a crash.

use std::path::{Component, Path, PathBuf};

use regex_lite::Regex;
use serde_json::{json, Value};

use crate::fsread;

/// The most bytes of one file `Read` and `Grep` look at.
pub const FILE_MAX: u64 = 1 << 20;
/// The most bytes of one tool result.
pub const RESULT_MAX: usize = 32 << 10;
/// The most directory entries one `Glob` or `Grep` visits.
pub const WALK_MAX: usize = 20_000;
/// The most lines `Read` returns when not told.
const READ_LINES: usize = 2000;

/// The tools, described for the model: (name, description, JSON Schema of the input).
pub fn specs() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "Read",
            "Read a text file of the project. Lines are numbered from 1.",
            json!({"type": "object", "properties": {
                "file_path": {"type": "string", "description": "path relative to the project root"},
                "offset": {"type": "integer", "description": "first line (1-based)"},
                "limit": {"type": "integer", "description": "how many lines"}
            }, "required": ["file_path"]}),
        ),
        (
            "Grep",
            "Search the project's files for a regular expression; answers path:line: text.",
            json!({"type": "object", "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string", "description": "file or directory, default the root"},
                "glob": {"type": "string", "description": "only files whose path matches, e.g. *.rs"}
            }, "required": ["pattern"]}),
        ),
        (
            "Glob",
            "List the project's files whose path matches a glob such as src/**/*.rs.",
            json!({"type": "object", "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string", "description": "directory, default the root"}
            }, "required": ["pattern"]}),
        ),
    ]
}

/// Run tool `name` with `input` inside `root`: its text result, or the
/// error to give the model.
pub fn call(root: &Path, name: &str, input: &Value) -> Result<String, String> {
    let text = match name {
        "Read" => read(root, input),
        "Grep" => grep(root, input),
        "Glob" => glob(root, input),
        other => Err(format!(
            "no tool named `{}`; the tools are Read, Grep and Glob",
            crate::protocol::one_line(other)
        )),
    }?;
    Ok(cut(text))
}

fn cut(mut text: String) -> String {
    if text.len() > RESULT_MAX {
        text.truncate(text.floor_char_boundary(RESULT_MAX));
        text.push_str("\n[cut: the result is over 32 KiB]");
    }
    text
}

fn string_arg<'a>(input: &'a Value, key: &str) -> Result<Option<&'a str>, String> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("`{key}` must be a string")),
    }
}

fn required<'a>(input: &'a Value, key: &str) -> Result<&'a str, String> {
    string_arg(input, key)?.ok_or_else(|| format!("`{key}` is required"))
}

fn count_arg(input: &Value, key: &str) -> Result<Option<usize>, String> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| format!("`{key}` must be a non-negative integer")),
    }
}

/// `raw` as a path inside `root` (canonical), or why it is refused.
pub fn confine(root: &Path, raw: &str) -> Result<PathBuf, String> {
    let shown = crate::protocol::one_line(raw);
    let asked = Path::new(raw);
    if asked.components().any(|c| c == Component::ParentDir) {
        return Err(format!(
            "`{shown}` uses `..`; only paths inside the project can be read"
        ));
    }
    let root = root
        .canonicalize()
        .map_err(|e| format!("the project root cannot be read ({e})"))?;
    let joined = if asked.is_absolute() {
        asked.to_path_buf()
    } else {
        root.join(asked)
    };
    let real = joined
        .canonicalize()
        .map_err(|_| format!("`{shown}` does not exist in the project"))?;
    if !real.starts_with(&root) {
        return Err(format!(
            "`{shown}` is outside the project; only its files can be read"
        ));
    }
    Ok(real)
}

fn read(root: &Path, input: &Value) -> Result<String, String> {
    let raw = required(input, "file_path")?;
    let path = confine(root, raw)?;
    let offset = count_arg(input, "offset")?.unwrap_or(1).max(1);
    let limit = count_arg(input, "limit")?.unwrap_or(READ_LINES);
    let bytes = fsread::read_bounded(&path, FILE_MAX).map_err(|e| shown_error(root, &e))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = String::new();
    for (n, line) in text.lines().enumerate().skip(offset - 1).take(limit) {
        out.push_str(&format!("{:>6}\t{line}\n", n + 1));
        if out.len() > RESULT_MAX {
            break;
        }
    }
    Ok(out)
}

/// A read error with the root taken out of the path.
fn shown_error(root: &Path, e: &fsread::ReadError) -> String {
    let text = e.to_string();
    match root.canonicalize() {
        Ok(root) => text.replace(&format!("{}/", root.display()), ""),
        Err(_) => text,
    }
}

/// The regular files under `dir` (not following symlinks), relative to
/// `root`, at most [`WALK_MAX`] entries visited.
fn walk(root: &Path, dir: &Path) -> Vec<(String, PathBuf)> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut visited = 0;
    if dir.is_file() {
        stack.clear();
        if let Ok(rel) = dir.strip_prefix(&root) {
            files.push((rel.to_string_lossy().into_owned(), dir.to_path_buf()));
        }
    }
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            visited += 1;
            if visited > WALK_MAX {
                return files;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                if entry.file_name() != ".git" {
                    stack.push(path);
                }
            } else if kind.is_file() {
                if let Ok(rel) = path.strip_prefix(&root) {
                    files.push((rel.to_string_lossy().into_owned(), path.clone()));
                }
            }
        }
    }
    files.sort();
    files
}

/// A glob (`*`, `?`, `**`, `{a,b}`) as a regex on a relative path; a
/// pattern with no `/` matches a file name in any directory.
fn glob_regex(pattern: &str) -> Result<Regex, String> {
    let mut re = String::from("^");
    if !pattern.contains('/') {
        re.push_str("(?:.*/)?");
    }
    let mut chars = pattern.chars().peekable();
    let mut in_braces = false;
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                if chars.peek() == Some(&'/') {
                    chars.next();
                    re.push_str("(?:.*/)?");
                } else {
                    re.push_str(".*");
                }
            }
            '*' => re.push_str("[^/]*"),
            '?' => re.push_str("[^/]"),
            '{' if !in_braces => {
                in_braces = true;
                re.push_str("(?:");
            }
            '}' if in_braces => {
                in_braces = false;
                re.push(')');
            }
            ',' if in_braces => re.push('|'),
            other => re.push_str(&regex_lite::escape(&other.to_string())),
        }
    }
    re.push('$');
    Regex::new(&re).map_err(|e| format!("bad glob `{}`: {e}", crate::protocol::one_line(pattern)))
}

fn base_dir(root: &Path, input: &Value) -> Result<PathBuf, String> {
    match string_arg(input, "path")? {
        Some(raw) if !raw.is_empty() => confine(root, raw),
        _ => confine(root, "."),
    }
}

fn glob(root: &Path, input: &Value) -> Result<String, String> {
    let pattern = glob_regex(required(input, "pattern")?)?;
    let dir = base_dir(root, input)?;
    let found: Vec<String> = walk(root, &dir)
        .into_iter()
        .map(|(rel, _)| rel)
        .filter(|rel| pattern.is_match(rel))
        .collect();
    if found.is_empty() {
        return Ok("no files match".to_string());
    }
    Ok(found.join("\n"))
}

fn grep(root: &Path, input: &Value) -> Result<String, String> {
    let raw = required(input, "pattern")?;
    let pattern = regex_lite::RegexBuilder::new(raw)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| format!("bad pattern: {}", crate::protocol::one_line(&e.to_string())))?;
    let only = string_arg(input, "glob")?.map(glob_regex).transpose()?;
    let dir = base_dir(root, input)?;
    let mut out = String::new();
    for (rel, path) in walk(root, &dir) {
        if only.as_ref().is_some_and(|g| !g.is_match(&rel)) {
            continue;
        }
        let Ok(bytes) = fsread::read_bounded(&path, FILE_MAX) else {
            continue;
        };
        if bytes.contains(&0) {
            continue;
        }
        for (n, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
            if pattern.is_match(line) {
                out.push_str(&format!("{rel}:{}: {line}\n", n + 1));
                if out.len() > RESULT_MAX {
                    return Ok(out);
                }
            }
        }
    }
    if out.is_empty() {
        out.push_str("no matches");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src/deep")).unwrap();
        std::fs::write(d.path().join("POLICY.md"), "no force push\nreview first\n").unwrap();
        std::fs::write(d.path().join("src/a.rs"), "fn main() {}\n").unwrap();
        std::fs::write(d.path().join("src/deep/b.rs"), "// force\n").unwrap();
        d
    }

    #[test]
    fn read_grep_and_glob_stay_in_the_project() {
        let d = project();
        let root = d.path();
        let text = call(
            root,
            "Read",
            &json!({"file_path": "POLICY.md", "offset": 2}),
        )
        .unwrap();
        assert_eq!(text, "     2\treview first\n");
        let hits = call(root, "Grep", &json!({"pattern": "force", "glob": "*.rs"})).unwrap();
        assert_eq!(hits, "src/deep/b.rs:1: // force\n");
        let files = call(root, "Glob", &json!({"pattern": "src/**/*.rs"})).unwrap();
        assert_eq!(files, "src/a.rs\nsrc/deep/b.rs");
        assert_eq!(
            call(root, "Glob", &json!({"pattern": "*.md"})).unwrap(),
            "POLICY.md"
        );
    }

    #[test]
    fn escapes_unknown_tools_and_bad_arguments_are_tool_errors() {
        let d = project();
        let root = d.path();
        let err = |name: &str, input: Value| call(root, name, &input).unwrap_err();
        assert!(err("Read", json!({"file_path": "../../etc/passwd"})).contains("`..`"));
        assert!(err("Read", json!({"file_path": "/etc/passwd"})).contains("outside the project"));
        assert!(err("Grep", json!({"pattern": "x", "path": "/etc"})).contains("outside"));
        assert!(err("Bash", json!({"command": "ls"})).contains("no tool named `Bash`"));
        assert!(err("Read", json!({"file_path": 5})).contains("must be a string"));
        assert!(err("Read", json!({})).contains("`file_path` is required"));
        assert!(err("Grep", json!({"pattern": "("})).contains("bad pattern"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", root.join("etc")).unwrap();
            assert!(err("Read", json!({"file_path": "etc/passwd"})).contains("outside"));
            let fifo = root.join("pipe");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.unwrap().success());
            let e = err("Read", json!({"file_path": "pipe"}));
            assert!(
                e.contains("FIFO") && !e.contains(&root.display().to_string()),
                "{e}"
            );
            // Walks skip both.
            let files = call(root, "Glob", &json!({"pattern": "**"})).unwrap();
            assert!(
                !files.contains("passwd") && !files.contains("pipe"),
                "{files}"
            );
        }
    }
}
