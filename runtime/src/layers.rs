//! The stage order, checked: every module of `runtime/src` sits in one
//! layer, and code imports (`crate::…`) only from its own layer or below.
//! A reader can then learn the runtime bottom-up, and a change low down
//! cannot come to depend on the pipeline above it (the circle the review of
//! 2026-12-03 found: config ↔ trust ↔ exec ↔ audit ↔ oci).
//!
//! Tests are left out (sibling `*tests.rs` files and everything after a
//! file's `#[cfg(test)]`): a test may check that two layers agree, as
//! `protocol`'s does with every agent. Like
//! `agents::tests::no_code_outside_agents_names_an_agent`, it reads the
//! sources, so it needs no build of anything else.

use std::path::{Path, PathBuf};

/// The layers, bottom first. Modules in one layer may import one another.
/// Placed from the imports, not from when a stage runs: `oci` is below
/// `config` because a hooks.json component names an `oci://` reference
/// (`WasmSpec::oci`), and `trust` is above `exec` because the gate takes
/// the reports `exec` returns (`Gate::merge`) besides clamping handlers
/// before they run.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "ground: the protocol, bounded reads, homes, encodings, the atomic writer",
        &[
            "protocol",
            "fsread",
            "dirs",
            "encoding",
            "atomic",
            "component",
            "suggest",
            "guards",
            "origin",
            "trace",
        ],
    ),
    ("oci references and their cache", &["oci"]),
    ("config (load)", &["config"]),
    ("select and the agents' codecs", &["select", "agents"]),
    ("exec", &["exec"]),
    ("trust (the gate around exec)", &["trust"]),
    ("aggregate", &["aggregate"]),
    ("audit", &["audit"]),
    ("telemetry: spans, their spool and export", &["telemetry"]),
    (
        "pipeline, install and import",
        &["pipeline", "install", "import"],
    ),
    ("the event head: every way an event enters", &["head"]),
    ("runtime", &["runtime"]),
    ("cli", &["cli"]),
    ("entry", &["lib", "bin", "layers"]),
];

/// Imports that run against the layers, each with why it is still there.
/// The test fails on any other, and on an entry here that no longer
/// occurs (so the list only shrinks). (file, imported module, reason)
const EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// The layer of `module` (a top-level module name): its index and name.
fn layer(module: &str) -> Option<(usize, &'static str)> {
    LAYERS
        .iter()
        .enumerate()
        .find(|(_, (_, modules))| modules.contains(&module))
        .map(|(i, (name, _))| (i, *name))
}

/// The top-level module a file under `src` belongs to: `exec/wasm/mod.rs`
/// → `exec`, `aggregate_tests.rs` → `aggregate`.
fn module_of(rel: &str) -> String {
    let first = rel.split(['/', '\\']).next().unwrap_or(rel);
    let stem = first.strip_suffix(".rs").unwrap_or(first);
    stem.strip_suffix("_tests").unwrap_or(stem).to_string()
}

/// The top-level modules `text` imports through `crate::`, with their line
/// (1-based): `use crate::a::b`, `crate::a::f()` in code, and each name of
/// `use crate::{a, b::c}`. Comment lines and everything from the first
/// `#[cfg(test)]` on are skipped.
fn imports(text: &str) -> Vec<(usize, String)> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = Vec::new();
    let mut lines = code.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            let before = &rest[..i];
            rest = &rest[i + "crate::".len()..];
            if before.ends_with('$') || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue; // `$crate::` in a macro, or part of a longer name
            }
            if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{a, b::{c, d}}`, possibly over several lines.
                let mut body = group.to_string();
                while body.matches('{').count() >= body.matches('}').count() {
                    match lines.next() {
                        Some((_, next)) => body.push_str(next),
                        None => break,
                    }
                }
                let mut depth = 0;
                let mut top = String::new();
                for c in body.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        _ if depth == 0 => top.push(c),
                        _ => {}
                    }
                }
                for item in top.split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").trim();
                    if !name.is_empty() && name != "self" {
                        out.push((at + 1, name.to_string()));
                    }
                }
                rest = "";
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push((at + 1, name));
                }
            }
        }
    }
    out
}

/// Each import of `text` (the file `rel` under `src`) from a layer above
/// the file's own, as (imported module, one line naming file, line and
/// both layers); a module in no layer is one too, so a new module must be
/// placed.
fn violations(rel: &str, text: &str) -> Vec<(String, String)> {
    let from = module_of(rel);
    let Some((from_at, from_name)) = layer(&from) else {
        return vec![(
            from.clone(),
            format!("{rel}: module `{from}` is in no layer; add it to `LAYERS` in layers.rs"),
        )];
    };
    let mut out = Vec::new();
    for (line, to) in imports(text) {
        match layer(&to) {
            Some((to_at, to_name)) if to_at > from_at => out.push((
                to.clone(),
                format!(
                    "{rel}:{line}: `{from}` (layer {from_at}, {from_name}) imports `crate::{to}` \
                     (layer {to_at}, {to_name}), a layer above it"
                ),
            )),
            Some(_) => {}
            None => out.push((
                to.clone(),
                format!("{rel}:{line}: imports `crate::{to}`, which is in no layer"),
            )),
        }
    }
    out
}

/// Every source file under `src` but the sibling `*tests.rs` files, sorted:
/// (path relative to `src` with `/` separators, text). Also read by
/// `agents::tests::no_code_outside_agents_names_an_agent`.
pub(crate) fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|file| {
            let rel = file
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            if rel.ends_with("tests.rs") {
                return None;
            }
            let text = std::fs::read_to_string(&file).expect("readable");
            Some((rel, text))
        })
        .collect()
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let mut found = Vec::new();
    let mut used = vec![false; EXCEPTIONS.len()];
    for (rel, text) in sources() {
        for (to, message) in violations(&rel, &text) {
            match EXCEPTIONS
                .iter()
                .position(|(file, module, _)| *file == rel && *module == to)
            {
                Some(i) => used[i] = true,
                None => found.push(message),
            }
        }
    }
    for (i, (file, module, _)) in EXCEPTIONS.iter().enumerate() {
        if !used[i] {
            found.push(format!(
                "{file}: the exception for `crate::{module}` is no longer needed; remove it"
            ));
        }
    }
    assert!(
        found.is_empty(),
        "imports against the layers:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_reversed_import_is_caught_with_file_line_and_both_layers() {
    let text = "//! `crate::cli` in a doc comment is no import.\n\
                use crate::protocol::Event;\n\
                use crate::{fsread, pipeline::dispatch};\n\
                fn f() { crate::cli::run(); }\n\
                #[cfg(test)]\n\
                mod tests { use crate::runtime::Runtime; }\n";
    let found = violations("config/load.rs", text);
    let modules: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(modules, ["pipeline", "cli"], "{found:?}");
    let (_, pipeline) = &found[0];
    assert!(
        pipeline.starts_with("config/load.rs:3: `config`"),
        "{pipeline}"
    );
    assert!(pipeline.contains("config (load)"), "{pipeline}");
    assert!(pipeline.contains("crate::pipeline"), "{pipeline}");
    assert!(
        pipeline.contains("pipeline, install and import"),
        "{pipeline}"
    );
    assert!(
        found[1].1.starts_with("config/load.rs:4: "),
        "{}",
        found[1].1
    );

    // The same imports the other way round are in order.
    assert!(violations("cli/run.rs", "use crate::config::load;\n").is_empty());
    // A group spread over lines is read whole.
    let grouped = "use crate::{\n    protocol::Note,\n    exec::{Report, Standing},\n};\n";
    let found = violations("select.rs", grouped);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.starts_with("select.rs:1: "), "{}", found[0].1);
    assert_eq!(found[0].0, "exec");
}

#[test]
fn a_module_in_no_layer_is_named() {
    let found = violations("newstage/mod.rs", "");
    assert_eq!(found.len(), 1);
    assert!(
        found[0].1.contains("`newstage` is in no layer"),
        "{}",
        found[0].1
    );
    let found = violations("exec/mod.rs", "use crate::newstage::X;\n");
    assert!(found[0]
        .1
        .contains("`crate::newstage`, which is in no layer"));
}

#[test]
fn every_module_on_disk_is_in_a_layer_once() {
    let mut seen = Vec::new();
    for (_, modules) in LAYERS {
        for m in *modules {
            assert!(!seen.contains(m), "`{m}` is in two layers");
            seen.push(m);
        }
    }
    for (rel, _) in sources() {
        assert!(layer(&module_of(&rel)).is_some(), "{rel} is in no layer");
    }
}
