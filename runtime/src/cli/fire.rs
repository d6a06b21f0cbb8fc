//! `agenthooks fire EVENT`: send a made-up or recorded event through the real
//! pipeline and show each hook's outcome, the aggregated answer and the
//! native answer `run` would give the agent.
//!
//! The made-up event is shaped like the one Claude Code sends (common fields,
//! the event's own with plausible values), so a hook behaves as it will for
//! real. With `--input` and no `--tool`, the input is a whole payload in the
//! `--agent`'s dialect (one recorded from a real session, say), decoded by
//! that agent's adapter exactly as `run` decodes it.
//!
//! `--expect ANSWER` makes it a test: exit 1 unless the aggregated answer is
//! that one (see [`Expected`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context};
use serde_json::{json, Map, Value};

use super::{check, report, EXIT_FINDING, EXIT_OK};
use crate::agents::deadline::{self, EventDeadline};
use crate::agents::{self, claude, Agent};
use crate::fsread;
use crate::head::{self, Answered, Entry, Head, Passage};
use crate::protocol::{Answer, Behavior, Event, EventName, PermissionDecision};
use crate::suggest;

/// `agenthooks fire`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The event, as Claude Code names it (`PreToolUse`, `Stop`, ...); with a
    /// recorded `--input`, the agent's own name for it also works.
    pub event: String,
    /// Tool events: the tool (`Bash`, `Write`, `mcp__server__tool`, ...); default `Bash`.
    #[arg(long)]
    pub tool: Option<String>,
    /// With `--tool`: the tool's input as JSON. Without: a whole recorded
    /// payload, in the `--agent`'s dialect.
    #[arg(long, value_name = "JSON", conflicts_with = "input_file")]
    pub input: Option<String>,
    /// Like `--input`, read from a file.
    #[arg(long, value_name = "FILE")]
    pub input_file: Option<PathBuf>,
    /// The agent the event comes from and whose native answer is shown.
    #[arg(long, default_value = "claude")]
    pub agent: String,
    /// The agent's working directory (the event's `cwd`); default the current one.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit 1, with one line saying what came instead, unless the aggregated
    /// answer is this one: a repository's CI can test its hooks.
    #[arg(long, value_enum, value_name = "ANSWER")]
    pub expect: Option<Expected>,
    /// Answer as the agent's system-wide entry does (`run --system`), not
    /// as its user or project entry.
    #[arg(long)]
    pub system: bool,
    /// Answer as the agent's user-file entry does (`run --user`), not as
    /// the project's (which steps aside for a user entry covering the tool).
    #[arg(long, conflicts_with = "system")]
    pub user: bool,
}

/// What an aggregated answer comes to, for `--expect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Expected {
    /// Before a tool: `permissionDecision: deny`; PermissionRequest: `behavior: deny`.
    Deny,
    /// `decision: block` (a prompt, after a tool, at stop, ...).
    Block,
    /// Before a tool: `permissionDecision: ask`.
    Ask,
    /// Before a tool: `permissionDecision: defer`.
    Defer,
    /// An explicit allow (`permissionDecision` or `behavior`).
    Allow,
    /// No decision, but `additionalContext`.
    Context,
    /// `continue: false`: the agent stops.
    Stop,
    /// No decision and no context.
    None,
}

impl Expected {
    /// What `answer` comes to: the strongest thing it says.
    pub fn of(answer: &Answer) -> Expected {
        let behavior = answer
            .hook_specific_output
            .as_ref()
            .and_then(|h| h.decision.as_ref())
            .and_then(|d| d.behavior);
        if answer.stops() {
            return Expected::Stop;
        }
        // The aggregator puts a decision before a tool in `permissionDecision`,
        // so a top-level block is a block of another event.
        if answer.blocks() {
            return Expected::Block;
        }
        match (answer.permission(), behavior) {
            (Some(PermissionDecision::Deny), _) | (_, Some(Behavior::Deny)) => Expected::Deny,
            (Some(PermissionDecision::Defer), _) => Expected::Defer,
            (Some(PermissionDecision::Ask), _) => Expected::Ask,
            (Some(PermissionDecision::Allow), _) | (_, Some(Behavior::Allow)) => Expected::Allow,
            _ if answer.additional_context().is_some() => Expected::Context,
            _ => Expected::None,
        }
    }

    /// Whether `answer` says this, whatever else it carries: a deny that
    /// also stops the agent is a deny (and a stop).
    pub fn holds(self, answer: &Answer) -> bool {
        let behavior = answer
            .hook_specific_output
            .as_ref()
            .and_then(|h| h.decision.as_ref())
            .and_then(|d| d.behavior);
        let permission = answer.permission();
        match self {
            Expected::Deny => {
                permission == Some(PermissionDecision::Deny) || behavior == Some(Behavior::Deny)
            }
            Expected::Block => answer.blocks(),
            Expected::Ask => permission == Some(PermissionDecision::Ask),
            Expected::Defer => permission == Some(PermissionDecision::Defer),
            Expected::Allow => {
                permission == Some(PermissionDecision::Allow) || behavior == Some(Behavior::Allow)
            }
            Expected::Stop => answer.stops(),
            Expected::Context | Expected::None => Expected::of(answer) == self,
        }
    }

    fn name(self) -> String {
        use clap::ValueEnum as _;
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }
}

/// Build the event, send it through the event head as `run` would (the same
/// steps, the same answer), print what happened. Exits 0, or with
/// `--expect`, 1 when the answer is not the expected one.
///
/// # Errors
/// An unknown event or agent, unreadable or invalid input, or a closed stdout.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::exec::supervise::enable();
    let agent = agents::named(&args.agent)?;
    let (event, deadline) = build_event(&args, agent)?;
    if let Some(problem) = head::cwd_problem(&event) {
        bail!("{problem}; give `--cwd` an existing directory");
    }
    let entry = Entry {
        agent,
        system: args.system,
        user: args.user,
        embedded: false,
        tools: None,
        verbose: false,
    };
    let head = Head::decoded(entry, event, deadline);
    // Each hook's details are kept in its report (shown below), apart from
    // the notes, so the stderr shown is what `run` prints. A made-up event
    // writes no audit record.
    let options = head::Options {
        per_hook: true,
        audit: false,
    };
    let answered = match head::enter(head, super::run::engine(), &options)? {
        Passage::Answered(answered) => answered,
        // `fire` runs in the engine, which carries every kind.
        Passage::HandOff(_) => bail!("this binary cannot run the selected hooks"),
    };
    let shown = Shown {
        agent,
        answered: &answered,
    };
    let text = if args.json {
        let mut text = serde_json::to_string_pretty(&shown.json()).context("could not print")?;
        text.push('\n');
        text
    } else {
        shown.text()
    };
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("could not print the report")?;
    match args.expect {
        Some(expected) if !expected.holds(&answered.done.answer) => {
            eprintln!(
                "fire: expected {}, got {} (the aggregated answer for {})",
                expected.name(),
                Expected::of(&answered.done.answer).name(),
                answered.event.name()
            );
            Ok(ExitCode::from(EXIT_FINDING))
        }
        _ => Ok(ExitCode::from(EXIT_OK)),
    }
}

/// The event `fire` sends, with the agent's deadline for it: a recorded
/// payload decoded by the agent as `run` decodes it, or one made up in
/// Claude Code's shape.
fn build_event(args: &Args, agent: &dyn Agent) -> anyhow::Result<(Event, EventDeadline)> {
    let input = match (&args.input, &args.input_file) {
        (Some(text), _) => Some(text.clone()),
        // Bounded like `run`'s stdin: `/dev/zero` or a FIFO is refused at once.
        (None, Some(path)) => {
            Some(fsread::read_bounded_string(path, fsread::caps::PAYLOAD).context("--input-file")?)
        }
        (None, None) => None,
    };
    let cwd = match &args.cwd {
        Some(dir) => std::path::absolute(dir)
            .with_context(|| format!("could not make `{}` absolute", dir.display()))?,
        None => std::env::current_dir().context("could not read the current directory")?,
    };
    if let (Some(text), None) = (&input, &args.tool) {
        let value: Value = serde_json::from_str(text).context("the input is not valid JSON")?;
        let decoded = deadline::decode(agent, value, Some(&args.event))
            .context("the input cannot be read")?;
        let mut event = decoded.event;
        if args.cwd.is_some() || event.cwd().is_none() {
            let cwd = Value::String(cwd.to_string_lossy().into_owned());
            event.input_mut().insert("cwd".into(), cwd);
        }
        return Ok((event, decoded.deadline));
    }
    let name: EventName = args.event.parse().map_err(|_| {
        let names = EventName::ALL.iter().map(|e| e.as_str());
        anyhow!(
            "unknown event `{}`{}; one of: {}",
            args.event,
            suggest::did_you_mean(&args.event, names.clone()),
            names.collect::<Vec<_>>().join(", ")
        )
    })?;
    if args.tool.is_some() && !name.is_tool_event() {
        bail!("`--tool` applies to tool events only, not `{name}`");
    }
    if let Some(tool) = &args.tool {
        let mut known = claude::TOOLS.to_vec();
        known.extend(check::tool_names(agent).unwrap_or_default());
        let hint = suggest::did_you_mean(tool, known);
        if !hint.is_empty() && !tool.starts_with("mcp__") {
            eprintln!(
                "{}",
                report::note_line(&format!(
                    "`--tool {tool}`: no tool of {} has that name{hint}",
                    agent.display_name()
                ))
            );
        }
    }
    let tool_input = match input {
        Some(text) => {
            Some(serde_json::from_str::<Value>(&text).context("the tool input is not valid JSON")?)
        }
        None => None,
    };
    let payload = made_up(name, &cwd, args.tool.as_deref(), tool_input);
    let event = Event::new(payload, Some(name), agent.id())?;
    let deadline = EventDeadline::of(agent, name);
    Ok((event, deadline))
}

/// A payload like the one Claude Code sends for `name`.
fn made_up(name: EventName, cwd: &Path, tool: Option<&str>, tool_input: Option<Value>) -> Value {
    let cwd_text = cwd.to_string_lossy().into_owned();
    let session = session_id();
    let home = crate::dirs::home().unwrap_or_else(std::env::temp_dir);
    let home = home.to_string_lossy();
    // Claude Code keeps transcripts under a directory named after the cwd.
    let slug: String = cwd_text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut p = Map::new();
    p.insert("session_id".into(), json!(session));
    p.insert(
        "transcript_path".into(),
        json!(format!("{home}/.claude/projects/{slug}/{session}.jsonl")),
    );
    p.insert("cwd".into(), json!(cwd_text));
    p.insert("permission_mode".into(), json!("default"));
    p.insert("hook_event_name".into(), json!(name.as_str()));
    if name.is_tool_event() {
        let tool = tool.unwrap_or("Bash");
        let input = tool_input.unwrap_or_else(|| default_tool_input(tool, cwd));
        p.insert("tool_name".into(), json!(tool));
        p.insert("tool_input".into(), input);
        if name != EventName::PermissionRequest {
            p.insert("tool_use_id".into(), json!("toolu_fire_0001"));
        }
    }
    let own: &[(&str, Value)] = match name {
        EventName::SessionStart => &[("source", json!("startup"))],
        EventName::Setup => &[("trigger", json!("init"))],
        EventName::UserPromptSubmit => &[("prompt", json!("Summarize the README"))],
        EventName::UserPromptExpansion => &[
            ("command_name", json!("review")),
            ("prompt", json!("/review")),
        ],
        EventName::PermissionRequest => &[("permission_suggestions", json!([]))],
        EventName::PostToolUse => &[
            (
                "tool_response",
                json!({"stdout": "", "stderr": "", "interrupted": false}),
            ),
            ("duration_ms", json!(12)),
        ],
        EventName::PostToolUseFailure => &[
            ("error", json!("Command failed with exit code 1")),
            ("is_interrupt", json!(false)),
            ("duration_ms", json!(12)),
        ],
        EventName::PostToolBatch => &[("tool_calls", json!([]))],
        EventName::Notification => &[
            ("message", json!("Claude is waiting for your input")),
            ("notification_type", json!("idle_prompt")),
        ],
        EventName::Stop | EventName::SubagentStop => &[
            ("stop_hook_active", json!(false)),
            ("last_assistant_message", json!("Done.")),
        ],
        EventName::PreCompact => &[
            ("trigger", json!("manual")),
            ("custom_instructions", json!("")),
        ],
        EventName::PostCompact => &[("trigger", json!("manual")), ("compact_summary", json!(""))],
        EventName::SessionEnd => &[("reason", json!("other"))],
        EventName::PreModelSwitch | EventName::PostModelSwitch => &[
            ("from_model", json!("claude-sonnet-4-5")),
            ("to_model", json!("claude-opus-4-1")),
        ],
        EventName::PreToolUse
        | EventName::PermissionDenied
        | EventName::MessageDisplay
        | EventName::SubagentStart
        | EventName::TaskCreated
        | EventName::TaskCompleted
        | EventName::StopFailure
        | EventName::TeammateIdle
        | EventName::InstructionsLoaded
        | EventName::ConfigChange
        | EventName::CwdChanged
        | EventName::DirectoryAdded
        | EventName::FileChanged
        | EventName::WorktreeCreate
        | EventName::WorktreeRemove
        | EventName::Elicitation
        | EventName::ElicitationResult => &[],
    };
    for (key, value) in own {
        p.insert((*key).to_string(), value.clone());
    }
    Value::Object(p)
}

fn default_tool_input(tool: &str, cwd: &Path) -> Value {
    let file = cwd.join("README.md").to_string_lossy().into_owned();
    match tool {
        "Bash" | "PowerShell" => json!({"command": "ls", "description": "List files"}),
        "Read" => json!({"file_path": file}),
        "Write" => json!({"file_path": file, "content": "hello\n"}),
        "Edit" => json!({"file_path": file, "old_string": "a", "new_string": "b"}),
        _ => json!({}),
    }
}

fn session_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("fire-{:x}-{:x}", std::process::id(), nanos)
}

/// Everything `fire` shows.
struct Shown<'a> {
    agent: &'a dyn Agent,
    answered: &'a Answered,
}

impl Shown<'_> {
    /// What `run` would write on stderr: the agent's lines, then the notes.
    fn stderr_lines(&self) -> Vec<String> {
        // The same lines as `run` without `--verbose` (what an agent sees):
        // per-hook details are in each hook's block, not here.
        self.answered.native.stderr_lines().collect()
    }

    fn json(&self) -> Value {
        let a = self.answered;
        let (event, root, done, native) = (&a.event, &a.root, &a.done, &a.native);
        json!({
            "event": event.to_json(),
            "projectRoot": root.as_ref().map(|r| r.to_string_lossy().into_owned()),
            "handlers": done.reports.iter().map(report::report_json).collect::<Vec<_>>(),
            "answer": done.answer,
            "notes": done.notes,
            "oncePerSession": a.once,
            "steppedAside": a.aside,
            "native": {
                "agent": self.agent.id(),
                "stdout": native.stdout,
                "stderr": self.stderr_lines(),
                "exitCode": native.exit_code,
            },
        })
    }

    fn text(&self) -> String {
        let a = self.answered;
        let (event, done, native) = (&a.event, &a.done, &a.native);
        let (root, once, aside) = (&a.root, &a.once, &a.aside);
        let mut out = String::new();
        let root = root
            .as_ref()
            .map_or_else(|| "none".to_string(), |r| r.display().to_string());
        out.push_str(&format!(
            "event: {} from {} (project: {root})\n",
            event.name(),
            self.agent.display_name()
        ));
        if let Some(why) = aside {
            out.push_str(&format!("hooks: none run here: {why}\n"));
        } else if done.reports.is_empty() {
            out.push_str("hooks: none matched\n");
        } else {
            out.push_str(&format!("hooks: {}\n", done.reports.len()));
            for (i, report) in done.reports.iter().enumerate() {
                out.push_str(&report::report_text(i + 1, report));
            }
        }
        if done.answer.is_empty() {
            out.push_str("answer: none (the agent goes on as if no hook ran)\n");
        } else {
            let answer = serde_json::to_string(&done.answer).unwrap_or_default();
            out.push_str(&format!("answer: {answer}\n"));
        }
        for line in once.iter().flat_map(|m| m.lines()) {
            out.push_str(&format!("said once per session: {line}\n"));
        }
        out.push_str(&format!(
            "native answer for {}: exit {}\n",
            self.agent.id(),
            native.exit_code
        ));
        if native.stdout.is_empty() {
            out.push_str("  stdout: (empty)\n");
        } else {
            out.push_str(&format!("  stdout: {}\n", native.stdout.trim_end()));
        }
        for line in self.stderr_lines() {
            out.push_str(&format!("  stderr: {line}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_comes_to_the_strongest_thing_it_says() {
        let of = |v: Value| Expected::of(&serde_json::from_value(v).unwrap());
        let pre = |d: &str| json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d}});
        assert_eq!(of(pre("deny")), Expected::Deny);
        assert_eq!(of(pre("ask")), Expected::Ask);
        assert_eq!(of(pre("defer")), Expected::Defer);
        assert_eq!(of(pre("allow")), Expected::Allow);
        assert_eq!(
            of(json!({"decision": "block", "reason": "r"})),
            Expected::Block
        );
        assert_eq!(
            of(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny"}}})
            ),
            Expected::Deny
        );
        assert_eq!(
            of(
                json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "c"}})
            ),
            Expected::Context
        );
        assert_eq!(of(json!({"continue": false})), Expected::Stop);
        assert_eq!(of(json!({})), Expected::None);
        assert_eq!(Expected::Deny.name(), "deny");
    }
}
