//! Where a repository's `HEAD` points, read from `.git/HEAD` on disk.
//!
//! A component can read it only under a directory `.agents/hooks.json` grants
//! (`"allow": {"read": ["$CLAUDE_PROJECT_DIR"]}`); without the grant every read
//! fails and [`head`] returns `None`, so a hook can fall back to saying nothing.

use std::fs;
use std::path::{Path, PathBuf};

/// What `HEAD` points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// A branch: `ref: refs/heads/<name>`.
    Branch(String),
    /// A detached `HEAD`: the commit id (or whatever `HEAD` holds).
    Detached(String),
}

impl Head {
    /// The branch, when `HEAD` is on one.
    pub fn branch(&self) -> Option<&str> {
        match self {
            Head::Branch(name) => Some(name),
            Head::Detached(_) => None,
        }
    }
}

/// `HEAD` of the repository containing `dir`: looks for `.git` in `dir` and
/// its parents, following a `.git` file (`gitdir: ...`, worktrees and
/// submodules) to the real git directory. `None` when no readable repository
/// is found.
pub fn head(dir: &Path) -> Option<Head> {
    dir.ancestors().find_map(|d| {
        let git_dir = git_dir(d)?;
        let text = fs::read_to_string(git_dir.join("HEAD")).ok()?;
        Some(parse_head(&text))
    })
}

fn git_dir(dir: &Path) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    let meta = fs::metadata(&dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git);
    }
    let text = fs::read_to_string(&dot_git).ok()?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    Some(dir.join(target))
}

/// Parse the text of a `HEAD` file.
pub fn parse_head(text: &str) -> Head {
    let text = text.trim();
    match text.strip_prefix("ref:").map(str::trim) {
        Some(reference) => Head::Branch(
            reference
                .strip_prefix("refs/heads/")
                .unwrap_or(reference)
                .to_string(),
        ),
        None => Head::Detached(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_branches_and_detached_heads() {
        assert_eq!(
            parse_head("ref: refs/heads/main\n"),
            Head::Branch("main".into())
        );
        assert_eq!(
            parse_head("ref: refs/heads/feat/x"),
            Head::Branch("feat/x".into())
        );
        let sha = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(parse_head(&format!("{sha}\n")), Head::Detached(sha.into()));
        assert_eq!(Head::Detached(sha.into()).branch(), None);
        assert_eq!(Head::Branch("b".into()).branch(), Some("b"));
    }

    #[test]
    fn finds_the_repository_from_a_subdirectory() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join(".git")).unwrap();
        fs::write(tmp.path().join(".git/HEAD"), "ref: refs/heads/dev\n").unwrap();
        let sub = tmp.path().join("a/b");
        fs::create_dir_all(&sub).unwrap();
        assert_eq!(head(&sub), Some(Head::Branch("dev".into())));
    }

    #[test]
    fn follows_a_gitdir_file() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real-git");
        fs::create_dir_all(&real).unwrap();
        fs::write(real.join("HEAD"), "ref: refs/heads/wt\n").unwrap();
        let wt = tmp.path().join("wt");
        fs::create_dir_all(&wt).unwrap();
        fs::write(wt.join(".git"), "gitdir: ../real-git\n").unwrap();
        assert_eq!(head(&wt), Some(Head::Branch("wt".into())));
    }

    #[test]
    fn no_repository_is_none() {
        assert_eq!(head(Path::new("/nonexistent-agenthooks-dir/x")), None);
    }
}
