//! The public API, listed and checked against `runtime/public-api.txt`, so
//! that growing (or breaking) it is a decision made in review, not an
//! accident of a `pub`.
//!
//! `cargo public-api` needs nightly (rustdoc JSON), so this reads the sources
//! with `syn` instead: from `lib.rs`, every re-export and public module that
//! is not `#[doc(hidden)]`, followed through `pub use` chains to the item,
//! then the item's public fields, variants and methods (inherent `pub fn`s
//! and trait impls, derives included). Items and members marked
//! `#[doc(hidden)]` or `#[cfg(test)]` are left out. `cfg(feature)` gates are
//! ignored: the list is the API with every feature on.
//!
//! `UPDATE_PUBLIC_API=1 cargo test -p agenthooks-public-api` rewrites the
//! file; commit it with the change that grew the API.
#![cfg(test)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, Fields, ImplItem, Item, TraitItem, UseTree, Visibility};

/// The library's sources and its snapshot, relative to this crate.
const RUNTIME: &str = "../../runtime";
/// The snapshot, relative to [`RUNTIME`].
const SNAPSHOT: &str = "public-api.txt";
/// Set to rewrite the snapshot instead of comparing.
const UPDATE_VAR: &str = "UPDATE_PUBLIC_API";

/// Every module reachable from `lib.rs` outside tests: path → items.
struct Crate {
    modules: HashMap<Vec<String>, Vec<Item>>,
}

impl Crate {
    /// Parse `src/lib.rs` and the modules it declares, files or inline.
    fn read(src: &Path) -> Result<Crate, String> {
        let mut modules = HashMap::new();
        let lib = parse(&src.join("lib.rs"))?;
        collect(src, Vec::new(), lib.items, &mut modules)?;
        Ok(Crate { modules })
    }

    fn items(&self, module: &[String]) -> &[Item] {
        self.modules.get(module).map_or(&[], Vec::as_slice)
    }

    /// The public API, one line per item or member, sorted.
    fn list(&self, krate: &str) -> Result<BTreeSet<String>, String> {
        let mut out = BTreeSet::new();
        self.list_module(&[], krate, &mut out)?;
        Ok(out)
    }

    /// The names a user can write for a type: each public re-export at the
    /// root under its alias and under its own name (which is how the
    /// signatures spell it), and each public item defined there.
    fn reachable_names(&self) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for item in self.items(&[]) {
            if hidden(attrs(item)) || !public(item) {
                continue;
            }
            match item {
                Item::Use(u) => {
                    for (_, name, alias) in leaves(&u.tree, Vec::new()) {
                        names.insert(name);
                        names.insert(alias);
                    }
                }
                other => names.extend(name_of(other)),
            }
        }
        names
    }

    /// What module `module`, shown as `shown`, exports.
    fn list_module(
        &self,
        module: &[String],
        shown: &str,
        out: &mut BTreeSet<String>,
    ) -> Result<(), String> {
        for item in self.items(module) {
            if hidden(attrs(item)) || !public(item) {
                continue;
            }
            match item {
                Item::Use(u) => {
                    for (from, name, alias) in leaves(&u.tree, Vec::new()) {
                        let path = format!("{shown}::{alias}");
                        let target = resolve_module(module, &from);
                        match self.resolve(&target, &name)? {
                            (def_module, Some(def)) => self.describe(&def_module, &def, &path, out),
                            (def_module, None) => {
                                // Made by a macro: named, with its impls.
                                out.insert(format!("macro-made {path}"));
                                self.impls(&def_module, &name, &path, out);
                            }
                        }
                    }
                }
                Item::Mod(m) => {
                    let path = format!("{shown}::{}", m.ident);
                    out.insert(format!("mod {path}"));
                    let mut child = module.to_vec();
                    child.push(m.ident.to_string());
                    self.list_module(&child, &path, out)?;
                }
                other => {
                    if let Some(name) = name_of(other) {
                        self.describe(module, other, &format!("{shown}::{name}"), out);
                    }
                }
            }
        }
        Ok(())
    }

    /// The definition `name` in `module`, through any `pub use` chain;
    /// `None` when a macro in that module must be what defines it.
    fn resolve(
        &self,
        module: &[String],
        name: &str,
    ) -> Result<(Vec<String>, Option<Item>), String> {
        let items = self.items(module);
        if let Some(def) = items.iter().find(|i| {
            !matches!(i, Item::Mod(_) | Item::Use(_)) && name_of(i).as_deref() == Some(name)
        }) {
            return Ok((module.to_vec(), Some(def.clone())));
        }
        for item in items {
            let Item::Use(u) = item else { continue };
            for (from, leaf, alias) in leaves(&u.tree, Vec::new()) {
                if alias == name {
                    return self.resolve(&resolve_module(module, &from), &leaf);
                }
            }
        }
        if let Some(m) = items
            .iter()
            .find(|i| matches!(i, Item::Mod(m) if m.ident == name))
        {
            return Ok((module.to_vec(), Some(m.clone())));
        }
        if items.iter().any(|i| matches!(i, Item::Macro(_))) {
            return Ok((module.to_vec(), None));
        }
        Err(format!(
            "public_api: cannot find `{name}` in `crate::{}`; a re-export this lister \
             does not follow (a glob?): teach `tests/public-api/src/lib.rs`",
            module.join("::")
        ))
    }

    /// Lines for the item `def` (defined in `module`), shown as `path`.
    fn describe(&self, module: &[String], def: &Item, path: &str, out: &mut BTreeSet<String>) {
        let flags = |a: &[Attribute]| {
            if a.iter().any(|a| a.path().is_ident("non_exhaustive")) {
                " #[non_exhaustive]"
            } else {
                ""
            }
        };
        match def {
            Item::Fn(f) => {
                out.insert(format!("fn {path}{}", signature(&f.sig)));
            }
            Item::Struct(s) => {
                let generics = tokens(&s.generics);
                out.insert(format!("struct {path}{generics}{}", flags(&s.attrs)));
                for (i, field) in s.fields.iter().enumerate() {
                    if matches!(field.vis, Visibility::Public(_)) && !hidden(&field.attrs) {
                        let name = field
                            .ident
                            .as_ref()
                            .map_or(i.to_string(), ToString::to_string);
                        out.insert(format!("field {path}::{name}: {}", tokens(&field.ty)));
                    }
                }
            }
            Item::Enum(e) => {
                let generics = tokens(&e.generics);
                out.insert(format!("enum {path}{generics}{}", flags(&e.attrs)));
                for v in e.variants.iter().filter(|v| !hidden(&v.attrs)) {
                    let fields = match &v.fields {
                        Fields::Unit => String::new(),
                        Fields::Named(named) => {
                            let each: Vec<String> = (named.named.iter())
                                .map(|f| format!("{}: {}", tokens(&f.ident), tokens(&f.ty)))
                                .collect();
                            format!(" {{ {} }}", each.join(", "))
                        }
                        Fields::Unnamed(unnamed) => {
                            let each: Vec<String> =
                                unnamed.unnamed.iter().map(|f| tokens(&f.ty)).collect();
                            format!("({})", each.join(", "))
                        }
                    };
                    out.insert(format!("variant {path}::{}{fields}", v.ident));
                }
            }
            Item::Trait(t) => {
                let bounds = if t.supertraits.is_empty() {
                    String::new()
                } else {
                    format!(": {}", tokens(&t.supertraits))
                };
                out.insert(format!("trait {path}{bounds}"));
                for item in &t.items {
                    if let TraitItem::Fn(f) = item {
                        if !hidden(&f.attrs) {
                            out.insert(format!(
                                "trait-fn {path}::{}{}",
                                f.sig.ident,
                                signature(&f.sig)
                            ));
                        }
                    }
                }
            }
            Item::Const(c) => {
                out.insert(format!("const {path}: {}", tokens(&c.ty)));
            }
            Item::Static(s) => {
                out.insert(format!("static {path}: {}", tokens(&s.ty)));
            }
            Item::Type(t) => {
                out.insert(format!("type {path} = {}", tokens(&t.ty)));
            }
            Item::Mod(_) => {
                out.insert(format!("mod {path}"));
            }
            _ => {}
        }
        if let (Item::Struct(_) | Item::Enum(_), Some(name)) = (def, name_of(def)) {
            for trait_ in derives(attrs(def)) {
                out.insert(format!("impl {trait_} for {path}"));
            }
            self.impls(module, &name, path, out);
        }
    }

    /// The inherent `pub fn`s and trait impls of the type `name` (defined in
    /// `module`): anywhere in the crate when the name is unique, else in
    /// its own module.
    fn impls(&self, module: &[String], name: &str, path: &str, out: &mut BTreeSet<String>) {
        let defined = |items: &[Item]| {
            items.iter().any(|i| {
                matches!(i, Item::Struct(_) | Item::Enum(_) | Item::Type(_))
                    && name_of(i).as_deref() == Some(name)
            })
        };
        let unique = self.modules.values().filter(|items| defined(items)).count() == 1;
        for (m, items) in &self.modules {
            if !unique && m.as_slice() != module {
                continue;
            }
            for item in items {
                let Item::Impl(imp) = item else { continue };
                if excluded(&imp.attrs) || self_name(&imp.self_ty).as_deref() != Some(name) {
                    continue;
                }
                if let Some((_, trait_, _)) = &imp.trait_ {
                    out.insert(format!("impl {} for {path}", tokens(trait_)));
                    continue;
                }
                for member in &imp.items {
                    match member {
                        ImplItem::Fn(f)
                            if matches!(f.vis, Visibility::Public(_)) && !excluded(&f.attrs) =>
                        {
                            let sig = signature(&f.sig);
                            out.insert(format!("fn {path}::{}{sig}", f.sig.ident));
                        }
                        ImplItem::Const(c)
                            if matches!(c.vis, Visibility::Public(_)) && !excluded(&c.attrs) =>
                        {
                            out.insert(format!("const {path}::{}: {}", c.ident, tokens(&c.ty)));
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

/// Read and parse one source file.
fn parse(path: &Path) -> Result<syn::File, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("public_api: cannot read `{}`: {e}", path.display()))?;
    syn::parse_file(&text).map_err(|e| format!("public_api: `{}`: {e}", path.display()))
}

/// Record `items` as module `path`, and the modules they declare.
fn collect(
    src: &Path,
    path: Vec<String>,
    items: Vec<Item>,
    modules: &mut HashMap<Vec<String>, Vec<Item>>,
) -> Result<(), String> {
    for item in &items {
        let Item::Mod(m) = item else { continue };
        // A hidden module is still read: the API re-exports from it.
        if test_only(&m.attrs) {
            continue;
        }
        let mut child = path.clone();
        child.push(m.ident.to_string());
        let child_items = match &m.content {
            Some((_, inline)) => inline.clone(),
            None => {
                let dir = path.iter().fold(src.to_path_buf(), |d, p| d.join(p));
                let flat = dir.join(format!("{}.rs", m.ident));
                let file = if flat.is_file() {
                    flat
                } else {
                    dir.join(m.ident.to_string()).join("mod.rs")
                };
                parse(&file)?.items
            }
        };
        collect(src, child, child_items, modules)?;
    }
    modules.insert(path, items);
    Ok(())
}

/// The module a `use` path prefix names, seen from `module`.
fn resolve_module(module: &[String], from: &[String]) -> Vec<String> {
    let mut out = module.to_vec();
    for (i, seg) in from.iter().enumerate() {
        match seg.as_str() {
            "crate" if i == 0 => out.clear(),
            "self" => {}
            "super" => {
                out.pop();
            }
            other => out.push(other.to_string()),
        }
    }
    out
}

/// Each name a `use` tree brings in: (module path, name there, name here).
fn leaves(tree: &UseTree, prefix: Vec<String>) -> Vec<(Vec<String>, String, String)> {
    match tree {
        UseTree::Path(p) => {
            let mut prefix = prefix;
            prefix.push(p.ident.to_string());
            leaves(&p.tree, prefix)
        }
        UseTree::Name(n) => vec![(prefix, n.ident.to_string(), n.ident.to_string())],
        UseTree::Rename(r) => vec![(prefix, r.ident.to_string(), r.rename.to_string())],
        UseTree::Group(g) => g
            .items
            .iter()
            .flat_map(|t| leaves(t, prefix.clone()))
            .collect(),
        // A glob cannot be listed without resolving the module's names;
        // `resolve` says so if one is ever needed.
        UseTree::Glob(_) => Vec::new(),
    }
}

fn attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn public(item: &Item) -> bool {
    let vis = match item {
        Item::Const(i) => &i.vis,
        Item::Enum(i) => &i.vis,
        Item::Fn(i) => &i.vis,
        Item::Mod(i) => &i.vis,
        Item::Static(i) => &i.vis,
        Item::Struct(i) => &i.vis,
        Item::Trait(i) => &i.vis,
        Item::Type(i) => &i.vis,
        Item::Use(i) => &i.vis,
        _ => return false,
    };
    matches!(vis, Visibility::Public(_))
}

fn name_of(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Mod(i) => &i.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::Type(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// `#[doc(hidden)]`.
fn hidden(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "hidden")
    })
}

/// `#[cfg(test)]`.
fn test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// Not API: hidden, or compiled for tests only.
fn excluded(attrs: &[Attribute]) -> bool {
    hidden(attrs) || test_only(attrs)
}

/// The traits of `#[derive(...)]`.
fn derives(attrs: &[Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = a.parse_nested_meta(|meta| {
            out.push(tokens(&meta.path));
            Ok(())
        });
    }
    out
}

/// The last segment of an impl's self type (`Config` of `crate::Config<T>`).
fn self_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// `(a: A, b: B) -> C`, with generics and `async`/`const` kept.
fn signature(sig: &syn::Signature) -> String {
    let inputs = tokens(&sig.inputs);
    let inputs = inputs.trim_end_matches(',');
    let mut out = format!("{}({inputs}){}", tokens(&sig.generics), tokens(&sig.output));
    if let Some(w) = &sig.generics.where_clause {
        out.push(' ');
        out.push_str(&tokens(w));
    }
    if sig.asyncness.is_some() {
        out.push_str(" [async]");
    }
    if sig.constness.is_some() {
        out.push_str(" [const]");
    }
    out
}

/// Tokens as one line, with the spaces `proc_macro2` puts around
/// punctuation taken out where a reader would not write them.
fn tokens(t: &impl ToTokens) -> String {
    let mut s = t.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" ,", ","),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        ("& ", "&"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" :", ":"),
        ("' ", "'"),
        ("- >", "->"),
        (",)", ")"),
    ] {
        s = s.replace(from, to);
    }
    s.replace(">(", "> (")
        .replace("->", " -> ")
        .replace("  ", " ")
}

/// The snapshot's text: a header saying how to update it, then the list.
fn render(lines: &BTreeSet<String>) -> String {
    let mut out = String::from(
        "# The public API of the `agenthooks` library (tests/public-api lists it).\n\
         # Regenerate with `UPDATE_PUBLIC_API=1 cargo test -p agenthooks-public-api`.\n",
    );
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Names from outside the crate that may stand in a public signature.
const OUTSIDE_NAMES: &[&str] = &[
    "Arc",
    "Box",
    "Duration",
    "Fn",
    "FnMut",
    "FnOnce",
    "Into",
    "IntoIterator",
    "Item",
    "Iterator",
    "Map",
    "Option",
    "Path",
    "PathBuf",
    "Result",
    "Self",
    "String",
    "Value",
    "Vec",
];

/// Types that stand in a public signature but cannot be named from
/// outside the crate, each with why it is still so. The test fails on any
/// other, and on an entry here that no longer occurs (the list only
/// shrinks): making one public, or its field or method private, is the fix.
const UNNAMEABLE: &[(&str, &str)] = &[
    (
        "AuditConfig",
        "a public field of `Config`: the loader's model, not yet curated",
    ),
    (
        "BrokenFile",
        "a public field of `Config`: the loader's model, not yet curated",
    ),
    (
        "Budgets",
        "a public field of `Config`: the loader's model, not yet curated",
    ),
    (
        "Handler",
        "`Config::handlers` and `WasmHost::run`: the loader's model, not yet curated",
    ),
    (
        "LlmSettings",
        "a public field of `Config`: the loader's model, not yet curated",
    ),
    (
        "ManagedPolicy",
        "a public field of `Config`: the loader's model, not yet curated",
    ),
    (
        "OnError",
        "a public field of `Config`: the loader's model, not yet curated",
    ),
    (
        "Limits",
        "a public field of `Sandbox`: wasm limits, not yet curated",
    ),
    (
        "EventMemory",
        "a public field of `Sandbox`: wasm limits, not yet curated",
    ),
    (
        "Compiled",
        "`WasmHost::compile`: the wasm engine's, not yet curated",
    ),
    (
        "EngineOptions",
        "`WasmHost::with_options`: the wasm engine's, not yet curated",
    ),
    (
        "ExecContext",
        "`WasmHost::run`: the executor's, not yet curated",
    ),
    (
        "WasmSpec",
        "`WasmHost::run` and `Sandbox::from_spec`: the loader's model, not yet curated",
    ),
];

/// The type names in the signatures of `lines` (fields, variants,
/// functions, constants) that are neither `reachable` nor from outside the
/// crate, each with the first line that uses it.
fn unnameable(lines: &BTreeSet<String>, reachable: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in lines {
        let Some((kind, rest)) = line.split_once(' ') else {
            continue;
        };
        if !["field", "variant", "fn", "trait-fn", "const", "static"].contains(&kind) {
            continue;
        }
        // The signature: what follows the item's own path.
        let path_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let signature = &rest[path_len..];
        let words = signature.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        for word in words {
            let type_like = word.len() > 1 && word.starts_with(|c: char| c.is_ascii_uppercase());
            if type_like && !reachable.contains(word) && !OUTSIDE_NAMES.contains(&word) {
                out.entry(word.to_string()).or_insert_with(|| line.clone());
            }
        }
    }
    out
}

#[test]
fn no_type_in_a_public_signature_is_unnameable_outside_the_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(RUNTIME);
    let krate = Crate::read(&root.join("src")).unwrap_or_else(|e| panic!("{e}"));
    let lines = krate.list("agenthooks").unwrap_or_else(|e| panic!("{e}"));
    let found = unnameable(&lines, &krate.reachable_names());
    for (name, line) in &found {
        assert!(
            UNNAMEABLE.iter().any(|(known, _)| known == name),
            "`{name}` stands in the public API (`{line}`) but cannot be named outside the \
             crate: re-export it at the root, or keep it out of public signatures"
        );
    }
    for (name, _) in UNNAMEABLE {
        assert!(
            found.contains_key(*name),
            "`{name}` is in UNNAMEABLE but no longer stands in a public signature: drop it"
        );
    }
}

#[test]
fn a_hidden_type_in_a_signature_is_found_and_a_re_exported_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lib.rs"),
        "mod inner {\n pub struct Secret;\n pub struct Shown;\n pub struct Aliased;\n \
         pub enum E { A(Secret), B { s: Shown }, C(Aliased), D(Option<String>) }\n \
         impl E { pub fn f(&self, s: &Shown) -> Vec<Secret> { todo!() } }\n}\n\
         pub use inner::{E, Shown, Aliased as Other};\n",
    )
    .unwrap();
    let krate = Crate::read(dir.path()).unwrap();
    let found = unnameable(&krate.list("k").unwrap(), &krate.reachable_names());
    assert_eq!(found.keys().collect::<Vec<_>>(), ["Secret"], "{found:?}");
}

#[test]
fn the_public_api_is_the_committed_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(RUNTIME);
    let krate = Crate::read(&root.join("src")).unwrap_or_else(|e| panic!("{e}"));
    let now = render(&krate.list("agenthooks").unwrap_or_else(|e| panic!("{e}")));
    let file: PathBuf = root.join(SNAPSHOT);
    if std::env::var_os(UPDATE_VAR).is_some() {
        std::fs::write(&file, &now).expect("write the snapshot");
        return;
    }
    let before = std::fs::read_to_string(&file).unwrap_or_default();
    if before != now {
        let diff = similar::TextDiff::from_lines(&before, &now)
            .unified_diff()
            .header("runtime/public-api.txt (committed)", "the sources now")
            .to_string();
        panic!(
            "the public API changed:\n{diff}\nIf that is intended, regenerate the snapshot with \
             `{UPDATE_VAR}=1 cargo test -p agenthooks-public-api` and commit it."
        );
    }
}

#[test]
fn re_exports_are_followed_and_hidden_items_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(
        src.join("lib.rs"),
        "mod inner;\n#[doc(hidden)] pub mod secret;\npub use inner::{Thing as Renamed, make};\n",
    )
    .unwrap();
    std::fs::create_dir(src.join("inner")).unwrap();
    std::fs::write(
        src.join("inner/mod.rs"),
        "mod deep;\npub use deep::make;\n#[derive(Debug)]\n#[non_exhaustive]\n\
         pub struct Thing { pub a: u8, b: u8, #[doc(hidden)] pub c: u8 }\n\
         impl Thing { pub fn new() -> Thing { todo!() } fn private() {} \
         #[doc(hidden)] pub fn hid() {} }\n\
         #[cfg(test)] impl Thing { pub fn in_tests() {} }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("inner/deep.rs"),
        "pub fn make(n: &str) -> Option<u8> { None }\n",
    )
    .unwrap();
    std::fs::write(src.join("secret.rs"), "pub fn no() {}\n").unwrap();
    let krate = Crate::read(src).unwrap();
    let lines: Vec<String> = krate.list("k").unwrap().into_iter().collect();
    assert_eq!(
        lines,
        [
            "field k::Renamed::a: u8",
            "fn k::Renamed::new() -> Thing",
            "fn k::make(n: &str) -> Option<u8>",
            "impl Debug for k::Renamed",
            "struct k::Renamed #[non_exhaustive]",
        ]
    );
}

#[test]
fn a_re_export_that_cannot_be_found_says_where() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lib.rs"), "mod a { }\npub use a::Gone;\n").unwrap();
    let err = Crate::read(dir.path()).unwrap().list("k").unwrap_err();
    assert!(err.contains("cannot find `Gone` in `crate::a`"), "{err}");
}
