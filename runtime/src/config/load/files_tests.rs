//! Tests of where the files are: the project root and the managed file.

use std::fs;
use std::path::PathBuf;

use super::*;
use crate::config::load::testutil::*;

#[test]
fn project_root_prefers_the_variable_then_the_nearest_marker() {
    let d = Dirs::new();
    let root = d.project();
    let deep = root.join("a/b/c");
    fs::create_dir_all(&deep).unwrap();
    // No marker anywhere under the temp dir: the search walks up past it, so
    // only check it does not pick the project.
    assert_ne!(project_root_from(None, Some(&deep)).as_deref(), Some(root));
    fs::create_dir_all(root.join(".agents")).unwrap();
    assert_eq!(project_root_from(None, Some(&deep)).as_deref(), Some(root));
    // A nearer `.git` (a file in worktrees and submodules) wins.
    fs::write(root.join("a/.git"), "gitdir: elsewhere").unwrap();
    assert_eq!(project_root_from(None, Some(&deep)), Some(root.join("a")));
    // The directory itself counts.
    assert_eq!(
        project_root_from(None, Some(&root.join("a"))),
        Some(root.join("a"))
    );
    // `CLAUDE_PROJECT_DIR` wins, unless empty.
    assert_eq!(
        project_root_from(Some("/elsewhere".into()), Some(&deep)),
        Some(PathBuf::from("/elsewhere"))
    );
    assert_eq!(
        project_root_from(Some("".into()), Some(&deep)),
        Some(root.join("a"))
    );
    assert_eq!(project_root_from(None, None), None);
}

#[test]
fn the_managed_path_override_applies_only_where_no_policy_is_installed() {
    let d = Dirs::new();
    let installed = managed(&d, "{}");
    let var = Some(std::ffi::OsString::from("/tmp/mine.json"));
    assert_eq!(managed_file_from(var.clone(), installed.clone()), installed);
    let absent = d.home().join("absent.json");
    assert_eq!(
        managed_file_from(var, absent.clone()),
        PathBuf::from("/tmp/mine.json")
    );
    assert_eq!(managed_file_from(Some("".into()), absent.clone()), absent);
}
