//! `agenthooks agents [AGENT...] [--json]`: what each agent can do with a
//! hook's answer, event by event.
//!
//! Everything printed is [`crate::agents::Agent::capabilities`], derived from
//! the same table the agent's encoder reads, so the table cannot promise what
//! the encoder drops.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::agents::{named, AnswerKind, Capabilities, AGENTS};

/// `agenthooks agents`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these agents (ids as `install` takes them); all when omitted.
    pub agents: Vec<String>,
    /// Print JSON (an array, one object per agent) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `agenthooks agents`.
///
/// # Errors
/// An unknown agent id, or stdout closed.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let caps = select(&args.agents)?;
    let text = if args.json {
        let mut s = serde_json::to_string_pretty(&caps).context("serializing the table")?;
        s.push('\n');
        s
    } else {
        render(&caps)
    };
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("writing the table")?;
    Ok(ExitCode::SUCCESS)
}

/// The capability rows of the named agents, in [`AGENTS`] order when none is named.
///
/// # Errors
/// An id that names no agent.
pub fn select(ids: &[String]) -> anyhow::Result<Vec<Capabilities>> {
    if ids.is_empty() {
        return Ok(AGENTS.iter().map(|a| a.capabilities()).collect());
    }
    ids.iter().map(|id| Ok(named(id)?.capabilities())).collect()
}

/// Column headers for the answer kinds, in [`AnswerKind::ALL`] order.
fn header(kind: AnswerKind) -> &'static str {
    match kind {
        AnswerKind::Deny => "deny",
        AnswerKind::Ask => "ask",
        AnswerKind::Allow => "allow",
        AnswerKind::UpdatedInput => "rewrite",
        AnswerKind::Context => "context",
        AnswerKind::Block => "block",
        AnswerKind::Stop => "stop",
        AnswerKind::SystemMessage => "message",
    }
}

/// The text table: one block per agent, one line per canonical event with
/// its native names and a mark per answer kind, then the agent's notes.
pub fn render(caps: &[Capabilities]) -> String {
    let mut out = String::new();
    out.push_str(
        "What each agent acts on (x = works, . = dropped with a note; \
         rewrite = updatedInput, block = decision:block / keep going at Stop, \
         stop = continue:false, message = systemMessage)\n",
    );
    // Handlers run in agenthooks, not in the agent: what matters per agent
    // is only which answers it acts on.
    out.push_str(
        "Every handler type (command, http, wasm, prompt, agent, mcp_tool) runs in agenthooks itself, \
         so each works in every agent wherever its answer is marked x\n",
    );
    for agent in caps {
        out.push('\n');
        out.push_str(&format!("{} ({})\n", agent.name, agent.agent));
        let event_w = agent
            .events
            .iter()
            .map(|r| r.event.as_str().len())
            .max()
            .unwrap_or(0)
            .max("event".len());
        let native_w = agent
            .events
            .iter()
            .map(|r| r.native.join(", ").len())
            .max()
            .unwrap_or(0)
            .max("native".len());
        let mut line = format!("  {:event_w$}  {:native_w$}", "event", "native");
        for kind in AnswerKind::ALL {
            line.push_str(&format!("  {}", header(*kind)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        for row in &agent.events {
            let mut line = format!(
                "  {:event_w$}  {:native_w$}",
                row.event.as_str(),
                row.native.join(", ")
            );
            for kind in AnswerKind::ALL {
                let mark = if row.answers.contains(kind) { "x" } else { "." };
                line.push_str(&format!("  {mark:^w$}", w = header(*kind).len()));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for note in &agent.notes {
            out.push_str(&format!("  note: {note}\n"));
        }
        out.push_str(if agent.status_message {
            "  statusMessage: shown while the event's hooks run\n"
        } else {
            "  statusMessage: not shown (`check` notes hooks that set one)\n"
        });
        if !agent.tool_filter.is_empty() {
            out.push_str(&format!("  tool calls: {}\n", agent.tool_filter));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::EventName;

    #[test]
    fn each_agent_says_which_tool_calls_start_agenthooks() {
        let text = render(&select(&["claude".into(), "gemini".into(), "codex".into()]).unwrap());
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  tool calls: "))
            .collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].contains("in Claude's tool names"), "{}", lines[0]);
        assert!(
            lines[1].contains("the agent's own tool names"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("a catch-all per tool event"),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn every_agent_is_listed_with_its_native_names_and_marks() {
        let text = render(&select(&[]).unwrap());
        assert!(text
            .contains("(command, http, wasm, prompt, agent, mcp_tool) runs in agenthooks itself"));
        let caps = select(&[]).expect("all");
        assert_eq!(caps.len(), AGENTS.len());
        let text = render(&caps);
        for agent in AGENTS {
            assert!(
                text.contains(&format!("({})\n", agent.id())),
                "{}",
                agent.id()
            );
        }
        let gemini = text
            .split("\n\n")
            .find(|b| b.contains("(gemini)"))
            .expect("gemini block");
        let before_tool = gemini
            .lines()
            .find(|l| l.trim_start().starts_with("PreToolUse"))
            .expect("PreToolUse line");
        assert!(before_tool.contains("BeforeTool"), "{before_tool}");
        // deny ask allow rewrite context block stop message
        let marks: Vec<&str> = before_tool.split_whitespace().skip(2).collect();
        assert_eq!(
            marks,
            ["x", "x", "x", "x", ".", ".", "x", "x"],
            "{before_tool}"
        );
    }

    #[test]
    fn selected_agents_only_and_unknown_ids_fail() {
        let caps = select(&["kiro".to_string(), "codex".to_string()]).expect("two");
        assert_eq!(
            caps.iter().map(|c| c.agent).collect::<Vec<_>>(),
            ["kiro", "codex"]
        );
        let err = select(&["nope".to_string()]).expect_err("unknown");
        assert!(err.to_string().contains("no agent named `nope`"), "{err}");
    }

    #[test]
    fn json_lists_events_natives_and_answers() {
        let caps = select(&["windsurf".to_string()]).expect("windsurf");
        let v = serde_json::to_value(&caps).expect("json");
        let pre = v[0]["events"]
            .as_array()
            .expect("events")
            .iter()
            .find(|r| r["event"] == EventName::PreToolUse.as_str())
            .expect("PreToolUse");
        assert_eq!(
            pre["native"],
            serde_json::json!([
                "pre_run_command",
                "pre_write_code",
                "pre_read_code",
                "pre_mcp_tool_use"
            ])
        );
        assert_eq!(pre["answers"], serde_json::json!(["deny"]));
        assert_eq!(v[0]["agent"], "windsurf");
    }
}
