//! What the unit tests of several modules share: built only for tests.

use serde_json::{Map, Value};

/// The object a test wrote as `json!({…})`; anything else is the test's
/// own mistake.
pub(crate) fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

/// An environment of `vars` only, as a lookup by name.
pub(crate) fn env_of<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        vars.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
    }
}

/// `text` ends every line with CRLF: a CRLF file was edited and kept its
/// line endings.
pub(crate) fn assert_crlf_only(text: &str) {
    assert!(
        !text.replace("\r\n", "").contains('\n'),
        "CRLF not kept: {text:?}"
    );
}
