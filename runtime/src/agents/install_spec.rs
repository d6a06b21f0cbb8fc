//! The install half of an agent module, as data: where the agent reads its
//! hooks from and what one of our entries looks like there.
//!
//! Each agent module declares one [`InstallSpec`] (`INSTALL`, returned by
//! [`Agent::install_spec`](super::Agent::install_spec)) next to its
//! [`Table`](super::Table). The event keys come from the table's installed
//! rows; everything else `agenthooks install` writes comes from the spec.
//! `crate::install` turns it into files and does what is the same for every
//! agent (the JSON merge, backups, writing scripts and plugin files); the
//! text of a script or a plugin comes from the agent's module
//! ([`Registration::Scripts`], [`Registration::Plugin`]), as do the
//! variables naming its user directory ([`UserDir::Var`]).
//!
//! Why data and not code: the entry is built from the spec's fields in their
//! order, so a spec says exactly which keys an entry has (and the unit of its
//! timeout) and nothing an agent module writes can drift from what `install`,
//! `uninstall` and `check` recognise as ours.

/// A directory of the user's under which an agent keeps its user-level config.
/// Each agent honours its own variable, with its own default; the agent's
/// module names it (Codex's `CODEX_HOME`, Copilot's `COPILOT_HOME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserDir {
    /// `$HOME`.
    Home,
    /// The directory an environment variable names when it is set and not
    /// empty, else `default` under `$HOME`.
    Var {
        /// The variable (`CODEX_HOME`).
        var: &'static str,
        /// The path below `$HOME` used when the variable is unset (`.codex`).
        default: &'static str,
    },
}

impl UserDir {
    /// `$XDG_CONFIG_HOME`, default `~/.config`: not one agent's, many honour it.
    pub const XDG_CONFIG_HOME: UserDir = UserDir::var("XDG_CONFIG_HOME", ".config");

    /// The directory `$var` names, default `default` under `$HOME`.
    pub const fn var(var: &'static str, default: &'static str) -> UserDir {
        UserDir::Var { var, default }
    }
}

/// A path under one of the user's directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserPath {
    /// The directory it is under.
    pub dir: UserDir,
    /// The path below `dir` (empty: `dir` itself).
    pub path: &'static str,
}

impl UserPath {
    /// `path` under `dir`.
    pub const fn new(dir: UserDir, path: &'static str) -> UserPath {
        UserPath { dir, path }
    }

    /// `path` under `$HOME`.
    pub const fn home(path: &'static str) -> UserPath {
        UserPath::new(UserDir::Home, path)
    }
}

/// How entries sit under an event key of a JSON hooks file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Claude's shape: `hooks.<Event>: [ {matcher, hooks: [ {type, command, timeout} ]} ]`.
    Nested,
    /// A flat list of handlers: `hooks.<event>: [ {command, ...} ]` (Copilot, Cursor, Windsurf, Kiro).
    Flat,
    /// Claude's shape with this matcher instead of `*`, for agents that
    /// compile the matcher as a regex, where a bare `*` is invalid and drops
    /// the rule (Goose) or the whole file (Antigravity); `""` matches every
    /// tool there.
    NestedMatching(&'static str),
}

impl Shape {
    /// Whether entries are groups of handlers (`{matcher, hooks: [...]}`).
    pub fn is_nested(self) -> bool {
        matches!(self, Shape::Nested | Shape::NestedMatching(_))
    }
}

/// The unit of a handler's timeout field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Whole seconds.
    Seconds,
    /// Milliseconds.
    Milliseconds,
}

/// A constant JSON value written into an entry or at a file's root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal {
    /// A string.
    Str(&'static str),
    /// A non-negative integer.
    Int(u64),
    /// A boolean.
    Bool(bool),
    /// An array of strings.
    Strs(&'static [&'static str]),
}

/// What one key of our handler object holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Always this value.
    Literal(Literal),
    /// The command line: `agenthooks run --agent <id> --event <native>`.
    Command,
    /// The same, as a PowerShell command (Copilot's `powershell`, which it
    /// runs instead of `bash` on Windows).
    PowerShellCommand,
    /// The native timeout install writes (`crate::install::native_timeout`:
    /// the agent's own deadline for the event) in this unit.
    Timeout(TimeUnit),
    /// The `statusMessage`s of the `.agents/hooks.json` hooks of the event,
    /// joined with `; `, for an agent that shows one while its hooks run;
    /// the key is left out when no hook of the event has one.
    StatusMessage,
}

/// Whether the agent shows a hook's `statusMessage` (its entry carries one).
pub fn shows_status_message(spec: &InstallSpec) -> bool {
    status_message_field(spec)
}

/// Whose tool names the native matchers `install` writes take
/// ([`ToolNames::None`]: it writes a catch-all per tool event).
pub fn tool_names(spec: &InstallSpec) -> ToolNames {
    match &spec.registration {
        Registration::Json(json) if json.shape.is_nested() => json.tools,
        _ => ToolNames::None,
    }
}

fn status_message_field(spec: &InstallSpec) -> bool {
    match &spec.registration {
        Registration::Json(json) => json
            .handler
            .iter()
            .any(|(_, field)| *field == Field::StatusMessage),
        Registration::Scripts(_)
        | Registration::Plugin(_)
        | Registration::Toml(_)
        | Registration::Yaml(_) => false,
    }
}

/// An agent whose hooks live in a JSON file with a `hooks` object keyed by
/// native event name.
#[derive(Debug, Clone, Copy)]
pub struct JsonSpec {
    /// How entries sit under an event key. For [`Shape::Nested`] the handler
    /// goes into `{"matcher": "*", "hooks": [<handler>]}`.
    pub shape: Shape,
    /// Our handler object: its keys, in the order written.
    pub handler: &'static [(&'static str, Field)],
    /// Root keys the file needs, added when missing (and removed again by
    /// uninstall when they were ours).
    pub root: &'static [(&'static str, Literal)],
    /// Whether the agent accepts comments in this file (only changes what a
    /// refusal says: agenthooks never rewrites a file with comments).
    pub jsonc: bool,
    /// The agent's own settings that switch its hooks off, agenthooks'
    /// entries included (`check`, `status` and SessionStart say so).
    pub off: OffSwitches,
    /// Whose tool names a group's `matcher` takes on tool events, so
    /// `install` can write one narrower than `*` (`install::coverage`).
    pub tools: ToolNames,
    /// The shell that runs [`Field::Command`] on Windows, whose form of the
    /// launcher `install` writes there.
    pub windows: WindowsShell,
}

/// The shell an agent runs a hook's command line with on Windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowsShell {
    /// A POSIX shell: Claude Code runs hooks through Git Bash; Copilot CLI's
    /// `bash` field is never run on Windows (its `powershell` field is).
    Sh,
    /// `cmd.exe` (`%ComSpec%`): what Node's `shell: true` and most agents
    /// that do not say otherwise run.
    Cmd,
    /// PowerShell (Gemini CLI 0.61.0's `getShellConfiguration`).
    PowerShell,
}

/// Whose tool names a native matcher is tested against, where `install`
/// may narrow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolNames {
    /// None: the entries stay catch-alls (no matcher, one of a coarser key,
    /// or semantics not checked against the agent's source).
    None,
    /// Claude Code's names, as a Claude matcher (a name list or a regex).
    Canonical,
    /// The agent's own names (its table's), as a name list.
    Native,
}

impl JsonSpec {
    /// `handler` under `shape`, in a strict JSON file with no root keys and
    /// no off switch; the `with_*` methods say where a file differs.
    pub const fn new(shape: Shape, handler: &'static [(&'static str, Field)]) -> JsonSpec {
        JsonSpec {
            shape,
            handler,
            root: &[],
            jsonc: false,
            off: OffSwitches::NONE,
            tools: ToolNames::None,
            windows: WindowsShell::Cmd,
        }
    }

    /// Claude Code's own file: nested entries of Claude's handler, timeout
    /// in seconds (what Codex, Factory, Qoder and sema-core read).
    pub const CLAUDE: JsonSpec = JsonSpec::claude(Shape::Nested, TimeUnit::Seconds);

    /// Claude's handler (`type`, `command`, `timeout` in `unit`) under
    /// `shape`: what the agents that copy Claude's file format read.
    pub const fn claude(shape: Shape, unit: TimeUnit) -> JsonSpec {
        JsonSpec::new(shape, claude_handler(unit))
    }

    /// The same file, needing these root keys.
    pub const fn with_root(self, root: &'static [(&'static str, Literal)]) -> JsonSpec {
        JsonSpec { root, ..self }
    }

    /// The same file, where the agent accepts comments.
    pub const fn jsonc(self) -> JsonSpec {
        JsonSpec {
            jsonc: true,
            ..self
        }
    }

    /// The same file, with these settings switching the agent's hooks off.
    pub const fn with_off(self, off: OffSwitches) -> JsonSpec {
        JsonSpec { off, ..self }
    }

    /// The same file, whose `command` runs in `shell` on Windows.
    pub const fn on_windows(self, shell: WindowsShell) -> JsonSpec {
        JsonSpec {
            windows: shell,
            ..self
        }
    }

    /// The same file, whose tool events' matchers take `tools`' names.
    pub const fn matching(self, tools: ToolNames) -> JsonSpec {
        JsonSpec { tools, ..self }
    }
}

/// What one of an agent's own settings holds when it switches agenthooks'
/// entries off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Off {
    /// This boolean (`"disableAllHooks": true`).
    Is(bool),
    /// A list of hook names holding this one, the `name` our entries carry
    /// (Gemini CLI's `hooksConfig.disabled`).
    Lists(&'static str),
}

/// The settings with which an agent silently switches off its hooks, ours
/// among them, and the files it reads them from: the hooks files `install`
/// writes (each scope's), and settings files of its own beside them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OffSwitches {
    /// Each setting as a JSON pointer, and what it holds to switch hooks off.
    pub settings: &'static [(&'static str, Off)],
    /// Whether the files `install` writes hold them.
    pub in_hooks_files: bool,
    /// Settings files of the project's that hold them too (relative to its root).
    pub project: &'static [&'static str],
    /// Settings files of the user's that hold them too.
    pub user: &'static [UserPath],
    /// Whether entries in the system-wide file still run when a setting in
    /// another file switches hooks off (Claude Code's managed hooks do).
    pub system_exempt: bool,
    /// The one of `settings` that, in the system-wide file, switches off the
    /// hooks of every other file (Claude Code's `allowManagedHooksOnly`).
    pub managed_only: Option<&'static str>,
}

impl OffSwitches {
    /// No switch agenthooks knows of.
    pub const NONE: OffSwitches = OffSwitches::new(&[]);

    /// `settings`, read from the files `install` writes.
    pub const fn new(settings: &'static [(&'static str, Off)]) -> OffSwitches {
        OffSwitches {
            settings,
            in_hooks_files: true,
            project: &[],
            user: &[],
            system_exempt: false,
            managed_only: None,
        }
    }

    /// The same, read from these settings files too.
    pub const fn also(
        self,
        project: &'static [&'static str],
        user: &'static [UserPath],
    ) -> OffSwitches {
        OffSwitches {
            project,
            user,
            ..self
        }
    }

    /// The same, where the system-wide file's entries run whatever another
    /// file says.
    pub const fn system_exempt(self) -> OffSwitches {
        OffSwitches {
            system_exempt: true,
            ..self
        }
    }

    /// The same, where `setting` in the system-wide file switches off every
    /// other file's hooks.
    pub const fn managed_only(self, setting: &'static str) -> OffSwitches {
        OffSwitches {
            managed_only: Some(setting),
            ..self
        }
    }
}

/// Claude's switch for every hook, `"disableAllHooks": true`, which Qwen
/// and Copilot read too.
pub const DISABLE_ALL_HOOKS: &[(&str, Off)] = &[("/disableAllHooks", Off::Is(true))];

/// A flat handler of the command and its timeout in seconds (Cursor, Crush).
pub const COMMAND_AND_TIMEOUT: &[(&str, Field)] = &[
    ("command", Field::Command),
    ("timeout", Field::Timeout(TimeUnit::Seconds)),
];

/// How an agent's hooks are registered.
#[derive(Debug, Clone, Copy)]
pub enum Registration {
    /// Entries in a JSON file.
    Json(JsonSpec),
    /// One executable script per event, named after the native event, in a
    /// directory (Cline).
    Scripts(ScriptSpec),
    /// One plugin file, at the spec's `project`/`user` path, that runs the
    /// binary for each hook (OpenCode, Kilo, Pi).
    Plugin(PluginSpec),
    /// Tables of an array in a TOML config file (Kimi Code's `[[hooks]]`).
    Toml(TomlSpec),
    /// Entries of a mapping in a YAML config file (Hermes' `hooks:`).
    Yaml(YamlSpec),
}

/// An agent whose hooks are the tables of one array in a TOML file of the
/// user's (`[[hooks]]` with `event = "PreToolUse"` in each), edited in place
/// with `toml_edit` so every other byte of the file stays the user's.
#[derive(Debug, Clone, Copy)]
pub struct TomlSpec {
    /// The array of tables (`hooks`).
    pub array: &'static str,
    /// The key of each table that names its native event (`event`).
    pub event_key: &'static str,
    /// Our table's other keys, in the order written. `Field::Timeout` is
    /// clamped to `timeout_range`.
    pub handler: &'static [(&'static str, Field)],
    /// The timeouts the agent accepts (a value outside fails its whole config).
    pub timeout_range: (u64, u64),
}

/// An agent whose hooks are lists under a top-level mapping of a YAML file
/// of the user's (`hooks: {pre_tool_call: [{command, timeout}]}`).
///
/// agenthooks writes its entries as one fenced block of lines (between a
/// begin and an end comment) and removes exactly those lines again, so the
/// rest of the file keeps the user's bytes, comments included; see
/// `crate::install::yaml` for the layouts it accepts.
#[derive(Debug, Clone, Copy)]
pub struct YamlSpec {
    /// The top-level key (`hooks`).
    pub key: &'static str,
    /// Our entry's keys, in the order written.
    pub handler: &'static [(&'static str, Field)],
    /// The agent splits `command` into words and runs them without a shell
    /// (Hermes): the launcher, a shell line, is written as `sh -c '<line>'`.
    pub argv: bool,
}

/// The script an agent with [`Registration::Scripts`] runs for one event.
#[derive(Debug, Clone, Copy)]
pub struct ScriptSpec {
    /// The script's text for `command` (the [`crate::install::command_line`]
    /// of its event) and the agent id. It must contain `command` on a line of
    /// its own: that line is how `install` recognises the file as ours
    /// ([`crate::install::is_ours`]).
    pub text: fn(command: &str, agent: &str) -> String,
}

/// The plugin an agent with [`Registration::Plugin`] loads.
#[derive(Debug, Clone, Copy)]
pub struct PluginSpec {
    /// The plugin's source for `binary` (the bare name `agenthooks`, looked
    /// up on the `PATH` the agent runs with, or an absolute path) serving
    /// `events` (the rows `install` registers, [`crate::install::rows`]). It must contain a line with
    /// `agenthooks run --agent <id>`: that line is how `install` recognises
    /// the file as ours ([`crate::install::is_ours`]).
    pub text: fn(binary: &std::path::Path, events: &[&'static super::EventRow]) -> String,
}

/// [`InstallSpec::project`] of an agent that reads no project-level hooks
/// file (Junie), or whose project file is agenthooks' own (Antigravity reads
/// `.agents/hooks.json`): `install` at project scope refuses and points at
/// `--user`.
pub const USER_ONLY: &str = "";

/// The agent's own system-wide (managed, enterprise) hooks file, which users
/// cannot switch off: where `agenthooks install --system` writes.
///
/// One absolute path per platform, `""` where the agent documents none
/// there (install then refuses with one line); the Windows path is relative
/// to `%ProgramData%`. Built with [`SystemFile::new`] and, for an agent that
/// lets a variable name the file, [`SystemFile::var`]; agents without one
/// say [`SystemFile::NONE`]. The logic (the root override for tests, the
/// current platform) is `crate::install`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemFile {
    /// Linux and the other Unix systems but macOS (`/etc/...`).
    pub unix: &'static str,
    /// macOS (`/Library/Application Support/...`, or `/etc/...`).
    pub macos: &'static str,
    /// Windows, below `%ProgramData%` (`ClaudeCode\managed-settings.json`).
    pub windows: &'static str,
    /// A variable the agent reads that names the file instead, when set and
    /// not empty (Gemini CLI's `GEMINI_CLI_SYSTEM_SETTINGS_PATH`).
    pub var: Option<&'static str>,
}

impl SystemFile {
    /// No system-wide hooks file on any platform.
    pub const NONE: SystemFile = SystemFile::new("", "", "");

    /// The file on Linux (and other Unix), macOS and Windows (below
    /// `%ProgramData%`); `""` for a platform without one.
    pub const fn new(unix: &'static str, macos: &'static str, windows: &'static str) -> SystemFile {
        SystemFile {
            unix,
            macos,
            windows,
            var: None,
        }
    }

    /// The same, with the variable the agent reads to find the file elsewhere.
    pub const fn var(self, var: &'static str) -> SystemFile {
        SystemFile {
            var: Some(var),
            ..self
        }
    }
}

/// Everything install needs to know about one agent besides its event table.
#[derive(Debug, Clone, Copy)]
pub struct InstallSpec {
    /// How hooks are registered.
    pub registration: Registration,
    /// The file (or for [`Registration::Scripts`] the directory), relative
    /// to the project root; [`USER_ONLY`] when there is none.
    pub project: &'static str,
    /// The same at user level.
    pub user: UserPath,
    /// The agent's system-wide hooks file ([`SystemFile::NONE`]: none).
    pub system: SystemFile,
    /// Project paths whose presence means the project uses the agent.
    pub detect: &'static [&'static str],
    /// The same under the user's directories.
    pub detect_user: &'static [UserPath],
    /// What the user still has to do in the agent itself before it runs the
    /// hooks `install` wrote (trust them, switch hooks on, pick an agent), in
    /// one line; `install` prints it, since otherwise the install looks done
    /// and the agent silently runs nothing. `None` when the hooks run as soon
    /// as they are written.
    pub after_install: Option<&'static str>,
    /// The plugin (or extension) layout the agent loads, for `agenthooks
    /// plugin`; `None`: the agent loads no plugin with hooks in it.
    pub plugin: Option<PluginLayout>,
}

/// A plugin directory an agent loads hooks from: a manifest and a hooks file
/// in the agent's own hooks-file format (the spec's [`JsonSpec`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PluginLayout {
    /// The manifest, relative to the plugin's root (`.claude-plugin/plugin.json`).
    pub manifest: &'static str,
    /// The hooks file, relative to the plugin's root (`hooks/hooks.json`).
    pub hooks: &'static str,
    /// How the user loads the directory, `{dir}` standing for its path
    /// (`claude --plugin-dir {dir}`), in one line.
    pub load: &'static str,
    /// Where the agent's own install command keeps plugins: a user folder
    /// and how many folders below it a plugin's root is (`None`: not
    /// known). `status` and `check` look there for an agenthooks plugin.
    pub store: Option<(UserPath, usize)>,
    /// A JSON file in a stored plugin's folder whose `"source"` is the
    /// plugin's real root, for a plugin the agent links instead of copying
    /// (Gemini's `extensions link`); `None`: the agent copies.
    pub link: Option<&'static str>,
}

impl InstallSpec {
    /// Hooks registered by `registration` at `project` ([`USER_ONLY`]: none)
    /// and `user`, with no system file, no paths that detect the agent and
    /// nothing left to do after install; the `with_*` methods add what an
    /// agent has.
    pub const fn new(registration: Registration, project: &'static str, user: UserPath) -> Self {
        InstallSpec {
            registration,
            project,
            user,
            system: SystemFile::NONE,
            detect: &[],
            detect_user: &[],
            after_install: None,
            plugin: None,
        }
    }

    /// [`InstallSpec::new`] for entries in a JSON file.
    pub const fn json(json: JsonSpec, project: &'static str, user: UserPath) -> Self {
        InstallSpec::new(Registration::Json(json), project, user)
    }

    /// The same, with the agent's system-wide hooks file.
    pub const fn with_system(self, system: SystemFile) -> Self {
        InstallSpec { system, ..self }
    }

    /// The same, detected by these project paths and these user paths.
    pub const fn detected_by(
        self,
        detect: &'static [&'static str],
        detect_user: &'static [UserPath],
    ) -> Self {
        InstallSpec {
            detect,
            detect_user,
            ..self
        }
    }

    /// The same, with the plugin layout the agent loads.
    pub const fn with_plugin(self, plugin: PluginLayout) -> Self {
        InstallSpec {
            plugin: Some(plugin),
            ..self
        }
    }

    /// The same, with what the user still has to do after install.
    pub const fn with_after_install(self, after_install: &'static str) -> Self {
        InstallSpec {
            after_install: Some(after_install),
            ..self
        }
    }
}

/// The [`InstallSpec`] of an agent that reads its hooks file at the same
/// path in the project and under `$HOME` (`.qoder/settings.json`), and whose
/// directory (`.qoder`) in either place says the agent is used there: the
/// layout most agents share, spelled once.
///
/// ```ignore
/// project_and_home!(JsonSpec::CLAUDE, ".qoder", "settings.json")
/// ```
macro_rules! project_and_home {
    ($json:expr, $dir:literal, $file:literal) => {
        $crate::agents::InstallSpec::json(
            $json,
            concat!($dir, "/", $file),
            $crate::agents::UserPath::home(concat!($dir, "/", $file)),
        )
        .detected_by(&[$dir], &[$crate::agents::UserPath::home($dir)])
    };
}
pub(crate) use project_and_home;

/// Another agent's hooks config that an agent runs as well as its own, and
/// how a hook tells which of the two is running it.
///
/// With both agents installed, that other agent's entry would run every hook
/// a second time under this agent; `run` lets it step aside (answer "no
/// opinion") and `check` says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlsoRuns {
    /// The id of the agent whose entries this agent runs too.
    pub agent: &'static str,
    /// A variable this agent sets (non-empty) for every hook it runs, that
    /// agent does not.
    pub env: &'static str,
    /// When it does (Cursor: only with a setting on); `None`: always.
    pub when: Option<&'static str>,
}

/// Claude's handler fields ([`claude_handler`]) with the timeout in `unit`,
/// then `extra` fields: the handler of an agent that reads Claude's and
/// more (Claude's own `statusMessage`, SemaClaw's `blocking`), as a
/// `'static` slice.
macro_rules! claude_handler_and {
    ($unit:expr $(, $extra:expr)* $(,)?) => {
        &[
            ("type", $crate::agents::Field::Literal($crate::agents::Literal::Str("command"))),
            ("command", $crate::agents::Field::Command),
            ("timeout", $crate::agents::Field::Timeout($unit)),
            $($extra),*
        ]
    };
}
pub(crate) use claude_handler_and;

/// The handler of Claude's own shape (`type`, `command`, `timeout`), with the
/// timeout in `unit`; Claude, Codex, Factory (seconds) and Qwen
/// (milliseconds) share it.
pub const fn claude_handler(unit: TimeUnit) -> &'static [(&'static str, Field)] {
    match unit {
        TimeUnit::Seconds => claude_handler_and!(TimeUnit::Seconds),
        TimeUnit::Milliseconds => claude_handler_and!(TimeUnit::Milliseconds),
    }
}
