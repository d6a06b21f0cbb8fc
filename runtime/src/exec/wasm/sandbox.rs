//! What a guest may touch and use: the [`Sandbox`] builder grants nothing by
//! default and turns a handler's `allow` grants and limits into one store's state.
//!
//! Defaults (docs/design.md §6): 2·10⁹ fuel, the handler's timeout, 64 MiB of
//! linear memory, no preopened directories, no environment, no arguments, no
//! network, stdin empty, stdout and stderr captured up to 64 KiB each, at most
//! 1,000 lines or 64 KiB of `host.log` per call (the rest dropped with a
//! note), and every memory growth charged to the event's shared budget.

use std::collections::HashSet;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use wasmtime::component::ResourceTable;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::sockets::SocketAddrUse;
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use super::bindings::{self, Level};
use super::limiter::HookLimiter;
use super::Notes;
use crate::config::{Grants, Limits, WasmSpec, DEFAULT_TIMEOUT};
use crate::exec::EventMemory;

/// Bytes of stdout, and separately of stderr, a guest may write per call.
pub const OUTPUT_LIMIT: usize = 64 << 10;
/// Bytes of `host.log` kept per call.
pub const LOG_LIMIT: usize = 64 << 10;
/// Lines of `host.log` kept per call: counted as well as bytes, so a flood of
/// empty lines is bounded too.
pub const LOG_LINES: usize = 1000;
/// Bytes one `wasi:random` call may ask for (wasmtime's default is 64 MiB of host memory).
const RANDOM_LIMIT: usize = 1 << 20;

/// The limits and grants of one guest call. Built from a handler with
/// [`Sandbox::from_spec`] or by hand; nothing is granted unless asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Sandbox {
    /// Fuel (CPU budget; default 2·10⁹, about 0.1 s of tight loop) and
    /// linear memory (default 64 MiB): [`Limits::DEFAULT`].
    pub limits: Limits,
    /// Wall-clock limit; default the handler's timeout (60 s).
    pub timeout: Duration,
    /// Directories preopened read-only, at the same path inside the guest.
    pub read: Vec<PathBuf>,
    /// Directories preopened read-write, at the same path inside the guest.
    pub write: Vec<PathBuf>,
    /// Host environment variables passed through by name (absent ones are skipped).
    pub env: Vec<String>,
    /// `host:port` pairs the guest may open TCP connections to.
    pub net: Vec<String>,
    /// The memory budget shared with the other wasm hooks of the event, if any.
    pub event_memory: Option<EventMemory>,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new()
    }
}

impl Sandbox {
    /// The defaults: the limits above, nothing granted.
    pub fn new() -> Sandbox {
        Sandbox {
            limits: Limits::DEFAULT,
            timeout: DEFAULT_TIMEOUT,
            read: Vec::new(),
            write: Vec::new(),
            env: Vec::new(),
            net: Vec::new(),
            event_memory: None,
        }
    }

    /// This sandbox, its memory growth also charged to `event` (shared with
    /// the other wasm hooks of the event).
    pub fn sharing(mut self, event: EventMemory) -> Sandbox {
        self.event_memory = Some(event);
        self
    }

    /// The sandbox a wasm handler asked for. Grant paths are used as given:
    /// the loader has already made them absolute against the scope's base.
    pub fn from_spec(spec: &WasmSpec, timeout: Duration) -> Sandbox {
        let Grants {
            read,
            write,
            env,
            net,
        } = &spec.allow;
        Sandbox {
            limits: spec.limits,
            timeout,
            read: read.clone(),
            write: write.clone(),
            env: env.clone(),
            net: net.clone(),
            event_memory: None,
        }
    }

    /// The linear-memory limit in bytes (saturating).
    pub(crate) fn memory_bytes(&self) -> usize {
        usize::try_from(self.limits.memory_mib)
            .ok()
            .and_then(|mib| mib.checked_mul(1 << 20))
            .unwrap_or(usize::MAX)
    }

    /// The state of one store for this sandbox. Grants that cannot be honoured
    /// (a missing directory, an unresolvable address) are withheld with a note.
    pub(crate) fn build(&self, notes: &mut Vec<String>) -> HostState {
        let stdout = MemoryOutputPipe::new(OUTPUT_LIMIT + 1);
        let stderr = MemoryOutputPipe::new(OUTPUT_LIMIT + 1);
        let mut b = WasiCtxBuilder::new();
        b.stdout(stdout.clone())
            .stderr(stderr.clone())
            .max_random_size(RANDOM_LIMIT as u64)
            .allow_udp(false);
        for dir in &self.write {
            preopen(&mut b, dir, FsPerms::ReadWrite, notes);
        }
        for dir in self.read.iter().filter(|d| !self.write.contains(d)) {
            preopen(&mut b, dir, FsPerms::ReadOnly, notes);
        }
        for name in &self.env {
            match std::env::var(name) {
                Ok(value) => {
                    b.env(name, value);
                }
                Err(std::env::VarError::NotPresent) => {}
                Err(std::env::VarError::NotUnicode(_)) => {
                    notes.push(format!("allow.env `{name}`: not valid UTF-8; withheld"));
                }
            }
        }
        let grants = Arc::new(net_grants(&self.net, notes));
        let any_net = !grants.is_empty();
        b.allow_tcp(any_net)
            .allow_ip_name_lookup(any_net)
            .socket_addr_check(move |addr, use_| {
                let grants = grants.clone();
                Box::pin(async move {
                    match use_ {
                        // `connect` on an unbound socket first checks the implicit
                        // bind to the wildcard address (docs/wasm-host.md §2.2).
                        SocketAddrUse::TcpBind => {
                            any_net && addr.ip().is_unspecified() && addr.port() == 0
                        }
                        SocketAddrUse::TcpConnect => grants.allow(addr).await,
                        _ => false,
                    }
                })
            });
        HostState {
            wasi: b.build(),
            table: ResourceTable::new(),
            limiter: HookLimiter::new(self.memory_bytes(), self.event_memory.clone()),
            log: Log::default(),
            stdout,
            stderr,
        }
    }
}

fn preopen(b: &mut WasiCtxBuilder, dir: &Path, perms: FsPerms, notes: &mut Vec<String>) {
    let what = match perms {
        FsPerms::ReadOnly => "allow.read",
        FsPerms::ReadWrite => "allow.write",
    };
    let Some(guest) = dir.to_str() else {
        notes.push(format!(
            "{what} `{}`: not valid UTF-8; withheld",
            dir.display()
        ));
        return;
    };
    if !dir.is_dir() {
        notes.push(format!("{what} `{guest}`: not a directory; withheld"));
        return;
    }
    if let Err(e) = b.preopened_dir(dir, guest, perms) {
        notes.push(format!("{what} `{guest}`: cannot open ({e}); withheld"));
    }
}

/// The `allow.net` grants: addresses, and `host:port` names resolved when the
/// guest connects, so a slow DNS server counts against the hook's timeout
/// instead of holding up the start of every call.
#[derive(Debug, Default)]
struct NetGrants {
    addrs: HashSet<SocketAddr>,
    names: Vec<String>,
}

impl NetGrants {
    fn is_empty(&self) -> bool {
        self.addrs.is_empty() && self.names.is_empty()
    }

    async fn allow(&self, addr: SocketAddr) -> bool {
        if self.addrs.contains(&addr) {
            return true;
        }
        if self.names.is_empty() {
            return false;
        }
        let names = self.names.clone();
        // Name resolution blocks; keep it off the executor.
        let resolved = tokio::task::spawn_blocking(move || {
            names
                .iter()
                .filter_map(|n| n.to_socket_addrs().ok())
                .flatten()
                .collect::<Vec<_>>()
        })
        .await;
        resolved.is_ok_and(|all| all.contains(&addr))
    }
}

fn net_grants(grants: &[String], notes: &mut Vec<String>) -> NetGrants {
    let mut out = NetGrants::default();
    for grant in grants {
        if let Ok(addr) = grant.parse::<SocketAddr>() {
            out.addrs.insert(addr);
            continue;
        }
        let port_ok = grant
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if port_ok {
            out.names.push(grant.clone());
        } else {
            notes.push(format!("allow.net `{grant}`: not `host:port`; withheld"));
        }
    }
    out
}

/// The log lines of one call: the first [`LOG_LINES`] lines or
/// [`LOG_LIMIT`] bytes, whichever comes first; past that, lines are only
/// counted, so a flood costs the host nothing per call.
#[derive(Debug, Default)]
pub(crate) struct Log {
    /// `(level, message)` in the order logged.
    lines: Vec<(Level, String)>,
    bytes: usize,
    /// Lines past the quota, dropped.
    dropped: u64,
}

impl Log {
    fn push(&mut self, level: Level, message: String) {
        let full = self.dropped > 0
            || self.lines.len() >= LOG_LINES
            || self.bytes.saturating_add(message.len()) > LOG_LIMIT;
        if full {
            self.dropped = self.dropped.saturating_add(1);
            return;
        }
        self.bytes += message.len();
        self.lines.push((level, message));
    }

    /// The kept lines as details (shown with `--verbose`), and one note when
    /// lines were dropped.
    pub(crate) fn drain_into(&mut self, notes: &mut Notes) {
        for (level, line) in std::mem::take(&mut self.lines) {
            notes.detail(format!("log {}: {line}", bindings::level_name(level)));
        }
        if self.dropped > 0 {
            notes.note(format!(
                "its log went past {LOG_LINES} lines or {} KiB in one call; \
                 the {} lines after that were dropped",
                LOG_LIMIT >> 10,
                self.dropped
            ));
        }
    }
}

/// Everything one store holds: WASI, the limiter, the log and the output pipes.
pub(crate) struct HostState {
    wasi: WasiCtx,
    table: ResourceTable,
    pub limiter: HookLimiter,
    pub log: Log,
    pub stdout: MemoryOutputPipe,
    pub stderr: MemoryOutputPipe,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl bindings::TypesImports for HostState {}

impl bindings::HostImports for HostState {
    fn log(&mut self, level: Level, message: String) {
        self.log.push(level, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bindings::HostImports as _;

    #[test]
    fn from_spec_takes_limits_and_grants() {
        let spec = WasmSpec {
            component: "h.wasm".into(),
            oci: None,
            limits: Limits {
                fuel: 7,
                memory_mib: 3,
            },
            allow: Grants {
                read: vec!["/p/src".into(), "/abs".into()],
                write: vec!["/p/out".into()],
                env: vec!["HOME".into()],
                net: vec!["127.0.0.1:80".into()],
            },
        };
        let sb = Sandbox::from_spec(&spec, Duration::from_secs(2));
        assert_eq!(sb.limits.fuel, 7);
        assert_eq!(sb.memory_bytes(), 3 << 20);
        assert_eq!(sb.timeout, Duration::from_secs(2));
        assert_eq!(
            sb.read,
            vec![PathBuf::from("/p/src"), PathBuf::from("/abs")]
        );
        assert_eq!(sb.write, vec![PathBuf::from("/p/out")]);
        assert_eq!(sb.env, vec!["HOME".to_string()]);
    }

    #[test]
    fn grants_that_cannot_be_honoured_are_withheld_with_a_note() {
        let sb = Sandbox {
            read: vec!["/no/such/dir".into()],
            net: vec!["not an address".into()],
            ..Sandbox::new()
        };
        let mut notes = Vec::new();
        sb.build(&mut notes);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("allow.read `/no/such/dir`: not a directory"));
        assert_eq!(
            notes[1],
            "allow.net `not an address`: not `host:port`; withheld"
        );
    }

    #[test]
    fn the_log_keeps_lines_and_bytes_up_to_the_quota_and_counts_the_rest() {
        let mut state = Sandbox::new().build(&mut Vec::new());
        // Empty lines cost no bytes: the line count bounds them.
        for _ in 0..LOG_LINES + 5000 {
            state.log(Level::Info, String::new());
        }
        assert_eq!(state.log.lines.len(), LOG_LINES);
        assert_eq!(state.log.dropped, 5000);
        let mut notes = Notes::new(false);
        state.log.drain_into(&mut notes);
        assert_eq!(
            notes.list,
            ["its log went past 1000 lines or 64 KiB in one call; \
              the 5000 lines after that were dropped"]
        );

        let mut state = Sandbox::new().build(&mut Vec::new());
        state.log(Level::Info, "x".repeat(LOG_LIMIT - 1));
        state.log(Level::Warn, "yy".into());
        // Once past the quota, even a line that would fit is dropped.
        state.log(Level::Warn, String::new());
        assert_eq!(state.log.lines.len(), 1);
        assert_eq!(state.log.dropped, 2);
        let mut notes = Notes::new(true);
        state.log.drain_into(&mut notes);
        // The kept line is a detail; the drop is a note.
        assert_eq!(notes.list.len(), 1, "{:?}", notes.list);
        assert_eq!(notes.details.len(), 1, "{:?}", notes.details);
        assert!(notes.details[0].starts_with("log info: xxx"));
    }
}
