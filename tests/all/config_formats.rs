//! Agents whose hooks live in a TOML (Kimi Code) or YAML (Hermes) config of
//! the user's: install merges into the user's own file, and uninstall gives
//! the user's bytes back, comments and layout included.

use crate::install::snapshot;
use crate::util::TempProject;

/// A user's config with comments, blank lines and hooks of their own.
const KIMI: &str = "# Kimi Code config\ndefault_model = \"kimi-k2\"   # the fast one\n\n[[hooks]]\nevent = \"Notification\"\nmatcher = \"task\\\\.completed\"\ncommand = \"notify-send Kimi done\"\n\n[loop_control]\nmax_steps_per_turn = 100\n";

const HERMES: &str = "# Hermes config\nmodel:\n  default: hermes-4   # mine\n\nhooks:\n  # formatting after edits\n  post_tool_call:\n    - matcher: \"write_file|patch\"\n      command: ~/.hermes/agent-hooks/fmt.sh\n\nhooks_auto_accept: false\n";

/// A project whose hooks run before tools (so install registers that event).
fn project() -> TempProject {
    let p = TempProject::new();
    p.project_hooks(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}
    ]}}));
    p
}

/// Writes `text` at `rel` under the project's home.
fn write_home(p: &TempProject, rel: &str, text: &str) {
    let path = p.home.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `agenthooks ARGS` with the agents' home variables unset (the defaults
/// under the project's home apply).
fn cmd(p: &TempProject, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = p.cmd(args);
    cmd.env_remove("KIMI_CODE_HOME").env_remove("HERMES_HOME");
    cmd
}

fn round_trip(agent: &str, rel: &str, text: &str, needles: &[&str]) {
    let p = project();
    write_home(&p, rel, text);
    let before = snapshot(&p.home);
    let ran = p.output(cmd(&p, &["install", agent, "--user"]), "");
    assert_eq!(ran.code(), 0, "{agent}: {}{}", ran.stdout(), ran.stderr());
    let installed = std::fs::read_to_string(p.home.join(rel)).unwrap();
    for needle in needles {
        assert!(
            installed.contains(needle),
            "{agent}: no `{needle}` in:\n{installed}"
        );
    }
    let again = p.output(cmd(&p, &["install", agent, "--user"]), "");
    assert_eq!(again.code(), 0, "{agent}: {}", again.stderr());
    assert_eq!(
        std::fs::read_to_string(p.home.join(rel)).unwrap(),
        installed,
        "{agent}: a second install changed the file"
    );
    let status = p.output(cmd(&p, &["status"]), "");
    let line = format!("agent {agent}: installed at user (");
    assert!(
        status.stdout().contains(&line),
        "{agent}: {}",
        status.stdout()
    );
    let ran = p.output(cmd(&p, &["uninstall", agent, "--user"]), "");
    assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
    assert_eq!(
        snapshot(&p.home),
        before,
        "{agent}: uninstall left a change"
    );
}

#[test]
fn kimi_install_appends_hooks_tables_and_uninstall_gives_the_bytes_back() {
    round_trip(
        "kimi",
        ".kimi-code/config.toml",
        KIMI,
        &[
            "# Kimi Code config\ndefault_model = \"kimi-k2\"   # the fast one\n",
            "event = \"PreToolUse\"",
            " run --agent kimi --event PreToolUse",
            "timeout = 30",
        ],
    );
}

#[test]
fn kimi_uninstall_gives_back_a_file_without_a_final_newline() {
    round_trip(
        "kimi",
        ".kimi-code/config.toml",
        KIMI.trim_end(),
        &["max_steps_per_turn = 100\n", "event = \"SessionStart\""],
    );
}

#[test]
fn hermes_install_adds_a_fenced_block_and_uninstall_gives_the_bytes_back() {
    round_trip(
        "hermes",
        ".hermes/config.yaml",
        HERMES,
        &[
            "# formatting after edits\n",
            "  pre_tool_call:\n    - command: \"sh -c '",
            " run --agent hermes --event pre_tool_call",
            "      timeout: 60\n",
        ],
    );
}

#[test]
fn a_config_that_cannot_be_read_is_left_alone_with_one_line() {
    for (agent, rel, text, says) in [
        (
            "kimi",
            ".kimi-code/config.toml",
            "hooks = 3\n",
            "not an array of tables",
        ),
        (
            "kimi",
            ".kimi-code/config.toml",
            "[[hooks]\n",
            "not valid TOML",
        ),
        (
            "hermes",
            ".hermes/config.yaml",
            "hooks:\n  pre_tool_call:\n    - command: mine\n",
            "holds hooks of yours",
        ),
    ] {
        let p = project();
        write_home(&p, rel, text);
        let ran = p.output(cmd(&p, &["install", agent, "--user"]), "");
        assert_ne!(ran.code(), 0, "{agent}: {}", ran.stdout());
        ran.assert_stderr_contains(says);
        assert_eq!(std::fs::read_to_string(p.home.join(rel)).unwrap(), text);
    }
}
