//! [`Info`]: what an agent states about itself as data. Private to the
//! crate by path, which is what seals [`Agent`](super::Agent).

use super::deadline;
use super::transcript::TranscriptShape;
use super::{AlsoRuns, InstallSpec, NativeHooks, Table, Visits};

/// What an agent states about itself as data: everything the trait's
/// accessors return, one `static` (or field) per agent, so that an agent
/// module names its id, table and install spec once.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    /// [`Agent::id`](super::Agent::id).
    pub id: &'static str,
    /// [`Agent::display_name`](super::Agent::display_name).
    pub name: &'static str,
    /// [`Agent::table`](super::Agent::table).
    pub table: &'static Table,
    /// [`Agent::install_spec`](super::Agent::install_spec).
    pub install: &'static InstallSpec,
    /// [`Agent::deadline`](super::Agent::deadline).
    pub deadline: deadline::Deadline,
    /// [`Agent::also_runs`](super::Agent::also_runs).
    pub also_runs: Option<AlsoRuns>,
    /// [`Agent::visits`](super::Agent::visits).
    pub visits: Option<Visits>,
    /// The payload keys that may name the event, in order, for the default
    /// [`Agent::decode`](super::Agent::decode) (`--event`, which `install` always writes, comes
    /// first anyway).
    pub names: &'static [&'static str],
    /// [`Agent::native_hooks`](super::Agent::native_hooks).
    pub native_hooks: NativeHooks,
    /// [`Agent::transcript`](super::Agent::transcript).
    pub transcript: TranscriptShape,
}

impl Info {
    /// An agent that names the event in `hook_event_name`, has an
    /// undocumented deadline ([`deadline::UNVERIFIED`]) and runs no other
    /// agent's hooks; the `with_*` methods say where it differs.
    pub const fn new(
        id: &'static str,
        name: &'static str,
        table: &'static Table,
        install: &'static InstallSpec,
    ) -> Info {
        Info {
            id,
            name,
            table,
            install,
            deadline: deadline::UNVERIFIED,
            also_runs: None,
            visits: None,
            names: &["hook_event_name"],
            native_hooks: NativeHooks::INSTALLED,
            transcript: TranscriptShape::Unknown,
        }
    }

    /// The same agent, whose `transcript_path` is in `transcript`'s shape.
    pub const fn with_transcript(self, transcript: TranscriptShape) -> Info {
        Info { transcript, ..self }
    }

    /// The same agent, whose users keep their own hooks as `native` says.
    pub const fn with_native_hooks(self, native_hooks: NativeHooks) -> Info {
        Info {
            native_hooks,
            ..self
        }
    }

    /// The same agent, waiting `deadline` for a hook.
    pub const fn with_deadline(self, deadline: deadline::Deadline) -> Info {
        Info { deadline, ..self }
    }

    /// The same agent, naming the event by the first of `names` present.
    pub const fn with_names(self, names: &'static [&'static str]) -> Info {
        Info { names, ..self }
    }

    /// The same agent, running the agenthooks entries `visits` names too.
    pub const fn with_visits(self, visits: Visits) -> Info {
        Info {
            visits: Some(visits),
            ..self
        }
    }

    /// The same agent, running `also`'s hooks too.
    pub const fn with_also_runs(self, also: AlsoRuns) -> Info {
        Info {
            also_runs: Some(also),
            ..self
        }
    }
}
