//! Link flags of the `agenthooks` binary (bins only: no library, test or
//! bench build is affected).
//!
//! Packed relative relocations (`-z pack-relative-relocs`, DT_RELR): the
//! binary is a position-independent executable (address-space randomization)
//! with about 40,000 relative relocations, which the dynamic loader reads from
//! a 24-byte-per-entry table at every start; DT_RELR stores them as a bitmap
//! of a few KB. Measured by `benches/whole-process.sh` (README, Performance).
//!
//! Only where the result runs: a DT_RELR binary needs the loader of glibc 2.36
//! or later (it requires the `GLIBC_ABI_DT_RELR` version, and an older loader
//! refuses to start it), so the flag is used only for a Linux glibc target
//! built on that same machine (not cross-compiled) whose glibc is 2.36 or
//! later, and whose linker accepts the flag. `AGENTHOOKS_RELR=0` turns it off,
//! e.g. for a binary meant to be copied to an older system.

use std::path::Path;
use std::process::{Command, Stdio};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=AGENTHOOKS_RELR");
    if relr_usable() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

fn relr_usable() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("AGENTHOOKS_RELR") == "0"
        || var("CARGO_CFG_TARGET_OS") != "linux"
        || var("CARGO_CFG_TARGET_ENV") != "gnu"
        || var("TARGET") != var("HOST")
    {
        return false;
    }
    host_glibc_at_least(2, 36) && linker_accepts(Path::new(&var("OUT_DIR")))
}

/// The build machine's glibc, which (not cross-compiling) is the one the
/// binary will run on.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn host_glibc_at_least(major: u32, minor: u32) -> bool {
    extern "C" {
        fn gnu_get_libc_version() -> *const std::ffi::c_char;
    }
    // SAFETY: glibc returns a pointer to a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(gnu_get_libc_version()) };
    let mut parts = version
        .to_str()
        .unwrap_or("")
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    found >= (major, minor)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn host_glibc_at_least(_major: u32, _minor: u32) -> bool {
    false
}

/// Whether `cc` (rustc's linker driver here) links a program with the flag
/// and no warning (binutils before 2.38 warns about an unknown `-z` option).
fn linker_accepts(out_dir: &Path) -> bool {
    let source = out_dir.join("relr-probe.c");
    if std::fs::write(&source, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    Command::new(linker)
        .arg(&source)
        .arg("-o")
        .arg(out_dir.join("relr-probe"))
        .args([
            "-pie",
            "-fPIE",
            "-Wl,-z,pack-relative-relocs",
            "-Wl,--fatal-warnings",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
