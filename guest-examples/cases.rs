// The shared case table (`guest-examples/cases.json`), read by the Rust
// examples' tests with `include!("../../cases.rs")`; the Python and
// JavaScript examples' tests read the same table.

/// Each case of `hook` in the table whose answer from `run` is not the
/// table's: deny with exactly its reason, or no opinion (`null`).
#[allow(dead_code)] // The guards with a table of their own use `wrong_cases_in`.
fn wrong_cases(
    hook: &str,
    run: impl Fn(agenthooks_sdk::Event) -> agenthooks_sdk::Answer,
) -> Vec<String> {
    wrong_cases_in(include_str!("cases.json"), hook, run)
}

/// [`wrong_cases`] in another table of the same layout (a guard's own
/// `cases.json`, for the guards the Python and JavaScript examples lack).
fn wrong_cases_in(
    table: &str,
    hook: &str,
    run: impl Fn(agenthooks_sdk::Event) -> agenthooks_sdk::Answer,
) -> Vec<String> {
    let table: serde_json::Value = serde_json::from_str(table).expect("cases.json is JSON");
    let cases = table["cases"].as_array().expect("cases.json has `cases`");
    let mine: Vec<_> = cases.iter().filter(|c| c["hook"] == hook).collect();
    assert!(!mine.is_empty(), "no case of `{hook}` in cases.json");
    mine.into_iter()
        .filter_map(|case| {
            let event = agenthooks_sdk::Event::from_json(serde_json::json!({
                "hook_event_name": case["event"],
                "tool_name": case["tool"],
                "tool_input": case["tool_input"],
            }))
            .expect("a case is an event");
            let answer = run(event);
            let got = match answer.permission() {
                Some(agenthooks_sdk::Permission::Deny) => answer.reason().map(str::to_string),
                _ if answer.is_none() => None,
                _ => Some(format!("{answer:?}")),
            };
            let expected = case["deny"].as_str().map(str::to_string);
            (got != expected)
                .then(|| format!("{}: expected {expected:?}, got {got:?}", case["tool_input"]))
        })
        .collect()
}
