//! How long each agent waits for `agenthooks run`, and the budget that leaves the hooks.
//!
//! An agent that gives up on a hook command acts as if it allowed (every agent
//! in `docs/agent-protocols.md` §14.5 fails open on a timeout). A hook
//! set to fail closed (`onError: "deny"`) is only worth something if its deny
//! reaches the agent, so the runtime keeps its own deadline below the agent's:
//! each handler's timeout is clamped to [`budget`] of the agent's deadline,
//! and a handler that runs past it is killed and counted as failed while
//! there is still time to answer.
//!
//! The numbers are the agents' documented defaults (checked 2026-11), and
//! `install` writes the same number as each entry's native timeout
//! (`crate::install::native_timeout`), so an entry written by `install` and
//! one written by hand (which gets the default) are clamped alike, and no
//! agent is asked for more than it accepts: where an agent caps an event's
//! timeout (Codex: SessionEnd at most 3 s, with a warning for more) the cap is
//! recorded too and bounds [`Deadline::on`]. Each agent module states its own
//! ([`Agent::deadline`](super::Agent::deadline)); an agent whose default is not
//! documented gets [`UNVERIFIED`], the shortest default seen.

use std::time::Duration;

use serde_json::Value;

use super::{Agent, DecodeError};
use crate::protocol::{Event, EventName};

/// The deadline assumed for a known agent whose default is not documented.
pub const UNVERIFIED: Deadline = Deadline::new(secs(30), &[]);

/// The time kept back from the agent's deadline to aggregate, encode and
/// write the answer: 2 s, or a fifth of a short deadline.
const MARGIN: Duration = Duration::from_secs(2);

/// How long one agent waits for a hook ([`Agent::deadline`](super::Agent::deadline)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    /// How long it waits, unless the event is listed in `exceptions`.
    pub default: Duration,
    /// Events it waits for a different time.
    pub exceptions: &'static [(EventName, Duration)],
    /// Events whose configured timeout the agent caps (it clamps a longer one
    /// and warns): the longest it accepts.
    pub caps: &'static [(EventName, Duration)],
}

impl Deadline {
    /// `default` for every event but the `exceptions`, no caps.
    pub const fn new(default: Duration, exceptions: &'static [(EventName, Duration)]) -> Deadline {
        Deadline {
            default,
            exceptions,
            caps: &[],
        }
    }

    /// The same deadline with the agent's documented caps.
    pub const fn capped(self, caps: &'static [(EventName, Duration)]) -> Deadline {
        Deadline { caps, ..self }
    }

    /// How long the agent waits for a hook on `event`: its default or the
    /// event's exception, never more than the event's cap.
    pub fn on(&self, event: EventName) -> Duration {
        let special = self.exceptions.iter().find(|(e, _)| *e == event);
        let wait = special.map_or(self.default, |(_, d)| *d);
        self.cap(event).map_or(wait, |cap| wait.min(cap))
    }

    /// The longest timeout the agent accepts for `event`, where it caps it.
    pub fn cap(&self, event: EventName) -> Option<Duration> {
        let cap = self.caps.iter().find(|(e, _)| *e == event);
        cap.map(|(_, d)| *d)
    }
}

/// Whole seconds, for the agents' deadline constants.
pub const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// How long the agent an event came from waits for `agenthooks run` on it:
/// decoded with the event ([`decode`]), so the pipeline never looks an agent
/// up by the `harness` string an event carries (which an embedding program
/// may set to any agent's id without that agent waiting on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventDeadline {
    /// The agent's id, for the note of a hook whose timeout was lowered.
    pub agent: &'static str,
    /// How long it waits ([`Deadline::on`] the event).
    pub wait: Duration,
}

impl EventDeadline {
    /// `agent`'s deadline for `event`.
    pub fn of(agent: &dyn Agent, event: EventName) -> EventDeadline {
        EventDeadline {
            agent: agent.id(),
            wait: agent.deadline().on(event),
        }
    }

    /// The longest a handler may run under it ([`budget`]).
    pub fn budget(&self) -> Duration {
        budget(self.wait)
    }
}

/// An event as an agent's adapter decoded it, and that agent's deadline for it.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The event in Claude Code's shape.
    pub event: Event,
    /// How long the agent waits for the answer.
    pub deadline: EventDeadline,
}

/// Decode `input` with `agent` ([`Agent::decode`]) and carry its deadline
/// for the event along.
///
/// # Errors
/// What [`Agent::decode`] refuses.
pub fn decode(
    agent: &dyn Agent,
    input: Value,
    event: Option<&str>,
) -> Result<Decoded, DecodeError> {
    let event = agent.decode(input, event)?;
    // Another agent's payload through this agent's entry (VS Code's through
    // Claude's) is under that agent's deadline.
    let waiting = super::find(event.harness()).unwrap_or(agent);
    let deadline = EventDeadline::of(waiting, event.name());
    Ok(Decoded { event, deadline })
}

/// The longest a handler may run under an agent deadline of `deadline`:
/// the deadline less 2 s (a fifth of it when that is less).
pub fn budget(deadline: Duration) -> Duration {
    deadline.saturating_sub(MARGIN.min(deadline / 5))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How long the agent `agent_id` waits on `event` (`None`: no such agent).
    fn deadline(agent_id: &str, event: EventName) -> Option<Duration> {
        super::super::find(agent_id).map(|a| a.deadline().on(event))
    }

    #[test]
    fn decoding_carries_the_agents_deadline_for_the_event() {
        let claude = super::super::find("claude").unwrap();
        let input = serde_json::json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi",
                                       "session_id": "s", "cwd": "/tmp"});
        let decoded = decode(claude, input, None).unwrap();
        assert_eq!(decoded.event.name(), EventName::UserPromptSubmit);
        assert_eq!(
            decoded.deadline,
            EventDeadline {
                agent: "claude",
                wait: secs(30)
            }
        );
        assert_eq!(decoded.deadline.budget(), secs(28));
    }

    #[test]
    fn known_agents_have_their_documented_deadlines() {
        assert_eq!(deadline("claude", EventName::PreToolUse), Some(secs(600)));
        assert_eq!(
            deadline("claude", EventName::UserPromptSubmit),
            Some(secs(30))
        );
        assert_eq!(deadline("codex", EventName::SessionEnd), Some(secs(1)));
        assert_eq!(deadline("gemini", EventName::PreToolUse), Some(secs(60)));
        assert_eq!(deadline("no-such-agent", EventName::PreToolUse), None);
        assert_eq!(deadline("cursor", EventName::PreToolUse), Some(secs(30)));
        assert_eq!(
            deadline("claude", EventName::MessageDisplay),
            Some(secs(10))
        );
        assert_eq!(
            deadline("claude", EventName::SessionEnd),
            Some(Duration::from_millis(1500))
        );
    }

    /// No agent is registered (nor clamped) past what it accepts: Claude caps
    /// a SessionEnd hook at 60 s, Codex at 3 s.
    #[test]
    fn session_end_stays_under_each_agents_cap() {
        for (id, cap) in [("claude", secs(60)), ("codex", secs(3))] {
            let agent = super::super::find(id).unwrap();
            assert_eq!(
                agent.deadline().cap(EventName::SessionEnd),
                Some(cap),
                "{id}"
            );
            assert!(agent.deadline().on(EventName::SessionEnd) <= cap, "{id}");
        }
    }

    #[test]
    fn every_agent_has_a_deadline() {
        for agent in super::super::AGENTS {
            let d = deadline(agent.id(), EventName::PreToolUse);
            assert!(d.is_some_and(|d| d >= secs(1)), "{}", agent.id());
        }
    }

    #[test]
    fn a_cap_bounds_the_wait() {
        const CAPS: &[(EventName, Duration)] = &[(EventName::SessionEnd, secs(3))];
        const D: Deadline = Deadline::new(secs(600), &[(EventName::Stop, secs(5))]).capped(CAPS);
        assert_eq!(D.on(EventName::SessionEnd), secs(3));
        assert_eq!(D.on(EventName::Stop), secs(5));
        assert_eq!(D.on(EventName::PreToolUse), secs(600));
        assert_eq!(D.cap(EventName::SessionEnd), Some(secs(3)));
        assert_eq!(D.cap(EventName::PreToolUse), None);
        let codex = super::super::Agent::deadline(&super::super::codex::Codex);
        assert_eq!(codex.cap(EventName::SessionEnd), Some(secs(3)));
    }

    /// A default above its own cap would be a typo in an agent's data: `on`
    /// hides it, so look at the raw numbers.
    #[test]
    fn no_agents_default_exceeds_its_cap() {
        for agent in super::super::AGENTS {
            let d = agent.deadline();
            for (event, cap) in d.caps {
                let exception = d.exceptions.iter().find(|(e, _)| e == event);
                let wait = exception.map_or(d.default, |(_, w)| *w);
                assert!(wait <= *cap, "{} {event:?}", agent.id());
            }
        }
    }

    #[test]
    fn the_budget_leaves_time_to_answer() {
        assert_eq!(budget(secs(600)), secs(598));
        assert_eq!(budget(secs(30)), secs(28));
        assert_eq!(budget(secs(1)), Duration::from_millis(800));
        assert_eq!(budget(Duration::ZERO), Duration::ZERO);
    }
}
