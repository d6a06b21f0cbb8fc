//! The flusher: the engine's hidden `__otel-flush`, which `run` starts
//! after its answer to post what the spool holds ([`flush`]).

use super::spool::{LastError, Spool};
use super::{otlp, settings};

/// The most spans one request carries.
const BATCH: usize = 512;

/// How long a flusher with nothing to send waits for more before it exits.
const LINGER: std::time::Duration = std::time::Duration::from_millis(500);

/// How long a flusher goes on sending: with one last request's
/// [`settings::MAX_TIMEOUT`], it ends before its lock goes stale.
const FLUSH_FOR: std::time::Duration = std::time::Duration::from_secs(15);

/// The flusher (`__otel-flush`): export what the spool holds, again while
/// events keep adding to it (for [`FLUSH_FOR`] at most), under the spool's
/// lock. A failure puts
/// the spans back and is recorded for the next event's note.
pub fn flush() {
    let Some(spool) = Spool::open() else {
        return;
    };
    let Some(_lock) = spool.lock() else {
        return;
    };
    let config = crate::config::load(&crate::config::LoadOptions {
        home: None,
        project_root: None,
    });
    let Some(settings) = settings::resolve(settings::Signal::Traces, config.telemetry.as_ref())
    else {
        // Export was turned off since: what waits is dropped.
        let _ = spool.take();
        return;
    };
    let resource = settings::resource();
    // Well within the lock's staleness, so no second flusher takes over.
    let deadline = std::time::Instant::now() + FLUSH_FOR;
    let mut idle_since = std::time::Instant::now();
    while std::time::Instant::now() < deadline {
        let spans = spool.take();
        if spans.is_empty() {
            // A burst of events (a turn's tool calls) shares one flusher:
            // it waits a little for more before it exits.
            if idle_since.elapsed() >= LINGER {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        }
        idle_since = std::time::Instant::now();
        for (i, batch) in spans.chunks(BATCH).enumerate() {
            if std::time::Instant::now() >= deadline {
                // Time is up: the rest waits for the next flusher.
                spool.put_back(&spans[i * BATCH..]);
                return;
            }
            let request = otlp::traces_request(batch, &resource);
            if let Err(why) = otlp::post(&settings, &request, settings::MAX_TIMEOUT) {
                // The failure first: whoever finds the spans back finds why.
                spool.set_last_error(Some(&LastError {
                    endpoint: settings::shown(&settings.url),
                    why,
                }));
                spool.put_back(&spans[i * BATCH..]);
                return;
            }
        }
        spool.set_last_error(None);
    }
}
