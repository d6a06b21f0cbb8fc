//! `agenthooks new NAME`: scaffold a hook crate on `agenthooks-sdk`.
//!
//! The crate is one `src/main.rs` holding a hook function, its unit tests and
//! `agenthooks_sdk::export!`, so the same source builds as a component
//! (`cargo build --release --target wasm32-wasip2`) and as a native Claude
//! Code command hook (`cargo build --release`). It carries an empty
//! `[workspace]` so it builds on its own wherever it is created, inside
//! another workspace too.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

/// `agenthooks new`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hook's name: the crate, the binary and the component (`<NAME>.wasm`).
    pub name: String,
    /// Where to create it; default `./<NAME>`. Must not exist or be empty.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Depend on a local checkout of the SDK (its `sdk/` directory) instead of
    /// the released `agenthooks-sdk`.
    #[arg(long, value_name = "DIR")]
    pub sdk_path: Option<PathBuf>,
}

/// Create the crate and print how to build and use it.
///
/// # Errors
/// An invalid name, an existing non-empty directory, or a failed write.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    let sdk = match &args.sdk_path {
        Some(path) => SdkSource::Path(
            path.canonicalize()
                .with_context(|| format!("`--sdk-path {}`", path.display()))?,
        ),
        None => SdkSource::Version(env!("CARGO_PKG_VERSION").to_string()),
    };
    let files = scaffold(&dir, &args.name, &sdk)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "created `{}`, a hook crate on agenthooks-sdk:",
        dir.display()
    )?;
    for file in &files {
        writeln!(out, "  {}", file.display())?;
    }
    let name = &args.name;
    writeln!(
        out,
        "\ntest it:   cd {dir} && cargo test\n\
         build it:  cargo build --release --target wasm32-wasip2   (rustup target add wasm32-wasip2)\n\
         use it in .agents/hooks.json:\n  \
         {{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"Bash\", \"hooks\": [\n    \
         {{\"type\": \"wasm\", \"component\": \"{dir}/target/wasm32-wasip2/release/{name}.wasm\"}}]}}]}}}}",
        dir = dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Where the scaffold takes the SDK from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SdkSource {
    /// `agenthooks-sdk = "<version>"`.
    Version(String),
    /// `agenthooks-sdk = { path = "<dir>" }`.
    Path(PathBuf),
}

/// Write the crate `name` into `dir`; returns the files written, relative to `dir`.
///
/// # Errors
/// An invalid crate name, a `dir` that exists and is not empty, or a failed write.
pub fn scaffold(dir: &Path, name: &str, sdk: &SdkSource) -> anyhow::Result<Vec<PathBuf>> {
    check_name(name)?;
    if let Ok(mut entries) = fs::read_dir(dir) {
        if entries.next().is_some() {
            bail!("`{}` already exists and is not empty", dir.display());
        }
    }
    let sdk_dep = match sdk {
        SdkSource::Version(v) => format!("\"{v}\""),
        // Debug formatting quotes and escapes the path as a TOML basic string would.
        SdkSource::Path(p) => format!("{{ path = {:?} }}", p.display().to_string()),
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
//! - component: `cargo build --release --target wasm32-wasip2`
//!   gives `target/wasm32-wasip2/release/{{name}}.wasm`; list it in
//!   `.agents/hooks.json` as `{"type": "wasm", "component": "..."}`.
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
        assert!(main.contains("release/my-hook.wasm"));
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
