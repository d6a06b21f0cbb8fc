//! The SDK's shell-command splitter on any line: no panic, no hang, and
//! what it returns is consistent (a program is one of the words).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    for command in agenthooks_sdk::shell::commands(line) {
        if let Some(program) = command.program() {
            assert!(
                command.words.iter().any(|w| w.ends_with(program)),
                "program {program:?} is not among the words {:?}",
                command.words
            );
        }
        let args = command.args();
        assert!(args.len() <= command.words.len());
        let _ = command.is_privileged();
    }
});
