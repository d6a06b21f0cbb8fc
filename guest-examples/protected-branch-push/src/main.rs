//! `protected-branch-push`: a `PreToolUse` hook for shell tools that denies
//! `git push` to a protected branch (`main` and `master` by default) and says
//! nothing about other pushes.
//!
//! Denied: `git push origin main`, `git push -f origin master`,
//! `git push origin HEAD:main`, `git push origin feature:refs/heads/main`,
//! `git push origin +main`, `git push origin --delete main`, `git push --all`
//! / `--mirror` (they push every branch), and a bare `git push` / `git push
//! origin` / `git push origin HEAD` while the current branch is protected.
//! Found inside `cd x && ...`, `sh -c '...'` and `$(...)` too.
//!
//! The current branch comes from `.git/HEAD` under the event's `cwd` (or
//! `git -C DIR`), which a component can read only with a grant:
//! `"allow": {"read": ["$CLAUDE_PROJECT_DIR"]}`. Without it, a push that names
//! no branch gets no opinion (and a log line).
//!
//! The list: `AGENTHOOKS_PROTECTED_BRANCHES`, comma- or space-separated
//! (granted with `"allow": {"env": ["AGENTHOOKS_PROTECTED_BRANCHES"]}`).
//!
//! Build: `cargo build --release --target wasm32-wasip2 -p protected-branch-push`.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use agenthooks_sdk::shell::{self, SimpleCommand};
use agenthooks_sdk::{git, log, Answer, Event, Level};

/// The variable naming the protected branches.
const BRANCHES_VAR: &str = "AGENTHOOKS_PROTECTED_BRANCHES";

/// Protected when the variable is not set.
const DEFAULT_BRANCHES: &[&str] = &["main", "master"];

fn guard_push(event: Event) -> Answer {
    if !matches!(event.name(), "PreToolUse" | "PermissionRequest") {
        return Answer::none();
    }
    let Some(command) = event.shell_command() else {
        return Answer::none();
    };
    let protected: Vec<String> = match std::env::var(BRANCHES_VAR) {
        Ok(list) => list
            .split([',', ' '])
            .filter(|b| !b.is_empty())
            .map(str::to_string)
            .collect(),
        Err(_) => DEFAULT_BRANCHES.iter().map(|b| b.to_string()).collect(),
    };
    let cwd = event.cwd().map(PathBuf::from);
    for push in shell::commands(command).iter().filter_map(Push::parse) {
        let current = || {
            let dir = match (&cwd, &push.dir) {
                (Some(cwd), Some(dir)) => cwd.join(dir),
                (None, Some(dir)) => PathBuf::from(dir),
                (Some(cwd), None) => cwd.clone(),
                (None, None) => return None,
            };
            current_branch(&dir)
        };
        if let Some(why) = push.violation(&protected, current) {
            return Answer::deny(format!(
                "protected-branch-push: {why}; push to another branch and open a pull request"
            ));
        }
    }
    Answer::none()
}

agenthooks_sdk::export!(guard_push);

fn current_branch(dir: &Path) -> Option<String> {
    match git::head(dir) {
        Some(head) => head.branch().map(str::to_string),
        None => {
            log(
                Level::Info,
                &format!(
                    "cannot read .git/HEAD under {} (no allow.read grant?)",
                    dir.display()
                ),
            );
            None
        }
    }
}

/// One `git push` command line, parsed.
#[derive(Debug, PartialEq)]
struct Push {
    /// `git -C DIR`.
    dir: Option<String>,
    /// `--all`, `--mirror` or `--branches`.
    every_branch: bool,
    /// The refspecs after the remote.
    refspecs: Vec<String>,
}

/// Git's global options that take a separate value.
const GIT_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
];

/// `git push` options that take a separate value.
const PUSH_VALUED: &[&str] = &["-o", "--push-option", "--receive-pack", "--exec", "--repo"];

impl Push {
    fn parse(c: &SimpleCommand) -> Option<Push> {
        if c.program()? != "git" {
            return None;
        }
        let mut args = c.args().iter();
        let mut dir = None;
        loop {
            let arg = args.next()?;
            if arg == "-C" {
                dir = args.next().cloned();
            } else if GIT_VALUED.contains(&arg.as_str()) {
                args.next();
            } else if arg.starts_with('-') {
                continue;
            } else if arg == "push" {
                break;
            } else {
                return None;
            }
        }
        let mut push = Push {
            dir,
            every_branch: false,
            refspecs: Vec::new(),
        };
        let mut positionals = Vec::new();
        let mut only_positionals = false;
        while let Some(arg) = args.next() {
            if only_positionals || !arg.starts_with('-') {
                positionals.push(arg.clone());
            } else if arg == "--" {
                only_positionals = true;
            } else if matches!(arg.as_str(), "--all" | "--mirror" | "--branches") {
                push.every_branch = true;
            } else if PUSH_VALUED.contains(&arg.as_str()) {
                args.next();
            }
        }
        // The first positional is the remote; the rest are refspecs.
        push.refspecs = positionals.into_iter().skip(1).collect();
        Some(push)
    }

    /// Why this push touches a protected branch, or `None`.
    fn violation(
        &self,
        protected: &[String],
        current: impl FnOnce() -> Option<String>,
    ) -> Option<String> {
        let is_protected = |b: &str| protected.iter().any(|p| p == b);
        let list = protected.join(", ");
        if self.every_branch {
            return Some(format!(
                "`--all`/`--mirror` pushes every branch, protected ones ({list}) included"
            ));
        }
        let mut current = Some(current);
        let mut current_branch = || current.take().and_then(|f| f());
        if self.refspecs.is_empty() {
            let branch = current_branch()?;
            return is_protected(&branch).then(|| {
                format!("this pushes the current branch `{branch}`, which is protected ({list})")
            });
        }
        for spec in &self.refspecs {
            let spec = spec.strip_prefix('+').unwrap_or(spec);
            let dst = match spec.split_once(':') {
                Some((_, dst)) => dst.to_string(),
                None if spec == "HEAD" || spec == "@" => match current_branch() {
                    Some(b) => b,
                    None => continue,
                },
                None => spec.to_string(),
            };
            let dst = dst.strip_prefix("refs/heads/").unwrap_or(&dst);
            if is_protected(dst) {
                return Some(format!(
                    "pushing to `{dst}` is not allowed ({list} are protected)"
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_sdk::Permission;
    use serde_json::json;

    fn bash_in(command: &str, cwd: &Path) -> Event {
        Event::from_json(json!({
            "hook_event_name": "PreToolUse",
            "cwd": cwd,
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }))
        .unwrap()
    }

    /// A repository whose HEAD is on `branch`.
    fn repo(branch: &str) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join(".git")).unwrap();
        std::fs::write(
            tmp.path().join(".git/HEAD"),
            format!("ref: refs/heads/{branch}\n"),
        )
        .unwrap();
        tmp
    }

    fn denied_on(command: &str, branch: &str) -> bool {
        let r = repo(branch);
        guard_push(bash_in(command, r.path())).permission() == Some(Permission::Deny)
    }

    #[test]
    fn denies_explicit_pushes_to_protected_branches() {
        for cmd in [
            "git push origin main",
            "git push origin master",
            "git push -f origin main",
            "git push --force origin main",
            "git push origin main --force",
            "git push --force-with-lease origin main",
            "git push origin HEAD:main",
            "git push origin HEAD:refs/heads/main",
            "git push origin feature:main",
            "git push origin +main",
            "git push origin --delete main",
            "git push origin :main",
            "git push -u origin feature main",
            "git push --all origin",
            "git push --mirror",
            "git -C sub push origin main",
            "cd x && git push origin main",
            "bash -c 'git push origin main'",
            "/usr/bin/git push origin main",
        ] {
            assert!(denied_on(cmd, "feature"), "{cmd}");
        }
    }

    #[test]
    fn a_push_without_a_branch_uses_the_current_one() {
        for cmd in [
            "git push",
            "git push origin",
            "git push -u origin HEAD",
            "git push origin @",
        ] {
            assert!(denied_on(cmd, "main"), "{cmd}");
            assert!(!denied_on(cmd, "feature"), "{cmd}");
        }
        let r = repo("master");
        let reason = guard_push(bash_in("git push", r.path()));
        assert_eq!(
            reason.reason(),
            Some("protected-branch-push: this pushes the current branch `master`, which is protected (main, master); push to another branch and open a pull request")
        );
    }

    #[test]
    fn other_pushes_and_commands_get_no_opinion() {
        for cmd in [
            "git push origin feature",
            "git push origin feature:feature",
            "git push origin v1.0",
            "git push -o ci.skip origin feature",
            "git push origin mainline",
            "git pull origin main",
            "git log main",
            "echo git push origin main",
            "git commit -m 'git push origin main'",
        ] {
            let r = repo("feature");
            assert!(guard_push(bash_in(cmd, r.path())).is_none(), "{cmd}");
        }
    }

    #[test]
    fn an_unreadable_head_gives_no_opinion_for_a_bare_push() {
        let missing = Path::new("/nonexistent-agenthooks-dir");
        assert!(guard_push(bash_in("git push", missing)).is_none());
        // An explicit target needs no HEAD.
        assert_eq!(
            guard_push(bash_in("git push origin main", missing)).permission(),
            Some(Permission::Deny)
        );
    }

    #[test]
    fn the_list_is_configurable() {
        let push = |cmd: &str| {
            let c = &shell::commands(cmd)[0];
            Push::parse(c).unwrap()
        };
        let protected = vec!["release".to_string(), "prod".to_string()];
        assert!(push("git push origin release")
            .violation(&protected, || None)
            .is_some());
        assert!(push("git push origin main")
            .violation(&protected, || None)
            .is_none());
        assert!(push("git push")
            .violation(&protected, || Some("prod".into()))
            .is_some());
    }

    #[test]
    fn non_push_git_commands_do_not_parse() {
        for cmd in ["git status", "git -c x=y log", "git", "ls push"] {
            assert_eq!(Push::parse(&shell::commands(cmd)[0]), None, "{cmd}");
        }
    }
}
