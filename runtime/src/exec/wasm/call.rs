//! Calling a prepared component: a fresh store and instance per event with
//! the handler's [`Sandbox`] (fuel, epoch deadline, memory, output caps),
//! and what the call came to.

use std::time::{Duration, Instant};

use wasmtime::{Store, UpdateDeadline};

use super::bindings::{self, Hook, HookPre};
use super::sandbox::HostState;
use super::{classify, Notes, Sandbox, WasmHost, GRACE, OUTPUT_LIMIT};
use crate::exec::Report;
use crate::protocol::{Event, Failure, Outcome};

impl WasmHost {
    /// Call the guest with `left` of the handler's time (its timeout less
    /// what loading took).
    pub(super) async fn call(
        &self,
        pre: &HookPre<HostState>,
        sandbox: &Sandbox,
        left: Duration,
        event: &Event,
        report: &mut Report,
        notes: &mut Notes,
    ) -> Outcome {
        let mut list = Vec::new();
        let state = sandbox.build(&mut list);
        list.into_iter().for_each(|n| notes.note(n));
        let stdout = state.stdout.clone();
        let stderr = state.stderr.clone();
        let mut store = Store::new(pre.engine(), state);
        store.limiter(|s| &mut s.limiter);
        if let Err(e) = store.set_fuel(sandbox.limits.fuel) {
            return Outcome::Failed(Failure::Internal {
                why: format!("cannot set fuel: {e}"),
            });
        }
        let deadline = Instant::now() + left;
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |_| {
            // Yielding each tick lets the outer timeout and other hooks run.
            Ok(if Instant::now() >= deadline {
                UpdateDeadline::Interrupt
            } else {
                UpdateDeadline::Yield(1)
            })
        });
        let input = bindings::wit_event(event);
        let call = async {
            let hook: Hook = pre.instantiate_async(&mut store).await?;
            hook.call_handle(&mut store, &input).await
        };
        let result = tokio::time::timeout(left + GRACE, call).await;

        let out = stdout.contents();
        let err = stderr.contents();
        let output_full = out.len() > OUTPUT_LIMIT || err.len() > OUTPUT_LIMIT;
        report.stdout = lossy(&out);
        report.stderr = lossy(&err);
        store.data_mut().log.drain_into(notes);
        let fuel_left = store.get_fuel().ok();
        let cx = classify::CallContext {
            limits: sandbox.limits,
            timeout: sandbox.timeout,
            output_full,
            stderr: report.stderr.clone(),
        };
        let outcome = match result {
            Err(_elapsed) => Outcome::Failed(Failure::Timeout {
                after: sandbox.timeout,
            }),
            Ok(Err(e)) => Outcome::Failed(classify::call_failure(&e, &cx)),
            Ok(Ok(Err(message))) => Outcome::Failed(Failure::GuestError { message }),
            Ok(Ok(Ok(_))) if output_full => Outcome::Failed(Failure::OutputLimit {
                limit: OUTPUT_LIMIT,
            }),
            Ok(Ok(Ok(answer))) => match bindings::to_answer(event.name(), answer, notes) {
                Ok(answer) => Outcome::Answered(answer),
                Err(failure) => Outcome::Failed(failure),
            },
        };
        // After an interrupt the fuel counter is not written back (docs/wasm-host.md
        // §5.2), so a timed-out call reports none.
        report.fuel_used = match &outcome {
            Outcome::Failed(Failure::Timeout { .. }) => None,
            _ => fuel_left.map(|left| sandbox.limits.fuel.saturating_sub(left)),
        };
        outcome
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(OUTPUT_LIMIT)]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_capped_and_made_text() {
        assert_eq!(lossy(b"ok \xff"), "ok \u{fffd}");
        let flood = vec![b'x'; OUTPUT_LIMIT + 10];
        assert_eq!(lossy(&flood).len(), OUTPUT_LIMIT);
    }
}
