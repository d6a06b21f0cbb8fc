//! The command line an agent's native entry runs: a launcher that starts
//! `agenthooks run` when it can be found and answers "no opinion" with a
//! hint when it cannot, in the form of the shell the agent runs it with
//! (sh; on Windows `cmd.exe` or PowerShell, [`WindowsShell`]).

use std::path::Path;

use super::Os;
use crate::agents::{Agent, Registration, WindowsShell};
use crate::config::Scope;
use crate::protocol::{Answer, Event, EventName};

pub use crate::agents::{NOT_INSTALLED, NOT_INSTALLED_WINDOWS};

/// One entry `install` writes under a native event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wired {
    /// The native matcher, in the agent's tool names; `None`: the spec's
    /// catch-all.
    pub matcher: Option<String>,
    /// The tools the entry answers for, as a Claude matcher over canonical
    /// names (`run --tools`); `None`: every tool.
    pub tools: Option<String>,
    /// What it starts.
    pub binary: Binary,
}

impl Wired {
    /// A catch-all entry that starts `binary`.
    pub(super) fn all(binary: Binary) -> Wired {
        Wired {
            matcher: None,
            tools: None,
            binary,
        }
    }
}

/// The binary an entry starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Binary {
    /// The small `agenthooks`: command hooks (it hands the rest to the engine).
    Front,
    /// `agenthooks-engine`: every kind.
    Engine,
}

/// The command line an entry runs: a tiny launcher, valid in `sh`, `bash`,
/// `zsh` and `fish` (Codex runs it with the user's `$SHELL -lc`), that
/// `exec`s `<binary> run --agent <agent> --event <event>` when `binary` can
/// be run, and otherwise prints [`NOT_INSTALLED`] on stderr and the agent's
/// own "no opinion" ([`Agent::no_opinion`]: nothing, or `{}` for Gemini)
/// with exit 0.
///
/// `binary` is the bare name `agenthooks` (looked up on the `PATH` of the
/// machine the agent runs on: what a project file a team commits must say)
/// or an absolute path (user files, `install --absolute`). Without the
/// fallback a missing binary is exit 127: an error on every event, and a deny
/// of every tool call where the agent fails closed on errors (Copilot's
/// preToolUse; Gemini reads exit 127 with text on stderr as a deny).
pub fn command_line(binary: &Path, agent: &dyn Agent, event: &str) -> String {
    command_line_at(binary, agent, event, Scope::Project)
}

/// `run`'s flag in the entries of an agent's system-wide file: that entry
/// runs every scope's hooks, and the agent's user and project entries step
/// aside while it is installed (see `cli::run`), so no hook runs twice.
pub const SYSTEM_FLAG: &str = "--system";

/// `run`'s flag in the entries of an agent's user file: where the agent
/// runs both, a project's entry steps aside for a user entry that covers
/// the tool (see `head`), so no hook runs twice.
pub const USER_FLAG: &str = "--user";

/// `run`'s flag naming the tools a narrowed entry answers for (a Claude
/// matcher over canonical names, see [`super::coverage`]).
pub const TOOLS_FLAG: &str = "--tools";

/// The flags after the event: [`SYSTEM_FLAG`] or [`USER_FLAG`] for the
/// scope, and [`TOOLS_FLAG`] with `tools` quoted by `quote`.
fn flags(scope: Scope, tools: Option<&str>, quote: fn(&str) -> String) -> String {
    let mut out = match scope {
        Scope::Managed => format!(" {SYSTEM_FLAG}"),
        Scope::User => format!(" {USER_FLAG}"),
        Scope::Project => String::new(),
    };
    if let Some(tools) = tools {
        out.push_str(&format!(" {TOOLS_FLAG} {}", quote(tools)));
    }
    out
}

/// What an entry starts: `front` (the `agenthooks` entries call, a bare
/// name or an absolute path) or the engine beside it
/// (`agenthooks-engine`: on the `PATH` for the bare name, where every
/// installer puts both, else the file next to it).
pub fn program(front: &Path, binary: Binary) -> std::path::PathBuf {
    match binary {
        Binary::Front => front.to_path_buf(),
        Binary::Engine if front.is_absolute() => front.with_file_name(format!(
            "{}{}",
            crate::dirs::ENGINE_NAME,
            std::env::consts::EXE_SUFFIX
        )),
        Binary::Engine => std::path::PathBuf::from(crate::dirs::ENGINE_NAME),
    }
}

/// The command and PowerShell lines of one entry
/// ([`Wired`]) at `scope`, `front` being what the entries
/// call (see [`program`]): the command line in the form of the shell the
/// agent runs it with on this platform ([`launcher_for`]).
pub(super) fn entry_lines(
    front: &Path,
    agent: &dyn Agent,
    event: &str,
    scope: Scope,
    wired: &Wired,
) -> (String, String) {
    let program = program(front, wired.binary);
    let tools = wired.tools.as_deref();
    (
        launcher_for(agent, Os::CURRENT).line(&program, agent, event, scope, tools),
        POWERSHELL.line(&program, agent, event, scope, tools),
    )
}

/// The launcher of an entry's command line on `os`: sh everywhere but on
/// Windows, where the agent's shell decides (Claude Code's Git Bash keeps
/// sh; an agent that runs `cmd.exe` or PowerShell gets that form).
fn launcher_for(agent: &dyn Agent, os: Os) -> &'static Launcher {
    let windows = match &agent.install_spec().registration {
        Registration::Json(json) => json.windows,
        _ => WindowsShell::Sh,
    };
    match (os, windows) {
        (Os::Unix | Os::MacOs, _) | (Os::Windows, WindowsShell::Sh) => &SH,
        (Os::Windows, WindowsShell::Cmd) => &CMD,
        (Os::Windows, WindowsShell::PowerShell) => &POWERSHELL,
    }
}

/// How a launcher line is written in one shell: its quoting and the line
/// that runs agenthooks or prints the hint and the no-opinion answer. The
/// launchers differ only in these.
struct Launcher {
    /// A word: the program, the event, a flag's value.
    quote: fn(&str) -> String,
    /// Text to echo: the hint, the no-opinion answer.
    text: fn(&str) -> String,
    /// The line for (program, agent id, event, flags, hint, the agent's
    /// no-opinion answer or `None` when it is empty), all quoted but the id
    /// and the flags.
    run: fn(&str, &str, &str, &str, &str, Option<&str>) -> String,
    /// The install hint for this shell's platform.
    hint: &'static str,
    /// Whether the no-opinion answer may be a JSON message (not in `cmd`:
    /// an agent that passes the line to `cmd.exe` through Node's argument
    /// quoting turns its `"` into `\"`, so only the plain answer is echoed).
    message: bool,
}

impl Launcher {
    fn line(
        &self,
        binary: &Path,
        agent: &dyn Agent,
        event: &str,
        scope: Scope,
        tools: Option<&str>,
    ) -> String {
        let (quote, text) = (self.quote, self.text);
        let neutral = if self.message {
            missing_answer(agent, event, self.hint)
        } else {
            agent.no_opinion(Vec::new()).stdout
        };
        (self.run)(
            &quote(&binary.to_string_lossy()),
            agent.id(),
            &quote(event),
            &flags(scope, tools, quote),
            &text(self.hint),
            (!neutral.is_empty()).then(|| text(&neutral)).as_deref(),
        )
    }
}

/// What a launcher prints on stdout when `agenthooks` is missing: the
/// agent's "no opinion"; but at the agent's SessionStart, where it shows a
/// `systemMessage`, the `hint` ([`NOT_INSTALLED`]) as that message, so the
/// user sees it in the agent itself, once per session (every other event
/// stays quiet).
fn missing_answer(agent: &dyn Agent, event: &str, hint: &str) -> String {
    let shows = agent.table().events.iter().any(|r| {
        r.native == event && r.canonical == EventName::SessionStart && r.caps.system_message
    });
    let start = Event::new(
        serde_json::json!({"hook_event_name": "SessionStart"}),
        None,
        agent.id(),
    );
    if let (true, Ok(start)) = (shows, start) {
        let answer = Answer {
            system_message: Some(hint.to_string()),
            ..Answer::default()
        };
        let native = agent.encode(&start, &answer);
        if native.exit_code == 0 && !native.stdout.is_empty() {
            return native.stdout.trim_end().to_string();
        }
    }
    agent.no_opinion(Vec::new()).stdout
}

/// [`command_line`] for an entry at `scope`.
pub(super) fn command_line_at(
    binary: &Path,
    agent: &dyn Agent,
    event: &str,
    scope: Scope,
) -> String {
    SH.line(binary, agent, event, scope, None)
}

/// The sh launcher.
const SH: Launcher = Launcher {
    quote: crate::quote::sh,
    text: crate::quote::sh,
    run: |program, id, event, flag, hint, neutral| {
        let echo = neutral.map_or(String::new(), |n| format!(" && echo {n}"));
        format!("command -v {program} >/dev/null 2>&1 && exec {program} run --agent {id} --event {event}{flag} || echo {hint} >&2{echo}")
    },
    hint: NOT_INSTALLED,
    message: true,
};

/// The PowerShell launcher.
const POWERSHELL: Launcher = Launcher {
    // A single-quoted PowerShell string is literal; `'` is doubled.
    quote: powershell_quote,
    text: powershell_quote,
    run: |program, id, event, flag, hint, neutral| {
        let echo = neutral.map_or(String::new(), |n| format!("; Write-Output {n}"));
        format!("if (Get-Command {program} -ErrorAction SilentlyContinue) {{ & {program} run --agent {id} --event {event}{flag}; exit $LASTEXITCODE }}; [Console]::Error.WriteLine({hint}){echo}")
    },
    hint: NOT_INSTALLED_WINDOWS,
    message: true,
};

/// The `cmd.exe` launcher: when `where` (a bare name, through `PATH` and
/// `PATHEXT`) or `if exist` (a path) does not find agenthooks, the hint on
/// stderr, the no-opinion answer and `exit /b 0` (which ends `cmd /c`);
/// otherwise agenthooks runs last, so its exit code is the line's.
const CMD: Launcher = Launcher {
    quote: cmd_word,
    text: cmd_text,
    run: |program, id, event, flag, hint, neutral| {
        let echo = neutral.map_or(String::new(), |n| format!(" & echo {n}"));
        let missing = format!("(echo {hint} 1>&2{echo} & exit /b 0)");
        // A path (a Windows one, whatever platform wrote it) or a name.
        let found = if program.contains(['\\', '/', ':']) {
            format!("(if not exist {program} {missing})")
        } else {
            format!("(where /q {program} || {missing})")
        };
        format!("{found} && {program} run --agent {id} --event {event}{flag}")
    },
    hint: NOT_INSTALLED_WINDOWS,
    message: false,
};

/// [`command_line`] for PowerShell (Copilot's `powershell` field): runs
/// `<binary> run --agent <agent> --event <event>` when PowerShell finds it,
/// and exits with its code; otherwise Windows' hint
/// ([`NOT_INSTALLED_WINDOWS`]) and no opinion.
pub fn powershell_line(binary: &Path, agent: &dyn Agent, event: &str, scope: Scope) -> String {
    POWERSHELL.line(binary, agent, event, scope, None)
}

/// `s` as one word of a `cmd.exe` line (a program, an event, a tools
/// matcher): in double quotes when it holds a space or a character `cmd`
/// reads; a Windows path cannot hold `"`.
fn cmd_word(s: &str) -> String {
    if s.is_empty() || s.contains([' ', '&', '|', '<', '>', '^', '(', ')', ',', ';', '=']) {
        format!("\"{}\"", s.replace('"', ""))
    } else {
        s.to_string()
    }
}

/// `s` as the text of a `cmd.exe` `echo`: spaces kept, `^` before each
/// character `cmd` reads outside the text's own `"`s (inside them it reads
/// none).
fn cmd_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut quoted = false;
    for c in s.chars() {
        if c == '"' {
            quoted = !quoted;
        } else if !quoted && "&|<>^()".contains(c) {
            out.push('^');
        }
        out.push(c);
    }
    out
}

fn powershell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents;
    use crate::install::json;

    #[test]
    fn the_launcher_runs_agenthooks_by_name_or_answers_no_opinion() {
        let claude = agents::find("claude").unwrap();
        let line = command_line(Path::new("agenthooks"), claude, "PreToolUse");
        assert_eq!(
            line,
            format!(
                "command -v agenthooks >/dev/null 2>&1 && exec agenthooks run --agent claude --event PreToolUse || echo '{NOT_INSTALLED}' >&2"
            )
        );
        assert!(json::is_ours(&line, "claude"));
        // Gemini reads an empty stdout as "parse stderr": the launcher prints `{}`.
        let gemini = agents::find("gemini").unwrap();
        let line = command_line(Path::new("agenthooks"), gemini, "BeforeTool");
        assert!(line.ends_with(" >&2 && echo '{}'"), "{line}");
        // An absolute path with a space is quoted in both places.
        let line = command_line(Path::new("/opt/my tools/agenthooks"), claude, "Stop");
        assert!(line.starts_with("command -v '/opt/my tools/agenthooks' >/dev/null 2>&1 && exec '/opt/my tools/agenthooks' run --agent claude --event Stop"), "{line}");
    }

    #[test]
    fn the_powershell_launcher_calls_agenthooks_and_passes_its_exit_code() {
        let copilot = agents::find("copilot").unwrap();
        let line = powershell_line(
            Path::new("C:\\Program Files\\agenthooks.exe"),
            copilot,
            "preToolUse",
            Scope::User,
        );
        assert_eq!(
            line,
            format!(
                "if (Get-Command 'C:\\Program Files\\agenthooks.exe' -ErrorAction SilentlyContinue) {{ & 'C:\\Program Files\\agenthooks.exe' run --agent copilot --event 'preToolUse' --user; exit $LASTEXITCODE }}; [Console]::Error.WriteLine('{NOT_INSTALLED_WINDOWS}')"
            )
        );
        // Uninstall finds it as ours, as it finds the `bash` line.
        assert!(json::is_ours(&line, "copilot"));
        let gemini = agents::find("gemini").unwrap();
        let line = powershell_line(Path::new("it's"), gemini, "BeforeTool", Scope::User);
        assert!(line.starts_with("if (Get-Command 'it''s' "), "{line}");
        assert!(line.ends_with("; Write-Output '{}'"), "{line}");
    }

    /// Issue 39: on Windows only Claude Code runs hooks through Git Bash;
    /// an agent that runs `cmd.exe` or PowerShell gets that form.
    #[test]
    fn on_windows_each_agent_gets_the_launcher_of_its_shell() {
        let line = |id: &str, os: Os, binary: &str, event: &str| {
            let agent = agents::find(id).unwrap();
            launcher_for(agent, os).line(Path::new(binary), agent, event, Scope::Project, None)
        };
        let claude = line("claude", Os::Windows, "agenthooks", "PreToolUse");
        assert_eq!(claude, line("claude", Os::Unix, "agenthooks", "PreToolUse"));
        assert!(claude.starts_with("command -v agenthooks "), "{claude}");
        // Gemini CLI runs PowerShell there, `{}` its no opinion.
        let gemini = line("gemini", Os::Windows, "agenthooks", "BeforeTool");
        assert!(
            gemini.starts_with("if (Get-Command 'agenthooks' "),
            "{gemini}"
        );
        assert!(gemini.ends_with("; Write-Output '{}'"), "{gemini}");
        assert!(line("gemini", Os::MacOs, "agenthooks", "BeforeTool").starts_with("command -v "));
        // Qwen Code runs `%ComSpec%`.
        let hint = cmd_text(NOT_INSTALLED_WINDOWS);
        assert_eq!(
            line("qwen", Os::Windows, "agenthooks", "PreToolUse"),
            format!("(where /q agenthooks || (echo {hint} 1>&2 & exit /b 0)) && agenthooks run --agent qwen --event PreToolUse")
        );
        let user = line(
            "qwen",
            Os::Windows,
            r"C:\Program Files\agenthooks.exe",
            "Stop",
        );
        assert!(
            user.starts_with(r#"(if not exist "C:\Program Files\agenthooks.exe" (echo "#),
            "{user}"
        );
        assert!(
            user.ends_with(r#"&& "C:\Program Files\agenthooks.exe" run --agent qwen --event Stop"#),
            "{user}"
        );
        // cmd reads `|` and `(`: the hint escapes them; the message form
        // (quotes) is not used at SessionStart.
        assert!(
            hint.contains("^(allowed^)") && hint.contains("^| iex"),
            "{hint}"
        );
        let start = line("qwen", Os::Windows, "agenthooks", "SessionStart");
        assert!(!start.contains('"'), "{start}");
        assert!(json::is_ours(&start, "qwen"));
        assert_eq!(cmd_text(r#"{"a": "x|y"} | z"#), r#"{"a": "x|y"} ^| z"#);
        assert_eq!(cmd_word("Bash|Edit"), r#""Bash|Edit""#);
    }

    #[test]
    fn a_missing_agenthooks_is_shown_at_session_start_where_the_agent_shows_messages() {
        let hint = serde_json::json!({ "systemMessage": NOT_INSTALLED }).to_string();
        for (id, other) in [("claude", "PreToolUse"), ("gemini", "BeforeTool")] {
            let agent = agents::find(id).unwrap();
            let line = command_line(Path::new("agenthooks"), agent, "SessionStart");
            assert!(
                line.ends_with(&format!(" >&2 && echo '{hint}'")),
                "{id}: {line}"
            );
            // Every other event answers "no opinion": one message per session.
            let line = command_line(Path::new("agenthooks"), agent, other);
            assert!(!line.contains("systemMessage"), "{id}: {line}");
        }
        // The platform's one line, never a build from a clone.
        assert!(NOT_INSTALLED.contains(crate::origin::INSTALL_SH));
        assert!(!NOT_INSTALLED.contains("--path"));
    }

    #[test]
    fn every_agents_no_opinion_exits_zero_and_the_hint_is_one_quotable_line() {
        for agent in agents::AGENTS {
            let neutral = agent.no_opinion(Vec::new());
            assert_eq!(neutral.exit_code, 0, "{}", agent.id());
            assert!(!neutral.stdout.contains('\n'), "{}", agent.id());
        }
        for hint in [NOT_INSTALLED, NOT_INSTALLED_WINDOWS] {
            assert!(!hint.contains(['\n', '\'', '\\', '$', '`']), "{hint}");
        }
    }
}
