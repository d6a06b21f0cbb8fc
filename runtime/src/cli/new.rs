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

use super::lang::{component_of, Lang};
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
    /// The hook's language: a Rust crate on agenthooks-sdk, or a Python
    /// (componentize-py) or JavaScript (componentize-js) project with the
    /// helpers file beside it.
    #[arg(long, value_enum, default_value_t = Lang::Rust)]
    pub lang: Lang,
}

/// Create the crate, add it to the project's `.agents/hooks.json` (created or
/// merged into, the rest of the file kept), and print how to build and use it.
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
    let sdk = sdk_source(args.sdk_path.as_deref(), &dir, &root)?;
    let files = match args.lang {
        Lang::Rust => scaffold(&dir, &args.name, &sdk)?,
        lang => scaffold_lang(&dir, &args.name, lang)?,
    };

    let component = component_of(&dir);
    let in_project = component.strip_prefix(&root).ok();
    // hooks.json names it relative to the project root when it can, so the
    // entry works in every clone.
    let listed = in_project.map_or_else(|| slash_path(&component), slash_path);
    let hooks_json = crate::dirs::hooks_file(&root);
    let shown = |p: &Path| match p.strip_prefix(&cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => p.display().to_string(),
    };

    let mut out = io::stdout().lock();
    writeln!(
        out,
        "created `{}`, {}:",
        shown(&dir),
        match args.lang {
            Lang::Rust => "a hook crate on agenthooks-sdk",
            Lang::Python => "a Python hook (componentize-py)",
            Lang::Js => "a JavaScript hook (componentize-js)",
        }
    )?;
    for file in &files {
        writeln!(out, "  {}", file.display())?;
    }
    let handler = json!({"type": "wasm", "component": listed, "timeout": 5});
    list_in_hooks_json(
        &mut out,
        in_project.is_some(),
        &hooks_json,
        &handler,
        &shown,
    )?;
    let (edit, test, once) = next_steps(args.lang, &dir, &shown);
    writeln!(
        out,
        "its component: `{}` (commit it; `agenthooks build` rebuilds it)\n\n\
         edit:   {edit}\n\
         test:   {test}\n\
         build:  agenthooks build {}   (once: {once})\n\
         try:    agenthooks fire PreToolUse --tool Bash --input '{{\"command\":\"git push --force\"}}'",
        shown(&component),
        args.name,
    )?;
    drop(out);
    if let (Lang::Rust, SdkSource::Version(v)) = (args.lang, &sdk) {
        crate::cli::report::say!(
            "agenthooks-sdk {v} is not on crates.io yet and the checkout this agenthooks \
             was built from is gone, so the crate does not build as it is: in `{}` set \
             `agenthooks-sdk = {{ path = \"<a clone of agenthooks>/sdk\" }}`",
            shown(&dir.join("Cargo.toml"))
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the scaffold's Rust crate finds agenthooks-sdk: `sdk_path`, else
/// the checkout this binary was built from (relative inside the project, so
/// it travels with the repository), else the crates.io version.
fn sdk_source(sdk_path: Option<&Path>, dir: &Path, root: &Path) -> anyhow::Result<SdkSource> {
    let sdk_dir = match sdk_path {
        Some(path) => Some(
            path.canonicalize()
                .with_context(|| format!("`--sdk-path {}`", path.display()))?,
        ),
        None => checkout_sdk(),
    };
    Ok(match &sdk_dir {
        // Inside the project, a relative path travels with the repository.
        Some(sdk) if sdk.starts_with(root) && dir.starts_with(root) => {
            SdkSource::Path(relative(dir, sdk))
        }
        Some(sdk) => SdkSource::Path(sdk.clone()),
        None => SdkSource::Version(env!("CARGO_PKG_VERSION").to_string()),
    })
}

/// Merges the hook's entry (`handler` under PreToolUse, matcher `Bash`) into
/// the project's `hooks_json` (created if need be, every other byte kept)
/// and says so; a component outside the project (`!in_project`) is the
/// user's to list, and a failed merge prints the entry to add by hand.
fn list_in_hooks_json(
    out: &mut impl Write,
    in_project: bool,
    hooks_json: &Path,
    handler: &serde_json::Value,
    shown: &impl Fn(&Path) -> String,
) -> anyhow::Result<()> {
    let entry = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}});
    let merged = in_project
        .then(|| crate::config::edit::add_handler(hooks_json, "PreToolUse", Some("Bash"), handler));
    match merged {
        Some(Ok(added)) => writeln!(
            out,
            "{} `{}`: a PreToolUse entry for it (matcher `Bash`)",
            match added {
                crate::config::edit::Added::Created => "created",
                crate::config::edit::Added::Merged => "added to",
                crate::config::edit::Added::AlreadyThere => "already in",
            },
            shown(hooks_json)
        )?,
        Some(Err(why)) => {
            crate::cli::report::say!("{why}");
            writeln!(
                out,
                "add it to `{}` yourself:\n{}",
                shown(hooks_json),
                serde_json::to_string_pretty(&entry)?
            )?;
        }
        None => writeln!(
            out,
            "add it to `{}`:\n{}",
            shown(hooks_json),
            serde_json::to_string_pretty(&entry)?
        )?,
    }
    Ok(())
}

/// The file to edit, the command that tests it and the one-time setup, for
/// the last lines of `new`'s output.
fn next_steps(
    lang: Lang,
    dir: &Path,
    shown: &impl Fn(&Path) -> String,
) -> (String, String, String) {
    match lang {
        Lang::Rust => (
            shown(&dir.join("src").join("main.rs")),
            format!(
                "cargo test --manifest-path {}",
                shown(&dir.join("Cargo.toml"))
            ),
            "rustup target add wasm32-wasip2".to_string(),
        ),
        Lang::Python => (
            shown(&dir.join("hook.py")),
            format!("cd {} && python3 -m pytest", shown(dir)),
            format!("pip install -r {}", shown(&dir.join("requirements.txt"))),
        ),
        Lang::Js => (
            shown(&dir.join("hook.js")),
            format!("cd {} && npm test", shown(dir)),
            format!("cd {} && npm install", shown(dir)),
        ),
    }
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
    check_empty(dir)?;
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
    write_files(dir, files)
}

/// The Python helpers, as `sdk/python/agenthooks.py` (a test keeps every copy equal).
pub const PYTHON_SDK: &str = include_str!("../../embedded/sdk/agenthooks.py");
/// The JavaScript helpers, as `sdk/js/agenthooks.js` (a test keeps every copy equal).
pub const JS_SDK: &str = include_str!("../../embedded/sdk/agenthooks.js");
/// The `hook` world the Python and JavaScript toolchains build against.
const HOOK_WIT: &str = include_str!("../../embedded/wit/hook.wit");

/// Events recorded from Claude Code, for the scaffold's native tests.
const EVENTS: [(&str, &str); 2] = [
    (
        "events/force-push.json",
        include_str!("templates/events/force-push.json"),
    ),
    (
        "events/plain-push.json",
        include_str!("templates/events/plain-push.json"),
    ),
];

/// The files of a Python or JavaScript hook, relative to its directory.
fn lang_files(lang: Lang) -> Vec<(&'static str, &'static str)> {
    let mut files = match lang {
        Lang::Rust => Vec::new(),
        Lang::Python => vec![
            ("hook.py", include_str!("templates/python/hook.py")),
            (
                "test_hook.py",
                include_str!("templates/python/test_hook.py"),
            ),
            (
                "requirements.txt",
                include_str!("templates/python/requirements.txt"),
            ),
            ("agenthooks.py", PYTHON_SDK),
            (".gitignore", "__pycache__/\n"),
        ],
        Lang::Js => vec![
            ("hook.js", include_str!("templates/js/hook.js")),
            ("hook.test.js", include_str!("templates/js/hook.test.js")),
            ("package.json", include_str!("templates/js/package.json")),
            ("agenthooks.js", JS_SDK),
            (".gitignore", "node_modules/\n"),
        ],
    };
    files.extend(EVENTS);
    files.push(("wit/hook.wit", HOOK_WIT));
    files
}

/// Write the Python or JavaScript hook `name` into `dir`: the hook, its test
/// against recorded events, the helpers file, the WIT and the pinned
/// toolchain; returns the files written, relative to `dir`.
///
/// # Errors
/// An invalid name, a `dir` that exists and is not empty, or a failed write.
pub fn scaffold_lang(dir: &Path, name: &str, lang: Lang) -> anyhow::Result<Vec<PathBuf>> {
    check_name(name)?;
    check_empty(dir)?;
    let files = lang_files(lang)
        .into_iter()
        .map(|(rel, text)| (rel, text.replace("{{name}}", name)));
    write_files(dir, files)
}

/// Refuse a directory that exists and is not empty: its files are the user's.
fn check_empty(dir: &Path) -> anyhow::Result<()> {
    if let Ok(mut entries) = fs::read_dir(dir) {
        if entries.next().is_some() {
            bail!("`{}` already exists and is not empty", dir.display());
        }
    }
    Ok(())
}

/// Write `files` (relative path, text) under `dir`; the paths written.
fn write_files(
    dir: &Path,
    files: impl IntoIterator<Item = (&'static str, String)>,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create `{}`", parent.display()))?;
        }
        crate::atomic::write(&path, text.as_bytes(), false)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
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
        let (_tmp, dir) = crate::fsread::temp_path("my-hook");
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

    #[test]
    fn python_and_js_hooks_get_their_files_filled_in() {
        for (lang, hook, sdk) in [
            (Lang::Python, "hook.py", "agenthooks.py"),
            (Lang::Js, "hook.js", "agenthooks.js"),
        ] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("guard");
            assert_eq!(Lang::of(&dir), None);
            let files = scaffold_lang(&dir, "guard", lang).unwrap();
            assert_eq!(Lang::of(&dir), Some(lang), "build finds it");
            for want in [hook, sdk, "events/force-push.json", "wit/hook.wit"] {
                assert!(files.contains(&PathBuf::from(want)), "{lang:?}: {want}");
            }
            for file in &files {
                let text = fs::read_to_string(dir.join(file)).unwrap();
                assert!(!text.contains("{{name}}"), "{lang:?}: {}", file.display());
            }
            let text = fs::read_to_string(dir.join(hook)).unwrap();
            assert!(text.contains("guard: force-pushing"), "{text}");
            assert!(
                scaffold_lang(&dir, "guard", lang).is_err(),
                "not over a hook"
            );
        }
    }

    /// The helpers are one file per language: the copies beside the examples
    /// are byte for byte the embedded ones.
    #[test]
    fn the_helper_copies_in_the_repository_do_not_drift() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for (copy, embedded) in [
            ("guest-examples/python/agenthooks.py", PYTHON_SDK),
            ("guest-examples/js/agenthooks.js", JS_SDK),
        ] {
            let text = fs::read_to_string(repo.join(copy)).unwrap();
            assert!(
                text == embedded,
                "`{copy}` differs from `sdk/`: copy `sdk/` over it"
            );
        }
    }

    /// Same vocabulary as the Rust SDK, and every field of the WIT's answer.
    #[test]
    fn the_helpers_speak_the_rust_sdks_vocabulary_and_the_wit() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let camel = |snake: &str| {
            let mut out = String::new();
            let mut up = false;
            for c in snake.chars() {
                match c {
                    '_' => up = true,
                    c if up => {
                        out.extend(c.to_uppercase());
                        up = false;
                    }
                    c => out.push(c),
                }
            }
            out
        };
        let mut names = Vec::new();
        for file in ["sdk/src/answer.rs", "sdk/src/event.rs"] {
            let text = fs::read_to_string(repo.join(file)).unwrap();
            names.extend(text.lines().filter_map(|l| {
                let rest = l.trim().strip_prefix("pub fn ")?;
                Some(rest[..rest.find(['(', '<'])?].to_string())
            }));
        }
        // Rust-only spellings: typed access the dynamic languages do by field.
        let rust_only = [
            "from_json_str",
            "tool_input_as",
            "as_str",
            "to_claude_json",
            "parse",
            "of",
            "permission",
            "is_block",
            "reason",
            "additional_context",
            "updated_input",
            "system_message",
            "continue_",
            "stop_reason",
            "extra",
            "name",
            "harness",
            "tool_name",
            "tool_kind",
            "session_id",
            "cwd",
            "input",
        ];
        for name in names.iter().filter(|n| !rust_only.contains(&n.as_str())) {
            assert!(
                PYTHON_SDK.contains(&format!("def {name}(")),
                "agenthooks.py lacks `{name}`"
            );
            let js = camel(name);
            assert!(
                JS_SDK.contains(&format!("  {js}(")) || JS_SDK.contains(&format!("static {js}(")),
                "agenthooks.js lacks `{js}`"
            );
        }
        assert!(names.len() > 20, "{names:?}");
        let answer = HOOK_WIT
            .split("record answer {")
            .nth(1)
            .and_then(|r| r.split('}').next())
            .unwrap();
        for field in answer.lines().filter_map(|l| {
            let l = l.trim().trim_start_matches('%');
            (!l.starts_with("//")).then(|| l.split(':').next())?
        }) {
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            let snake = field.replace('-', "_");
            let snake = if snake == "continue" {
                "continue_".into()
            } else {
                snake
            };
            assert!(
                PYTHON_SDK.contains(&format!("{snake}=")),
                "to_wit lacks `{field}`"
            );
            let js = camel(&field.replace('-', "_"));
            assert!(
                JS_SDK.contains(&format!("      {js}:")),
                "toWit lacks `{field}`"
            );
        }
    }
}
