//! The spine: `run`, `fire` and `schema` with real shell hooks.
