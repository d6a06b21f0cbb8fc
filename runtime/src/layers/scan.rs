//! Reading Rust source just well enough for the structure checks: comments
//! and literals blanked, test-only items blanked, and every module path the
//! code names (`use` trees, and inline `crate::`, `super::`, `self::`
//! paths), resolved to the module it reaches. No parser crate: the checks
//! need braces, words and paths, and a blanked copy keeps every line number.

use std::collections::{BTreeMap, BTreeSet};

/// A module path from the crate root: `exec/wasm/host.rs` → `["exec",
/// "wasm", "host"]`; `lib.rs` → `[]`.
pub(super) type ModPath = Vec<String>;

/// `text` with comments and the insides of string, byte and char literals
/// turned into spaces (newlines kept), so that braces, `fn` and `crate::`
/// found in it are code.
pub(super) fn mask(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out = s.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(s.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < s.len() {
        let next = s.get(i + 1).copied();
        let after_word = i > 0 && ident(s[i - 1]);
        if s[i] == '/' && next == Some('/') {
            let end = s[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(s.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if s[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < s.len() && depth > 0 {
                if s[j] == '/' && s.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 1;
                } else if s[j] == '*' && s.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 1;
                }
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
        } else if !after_word && (s[i] == 'r' || (s[i] == 'b' && next == Some('r'))) {
            // r"…", r#"…"#, br"…": a raw string ends at `"` and as many `#`.
            let mut j = i + if s[i] == 'b' { 2 } else { 1 };
            let hashes = s[j..].iter().take_while(|&&c| c == '#').count();
            j += hashes;
            if s.get(j) != Some(&'"') {
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let end = (j + 1..s.len())
                .find(|&k| s[k..].starts_with(&close))
                .map_or(s.len(), |k| k + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if s[i] == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if s[i] == '\'' {
            // '{' or '\n' is a char; 'a alone is a lifetime or a label.
            let end = if next == Some('\\') {
                (i + 2..s.len()).find(|&k| s[k] == '\'').map(|k| k + 1)
            } else if s.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// `masked` (from [`mask`]) with every item under `#[cfg(test)]` or
/// `#[cfg(all(test, …))]` blanked: a test module, a test-only `mod x;`, a
/// test helper. Code after a test module stays in.
pub(super) fn strip_tests(masked: &str) -> String {
    let mut s: Vec<char> = masked.chars().collect();
    let attrs: Vec<Vec<char>> = ["#[cfg(test)]", "#[cfg(all(test,"]
        .iter()
        .map(|a| a.chars().collect())
        .collect();
    let mut i = 0;
    while i < s.len() {
        if !attrs.iter().any(|a| s[i..].starts_with(a)) {
            i += 1;
            continue;
        }
        let Some(end) = item_end(&s, i) else { break };
        for c in &mut s[i..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end;
    }
    s.into_iter().collect()
}

/// The char index just past the item that starts at `start` (its
/// attributes first): after its `;`, or its `{…}` block.
fn item_end(s: &[char], start: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = start;
    while i < s.len() {
        match s[i] {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => return Some(i + 1),
            '{' if depth == 0 => return block_end(s, i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The char index just past the `}` that closes the `{` at `open`.
pub(super) fn block_end(s: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, &c) in s.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The code of a source file: comments, literals and test items blanked.
pub(super) fn code(text: &str) -> String {
    strip_tests(&mask(text))
}

/// The module a file under `src` is: `exec/wasm/mod.rs` → `exec::wasm`,
/// `audit/sign.rs` → `audit::sign`, `lib.rs` → the root.
pub(super) fn module_path(rel: &str) -> ModPath {
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if !(stem == "mod" || (parts.is_empty() && stem == "lib")) {
        parts.push(stem.to_string());
    }
    parts
}

/// One path the code names: the line it starts on (1-based), the path from
/// the crate root, and the name a `use` binds it to (None outside `use`).
#[derive(Debug, Clone)]
pub(super) struct Named {
    pub line: usize,
    pub path: ModPath,
    pub binds: Option<String>,
}

/// Every path into this crate that `code` (from [`code`]) names, for the
/// file of module `module` whose child modules are `children`: each leaf of
/// a `use` tree that starts at `crate`, `super`, `self` or a child, and
/// each inline `crate::…`, `super::…` or `self::…` path in code. A macro's
/// `$crate::…` counts for the file that writes the macro: its text names
/// that module.
pub(super) fn named(code: &str, module: &[String], children: &BTreeSet<String>) -> Vec<Named> {
    let s: Vec<char> = code.chars().collect();
    let line_at = |i: usize| 1 + s[..i].iter().filter(|&&c| c == '\n').count();
    let mut out = Vec::new();
    let mut in_use = vec![false; s.len()];
    for at in words(&s, "use") {
        let mut leaves = Vec::new();
        let end = tree(&s, skip_ws(&s, at + 3), Vec::new(), &mut leaves);
        for flag in &mut in_use[at..end.min(s.len())] {
            *flag = true;
        }
        for (raw, alias) in leaves {
            let local = raw.first().is_some_and(|f| children.contains(f));
            let anchored = raw
                .first()
                .is_some_and(|f| ["crate", "super", "self"].contains(&f.as_str()));
            if !(local || anchored) {
                continue; // std::, serde::, … : another crate
            }
            let binds = alias
                .or_else(|| raw.last().cloned())
                .filter(|b| b != "*" && b != "self");
            let path = absolute(module, &raw, local);
            out.push(Named {
                line: line_at(at),
                path,
                binds,
            });
        }
    }
    for anchor in ["crate", "super", "self"] {
        for at in words(&s, anchor) {
            if in_use[at] || !s[at + anchor.len()..].starts_with(&[':', ':']) {
                continue;
            }
            if at >= 2 && s[at - 2..at] == [':', ':'] {
                continue; // the middle of `super::super::`
            }
            let mut leaves = Vec::new();
            tree(&s, at, Vec::new(), &mut leaves);
            for (raw, _) in leaves {
                out.push(Named {
                    line: line_at(at),
                    path: absolute(module, &raw, false),
                    binds: None,
                });
            }
        }
    }
    out
}

/// `raw` (as written, in `module`) from the crate root: `super` steps up,
/// `self` stays, a leading child name (`local`) starts at `module`.
fn absolute(module: &[String], raw: &[String], local: bool) -> ModPath {
    let mut path: ModPath = match raw.first().map(String::as_str) {
        Some("super" | "self") => module.to_vec(),
        _ if local => module.to_vec(),
        _ => Vec::new(),
    };
    for (i, seg) in raw.iter().enumerate() {
        match seg.as_str() {
            "crate" if i == 0 => {}
            "super" => {
                path.pop();
            }
            "self" | "*" => {}
            _ => path.push(seg.clone()),
        }
    }
    path
}

/// The start of each whole word `word` in `s`.
fn words(s: &[char], word: &str) -> Vec<usize> {
    let w: Vec<char> = word.chars().collect();
    let ident = |c: &char| c.is_alphanumeric() || *c == '_';
    (0..s.len().saturating_sub(w.len() - 1))
        .filter(|&i| s[i..].starts_with(&w))
        .filter(|&i| i == 0 || !ident(&s[i - 1]))
        .filter(|&i| !s.get(i + w.len()).is_some_and(ident))
        .collect()
}

fn skip_ws(s: &[char], mut i: usize) -> usize {
    while i < s.len() && s[i].is_whitespace() {
        i += 1;
    }
    i
}

/// Reads a path or `use` tree at `i` (`a::b`, `a::{b, c::{d as e}}`, `a::*`)
/// into its leaves (segments, alias), each after `prefix`; returns the
/// index after it.
fn tree(
    s: &[char],
    i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut i = skip_ws(s, i);
    let mut path = prefix;
    loop {
        if s.get(i) == Some(&'{') {
            i += 1;
            loop {
                i = skip_ws(s, i);
                match s.get(i) {
                    None => return i,
                    Some('}') => return i + 1,
                    Some(',') => i += 1,
                    _ => i = tree(s, i, path.clone(), out),
                }
            }
        }
        if s.get(i) == Some(&'*') {
            path.push("*".into());
            out.push((path, None));
            return i + 1;
        }
        let start = i;
        while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
            i += 1;
        }
        if i > start {
            path.push(s[start..i].iter().collect());
        }
        let after = skip_ws(s, i);
        if i > start && s[after..].starts_with(&[':', ':']) {
            i = skip_ws(s, after + 2);
            continue;
        }
        let mut alias = None;
        if s[after..].starts_with(&['a', 's'])
            && s.get(after + 2).is_some_and(|c| c.is_whitespace())
        {
            let from = skip_ws(s, after + 2);
            let mut j = from;
            while j < s.len() && (s[j].is_alphanumeric() || s[j] == '_') {
                j += 1;
            }
            alias = Some(s[from..j].iter().collect());
            i = j;
        }
        if !path.is_empty() {
            out.push((path, alias));
        }
        return i;
    }
}

/// The crate's modules and what each one's `use`s bind, to follow a name
/// through re-exports to the module that defines it.
pub(super) struct Crate {
    pub modules: BTreeSet<ModPath>,
    pub binds: BTreeMap<ModPath, BTreeMap<String, ModPath>>,
}

impl Crate {
    /// The module `path` reaches: its longest prefix that is a module,
    /// followed through that module's `use` of the next name (at most a
    /// few hops, so a cycle of re-exports cannot loop).
    pub(super) fn resolve(&self, path: &[String]) -> ModPath {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let known = (0..=path.len())
                .rev()
                .find(|&n| self.modules.contains(&path[..n]))
                .unwrap_or(0);
            let module = path[..known].to_vec();
            let Some(name) = path.get(known) else {
                return module;
            };
            match self.binds.get(&module).and_then(|b| b.get(name)) {
                Some(target) if *target != path[..=known] => {
                    let mut next = target.clone();
                    next.extend_from_slice(&path[known + 1..]);
                    path = next;
                }
                _ => return module,
            }
        }
        path
    }
}

/// The names of the child modules `code` declares from files (`mod x;`).
pub(super) fn declared(code: &str) -> BTreeSet<String> {
    let s: Vec<char> = code.chars().collect();
    let mut out = BTreeSet::new();
    for at in words(&s, "mod") {
        let from = skip_ws(&s, at + 3);
        let mut j = from;
        while j < s.len() && (s[j].is_alphanumeric() || s[j] == '_') {
            j += 1;
        }
        if j > from && s.get(skip_ws(&s, j)) == Some(&';') {
            out.insert(s[from..j].iter().collect());
        }
    }
    out
}

/// One live source file: its path under `src`, module, text and code.
pub(super) struct File {
    pub rel: String,
    pub module: ModPath,
    pub code: String,
}

/// The library's live files (those `lib.rs` reaches through `mod`
/// declarations that are not test-only; the binaries' roots are apart) and
/// the [`Crate`] they make.
pub(super) fn library(sources: Vec<(String, String)>) -> (Vec<File>, Crate) {
    let all: BTreeMap<ModPath, (String, String)> = sources
        .into_iter()
        .filter(|(rel, _)| rel != "main.rs" && rel != "front.rs")
        .map(|(rel, text)| (module_path(&rel), (rel, code(&text))))
        .collect();
    let live = |m: &ModPath| {
        (1..=m.len()).all(|n| {
            all.get(&m[..n - 1])
                .is_some_and(|(_, code)| declared(code).contains(&m[n - 1]))
        })
    };
    let files: Vec<File> = all
        .iter()
        .filter(|(m, _)| live(m))
        .map(|(m, (rel, code))| File {
            rel: rel.clone(),
            module: m.clone(),
            code: code.clone(),
        })
        .collect();
    let modules: BTreeSet<ModPath> = files.iter().map(|f| f.module.clone()).collect();
    let mut binds = BTreeMap::new();
    for f in &files {
        let children = children(&modules, &f.module);
        let map: BTreeMap<String, ModPath> = named(&f.code, &f.module, &children)
            .into_iter()
            .filter_map(|n| Some((n.binds?, n.path)))
            .collect();
        binds.insert(f.module.clone(), map);
    }
    (files, Crate { modules, binds })
}

/// The names of `module`'s child modules.
pub(super) fn children(modules: &BTreeSet<ModPath>, module: &[String]) -> BTreeSet<String> {
    modules
        .iter()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
        .map(|m| m[module.len()].clone())
        .collect()
}
