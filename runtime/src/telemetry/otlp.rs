//! OTLP over HTTP: spooled spans and audit records as the official wire
//! types (`opentelemetry-proto`), encoded as protobuf (prost) or OTLP/JSON
//! (its serde mapping: camelCase, hex ids, 64-bit integers as strings), and
//! posted with ureq, bounded by the settings' timeout.
//!
//! Only the engine calls this (the flusher, `audit export`): the small
//! `agenthooks` binary links no HTTP client and no protobuf.

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue, InstrumentationScope, KeyValue};
use opentelemetry_proto::tonic::logs::v1::{LogRecord, ResourceLogs, ScopeLogs};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::{
    span, status, ResourceSpans, ScopeSpans, Span, Status,
};

use super::settings::{shown, Protocol, Settings};
use super::spool::{Attr, SpanRecord};

/// The instrumentation scope every span and log record is under.
pub const SCOPE: &str = "agenthooks";

/// An attribute as OTLP has it.
pub fn key_value(key: &str, value: &Attr) -> KeyValue {
    let value = match value {
        Attr::Bool(b) => any_value::Value::BoolValue(*b),
        Attr::Int(i) => any_value::Value::IntValue(*i),
        Attr::Str(s) => any_value::Value::StringValue(s.clone()),
    };
    KeyValue {
        key: key.to_string(),
        value: Some(AnyValue { value: Some(value) }),
        ..KeyValue::default()
    }
}

/// The resource: `service.name`, `service.version` and
/// `OTEL_RESOURCE_ATTRIBUTES`.
fn resource(attrs: &[(String, String)]) -> Resource {
    Resource {
        attributes: attrs
            .iter()
            .map(|(k, v)| key_value(k, &Attr::Str(v.clone())))
            .collect(),
        ..Resource::default()
    }
}

fn scope() -> InstrumentationScope {
    InstrumentationScope {
        name: SCOPE.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        ..InstrumentationScope::default()
    }
}

/// Decoded hex, or nothing (an id the spool mangled is sent empty, which
/// OTLP reads as invalid, rather than crash the flusher).
fn unhex(text: &str) -> Vec<u8> {
    let digits: Option<Vec<u8>> = text
        .as_bytes()
        .chunks(2)
        .map(|pair| {
            let s = std::str::from_utf8(pair).ok()?;
            u8::from_str_radix(s, 16).ok()
        })
        .collect();
    digits.unwrap_or_default()
}

/// A spooled span as OTLP's.
pub fn span(record: &SpanRecord) -> Span {
    Span {
        trace_id: unhex(&record.trace),
        span_id: unhex(&record.span),
        parent_span_id: record.parent.as_deref().map(unhex).unwrap_or_default(),
        trace_state: record.state.clone().unwrap_or_default(),
        name: record.name.clone(),
        kind: span::SpanKind::Internal as i32,
        start_time_unix_nano: record.start,
        end_time_unix_nano: record.end,
        attributes: record.attrs.iter().map(|(k, v)| key_value(k, v)).collect(),
        status: record.error.as_ref().map(|message| Status {
            message: message.clone(),
            code: status::StatusCode::Error as i32,
        }),
        ..Span::default()
    }
}

/// One export request for `spans` under the resource `attrs`.
pub fn traces_request(
    spans: &[SpanRecord],
    attrs: &[(String, String)],
) -> ExportTraceServiceRequest {
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(resource(attrs)),
            scope_spans: vec![ScopeSpans {
                scope: Some(scope()),
                spans: spans.iter().map(span).collect(),
                ..ScopeSpans::default()
            }],
            ..ResourceSpans::default()
        }],
    }
}

/// One export request for log `records` under the resource `attrs`.
pub fn logs_request(
    records: Vec<LogRecord>,
    attrs: &[(String, String)],
) -> ExportLogsServiceRequest {
    ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            resource: Some(resource(attrs)),
            scope_logs: vec![ScopeLogs {
                scope: Some(scope()),
                log_records: records,
                ..ScopeLogs::default()
            }],
            ..ResourceLogs::default()
        }],
    }
}

/// A request's body in the settings' encoding, and its content type.
pub fn encode<M: prost::Message + serde::Serialize>(
    message: &M,
    protocol: Protocol,
) -> (Vec<u8>, &'static str) {
    match protocol {
        Protocol::Protobuf => (message.encode_to_vec(), "application/x-protobuf"),
        Protocol::Json => (
            serde_json::to_vec(message).unwrap_or_default(),
            "application/json",
        ),
    }
}

/// POST `message` to the settings' endpoint within their timeout (at most
/// `cap`). The error is one line naming the endpoint (never a header).
///
/// # Errors
/// A request that fails, times out, or gets a status other than 2xx.
pub fn post<M: prost::Message + serde::Serialize>(
    settings: &Settings,
    message: &M,
    cap: std::time::Duration,
) -> Result<(), String> {
    let (body, content_type) = encode(message, settings.protocol);
    let timeout = settings.timeout.min(cap);
    // The endpoint is the one configured: no proxy from the environment
    // and no redirect takes the spans elsewhere.
    let mut request = crate::exec::http::agent(timeout, None)
        .post(&settings.url)
        .header("content-type", content_type);
    for (name, value) in &settings.headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let endpoint = shown(&settings.url);
    match request.send(&body[..]) {
        Ok(response) if response.status().is_success() => Ok(()),
        Ok(response) => Err(format!(
            "`{endpoint}` answered HTTP {}",
            response.status().as_u16()
        )),
        Err(ureq::Error::Timeout(_)) => Err(format!(
            "`{endpoint}` did not answer within {} ms",
            timeout.as_millis()
        )),
        // ureq's errors name the host and the cause, never the headers.
        Err(e) => Err(crate::protocol::one_line(&format!(
            "cannot reach `{endpoint}`: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message as _;

    fn record() -> SpanRecord {
        SpanRecord {
            trace: "4bf92f3577b34da6a3ce929d0e0e4736".into(),
            span: "00f067aa0ba902b7".into(),
            parent: Some("b7ad6b7169203331".into()),
            state: None,
            name: "agenthooks PreToolUse".into(),
            start: 1_700_000_000_000_000_001,
            end: 1_700_000_000_100_000_000,
            error: Some("timeout".into()),
            attrs: vec![
                ("agenthooks.event".into(), Attr::Str("PreToolUse".into())),
                ("agenthooks.hook.fuel".into(), Attr::Int(42)),
            ],
        }
    }

    #[test]
    fn otlp_json_has_hex_ids_camel_case_and_int64_as_strings() {
        let request = traces_request(&[record()], &[("service.name".into(), "agenthooks".into())]);
        let (body, content_type) = encode(&request, Protocol::Json);
        assert_eq!(content_type, "application/json");
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let span = &json["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
        assert_eq!(span["traceId"], "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(span["spanId"], "00f067aa0ba902b7");
        assert_eq!(span["parentSpanId"], "b7ad6b7169203331");
        assert_eq!(span["startTimeUnixNano"], "1700000000000000001");
        assert_eq!(span["attributes"][1]["value"]["intValue"], "42");
        assert_eq!(span["status"]["code"], 2);
        // The same types read it back, as a receiver does.
        let back: ExportTraceServiceRequest = serde_json::from_slice(&body).unwrap();
        assert_eq!(back, request);
    }

    #[test]
    fn protobuf_round_trips() {
        let request = traces_request(&[record()], &[]);
        let (body, content_type) = encode(&request, Protocol::Protobuf);
        assert_eq!(content_type, "application/x-protobuf");
        assert_eq!(
            ExportTraceServiceRequest::decode(&body[..]).unwrap(),
            request
        );
    }

    #[test]
    fn a_mangled_id_is_sent_empty() {
        assert_eq!(unhex("zz"), Vec::<u8>::new());
        assert_eq!(unhex("0a0b"), vec![10, 11]);
    }
}
