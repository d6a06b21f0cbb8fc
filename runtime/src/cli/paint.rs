//! The labels of agenthooks' own `error:` and `warning:` lines, coloured
//! as clap colours its own (bold red, bold yellow) when the stream is a
//! terminal and `NO_COLOR` is not set (<https://no-color.org>), plain
//! otherwise, so piped output and logs stay plain text.

use std::io::IsTerminal as _;

/// Whether to colour one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// For stdout.
    pub fn stdout() -> Paint {
        Paint::when(std::io::stdout().is_terminal())
    }

    /// For stderr.
    pub fn stderr() -> Paint {
        Paint::when(std::io::stderr().is_terminal())
    }

    /// On for a terminal, unless `NO_COLOR` says otherwise or the terminal is dumb.
    fn when(terminal: bool) -> Paint {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        Paint {
            on: terminal && !no_color && !dumb,
        }
    }

    /// Never coloured.
    pub fn plain() -> Paint {
        Paint { on: false }
    }

    /// `error`, bold red when on.
    pub fn error(self) -> String {
        self.paint("error", "1;31")
    }

    /// `warning`, bold yellow when on.
    pub fn warning(self) -> String {
        self.paint("warning", "1;33")
    }

    fn paint(self, label: &str, sgr: &str) -> String {
        if self.on {
            format!("\x1b[{sgr}m{label}\x1b[0m")
        } else {
            label.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_coloured_only_when_on() {
        assert_eq!(Paint::plain().error(), "error");
        assert_eq!(Paint::plain().warning(), "warning");
        let on = Paint { on: true };
        assert_eq!(on.error(), "\x1b[1;31merror\x1b[0m");
        assert_eq!(on.warning(), "\x1b[1;33mwarning\x1b[0m");
        // Not a terminal: plain whatever the environment says.
        assert_eq!(Paint::when(false), Paint::plain());
    }
}
