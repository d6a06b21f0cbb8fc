//! Shared helpers: a temporary project and a way to run the binary in it.
