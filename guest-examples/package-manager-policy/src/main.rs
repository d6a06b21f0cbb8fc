//! `package-manager-policy`: a `PreToolUse` hook for shell tools that keeps
//! installs to the project's package managers and out of the system, and
//! says nothing about anything else.
//!
//! Denied (each reason names the rule and what to run instead):
//! - an install under `sudo` or `doas` (`sudo npm install -g x`, `sudo pip install x`);
//! - a global install (`npm install -g`, `npm i --global`, `pnpm add -g`,
//!   `yarn global add`, `bun add -g`);
//! - `pip install --break-system-packages`;
//! - with a policy set, an install with another manager of the same
//!   language: in a `pnpm` project, `npm install x` and `yarn add x` are
//!   denied ("this project installs with `pnpm`"); likewise `pip` in a `uv`
//!   or `poetry` project.
//!
//! Installs are `npm install|i|add|ci`, `yarn [add|install]`, `pnpm
//! add|install|i`, `bun add|install|i`, `pip`/`pip3`/`python -m pip install`,
//! `uv add|sync` and `uv pip install`, `poetry add|install`, `pipenv install`.
//! Running scripts, tests and builds (`npm test`, `pnpm run build`) is never judged.
//!
//! Configuration: the environment variable `AGENTHOOKS_PACKAGE_MANAGERS`
//! lists the managers the project installs with, separated by commas or
//! spaces (`pnpm,uv`); a language none of them belongs to is not limited.
//! A component sees it only when `.agents/hooks.json` grants it
//! (`"allow": {"env": ["AGENTHOOKS_PACKAGE_MANAGERS"]}`). Without it, only
//! the sudo, global and system-package rules apply.
//!
//! Build: `cargo build --release --target wasm32-wasip2 -p package-manager-policy`.

#![forbid(unsafe_code)]

use agenthooks_sdk::shell::{self, SimpleCommand};
use agenthooks_sdk::{Answer, Event};

/// The variable naming the project's package managers.
const POLICY_VAR: &str = "AGENTHOOKS_PACKAGE_MANAGERS";

/// The managers of each language.
const FAMILIES: &[(&str, &[&str])] = &[
    ("JavaScript", &["npm", "yarn", "pnpm", "bun"]),
    ("Python", &["pip", "uv", "poetry", "pipenv"]),
];

fn policy(event: Event) -> Answer {
    if !matches!(event.name(), "PreToolUse" | "PermissionRequest") {
        return Answer::none();
    }
    let Some(command) = event.shell_command() else {
        return Answer::none();
    };
    let allowed = allowed(&std::env::var(POLICY_VAR).unwrap_or_default());
    match check(command, &allowed) {
        Some(why) => Answer::deny(format!("package-manager-policy: {why}")),
        None => Answer::none(),
    }
}

agenthooks_sdk::export!(policy);

/// The managers [`POLICY_VAR`]'s value allows.
fn allowed(text: &str) -> Vec<String> {
    text.split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| normalize(&m.to_ascii_lowercase()).to_string())
        .collect()
}

/// `pip3` is `pip`.
fn normalize(manager: &str) -> &str {
    match manager {
        "pip3" => "pip",
        m => m,
    }
}

/// An install: the manager, and whether it is global.
struct Install<'a> {
    manager: &'a str,
    global: bool,
    breaks_system: bool,
}

/// The install `c` runs, if it is one.
fn install(c: &SimpleCommand) -> Option<Install<'_>> {
    let program = c.program()?;
    let args: Vec<&str> = c.args().iter().map(String::as_str).collect();
    let (manager, rest): (&str, &[&str]) = match program {
        p if p.starts_with("python") && args.starts_with(&["-m", "pip"]) => ("pip", &args[2..]),
        p => (normalize(p), &args[..]),
    };
    let sub = rest.iter().find(|a| !a.starts_with('-')).copied();
    let has = |flags: &[&str]| rest.iter().any(|a| flags.contains(a));
    let installs = match manager {
        "npm" => matches!(sub, Some("install" | "i" | "add" | "ci")),
        "yarn" => matches!(sub, None | Some("add" | "install" | "global")),
        "pnpm" | "bun" => matches!(sub, Some("add" | "install" | "i")),
        "pip" => sub == Some("install"),
        "uv" => {
            matches!(sub, Some("add" | "sync")) || (sub == Some("pip") && rest.contains(&"install"))
        }
        "poetry" => matches!(sub, Some("add" | "install")),
        "pipenv" => sub == Some("install"),
        _ => false,
    };
    installs.then(|| Install {
        manager,
        global: has(&["-g", "--global", "--location=global"]) || sub == Some("global"),
        breaks_system: has(&["--break-system-packages"]),
    })
}

/// Why `command` breaks the policy, or `None`.
fn check(command: &str, allowed: &[String]) -> Option<String> {
    shell::commands(command).iter().find_map(|c| {
        let i = install(c)?;
        let m = i.manager;
        if c.is_privileged() {
            return Some(format!(
                "`{m}` installs as root with sudo; install into the project (or a virtual environment) instead"
            ));
        }
        if i.global {
            return Some(format!(
                "a global `{m}` install changes the whole machine; add it to the project instead"
            ));
        }
        if i.breaks_system {
            return Some(format!(
                "`{m} install --break-system-packages` overwrites the system's Python packages; use a virtual environment"
            ));
        }
        let (language, managers) = FAMILIES.iter().find(|(_, ms)| ms.contains(&m))?;
        let chosen: Vec<&str> = allowed
            .iter()
            .map(String::as_str)
            .filter(|a| managers.contains(a))
            .collect();
        (!chosen.is_empty() && !chosen.contains(&m)).then(|| {
            format!(
                "this project installs {language} packages with `{}`, not `{m}`",
                chosen.join("` or `")
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    include!("../../cases.rs");

    #[test]
    fn every_case_of_its_table_gets_its_answer_without_a_policy() {
        let wrong = wrong_cases_in(
            include_str!("../cases.json"),
            "package-manager-policy",
            |event| match event.shell_command().and_then(|c| check(c, &[])) {
                Some(why) => Answer::deny(format!("package-manager-policy: {why}")),
                None => Answer::none(),
            },
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn every_case_of_its_policy_table_gets_its_answer() {
        // The table `cases-policy.json` is judged with `pnpm, uv` as the policy.
        let policy = allowed("pnpm, uv");
        let wrong = wrong_cases_in(
            include_str!("../cases-policy.json"),
            "package-manager-policy",
            |event| match event.shell_command().and_then(|c| check(c, &policy)) {
                Some(why) => Answer::deny(format!("package-manager-policy: {why}")),
                None => Answer::none(),
            },
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn the_policy_reads_commas_spaces_and_pip3() {
        assert_eq!(allowed(" pnpm,uv  pip3\n"), ["pnpm", "uv", "pip"]);
        assert!(allowed("").is_empty());
    }
}
