//! Packed relative relocations (`DT_RELR`, `-z pack-relative-relocs`) for
//! the binaries, on Linux with glibc, when the linker and the C library
//! here take them (GNU ld 2.38 or lld 15, glibc 2.36).
//!
//! Why: a position-independent binary's loader reads every relative
//! relocation at each start, and `run` starts once per event. Packed, the
//! table is a few KB instead of 24 bytes per relocation (about 150 KB for
//! `agenthooks`, 1.2 MB for `agenthooks-engine`), read on every start.
//!
//! The probe links and runs an empty C program with the flag, using the
//! linker cargo gives rustc (`RUSTC_LINKER`) or `cc`; when either step
//! fails (an older toolchain or C library, a cross build), the binaries
//! are linked as before.

use std::path::Path;
use std::process::{Command, Stdio};

const FLAG: &str = "-Wl,-z,pack-relative-relocs";

/// Ask cargo to link the binaries with [`FLAG`] when the probe passes.
pub fn configure(out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native = var("TARGET") == var("HOST");
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" || !native {
        return;
    }
    if probe(out_dir) {
        println!("cargo:rustc-link-arg-bins={FLAG}");
    }
}

fn probe(out_dir: &Path) -> bool {
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_string());
    let source = out_dir.join("relr_probe.c");
    let program = out_dir.join("relr_probe");
    if std::fs::write(&source, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    let quiet = |cmd: &mut Command| {
        cmd.stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    quiet(
        Command::new(linker)
            .args(["-fPIE", "-pie", FLAG, "-o"])
            .arg(&program)
            .arg(&source),
    ) && quiet(&mut Command::new(&program))
}
