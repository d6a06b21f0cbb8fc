//! One module per agent: its name table, decode, encode, install and capability row.
//!
//! Stage 1 (decode) and stage 6 (encode) of the pipeline. Adding an agent means
//! adding one module and one line in [`AGENTS`].

use serde_json::Value;

use crate::protocol::{Answer, Event, EventError, EventName};

pub mod claude;
pub mod deadline;

/// What `run` writes back to the agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Native {
    /// Written to stdout as is (often one JSON document, or nothing).
    pub stdout: String,
    /// Written to stderr, one line each (a block reason, notes about what was dropped).
    pub stderr: Vec<String>,
    /// The process exit code.
    pub exit_code: i32,
}

/// Why an agent's payload could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The payload is not valid as that agent's input.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The agent's event has no canonical equivalent.
    #[error("`{agent}` event `{event}` has no equivalent the runtime can serve")]
    UnmappedEvent {
        /// The agent id.
        agent: &'static str,
        /// The native event name.
        event: String,
    },
    /// Anything else wrong with the payload.
    #[error("{0}")]
    Invalid(String),
}

/// An agent adapter.
pub trait Agent: Sync + Send {
    /// The id users type (`claude`, `codex`, ...).
    fn id(&self) -> &'static str;

    /// The agent's display name.
    fn display_name(&self) -> &'static str;

    /// Native input → canonical event. `event` is the `--event` argument, native
    /// or canonical spelling, for agents whose payload does not name the event.
    ///
    /// # Errors
    /// When the payload cannot be read as this agent's input.
    fn decode(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError>;

    /// Aggregated answer → what this agent acts on, with a note for each part it cannot do.
    fn encode(&self, event: &Event, answer: &Answer) -> Native;

    /// The canonical events this agent fires and the runtime can serve.
    fn events(&self) -> Vec<EventName>;
}

/// Every agent, in the order `agenthooks agents` prints them.
pub static AGENTS: &[&dyn Agent] = &[&claude::Claude];

/// The agent with this id.
pub fn find(id: &str) -> Option<&'static dyn Agent> {
    AGENTS.iter().copied().find(|a| a.id() == id)
}
