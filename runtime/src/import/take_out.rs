//! `import --move`: taking the imported hooks out of an agent's own file,
//! leaving every other entry, key and container the user had.

use serde_json::{Map, Value};

use super::users_own;
use crate::agents::{Agent, NativeHook};

/// Takes out of `root` (the agent's native file, parsed) the hooks of
/// `moved` (planned from an earlier read of it): each one still there, the
/// same entry under the same event. Returns how many were taken out.
///
/// A group whose last handler goes, an event array whose last entry goes,
/// and a `hooks` object whose last event goes, go too; other keys stay.
pub fn take_out(agent: &dyn Agent, root: &mut Map<String, Value>, moved: &[NativeHook]) -> usize {
    let mut places: Vec<(String, usize, Option<usize>)> = users_own(agent, root)
        .into_iter()
        .filter(|now| {
            moved.iter().any(|m| {
                m.native_event == now.native_event
                    && m.command == now.command
                    && m.import == now.import
                    && m.import.is_ok()
            })
        })
        .map(|h| (h.native_event, h.item, h.handler))
        .collect();
    // From the end, so earlier positions stay valid.
    places.sort();
    places.dedup();
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return 0;
    };
    let mut taken = 0;
    for (key, item, handler) in places.iter().rev() {
        let Some(Value::Array(items)) = hooks.get_mut(key) else {
            continue;
        };
        match handler {
            Some(j) => {
                let Some(Value::Array(handlers)) = items
                    .get_mut(*item)
                    .and_then(|group| group.get_mut("hooks"))
                else {
                    continue;
                };
                if *j < handlers.len() {
                    handlers.remove(*j);
                    taken += 1;
                }
                if handlers.is_empty() {
                    items.remove(*item);
                }
            }
            None if *item < items.len() => {
                items.remove(*item);
                taken += 1;
            }
            None => {}
        }
        if items.is_empty() {
            hooks.shift_remove(key);
        }
    }
    if hooks.is_empty() && taken > 0 {
        root.shift_remove("hooks");
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{find, native_hooks};
    use crate::test_support::obj;
    use serde_json::json;

    #[test]
    fn only_the_moved_hooks_go_and_containers_they_emptied() {
        let claude = find("claude").unwrap();
        let ours = "command -v agenthooks >/dev/null 2>&1 && exec agenthooks run --agent claude --event Stop || echo x >&2";
        let mut root = obj(json!({"env": {"A": "1"}, "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}, {"type": "prompt", "prompt": "p"}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "./b.sh"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": ours}]}]
        }}));
        let moved: Vec<NativeHook> = native_hooks::read(claude, &root)
            .into_iter()
            .filter(|h| {
                h.import.is_ok() && !h.command.as_deref().unwrap_or("").contains("agenthooks")
            })
            .collect();
        assert_eq!(moved.len(), 2);
        assert_eq!(take_out(claude, &mut root, &moved), 2);
        assert_eq!(
            Value::Object(root.clone()),
            json!({"env": {"A": "1"}, "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "p"}]}],
                "Stop": [{"hooks": [{"type": "command", "command": ours}]}]
            }})
        );
        // A hook changed since the plan is not taken out.
        let mut changed = obj(json!({"hooks": {"PreToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "./b2.sh"}]}
        ]}}));
        assert_eq!(take_out(claude, &mut changed, &moved), 0);
        // A flat file whose last hook goes keeps its other keys.
        let copilot = find("copilot").unwrap();
        let mut flat = obj(
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./c.sh"}]}}),
        );
        let moved = native_hooks::read(copilot, &flat);
        assert_eq!(take_out(copilot, &mut flat, &moved), 1);
        assert_eq!(Value::Object(flat), json!({"version": 1}));
    }
}
