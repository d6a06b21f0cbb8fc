//! `agenthooks audit export`: the audit log's records as OpenTelemetry log
//! records (OTLP/HTTP `/v1/logs`), for a SIEM, to the endpoint the spans go
//! to. Each record's body is its JSON line, unchanged (the chain can be
//! checked from what arrives); its attributes are the span names for the
//! same facts, plus its own hash and `prev`.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue};
use opentelemetry_proto::tonic::logs::v1::{LogRecord, SeverityNumber};
use serde_json::Value;

use super::attr;
use super::otlp;
use super::settings::{self, Settings};
use super::spool::{nanos, Attr};

/// The records one request carries.
const BATCH: usize = 256;

/// The longest line read as a record (the audit log's own bound).
const MAX_LINE: u64 = 1 << 20;

/// The longest one request may take, whatever the settings say: the
/// command ends, with an error naming the endpoint.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(30);

/// The log records' event name.
pub const EVENT_NAME: &str = "agenthooks.audit";

/// The attribute holding a record's own hash (`sha256:<hex>` of its line).
pub const AUDIT_HASH: &str = "agenthooks.audit.hash";

/// The attribute holding the hash of the record before it (`prev`).
pub const AUDIT_PREV: &str = "agenthooks.audit.prev";

/// How far an export went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// Records sent.
    pub records: usize,
    /// Lines skipped: not JSON objects.
    pub skipped: usize,
}

/// Send every record of `files` (read in order) to `settings`' endpoint.
///
/// # Errors
/// One line naming the endpoint (or the file) and how many records had
/// been sent, at the first request that fails.
pub fn export(files: &[PathBuf], settings: &Settings) -> Result<Exported, String> {
    let resource = settings::resource();
    let mut done = Exported {
        records: 0,
        skipped: 0,
    };
    let mut batch = Vec::new();
    let send = |batch: &mut Vec<LogRecord>, done: &mut Exported| -> Result<(), String> {
        if batch.is_empty() {
            return Ok(());
        }
        let n = batch.len();
        let request = otlp::logs_request(std::mem::take(batch), &resource);
        otlp::post(settings, &request, MAX_TIMEOUT)
            .map_err(|why| format!("{why} ({} records sent before)", done.records))?;
        done.records += n;
        Ok(())
    };
    for file in files {
        let opened = std::fs::File::open(file)
            .map_err(|e| format!("cannot read `{}`: {e}", file.display()))?;
        let mut reader = BufReader::new(opened);
        loop {
            let mut line = Vec::new();
            let n = (&mut reader)
                .take(MAX_LINE)
                .read_until(b'\n', &mut line)
                .map_err(|e| format!("cannot read `{}`: {e}", file.display()))?;
            if n == 0 {
                break;
            }
            let body = line.strip_suffix(b"\n").unwrap_or(&line);
            match log_record(body) {
                Some(record) => batch.push(record),
                None => done.skipped += usize::from(!body.is_empty()),
            }
            if batch.len() == BATCH {
                send(&mut batch, &mut done)?;
            }
        }
    }
    send(&mut batch, &mut done)?;
    Ok(done)
}

/// One audit line as a log record; `None` when it is not a JSON object.
pub fn log_record(line: &[u8]) -> Option<LogRecord> {
    let Ok(Value::Object(record)) = serde_json::from_slice::<Value>(line) else {
        return None;
    };
    let text = |key: &str| record.get(key).and_then(Value::as_str);
    let mut attrs: Vec<(&str, Attr)> = Vec::new();
    let mut put = |name: &'static str, value: Option<&str>| {
        if let Some(value) = value {
            attrs.push((name, Attr::Str(value.to_string())));
        }
    };
    put(attr::EVENT, text("event"));
    put(attr::AGENT, text("agent"));
    put(attr::DECISION, text("decision"));
    put(attr::TOOL_NAME, text("tool"));
    put(attr::TOOL_CALL_ID, text("tool_use_id"));
    put(attr::CONVERSATION_ID, text("session_id"));
    put(AUDIT_PREV, text("prev"));
    let hash = crate::audit::hash_line(line);
    put(AUDIT_HASH, Some(&hash));
    let refused = matches!(text("decision"), Some("deny" | "block" | "stop"));
    let (severity, severity_text) = if refused {
        (SeverityNumber::Warn, "WARN")
    } else {
        (SeverityNumber::Info, "INFO")
    };
    Some(LogRecord {
        time_unix_nano: text("time").and_then(parse_rfc3339).unwrap_or(0),
        observed_time_unix_nano: nanos(SystemTime::now()),
        severity_number: severity as i32,
        severity_text: severity_text.to_string(),
        body: Some(AnyValue {
            value: Some(any_value::Value::StringValue(
                String::from_utf8_lossy(line).into_owned(),
            )),
        }),
        attributes: attrs.iter().map(|(k, v)| otlp::key_value(k, v)).collect(),
        event_name: EVENT_NAME.to_string(),
        ..LogRecord::default()
    })
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (what the audit log writes) as nanoseconds
/// since the epoch; `None` for anything else.
pub fn parse_rfc3339(text: &str) -> Option<u64> {
    let num = |s: &str| -> Option<u64> {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let text = text.strip_suffix('Z')?;
    let (date, time) = text.split_once('T')?;
    let mut d = date.splitn(3, '-');
    let (y, m, day) = (num(d.next()?)?, num(d.next()?)?, num(d.next()?)?);
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut t = hms.splitn(3, ':');
    let (hh, mm, ss) = (num(t.next()?)?, num(t.next()?)?, num(t.next()?)?);
    if !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || hh > 23
        || mm > 59
        || ss > 60
        || y < 1970
    {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    let frac_nanos = if frac.is_empty() {
        0
    } else {
        let digits: String = frac.chars().take(9).collect();
        num(&digits)? * 10u64.pow(9 - digits.len() as u32)
    };
    let secs = days * 86_400 + hh * 3600 + mm * 60 + ss;
    secs.checked_mul(1_000_000_000)?.checked_add(frac_nanos)
}

/// The audit log's files, oldest first: the rotated `<path>.1` when it
/// exists, then `<path>`.
pub fn files_of(log: &Path, rotated: PathBuf) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if rotated.is_file() {
        files.push(rotated);
    }
    files.push(log.to_path_buf());
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audit_time_format_parses() {
        let t = crate::encoding::rfc3339(
            SystemTime::UNIX_EPOCH + Duration::from_millis(1_765_000_000_123),
        );
        assert_eq!(parse_rfc3339(&t), Some(1_765_000_000_123_000_000));
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        for bad in [
            "",
            "x",
            "2026-13-01T00:00:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01T0a:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_record_becomes_a_log_record_with_its_hash() {
        let line = br#"{"time":"2026-12-07T10:00:00.000Z","agent":"claude","event":"PreToolUse","tool":"Bash","session_id":"s1","decision":"deny","prev":"genesis","handlers":[]}"#;
        let record = log_record(line).unwrap();
        let attr = |k: &str| {
            record
                .attributes
                .iter()
                .find(|a| a.key == k)
                .and_then(|a| a.value.clone())
                .and_then(|v| v.value)
        };
        let s = |v: &str| Some(any_value::Value::StringValue(v.into()));
        assert_eq!(attr("agenthooks.event"), s("PreToolUse"));
        assert_eq!(attr("gen_ai.conversation.id"), s("s1"));
        assert_eq!(attr("agenthooks.audit.prev"), s("genesis"));
        assert_eq!(attr(AUDIT_HASH), s(&crate::audit::hash_line(line)));
        assert_eq!(record.severity_number, SeverityNumber::Warn as i32);
        assert_eq!(record.event_name, EVENT_NAME);
        assert!(log_record(b"not json").is_none());
        assert!(log_record(b"[1]").is_none());
    }
}
