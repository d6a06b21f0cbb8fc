//! Why install or uninstall left a file alone.

use std::path::PathBuf;

/// Why an agent's config could not be changed. Every variant except `Io` is a
/// refusal made before anything was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// The file is not valid JSON.
    #[error("`{}`:{line}:{column}: not valid JSON ({what}); fix or move the file, then run again (nothing was changed)", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        what: String,
    },
    /// The file holds comments where the agent reads strict JSON.
    #[error("`{}`:{line}:{column}: comments are not valid JSON in this file; remove them, then run again (nothing was changed)", path.display())]
    Comments {
        /// The file.
        path: PathBuf,
        /// 1-based line of the first comment.
        line: usize,
        /// 1-based column of the first comment.
        column: usize,
    },
    /// The change could not be written into the file's own text with its
    /// comments kept (duplicate keys make the text and its value disagree).
    #[error("`{}`: agenthooks cannot change this file and keep its comments and layout (a key that appears twice?); fix that, or add the entries by hand (`--dry-run` on a copy without comments shows them); nothing was changed", path.display())]
    Unkeepable {
        /// The file.
        path: PathBuf,
    },
    /// A config file of another format (TOML, YAML) agenthooks cannot read
    /// or cannot change without losing the user's bytes.
    #[error("`{}`: {what}; fix the file (or add the entries by hand: `--dry-run` shows them), then run again (nothing was changed)", path.display())]
    Unchangeable {
        /// The file.
        path: PathBuf,
        /// What is wrong, on one line.
        what: String,
    },
    /// The file (or a key in it) is not the JSON object the agent expects.
    #[error("`{}`: {} is not a JSON object; fix the file, then run again (nothing was changed)", path.display(), key.as_deref().map_or("the top level".to_string(), |k| format!("`{k}`")))]
    NotAnObject {
        /// The file.
        path: PathBuf,
        /// The key, or `None` for the root.
        key: Option<String>,
    },
    /// A file agenthooks would write belongs to the user.
    #[error("`{}`: {why}; left alone (nothing was changed)", path.display())]
    Conflict {
        /// The file.
        path: PathBuf,
        /// What is in the way.
        why: String,
    },
    /// The agent has no project-level hooks file agenthooks may write
    /// ([`crate::agents::USER_ONLY`]).
    #[error("{agent} has no project-level hooks file agenthooks may write; its entry goes in the user-level config: `agenthooks install {id} --user` (nothing was changed)")]
    UserOnly {
        /// The agent's display name.
        agent: &'static str,
        /// The agent's id.
        id: &'static str,
    },
    /// The agent documents no system-wide (managed) hooks file on this
    /// platform, so `--system` has nowhere to write.
    #[error("{agent} has no documented system-wide hooks file on {os}, so `--system` cannot install it; use `agenthooks install {id} --user` on each machine (nothing was changed)")]
    NoManagedScope {
        /// The agent's display name.
        agent: &'static str,
        /// The agent's id.
        id: &'static str,
        /// The platform ([`crate::install::Os::name`]).
        os: &'static str,
    },
    /// There is no home directory, so user-level files cannot be found.
    #[error("there is no home directory (set `HOME`, or `USERPROFILE` on Windows), so the user-level config cannot be found")]
    NoHome,
    /// A file could not be read (bounded read: not a regular file, too
    /// large, unreadable).
    #[error("{0}; nothing was changed")]
    Read(#[from] crate::fsread::ReadError),
    /// A file could not be written; it keeps the bytes it had.
    #[error("cannot write `{}`: {source}; the file keeps what it had", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// Any other file operation failed (a directory, a lock, a removal).
    #[error("`{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

impl InstallError {
    /// Whether the file system refused the change for lack of permission
    /// (`install --system` run as an ordinary user).
    pub fn permission_denied(&self) -> bool {
        match self {
            InstallError::Io { source, .. } | InstallError::Write { source, .. } => {
                source.kind() == std::io::ErrorKind::PermissionDenied
            }
            _ => false,
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        InstallError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn write(path: &std::path::Path, source: std::io::Error) -> Self {
        InstallError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn each_variant_displays_one_line() {
        let p = || Path::new(".claude/settings.json").to_path_buf();
        let all = [
            InstallError::Parse {
                path: p(),
                line: 3,
                column: 7,
                what: "expected `,`".into(),
            },
            InstallError::Comments {
                path: p(),
                line: 1,
                column: 1,
            },
            InstallError::Unkeepable { path: p() },
            InstallError::NotAnObject {
                path: p(),
                key: Some("hooks".into()),
            },
            InstallError::NotAnObject {
                path: p(),
                key: None,
            },
            InstallError::Conflict {
                path: p(),
                why: "not ours".into(),
            },
            InstallError::NoHome,
            InstallError::NoManagedScope {
                agent: "Cline",
                id: "cline",
                os: "Linux",
            },
            InstallError::io(&p(), std::io::Error::other("denied")),
            InstallError::write(&p(), std::io::Error::other("No space left on device")),
            InstallError::Read(crate::fsread::ReadError::NotRegular {
                path: p(),
                kind: "a FIFO",
            }),
        ];
        for e in all {
            let text = e.to_string();
            assert!(!text.contains('\n') && !text.ends_with('.'), "{text}");
        }
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert!(InstallError::io(&p(), denied).permission_denied());
        assert!(!InstallError::NoHome.permission_denied());
        let parse = InstallError::Parse {
            path: p(),
            line: 3,
            column: 7,
            what: "expected `,`".into(),
        };
        assert!(parse
            .to_string()
            .starts_with("`.claude/settings.json`:3:7: not valid JSON"));
    }
}
