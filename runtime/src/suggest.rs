//! "Did you mean …?": the closest known name to a misspelt one.
//!
//! One rule for every place a name is looked up (events, keys in
//! `hooks.json`, tool names): the same name in another case first, else the
//! nearest by edit distance (a transposition counts as one edit, so `Bahs`
//! finds `Bash`), within about a third of the name's length.

/// The candidate `word` was most likely meant to be, if any is close enough.
/// `None` when `word` is itself a candidate.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    if candidates.contains(&word) {
        return None;
    }
    if let Some(same) = candidates.iter().find(|c| c.eq_ignore_ascii_case(word)) {
        return Some(same);
    }
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    // The distance is at least the difference in length: checking that first
    // keeps a 4 MiB key in a hostile hooks.json from costing seconds of CPU
    // per candidate (the distance is quadratic) on every event.
    candidates
        .iter()
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
        .map(|c| (strsim::damerau_levenshtein(word, c), *c))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

/// `"; did you mean `X`?"` for [`closest`], or nothing: the tail of a note.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    hint(closest(word, candidates))
}

/// `"; did you mean `X`?"` for a suggestion found earlier, or nothing.
pub fn hint(suggestion: Option<&str>) -> String {
    suggestion
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_the_name_meant() {
        let events = ["PreToolUse", "PostToolUse", "Stop"];
        assert_eq!(closest("PreToolUs", events), Some("PreToolUse"));
        assert_eq!(closest("pretooluse", events), Some("PreToolUse"));
        assert_eq!(closest("PreToolUse", events), None);
        assert_eq!(closest("Completely", events), None);
        assert_eq!(
            closest("memoryMib", ["fuel", "memoryMiB"]),
            Some("memoryMiB")
        );
        assert_eq!(closest("Bahs", ["Bash", "Read"]), Some("Bash"));
        assert_eq!(closest("bash", ["Bash", "Read"]), Some("Bash"));
        assert_eq!(did_you_mean("Stp", events), "; did you mean `Stop`?");
        assert_eq!(did_you_mean("Xyzzy", events), "");
        // Nothing is suggested for a name no candidate is near in length.
        assert_eq!(closest(&"PreToolUse".repeat(10_000), events), None);
        assert_eq!(closest("PreToolUseXXXXXXXXXXXXX", events), None);
    }

    /// Found writing the `hooks_json` fuzz target's regression test: a 4 MiB
    /// unknown key took 12 s of CPU per load (release build), past every
    /// agent's deadline. A hang bound, not a speed claim: without the length
    /// check this takes minutes.
    #[test]
    fn a_huge_unknown_name_is_not_compared_letter_by_letter() {
        let word = "k".repeat(4 << 20);
        let events = crate::protocol::EventName::ALL.iter().map(|e| e.as_str());
        let started = std::time::Instant::now();
        assert_eq!(closest(&word, events), None);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
