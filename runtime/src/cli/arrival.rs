//! What `run` does once when a session arrives: start compiling the
//! components the cache lacks, so the first tool call does not pay for it,
//! and tell the user in the agent's own window about hooks that are held
//! back or cannot run ([`status::notice`]).
//!
//! A session arrives at SessionStart, or, for an agent that has no
//! SessionStart agenthooks can register, at its first event (the first to
//! claim the session's marker, [`once::claim_notice`]). Either way at most
//! once per `session_id`: the marker lives beside the `once` markers,
//! bounded and cleaned with them.

use std::path::PathBuf;

use crate::agents::Agent;
use crate::cli::findings as status;
use crate::config::Config;
use crate::exec::once::{self, Claim};
use crate::exec::wasm::{worker, WasmHost};
use crate::protocol::{Answer, Event, EventName, Note, NoteKind, Source};
use crate::trust::TrustStore;

/// Whether `agent` fires a SessionStart agenthooks registers.
fn has_session_start(agent: &dyn Agent) -> bool {
    agent
        .table()
        .installed()
        .any(|r| r.canonical == EventName::SessionStart)
}

/// Whether this event is where a session arrives, claiming its marker:
/// SessionStart (shown even when the marker cannot be kept, as SessionStart
/// comes once), or an agent's first event when it has no SessionStart.
fn arrives(agent: &dyn Agent, event: &Event, markers: Option<&std::path::Path>) -> bool {
    let start = event.name() == EventName::SessionStart;
    if !start && has_session_start(agent) {
        return false;
    }
    match once::claim_notice(event, markers) {
        Claim::First => true,
        Claim::Already => false,
        // No session id or no place for the marker: only SessionStart is
        // known to come once.
        Claim::Unknown(_) => start,
    }
}

/// Whether this event may be a session's arrival, looking only (no marker
/// is claimed): a process that cannot do [`on_arrival`] (the small
/// `agenthooks` binary, without wasmtime to warm the cache) hands such an
/// event to one that can. One `stat` at most, for an agent without SessionStart.
pub fn may_arrive(agent: &dyn Agent, event: &Event, markers: Option<PathBuf>) -> bool {
    if event.name() == EventName::SessionStart {
        return true;
    }
    !has_session_start(agent)
        && once::notice_unclaimed(event, once::notice_dir(markers.as_deref()).as_deref())
}

/// On a session's arrival: warm the cache for `config`'s components, and
/// add the message about held-back hooks to `answer` (its `systemMessage`,
/// after a hook's own), or to `notes` when the agent shows none at this
/// event. `stale_wiring` is [`install::drift`](crate::install::drift)'s
/// line, said there too. `markers` is where the once-per-session marker goes (`None`: the
/// cache directory's `arrived/`).
pub fn on_arrival(
    agent: &dyn Agent,
    event: &Event,
    config: &Config,
    answer: &mut Answer,
    notes: &mut Vec<Note>,
    stale_wiring: Option<String>,
    markers: Option<PathBuf>,
) {
    let markers = once::notice_dir(markers.as_deref());
    if !arrives(agent, event, markers.as_deref()) {
        return;
    }
    // Detached workers: the answer does not wait for them.
    worker::warm_in_background(&super::compile::components_of(config, false));
    let (store, store_note) = TrustStore::load();
    notes.extend(store_note.map(|n| Note::new(Source::Trust, NoteKind::Trust, n.to_string())));
    let hooks = status::hooks(config, &store, WasmHost::global());
    let stale_wiring = stale_wiring.map(|line| format!("agenthooks: {line}"));
    let message = match (status::notice(&hooks), stale_wiring) {
        (Some(held), Some(stale)) => format!("{held}\n{stale}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => return,
    };
    let shows = agent
        .table()
        .installed()
        .filter(|r| r.canonical == event.name())
        .any(|r| r.caps.system_message);
    if shows {
        answer.system_message = Some(match answer.system_message.take() {
            Some(own) => format!("{own}\n{message}"),
            None => message,
        });
    } else {
        notes.push(Note::runtime(NoteKind::HeldBack, message));
    }
}
