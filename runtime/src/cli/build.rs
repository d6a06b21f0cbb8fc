//! `agenthooks build [NAME...]`: build the hook crates the configs refer to,
//! put each component where `hooks.json` says, and precompile it.
//!
//! One convention ties a component to its source: the component
//! `DIR/NAME.wasm` is built from the crate in `DIR/NAME/` (what `agenthooks
//! new` creates), so `hooks.json` stays Claude Code's format plus nothing. A
//! component without such a crate (built elsewhere, or by another toolchain)
//! is left as it is.
//!
//! The crate is built by `cargo build --release --target wasm32-wasip2` run in
//! its directory (so its own `.cargo/config.toml` counts), and the component
//! is found in cargo's JSON messages, never at a guessed `target/` path: a
//! `CARGO_TARGET_DIR`, a `build.target-dir` or an enclosing workspace all move
//! it. The component replaces the configured file atomically, then is
//! compiled into the compile cache, so the first event runs warm.
//!
//! Built components are meant to be committed: a teammate's clone runs them
//! without a Rust toolchain, and reviews a change to one like a lockfile's.

use std::env;
use std::fs;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::Context as _;
use serde_json::Value;

use super::lang::{crate_of, Lang};
use super::{report, EXIT_ERROR, EXIT_FINDING, EXIT_OK};
use crate::atomic;
use crate::config;
use crate::exec::wasm::{CacheStatus, WasmHost};
use crate::fsread::{self, caps};

/// The target every hook component is built for.
const TARGET: &str = "wasm32-wasip2";

/// `agenthooks build`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these hooks, by component name (`NAME` for `.agents/hooks/NAME.wasm`);
    /// every configured component that has a crate when omitted.
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// No progress on the terminal (cargo and the language toolchains still print theirs).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Whether `agenthooks build` builds `component`: a crate of a language it
/// knows sits at [`crate_of`] it.
pub fn buildable(component: &Path) -> bool {
    crate_of(component).is_some_and(|dir| Lang::of(&dir).is_some())
}

/// Build, copy and precompile each configured component that has a crate;
/// one line per component.
///
/// Exits 0 when every one built, 1 when one failed or a hooks.json has an
/// error, 2 when a `NAME` matches no configured component.
///
/// # Errors
/// No working directory, or a closed stdout.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = env::current_dir().context("cannot read the working directory")?;
    let root = config::project_root(Some(&cwd));
    let (components, broken) = super::compile::configured(root.clone(), true);
    let stem = |c: &Path| c.file_stem().map(|s| s.to_string_lossy().into_owned());
    let unknown: Vec<&String> = args
        .names
        .iter()
        .filter(|n| {
            !components
                .iter()
                .any(|c| stem(c).as_deref() == Some(n.as_str()))
        })
        .collect();
    if !unknown.is_empty() {
        for name in unknown {
            crate::cli::report::say!(
                "build: no wasm handler in hooks.json names a component `{name}.wasm`; \
                 add one (`agenthooks new {name}` prints it)"
            );
        }
        return Ok(ExitCode::from(EXIT_ERROR));
    }
    let shown = |p: &Path| {
        let base = root.as_deref().unwrap_or(&cwd);
        p.strip_prefix(base).unwrap_or(p).display().to_string()
    };

    let mut out = io::stdout().lock();
    // A file that cannot be read or parsed may hide hooks to build.
    let mut failed = broken;
    let mut built = 0;
    for component in &components {
        let named = args.names.is_empty()
            || args
                .names
                .iter()
                .any(|n| stem(component).as_deref() == Some(n.as_str()));
        if !named {
            continue;
        }
        let source = crate_of(component).and_then(|dir| Some((Lang::of(&dir)?, dir)));
        let Some((lang, krate)) = source else {
            if args.names.is_empty() {
                writeln!(
                    out,
                    "{}: no crate at `{}/`; left as it is",
                    shown(component),
                    shown(&component.with_extension(""))
                )?;
            } else {
                failed = true;
                writeln!(
                    out,
                    "{}: failed: no crate at `{}/` to build it from (a Cargo.toml, hook.py or hook.js there)",
                    shown(component),
                    shown(&component.with_extension(""))
                )?;
            }
            continue;
        };
        // Cargo's own progress and errors go to stderr as they happen.
        out.flush()?;
        let result = match lang {
            Lang::Rust => build_one(&krate, component),
            lang => build_lang(&krate, lang, component),
        };
        match result {
            Ok(size) => {
                built += 1;
                let (precompiled, loads) = precompile(component, args.quiet, &shown);
                failed |= !loads;
                writeln!(
                    out,
                    "{}: built from `{}/`, {} KiB; {precompiled}",
                    shown(component),
                    shown(&krate),
                    size.div_ceil(1024)
                )?;
            }
            Err(why) => {
                failed = true;
                writeln!(out, "{}: failed: {why:#}", shown(component))?;
            }
        }
    }
    if components.is_empty() {
        writeln!(
            out,
            "no wasm hooks configured in hooks.json; nothing to build (`agenthooks new NAME` starts one)"
        )?;
    } else if built == 0 && !failed {
        writeln!(out, "no hook crate to build")?;
    }
    Ok(ExitCode::from(if failed { EXIT_FINDING } else { EXIT_OK }))
}

/// Precompile the built `component` into the cache (with a progress line
/// unless `quiet`), its loading notes on stderr: what to say of it, and
/// whether it loads.
fn precompile(component: &Path, quiet: bool, shown: &impl Fn(&Path) -> String) -> (String, bool) {
    let progress =
        super::progress::Progress::start(quiet, format!("precompiling `{}`", shown(component)));
    let (result, notes) = WasmHost::global().compile(component);
    drop(progress);
    for note in notes {
        eprintln!("{}", report::note_line(&note));
    }
    match result {
        Ok(c) => (
            match c.status {
                CacheStatus::Hit => "already in the compile cache".to_string(),
                CacheStatus::Compiled => format!(
                    "compiled into the cache in {:.0} ms",
                    c.duration.as_secs_f64() * 1e3
                ),
                CacheStatus::CompiledUncached => {
                    "compiled, but the cache could not keep it".to_string()
                }
            },
            true,
        ),
        Err(failure) => (format!("but it does not load: {failure}"), false),
    }
}

/// Build the Python or JavaScript hook in `dir` with its toolchain, and put
/// its component at `component`; its size.
fn build_lang(dir: &Path, lang: Lang, component: &Path) -> anyhow::Result<usize> {
    // Beside the component, so the rename onto it stays on one filesystem.
    let out = component.with_extension("wasm.building");
    let (program, mut command) = match lang {
        Lang::Python => {
            let mut c = Command::new("componentize-py");
            c.args([
                "-d",
                "wit",
                "-w",
                "hook",
                "componentize",
                "-p",
                ".",
                "hook",
                "-o",
            ]);
            ("componentize-py", c)
        }
        Lang::Js | Lang::Rust => {
            let local = dir.join("node_modules/.bin/componentize-js");
            let mut c = Command::new(if local.is_file() {
                local.into_os_string()
            } else {
                "componentize-js".into()
            });
            c.args(["hook.js", "--wit", "wit", "--world-name", "hook"])
                .args(["--disable", "http", "--disable", "fetch-event", "-o"]);
            ("componentize-js", c)
        }
    };
    let install = match lang {
        Lang::Python => "pip install -r requirements.txt",
        _ => "npm install",
    };
    let status = command
        .arg(&out)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .with_context(|| {
            format!(
                "cannot run `{program}`; install it: `{install}` in `{}`",
                dir.display()
            )
        })?;
    let result = if status.success() {
        put_component(&out, component)
    } else {
        Err(anyhow::anyhow!(
            "`{program}` failed ({status}; its errors are above)"
        ))
    };
    // The scratch output is ours to remove; one left behind is named, not hidden.
    if out.exists() {
        if let Err(e) = fs::remove_file(&out) {
            crate::cli::report::say!("build: cannot remove `{}`: {e}", out.display());
        }
    }
    result
}

/// Build the crate in `krate` and put its component at `component`; its size.
fn build_one(krate: &Path, component: &Path) -> anyhow::Result<usize> {
    let manifest = krate.join("Cargo.toml");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut child = Command::new(&cargo)
        .args(["build", "--release", "--target", TARGET])
        .arg("--message-format=json-render-diagnostics")
        .arg("--manifest-path")
        .arg(&manifest)
        .current_dir(krate)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| {
            format!(
                "cannot run `{}`; is Rust installed (https://rustup.rs)?",
                Path::new(&cargo).display()
            )
        })?;
    let stdout = child.stdout.take().context("cargo's stdout")?;
    // Cargo's progress and errors still reach the terminal as they come;
    // the first error is kept to name the cause in the one failure line.
    let stderr = child.stderr.take().context("cargo's stderr")?;
    let first_error = std::thread::spawn(move || first_error_line(stderr, &mut io::stderr()));
    let manifest = manifest.canonicalize().unwrap_or(manifest);
    let want = krate
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut bins = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.context("reading cargo's messages")?;
        if let Some(bin) = artifact(&line, &manifest) {
            bins.push(bin);
        }
    }
    let status = child.wait().context("waiting for cargo")?;
    let first_error = first_error.join().ok().flatten();
    if !status.success() {
        anyhow::bail!("{}", cargo_failure(first_error.as_deref()));
    }
    let built = match bins.as_slice() {
        [(_, path)] => path.clone(),
        _ => bins
            .iter()
            .find(|(name, _)| *name == want)
            .map(|(_, path)| path.clone())
            .with_context(|| {
                format!(
                    "the crate builds {} binaries and none is named `{want}`; \
                     name the hook's binary like its directory",
                    bins.len()
                )
            })?,
    };
    put_component(&built, component)
}

/// Copy `stderr` to `out` line by line, and give its first line that is an
/// error (`error: ...`, `error[E0425]: ...`), or the note that the target
/// is not installed, cut to one bounded line.
fn first_error_line(stderr: impl io::Read, out: &mut impl Write) -> Option<String> {
    // A build script may print a line of any length: it is read in pieces
    // of at most this many bytes, each copied and looked at on its own.
    const LINE_CAP: u64 = 64 << 10;
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    let mut first = None;
    loop {
        buf.clear();
        match io::Read::take(&mut reader, LINE_CAP).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches(['\n', '\r']);
        let _ = writeln!(out, "{line}");
        // A missing target is the cause whatever error rustc gives first.
        let missing_target = line.contains("target may not be installed");
        if missing_target || (first.is_none() && line.trim_start().starts_with("error")) {
            first = Some(crate::protocol::one_line(line.trim()));
        }
    }
    first
}

/// The failure line of a cargo build, naming its first error when there is one.
fn cargo_failure(first_error: Option<&str>) -> String {
    let build = format!("`cargo build --release --target {TARGET}` failed");
    match first_error {
        Some(e) if e.contains(TARGET) && e.contains("may not be installed") => {
            format!(
                "{build}: the {TARGET} target is not installed; run `rustup target add {TARGET}`"
            )
        }
        Some(e) => format!("{build}: {e} (the whole output is above)"),
        None => format!(
            "{build} (its errors are above; `rustup target add {TARGET}` if the target is missing)"
        ),
    }
}

/// Copy the freshly built `built` onto `component` atomically; its size.
fn put_component(built: &Path, component: &Path) -> anyhow::Result<usize> {
    let bytes = fsread::read_bounded(built, caps::COMPONENT)?;
    let dir = component.parent().filter(|d| !d.as_os_str().is_empty());
    dir.map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| atomic::write(component, &bytes, false))
        .with_context(|| format!("cannot write `{}`", component.display()))?;
    Ok(bytes.len())
}

/// A binary of the package at `manifest` from one line of cargo's JSON
/// messages: its name and the `.wasm` file.
fn artifact(line: &str, manifest: &Path) -> Option<(String, PathBuf)> {
    let msg: Value = serde_json::from_str(line).ok()?;
    if msg["reason"] != "compiler-artifact" {
        return None;
    }
    let from = Path::new(msg["manifest_path"].as_str()?);
    if from != manifest && from.canonicalize().ok().as_deref() != Some(manifest) {
        return None;
    }
    let target = &msg["target"];
    if !target["kind"].as_array()?.iter().any(|k| k == "bin") {
        return None;
    }
    let file = msg["filenames"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|f| f.ends_with(".wasm"))?;
    Some((target["name"].as_str()?.to_string(), PathBuf::from(file)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_artifact_is_the_bin_of_this_package_from_cargos_messages() {
        let manifest = Path::new("/p/.agents/hooks/guard/Cargo.toml");
        let msg = |manifest: &str, kind: &str, file: &str| {
            serde_json::json!({
                "reason": "compiler-artifact",
                "manifest_path": manifest,
                "target": {"kind": [kind], "name": "guard"},
                "filenames": [file],
            })
            .to_string()
        };
        let wasm = "/elsewhere/wasm32-wasip2/release/guard.wasm";
        assert_eq!(
            artifact(
                &msg("/p/.agents/hooks/guard/Cargo.toml", "bin", wasm),
                manifest
            ),
            Some(("guard".to_string(), PathBuf::from(wasm)))
        );
        // A dependency's library, another package's binary, another message.
        assert_eq!(
            artifact(
                &msg(
                    "/p/.agents/hooks/guard/Cargo.toml",
                    "lib",
                    "/x/libguard.rlib"
                ),
                manifest
            ),
            None
        );
        assert_eq!(artifact(&msg("/q/Cargo.toml", "bin", wasm), manifest), None);
        assert_eq!(
            artifact(r#"{"reason":"build-finished","success":true}"#, manifest),
            None
        );
        assert_eq!(artifact("not json", manifest), None);
    }

    #[test]
    fn a_failed_cargo_build_names_its_first_error() {
        let stderr = "   Compiling x v0.1.0\nerror: failed to load manifest for dependency `agenthooks-sdk`\n\nCaused by:\n  No such file\nerror: later\n";
        let mut copied = Vec::new();
        let first = first_error_line(stderr.as_bytes(), &mut copied);
        assert_eq!(
            copied,
            stderr.as_bytes(),
            "cargo's output reaches the terminal whole"
        );
        let line = cargo_failure(first.as_deref());
        assert!(
            line.ends_with("failed: error: failed to load manifest for dependency `agenthooks-sdk` (the whole output is above)"),
            "{line}"
        );
        let missing = format!("error[E0463]: can't find crate for `core`\n  = note: the `{TARGET}` target may not be installed\n");
        let first = first_error_line(missing.as_bytes(), &mut Vec::new());
        let line = cargo_failure(first.as_deref());
        assert!(
            line.contains(&format!("run `rustup target add {TARGET}`")),
            "{line}"
        );
        assert!(cargo_failure(None).contains("its errors are above"));
    }

    #[test]
    fn a_line_of_any_length_is_read_in_bounded_pieces() {
        // A build script's 1 MiB line: copied whole (in pieces), and the
        // error after it still found.
        let long = "x".repeat(1 << 20);
        let stderr = format!("{long}\nerror: the real one\n");
        let mut copied = Vec::new();
        let first = first_error_line(stderr.as_bytes(), &mut copied);
        assert_eq!(first.as_deref(), Some("error: the real one"));
        let pieces = String::from_utf8(copied).unwrap();
        assert_eq!(
            pieces.replace('\n', ""),
            format!("{long}error: the real one")
        );
        assert!(pieces.lines().all(|l| l.len() <= 64 << 10));
    }
}
