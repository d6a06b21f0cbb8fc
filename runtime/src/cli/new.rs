//! `agenthooks new NAME`: scaffold a hook crate on `agenthooks-sdk`.
//!
//! The crate is one `src/main.rs` holding a hook function, its unit tests and
//! `agenthooks_sdk::export!`, so the same source builds as a component
//! (`agenthooks build`) and as a native Claude Code command hook
//! (`cargo build --release`). It carries an empty `[workspace]` so it builds
//! on its own wherever it is created, inside another workspace too.
//!
//! It goes to `.agents/hooks/NAME/` in the project, so that `agenthooks build`
//! finds it from the component `.agents/hooks/NAME.wasm` the config names (see
//! [`super::build`]). Until `agenthooks-sdk` is published, the dependency is
//! the SDK of the checkout this binary was built from, as a path relative to
//! the crate when that checkout is the project itself.

use std::env;
use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde_json::json;

use super::build;
use crate::config;
use crate::fsread;

/// `agenthooks new`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hook's name: the crate, the binary and the component (`<NAME>.wasm`).
    pub name: String,
    /// Where to create it; default `.agents/hooks/<NAME>` in the project (the
    /// nearest directory up from here with `.agents/` or `.git`). Must not
    /// exist or be empty.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Depend on this checkout of the SDK (its `sdk/` directory); default the
    /// SDK of the checkout agenthooks was built from, when it still exists.
    #[arg(long, value_name = "DIR")]
    pub sdk_path: Option<PathBuf>,
}

/// Create the crate, list it in `.agents/hooks.json` when that file does not
/// exist yet, and print how to build and use it.
///
/// # Errors
/// An invalid name, an existing non-empty directory, or a failed write.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_name(&args.name)?;
    let cwd = env::current_dir().context("cannot read the working directory")?;
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    let root = config::project_root(Some(&cwd)).unwrap_or_else(|| cwd.clone());
    let dir = match &args.dir {
        Some(dir) => cwd.join(dir),
        None => root.join(".agents").join("hooks").join(&args.name),
    };
    fs::create_dir_all(&dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    // Canonical, so that the relative SDK path and the component's path in
    // hooks.json are computed between real locations.
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot resolve `{}`", dir.display()))?;
    let root = root.canonicalize().unwrap_or(root);
    let sdk_dir = match &args.sdk_path {
        Some(path) => Some(
            path.canonicalize()
                .with_context(|| format!("`--sdk-path {}`", path.display()))?,
        ),
        None => checkout_sdk(),
    };
    let sdk = match &sdk_dir {
        // Inside the project, a relative path travels with the repository.
        Some(sdk) if sdk.starts_with(&root) && dir.starts_with(&root) => {
            SdkSource::Path(relative(&dir, sdk))
        }
        Some(sdk) => SdkSource::Path(sdk.clone()),
        None => SdkSource::Version(env!("CARGO_PKG_VERSION").to_string()),
    };
    let files = scaffold(&dir, &args.name, &sdk)?;

    let component = build::component_of(&dir);
    let in_project = component.strip_prefix(&root).ok();
    // hooks.json names it relative to the project root when it can, so the
    // entry works in every clone.
    let listed = in_project.map_or_else(|| slash_path(&component), slash_path);
    let hooks_json = crate::dirs::hooks_file(&root);
    let entry = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "wasm", "component": listed, "timeout": 5}
    ]}]}});
    let shown = |p: &Path| match p.strip_prefix(&cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => p.display().to_string(),
    };

    let mut out = io::stdout().lock();
    writeln!(
        out,
        "created `{}`, a hook crate on agenthooks-sdk:",
        shown(&dir)
    )?;
    for file in &files {
        writeln!(out, "  {}", file.display())?;
    }
    // Only a file that does not exist is written: an existing one is the
    // user's, and its bytes are theirs.
    let added = in_project.is_some()
        && !hooks_json.exists()
        && match build::write_atomic(
            &hooks_json,
            format!("{}\n", serde_json::to_string_pretty(&entry)?).as_bytes(),
            build::Replace::No,
        ) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
            Err(e) => {
                eprintln!("agenthooks: cannot create `{}`: {e}", hooks_json.display());
                false
            }
        };
    if added {
        writeln!(
            out,
            "created `{}` with a PreToolUse entry for it (matcher `Bash`)",
            shown(&hooks_json)
        )?;
    } else {
        writeln!(
            out,
            "add it to `{}`:\n{}",
            shown(&hooks_json),
            serde_json::to_string_pretty(&entry)?
        )?;
    }
    writeln!(
        out,
        "its component: `{}` (commit it; `agenthooks build` rebuilds it)\n\n\
         edit:   {}\n\
         test:   cargo test --manifest-path {}\n\
         build:  agenthooks build {}   (once: rustup target add wasm32-wasip2)\n\
         try:    agenthooks fire PreToolUse --tool Bash --input '{{\"command\":\"git push --force\"}}'",
        shown(&component),
        shown(&dir.join("src").join("main.rs")),
        shown(&dir.join("Cargo.toml")),
        args.name,
    )?;
    drop(out);
    if let SdkSource::Version(v) = &sdk {
        eprintln!(
            "agenthooks: agenthooks-sdk {v} is not on crates.io yet and the checkout this agenthooks \
             was built from is gone, so the crate does not build as it is: in `{}` set \
             `agenthooks-sdk = {{ path = \"<a clone of agenthooks>/sdk\" }}`",
            shown(&dir.join("Cargo.toml"))
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The SDK of the checkout this binary was built from, when it is still there.
fn checkout_sdk() -> Option<PathBuf> {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?.join("sdk");
    let manifest = fsread::read_bounded_string(&sdk.join("Cargo.toml"), 1 << 20).ok()?;
    if !manifest.contains("name = \"agenthooks-sdk\"") {
        return None;
    }
    sdk.canonicalize().ok()
}

/// `to` as a path from the directory `from` (both absolute and canonical).
fn relative(from: &Path, to: &Path) -> PathBuf {
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.components().count() - common;
    let mut path: PathBuf = std::iter::repeat_n(Component::ParentDir, ups).collect();
    path.extend(to.components().skip(common));
    path
}

/// A path with `/` separators, which hooks.json and Cargo.toml read on every
/// system (a `\\` would need escaping and reads as an escape on Unix).
fn slash_path(path: &Path) -> String {
    let text = path.to_string_lossy();
    if cfg!(windows) {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// Where the scaffold takes the SDK from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SdkSource {
    /// `agenthooks-sdk = "<version>"`.
    Version(String),
    /// `agenthooks-sdk = { path = "<dir>" }`, relative to the crate or absolute.
    Path(PathBuf),
}

/// Write the crate `name` into `dir`; returns the files written, relative to `dir`.
///
/// # Errors
/// An invalid crate name, a `dir` that exists and is not empty, an SDK path
/// that is not UTF-8, or a failed write.
pub fn scaffold(dir: &Path, name: &str, sdk: &SdkSource) -> anyhow::Result<Vec<PathBuf>> {
    check_name(name)?;
    if let Ok(mut entries) = fs::read_dir(dir) {
        if entries.next().is_some() {
            bail!("`{}` already exists and is not empty", dir.display());
        }
    }
    let sdk_dep = match sdk {
        SdkSource::Version(v) => toml_string(v),
        SdkSource::Path(p) => {
            if p.to_str().is_none() {
                bail!(
                    "the SDK path `{}` is not UTF-8; Cargo.toml cannot name it",
                    p.display()
                );
            }
            format!("{{ path = {} }}", toml_string(&slash_path(p)))
        }
    };
    let files = [
        (
            "Cargo.toml",
            CARGO_TOML
                .replace("{{name}}", name)
                .replace("{{sdk}}", &sdk_dep),
        ),
        ("src/main.rs", MAIN_RS.replace("{{name}}", name)),
        (".gitignore", "/target\n".to_string()),
    ];
    let mut written = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create `{}`", parent.display()))?;
        }
        fs::write(&path, text).with_context(|| format!("cannot write `{}`", path.display()))?;
        written.push(PathBuf::from(rel));
    }
    Ok(written)
}

/// `text` as a TOML basic string. JSON's string escapes are a subset of
/// TOML's; TOML also wants DEL escaped, which JSON leaves raw.
fn toml_string(text: &str) -> String {
    serde_json::Value::from(text)
        .to_string()
        .replace('\u{7f}', "\\u007F")
}

/// A name cargo accepts for a package and a binary, and a file name everywhere.
fn check_name(name: &str) -> anyhow::Result<()> {
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 64;
    if !ok {
        bail!(
            "`{name}` is not a valid hook name: use letters, digits, `-` and `_`, starting with a letter"
        );
    }
    Ok(())
}

const CARGO_TOML: &str = r#"[package]
name = "{{name}}"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
agenthooks-sdk = {{sdk}}

[dev-dependencies]
serde_json = "1"

# Small components that compile fast in the host.
[profile.release]
opt-level = "s"
strip = true

# A crate of its own, wherever it is created.
[workspace]
"#;

const MAIN_RS: &str = r#"//! `{{name}}`: an agenthooks hook.
//!
//! The hook is the plain function below; `agenthooks_sdk::export!` makes it
//! the component's export on wasm32 and a `main` speaking Claude Code's
//! command-hook protocol (stdin to stdout) everywhere else.
//!
//! - test:      `cargo test`
//! - component: `agenthooks build {{name}}` (from the project) builds it for
//!   wasm32-wasip2 and puts it at `.agents/hooks/{{name}}.wasm`, next to this
//!   crate, where `.agents/hooks.json` names it; commit that file.
//! - command:   `cargo build --release` gives `target/release/{{name}}`, a
//!   Claude Code command hook.

use agenthooks_sdk::shell;
use agenthooks_sdk::{Answer, Event};

/// Deny `git push --force` (and `-f`); say nothing about anything else.
fn hook(event: Event) -> Answer {
    if event.name() != "PreToolUse" {
        return Answer::none();
    }
    let Some(command) = event.shell_command() else {
        return Answer::none();
    };
    let force_push = shell::commands(command).iter().any(|c| {
        let args = c.args();
        c.program() == Some("git")
            && args.first().map(String::as_str) == Some("push")
            && args.iter().any(|a| a == "--force" || a == "-f")
    });
    if force_push {
        Answer::deny("{{name}}: force-pushing rewrites shared history; push without --force")
    } else {
        Answer::none()
    }
}

agenthooks_sdk::export!(hook);

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_sdk::Permission;
    use serde_json::json;

    fn bash(command: &str) -> Event {
        Event::from_json(json!({
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }))
        .expect("a valid hook input")
    }

    #[test]
    fn denies_a_force_push() {
        let answer = hook(bash("git push --force origin main"));
        assert_eq!(answer.permission(), Some(Permission::Deny));
    }

    #[test]
    fn says_nothing_about_other_commands() {
        assert!(hook(bash("git push origin feature")).is_none());
        assert!(hook(bash("echo git push --force")).is_none());
    }
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_crate_with_the_name_and_the_sdk() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("my-hook");
        let files = scaffold(&dir, "my-hook", &SdkSource::Version("0.1.0".into())).unwrap();
        assert_eq!(
            files,
            [
                PathBuf::from("Cargo.toml"),
                PathBuf::from("src/main.rs"),
                PathBuf::from(".gitignore")
            ]
        );
        let toml = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(toml.contains("name = \"my-hook\""), "{toml}");
        assert!(toml.contains("agenthooks-sdk = \"0.1.0\""), "{toml}");
        assert!(toml.contains("\n[workspace]\n"), "{toml}");
        let main = fs::read_to_string(dir.join("src/main.rs")).unwrap();
        assert!(main.contains("agenthooks_sdk::export!(hook);"));
        assert!(main.contains("`.agents/hooks/my-hook.wasm`"));
        assert!(!main.contains("{{"), "every placeholder is filled");
    }

    #[test]
    fn a_path_sdk_is_a_path_dependency() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("h");
        scaffold(&dir, "h", &SdkSource::Path(PathBuf::from("/x/a \"b\"/sdk"))).unwrap();
        let toml = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            toml.contains(r#"agenthooks-sdk = { path = "/x/a \"b\"/sdk" }"#),
            "{toml}"
        );
    }

    #[test]
    fn a_path_is_written_as_a_valid_toml_string() {
        assert_eq!(toml_string("plain/sdk"), "\"plain/sdk\"");
        // Rust's `{:?}` would write `\u{1b}`, which TOML rejects.
        assert_eq!(
            toml_string("a\u{1b}b\u{7f}c\\d\""),
            r#""a\u001bb\u007Fc\\d\"""#
        );
    }

    #[test]
    fn a_relative_path_climbs_to_the_common_ancestor() {
        assert_eq!(
            relative(Path::new("/p/.agents/hooks/h"), Path::new("/p/sdk")),
            PathBuf::from("../../../sdk")
        );
        assert_eq!(
            relative(Path::new("/p/a"), Path::new("/p/a/b")),
            PathBuf::from("b")
        );
    }

    #[test]
    fn refuses_bad_names_and_non_empty_directories() {
        let tmp = tempfile::tempdir().unwrap();
        for bad in ["", "9lives", "a b", "../up", "x/y", "é"] {
            let err = scaffold(&tmp.path().join("d"), bad, &SdkSource::Version("0".into()));
            assert!(err.is_err(), "{bad:?}");
        }
        fs::write(tmp.path().join("file"), "x").unwrap();
        let err = scaffold(tmp.path(), "ok", &SdkSource::Version("0".into())).unwrap_err();
        assert!(
            err.to_string().ends_with("already exists and is not empty"),
            "{err}"
        );
        // An existing empty directory is fine.
        let empty = tmp.path().join("empty");
        fs::create_dir(&empty).unwrap();
        assert!(scaffold(&empty, "ok", &SdkSource::Version("0".into())).is_ok());
    }
}
