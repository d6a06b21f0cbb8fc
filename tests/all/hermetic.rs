//! The suite is hermetic: under `.ci/run` every test sees a private, empty
//! temporary directory and home, never the machine's `/tmp` or real home, so
//! a test cannot pass because of a file this machine happens to hold.

use std::path::{Path, PathBuf};

/// The scratch directory `.ci/run` made for this run, if it ran us.
fn scratch() -> Option<PathBuf> {
    std::env::var_os("AGENTHOOKS_CI_SCRATCH").map(PathBuf::from)
}

#[test]
fn under_ci_the_temporary_directory_and_home_are_private_to_the_run() {
    let Some(scratch) = scratch() else {
        // CI always runs the suite through `.ci/run`; a CI job that does not
        // is the leak this test is here to catch.
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true but AGENTHOOKS_CI_SCRATCH is not set: run the suite through .ci/run, \
             which gives it a private TMPDIR and HOME"
        );
        return;
    };
    let scratch = std::fs::canonicalize(&scratch).expect("the run's scratch directory exists");
    let under = |p: &Path| {
        std::fs::canonicalize(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .starts_with(&scratch)
    };
    let temp = std::env::temp_dir();
    assert!(
        under(&temp),
        "TMPDIR {} is not under {}",
        temp.display(),
        scratch.display()
    );
    let temp = tempfile::tempdir().unwrap();
    assert!(under(temp.path()), "{}", temp.path().display());
    let home = std::env::var_os("HOME").map(PathBuf::from).expect("HOME");
    assert!(
        under(&home),
        "HOME {} is not under {}",
        home.display(),
        scratch.display()
    );
    for var in [
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_CACHE_HOME",
    ] {
        let dir = std::env::var_os(var).map(PathBuf::from).expect(var);
        assert!(
            dir.starts_with(&home),
            "{var} {} is outside HOME",
            dir.display()
        );
    }
}
