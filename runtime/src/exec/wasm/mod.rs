//! WebAssembly component hooks in a wasmtime sandbox.
