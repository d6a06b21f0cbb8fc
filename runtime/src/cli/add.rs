//! `agenthooks add NAME|oci://REF`: add a hook to the project's
//! `.agents/hooks.json` without editing JSON by hand.
//!
//! - `NAME` is a guard of the vetted library shipped inside agenthooks
//!   ([`crate::guards`]): its component is written to `.agents/hooks/`
//!   (commit it) and a handler for it is merged into hooks.json, under the
//!   guard's event and matcher (or `--matcher`).
//! - `oci://host/repo:tag` (or `@sha256:…`) is merged as a `wasm` handler
//!   naming the reference, then `agenthooks pull` pins it in
//!   `hooks.lock.json` and downloads it.
//! - `--list` shows the library.
//!
//! The merge keeps every other byte of the file (`config::edit`); adding the
//! same hook twice changes nothing.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use crate::config::edit::{self, Added};
use crate::guards::{self, Guard, LIBRARY};

/// `agenthooks add`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A guard of the library (see `--list`) or an `oci://` reference.
    #[arg(required_unless_present = "list")]
    pub what: Option<String>,
    /// The tools it applies to (a matcher: `Bash`, `Write|Edit`, a regex);
    /// default the guard's own, or every tool for an `oci://` component.
    #[arg(long)]
    pub matcher: Option<String>,
    /// The event an `oci://` component runs on.
    #[arg(long, default_value = "PreToolUse")]
    pub event: String,
    /// Show the library of vetted guards.
    #[arg(long)]
    pub list: bool,
    /// No progress on the terminal (pulling an `oci://` component).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Add the hook, or list the library.
///
/// # Errors
/// When stdout cannot be written or the working directory cannot be read.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    if args.list {
        list(&mut out)?;
        return Ok(ExitCode::from(super::EXIT_OK));
    }
    let what = args.what.as_deref().unwrap_or_default();
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let root = crate::config::project_root(Some(&cwd)).unwrap_or(cwd);
    let hooks_json = crate::dirs::hooks_file(&root);
    if what.starts_with("oci://") {
        return add_oci(&mut out, &hooks_json, what, &args);
    }
    let Some(guard) = guards::find(what) else {
        let names = LIBRARY.iter().map(|g| g.name);
        let hint = crate::suggest::did_you_mean(what, names);
        crate::cli::report::say!(
            "`{}` is not a guard of the library{hint} (see `agenthooks add --list`, \
             or give an `oci://` reference)",
            what.chars().take(80).collect::<String>()
        );
        return Ok(ExitCode::from(super::EXIT_ERROR));
    };
    if let Err(why) = place_component(&root, guard) {
        crate::cli::report::say!("{why}");
        return Ok(ExitCode::from(super::EXIT_ERROR));
    }
    let matcher = args.matcher.as_deref().unwrap_or(guard.matcher);
    let merged = merge(
        &mut out,
        &hooks_json,
        guard.event,
        Some(matcher),
        &guard.handler(),
        guard.name,
    )?;
    Ok(ExitCode::from(if merged {
        super::EXIT_OK
    } else {
        super::EXIT_ERROR
    }))
}

fn list(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "vetted guards (`agenthooks add NAME`):")?;
    for g in LIBRARY {
        writeln!(
            out,
            "  {:<22} {} on {} `{}`\n  {:<22} configure: {}",
            g.name, g.about, g.event, g.matcher, "", g.config
        )?;
    }
    Ok(())
}

/// Write the guard's component to `.agents/hooks/`, unless the same bytes
/// are there; another file of that name is the user's and is not replaced.
fn place_component(root: &Path, guard: &Guard) -> Result<(), String> {
    let path = root.join(guard.component_path());
    match crate::fsread::read_bounded(&path, crate::fsread::caps::COMPONENT) {
        Ok(bytes) if bytes == guard.wasm => return Ok(()),
        Ok(_) => {
            return Err(format!(
            "`{}` exists and is not this agenthooks' `{}` guard; move it away to add the guard, \
                 or keep it and add it to hooks.json yourself",
            path.display(),
            guard.name
        ))
        }
        Err(crate::fsread::ReadError::NotFound { .. }) => {}
        Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    }
    crate::atomic::write(&path, guard.wasm, false)
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

fn add_oci(
    out: &mut impl Write,
    hooks_json: &Path,
    reference: &str,
    args: &Args,
) -> anyhow::Result<ExitCode> {
    if let Err(e) = crate::oci::OciRef::parse(reference) {
        crate::cli::report::say!("{e}");
        return Ok(ExitCode::from(super::EXIT_ERROR));
    }
    let handler = serde_json::json!({"type": "wasm", "component": reference, "timeout": 5});
    let merged = merge(
        out,
        hooks_json,
        &args.event,
        args.matcher.as_deref(),
        &handler,
        reference,
    )?;
    if !merged {
        return Ok(ExitCode::from(super::EXIT_ERROR));
    }
    out.flush()?;
    // Pin it in hooks.lock.json and download it, as `agenthooks pull` does.
    super::oci::pull(super::oci::PullArgs { quiet: args.quiet })
}

/// Merge `handler` into `hooks_json` and say what happened; whether it is
/// there now (a failure is said on stderr).
fn merge(
    out: &mut impl Write,
    hooks_json: &Path,
    event: &str,
    matcher: Option<&str>,
    handler: &serde_json::Value,
    what: &str,
) -> anyhow::Result<bool> {
    let on = match matcher {
        Some(m) => format!("{event} `{m}`"),
        None => event.to_string(),
    };
    match edit::add_handler(hooks_json, event, matcher, handler) {
        Ok(Added::AlreadyThere) => writeln!(
            out,
            "`{what}` is already in `{}` on {on}; nothing changed",
            hooks_json.display()
        )?,
        Ok(added) => {
            writeln!(
                out,
                "{} `{}`: `{what}` on {on}",
                if added == Added::Created {
                    "created"
                } else {
                    "added to"
                },
                hooks_json.display()
            )?;
            if let Some(c) = handler["component"].as_str().filter(|c| !c.contains("://")) {
                writeln!(
                    out,
                    "commit `{c}` with it; a teammate runs `agenthooks trust` once"
                )?;
            }
        }
        Err(why) => {
            crate::cli::report::say!("{why}");
            return Ok(false);
        }
    }
    Ok(true)
}
