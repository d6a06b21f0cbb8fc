//! Claude Code: the canonical protocol, so decode and encode pass through.
//!
//! Docs: <https://code.claude.com/docs/en/hooks> (checked 2026-11 against the
//! recorded payloads of Claude Code 2.1.197 and 2.1.332 in `tests/fixtures/agents/`).

use serde_json::Value;

use super::{Agent, DecodeError, Native};
use crate::protocol::{Answer, Event, EventName};

/// The Claude Code adapter.
pub struct Claude;

impl Agent for Claude {
    fn id(&self) -> &'static str {
        "claude"
    }

    fn display_name(&self) -> &'static str {
        "Claude Code"
    }

    fn decode(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError> {
        let name = event
            .map(str::parse::<EventName>)
            .transpose()
            .map_err(crate::protocol::EventError::from)?;
        Ok(Event::new(input, name, self.id())?)
    }

    fn encode(&self, _event: &Event, answer: &Answer) -> Native {
        let stdout = if answer.is_empty() {
            String::new()
        } else {
            serde_json::to_string(answer).unwrap_or_default()
        };
        Native {
            stdout,
            stderr: Vec::new(),
            exit_code: 0,
        }
    }

    fn events(&self) -> Vec<EventName> {
        EventName::ALL.to_vec()
    }
}
