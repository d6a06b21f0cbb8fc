//! `session-branch-context`: a `SessionStart` hook that tells the model which
//! git branch it is on, as `additionalContext`: "current git branch: X" (or
//! "current git branch: none (detached HEAD at 1a2b3c4)").
//!
//! It reads `.git/HEAD` in the event's `cwd` or a parent, which a component can
//! do only with a grant: `"allow": {"read": ["$CLAUDE_PROJECT_DIR"]}`. Without
//! the grant, or outside a repository, it says nothing.
//!
//! Build: `cargo build --release --target wasm32-wasip2 -p session-branch-context`.

#![forbid(unsafe_code)]

use std::path::Path;

use agenthooks_sdk::git::{self, Head};
use agenthooks_sdk::{Answer, Event};

fn branch_context(event: Event) -> Answer {
    if event.name() != "SessionStart" {
        return Answer::none();
    }
    match event.cwd().map(Path::new).and_then(git::head) {
        Some(Head::Branch(name)) => Answer::context(format!("current git branch: {name}")),
        Some(Head::Detached(id)) => {
            let short: String = id.chars().take(7).collect();
            Answer::context(format!(
                "current git branch: none (detached HEAD at {short})"
            ))
        }
        None => Answer::none(),
    }
}

agenthooks_sdk::export!(branch_context);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn session_start(cwd: &Path) -> Event {
        Event::from_json(json!({
            "hook_event_name": "SessionStart",
            "source": "startup",
            "cwd": cwd,
        }))
        .unwrap()
    }

    fn repo_with_head(head: &str) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join(".git")).unwrap();
        std::fs::write(tmp.path().join(".git/HEAD"), head).unwrap();
        tmp
    }

    #[test]
    fn names_the_branch() {
        let r = repo_with_head("ref: refs/heads/feature/login\n");
        let a = branch_context(session_start(r.path()));
        assert_eq!(
            a.additional_context(),
            Some("current git branch: feature/login")
        );
        assert_eq!(
            a.to_claude_json("SessionStart"),
            json!({"hookSpecificOutput": {
                "hookEventName": "SessionStart",
                "additionalContext": "current git branch: feature/login"
            }})
        );
    }

    #[test]
    fn works_from_a_subdirectory() {
        let r = repo_with_head("ref: refs/heads/dev\n");
        let sub = r.path().join("src/deep");
        std::fs::create_dir_all(&sub).unwrap();
        let a = branch_context(session_start(&sub));
        assert_eq!(a.additional_context(), Some("current git branch: dev"));
    }

    #[test]
    fn handles_a_detached_head() {
        let r = repo_with_head("1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b\n");
        let a = branch_context(session_start(r.path()));
        assert_eq!(
            a.additional_context(),
            Some("current git branch: none (detached HEAD at 1a2b3c4)")
        );
    }

    #[test]
    fn says_nothing_without_a_repository_or_at_other_events() {
        let missing = Path::new("/nonexistent-agenthooks-dir");
        assert!(branch_context(session_start(missing)).is_none());
        let no_cwd = Event::from_json(json!({"hook_event_name": "SessionStart"})).unwrap();
        assert!(branch_context(no_cwd).is_none());
        let r = repo_with_head("ref: refs/heads/main\n");
        let stop = Event::from_json(json!({"hook_event_name": "Stop", "cwd": r.path()})).unwrap();
        assert!(branch_context(stop).is_none());
    }
}
