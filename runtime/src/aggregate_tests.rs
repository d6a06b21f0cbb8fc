//! Tests of the aggregator.
