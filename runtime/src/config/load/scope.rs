//! What each scope may set: the keys honoured in the managed and user files
//! only, the managed file's own keys, and what the managed policy leaves of
//! a user or project wasm handler.

use std::fs;
use std::path::{Path, PathBuf};

use super::expand::resolve_grants;
use super::expand::resolve_path;
use super::Ctx;
use crate::config::hooks_json::HooksFile;
use crate::config::warning::WarningKind;
use crate::config::{
    AuditConfig, Config, Grants, ManagedPolicy, OnError, Scope, TelemetryConfig, WasmSpec,
};

impl Ctx<'_> {
    /// A managed file that cannot be used still exists: it fails closed,
    /// and the user file cannot say otherwise.
    pub(super) fn broken_policy(&self, config: &mut Config) {
        if self.scope == Scope::Managed {
            config.on_config_error = OnError::Deny;
            config.managed = Some(ManagedPolicy {
                file: self.file.to_path_buf(),
                sets_on_config_error: true,
                ..ManagedPolicy::default()
            });
        }
    }

    /// A key honoured in the managed and user files only: a warning for a
    /// project file, and for a user file when the managed file set it.
    fn only_managed_or_user(
        &self,
        config: &mut Config,
        key: &'static str,
        managed_set: bool,
    ) -> bool {
        match self.scope {
            Scope::Managed => true,
            Scope::User if !managed_set => true,
            Scope::User => {
                self.warn(config, WarningKind::SetByManaged { key });
                false
            }
            Scope::Project => {
                self.warn(config, WarningKind::UserFileOnly { key });
                false
            }
        }
    }
}

/// `audit`, `telemetry`, `onConfigError` and `eventMemoryMiB`: the managed
/// or user file's (a cloned repository must not turn off the audit log,
/// send spans where it likes, keep a broken file open or raise a budget).
pub(super) fn user_keys(ctx: &Ctx<'_>, config: &mut Config, parsed: &HooksFile) {
    if let Some(audit) = &parsed.audit {
        if ctx.only_managed_or_user(config, "audit", managed_sets(config, |m| m.sets_audit)) {
            config.audit = Some(AuditConfig {
                path: resolve_path(&audit.path, ctx),
                max_bytes: audit.max_bytes,
                include_input: audit.include_input.unwrap_or(false),
                sign: audit.sign.unwrap_or(false).then(|| {
                    audit
                        .signing_key
                        .as_deref()
                        .map(|key| resolve_path(key, ctx))
                }),
            });
            set_by_managed(ctx, config, |m| m.sets_audit = true);
        }
    }

    if let Some(policy) = parsed.on_config_error {
        let managed_set = managed_sets(config, |m| m.sets_on_config_error);
        if ctx.only_managed_or_user(config, "onConfigError", managed_set) {
            config.on_config_error = policy;
            set_by_managed(ctx, config, |m| m.sets_on_config_error = true);
        }
    }

    if let Some(entry) = &parsed.telemetry {
        let managed_set = managed_sets(config, |m| m.sets_telemetry);
        if ctx.only_managed_or_user(config, "telemetry", managed_set) {
            config.telemetry = Some(TelemetryConfig {
                endpoint: entry.endpoint.clone(),
                protocol: entry.protocol.clone(),
                headers: entry
                    .headers
                    .clone()
                    .unwrap_or_default()
                    .into_iter()
                    .collect(),
                timeout: entry.timeout_ms.map(std::time::Duration::from_millis),
            });
            set_by_managed(ctx, config, |m| m.sets_telemetry = true);
        }
    }

    let memory = parsed.event_memory_mib;
    if let Some(mib) = budget(ctx, config, "eventMemoryMiB", memory, |m| {
        m.sets_event_memory
    }) {
        config.budgets.event_memory_mib = mib;
        set_by_managed(ctx, config, |m| m.sets_event_memory = true);
    }
}

/// A budget's value when this file may set it (`managed_set`: whether the
/// managed file set this key; each key its own, so one budget set by the
/// managed file neither frees nor locks another) and it is at least 1 (a
/// warning otherwise).
fn budget<T: Default + PartialEq>(
    ctx: &Ctx<'_>,
    config: &mut Config,
    key: &'static str,
    value: Option<T>,
    managed_set: impl Fn(&ManagedPolicy) -> bool,
) -> Option<T> {
    let value = value?;
    if !ctx.only_managed_or_user(config, key, managed_sets(config, managed_set)) {
        return None;
    }
    if value == T::default() {
        ctx.warn(config, WarningKind::BelowOne { key });
        return None;
    }
    Some(value)
}

/// Whether the managed file set what `set` looks at.
pub(super) fn managed_sets(config: &Config, set: impl Fn(&ManagedPolicy) -> bool) -> bool {
    config.managed.as_ref().is_some_and(set)
}

/// Record on the managed policy that the managed file set something.
pub(super) fn set_by_managed(
    ctx: &Ctx<'_>,
    config: &mut Config,
    set: impl FnOnce(&mut ManagedPolicy),
) {
    if ctx.scope == Scope::Managed {
        if let Some(policy) = config.managed.as_mut() {
            set(policy);
        }
    }
}

/// `llm` and `maxLlmCalls`: the managed or user file's (a project must not
/// choose where its events are sent); `allowLlmHooks`: the managed file's.
pub(super) fn llm_keys(ctx: &Ctx<'_>, config: &mut Config, parsed: &HooksFile) {
    if let Some(entry) = &parsed.llm {
        if ctx.only_managed_or_user(config, "llm", managed_sets(config, |m| m.sets_llm)) {
            match crate::config::llm::resolve(entry) {
                Ok(settings) => {
                    config.llm = Some(settings);
                    set_by_managed(ctx, config, |m| m.sets_llm = true);
                }
                Err(why) => ctx.warn(config, WarningKind::BadLlm { why }),
            }
        }
    }
    let calls = parsed.max_llm_calls;
    if let Some(calls) = budget(ctx, config, "maxLlmCalls", calls, |m| m.sets_max_llm_calls) {
        config.budgets.max_llm_calls = calls;
        set_by_managed(ctx, config, |m| m.sets_max_llm_calls = true);
    }
    match (parsed.allow_llm_hooks, ctx.scope) {
        (Some(allow), Scope::Managed) => {
            set_by_managed(ctx, config, |m| m.forbids_llm_hooks = !allow);
        }
        (Some(_), _) => {
            let key = "allowLlmHooks";
            ctx.warn(config, WarningKind::ManagedFileOnly { key });
        }
        (None, _) => {}
    }
}

/// `managedOnly`, `projectGrants` and `allowedComponents`: the managed
/// file's alone (a warning anywhere else).
pub(super) fn managed_keys(ctx: &Ctx<'_>, config: &mut Config, parsed: &HooksFile) {
    let keys = [
        ("managedOnly", parsed.managed_only.is_some()),
        ("projectGrants", parsed.project_grants.is_some()),
        ("allowedComponents", parsed.allowed_components.is_some()),
    ];
    if ctx.scope != Scope::Managed {
        for (key, _) in keys.into_iter().filter(|(_, set)| *set) {
            ctx.warn(config, WarningKind::ManagedFileOnly { key });
        }
        return;
    }
    let grants = parsed
        .project_grants
        .clone()
        .map(|g| resolve_grants(g, ctx));
    if let Some(policy) = config.managed.as_mut() {
        policy.managed_only = parsed.managed_only.unwrap_or(false);
        policy.project_grants = grants;
        policy.allowed_components = parsed.allowed_components.clone();
    }
}

/// What the managed policy leaves of a user or project wasm handler: `None`
/// (with a warning) when its component is not from an allowed source; its
/// grants narrowed (with a warning per withheld grant) when it is a
/// project's and asks for more than `projectGrants` allows.
pub(super) fn apply_managed(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    raw_component: &str,
    mut spec: WasmSpec,
) -> Option<WasmSpec> {
    let Some(policy) = config.managed.clone() else {
        return Some(spec);
    };
    if ctx.scope == Scope::Managed {
        return Some(spec);
    }
    if let Some(allowed) = &policy.allowed_components {
        // An `oci://` component is allowed by an `oci://` source covering its
        // registry and repository; a file by a directory it is inside.
        let ok = allowed.iter().any(|source| match &spec.oci {
            Some(oci) => oci.reference.allowed_by(source),
            None => {
                !source.starts_with(crate::oci::SCHEME)
                    && within(&spec.component, &resolve_path(source, ctx))
            }
        });
        if !ok {
            config.refused_components.push(raw_component.to_string());
            let warning = WarningKind::ComponentRefused {
                at: at.to_string(),
                component: raw_component.to_string(),
                policy: policy.file.clone(),
                allowed: allowed.clone(),
            };
            ctx.warn(config, warning);
            return None;
        }
    }
    if let (Scope::Project, Some(max)) = (ctx.scope, &policy.project_grants) {
        withhold_grants(ctx, config, at, &policy.file, max, &mut spec.allow);
    }
    Some(spec)
}

/// A project handler's grants narrowed to what the managed policy's
/// `projectGrants` (`max`) allows, with one warning naming what was withheld.
fn withhold_grants(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    policy: &Path,
    max: &Grants,
    allow: &mut Grants,
) {
    let mut withheld = Vec::new();
    let mut keep_paths = |paths: &mut Vec<PathBuf>, limits: &[PathBuf], key: &str| {
        paths.retain(|p| {
            let ok = limits.iter().any(|l| within(p, l));
            if !ok {
                withheld.push(format!("`allow.{key}` {}", p.display()));
            }
            ok
        });
    };
    keep_paths(&mut allow.read, &max.read, "read");
    keep_paths(&mut allow.write, &max.write, "write");
    let mut keep_names = |names: &mut Vec<String>, limits: &[String], key: &str| {
        names.retain(|n| {
            let ok = limits.contains(n);
            if !ok {
                withheld.push(format!("`allow.{key}` {n}"));
            }
            ok
        });
    };
    keep_names(&mut allow.env, &max.env, "env");
    keep_names(&mut allow.net, &max.net, "net");
    if !withheld.is_empty() {
        let warning = WarningKind::GrantsWithheld {
            at: at.to_string(),
            policy: policy.to_path_buf(),
            withheld,
        };
        ctx.warn(config, warning);
    }
}

/// Whether `path` is `dir` or inside it, compared canonically when both
/// exist (so `..` and symlinks cannot leave `dir`), else lexically with no
/// `..` allowed.
pub(super) fn within(path: &Path, dir: &Path) -> bool {
    if let (Ok(p), Ok(d)) = (fs::canonicalize(path), fs::canonicalize(dir)) {
        return p.starts_with(d);
    }
    let up = |p: &Path| {
        p.components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    };
    !up(path) && !up(dir) && path.starts_with(dir)
}

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;
