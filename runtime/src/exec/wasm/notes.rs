//! What loading and calling a component has to say: notes the user always
//! sees, and details shown only with `--verbose`.

/// Notes for the report: `note` always, `detail` only with `--verbose`.
pub(crate) struct Notes {
    pub(super) verbose: bool,
    pub(super) list: Vec<String>,
    pub(super) details: Vec<String>,
}

impl Notes {
    pub(super) fn new(verbose: bool) -> Notes {
        Notes {
            verbose,
            list: Vec::new(),
            details: Vec::new(),
        }
    }

    /// A note the user should always see.
    pub(crate) fn note(&mut self, text: String) {
        self.list.push(text);
    }

    /// Take in the notes and details gathered elsewhere (another thread).
    pub(super) fn absorb(&mut self, other: Notes) {
        self.list.extend(other.list);
        self.details.extend(other.details);
    }

    /// A note shown only with `--verbose`.
    pub(crate) fn detail(&mut self, text: String) {
        if self.verbose {
            self.details.push(text);
        }
    }

    /// Notes and details in one list (`compile` prints them all).
    pub(super) fn into_all(mut self) -> Vec<String> {
        self.list.extend(self.details);
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_are_kept_only_when_verbose() {
        let mut quiet = Notes::new(false);
        quiet.note("seen".into());
        quiet.detail("hidden".into());
        assert_eq!(quiet.list, ["seen"]);
        assert!(quiet.details.is_empty());
        let mut verbose = Notes::new(true);
        verbose.detail("shown".into());
        assert_eq!(verbose.details, ["shown"]);
    }

    #[test]
    fn absorbing_keeps_the_order_and_the_kind() {
        let mut main = Notes::new(true);
        main.note("a".into());
        main.detail("x".into());
        let mut other = Notes::new(true);
        other.note("b".into());
        other.detail("y".into());
        main.absorb(other);
        assert_eq!(main.list, ["a", "b"]);
        assert_eq!(main.details, ["x", "y"]);
        assert_eq!(main.into_all(), ["a", "b", "x", "y"]);
    }
}
