//! What the engine does once when a session arrives
//! (`crate::head::arrival` says when): start compiling the components the
//! cache lacks, so the first tool call does not pay for it, and tell the
//! user in the agent's own window about hooks that are held back or cannot
//! run ([`status::notice`]).

use std::path::PathBuf;

use crate::cli::findings as status;
use crate::exec::once;
use crate::exec::wasm::{worker, WasmHost};
use crate::head::arrival::{arrives, Arrival, Arrived};
use crate::head::said::Channel;
use crate::install;
use crate::protocol::{Answer, Note, NoteKind, Source};
use crate::trust::TrustStore;

/// The engine's arrival: warm the cache, say what is held back.
pub(crate) struct Warm {
    /// Where the once-per-session marker goes (`None`: the cache
    /// directory's `arrived/`).
    pub markers: Option<PathBuf>,
}

/// The engine's arrival, with its markers in the cache directory.
pub(crate) static WARM: Warm = Warm { markers: None };

impl Arrival for Warm {
    /// On a session's arrival: warm the cache for the configuration's
    /// components, and add the message about held-back hooks to `answer`
    /// (its `systemMessage`, after a hook's own, or where the agent shows
    /// none at a session's start, the context its model relays), or to
    /// `notes` when it has neither. The stale-wiring line is said there too.
    fn arrive(
        &self,
        arrived: &Arrived<'_>,
        answer: &mut Answer,
        notes: &mut Vec<Note>,
    ) -> Option<String> {
        let Arrived {
            agent,
            event,
            config,
            ..
        } = *arrived;
        let markers = once::notice_dir(self.markers.as_deref());
        if !arrives(agent, event, markers.as_deref()) {
            return None;
        }
        // Detached workers: the answer does not wait for them.
        worker::warm_in_background(&super::compile::components_of(config, false));
        let (store, store_note) = TrustStore::load();
        notes.extend(store_note.map(|n| Note::new(Source::Trust, NoteKind::Trust, n.to_string())));
        let hooks = status::hooks(config, &store, WasmHost::global());
        let stale_wiring = arrived
            .stale_wiring
            .as_ref()
            .map(|line| crate::protocol::prefixed!("{line}"));
        let root = config.project_root.clone().or_else(|| event.cwd());
        let switched_off = (root.zip(install::Env::from_process().ok()))
            .and_then(|(root, env)| status::switched_off_notice(&root, &env));
        let lines: Vec<String> = [status::notice(&hooks), stale_wiring, switched_off]
            .into_iter()
            .flatten()
            .collect();
        if lines.is_empty() {
            return None;
        }
        let message = lines.join("\n");
        match Channel::at(agent, event) {
            Some(channel) => channel.say(answer, event, &message),
            None => notes.push(Note::runtime(NoteKind::HeldBack, message.clone())),
        }
        Some(message)
    }
}
