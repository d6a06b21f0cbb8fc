//! `agenthooks audit verify [PATH...]`: check the audit log's hash chain
//! (`crate::audit::verify`), so a record edited, removed or inserted since
//! it was written is found and named.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::audit::{self, AuditLog};
use crate::config::{self, LoadOptions};

/// `agenthooks audit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do with the audit log.
    #[command(subcommand)]
    pub action: Action,
}

/// What to do with the audit log.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Check the log's hash chain; exit 1 naming the first record edited,
    /// removed or inserted.
    Verify(VerifyArgs),
}

/// `agenthooks audit verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The files, read as one log in this order (the rotated `.1` first);
    /// default: the log `AGENTHOOKS_AUDIT` or the user's or managed
    /// `hooks.json` names, with its rotated file.
    pub paths: Vec<PathBuf>,
}

/// Run `agenthooks audit`.
///
/// # Errors
/// When stdout cannot be written.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Action::Verify(args) = args.action;
    let files = if args.paths.is_empty() {
        let loaded = config::load(&LoadOptions {
            home: None,
            project_root: None,
        });
        let Some(log) = AuditLog::resolve(loaded.audit.as_ref()) else {
            eprintln!(
                "agenthooks: no audit log is configured: set `audit` in ~/.agents/hooks.json or AGENTHOOKS_AUDIT, or name the files"
            );
            return Ok(ExitCode::from(super::EXIT_ERROR));
        };
        let rotated = log.rotated_path();
        let mut files: Vec<PathBuf> = Vec::new();
        if rotated.is_file() {
            files.push(rotated);
        }
        files.push(log.path().to_path_buf());
        files
    } else {
        args.paths
    };
    let shown = files
        .iter()
        .map(|f| format!("`{}`", f.display()))
        .collect::<Vec<_>>()
        .join(", ");
    match audit::verify(&files) {
        Ok(ok) => {
            let start = if ok.starts_at == audit::GENESIS {
                "from the log's first record".to_string()
            } else {
                format!("continuing a record before these files ({})", ok.starts_at)
            };
            writeln!(
                io::stdout().lock(),
                "audit log {shown}: {} record{} chained, intact, {start}",
                ok.records,
                if ok.records == 1 { "" } else { "s" }
            )?;
            Ok(ExitCode::from(super::EXIT_OK))
        }
        Err(why) => {
            eprintln!(
                "{}: audit log {shown}: {}",
                super::paint::Paint::stderr().error(),
                crate::protocol::one_line(&why)
            );
            Ok(ExitCode::from(super::EXIT_FINDING))
        }
    }
}
