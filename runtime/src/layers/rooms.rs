//! No import circle inside a folder. `LAYERS` orders the top-level
//! modules; inside each folder (a "room": `exec/`, `exec/wasm/`,
//! `agents/`, and the crate root itself) the files must import one another
//! one way too, so that a room reads bottom-up like the house does.
//!
//! A file imports a sibling when it names it: a `use` or an inline path
//! through `crate::`, `super::` or `self::`, followed through the `use`s
//! (re-exports) of the module it lands in, so `use super::Table` counts as
//! an import of `table.rs` when `mod.rs` re-exports it from there. The
//! folder's own `mod.rs` is not a room member: its children import its
//! trait and types as a matter of course. A folder's subfolder counts as
//! one member (`exec/wasm/` inside `exec/`).

use std::collections::{BTreeMap, BTreeSet};

use super::scan::{File, ModPath};

/// An import from one member of a room to another: (room, from, to) → the
/// first place it is written (file, line).
type Edges = BTreeMap<(ModPath, String, String), (String, usize)>;

/// Every in-room import of the library's live files.
pub(super) fn edges(files: &[File], krate: &super::scan::Crate) -> Edges {
    let mut out = Edges::new();
    for f in files {
        let children = super::scan::children(&krate.modules, &f.module);
        for named in super::scan::named(&f.code, &f.module, &children) {
            let to = krate.resolve(&named.path);
            let common = f.module.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if f.module.len() > common && to.len() > common {
                let key = (
                    f.module[..common].to_vec(),
                    f.module[common].clone(),
                    to[common].clone(),
                );
                out.entry(key)
                    .or_insert_with(|| (f.rel.clone(), named.line));
            }
        }
    }
    out
}

/// One bounded line per import circle (a strongly connected set of more
/// than one member of a room): the room, one cycle through it with the
/// file and line of each import, and every member of the set.
pub(super) fn circles(edges: &Edges) -> Vec<String> {
    let rooms: BTreeSet<&ModPath> = edges.keys().map(|(room, _, _)| room).collect();
    let mut out = Vec::new();
    for room in rooms {
        let graph: BTreeMap<&str, Vec<&str>> = edges.keys().filter(|(r, _, _)| r == room).fold(
            BTreeMap::new(),
            |mut g, (_, from, to)| {
                g.entry(from.as_str()).or_default().push(to.as_str());
                g
            },
        );
        for set in strongly_connected(&graph) {
            if set.len() < 2 {
                continue;
            }
            let name = if room.is_empty() {
                "src".to_string()
            } else {
                room.join("/")
            };
            let cycle = cycle(&graph, &set)
                .windows(2)
                .map(|hop| {
                    let (file, line) =
                        &edges[&(room.clone(), hop[0].to_string(), hop[1].to_string())];
                    format!("{file}:{line} → {}", hop[1])
                })
                .collect::<Vec<_>>()
                .join(", ");
            let mut line = format!(
                "{name}/: an import circle among {}: {cycle}; move what they share down into one of \
                 them or a new leaf module",
                set.join(", ")
            );
            if line.chars().count() > 600 {
                line = line.chars().take(599).chain(['…']).collect();
            }
            out.push(line);
        }
    }
    out
}

/// Tarjan's strongly connected components of `graph`, each sorted.
fn strongly_connected<'a>(graph: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<Vec<&'a str>> {
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(v: &'a str, graph: &BTreeMap<&'a str, Vec<&'a str>>, st: &mut State<'a>) {
        let at = st.index.len();
        st.index.insert(v, at);
        st.low.insert(v, at);
        st.stack.push(v);
        for &w in graph.get(v).into_iter().flatten() {
            if !st.index.contains_key(w) {
                visit(w, graph, st);
                let low = st.low[v].min(st.low[w]);
                st.low.insert(v, low);
            } else if st.stack.contains(&w) {
                let low = st.low[v].min(st.index[w]);
                st.low.insert(v, low);
            }
        }
        if st.low[v] == st.index[v] {
            let mut set = Vec::new();
            while let Some(w) = st.stack.pop() {
                set.push(w);
                if w == v {
                    break;
                }
            }
            set.sort();
            st.out.push(set);
        }
    }
    let mut st = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for &v in graph.keys() {
        if !st.index.contains_key(v) {
            visit(v, graph, &mut st);
        }
    }
    st.out
}

/// A shortest cycle through the first member of `set`, inside `set`,
/// first member repeated at the end.
fn cycle<'a>(graph: &BTreeMap<&'a str, Vec<&'a str>>, set: &[&'a str]) -> Vec<&'a str> {
    let start = set[0];
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in graph.get(v).into_iter().flatten() {
            if w == start {
                let mut path = vec![start, v];
                let mut at = v;
                while let Some(&prev) = came_from.get(at) {
                    path.insert(1, prev);
                    at = prev;
                }
                path.dedup();
                path.push(start);
                return path;
            }
            if set.contains(&w) && !came_from.contains_key(w) && w != start {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    vec![start]
}
