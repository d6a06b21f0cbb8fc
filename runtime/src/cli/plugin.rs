//! `agenthooks plugin <AGENT> [--out DIR]`: write a plugin (or extension)
//! directory the agent loads with its own plugin command, whose hooks call
//! `agenthooks run --agent <AGENT>` for the events the hooks use: a way into
//! an agent that edits none of its settings files.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use crate::install::plugin_dir;
use crate::install::{Env, Used};

/// `agenthooks plugin`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent whose plugin to write (one that loads plugins with hooks;
    /// any other is refused with one line).
    #[arg(value_name = "AGENT")]
    pub agent: String,
    /// The directory to write it in (default `agenthooks-<AGENT>-plugin`);
    /// created if missing, and refused when it holds files of its own.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Call this binary by its absolute path (by default the plugin calls
    /// `agenthooks` from `PATH`, so it works on every machine that has it).
    #[arg(long)]
    pub absolute: bool,
}

/// Run `agenthooks plugin`.
///
/// # Errors
/// An unknown agent, an agent without plugins, a directory in the way, or
/// a failed write.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(agent) = crate::agents::find(&args.agent) else {
        bail!(
            "unknown agent `{}`; `agenthooks agents` lists them",
            crate::protocol::one_line(&args.agent)
        );
    };
    let layout = plugin_dir::layout(agent).map_err(anyhow::Error::msg)?;
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let env = Env::from_process()?;
    let config = crate::config::load(&crate::config::LoadOptions {
        home: Some(env.home.clone()),
        project_root: Some(crate::install::project_root(&cwd)),
    });
    let binary = if args.absolute {
        crate::dirs::front_exe().context("cannot find this binary's path")?
    } else {
        PathBuf::from(plugin_dir::PLUGIN_NAME)
    };
    let files =
        plugin_dir::files(agent, &binary, &Used::of(&config)).map_err(anyhow::Error::msg)?;
    let dir = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("agenthooks-{}-plugin", agent.id())));
    refuse_foreign_files(&dir, &files)?;
    for (rel, text) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create `{}`", parent.display()))?;
        }
        crate::atomic::write(&path, text.as_bytes(), false)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: wrote the plugin in `{}`",
        agent.id(),
        dir.display()
    )?;
    let load = layout.load.replace("{dir}", &dir.display().to_string());
    writeln!(out, "{}: load it with: {load}", agent.id())?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses a directory that holds anything but the plugin's own files (so a
/// typo in `--out` never writes into a project).
fn refuse_foreign_files(dir: &std::path::Path, files: &[(PathBuf, String)]) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let ours: Vec<_> = files
        .iter()
        .filter_map(|(rel, _)| rel.components().next())
        .map(|c| c.as_os_str().to_os_string())
        .collect();
    for e in entries.flatten().take(1024) {
        if !ours.contains(&e.file_name()) {
            bail!(
                "`{}` holds `{}`, not a file of the plugin; choose an empty directory with --out (nothing was written)",
                dir.display(),
                e.file_name().to_string_lossy()
            );
        }
    }
    Ok(())
}
