//! The pipeline: decode → load → select → execute → aggregate → encode.
