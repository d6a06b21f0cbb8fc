//! `agenthooks audit`: check the audit log's hash chain and signatures
//! (`crate::audit::verify`), so a record edited, removed, inserted or signed
//! again since it was written is found and named; print the signing key's
//! public half; send the records as OpenTelemetry logs
//! (`crate::telemetry::logs`).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::audit::{self, sign, AuditLog, PublicKey};
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
    /// Check the log's hash chain and signatures; exit 1 naming the first
    /// record edited, removed, inserted or signed by another key.
    Verify(VerifyArgs),
    /// Print the public key that checks the records' signatures (made on
    /// first use), to keep where the log's writer cannot change it.
    PublicKey,
    /// Send the log's records as OpenTelemetry logs (OTLP/HTTP `/v1/logs`)
    /// to the endpoint spans go to (`OTEL_EXPORTER_OTLP_*`, or `telemetry`
    /// in the managed or user hooks.json).
    Export(ExportArgs),
}

/// `agenthooks audit export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The files, sent in this order (the rotated `.1` first); default: the
    /// configured log, with its rotated file.
    pub paths: Vec<PathBuf>,
}

/// `agenthooks audit verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The files, read as one log in this order (the rotated `.1` first);
    /// default: the log `AGENTHOOKS_AUDIT` or the user's or managed
    /// `hooks.json` names, with its rotated file.
    pub paths: Vec<PathBuf>,
    /// The key the records must be signed with: `ed25519:<hex>` as `audit
    /// public-key` prints it, or a file holding that; default: the
    /// configured signing key's, when `sign` is on.
    #[arg(long, value_name = "KEY")]
    pub public_key: Option<String>,
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
    let log = AuditLog::resolve(loaded.audit.as_ref());
    match args.action {
        Action::Verify(args) => verify(args, log),
        Action::PublicKey => public_key(log),
        Action::Export(args) => match files_or_log(args.paths, log.as_ref()) {
            Ok(files) => export_logs(&files, &loaded),
            Err(code) => Ok(code),
        },
    }
}

/// The files named, or the configured log's (its rotated file first).
fn files_or_log(paths: Vec<PathBuf>, log: Option<&AuditLog>) -> Result<Vec<PathBuf>, ExitCode> {
    if !paths.is_empty() {
        return Ok(paths);
    }
    let Some(log) = log else {
        return Err(fail(
            "no audit log is configured: set `audit` in ~/.agents/hooks.json or AGENTHOOKS_AUDIT, or name the files",
        ));
    };
    Ok(logs::files_of(log.path(), log.rotated_path()))
}

fn fail(line: &str) -> ExitCode {
    fail_with(line, super::EXIT_ERROR)
}

/// [`fail`] with the exit code `code`.
fn fail_with(line: &str, code: u8) -> ExitCode {
    eprintln!(
        "{}: {}",
        super::paint::Paint::stderr().error(),
        crate::protocol::one_line(line)
    );
    ExitCode::from(code)
}

/// `n` records, said as a count of them.
fn records(n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} record{s}")
}

/// The key to check signatures with: the one given (text, or a file of
/// it), else the configured signing key's public half when it exists.
fn trusted_key(given: Option<&str>, log: Option<&AuditLog>) -> Result<Option<PublicKey>, String> {
    if let Some(given) = given {
        let path = std::path::Path::new(given);
        let text = if !given.starts_with("ed25519:") && path.is_file() {
            crate::fsread::read_bounded_string(path, 4096).map_err(|e| e.to_string())?
        } else {
            given.to_string()
        };
        return PublicKey::parse(&text).map(Some);
    }
    let Some(Some(key)) = log.and_then(AuditLog::signing_key) else {
        return Ok(None);
    };
    match sign::Signer::load(&key) {
        Ok(signer) => Ok(Some(signer.public().clone())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("the signing key `{}`: {e}", key.display())),
    }
}

fn verify(args: VerifyArgs, log: Option<AuditLog>) -> anyhow::Result<ExitCode> {
    let files = match files_or_log(args.paths, log.as_ref()) {
        Ok(files) => files,
        Err(code) => return Ok(code),
    };
    let key = match trusted_key(args.public_key.as_deref(), log.as_ref()) {
        Ok(key) => key,
        Err(why) => return Ok(fail(&why)),
    };
    let shown = files
        .iter()
        .map(|f| format!("`{}`", f.display()))
        .collect::<Vec<_>>()
        .join(", ");
    match audit::verify(&files, key.as_ref()) {
        Ok(ok) => {
            let start = if ok.starts_at == audit::GENESIS {
                "from the log's first record".to_string()
            } else {
                format!("continuing a record before these files ({})", ok.starts_at)
            };
            let signed = match (&key, ok.signed) {
                (_, 0) => String::new(),
                (Some(key), n) => format!("; {n} signed by the key {}, each signature checked", key.id()),
                (None, n) => format!(
                    "; {n} signed, the signatures not checked (no key: pass --public-key, as `audit public-key` prints it)"
                ),
            };
            let records = records(ok.records);
            let line = format!("audit log {shown}: {records} chained, intact, {start}{signed}");
            writeln!(io::stdout().lock(), "{line}")?;
            Ok(ExitCode::from(super::EXIT_OK))
        }
        Err(why) => Ok(fail_with(
            &format!("audit log {shown}: {why}"),
            super::EXIT_FINDING,
        )),
    }
}

fn public_key(log: Option<AuditLog>) -> anyhow::Result<ExitCode> {
    let key = match log.as_ref().and_then(AuditLog::signing_key) {
        Some(Some(key)) => key,
        Some(None) => {
            return Ok(fail(
                "no home directory for the audit signing key: set `signingKey` in `audit`",
            ))
        }
        // Not signing (yet): the key `sign: true` would use.
        None => match sign::default_key_path() {
            Some(key) => key,
            None => return Ok(fail("no home directory for the audit signing key")),
        },
    };
    let signer = match sign::Signer::load_or_create(&key) {
        Ok(signer) => signer,
        Err(e) => return Ok(fail(&format!("the signing key `{}`: {e}", key.display()))),
    };
    writeln!(io::stdout().lock(), "{}", signer.public())?;
    eprintln!(
        "key {} in `{}`{}",
        signer.public().id(),
        key.display(),
        if log.as_ref().and_then(AuditLog::signing_key).is_some() {
            ""
        } else {
            " (records are not signed: set \"sign\": true in `audit`)"
        }
    );
    Ok(ExitCode::from(super::EXIT_OK))
}
/// `audit export`: every record of `files` to the logs endpoint; one line
/// on stdout when sent, one on stderr naming the endpoint when not.
fn export_logs(files: &[PathBuf], loaded: &Config) -> anyhow::Result<ExitCode> {
    let Some(settings) = settings::resolve(settings::Signal::Logs, loaded.telemetry.as_ref())
    else {
        crate::cli::report::say!(
            "audit export: no endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_LOGS_ENDPOINT), or `telemetry` in ~/.agents/hooks.json; OTEL_SDK_DISABLED=true turns it off"
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
            let records = records(done.records);
            let line = format!("audit log: {records} sent to `{endpoint}`{skipped}");
            writeln!(io::stdout().lock(), "{line}")?;
            Ok(ExitCode::from(super::EXIT_OK))
        }
        Err(why) => Ok(fail(&format!("audit export: {why}"))),
    }
}
