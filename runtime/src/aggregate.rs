//! Stage 5 of the pipeline (aggregate): many outcomes → one answer (DESIGN.md §5).
