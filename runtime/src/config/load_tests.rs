//! Tests of the loader.
