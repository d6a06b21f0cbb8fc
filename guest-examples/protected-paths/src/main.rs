//! `protected-paths`: a `PreToolUse` hook that denies writing tools (`Write`,
//! `Edit`, `MultiEdit`, `NotebookEdit`: every tool of kind `write`) when they
//! touch a secret or git's own files, and says nothing about anything else.
//!
//! Protected, by file name: `.env` and `.env.*` (`.env.local`, `.env.production`)
//! and `.envrc`; private keys `*.pem`, `*.key`, `id_rsa*`, `id_dsa*`,
//! `id_ecdsa*`, `id_ed25519*`. By place: anything under a `.git` directory.
//! `.env.example` / `.env.sample` / `.env.template` are documentation, not
//! secrets, and stay writable.
//!
//! It needs no grants: it judges the path the agent names, never the disk.
//!
//! Build: `cargo build --release --target wasm32-wasip2 -p protected-paths`.

#![forbid(unsafe_code)]

use agenthooks_sdk::{Answer, Event, ToolKind};

fn protect(event: Event) -> Answer {
    if !matches!(event.name(), "PreToolUse" | "PermissionRequest")
        || event.tool_kind() != Some(ToolKind::Write)
    {
        return Answer::none();
    }
    match event.file_path().and_then(why_protected) {
        Some(why) => Answer::deny(format!(
            "protected-paths: `{}` is {why}; edit it yourself if you must",
            event.file_path().unwrap_or_default()
        )),
        None => Answer::none(),
    }
}

agenthooks_sdk::export!(protect);

/// Why `path` must not be written by the agent, or `None`.
fn why_protected(path: &str) -> Option<&'static str> {
    // Agents on Windows send backslashes.
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let (name, dirs) = parts.split_last()?;
    if dirs.contains(&".git") {
        return Some("inside `.git/`, git's own files");
    }
    let lower = name.to_ascii_lowercase();
    let env_doc = [".env.example", ".env.sample", ".env.template"];
    if (lower == ".env" || lower.starts_with(".env.") || lower == ".envrc")
        && !env_doc.contains(&lower.as_str())
    {
        return Some("an environment file, which holds secrets");
    }
    let key_prefixes = ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];
    if lower.ends_with(".pem")
        || lower.ends_with(".key")
        || key_prefixes.iter().any(|p| lower.starts_with(p))
    {
        return Some("a private key");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_sdk::Permission;
    use serde_json::{json, Value};

    include!("../../cases.rs");

    #[test]
    fn every_case_of_the_shared_table_gets_its_answer() {
        let wrong = wrong_cases("protected-paths", protect);
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    fn tool(name: &str, input: Value) -> Event {
        Event::from_json(json!({
            "hook_event_name": "PreToolUse",
            "tool_name": name,
            "tool_input": input,
        }))
        .unwrap()
    }

    fn write(path: &str) -> Answer {
        protect(tool("Write", json!({"file_path": path, "content": "x"})))
    }

    #[test]
    fn denies_secrets_and_git_internals() {
        for path in [
            ".env",
            "/repo/.env",
            "/repo/app/.env.local",
            "/repo/.env.production",
            "/repo/.envrc",
            "/home/me/.ssh/id_rsa",
            "/home/me/.ssh/id_rsa.pub",
            "/home/me/.ssh/id_ed25519",
            "certs/server.pem",
            "certs/TLS.KEY",
            "/repo/.git/config",
            "/repo/.git/hooks/pre-commit",
            ".git/HEAD",
            "C:\\repo\\.git\\config",
        ] {
            assert_eq!(write(path).permission(), Some(Permission::Deny), "{path}");
        }
    }

    #[test]
    fn the_reason_names_the_file_and_the_rule() {
        assert_eq!(
            write("/repo/.env").reason(),
            Some("protected-paths: `/repo/.env` is an environment file, which holds secrets; edit it yourself if you must")
        );
    }

    #[test]
    fn every_writing_tool_is_checked() {
        let edit = tool(
            "Edit",
            json!({"file_path": "/r/.env", "old_string": "a", "new_string": "b"}),
        );
        assert_eq!(protect(edit).permission(), Some(Permission::Deny));
        let multi = tool("MultiEdit", json!({"file_path": "/r/key.pem", "edits": []}));
        assert_eq!(protect(multi).permission(), Some(Permission::Deny));
        let nb = tool(
            "NotebookEdit",
            json!({"notebook_path": "/r/.git/x.ipynb", "new_source": ""}),
        );
        assert_eq!(protect(nb).permission(), Some(Permission::Deny));
    }

    #[test]
    fn ordinary_files_get_no_opinion() {
        for path in [
            "/repo/src/main.rs",
            "/repo/.env.example",
            "/repo/.environment.md",
            "/repo/.gitignore",
            "/repo/.github/workflows/ci.yml",
            "/repo/docs/git/notes.md",
            "/repo/keys.rs",
            "/repo/monkey.txt",
        ] {
            assert!(write(path).is_none(), "{path}");
        }
    }

    #[test]
    fn reading_and_other_events_get_no_opinion() {
        assert!(protect(tool("Read", json!({"file_path": "/repo/.env"}))).is_none());
        let post = Event::from_json(json!({
            "hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_input": {"file_path": "/repo/.env"},
        }))
        .unwrap();
        assert!(protect(post).is_none());
        assert!(protect(tool("Write", json!({}))).is_none());
    }
}
