//! Property tests on stable (fixed seeds, so a failure replays): the query API against a
//! Dijkstra oracle over thousands of decoded queries (the same harness as the `query` fuzz
//! target), and the map and scenario parsers on random and mutated input. Every input gives a
//! typed answer, never a panic; see docs/robustness.md.

mod common;

use common::query_check::{Outcome, check_query};
use rand::RngExt;
use voxnav::{LoadError, Scenario, VoxelWorld, WorldError};

#[test]
fn thousands_of_decoded_queries_agree_with_the_oracle() {
    let mut rng = common::rng(0x0F0F_1234);
    let mut total = Outcome::default();
    for _ in 0..20_000 {
        let len = rng.random_range(0..160);
        let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let o = match std::panic::catch_unwind(|| check_query(&data)) {
            Ok(o) => o,
            Err(e) => panic!("query check failed on input {data:?}: {e:?}"),
        };
        total += o;
    }
    eprintln!("{total:?}");
    // Each kind of answer must have been exercised, or the test checks nothing.
    assert!(total.paths > 4000, "{total:?}");
    assert!(total.errors > 3000, "{total:?}");
    assert!(total.world_changed > 80, "{total:?}");
    assert!(total.clearance_paths > 25, "{total:?}");
    assert!(total.paths_across_chunks > 500, "{total:?}");
    assert!(total.field_costs > 1000, "{total:?}");
    assert!(total.repairs_broken > 500, "{total:?}");
    assert!(total.queue_edited > 50, "{total:?}");
    assert!(total.smoothed > 1000, "{total:?}");
    assert!(total.smoothed_with_clearance > 40, "{total:?}");
    // Agents on smoothed flights rejoin their own paths, nearly all of them.
    assert!(total.rejoined * 10 > total.smoothed * 9, "{total:?}");
    assert!(total.field_with_clearance > 40, "{total:?}");
    assert!(total.batched > 10000, "{total:?}");
    assert!(total.raced > 4000 && total.raced_swept > 200 && total.raced_sliced > 40, "{total:?}");
    assert!(total.tight_limits > 300, "{total:?}");
}

/// Inputs the `query` fuzz target found failing, replayed through the same harness.
#[test]
fn fuzz_findings_replay() {
    // Run 25: a kept pathfinder's jump point search held 173,232 bytes within a limit of
    // 100,000: its node records grew by whole segments of 64 KB, whatever the limit left.
    let records_past_the_limit: &[u8] = &[
        0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 185, 185, 255, 255, 255, 21, 0, 231, 11, 185, 185, 148, 25, 51,
        37, 231, 185, 0, 231, 185, 185, 0, 185, 185, 255, 255, 43, 255, 21, 0, 231, 185, 185, 148, 25, 51, 37, 231,
        229, 229,
    ];
    check_query(records_past_the_limit);
}

/// A valid map, then the same bytes mutated: bit flips, truncations, spliced numbers.
#[test]
fn map_and_scenario_parsers_give_typed_errors_on_mutated_input() {
    let map = "voxel 20 10 30\n1 2 3\n4 5 6\n19 9 29\n0 0 0\n";
    let scen = "version 1\nmap.3dmap\n1 2 3 4 5 6 7.5 1.0\n0 0 0 19 9 29 40.25 1.2\n";
    assert!(VoxelWorld::from_3dmap(map).is_ok());
    assert!(Scenario::from_3dscen(scen).is_ok());
    let mut rng = common::rng(77);
    let (mut ok, mut err) = (0, 0);
    for i in 0..20_000 {
        let base = if i % 2 == 0 { map } else { scen };
        let mut bytes = base.as_bytes().to_vec();
        match rng.random_range(0..4) {
            0 => {
                let at = rng.random_range(0..bytes.len());
                bytes[at] ^= 1 << rng.random_range(0..8);
            }
            1 => bytes.truncate(rng.random_range(0..bytes.len())),
            2 => {
                let at = rng.random_range(0..bytes.len());
                let junk =
                    ["4294967296", "-1", "99999999999999999999", "1e30", "nan", "\n", " ", "voxel 1048576 65536 1\n"];
                let j = junk[rng.random_range(0..junk.len())];
                bytes.splice(at..at, j.bytes());
            }
            _ => bytes = (0..rng.random_range(0..64)).map(|_| rng.random()).collect(),
        }
        let text = String::from_utf8_lossy(&bytes);
        let r = if i % 2 == 0 {
            VoxelWorld::from_3dmap(&text).map(|_| ())
        } else {
            Scenario::from_3dscen(&text).map(|_| ())
        };
        match r {
            Ok(()) => ok += 1,
            Err(LoadError::Syntax { .. } | LoadError::OutOfRange { .. } | LoadError::World { .. }) => err += 1,
            Err(e) => panic!("unexpected error kind for {text:?}: {e:?}"),
        }
    }
    assert!(ok > 1000 && err > 5000, "ok {ok} err {err}");
}

#[test]
fn hostile_map_headers_are_refused_by_the_limits() {
    for header in ["voxel 1048576 1048576 1\n", "voxel 1048576 65536 1\n", "voxel 65536 65536 64\n"] {
        match VoxelWorld::from_3dmap(header) {
            Err(LoadError::World {
                source: WorldError::MemoryLimit { .. } | WorldError::InvalidDimensions { .. },
                ..
            }) => {}
            other => panic!("{header:?}: accepted ({})", other.is_ok()),
        }
    }
}
