//! `.agents/hooks.json`: the user and project layers, resolved into [`Handler`]s.
//!
//! Stage 2 of the pipeline (load). The file format is Claude Code's `hooks`
//! block plus a `wasm` handler type, `if` and `onError` (docs/design.md §4):
//! [`hooks_json`] mirrors the file, [`load()`] reads both scopes and resolves
//! them into [`Handler`]s, never failing.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::protocol::EventName;

pub mod claude_env;
pub mod edit;
pub mod hooks_json;
pub(crate) mod http;
mod if_rule;
mod llm;
mod load;
mod matcher;
mod mcp;
mod warning;

pub use hooks_json::{config_schema, Unknown};
pub use llm::PROMPT_EVENTS;
pub use load::{load, load_with_managed, managed_file, project_root, LoadOptions, MANAGED_ENV};
pub use matcher::Matcher;
pub use mcp::{McpServer, McpToolSpec, McpTransport};
pub use warning::{ConfigWarning, WarningKind};

/// Everything loaded from the two `hooks.json` files.
///
/// Loading never fails: what could not be used is in `warnings` (an entry) or
/// `broken` (a whole file), each one line when shown, and the rest still runs.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Config {
    /// The handlers, in declaration order: managed, then user, then project.
    pub handlers: Vec<Handler>,
    /// Entries ignored or skipped (unknown keys and events, bad regexes, ...), naming the file.
    pub warnings: Vec<ConfigWarning>,
    /// The config files that exist and were read, user first.
    pub files: Vec<PathBuf>,
    /// The project root the project scope was read from (`CLAUDE_PROJECT_DIR`).
    pub project_root: Option<PathBuf>,
    /// The audit log settings, from the user file's `audit` object.
    pub audit: Option<AuditConfig>,
    /// Files that could not be read or parsed (line, column and what to do
    /// when shown); the `onConfigError` policy acts on them.
    pub broken: Vec<BrokenFile>,
    /// What a broken `hooks.json` or a missing component counts as: the user
    /// file's `onConfigError` (a project cannot set it).
    pub on_config_error: OnError,
    /// The per-event budgets, from the managed or user file (defaults otherwise).
    pub budgets: Budgets,
    /// The managed policy, when a managed file exists (even a broken one).
    pub managed: Option<ManagedPolicy>,
    /// Where prompt hooks send events (`llm` in the managed or user file);
    /// `None`: Claude Code's environment (`ANTHROPIC_BASE_URL`, ...).
    pub llm: Option<LlmSettings>,
    /// Components (as written) of user and project wasm hooks that the
    /// managed policy's `allowedComponents` refused: their hooks were
    /// skipped with a warning, and `pull` and `lock` do not fetch them.
    pub refused_components: Vec<String>,
    /// Where each event's spans are exported (`telemetry` in the managed or
    /// user file); the `OTEL_*` variables may say otherwise.
    #[doc(hidden)]
    pub telemetry: Option<TelemetryConfig>,
}

/// An OTLP/HTTP endpoint from the managed or user file's `telemetry`
/// (never a project's: a cloned repository must not choose where spans go).
#[derive(Clone, PartialEq, Eq)]
pub struct TelemetryConfig {
    /// The collector's base URL.
    pub endpoint: String,
    /// `http/protobuf` or `http/json` (as written; the exporter checks it).
    pub protocol: Option<String>,
    /// Headers sent with each export.
    pub headers: Vec<(String, String)>,
    /// How long one export may take.
    pub timeout: Option<std::time::Duration>,
}

/// The headers' names only: their values are often API keys.
impl std::fmt::Debug for TelemetryConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("TelemetryConfig")
            .field("endpoint", &self.endpoint)
            .field("protocol", &self.protocol)
            .field("headers", &names)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Config {
    /// Whether a broken file makes this configuration refuse what it can
    /// (the user asked for `"onConfigError": "deny"`).
    pub fn fails_closed(&self) -> bool {
        self.on_config_error == OnError::Deny && !self.broken.is_empty()
    }

    /// Every problem as a line: each broken file, then each warning.
    pub fn problems(&self) -> impl Iterator<Item = String> + '_ {
        let broken = self.broken.iter().map(ToString::to_string);
        broken.chain(self.warnings.iter().map(ToString::to_string))
    }
}

/// A `hooks.json` that could not be read or parsed, so none of its hooks run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenFile {
    /// The file.
    pub file: PathBuf,
    /// Its scope.
    pub scope: Scope,
    /// What is wrong, on one line (`line 3 column 5: trailing comma`).
    pub why: String,
    /// The file says `"onError": "deny"` somewhere, which cannot apply to
    /// hooks that were never read.
    pub lost_deny: bool,
    /// It could not be read at all (a FIFO, too large, no permission):
    /// `why` then names the file itself.
    pub unreadable: bool,
}

impl std::fmt::Display for BrokenFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.unreadable {
            return write!(f, "{} (other scopes still run)", self.why);
        }
        write!(
            f,
            "`{}`: {}; fix the file (other scopes still run)",
            self.file.display(),
            self.why
        )?;
        if self.lost_deny {
            f.write_str("; its `onError: deny` could not apply")?;
        }
        Ok(())
    }
}

/// Limits on one event as a whole, across its handlers. Set in the user file
/// only: a cloned repository must not be able to raise them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Linear memory all wasm handlers of one event may hold together, in MiB
    /// (`eventMemoryMiB`); default [`DEFAULT_EVENT_MEMORY_MIB`].
    pub event_memory_mib: u64,
    /// How many model calls one event makes at once (`maxLlmCalls`); the
    /// others wait their turn within their own deadline. Default
    /// [`DEFAULT_MAX_LLM_CALLS`].
    pub max_llm_calls: usize,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            event_memory_mib: DEFAULT_EVENT_MEMORY_MIB,
            max_llm_calls: DEFAULT_MAX_LLM_CALLS,
        }
    }
}

/// Where the audit log goes (user file only: a project must not pick where the user's log is written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditConfig {
    /// The log file, absolute.
    pub path: PathBuf,
    /// Rotate when the log grows past this many bytes.
    pub max_bytes: Option<u64>,
    /// Record each event's tool input, capped and redacted (`includeInput`).
    pub include_input: bool,
    /// Sign each record (`sign`): with the key file `signingKey` names, or
    /// (`None` inside) the default one under the user's state directory.
    pub sign: Option<Option<PathBuf>>,
}

/// Where a handler was declared. Managed scope comes first in declaration
/// order, then user, then project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The system-wide managed policy (`/etc/agenthooks/hooks.json`, see
    /// [`managed_file`]): trusted by definition, and a user cannot override it.
    Managed,
    /// `~/.agents/hooks.json`: trusted by definition.
    User,
    /// `<project>/.agents/hooks.json`: command hooks need the user's trust.
    Project,
}

impl Scope {
    /// `managed`, `user` or `project`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Project => "project",
        }
    }

    /// Whether hooks of this scope run only once the user trusted them: a
    /// project's; managed and user hooks are their owners' own.
    pub fn needs_trust(self) -> bool {
        self == Scope::Project
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the managed file (`/etc/agenthooks/hooks.json`) imposes beyond its
/// own hooks, which always run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManagedPolicy {
    /// The managed file.
    pub file: PathBuf,
    /// `managedOnly`: user and project files are not loaded at all.
    pub managed_only: bool,
    /// `projectGrants`: the most a project wasm hook may be granted, even
    /// trusted; a grant outside it is withheld with a note. `None`: no limit
    /// beyond trust's.
    pub project_grants: Option<Grants>,
    /// `allowedComponents`: the component sources user and project wasm
    /// hooks may name (directories, or `oci://registry/repository` prefixes);
    /// any other is skipped with a note. `None`: any.
    pub allowed_components: Option<Vec<String>>,
    /// The managed file sets `onConfigError` (or is broken, which fails
    /// closed): the user file's is ignored.
    pub sets_on_config_error: bool,
    /// The managed file sets `eventMemoryMiB`: the user file's is ignored.
    pub sets_event_memory: bool,
    /// The managed file sets `maxLlmCalls`: the user file's is ignored.
    pub sets_max_llm_calls: bool,
    /// The managed file sets `audit`: the user file's is ignored.
    pub sets_audit: bool,
    /// The managed file sets `llm`: the user file's is ignored.
    pub sets_llm: bool,
    /// The managed file sets `telemetry`: the user file's is ignored.
    pub sets_telemetry: bool,
    /// `allowLlmHooks: false`: no prompt hook of any scope runs.
    pub forbids_llm_hooks: bool,
    /// The managed file's top-level `onError`: the failure policy of every
    /// hook of every scope whose file and entry set none (administrators
    /// choose fail-closed for the fleet in one word).
    pub on_error: Option<OnError>,
}

/// What a failing handler counts as.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum OnError {
    /// Failure allows, with a note (the protocol's default).
    #[default]
    Allow,
    /// Failure denies, with a reason naming the hook and the failure (fail closed).
    Deny,
}

/// Claude Code's spelling of a handler's failure policy (`onFailure`, CC
/// 2.1.295): `block` is [`OnError::Deny`], `continue` (its default) is
/// [`OnError::Allow`]. Both keys are accepted; [`OnFailure::combine`] is the
/// one rule that reads them together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnFailure {
    /// A failure is no decision (allow), as `onError: "allow"`.
    Continue,
    /// A failure blocks the action, as `onError: "deny"`.
    Block,
}

impl From<OnFailure> for OnError {
    fn from(policy: OnFailure) -> OnError {
        match policy {
            OnFailure::Continue => OnError::Allow,
            OnFailure::Block => OnError::Deny,
        }
    }
}

impl OnFailure {
    /// The policy a handler states with `onError` and/or `onFailure`: `None`
    /// when it states none (the file's default applies), `Err` with the
    /// policy to use (fail closed) when the two say different things.
    pub fn combine(
        on_error: Option<OnError>,
        on_failure: Option<OnFailure>,
    ) -> Result<Option<OnError>, OnError> {
        match (on_error, on_failure.map(OnError::from)) {
            (Some(a), Some(b)) if a != b => Err(OnError::Deny),
            (a, b) => Ok(a.or(b)),
        }
    }
}

impl OnError {
    /// Whether `key` is set to `"deny"` anywhere in `text`, a file that is not
    /// valid JSON: the only way to honour a policy written in a broken file.
    pub(crate) fn denies_in(text: &str, key: &str) -> bool {
        Self::set_in(text, key, "deny")
    }

    /// Whether a handler in `text`, a file that is not valid JSON, fails
    /// closed by either spelling (`onError: deny`, `onFailure: block`).
    pub(crate) fn handler_denies_in(text: &str) -> bool {
        Self::denies_in(text, "onError") || Self::set_in(text, "onFailure", "block")
    }

    fn set_in(text: &str, key: &str, value: &str) -> bool {
        let pattern = format!(
            r#""{}"\s*:\s*"{}""#,
            regex_lite::escape(key),
            regex_lite::escape(value)
        );
        regex_lite::Regex::new(&pattern).is_ok_and(|re| re.is_match(text))
    }
}

/// `allow`: a wasm handler's grants.
// Nothing is granted by default. One struct for both sides of the loader: as
// written in `hooks.json` (`P = String`, `hooks_json::AllowEntry`, whose
// schema this is) and resolved, paths absolute (`P = PathBuf`,
// `WasmSpec::allow`).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
// `Serialize` in the bound lets the schema show the lists' default (`[]`).
#[schemars(rename = "AllowEntry", bound = "P: schemars::JsonSchema + Serialize")]
pub struct Grants<P = PathBuf> {
    /// Directories preopened read-only.
    #[serde(default)]
    pub read: Vec<P>,
    /// Directories preopened read-write.
    #[serde(default)]
    pub write: Vec<P>,
    /// Environment variables passed through by name.
    #[serde(default)]
    pub env: Vec<String>,
    /// `host:port` pairs the guest may connect to.
    #[serde(default)]
    pub net: Vec<String>,
}

impl<P> Grants<P> {
    /// The same grants with each path mapped by `f`.
    pub fn map_paths<Q>(self, mut f: impl FnMut(P) -> Q) -> Grants<Q> {
        Grants {
            read: self.read.into_iter().map(&mut f).collect(),
            write: self.write.into_iter().map(&mut f).collect(),
            env: self.env,
            net: self.net,
        }
    }
}

impl Grants {
    /// The grants as JSON with the empty lists left out: what a trust
    /// fingerprint hashes and the trust review shows (so a hook asking for
    /// nothing reads `{}`).
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let serde_json::Value::Object(map) = &mut value {
            map.retain(|_, list| list.as_array().is_none_or(|l| !l.is_empty()));
        }
        value
    }
}

/// A command handler.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CommandSpec {
    /// The command line, run through [`CommandSpec::shell`], variables expanded.
    pub command: String,
    /// Started in the background and never awaited or aggregated.
    pub async_: bool,
    /// The shell that runs it.
    pub shell: Shell,
}

/// The shell a command handler runs through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Shell {
    /// `sh -c` (`cmd /C` on Windows): what `shell` absent, `bash` or `sh` ask for.
    #[default]
    System,
    /// PowerShell, `-NoProfile -NonInteractive -Command`: `pwsh` where it is
    /// on `PATH`, else Windows PowerShell (`powershell`). Claude Code's
    /// `"shell": "powershell"`, and Copilot's `powershell` field on Windows.
    PowerShell,
}

/// A WebAssembly component handler.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WasmSpec {
    /// The component file, resolved against the project root (or `~` for
    /// user scope); for an `oci://` component, the pulled blob in the cache.
    pub component: PathBuf,
    /// Where an `oci://` component comes from and the digest it is pinned
    /// to (`None` for a local file).
    pub oci: Option<crate::oci::OciSource>,
    /// What the guest may use of the machine.
    pub limits: Limits,
    /// What the guest may touch beyond the defaults.
    pub allow: Grants,
}

/// The resource limits of one wasm handler, in one place: the handler's
/// spec, the [`crate::exec::wasm::Sandbox`] and the trust gate (an untrusted
/// project may not raise one) all hold or read this struct. A new limit
/// touches seven files (checked 2026-12-02 against `memoryMiB`): a field
/// here (with its default, [`Limits::raised_over`], [`Limits::capped_at`]
/// and the `Display` line), its key in `config/hooks_json.rs` (the wasm
/// handler's field and its known keys), where it is enforced
/// (`exec/wasm/sandbox.rs`), how its trap is told (`exec/wasm/classify.rs`),
/// its [`crate::protocol::Failure`] and kind (`protocol/outcome.rs`), the
/// generated `runtime/schema/config.json` and the list of limits in docs/hooks-json.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Fuel units (CPU budget).
    pub fuel: u64,
    /// Linear-memory limit in MiB.
    pub memory_mib: u64,
}

impl Limits {
    /// The defaults (docs/design.md §6).
    pub const DEFAULT: Limits = Limits {
        fuel: DEFAULT_FUEL,
        memory_mib: DEFAULT_MEMORY_MIB,
    };

    /// Each limit set above `max`, as its key, its value and `max`'s
    /// (`` `fuel` 5 (2 instead) ``).
    pub fn raised_over(&self, max: &Limits) -> Vec<String> {
        let mut raised = Vec::new();
        if self.fuel > max.fuel {
            raised.push(format!("`fuel` {} ({} instead)", self.fuel, max.fuel));
        }
        if self.memory_mib > max.memory_mib {
            raised.push(format!(
                "`memoryMiB` {} ({} instead)",
                self.memory_mib, max.memory_mib
            ));
        }
        raised
    }

    /// Each limit no higher than `max`'s.
    pub fn capped_at(self, max: Limits) -> Limits {
        Limits {
            fuel: self.fuel.min(max.fuel),
            memory_mib: self.memory_mib.min(max.memory_mib),
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

impl std::fmt::Display for Limits {
    /// `fuel 2000000000, memory 64 MiB`, as the trust review shows them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fuel {}, memory {} MiB", self.fuel, self.memory_mib)
    }
}

/// An http handler (Claude Code's `type: "http"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HttpSpec {
    /// The URL the input is POSTed to (`http://` or `https://`, checked at load).
    pub url: String,
    /// Request headers as written: `$VAR` / `${VAR}` are expanded when the
    /// request is sent ([`crate::exec::http::interpolate`]), so the trust
    /// fingerprint covers the definition, not a secret's value.
    pub headers: Vec<(String, String)>,
    /// The variables a header value may expand.
    pub allowed_env_vars: Vec<String>,
}

/// A prompt handler (Claude Code's `type: "prompt"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PromptSpec {
    /// The prompt as written; `$ARGUMENTS` is filled in when it runs.
    pub prompt: String,
    /// The model asked, when the hook names one.
    pub model: Option<String>,
    /// `continueOnBlock`: an objection is fed back and the turn goes on.
    pub continue_on_block: bool,
}

/// Where prompt hooks send their events: the `llm` object of the managed or
/// user file. A project cannot set it (it would choose where its events go).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LlmSettings {
    /// `anthropic` (Messages API) or `openai` (chat completions).
    pub provider: LlmProvider,
    /// The API's base URL: `https://api.anthropic.com` for Anthropic, the part
    /// before `/chat/completions` for OpenAI-compatible servers.
    pub base_url: Option<String>,
    /// The model used when a hook names none.
    pub model: Option<String>,
    /// The environment variable holding the API key (its value is never
    /// written anywhere).
    pub api_key_env: Option<String>,
}

/// The wire protocol a model speaks.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum LlmProvider {
    /// Anthropic's `POST /v1/messages`.
    #[default]
    Anthropic,
    /// OpenAI's `POST .../chat/completions` (Ollama, llama.cpp, vLLM, LM Studio, gateways).
    Openai,
}

impl LlmProvider {
    /// `anthropic` or `openai`.
    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::Anthropic => "anthropic",
            LlmProvider::Openai => "openai",
        }
    }
}

/// The kind of a handler.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HandlerKind {
    /// `"type": "command"`.
    Command(CommandSpec),
    /// `"type": "wasm"`.
    Wasm(WasmSpec),
    /// `"type": "http"`.
    Http(HttpSpec),
    /// `"type": "prompt"`: a model judges the event ([`crate::exec::prompt`]).
    Prompt(PromptSpec),
    /// `"type": "agent"`: a model that may read the project judges the
    /// event ([`crate::exec::agent`]).
    Agent(PromptSpec),
    /// `"type": "mcp_tool"`: a tool of an MCP server judges the event
    /// ([`crate::exec::mcp`]).
    McpTool(McpToolSpec),
    /// A type parsed but not run: skipped with a note.
    Unsupported {
        /// The `type` as written.
        kind: String,
    },
}

impl HandlerKind {
    /// Its `type`, as hooks.json spells it and reports and notes give it.
    pub fn name(&self) -> &str {
        match self {
            HandlerKind::Command(_) => "command",
            HandlerKind::Wasm(_) => "wasm",
            HandlerKind::Http(_) => "http",
            HandlerKind::Prompt(_) => "prompt",
            HandlerKind::Agent(_) => "agent",
            HandlerKind::McpTool(_) => "mcp_tool",
            HandlerKind::Unsupported { kind } => kind,
        }
    }
}

/// One resolved handler: what to run, for which event and tools, and how.
#[derive(Debug, Clone)]
pub struct Handler {
    /// The event it is registered for.
    pub event: EventName,
    /// Its group's matcher.
    pub matcher: Matcher,
    /// The `if` regex on [`crate::protocol::Event::if_target`], if any (a
    /// Claude Code permission rule like `Bash(git *)` is translated into one,
    /// and narrows `matcher` to its tool).
    pub if_: Option<regex_lite::Regex>,
    /// What runs.
    pub kind: HandlerKind,
    /// How long it may run.
    pub timeout: Duration,
    /// What its failure counts as.
    pub on_error: OnError,
    /// Where it was declared.
    pub scope: Scope,
    /// The file that declared it.
    pub file: PathBuf,
    /// The project root, when known (its `CLAUDE_PROJECT_DIR`), for either scope.
    /// Relative paths of project-scope handlers were resolved against it.
    pub project_root: Option<PathBuf>,
    /// A short human name used in notes: `command \`./x.sh\`` or `wasm \`guard.wasm\``.
    pub label: String,
    /// Optional `statusMessage`.
    pub status_message: Option<String>,
    /// `once: true`: run at most once per session ([`crate::exec::once`]).
    pub once: bool,
}

/// Default handler timeout (docs/design.md §4).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// Default prompt handler timeout (Claude Code's).
pub const DEFAULT_PROMPT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default mcp_tool handler timeout (Claude Code's).
pub const DEFAULT_MCP_TIMEOUT: Duration = Duration::from_secs(600);
/// Default number of model calls one event makes at once (Claude Code's).
pub const DEFAULT_MAX_LLM_CALLS: usize = 12;
/// Default wasm fuel (docs/design.md §6).
pub const DEFAULT_FUEL: u64 = 2_000_000_000;
/// Default wasm linear memory limit in MiB.
pub const DEFAULT_MEMORY_MIB: u64 = 64;
/// Default linear memory of all wasm handlers of one event together, in MiB.
pub const DEFAULT_EVENT_MEMORY_MIB: u64 = 512;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn grants_as_json_leave_out_empty_lists_in_field_order() {
        // A trust fingerprint hashes this text: an empty list added here
        // would untrust every wasm hook.
        assert_eq!(Grants::default().to_json().to_string(), "{}");
        let grants = Grants {
            read: vec![PathBuf::from("/r")],
            net: vec!["h:1".to_string()],
            ..Grants::default()
        };
        assert_eq!(
            grants.to_json().to_string(),
            r#"{"read":["/r"],"net":["h:1"]}"#
        );
        let written: Grants<String> =
            serde_json::from_value(json!({"net": ["h:1"], "read": ["r"]})).unwrap();
        assert_eq!(written.map_paths(|p| PathBuf::from("/").join(p)), grants);
    }

    #[test]
    fn limits_name_each_one_raised_and_cap_each_one() {
        let asked = Limits {
            fuel: Limits::DEFAULT.fuel * 2,
            memory_mib: 1,
        };
        assert_eq!(
            asked.raised_over(&Limits::DEFAULT),
            [format!("`fuel` {} ({} instead)", asked.fuel, DEFAULT_FUEL)]
        );
        let capped = asked.capped_at(Limits::DEFAULT);
        assert_eq!((capped.fuel, capped.memory_mib), (DEFAULT_FUEL, 1));
        assert!(capped.raised_over(&Limits::DEFAULT).is_empty());
        assert_eq!(
            Limits::DEFAULT.to_string(),
            "fuel 2000000000, memory 64 MiB"
        );
    }
}
