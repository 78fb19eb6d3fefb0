//! Fuzz target: the query API against a plain Dijkstra oracle. The bytes choose a small world,
//! endpoints, costs, rule, algorithm, fallback, media, budget, labels, and a way to run it (one
//! shot, time-sliced, with an edit or a replaced world between slices, or through a
//! `PathQueue`); see `tests/common/query_check.rs`, which the stable property test
//! `tests/properties.rs` runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

fuzz_target!(|data: &[u8]| {
    common::query_check::check_query(data);
});
