//! Quoting one word for a POSIX shell: the one safe set, shared by the
//! hooks.json loader (a `$CLAUDE_PROJECT_DIR` expanded into a command) and
//! install's launcher lines. A word made only of ASCII letters, digits and
//! `/._-+:@%,` stays as it is; anything else goes in single quotes, with
//! `'` written `'\''`. The set leaves out `=` (a leading `NAME=` word is an
//! assignment), `\` and non-ASCII letters, so it is never looser than
//! either of the two sets it replaced.

/// Whether `word` means itself to a shell without quotes.
pub(crate) fn is_plain(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,".contains(c))
}

/// `word` as one POSIX shell word.
pub(crate) fn sh(word: &str) -> String {
    if is_plain(word) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_and_the_rest_is_single_quoted() {
        assert_eq!(sh("/usr/bin/agenthooks"), "/usr/bin/agenthooks");
        assert_eq!(sh("a-b_c.d+e:f@g%h,i"), "a-b_c.d+e:f@g%h,i");
        assert_eq!(sh(""), "''");
        assert_eq!(sh("two words"), "'two words'");
        assert_eq!(sh("it's"), r"'it'\''s'");
        // Looser sets of old: `=` (an assignment at a command's start), `\`
        // (an escape) and non-ASCII letters are quoted now.
        assert_eq!(sh("NAME=x"), "'NAME=x'");
        assert_eq!(sh(r"a\b"), r"'a\b'");
        assert_eq!(sh("café"), "'café'");
    }
}
