//! A session's arrival: where it happens, and the seam for what a process
//! does then ([`Arrival`]: the engine warms the compile cache and says which
//! hooks are held back, `cli::arrival`).
//!
//! A session arrives at SessionStart, or, for an agent that has no
//! SessionStart agenthooks can register, at its first event (the first to
//! claim the session's marker, [`once::claim_notice`]). Either way at most
//! once per `session_id`: the marker lives beside the `once` markers,
//! bounded and cleaned with them.

use std::path::Path;

use crate::agents::Agent;
use crate::config::Config;
use crate::exec::once::{self, Claim};
use crate::protocol::{Answer, Event, EventName, Note};

/// What a session's arrival does, in a process that can do it.
pub(crate) trait Arrival: Sync {
    /// On `arrived.event`, which may be a session's arrival ([`arrives`]
    /// tells): add what the user must be told to `answer` (its
    /// `systemMessage`) or to `notes`. Returns the message said, if any.
    fn arrive(
        &self,
        arrived: &Arrived<'_>,
        answer: &mut Answer,
        notes: &mut Vec<Note>,
    ) -> Option<String>;
}

/// What [`Arrival::arrive`] is given.
pub(crate) struct Arrived<'a> {
    /// The agent the event came from.
    pub agent: &'a dyn Agent,
    /// The event.
    pub event: &'a Event,
    /// The configuration it was dispatched with.
    pub config: &'a Config,
    /// [`crate::install::drift`]'s line, when the wiring no longer covers `hooks.json`.
    pub stale_wiring: Option<String>,
}

/// Whether `agent` fires a SessionStart agenthooks registers.
fn has_session_start(agent: &dyn Agent) -> bool {
    agent
        .table()
        .installed()
        .any(|r| r.canonical == EventName::SessionStart)
}

/// Whether this event is where a session arrives, claiming its marker in
/// `markers` ([`once::notice_dir`]): SessionStart (shown even when the
/// marker cannot be kept, as SessionStart comes once), or an agent's first
/// event when it has no SessionStart.
pub(crate) fn arrives(agent: &dyn Agent, event: &Event, markers: Option<&Path>) -> bool {
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
/// is claimed): a process that cannot arrive (the small `agenthooks`
/// binary, without wasmtime to warm the cache) hands such an event to one
/// that can. One `stat` at most, for an agent without SessionStart.
pub(crate) fn may_arrive(agent: &dyn Agent, event: &Event, markers: Option<&Path>) -> bool {
    if event.name() == EventName::SessionStart {
        return true;
    }
    !has_session_start(agent) && once::notice_unclaimed(event, once::notice_dir(markers).as_deref())
}
