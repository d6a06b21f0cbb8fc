//! The library of vetted guards `agenthooks add NAME` installs: wasm
//! components built with the SDK from `guest-examples/` (each crate has its
//! own case-table tests), committed in `.agents/hooks/` and embedded in this
//! binary byte for byte (`tests/all/examples.rs` checks that the committed
//! files are what their sources build to, and `scripts/demo.sh` rebuilds
//! them).
//!
//! Each entry says where the component goes in a project, which event and
//! tools it judges, the grants it needs and how it is configured.

use serde_json::{json, Value};

/// One guard of the library.
#[derive(Debug)]
pub struct Guard {
    /// The name `agenthooks add` takes.
    pub name: &'static str,
    /// The crate in `guest-examples/`, and the component's file name (`<crate>.wasm`).
    pub crate_name: &'static str,
    /// What it denies, in one line.
    pub about: &'static str,
    /// The event it judges.
    pub event: &'static str,
    /// The matcher it is added under unless `--matcher` says otherwise.
    pub matcher: &'static str,
    /// Grants it needs to work at all (`allow`), as JSON; `null` for none.
    pub allow: fn() -> Value,
    /// How to configure it (the grant and variable, if any).
    pub config: &'static str,
    /// The component.
    pub wasm: &'static [u8],
}

impl Guard {
    /// Where `add` writes the component, relative to the project root.
    pub fn component_path(&self) -> String {
        format!(".agents/hooks/{}.wasm", self.crate_name)
    }

    /// The handler `add` puts in hooks.json.
    pub fn handler(&self) -> Value {
        let mut handler = json!({
            "type": "wasm",
            "component": self.component_path(),
            "timeout": 5,
        });
        let allow = (self.allow)();
        if !allow.is_null() {
            handler["allow"] = allow;
        }
        handler
    }
}

const SHELL: &str = "Bash|PowerShell";

/// The library, in the order `add --list` shows it.
pub const LIBRARY: &[Guard] = &[
    Guard {
        name: "dangerous-commands",
        crate_name: "dangerous-command-guard",
        about: "denies commands that wipe the machine: `rm -rf /` or `~`, `dd` onto a disk, \
                `mkfs`, fork bombs, recursive `chmod 777 /`, `curl … | sh`",
        event: "PreToolUse",
        matcher: SHELL,
        allow: || Value::Null,
        config: "extra regexes, one a line, in AGENTHOOKS_GUARD_EXTRA \
                 (grant: \"allow\": {\"env\": [\"AGENTHOOKS_GUARD_EXTRA\"]})",
        wasm: include_bytes!("../embedded/guards/dangerous-command-guard.wasm"),
    },
    Guard {
        name: "protected-paths",
        crate_name: "protected-paths",
        about: "denies writing secret files (`.env*`, private keys) and anything under `.git/`",
        event: "PreToolUse",
        matcher: "Write|Edit|MultiEdit|NotebookEdit",
        allow: || Value::Null,
        config: "none",
        wasm: include_bytes!("../embedded/guards/protected-paths.wasm"),
    },
    Guard {
        name: "protected-branches",
        crate_name: "protected-branch-push",
        about:
            "denies `git push` to `main`/`master` (explicit, forced, `--all`, or from the branch)",
        event: "PreToolUse",
        matcher: SHELL,
        allow: || json!({"read": ["$CLAUDE_PROJECT_DIR"]}),
        config: "other branches in AGENTHOOKS_PROTECTED_BRANCHES \
                 (grant: \"allow\": {\"env\": [\"AGENTHOOKS_PROTECTED_BRANCHES\"]})",
        wasm: include_bytes!("../embedded/guards/protected-branch-push.wasm"),
    },
    Guard {
        name: "package-managers",
        crate_name: "package-manager-policy",
        about: "denies sudo and global installs, `--break-system-packages`, and installs with \
                a package manager the project does not use",
        event: "PreToolUse",
        matcher: SHELL,
        allow: || Value::Null,
        config: "the project's managers in AGENTHOOKS_PACKAGE_MANAGERS, e.g. `pnpm,uv` \
                 (grant: \"allow\": {\"env\": [\"AGENTHOOKS_PACKAGE_MANAGERS\"]})",
        wasm: include_bytes!("../embedded/guards/package-manager-policy.wasm"),
    },
    Guard {
        name: "network-exfiltration",
        crate_name: "network-exfiltration-guard",
        about: "denies running downloads (`curl … | sh`) and sending secret files or \
                variables over the network (`curl -d @.env`, `scp ~/.ssh/id_rsa host:`)",
        event: "PreToolUse",
        matcher: SHELL,
        allow: || Value::Null,
        config: "more secret file names in AGENTHOOKS_SECRET_FILES, e.g. `*.sqlite` \
                 (grant: \"allow\": {\"env\": [\"AGENTHOOKS_SECRET_FILES\"]})",
        wasm: include_bytes!("../embedded/guards/network-exfiltration-guard.wasm"),
    },
];

/// The guard called `name`.
pub fn find(name: &str) -> Option<&'static Guard> {
    LIBRARY.iter().find(|g| g.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate builds from its own directory, as crates.io gets it (`cargo
    /// install agenthooks`): every file a source embeds with `include_bytes!`
    /// or `include_str!` is under `runtime/`, in a folder `Cargo.toml`'s
    /// `include` lists.
    #[test]
    fn every_embedded_file_is_inside_the_published_crate() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let include = manifest
            .lines()
            .find(|l| l.starts_with("include = "))
            .expect("Cargo.toml lists what the crate includes");
        let mut dirs = vec![root.join("src")];
        let mut found = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for (at, _) in text.match_indices("include_").filter(|(at, _)| {
                    text[*at..].starts_with("include_bytes!(\"")
                        || text[*at..].starts_with("include_str!(\"")
                }) {
                    let literal = &text[at..];
                    let start = literal.find('"').unwrap() + 1;
                    let end = start + literal[start..].find('"').unwrap();
                    // Not following links: one under `runtime/embedded/` stays inside
                    // the crate (`cargo package` stores its target's bytes).
                    let embedded =
                        crate::fsread::lexical(&path.parent().unwrap().join(&literal[start..end]));
                    let rel = embedded.strip_prefix(root).unwrap_or_else(|_| {
                        panic!(
                            "{} embeds {}, outside the crate",
                            path.display(),
                            embedded.display()
                        )
                    });
                    let top = rel
                        .components()
                        .next()
                        .unwrap()
                        .as_os_str()
                        .to_string_lossy();
                    assert!(
                        include.contains(&format!("\"/{top}/**\"")),
                        "{} embeds {}, which `include` leaves out",
                        path.display(),
                        rel.display()
                    );
                    assert!(embedded.is_file(), "{} is missing", embedded.display());
                    found += 1;
                }
            }
        }
        assert!(found >= 8, "{found} embedded files");
    }

    #[test]
    fn every_guard_is_a_component_with_a_unique_name() {
        let mut names: Vec<_> = LIBRARY.iter().map(|g| g.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LIBRARY.len());
        for g in LIBRARY {
            // The component-model preamble: version 0x0d, layer 1.
            assert!(g.wasm.starts_with(b"\0asm\x0d\0\x01\0"), "{}", g.name);
            assert_eq!(g.handler()["component"], g.component_path());
        }
        assert!(find("protected-branches").unwrap().handler()["allow"]["read"].is_array());
        assert!(find("nope").is_none());
    }
}
