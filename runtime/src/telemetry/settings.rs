//! Where spans and logs go: the standard `OTEL_*` variables, else the
//! managed or user file's `telemetry` object (never a project's).
//!
//! The variables win over the file when they name an endpoint, as every
//! OpenTelemetry SDK reads them; `OTEL_SDK_DISABLED=true` turns export off
//! whatever else says. [`enabled`] is what an event asks: a few variable
//! reads and nothing else, so an event with telemetry off costs no more.

use std::time::Duration;

use crate::config::{Config, TelemetryConfig};

/// One export's time when nothing says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// The longest one export of spans may take, whatever
/// `OTEL_EXPORTER_OTLP_TIMEOUT` says: the flusher must end soon after the
/// event (it runs after the answer, never before it).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(5);

/// The service name when `OTEL_SERVICE_NAME` is unset.
pub const SERVICE_NAME: &str = "agenthooks";

/// Which OpenTelemetry signal is exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// Spans, to `/v1/traces`.
    Traces,
    /// Log records (`audit export`), to `/v1/logs`.
    Logs,
}

impl Signal {
    /// The path under the base endpoint.
    fn path(self) -> &'static str {
        match self {
            Signal::Traces => "v1/traces",
            Signal::Logs => "v1/logs",
        }
    }

    /// The signal's name in its variables (`OTEL_EXPORTER_OTLP_TRACES_*`).
    fn var(self, suffix: &str) -> String {
        let signal = match self {
            Signal::Traces => "TRACES",
            Signal::Logs => "LOGS",
        };
        format!("OTEL_EXPORTER_OTLP_{signal}_{suffix}")
    }
}

/// OTLP/HTTP's two encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// `http/protobuf` (the default).
    Protobuf,
    /// `http/json`.
    Json,
}

/// Where and how one signal is exported.
#[derive(Clone, PartialEq, Eq)]
pub struct Settings {
    /// The full URL posted to.
    pub url: String,
    /// The encoding.
    pub protocol: Protocol,
    /// Headers sent with each request (often an API key: never shown).
    pub headers: Vec<(String, String)>,
    /// How long one request may take.
    pub timeout: Duration,
}

/// Never the headers' values: they are often API keys.
impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Settings")
            .field("url", &shown(&self.url))
            .field("protocol", &self.protocol)
            .field("headers", &names)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// Whether export is on for an event loaded with `config`: the variables
/// name an endpoint or the file has `telemetry`, and `OTEL_SDK_DISABLED`
/// is not `true`. Reads a few variables; allocates only for those set.
pub fn enabled(config: &Config) -> bool {
    !disabled() && (env_names_endpoint() || config.telemetry.is_some())
}

/// `OTEL_SDK_DISABLED=true` (any case).
fn disabled() -> bool {
    std::env::var_os("OTEL_SDK_DISABLED").is_some_and(|v| {
        v.to_str()
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    })
}

/// Whether an `OTEL_EXPORTER_OTLP_*ENDPOINT` variable is set, not empty.
fn env_names_endpoint() -> bool {
    [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// The settings for `signal` from this process's variables and `file`
/// (the managed or user `telemetry`); `None` when export is off.
pub fn resolve(signal: Signal, file: Option<&TelemetryConfig>) -> Option<Settings> {
    resolve_with(signal, file, |name| std::env::var(name).ok())
}

/// [`resolve`] with the variables read through `var`.
pub fn resolve_with(
    signal: Signal,
    file: Option<&TelemetryConfig>,
    var: impl Fn(&str) -> Option<String>,
) -> Option<Settings> {
    let var = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    if var("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
        return None;
    }
    let own = var(&signal.var("ENDPOINT"));
    let base = var("OTEL_EXPORTER_OTLP_ENDPOINT");
    if own.is_none() && base.is_none() {
        let file = file?;
        return Some(Settings {
            url: under(&file.endpoint, signal),
            protocol: protocol(file.protocol.as_deref()),
            headers: file.headers.clone(),
            timeout: file.timeout.unwrap_or(DEFAULT_TIMEOUT),
        });
    }
    // The signal's own endpoint is used as it is; the base one gets the
    // signal's path (the OTLP exporter specification).
    let url = own.unwrap_or_else(|| under(base.as_deref().unwrap_or_default(), signal));
    let mut headers = parse_headers(var("OTEL_EXPORTER_OTLP_HEADERS").as_deref());
    for (name, value) in parse_headers(var(&signal.var("HEADERS")).as_deref()) {
        headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        headers.push((name, value));
    }
    let timeout = var(&signal.var("TIMEOUT"))
        .or_else(|| var("OTEL_EXPORTER_OTLP_TIMEOUT"))
        .and_then(|ms| ms.trim().parse::<u64>().ok())
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis);
    let protocol_var = var(&signal.var("PROTOCOL")).or_else(|| var("OTEL_EXPORTER_OTLP_PROTOCOL"));
    Some(Settings {
        url,
        protocol: protocol(protocol_var.as_deref()),
        headers,
        timeout,
    })
}

/// `base` with the signal's path: `http://h:4318` → `http://h:4318/v1/traces`.
fn under(base: &str, signal: Signal) -> String {
    format!("{}/{}", base.trim().trim_end_matches('/'), signal.path())
}

/// `http/json` is JSON; anything else (`http/protobuf`, unset, or `grpc`,
/// which this exporter does not speak) is protobuf over HTTP.
fn protocol(name: Option<&str>) -> Protocol {
    match name.map(str::trim) {
        Some(p) if p.eq_ignore_ascii_case("http/json") => Protocol::Json,
        _ => Protocol::Protobuf,
    }
}

/// `OTEL_EXPORTER_OTLP_HEADERS`: `k1=v1,k2=v2`, values percent-encoded
/// (W3C Baggage's format); a member without `=` is skipped.
pub fn parse_headers(text: Option<&str>) -> Vec<(String, String)> {
    text.unwrap_or_default()
        .split(',')
        .filter_map(|member| {
            let (name, value) = member.split_once('=')?;
            let name = percent_decode(name.trim());
            (!name.is_empty()).then(|| (name, percent_decode(value.trim())))
        })
        .collect()
}

/// `OTEL_RESOURCE_ATTRIBUTES` (`k=v,...`, percent-encoded) and
/// `OTEL_SERVICE_NAME` (which wins for `service.name`), with
/// `service.name` defaulting to `agenthooks` and `service.version` ours.
pub fn resource() -> Vec<(String, String)> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let mut attrs = parse_headers(var("OTEL_RESOURCE_ATTRIBUTES").as_deref());
    let service = var("OTEL_SERVICE_NAME")
        .or_else(|| {
            attrs
                .iter()
                .find(|(k, _)| k == "service.name")
                .map(|(_, v)| v.clone())
        })
        .unwrap_or_else(|| SERVICE_NAME.to_string());
    attrs.retain(|(k, _)| k != "service.name" && k != "service.version");
    attrs.insert(0, ("service.name".into(), service));
    attrs.insert(
        1,
        ("service.version".into(), env!("CARGO_PKG_VERSION").into()),
    );
    attrs
}

/// `%XX` sequences decoded; anything else kept as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A URL as it may be shown: without the user and password some put in
/// it (`http://user:key@host` → `http://host`).
pub fn shown(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let shown = if scheme.is_empty() {
        format!("{host}{path}")
    } else {
        format!("{scheme}://{host}{path}")
    };
    crate::protocol::one_line(&shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::env_of as with;

    #[test]
    fn the_base_endpoint_gets_the_signal_path_and_the_own_one_is_kept() {
        let vars = [("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4318/")];
        let s = resolve_with(Signal::Traces, None, with(&vars)).unwrap();
        assert_eq!(s.url, "http://h:4318/v1/traces");
        assert_eq!(s.protocol, Protocol::Protobuf);
        assert_eq!(s.timeout, DEFAULT_TIMEOUT);
        let s = resolve_with(Signal::Logs, None, with(&vars)).unwrap();
        assert_eq!(s.url, "http://h:4318/v1/logs");
        let vars = [
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t/custom"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
            ("OTEL_EXPORTER_OTLP_TIMEOUT", "700"),
        ];
        let s = resolve_with(Signal::Traces, None, with(&vars)).unwrap();
        assert_eq!(s.url, "http://t/custom");
        assert_eq!(s.protocol, Protocol::Json);
        assert_eq!(s.timeout, Duration::from_millis(700));
    }

    #[test]
    fn headers_merge_the_signal_ones_win_and_are_never_shown() {
        let vars = [
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://u:pw@h:4318"),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "api-key=sec%20ret, x=1,broken",
            ),
            ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "X=2"),
        ];
        let s = resolve_with(Signal::Traces, None, with(&vars)).unwrap();
        assert_eq!(
            s.headers,
            [
                ("api-key".into(), "sec ret".into()),
                ("X".into(), "2".into())
            ]
        );
        let debug = format!("{s:?}");
        assert!(!debug.contains("sec") && !debug.contains("pw"), "{debug}");
        assert_eq!(shown(&s.url), "http://h:4318/v1/traces");
    }

    #[test]
    fn the_file_is_used_without_variables_and_disabled_wins() {
        let file = TelemetryConfig {
            endpoint: "http://c:4318".into(),
            protocol: Some("http/json".into()),
            headers: vec![("k".into(), "v".into())],
            timeout: None,
        };
        let s = resolve_with(Signal::Traces, Some(&file), with(&[])).unwrap();
        assert_eq!(s.url, "http://c:4318/v1/traces");
        assert_eq!(s.protocol, Protocol::Json);
        assert_eq!(resolve_with(Signal::Traces, None, with(&[])), None);
        let off = [("OTEL_SDK_DISABLED", "TRUE")];
        assert_eq!(resolve_with(Signal::Traces, Some(&file), with(&off)), None);
    }
}
