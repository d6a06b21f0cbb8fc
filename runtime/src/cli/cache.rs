//! `agenthooks cache`: what the compile cache holds (each entry's size,
//! tier, last use and the components it was compiled from) against its
//! budget; `agenthooks cache clean` empties it.
//!
//! The rules that keep it bounded run on their own after every compile
//! (`exec::wasm::gc`); this command shows them at work and is the way to
//! start over.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::SystemTime;

use crate::exec::wasm::{gc, CacheDir};

/// `agenthooks cache [clean]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `clean` empties the compile cache; without it, its entries are listed.
    #[command(subcommand)]
    pub action: Option<Action>,
}

/// What to do with the cache.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Delete every compiled component, index and failure record, and unheld lock.
    Clean,
}

/// List or clean the compile cache.
///
/// # Errors
/// When stdout cannot be written.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cache = CacheDir::from_env();
    let Some(dir) = cache.path() else {
        crate::cli::report::say!("no compile cache: there is no home directory (set HOME)");
        return Ok(ExitCode::from(super::EXIT_ERROR));
    };
    let mut out = io::stdout().lock();
    match args.action {
        Some(Action::Clean) => {
            let swept = gc::clean(dir);
            writeln!(
                out,
                "compile cache `{}`: removed {} entr{} ({}) and {} other file{}",
                dir.display(),
                swept.evicted,
                if swept.evicted == 1 { "y" } else { "ies" },
                size(swept.freed),
                swept.leftovers,
                if swept.leftovers == 1 { "" } else { "s" }
            )?;
        }
        None => list(&mut out, dir)?,
    }
    Ok(ExitCode::from(super::EXIT_OK))
}

fn list(out: &mut impl Write, dir: &Path) -> io::Result<()> {
    let (budget, why) = gc::budget_bytes();
    if let Some(why) = why {
        eprintln!("{}", super::report::note_line(&why));
    }
    let entries = gc::entries(dir);
    let total: u64 = entries.iter().map(|e| e.size).sum();
    writeln!(
        out,
        "compile cache `{}`: {} entr{}, {} of a {} budget ({})",
        dir.display(),
        entries.len(),
        if entries.len() == 1 { "y" } else { "ies" },
        size(total),
        size(budget),
        gc::BUDGET_ENV
    )?;
    let now = SystemTime::now();
    // Entries the index has no record for are named by digest, from the
    // components the configs name (read only when one needs it).
    let mut configured: Option<Vec<(String, std::path::PathBuf)>> = None;
    for e in &entries {
        let components = if e.components.is_empty() {
            let known = configured.get_or_insert_with(configured_digests);
            match known.iter().find(|(digest, _)| *digest == e.digest) {
                Some((_, path)) => format!("{} (by its digest)", path.display()),
                None => "(a component no config here names)".to_string(),
            }
        } else {
            e.components
                .iter()
                .map(|c| c.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(
            out,
            "  {:>9}  {:<9}  used {:<12}  sha256:{}  {components}",
            size(e.size),
            e.tier.word(),
            ago(now, e.last_use),
            &e.digest[..12],
        )?;
    }
    Ok(())
}

/// The sha256 of each component the user's and this project's configs name.
fn configured_digests() -> Vec<(String, std::path::PathBuf)> {
    use crate::fsread::{caps, read_bounded};
    let root = crate::config::project_root(None);
    super::compile::configured(root, false)
        .0
        .into_iter()
        .filter_map(|path| {
            let bytes = read_bounded(&path, caps::COMPONENT).ok()?;
            Some((crate::encoding::sha256_hex(&bytes), path))
        })
        .collect()
}

/// `12.3 MiB`, `640 KiB`, `12 B`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else if bytes >= 1 << 10 {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    } else {
        format!("{bytes} B")
    }
}

/// `just now`, `5 min ago`, `3 h ago`, `12 days ago`.
fn ago(now: SystemTime, then: SystemTime) -> String {
    let secs = now.duration_since(then).unwrap_or_default().as_secs();
    match secs {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", secs / 60),
        3600..86400 => format!("{} h ago", secs / 3600),
        _ => format!("{} days ago", secs / 86400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn sizes_and_ages_read_short() {
        assert_eq!(size(12), "12 B");
        assert_eq!(size(2000), "2 KiB");
        assert_eq!(size(3 << 20), "3.0 MiB");
        let now = SystemTime::now();
        assert_eq!(ago(now, now), "just now");
        assert_eq!(ago(now, now - Duration::from_secs(300)), "5 min ago");
        assert_eq!(ago(now, now - Duration::from_secs(3 * 86400)), "3 days ago");
    }
}
