//! How this copy of agenthooks was installed (a release archive, npm, pip,
//! or cargo) and for which target: `--version` says it, so a bug report
//! carries it, and every hint to install or reinstall names the one line
//! of the same package manager, never a build from a clone.
//!
//! A package's copy says how it came in `MARKER`: `scripts/dist.sh`
//! rewrites the word after its prefix in the binaries it puts in each
//! package (`scripts/dist/pack.py mark`), and a binary cargo built keeps
//! `cargo`. So one release build serves every package, and nothing is
//! written beside the binary (a wheel puts the binaries in the user's
//! `bin` directory, where a marker file would be clutter).

use std::path::Path;

/// The project's home; the release downloads are under it.
pub const REPOSITORY: &str = "https://github.com/agenthooks/agenthooks";

/// The release page's download directory for the newest version.
macro_rules! latest_download {
    () => {
        "https://github.com/agenthooks/agenthooks/releases/latest/download"
    };
}

/// The one line that installs the release archive on Linux and macOS
/// (`install.sh`: checksum verified, into `~/.local/bin`).
pub const INSTALL_SH: &str = concat!("curl -LsSf ", latest_download!(), "/install.sh | sh");

/// The same in PowerShell on Windows (`install.ps1`).
pub const INSTALL_PS1: &str = concat!("irm ", latest_download!(), "/install.ps1 | iex");

/// The other package managers a teammate may have, after the platform's line.
macro_rules! alternatives {
    () => {
        " (or: npm install -g agenthooks, or: pipx install agenthooks)"
    };
}

/// The start of both launchers' lines, up to the install command.
macro_rules! not_found {
    () => {
        concat!(
            crate::protocol::note_prefix!(),
            "not found on PATH, so the hooks agenthooks runs did not run here (allowed). Install it: "
        )
    };
}

/// The line a launcher prints on stderr when it cannot find `agenthooks`
/// on a machine with `sh` (the agent then goes on: "no opinion"). A
/// launcher is written once and runs on every teammate's machine, so it
/// names the platform's one line and the package managers' alternatives.
pub const NOT_INSTALLED: &str = concat!(
    not_found!(),
    "curl -LsSf ",
    latest_download!(),
    "/install.sh | sh",
    alternatives!()
);

/// [`NOT_INSTALLED`] for PowerShell's launcher (Windows).
pub const NOT_INSTALLED_WINDOWS: &str = concat!(
    not_found!(),
    "irm ",
    latest_download!(),
    "/install.ps1 | iex",
    alternatives!()
);

/// The bytes a package rewrites: [`MARKER_PREFIX`], then the package
/// manager's word padded with spaces to [`MARKER_WORD`] bytes. `#[used]`
/// keeps it in the binary, and [`marker`] reads it with a volatile read so
/// the compiler cannot fold in the value it was built with.
#[used]
static MARKER: [u8; MARKER_PREFIX.len() + MARKER_WORD] = *b"AGENTHOOKS-INSTALLED-BY:cargo   ";

/// What precedes the word in `MARKER`; `scripts/dist/pack.py mark` looks for it.
pub const MARKER_PREFIX: &str = "AGENTHOOKS-INSTALLED-BY:";

/// The bytes of the word after [`MARKER_PREFIX`].
pub const MARKER_WORD: usize = 8;

/// The target this binary was built for (the build script sets it).
pub const TARGET: &str = env!("AGENTHOOKS_TARGET");

/// How this copy was installed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Built by cargo (`cargo install`, or a build from source).
    Cargo,
    /// From the release archive (`install.sh`, `install.ps1`, by hand).
    Archive,
    /// From the npm package.
    Npm,
    /// From the Python wheel (pip, pipx, uv).
    Pip,
}

impl Origin {
    /// This binary's origin, from its `MARKER`.
    pub fn current() -> Origin {
        // SAFETY: MARKER is a plain, initialised static; the read is volatile
        // only so the value comes from the file's bytes at run time.
        let bytes = unsafe { std::ptr::read_volatile(&MARKER) };
        Origin::parse(&bytes)
    }

    /// The origin a marker names; a marker that names none is `cargo`'s
    /// (what a binary nobody rewrote says).
    pub fn parse(marker: &[u8]) -> Origin {
        let word = marker
            .strip_prefix(MARKER_PREFIX.as_bytes())
            .map(|w| String::from_utf8_lossy(w).trim().to_string());
        match word.as_deref() {
            Some("archive") => Origin::Archive,
            Some("npm") => Origin::Npm,
            Some("pip") => Origin::Pip,
            _ => Origin::Cargo,
        }
    }

    /// The word a package writes into `MARKER`.
    pub fn word(self) -> &'static str {
        match self {
            Origin::Cargo => "cargo",
            Origin::Archive => "archive",
            Origin::Npm => "npm",
            Origin::Pip => "pip",
        }
    }

    /// The Python tool that installed `exe` (pipx and uv keep a venv of
    /// their own per tool; the binary's real path runs through it).
    fn python_tool(exe: &Path) -> &'static str {
        let path = exe.to_string_lossy().replace('\\', "/");
        if path.contains("/pipx/venvs/") {
            "pipx"
        } else if path.contains("/uv/tools/") {
            "uv"
        } else {
            "pip"
        }
    }

    /// The one line that installs (or reinstalls) agenthooks the way this
    /// copy came, on this platform; `exe` is this binary's path. A copy
    /// cargo built gets the platform's release line: the crate is not on
    /// crates.io (it embeds files from outside `runtime/`), and a build
    /// from a clone is not one line.
    pub fn install_line(self, exe: &Path) -> String {
        match self {
            Origin::Archive | Origin::Cargo if cfg!(windows) => INSTALL_PS1.to_string(),
            Origin::Archive | Origin::Cargo => INSTALL_SH.to_string(),
            Origin::Npm => "npm install -g agenthooks".to_string(),
            Origin::Pip => match Origin::python_tool(exe) {
                "pipx" => "pipx install --force agenthooks",
                "uv" => "uv tool install --force agenthooks",
                _ => "pip install --force-reinstall agenthooks",
            }
            .to_string(),
        }
    }

    /// How this copy came, for `--version`: "installed by npm".
    pub fn describe(self, exe: &Path) -> String {
        match self {
            Origin::Cargo => "built by cargo".to_string(),
            Origin::Archive => "installed from the release archive".to_string(),
            Origin::Npm => "installed by npm".to_string(),
            Origin::Pip => format!("installed by {}", Origin::python_tool(exe)),
        }
    }
}

/// This binary's path, as the OS gives it (`current_exe`), or its bare name.
fn exe() -> std::path::PathBuf {
    std::env::current_exe().unwrap_or_else(|_| "agenthooks".into())
}

/// The line that reinstalls this copy the way it came.
pub fn install_line() -> String {
    Origin::current().install_line(&exe())
}

/// `--version`'s text after the name: the version, the target and how this
/// copy was installed, e.g. `0.1.0 (x86_64-unknown-linux-gnu, installed by npm)`.
pub fn version() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        format!(
            "{} ({TARGET}, {})",
            env!("CARGO_PKG_VERSION"),
            Origin::current().describe(&exe())
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_names_its_origin_and_anything_else_is_cargo() {
        for origin in [Origin::Cargo, Origin::Archive, Origin::Npm, Origin::Pip] {
            let marker = format!("{MARKER_PREFIX}{:<8}", origin.word());
            assert_eq!(marker.len(), MARKER.len());
            assert_eq!(Origin::parse(marker.as_bytes()), origin);
        }
        assert_eq!(
            Origin::parse(b"AGENTHOOKS-INSTALLED-BY:brew    "),
            Origin::Cargo
        );
        assert_eq!(Origin::parse(b"garbage"), Origin::Cargo);
        // A binary nobody rewrote is cargo's.
        assert_eq!(Origin::current(), Origin::Cargo);
        assert!(version().contains(&format!("({TARGET}, built by cargo)")));
    }

    #[test]
    fn each_origin_names_its_own_line_and_none_builds_from_a_clone() {
        let exe = Path::new("/home/u/.local/share/pipx/venvs/agenthooks/bin/agenthooks");
        assert_eq!(
            Origin::Pip.install_line(exe),
            "pipx install --force agenthooks"
        );
        assert_eq!(Origin::Pip.describe(exe), "installed by pipx");
        let exe = Path::new("/home/u/.local/share/uv/tools/agenthooks/bin/agenthooks");
        assert_eq!(
            Origin::Pip.install_line(exe),
            "uv tool install --force agenthooks"
        );
        let exe = Path::new("/tmp/venv/bin/agenthooks");
        assert_eq!(
            Origin::Pip.install_line(exe),
            "pip install --force-reinstall agenthooks"
        );
        assert_eq!(Origin::Npm.install_line(exe), "npm install -g agenthooks");
        for origin in [Origin::Archive, Origin::Cargo] {
            let line = origin.install_line(exe);
            assert!(line == INSTALL_SH || line == INSTALL_PS1, "{line}");
        }
        for line in [
            INSTALL_SH,
            INSTALL_PS1,
            NOT_INSTALLED,
            NOT_INSTALLED_WINDOWS,
        ] {
            assert!(line.contains(REPOSITORY), "{line}");
            assert!(!line.contains("--path"), "{line}");
        }
        assert!(NOT_INSTALLED.contains(INSTALL_SH));
        assert!(NOT_INSTALLED_WINDOWS.contains(INSTALL_PS1));
    }
}
