//! The one parser of a command hook's output: input
//! `[event byte][exit byte][stdout]\0[stderr]`.
//!
//! The exit byte is a code (as `i8`: 0, 2, 1, -1, ...), or a signal when it
//! is 0x7f. No panic; exit 2 always blocks; exit 0 with nothing on stdout is
//! no opinion; every failure displays as one bounded line.
#![no_main]

use agenthooks::fuzzing::{parse_output, Decision, EventName, Exit, Outcome};
use agenthooks_fuzz::assert_one_bounded_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [event, exit, rest @ ..] = data else {
        return;
    };
    let event = EventName::ALL[usize::from(*event) % EventName::ALL.len()];
    let exit = match *exit {
        0x7f => Exit::Signal(9),
        b => Exit::Code(i32::from(b as i8)),
    };
    let (stdout, stderr) = match rest.iter().position(|&b| b == 0) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &rest[..0]),
    };
    let stdout = String::from_utf8_lossy(stdout);
    let stderr = String::from_utf8_lossy(stderr);
    let outcome = parse_output(event, exit, &stdout, &stderr);
    match (&outcome, exit) {
        (Outcome::Answered(answer), Exit::Code(2)) => {
            assert_eq!(answer.decision, Some(Decision::Block), "exit 2 must block");
        }
        (Outcome::Answered(answer), Exit::Code(0)) if stdout.trim().is_empty() => {
            assert!(answer.is_empty(), "empty stdout must be no opinion");
        }
        (Outcome::Answered(_), Exit::Code(0)) => {}
        (Outcome::Failed(failure), _) => {
            assert_one_bounded_line("a hook-output failure", &failure.to_string());
        }
        (other, exit) => panic!("{exit:?} gave {other:?}"),
    }
    if let Outcome::Answered(answer) = &outcome {
        // What the aggregator and the encoders receive must serialise.
        serde_json::to_string(answer).expect("an answer serialises");
    }
});
