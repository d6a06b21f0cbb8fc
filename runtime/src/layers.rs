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

mod lengths;
mod rooms;
mod scan;

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
            "quote",
            "guards",
            "origin",
            "trace",
            "test_support",
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

/// The top-level modules `text` (the file `rel` under `src`) imports, with
/// their line (1-based): each path of a `use` tree through `crate::`,
/// `super::` or `self::`, and each such path inline in code. Comments,
/// literals and test-only items are skipped (`scan::code`).
fn imports(rel: &str, text: &str) -> Vec<(usize, String)> {
    let module = scan::module_path(rel);
    let mut out: Vec<(usize, String)> =
        scan::named(&scan::code(text), &module, &Default::default())
            .into_iter()
            .filter_map(|n| Some((n.line, n.path.first()?.clone())))
            .filter(|(_, to)| module.first() != Some(to))
            .collect();
    out.dedup();
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
    for (line, to) in imports(rel, text) {
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

#[test]
fn no_folder_has_an_import_circle() {
    let (files, krate) = scan::library(sources());
    let found = rooms::circles(&rooms::edges(&files, &krate));
    assert!(
        found.is_empty(),
        "import circles inside folders:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_function_is_over_the_line_budget() {
    let (files, _) = scan::library(sources());
    let found: Vec<String> = files.iter().flat_map(lengths::too_long).collect();
    assert!(
        found.is_empty(),
        "functions over {} lines:\n{}",
        lengths::MAX_LINES,
        found.join("\n")
    );
}

#[test]
fn a_circle_through_a_re_export_is_named_with_each_import() {
    let files = [
        ("lib.rs", "mod room;\n"),
        (
            "room/mod.rs",
            "mod a;\nmod b;\nmod c;\npub use b::Shared;\n",
        ),
        ("room/a.rs", "use super::Shared;\n"),
        (
            "room/b.rs",
            "// crate::room::a in a comment is no import\n\
             pub struct Shared;\nfn f() { let _ = \"super::a\"; super::c::g(); }\n",
        ),
        (
            "room/c.rs",
            "pub fn g() {}\nfn h() { crate::room::a::x(); }\n",
        ),
    ];
    let sources = files
        .iter()
        .map(|(r, t)| (r.to_string(), t.to_string()))
        .collect();
    let (files, krate) = scan::library(sources);
    let found = rooms::circles(&rooms::edges(&files, &krate));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("room/: an import circle among a, b, c: room/a.rs:1 → b, room/b.rs:3 → c, room/c.rs:2 → a;"),
        "{}",
        found[0]
    );

    // Test-only code and a test-only module are no imports.
    let sources = vec![
        ("lib.rs".into(), "mod room;\n".into()),
        (
            "room/mod.rs".into(),
            "mod a;\nmod b;\n#[cfg(test)]\nmod helper;\n".into(),
        ),
        ("room/a.rs".into(), "use super::b::X;\n".into()),
        (
            "room/b.rs".into(),
            "pub struct X;\n#[cfg(test)]\nmod tests { use super::super::a; }\n".into(),
        ),
        (
            "room/helper.rs".into(),
            "use super::a;\nuse super::b;\n".into(),
        ),
    ];
    let (files, krate) = scan::library(sources);
    assert!(rooms::circles(&rooms::edges(&files, &krate)).is_empty());
}

#[test]
fn a_long_function_is_named_with_file_line_and_length() {
    let body = "    let x = '}';\n    // }\n    let s = \"{\";\n".repeat(33);
    let text = format!("fn short() {{}}\n\npub(crate) fn long_one(a: [u8; 2]) -> u8 {{\n{body}}}\n#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{body}{body}    }}\n}}\n");
    let file = scan::File {
        rel: "x.rs".into(),
        module: vec!["x".into()],
        code: scan::code(&text),
    };
    assert_eq!(
        lengths::too_long(&file),
        ["x.rs:3: fn `long_one` is 101 lines (at most 100); split it into named steps"]
    );
    let shorter = text.replacen("    let x = '}';\n", "", 1);
    let file = scan::File {
        code: scan::code(&shorter),
        ..file
    };
    assert!(lengths::too_long(&file).is_empty());
}
