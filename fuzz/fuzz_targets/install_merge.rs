//! `install` then `uninstall` of one agent's JSON config: input
//! `[agent byte][the native file's bytes]`. An agent byte of 128 or more
//! picks among the agents whose file may hold comments and trailing commas
//! (JSONC: Gemini, Qwen, Crush), so the fuzzer spends half its time there.
//!
//! Plans run against a scratch project exactly as `install` plans them; the
//! planned bytes are put in place as `apply` would (the file, its backup).
//! For any file the merger accepts that holds no entries of ours, uninstall
//! must give back the input bytes exactly (comments and all) and a second
//! install must change nothing; a refusal is one bounded line.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use agenthooks::fuzzing::Scope;
use agenthooks::fuzzing::{plan, Action, Env, FileChange, Request, Used};
use agenthooks::fuzzing::{Agent, Registration, AGENTS, USER_ONLY};
use agenthooks_fuzz::{assert_one_bounded_line, scratch_dir};
use libfuzzer_sys::fuzz_target;

struct Scratch {
    project: PathBuf,
    env: Env,
}

fn scratch() -> &'static Scratch {
    static SCRATCH: OnceLock<Scratch> = OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = scratch_dir(&["project", "home"]);
        Scratch {
            project: dir.join("project"),
            env: Env::with_home(dir.join("home")),
        }
    })
}

/// The agents whose hooks live in a JSON file in the project (a user-only
/// agent has no project file to merge into).
fn json_agents() -> &'static [&'static dyn Agent] {
    static JSON: OnceLock<Vec<&'static dyn Agent>> = OnceLock::new();
    JSON.get_or_init(|| {
        AGENTS
            .iter()
            .copied()
            .filter(|a| matches!(a.install_spec().registration, Registration::Json(_)))
            .filter(|a| a.install_spec().project != USER_ONLY)
            .collect()
    })
}

fn one(agent: &'static dyn Agent, action: Action) -> Result<FileChange, String> {
    let s = scratch();
    let req = Request {
        agent,
        action,
        scope: Scope::Project,
        project_root: &s.project,
        env: &s.env,
        binary: Path::new("agenthooks"),
        coverage: None,
        status_messages: &Default::default(),
        used: &Used::Unknown,
    };
    match plan(&req) {
        Ok(mut changes) => {
            assert_eq!(changes.len(), 1, "one JSON file per agent");
            Ok(changes.remove(0))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn put(path: &Path, bytes: Option<&[u8]>) {
    match bytes {
        Some(b) => std::fs::write(path, b).expect("write a scratch file"),
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The agents of [`json_agents`] that accept comments in their file.
fn jsonc_agents() -> &'static [usize] {
    static JSONC: OnceLock<Vec<usize>> = OnceLock::new();
    JSONC.get_or_init(|| {
        json_agents()
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(&a.install_spec().registration, Registration::Json(j) if j.jsonc))
            .map(|(i, _)| i)
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, bytes @ ..] = data else {
        return;
    };
    let agents = json_agents();
    let index = if *pick >= 128 {
        let jsonc = jsonc_agents();
        jsonc[usize::from(*pick - 128) % jsonc.len()]
    } else {
        usize::from(*pick) % agents.len()
    };
    let agent = agents[index];
    // Where this agent's file is: what an install into nothing would create.
    let file = {
        static PATHS: OnceLock<Vec<PathBuf>> = OnceLock::new();
        let paths = PATHS.get_or_init(|| {
            agents
                .iter()
                .map(|a| one(*a, Action::Install).expect("install into nothing").path)
                .collect()
        });
        &paths[index]
    };
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("its dir");
    // No backup from an earlier input (they live under the state directory).
    if let Some(state) = &scratch().env.state {
        let _ = std::fs::remove_dir_all(state);
    }
    put(file, Some(bytes));

    let installed = match one(agent, Action::Install) {
        Ok(change) => change,
        Err(why) => {
            assert_one_bounded_line("an install refusal", &why);
            return;
        }
    };
    if let Some(b) = &installed.backup {
        std::fs::create_dir_all(b.parent().expect("a parent")).expect("the backups folder");
        put(b, installed.before.as_deref());
    }
    put(file, installed.after.as_deref());
    let again = one(agent, Action::Install).expect("install reads what install wrote");
    assert_eq!(
        again.after, again.before,
        "{}: a second install changed the file",
        agent.id()
    );
    let removed = one(agent, Action::Uninstall).expect("uninstall reads what install wrote");
    if !bytes.windows(10).any(|w| w == b"agenthooks") {
        assert_eq!(
            removed.after.as_deref(),
            Some(bytes),
            "{}: install then uninstall did not give the file back (after install: {:?})",
            agent.id(),
            installed.after.as_deref().map(String::from_utf8_lossy)
        );
    }
});
