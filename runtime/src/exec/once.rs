//! `once: true`: a handler runs at most once per session.
//!
//! `run` is a process per event, so "already ran" lives on disk: one empty
//! marker file per (session, handler) under `<cache>/agenthooks/once/`,
//! named by the SHA-256 of the `session_id` and the handler's definition
//! (file, event, matcher, `if`, what it runs). The marker is created with
//! `create_new` before the handler runs, so two events racing in one session
//! run it once between them; a handler whose definition changes counts as a
//! new one. An event without a `session_id` cannot be told apart from a new
//! session: the handler runs, with a note.
//!
//! Bounded and cleaned: whenever a marker is made, markers older than
//! [`MAX_AGE`] are removed, and past [`MAX_MARKERS`] the oldest go first
//! (a session that long-lived may then run the handler again, which is the
//! safe side for hooks that only add context).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::json;

use crate::config::Handler;
use crate::protocol::Event;

/// Markers older than this are removed (sessions rarely last a week).
pub const MAX_AGE: Duration = Duration::from_secs(7 * 24 * 3600);

/// The most markers kept; past it the oldest are removed.
pub const MAX_MARKERS: usize = 4096;

/// What [`claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The handler has not run in this session: run it (the marker is made).
    First,
    /// It already ran in this session: skip it.
    Already,
    /// Whether it ran cannot be known or recorded: run it, with this note.
    Unknown(String),
}

/// The marker directory: `dir` when given (tests, a library), else
/// `once/` in the compile cache's directory.
pub fn marker_dir(dir: Option<&Path>) -> Option<PathBuf> {
    match dir {
        Some(dir) => Some(dir.to_path_buf()),
        None => crate::dirs::cache().map(|p| p.join("once")),
    }
}

/// Claim the one run of `handler` in `event`'s session, recording it in `dir`.
pub fn claim(handler: &Handler, event: &Event, dir: Option<&Path>) -> Claim {
    claim_named(event, dir, |session| key(handler, session))
}

/// Where [`claim_notice`] keeps its markers: `dir` when given, else
/// `arrived/` in the compile cache's directory (apart from the `once`
/// markers, which count per hook).
pub fn notice_dir(dir: Option<&Path>) -> Option<PathBuf> {
    match dir {
        Some(dir) => Some(dir.to_path_buf()),
        None => crate::dirs::cache().map(|p| p.join("arrived")),
    }
}

/// Claim the one time in `event`'s session that agenthooks itself says
/// something to the user (`run`'s message about hooks held back), recorded
/// in `dir` ([`notice_dir`]), bounded and cleaned as the `once` markers are.
pub fn claim_notice(event: &Event, dir: Option<&Path>) -> Claim {
    claim_named(event, dir, notice_key)
}

/// Claim the one time in `event`'s session that agenthooks says `cause` in
/// the agent's window (a broken file, a hook that failed open), recorded in
/// `dir`, bounded and cleaned as the `once` markers are.
pub fn claim_said(event: &Event, dir: Option<&Path>, cause: &str) -> Claim {
    claim_named(event, dir, |session| {
        let identity = json!({"session": session, "said": cause});
        crate::encoding::sha256_hex(identity.to_string().as_bytes())
    })
}

/// Whether [`claim_notice`] would claim its marker now, that is give
/// [`Claim::First`] (`false` for `Already`, and for `Unknown`: no session
/// id or no directory). Only looks.
pub fn notice_unclaimed(event: &Event, dir: Option<&Path>) -> bool {
    match (event.session_id().filter(|s| !s.is_empty()), dir) {
        (Some(session), Some(dir)) => !dir.join(notice_key(session)).exists(),
        _ => false,
    }
}

/// The name of [`claim_notice`]'s marker for `session`.
fn notice_key(session: &str) -> String {
    let identity = json!({"session": session, "notice": "held-back"});
    crate::encoding::sha256_hex(identity.to_string().as_bytes())
}

/// [`claim`] of the marker `name(session_id)`.
fn claim_named(event: &Event, dir: Option<&Path>, name: impl Fn(&str) -> String) -> Claim {
    let Some(session) = event.session_id().filter(|s| !s.is_empty()) else {
        return Claim::Unknown(
            "`once` needs the event's `session_id`, which is missing; it ran".to_string(),
        );
    };
    let Some(dir) = dir else {
        return Claim::Unknown(
            "`once`: no cache directory (neither `XDG_CACHE_HOME` nor `HOME` is set); it ran"
                .to_string(),
        );
    };
    let marker = dir.join(name(session));
    if let Err(e) = std::fs::create_dir_all(dir) {
        return unrecorded(dir, &e);
    }
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&marker)
    {
        Ok(_) => {
            clean(dir, &marker);
            Claim::First
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Claim::Already,
        Err(e) => unrecorded(dir, &e),
    }
}

fn unrecorded(dir: &Path, e: &std::io::Error) -> Claim {
    Claim::Unknown(format!(
        "`once`: could not record its run in `{}` ({e}); it ran and may run again",
        dir.display()
    ))
}

/// The marker's name: the SHA-256 of the session and the handler's definition.
fn key(handler: &Handler, session: &str) -> String {
    let identity = json!({
        "session": session,
        "file": handler.file,
        "event": handler.event.as_str(),
        "matcher": handler.matcher.to_string(),
        "if": handler.if_.as_ref().map(regex_lite::Regex::as_str),
        "kind": format!("{:?}", handler.kind),
    });
    crate::encoding::sha256_hex(identity.to_string().as_bytes())
}

/// Remove markers past [`MAX_AGE`], then the oldest past [`MAX_MARKERS`];
/// never `keep`. Best effort: a marker that cannot be removed stays.
fn clean(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    let mut live: Vec<(SystemTime, PathBuf)> = Vec::new();
    // Bounded: a directory someone filled with millions of files is not read whole.
    for entry in entries.flatten().take(4 * MAX_MARKERS) {
        let path = entry.path();
        if path == keep {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let modified = meta.modified().unwrap_or(now);
        if now.duration_since(modified).unwrap_or_default() > MAX_AGE {
            let _ = std::fs::remove_file(&path);
        } else {
            live.push((modified, path));
        }
    }
    // `keep` counts as one of the markers kept.
    if live.len() + 1 > MAX_MARKERS {
        live.sort();
        let excess = live.len() + 1 - MAX_MARKERS;
        for (_, path) in live.into_iter().take(excess) {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CommandSpec, HandlerKind, OnError, Scope};
    use crate::protocol::EventName;
    use crate::select::Matcher;

    fn handler(command: &str) -> Handler {
        Handler {
            event: EventName::SessionStart,
            matcher: Matcher::All,
            if_: None,
            kind: HandlerKind::Command(CommandSpec {
                command: command.to_string(),
                async_: false,
                shell: crate::config::Shell::System,
            }),
            timeout: Duration::from_secs(5),
            on_error: OnError::Allow,
            scope: Scope::User,
            file: PathBuf::from("hooks.json"),
            project_root: None,
            label: format!("command `{command}`"),
            status_message: None,
            once: true,
        }
    }

    fn event(session: Option<&str>) -> Event {
        let mut input = json!({"hook_event_name": "SessionStart", "source": "startup"});
        if let Some(s) = session {
            input["session_id"] = json!(s);
        }
        Event::new(input, None, "claude").unwrap()
    }

    #[test]
    fn once_per_session_and_per_definition() {
        let dir = tempfile::tempdir().unwrap();
        let d = Some(dir.path());
        let a = handler("echo a");
        assert_eq!(claim(&a, &event(Some("s1")), d), Claim::First);
        assert_eq!(claim(&a, &event(Some("s1")), d), Claim::Already);
        assert_eq!(claim(&a, &event(Some("s2")), d), Claim::First);
        assert_eq!(
            claim(&handler("echo b"), &event(Some("s1")), d),
            Claim::First
        );
        assert!(matches!(claim(&a, &event(None), d), Claim::Unknown(_)));
        assert!(matches!(
            claim(&a, &event(Some("s1")), None),
            Claim::Unknown(_)
        ));
    }

    #[test]
    fn the_notice_is_claimed_once_per_session() {
        let dir = tempfile::tempdir().unwrap();
        let d = Some(dir.path());
        assert_eq!(claim_notice(&event(Some("s1")), d), Claim::First);
        assert_eq!(claim_notice(&event(Some("s1")), d), Claim::Already);
        assert_eq!(claim_notice(&event(Some("s2")), d), Claim::First);
        // A hook's `once` in the same session is its own claim.
        assert_eq!(claim(&handler("x"), &event(Some("s1")), d), Claim::First);
        assert!(matches!(claim_notice(&event(None), d), Claim::Unknown(_)));
        assert_eq!(notice_dir(d).as_deref(), d);
    }

    #[test]
    fn old_markers_go_and_the_count_is_capped() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old");
        std::fs::write(&old, "").unwrap();
        let long_ago = SystemTime::now() - MAX_AGE - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        for i in 0..MAX_MARKERS + 10 {
            std::fs::write(dir.path().join(format!("m{i}")), "").unwrap();
        }
        assert_eq!(
            claim(&handler("x"), &event(Some("s")), Some(dir.path())),
            Claim::First
        );
        assert!(!old.exists(), "a marker past MAX_AGE was kept");
        let left = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(left, MAX_MARKERS);
    }
}
