//! The spellings every layer shares: lower-case hex for digests, RFC 3339
//! for instants, a JSON value as jsonc-parser's edit input. At the bottom of the stage order (see
//! `layers.rs`), so that the compile cache, `once`, OCI,
//! trust and the audit log format a digest or a time without importing one
//! another.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonc_parser::cst::CstInputValue;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lower-case hex of `bytes`: the one spelling of every digest agenthooks
/// shows, stores or keys by (trust, the compile cache, OCI). A wasm report
/// carries its component's digest, so no `format!` per byte.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// `time` as RFC 3339 in UTC with milliseconds: `2026-11-29T11:53:30.123Z`.
pub fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`, for non-negative days).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// `value` as jsonc-parser's input type (for an edit of its syntax tree):
/// the one conversion, used by install's and `add`'s edits.
pub fn cst_input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(cst_input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), cst_input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_formats_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(951_782_400_250); // leap day 2000
        assert_eq!(rfc3339(t), "2000-02-29T00:00:00.250Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_953_599);
        assert_eq!(rfc3339(t), "2026-11-29T11:59:59.000Z");
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_800); // 2100 is not a leap year
        assert_eq!(rfc3339(t), "2100-01-01T00:00:00.000Z");
    }

    #[test]
    fn digests_are_lower_case_hex() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
