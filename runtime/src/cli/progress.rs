//! Progress on long work (`build`, `compile`, `pull`, `publish`, `install`
//! when it warms the cache): a spinner on stderr naming what runs and the
//! time it has taken, while it runs, then gone, so each result is printed
//! once, on its own line. Only on a terminal: with stderr redirected (an
//! agent, CI, a pipe) or with `--quiet`, nothing is drawn.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the spinner and its clock are redrawn.
const TICK: Duration = Duration::from_millis(120);

/// A spinner for one piece of work, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Whether progress is drawn: stderr is a terminal and not `quiet`.
    pub fn wanted(quiet: bool) -> bool {
        !quiet && std::io::stderr().is_terminal()
    }

    /// Start showing `what` (e.g. "compiling `x.wasm`"), if [`Progress::wanted`].
    pub fn start(quiet: bool, what: impl Into<String>) -> Progress {
        if !Progress::wanted(quiet) {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_message(what.into());
        bar.enable_steady_tick(TICK);
        bar.tick();
        Progress { bar: Some(bar) }
    }

    /// Say something else about the work under way.
    pub fn message(&self, what: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(what);
        }
    }

    /// Run `f` (which prints) with the spinner out of the way.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
