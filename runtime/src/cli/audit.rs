//! `agenthooks audit verify [PATH...]`: check the audit log's hash chain
//! (`crate::audit::verify`), so a record edited, removed or inserted since
//! it was written is found and named. `agenthooks audit export [PATH...]`:
//! send its records as OpenTelemetry logs (`crate::telemetry::logs`).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::audit::{self, AuditLog};
use crate::config::{self, Config, LoadOptions};
use crate::telemetry::{logs, settings};

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
    /// Send the log's records as OpenTelemetry logs (OTLP/HTTP `/v1/logs`)
    /// to the endpoint spans go to (`OTEL_EXPORTER_OTLP_*`, or `telemetry`
    /// in the managed or user hooks.json).
    Export(VerifyArgs),
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
    let loaded = config::load(&LoadOptions {
        home: None,
        project_root: None,
    });
    let (args, export) = match args.action {
        Action::Verify(args) => (args, false),
        Action::Export(args) => (args, true),
    };
    let files = if args.paths.is_empty() {
        let Some(log) = AuditLog::resolve(loaded.audit.as_ref()) else {
            eprintln!(
                "agenthooks: no audit log is configured: set `audit` in ~/.agents/hooks.json or AGENTHOOKS_AUDIT, or name the files"
            );
            return Ok(ExitCode::from(super::EXIT_ERROR));
        };
        logs::files_of(log.path(), log.rotated_path())
    } else {
        args.paths
    };
    if export {
        return export_logs(&files, &loaded);
    }
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

/// `audit export`: every record of `files` to the logs endpoint; one line
/// on stdout when sent, one on stderr naming the endpoint when not.
fn export_logs(files: &[PathBuf], loaded: &Config) -> anyhow::Result<ExitCode> {
    let Some(settings) = settings::resolve(settings::Signal::Logs, loaded.telemetry.as_ref())
    else {
        eprintln!(
            "agenthooks: audit export: no endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_LOGS_ENDPOINT), or `telemetry` in ~/.agents/hooks.json; OTEL_SDK_DISABLED=true turns it off"
        );
        return Ok(ExitCode::from(super::EXIT_ERROR));
    };
    let endpoint = settings::shown(&settings.url);
    match logs::export(files, &settings) {
        Ok(done) => {
            let skipped = match done.skipped {
                0 => String::new(),
                n => format!(" ({n} lines that are not records skipped)"),
            };
            writeln!(
                io::stdout().lock(),
                "audit log: {} record{} sent to `{endpoint}`{skipped}",
                done.records,
                if done.records == 1 { "" } else { "s" }
            )?;
            Ok(ExitCode::from(super::EXIT_OK))
        }
        Err(why) => {
            eprintln!(
                "{}: audit export: {}",
                super::paint::Paint::stderr().error(),
                crate::protocol::one_line(&why)
            );
            Ok(ExitCode::from(super::EXIT_ERROR))
        }
    }
}
