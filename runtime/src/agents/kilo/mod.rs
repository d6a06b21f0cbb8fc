//! Kilo CLI (`@kilocode/cli`): a fork of OpenCode that loads the same JS
//! plugins, from `.kilo/plugin/` (project) and `$XDG_CONFIG_HOME/kilo/plugin/`
//! (user). `install` writes OpenCode's plugin (`opencode::plugin`) naming
//! this agent, so the contract, the table, decode and encode are OpenCode's;
//! only the id, the paths and the detection differ.
//!
//! Verified against the binary (`@kilocode/cli` 7.7.7, driven by
//! `tests/real-agents/` against the fake model on 127.0.0.1, payloads under
//! `tests/fixtures/agents/kilo-7.7.7/`): the project plugin directory
//! `.kilo/plugin/`, `tool.execute.before` denying by throwing, the hook
//! names and payloads of OpenCode. From the reference only
//! (`docs/agent-protocols.md` §15.2): the user-level directory.
//! Kilo has no Claude-format command hooks (no `PreToolUse` in the binary).

use serde_json::{Map, Value};

use super::opencode;
use super::{Agent, EventRow, Info, Intent, Native};
use super::{InstallSpec, PluginSpec, Registration, UserDir, UserPath};
use crate::protocol::Event;

/// The Kilo CLI adapter.
pub struct Kilo;

/// Kilo loads OpenCode's plugins, so install writes OpenCode's plugin, in
/// Kilo's plugin directory, calling `run --agent kilo`.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Plugin(PluginSpec {
        text: |binary, events| opencode::plugin("kilo", binary, events),
    }),
    ".kilo/plugin/agenthooks.js",
    UserPath::new(UserDir::XDG_CONFIG_HOME, "kilo/plugin/agenthooks.js"),
)
.detected_by(
    &[".kilo", "kilo.json"],
    &[UserPath::new(UserDir::XDG_CONFIG_HOME, "kilo")],
);

static INFO: Info = Info::new("kilo", "Kilo CLI", &opencode::TABLE, &INSTALL).with_names(&["hook"]);

impl Agent for Kilo {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, payload: &mut Map<String, Value>) {
        opencode::reshape(row, payload);
    }

    fn write(&self, event: &Event, _row: &EventRow, intent: Intent) -> Native {
        opencode::write(event, intent)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::agents::tests::deny;
    use crate::protocol::EventName;

    #[test]
    fn kilo_decodes_opencode_payloads_as_itself() {
        let ev = Kilo
            .decode(
                json!({"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c"},
                       "output":{"args":{"command":"rm -rf /"}},"directory":"/w"}),
                None,
            )
            .expect("decode");
        assert_eq!(
            (ev.name(), ev.tool_name(), ev.harness()),
            (EventName::PreToolUse, Some("Bash"), "kilo")
        );
        let native = Kilo.encode(&ev, &deny("no"));
        assert_eq!(native.stdout, r#"{"error":"no"}"#);
    }

    #[test]
    fn the_plugin_calls_run_as_kilo_in_kilos_plugin_dir() {
        let src = crate::agents::tests::plugin_source(&Kilo);
        assert!(src.contains(r#"const AGENT = "kilo";"#));
        assert!(src.lines().any(|l| crate::install::is_ours(l, "kilo")));
        assert!(!src.lines().any(|l| crate::install::is_ours(l, "opencode")));
        assert!(INSTALL.project.starts_with(".kilo/plugin/"));
    }
}
