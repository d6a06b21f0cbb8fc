//! The agent tables' generator (`runtime/build/agent_tables.rs`, run by
//! `build.rs`): what it makes of a table and how it refuses a bad one.

#[path = "../../build/agent_tables.rs"]
mod agent_tables;

use agent_tables::generate;

const FILE: &str = "src/agents/x/table.toml";

/// The one line `generate` fails with.
fn refused(text: &str) -> String {
    let line = generate(FILE, text).expect_err("the table is refused");
    assert!(!line.contains('\n'), "one line: {line}");
    assert!(line.starts_with(FILE), "names the file: {line}");
    line
}

#[test]
fn a_table_becomes_the_builders_an_agent_module_would_write() {
    let code = generate(
        FILE,
        r#"
[caps]
PERMISSION = ["Deny", "Ask"]
[table]
events = [
    { event = "PreToolUse", native = "preToolUse", caps = ["PERMISSION", "-Ask", "Context"], tool = "Bash", decode_only = true },
    { event = "Stop", native = "stop" },
]
tools = [["Bash", "Shell"]]
renames = [{ tools = ["Read"], native = "p", canonical = "file_path" }]
fields = [["conversation_id", "session_id"]]
notes = ["a \"quoted\" note"]
plain_stdout = true
text_max = 100
"#,
    )
    .unwrap();
    for part in [
        "pub static TABLE: crate::agents::Table = crate::agents::Table::new(&[",
        "crate::agents::EventRow::new(crate::protocol::EventName::PreToolUse, \"preToolUse\", crate::agents::Caps::NONE.with(&[crate::agents::AnswerKind::Deny]).with(&[crate::agents::AnswerKind::Ask]).without(&[crate::agents::AnswerKind::Ask]).with(&[crate::agents::AnswerKind::Context])).for_tool(\"Bash\").decode_only(),",
        "crate::agents::EventRow::new(crate::protocol::EventName::Stop, \"stop\", crate::agents::Caps::NONE),",
        "crate::agents::tool(\"Bash\", \"Shell\"),",
        "crate::agents::rename(&[\"Read\"], \"p\", \"file_path\"),",
        ".with_fields(&[(\"conversation_id\", \"session_id\")])",
        "\"a \\\"quoted\\\" note\",",
        ".with_plain_stdout()",
        ".with_text_max(100);",
    ] {
        assert!(code.contains(part), "{part}\nnot in\n{code}");
    }
}

#[test]
fn rows_from_claude_are_claude_rows() {
    let code = generate(
        FILE,
        r#"
[table]
from_claude = true
events = [
    { event = "SessionStart" },
    { event = "UserPromptSubmit", native = "PromptSubmit", caps = [] },
    { event = "PreToolUse", caps = ["Claude", "-Ask"] },
]
"#,
    )
    .unwrap();
    assert!(
        code.contains("crate::agents::Table::new(crate::agents::claude::claude_rows![\n    SessionStart,\n    UserPromptSubmit as \"PromptSubmit\" => crate::agents::Caps::NONE,\n    PreToolUse => crate::agents::claude::row(crate::protocol::EventName::PreToolUse).caps.without(&[crate::agents::AnswerKind::Ask]),\n])"),
        "{code}"
    );
}

#[test]
fn a_bad_table_is_refused_in_one_line_naming_the_key() {
    let cases = [
        ("[table\n", "not TOML"),
        ("[tabel]\n", "at `tabel`: unknown key"),
        ("[table]\n", "at `table.events`: missing"),
        (
            "[table]\nevents = [{ event = \"Stop\" }]\n",
            "at `table.events[0].native`: missing",
        ),
        (
            "[table]\nevents = [{ event = \"Stop\", native = \"s\", caps = [\"Dney\"] }]\n",
            "at `table.events[0].caps[0]`: `Dney` is neither an answer kind",
        ),
        (
            "[table]\nevents = [{ event = \"Stop\", native = \"s\", caps = [\"Deny\", \"Claude\"] }]\n",
            "at `table.events[0].caps[1]`: `Claude`",
        ),
        (
            "[table]\nevents = [{ event = \"Stop\", native = \"s\", caps = [\"-Dney\"] }]\n",
            "at `table.events[0].caps[0]`: `-Dney`",
        ),
        (
            "[table]\nevents = [{ event = \"Stop\", native = \"s\", color = 1 }]\n",
            "at `table.events[0].color`: unknown key",
        ),
        (
            "[table]\nevents = [{ event = \"Stop(); evil\", native = \"s\" }]\n",
            "at `table.events[0].event`: `Stop(); evil` is not an event name",
        ),
        (
            "[table]\nfrom_claude = true\nevents = [{ event = \"Stop\", decode_only = true }]\n",
            "at `table.events[0].decode_only`: unknown key",
        ),
        (
            "[table]\nevents = [{ event = \"Stop\", native = \"s\" }]\ntools = [[\"Bash\"]]\n",
            "at `table.tools[0]`: not a pair",
        ),
        (
            "[table]\nevents = [{ event = \"Stop\", native = \"s\" }]\ntext_max = 0\n",
            "at `table.text_max`: not a positive",
        ),
        (
            "[caps]\nX = [\"Claude\"]\n[table]\nevents = [{ event = \"Stop\", native = \"s\" }]\n",
            "at `caps.X`",
        ),
    ];
    for (text, want) in cases {
        let line = refused(text);
        assert!(line.contains(want), "{want:?} not in {line:?}");
    }
}

#[test]
fn the_generator_knows_every_answer_kind() {
    let kinds: Vec<String> = crate::agents::AnswerKind::ALL
        .iter()
        .map(|k| format!("{k:?}"))
        .collect();
    assert_eq!(kinds, agent_tables::ANSWER_KINDS);
}

/// Every table file is re-exported by the agent module of its name, and
/// every such re-export names a table file, so none is dead or missing.
#[test]
fn each_table_file_belongs_to_its_agent_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/agents");
    let mut tables = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.join("table.toml").is_file() {
            tables.push(path.file_name().unwrap().to_str().unwrap().to_string());
        }
    }
    tables.sort();
    let mut includes = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(path.join("mod.rs")).unwrap_or_default();
        let stem = path.file_name().unwrap().to_str().unwrap().to_string();
        if text.contains(&format!("pub use super::tables::{stem}::TABLE;")) {
            includes.push(stem);
        }
    }
    includes.sort();
    assert!(tables.len() > 20, "{tables:?}");
    assert_eq!(tables, includes);
}
