//! Turns each agent's table, `src/agents/<agent>/table.toml`, into the
//! same `static TABLE: Table` an agent module would write by hand, as
//! `agents::tables::<agent>::TABLE` (`$OUT_DIR/agent_tables.rs`, included
//! once by `agents/mod.rs`; each agent module re-exports its own).
//! The tables are data, so they are kept as data; the generated code is
//! Rust, so every event, tool and answer kind is still checked by the
//! compiler, and nothing is parsed at run time.
//!
//! A file this cannot read stops the build with one line naming the file
//! and the key (`build/agent_tables.rs`). The format is described in
//! `src/agents/TABLES.md`.
//!
//! It also links the binaries with packed relative relocations where the
//! toolchain takes them (`build/relr.rs`), and names the target the crate
//! is built for (`AGENTHOOKS_TARGET`, which `--version` prints): the
//! package's, when `scripts/dist.sh` sets `AGENTHOOKS_PACKAGE_TARGET`, as
//! it does for the Linux gnu package's front, built for musl.

#[path = "build/agent_tables.rs"]
mod agent_tables;
#[path = "build/relr.rs"]
mod relr;

const DIR: &str = "src/agents";

fn main() {
    println!("cargo:rerun-if-changed={DIR}");
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    relr::configure(&out_dir);
    println!("cargo:rerun-if-env-changed=AGENTHOOKS_PACKAGE_TARGET");
    let target = std::env::var("AGENTHOOKS_PACKAGE_TARGET")
        .ok()
        .filter(|t| !t.is_empty())
        .or_else(|| std::env::var("TARGET").ok())
        .unwrap_or_default();
    println!("cargo:rustc-env=AGENTHOOKS_TARGET={target}");
    let out = out_dir.join("agent_tables.rs");
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| fail(&format!("{DIR}: cannot list it: {e}")))
        .filter_map(|e| e.ok().map(|e| e.path().join("table.toml")))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut all = String::new();
    for path in files {
        let name = path.display().to_string();
        println!("cargo:rerun-if-changed={name}");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| fail(&format!("{name}: cannot read it: {e}")));
        let code = agent_tables::generate(&name, &text).unwrap_or_else(|line| fail(&line));
        let stem = path
            .parent()
            .and_then(|dir| dir.file_name())
            .and_then(|s| s.to_str())
            .filter(|s| {
                s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
            .unwrap_or_else(|| {
                fail(&format!(
                    "{name}: put it in `src/agents/<agent>/`, the agent's module"
                ))
            });
        all.push_str(&format!(
            "/// Generated from `{name}`.\npub mod {stem} {{\n{code}}}\n\n"
        ));
    }
    std::fs::write(out, all).expect("OUT_DIR is writable");
}

/// Stops the build with one line: the file, the key and what is wrong.
fn fail(line: &str) -> ! {
    eprintln!("error: {line}");
    std::process::exit(1)
}
