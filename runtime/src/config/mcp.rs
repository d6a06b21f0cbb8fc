//! The MCP servers an `mcp_tool` hook may call: Claude Code's own files, read
//! when a hook names a server, so the hook's trust fingerprint covers what
//! the server runs (its command and arguments, or its URL).
//!
//! Where a name is looked up, first match wins (Claude Code's order: local,
//! project, user):
//! 1. `~/.claude.json` → `projects["<project root>"].mcpServers` (local scope);
//! 2. `<project root>/.mcp.json` → `mcpServers` — for project hooks only: a
//!    project must not choose the command a user's own hook starts;
//! 3. `~/.claude.json` → `mcpServers` (user scope).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;

use super::Scope;
use crate::fsread::{caps, read_bounded_string, ReadError};

/// How an MCP server is reached.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum McpTransport {
    /// A command started for the event, speaking JSON-RPC on its stdio.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to its environment, sorted by name.
        env: Vec<(String, String)>,
    },
    /// A streamable-HTTP endpoint.
    Http {
        /// The endpoint's URL.
        url: String,
        /// Request headers, sorted by name.
        headers: Vec<(String, String)>,
    },
    /// A definition agenthooks cannot use (`type: "sse"`, no command or
    /// URL): why, for the failure the hook reports.
    Unusable {
        /// What is wrong with it.
        why: String,
    },
}

/// One server definition and the file it came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct McpServer {
    /// How it is reached.
    pub transport: McpTransport,
    /// The file that defines it (`.mcp.json` or `~/.claude.json`).
    pub file: PathBuf,
}

/// An `mcp_tool` handler (Claude Code's `type: "mcp_tool"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct McpToolSpec {
    /// The server's name, as the MCP files spell it.
    pub server: String,
    /// The tool called.
    pub tool: String,
    /// The `input` object as JSON text (as written: `${path}` placeholders
    /// are filled from the event when it runs).
    pub input: String,
    /// The server's definition, `None` when no file defines `server`.
    pub found: Option<McpServer>,
    /// Where `server` was looked for, for the failure that names them.
    pub searched: Vec<PathBuf>,
}

impl McpToolSpec {
    /// Why its server cannot be called, whatever the event (it is defined
    /// nowhere, or in a way agenthooks cannot reach), with the fix; the
    /// text follows ``MCP server `name` ``.
    pub fn server_problem(&self) -> Option<String> {
        match self.found.as_ref().map(|s| (&s.transport, &s.file)) {
            None => {
                let files: Vec<String> = self
                    .searched
                    .iter()
                    .map(|p| format!("`{}`", p.display()))
                    .collect();
                let files = if files.is_empty() {
                    "any MCP file".to_string()
                } else {
                    files.join(" or ")
                };
                Some(format!(
                    "is not defined in {files} (`mcpServers`); add it there or fix the hook's `server`"
                ))
            }
            Some((McpTransport::Unusable { why }, file)) => Some(format!(
                "cannot be used: {why}; fix it in `{}`",
                file.display()
            )),
            Some(_) => None,
        }
    }
}

/// `~/.claude.json` may be large (Claude Code keeps per-project history in it).
const CLAUDE_JSON_CAP: u64 = caps::PAYLOAD;

/// The MCP files one config load has read, each read and parsed once
/// however many `mcp_tool` hooks name a server: `~/.claude.json` can be
/// megabytes of Claude Code's per-project history.
#[derive(Debug, Default)]
pub struct McpFiles {
    read: RefCell<HashMap<PathBuf, FileRead>>,
}

/// A file's JSON (`None`: no such file), or why it cannot be used.
type FileRead = Result<Option<Rc<Value>>, String>;

impl McpFiles {
    /// The JSON in `path` (`None`: no such file), read on first use.
    fn get(&self, path: &Path) -> FileRead {
        if let Some(done) = self.read.borrow().get(path) {
            return done.clone();
        }
        let done = read_json(path).map(|v| v.map(Rc::new));
        self.read
            .borrow_mut()
            .insert(path.to_path_buf(), done.clone());
        done
    }
}

/// Look `name` up for a hook of `scope` (see the module docs): the
/// definition, or `None`, with the files searched. A file that exists but
/// cannot be read or parsed is an error naming it. `files` keeps what one
/// load has read.
pub fn find(
    name: &str,
    scope: Scope,
    home: Option<&Path>,
    project_root: Option<&Path>,
    files: &McpFiles,
) -> Result<(Option<McpServer>, Vec<PathBuf>), String> {
    let mut searched = Vec::new();
    let claude_json = home.map(|h| h.join(".claude.json"));
    let user = match &claude_json {
        Some(path) => files.get(path)?.map(|v| (path.clone(), v)),
        None => None,
    };
    if let (Some((path, value)), Some(root)) = (&user, project_root) {
        let local = value
            .get("projects")
            .and_then(|p| p.get(root.to_string_lossy().as_ref()))
            .and_then(|p| p.get("mcpServers"));
        if let Some(def) = local.and_then(|servers| servers.get(name)) {
            return Ok((Some(server(def, path)), searched));
        }
    }
    if scope == Scope::Project {
        if let Some(root) = project_root {
            let path = root.join(".mcp.json");
            if let Some(value) = files.get(&path)? {
                if let Some(def) = value.get("mcpServers").and_then(|s| s.get(name)) {
                    return Ok((Some(server(def, &path)), searched));
                }
            }
            searched.push(path);
        }
    }
    if let Some(path) = claude_json {
        if let Some((_, value)) = &user {
            if let Some(def) = value.get("mcpServers").and_then(|s| s.get(name)) {
                return Ok((Some(server(def, &path)), searched));
            }
        }
        searched.push(path);
    }
    Ok((None, searched))
}

/// The JSON in `path`, `None` when there is no such file.
fn read_json(path: &Path) -> Result<Option<Value>, String> {
    match read_bounded_string(path, CLAUDE_JSON_CAP) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("`{}` is not valid JSON: {e}", path.display())),
        Err(ReadError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// One server entry as a definition.
fn server(def: &Value, file: &Path) -> McpServer {
    McpServer {
        transport: transport(def),
        file: file.to_path_buf(),
    }
}

fn transport(def: &Value) -> McpTransport {
    let text = |key: &str| def.get(key).and_then(Value::as_str).map(str::to_string);
    let pairs = |key: &str| -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = def
            .get(key)
            .and_then(Value::as_object)
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        pairs.sort();
        pairs
    };
    let kind = text("type");
    match (kind.as_deref(), text("command"), text("url")) {
        (Some("stdio") | None, Some(command), _) if !command.trim().is_empty() => {
            let args = def
                .get("args")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            McpTransport::Stdio {
                command,
                args,
                env: pairs("env"),
            }
        }
        (Some("http" | "streamable-http") | None, _, Some(url)) => McpTransport::Http {
            url,
            headers: pairs("headers"),
        },
        (Some("sse"), _, _) => McpTransport::Unusable {
            why: "its `type` is `sse` (the legacy transport); agenthooks speaks stdio and \
                  streamable HTTP (`type: \"http\"`)"
                .to_string(),
        },
        (Some(other), _, _) if !matches!(other, "stdio" | "http" | "streamable-http") => {
            McpTransport::Unusable {
                why: format!("its `type` `{other}` is not `stdio` or `http`"),
            }
        }
        _ => McpTransport::Unusable {
            why: "it has no `command` (stdio) or `url` (http)".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn definitions_are_read_as_claude_code_writes_them() {
        let stdio = transport(
            &json!({"command": "node", "args": ["s.js", 3], "env": {"B": "2", "A": "1"}}),
        );
        assert_eq!(
            stdio,
            McpTransport::Stdio {
                command: "node".into(),
                args: vec!["s.js".into()],
                env: vec![("A".into(), "1".into()), ("B".into(), "2".into())],
            }
        );
        let http = transport(&json!({"type": "http", "url": "http://127.0.0.1:1/mcp"}));
        assert!(matches!(http, McpTransport::Http { .. }));
        for bad in [
            json!({"type": "sse", "url": "http://x"}),
            json!({"type": "ws", "url": "ws://x"}),
            json!({"env": {}}),
            json!({"command": "  "}),
        ] {
            assert!(
                matches!(transport(&bad), McpTransport::Unusable { .. }),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_user_hook_never_uses_the_projects_servers() {
        let home = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join(".mcp.json"),
            r#"{"mcpServers": {"s": {"command": "project-cmd"}}}"#,
        )
        .unwrap();
        std::fs::write(
            home.path().join(".claude.json"),
            r#"{"mcpServers": {"s": {"command": "user-cmd"}, "u": {"command": "u"}}}"#,
        )
        .unwrap();
        let command = |scope| {
            let files = McpFiles::default();
            stdio_command(find(
                "s",
                scope,
                Some(home.path()),
                Some(root.path()),
                &files,
            ))
        };
        assert_eq!(command(Scope::Project), "project-cmd");
        assert_eq!(command(Scope::User), "user-cmd");
        let in_project = |name| {
            let files = McpFiles::default();
            find(
                name,
                Scope::Project,
                Some(home.path()),
                Some(root.path()),
                &files,
            )
        };
        let (none, searched) = in_project("x").unwrap();
        assert!(none.is_none());
        assert_eq!(searched.len(), 2);
        std::fs::write(root.path().join(".mcp.json"), "{").unwrap();
        let err = in_project("s").unwrap_err();
        assert!(
            err.contains(".mcp.json") && err.contains("not valid JSON"),
            "{err}"
        );
    }

    #[test]
    fn one_load_reads_each_file_once() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join(".claude.json");
        std::fs::write(&path, r#"{"mcpServers": {"s": {"command": "first"}}}"#).unwrap();
        let files = McpFiles::default();
        let command = |files: &McpFiles| {
            stdio_command(find("s", Scope::User, Some(home.path()), None, files))
        };
        assert_eq!(command(&files), "first");
        // A second hook of the same load sees what the first read, not
        // the file again; the next load reads it anew.
        std::fs::write(&path, r#"{"mcpServers": {"s": {"command": "second"}}}"#).unwrap();
        assert_eq!(command(&files), "first");
        assert_eq!(command(&McpFiles::default()), "second");
    }

    /// The command of the stdio server `found`.
    fn stdio_command(found: Result<(Option<McpServer>, Vec<PathBuf>), String>) -> String {
        match found.unwrap().0.unwrap().transport {
            McpTransport::Stdio { command, .. } => command,
            other => panic!("{other:?}"),
        }
    }
}
