//! The `agenthooks` command line.
