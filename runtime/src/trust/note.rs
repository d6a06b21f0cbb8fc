//! What the trust stage says, as data until printed: the pipeline makes each
//! run-level note a [`Note`](crate::protocol::Note) of kind `trust`, and a
//! hook's own ones join its report.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// One note of the trust stage. `Display` is the sentence shown.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TrustNote {
    /// The trust store cannot be read, so every project hook counts as
    /// untrusted (fail closed).
    StoreUnreadable {
        /// The store's file.
        path: PathBuf,
        /// Why it cannot be read.
        why: String,
    },
    /// Untrusted project hooks were held back at this event: the one note
    /// of a run that names `agenthooks trust`.
    HeldBack {
        /// How many, and how, per declaring file.
        held: BTreeMap<PathBuf, Held>,
    },
    /// A hook's script cannot be hashed (a FIFO, too large), so it counts
    /// as changed since it was trusted.
    Changed {
        /// Why it cannot be hashed.
        why: String,
    },
    /// A project wasm hook of a trusted project names a component outside
    /// the project (another project's, the user's). Untrusted, such hooks
    /// are refused and counted in [`TrustNote::HeldBack`] instead: one line
    /// for twenty hooks, not twenty.
    OutsideProject {
        /// The component named.
        component: PathBuf,
        /// The project's root.
        root: PathBuf,
    },
    /// An untrusted project wasm hook runs without part of what it asks for.
    Withheld {
        /// Each grant or limit withheld, described.
        withheld: Vec<String>,
    },
}

/// The most hooks an untrusted project runs at one event: the rest are
/// skipped ([`Skip::OverUntrustedCap`](crate::protocol::Skip::OverUntrustedCap)) until the user trusts the project,
/// so a cloned repository cannot start hundreds of sandboxes per tool call.
pub const UNTRUSTED_PER_EVENT: usize = 16;

/// How many untrusted project hooks of one file were held back, and how.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    /// Command hooks not run.
    pub skipped: usize,
    /// Http hooks not run.
    pub skipped_http: usize,
    /// Prompt hooks not run (nothing sent to a model).
    pub skipped_llm: usize,
    /// MCP tool hooks not run (no server started, nothing sent).
    pub skipped_mcp: usize,
    /// Wasm hooks not run because their component lies outside the project.
    pub refused_outside: usize,
    /// Wasm hooks run with narrowed grants.
    pub narrowed: usize,
    /// Wasm hooks whose answer lost what only trust allows.
    pub restricted: usize,
    /// Hooks not run past [`UNTRUSTED_PER_EVENT`].
    pub capped: usize,
}

impl Held {
    fn count(&self) -> usize {
        self.skipped
            + self.skipped_http
            + self.skipped_llm
            + self.skipped_mcp
            + self.refused_outside
            + self.narrowed
            + self.restricted
            + self.capped
    }

    fn plus(self, b: &Held) -> Held {
        Held {
            skipped: self.skipped + b.skipped,
            skipped_http: self.skipped_http + b.skipped_http,
            skipped_llm: self.skipped_llm + b.skipped_llm,
            skipped_mcp: self.skipped_mcp + b.skipped_mcp,
            refused_outside: self.refused_outside + b.refused_outside,
            narrowed: self.narrowed + b.narrowed,
            restricted: self.restricted + b.restricted,
            capped: self.capped + b.capped,
        }
    }
}

impl TrustNote {
    /// The note of a store at `path` that cannot be read for `why`.
    pub fn store_unreadable(path: &Path, why: impl fmt::Display) -> TrustNote {
        TrustNote::StoreUnreadable {
            path: path.to_path_buf(),
            why: why.to_string(),
        }
    }

    /// The one note of a run with untrusted project hooks held back;
    /// `None` when nothing was.
    pub fn held_back(held: &BTreeMap<PathBuf, Held>) -> Option<TrustNote> {
        let any = held.values().any(|h| h.count() > 0);
        any.then(|| TrustNote::HeldBack { held: held.clone() })
    }
}

impl fmt::Display for TrustNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrustNote::StoreUnreadable { path, why } => write!(
                f,
                "the trust store `{}` cannot be read ({why}); every project hook counts as \
                 untrusted; delete the file and run `agenthooks trust` in each project to trust its hooks again",
                path.display()
            ),
            TrustNote::HeldBack { held } => held_back(f, held),
            TrustNote::Changed { why } => write!(f, "counts as changed: {why}"),
            TrustNote::OutsideProject { component, root } => write!(
                f,
                "its component `{}` lies outside the project `{}`",
                component.display(),
                root.display()
            ),
            TrustNote::Withheld { withheld } => {
                write!(f, "runs without {} until trusted", withheld.join(", "))
            }
        }
    }
}

/// ``skipped 2 untrusted project command hooks … from `<file>`; review and
/// allow them with `agenthooks trust` ``.
fn held_back(f: &mut fmt::Formatter<'_>, held: &BTreeMap<PathBuf, Held>) -> fmt::Result {
    let total = held.values().fold(Held::default(), Held::plus);
    let they_ask = if total.narrowed == 1 {
        "it asks"
    } else {
        "they ask"
    };
    let without = format!(" without the access {they_ask} for");
    let past_cap = format!(" past the limit of {UNTRUSTED_PER_EVENT} per event");
    // (how many, what was done to them, which hooks, the rest of the sentence)
    let what: Vec<String> = [
        (total.skipped, "skipped", "untrusted project command", ""),
        (
            total.skipped_http,
            "held back",
            "untrusted project http",
            ", which would send events off the machine",
        ),
        (
            total.skipped_llm,
            "held back",
            "untrusted project prompt",
            ", which would send events to your model",
        ),
        (
            total.skipped_mcp,
            "held back",
            "untrusted project mcp_tool",
            ", which would start or call MCP servers",
        ),
        (
            total.refused_outside,
            "refused",
            "untrusted project wasm",
            " whose components lie outside the project",
        ),
        (total.narrowed, "ran", "untrusted project wasm", &without),
        (
            total.restricted,
            "ignored the allow or rewrite in the answer of",
            "untrusted project wasm",
            "",
        ),
        (total.capped, "skipped", "more untrusted project", &past_cap),
    ]
    .into_iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, verb, which, tail)| {
        let hooks = if n == 1 { "hook" } else { "hooks" };
        format!("{verb} {n} {which} {hooks}{tail}")
    })
    .collect();
    let files: Vec<String> = held.keys().map(|f| format!("`{}`", f.display())).collect();
    let them = if total.count() == 1 { "it" } else { "them" };
    write!(
        f,
        "{} from {}; review and allow {them} with `agenthooks trust`",
        what.join(" and "),
        files.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_held_back_is_no_note_and_one_hook_is_it() {
        let mut held = BTreeMap::new();
        held.insert(PathBuf::from("/p/.agents/hooks.json"), Held::default());
        assert_eq!(TrustNote::held_back(&held), None);
        held.values_mut().for_each(|h| h.skipped_http = 1);
        let note = TrustNote::held_back(&held).unwrap().to_string();
        assert_eq!(
            note,
            "held back 1 untrusted project http hook, which would send events off the machine \
             from `/p/.agents/hooks.json`; review and allow it with `agenthooks trust`"
        );
    }

    #[test]
    fn an_unreadable_store_names_the_file_and_the_fix() {
        let note = TrustNote::store_unreadable(Path::new("/h/trust.json"), "bad json");
        let text = note.to_string();
        assert!(text.starts_with("the trust store `/h/trust.json` cannot be read (bad json)"));
        assert!(text.contains("delete the file"), "{text}");
    }
}
