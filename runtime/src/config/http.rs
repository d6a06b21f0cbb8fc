//! The rules of an http hook's definition the loader checks (its URL, the
//! variables its headers use) and the `$NAME` syntax the executor expands:
//! here, below both, so that `config` imports nothing from `exec`.

use std::sync::LazyLock;

use regex_lite::Regex;

/// `$NAME` or `${NAME}` in a header value.
pub(crate) static VAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)").expect("valid regex")
});

/// Whether `url` is one an http hook can POST to: `http://` or `https://`
/// with a host. The error says what is wrong, for the loader's warning.
pub fn check_url(url: &str) -> Result<(), String> {
    if url.is_empty() {
        return Err("is missing or empty".to_string());
    }
    let shown = crate::protocol::one_line(url);
    let uri: ureq::http::Uri = url
        .parse()
        .map_err(|e| format!("`{shown}` is not a valid URL ({e})"))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        _ => return Err(format!("`{shown}` must start with `http://` or `https://`")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("`{shown}` names no host"));
    }
    Ok(())
}

/// The variables `value` uses that `allowed` does not list, in order, each once.
pub fn unlisted_vars(value: &str, allowed: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in var_names(value) {
        if !allowed.iter().any(|a| a == name) && !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    out
}

pub(crate) fn var_names(value: &str) -> impl Iterator<Item = &str> {
    VAR.captures_iter(value)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_must_be_http_with_a_host() {
        assert!(check_url("http://127.0.0.1:8080/hook").is_ok());
        assert!(check_url("https://hooks.example.com").is_ok());
        for bad in ["", "ftp://x/y", "/relative", "http://", "not a url"] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unlisted_vars_are_named_once_in_order() {
        let allowed = vec!["TOKEN".to_string()];
        assert_eq!(
            unlisted_vars("$SECRET ${TOKEN} ${SECRET} $OTHER", &allowed),
            ["SECRET", "OTHER"]
        );
    }
}
